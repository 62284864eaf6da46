"""The ECR loop of Box 1: select by eq. 6, verify by eq. 8, update by eq. 7, stop by eq. 11'.

`resolve` is deterministic: ties in the selection score go to the candidate that comes first in
the caller's order (upstream retrieval rank), so the same input always gives the same trace.

Theorem 1 holds by construction: each iteration evaluates and removes exactly one candidate and
the loop runs at most `settings.budget` times, so at most min(T, |C_cand|) claims are evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ecr.core import (
    BoolArray,
    FloatArray,
    bayes_update,
    conflict_potential,
    eer_proxy,
    entropy,
    exact_eer,
    is_trivial,
    likelihood,
    selection_score,
    uniform,
    verification_probability,
)
from ecr.records import Candidate, Hypothesis, Resolution, StopReason, TraceStep
from ecr.settings import ECRSettings

Verifier = Callable[[Candidate], float]


def default_verifier(settings: ECRSettings) -> Verifier:
    """P(X_c=1): eq. 8 from the claim's counts and prior, times its relevance when enabled."""

    def verify(c: Candidate) -> float:
        q = verification_probability(c.support, c.contradiction, c.confidence)  # eq. 8
        return q * c.relevance if settings.verify_relevance else q

    return verify


def _prepare(
    candidates: Sequence[Candidate], hyp_ids: list[str]
) -> tuple[
    dict[str, int], dict[str, Candidate], dict[str, np.ndarray], dict[str, np.ndarray],
    dict[str, set[str]],
]:
    """Hypothesis index, candidates by id, each candidate's support mask (explicit plus what its
    negation links imply) and who negates whom: shared by ECR and the replayed baselines."""
    index = {h: i for i, h in enumerate(hyp_ids)}
    by_id = {c.id: c for c in candidates}
    explicit = {c.id: _mask(c.supports, index) for c in candidates}
    masks = {c.id: _effective_mask(c, explicit, index) for c in candidates}
    negated_by: dict[str, set[str]] = {c.id: set() for c in candidates}
    for c in candidates:
        for n in c.negates:
            if n in negated_by:
                negated_by[n].add(c.id)
    return index, by_id, explicit, masks, negated_by


def resolve(
    candidates: Sequence[Candidate],
    hypotheses: Sequence[Hypothesis],
    settings: ECRSettings | None = None,
    verify: Verifier | None = None,
) -> Resolution:
    """Run Box 1 over `candidates` and return the dominant hypothesis or the distribution."""
    s = settings or ECRSettings()
    if not hypotheses:
        raise ValueError("ECR needs at least one hypothesis")
    hyp_ids = [h.id for h in hypotheses]
    if len(set(hyp_ids)) != len(hyp_ids):
        raise ValueError("hypothesis ids must be unique")
    ids = [c.id for c in candidates]
    if len(set(ids)) != len(ids):
        raise ValueError("candidate ids must be unique")
    verifier = verify or default_verifier(s)
    index, by_id, explicit, masks, negated_by = _prepare(candidates, hyp_ids)

    p: FloatArray = uniform(len(hypotheses))
    h0 = entropy(p)  # eq. 1
    remaining = list(candidates)
    evaluated: list[str] = []
    trace: list[TraceStep] = []
    stop: StopReason | None = None

    for t in range(1, s.budget + 1):
        h = entropy(p)  # eq. 1
        conflicts = _unresolved_conflicts(evaluated, by_id, negated_by, explicit, p, s)
        if h <= s.epsilon and (not conflicts or s.conflict_rule == "in_play"):  # eq. 11'
            stop = "unresolved_conflict" if conflicts else "epistemic_sufficiency"
            break
        best = _select(remaining, p, masks, negated_by, set(evaluated), s)
        if best is None:
            stop = "unresolved_conflict" if conflicts else "exhausted"
            break
        c, score, eer, cp = best
        q = float(verifier(c))  # eq. 8
        x = q if s.observation == "soft" else float(q >= s.verify_threshold)
        p = bayes_update(p, likelihood(masks[c.id], x, s))  # eq. 7
        remaining.remove(c)
        evaluated.append(c.id)
        trace.append(TraceStep(t, c.id, score, eer, cp, q, x, entropy(p), tuple(p.tolist())))

    h = entropy(p)
    conflicts = _unresolved_conflicts(evaluated, by_id, negated_by, explicit, p, s)
    if stop is None:
        if h <= s.epsilon and not conflicts:
            stop = "epistemic_sufficiency"
        elif conflicts:
            stop = "unresolved_conflict"
        else:
            stop = "exhausted" if not remaining else "budget"
    elif stop == "exhausted" and conflicts:
        stop = "unresolved_conflict"
    dominant = None
    if stop == "epistemic_sufficiency":
        dominant = hyp_ids[int(np.argmax(p))]
    return Resolution(
        hypotheses=tuple(hypotheses),
        distribution=tuple(float(v) for v in p),
        entropy=h,
        initial_entropy=h0,
        stop_reason=stop,
        dominant=dominant,
        has_unresolved_conflict=bool(conflicts),
        conflicts=tuple(conflicts),
        trace=tuple(trace),
    )


def _mask(supports: frozenset[str], index: dict[str, int]) -> BoolArray:
    m = np.zeros(len(index), dtype=bool)
    for h in supports:
        if h in index:
            m[index[h]] = True
    return m


def _effective_mask(c: Candidate, explicit: dict[str, BoolArray],
                    index: dict[str, int]) -> BoolArray:
    """A+(c) for eq. 4 and eq. 7.

    A pure negation ("it is not the case that c'") supports no hypothesis by name; observing it
    true is observing c' false, which under the likelihood model is the same as supporting the
    hypotheses c' does not support. So its partition is the complement of c''s.
    """
    own = explicit[c.id]
    if own.any() or not c.negates:
        return own
    union = np.zeros(len(index), dtype=bool)
    for n in c.negates:
        if n in explicit:
            union |= explicit[n]
    return ~union if union.any() else union


def _select(
    remaining: list[Candidate],
    p: FloatArray,
    masks: dict[str, BoolArray],
    negated_by: dict[str, set[str]],
    evaluated: set[str],
    s: ECRSettings,
) -> tuple[Candidate, float, float, int] | None:
    """argmax_c EER^(c) + lambda ConflictPotential(c)   (eq. 6); first in order wins ties.

    Outside the literal seed mode, a candidate that can neither move the posterior (trivial
    partition) nor complete a contradiction is skipped: evaluating it spends budget for nothing.
    None when no candidate is left to evaluate.
    """
    best: tuple[Candidate, float, float, int] | None = None
    for c in remaining:
        cp = conflict_potential(c.negates, frozenset(negated_by[c.id]), evaluated)  # eq. 5
        mask = masks[c.id]
        if s.eer_mode != "seed_proxy" and is_trivial(mask) and not cp:
            continue
        if s.eer_mode == "exact":
            eer = exact_eer(p, mask, s) * _conf(c, s)  # eq. 3
        else:
            eer = eer_proxy(p, mask, _conf(c, s), literal=s.eer_mode == "seed_proxy")  # eq. 4
        score = selection_score(eer, cp, s.lambda_conflict)  # eq. 6
        if best is None or round(score, 12) > round(best[1], 12):
            best = (c, score, eer, cp)
    return best


def _conf(c: Candidate, s: ECRSettings) -> float:
    """conf(c) of eq. 4: the claim's confidence, discounted by its relevance to the question."""
    if s.eer_mode == "seed_proxy" or not s.verify_relevance:
        return c.confidence
    return c.confidence * c.relevance


def _unresolved_conflicts(
    evaluated: list[str],
    by_id: dict[str, Candidate],
    negated_by: dict[str, set[str]],
    explicit: dict[str, BoolArray],
    p: FloatArray,
    s: ECRSettings,
) -> list[tuple[str, str]]:
    """Conflict(X_eval) of eq. 11': evaluated explicit contradiction pairs that still matter.

    Seed rule: every evaluated pair. In-play rule: a pair counts only if a hypothesis one of its
    claims supports by name still holds posterior mass >= in_play_mass; a contradiction between
    claims that bear on no live hypothesis cannot change the answer, so it is not ambiguity.
    """
    done = set(evaluated)
    pairs: list[tuple[str, str]] = []
    for a in evaluated:
        for b in sorted((by_id[a].negates | negated_by[a]) & done):
            pair = (a, b) if evaluated.index(a) < evaluated.index(b) else (b, a)
            if pair in pairs:
                continue
            if s.conflict_rule == "seed":
                pairs.append(pair)
                continue
            touched = explicit[a] | explicit[b]
            if touched.any() and float(p[touched].max()) >= s.in_play_mass:
                pairs.append(pair)
    return pairs


def replay(
    candidates: Sequence[Candidate],
    hypotheses: Sequence[Hypothesis],
    order: Sequence[str],
    settings: ECRSettings | None = None,
    verify: Verifier | None = None,
) -> Resolution:
    """Evaluate a fixed sequence of claims (a baseline policy) under ECR's own posterior model.

    Same verification (eq. 8) and update (eq. 7) as `resolve`, no selection and no stopping
    rule, so policies differ only in which claims they evaluate. `dominant` is set as in
    `resolve` (sufficiency and no unresolved conflict); stop reason "budget".
    """
    s = settings or ECRSettings()
    verifier = verify or default_verifier(s)
    hyp_ids = [h.id for h in hypotheses]
    index, by_id, explicit, masks, negated_by = _prepare(candidates, hyp_ids)
    p: FloatArray = uniform(len(hypotheses))
    h0 = entropy(p)  # eq. 1
    trace: list[TraceStep] = []
    evaluated: list[str] = []
    for t, cid in enumerate(order, start=1):
        c = by_id[cid]
        q = float(verifier(c))  # eq. 8
        x = q if s.observation == "soft" else float(q >= s.verify_threshold)
        p = bayes_update(p, likelihood(masks[cid], x, s))  # eq. 7
        evaluated.append(cid)
        cp = conflict_potential(c.negates, frozenset(negated_by[cid]), set(evaluated[:-1]))
        trace.append(TraceStep(t, cid, 0.0, 0.0, cp, q, x, entropy(p), tuple(p.tolist())))
    h = entropy(p)
    conflicts = _unresolved_conflicts(evaluated, by_id, negated_by, explicit, p, s)
    sufficient = h <= s.epsilon and not conflicts
    return Resolution(
        hypotheses=tuple(hypotheses),
        distribution=tuple(float(v) for v in p),
        entropy=h,
        initial_entropy=h0,
        stop_reason="epistemic_sufficiency" if sufficient else (
            "unresolved_conflict" if conflicts else "budget"),
        dominant=hyp_ids[int(np.argmax(p))] if sufficient else None,
        has_unresolved_conflict=bool(conflicts),
        conflicts=tuple(conflicts),
        trace=tuple(trace),
    )
