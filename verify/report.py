"""Layer (iii) of the ReverseVerifier: one combined score, a verdict and a report.

    grounding = grounded tokens / tokens            (1.0 for a draft with no number)
    claims    = mean sentence score (supported 1, neutral 1, partial 0.7, unsupported 0.2,
                contradicted 0)
    score     = 0.6 * grounding + 0.4 * claims, capped at `cap` (0.4) when a single token is
                ungrounded — numeric grounding is a hard constraint (seed 003, section 4.2)

Verdict: `pass` when the score is at least `pass_at` (0.85) and no token is ungrounded and no
sentence contradicted; `weak` at or above `weak_at` (0.5); otherwise `fail`. Since the cap sits
below `weak_at`, a draft with one invented number always fails. `failures` names each failing
token (with its sentence) and each failing sentence with its reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from verify.claims import SentenceCheck, check_sentences
from verify.grounding import TokenCheck, check_numbers
from verify.tokens import sentences as split_sentences
from verify.types import Computation, Evidence

CHECKER = ("ReverseVerifier: numeric grounding (verbatim, normalised, rounded, derived) + "
           "claim-by-claim checking (entity, attribute, period, value) + combined score")


@dataclass(frozen=True)
class Report:
    verdict: str  # pass | weak | fail
    score: float
    failures: tuple[str, ...]
    tokens: tuple[TokenCheck, ...] = ()
    sentences: tuple[SentenceCheck, ...] = ()
    grounding: float = 1.0
    claims: float = 1.0
    checker: str = CHECKER
    extra: dict = field(default_factory=dict)

    @property
    def ungrounded(self) -> tuple[TokenCheck, ...]:
        return tuple(t for t in self.tokens if not t.grounded)

    @property
    def all_grounded(self) -> bool:
        return not self.ungrounded

    def to_dict(self) -> dict[str, object]:
        return {"verdict": self.verdict, "score": self.score, "failures": list(self.failures),
                "grounding": self.grounding, "claims": self.claims,
                "tokens": [t.to_dict() for t in self.tokens],
                "sentences": [s.to_dict() for s in self.sentences],
                "checker": self.checker, **self.extra}


def verify(draft: str | Sequence[str], evidence: Iterable[Evidence],
           computations: Iterable[Computation] = (), *, context: Iterable[str] = (),
           strict: bool = False, cap: float = 0.4, pass_at: float = 0.85,
           weak_at: float = 0.5) -> Report:
    """Check a draft (text, or its sentences) against committed evidence and derivations."""
    sents = split_sentences(draft) if isinstance(draft, str) else [s for s in draft if s]
    ev = list(evidence)
    comps = list(computations)
    ctx = [c for c in context if c]
    toks = check_numbers(sents, ev, comps, context=ctx, strict=strict)
    checks = check_sentences(sents, ev, toks, context=ctx)
    numeric = [t for t in toks]
    grounding = (sum(t.grounded for t in numeric) / len(numeric)) if numeric else 1.0
    claims = (sum(c.score for c in checks) / len(checks)) if checks else 1.0
    score = 0.6 * grounding + 0.4 * claims
    failures: list[str] = []
    for t in toks:
        if not t.grounded:
            why = ("its derivation does not re-compute" if t.status == "derivation_mismatch"
                   else "in no committed evidence, period or re-computable derivation")
            failures.append(f"number {t.token} {why} (sentence {t.sentence + 1}: "
                            f"\"{sents[t.sentence]}\")")
    warnings = [f"sentence {c.index + 1} partial: \"{c.sentence}\" — " + "; ".join(c.reasons)
                for c in checks if c.status == "partial"]
    for c in checks:
        if c.status in ("unsupported", "contradicted"):
            failures.append(f"sentence {c.index + 1} {c.status}: \"{c.sentence}\" — "
                            + "; ".join(c.reasons))
    if any(not t.grounded for t in toks):
        score = min(score, cap)
    contradicted = any(c.status == "contradicted" for c in checks)
    if score >= pass_at and not contradicted and all(t.grounded for t in toks):
        verdict = "pass"
    elif score >= weak_at:
        verdict = "weak"
    else:
        verdict = "fail"
    return Report(verdict, round(score, 4), tuple(failures), tuple(toks), tuple(checks),
                  round(grounding, 4), round(claims, 4),
                  extra={"warnings": warnings} if warnings else {})
