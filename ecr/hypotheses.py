"""Hypothesis generation (Box 1 step 1): deterministic here, an LLM later behind one Protocol.

The deterministic generator works on `Reading`s: what each candidate claim says, reduced to a
*key* (the scope its figure answers at the question's grain, e.g. region North / revenue /
2024Q1) and the figure it states for that key (None for a claim that belongs to the key's scope
without stating its total, such as one order line of that region and quarter). Hypotheses are
the competing (key, value) readings: competing values for the same key (two sources that
disagree) and competing keys (another entity, another period) alike. A hypothesis is supported
by every claim that states its value for its key, and by every member claim of its key's scope
(a member cannot tell two competing values for its own key apart, so it supports both).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from ecr.records import Candidate, Hypothesis


@dataclass(frozen=True)
class Reading:
    """What one candidate claim contributes to hypothesis generation."""

    claim_id: str
    key: str | None  # None: the claim bears on no answer reading of this question
    value: float | None = None  # the figure stated for `key`; None for a member claim
    weight: float = 1.0  # how strongly upstream retrieval and confidence back the claim
    label: str = ""  # human-readable reading, e.g. "region North, revenue, 2024Q1"


@dataclass(frozen=True)
class HypothesisSpace:
    """Hypotheses plus A+(c) for every claim (ids of the hypotheses each claim supports)."""

    hypotheses: tuple[Hypothesis, ...]
    supports: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def attach(self, candidates: Sequence[Candidate]) -> tuple[Candidate, ...]:
        """The candidates with their `supports` set from this space (others get none)."""
        return tuple(replace(c, supports=self.supports.get(c.id, frozenset())) for c in candidates)


class HypothesisGenerator(Protocol):
    """Anything that proposes mutually exclusive answers and says which claims support which.

    An LLM-backed generator implements the same call: it receives the question and the
    candidates' readings (or their texts through `Reading.label`) and returns a space.
    """

    def generate(self, question: str, readings: Sequence[Reading]) -> HypothesisSpace: ...


@dataclass(frozen=True)
class CompetingValueGenerator:
    """The top-k (key, value) readings by total retrieval weight; deterministic.

    Values within `rel_tol` of each other are one value (a source that rounds its figure still
    reports the same thing only if the rounding is below the tolerance). Ties in weight go to
    the reading first met in the candidates' order.
    """

    k: int = 3
    rel_tol: float = 1e-9
    abs_tol: float = 0.005

    def __post_init__(self) -> None:
        if not isinstance(self.k, int) or self.k < 1:
            raise ValueError(f"k must be a positive integer, got {self.k!r}")

    def generate(self, question: str, readings: Sequence[Reading]) -> HypothesisSpace:
        key_weight: dict[str, float] = {}
        members: dict[str, list[str]] = {}
        values: dict[str, list[tuple[float, float, list[str], str]]] = {}
        for r in readings:
            if r.key is None:
                continue
            key_weight[r.key] = key_weight.get(r.key, 0.0) + r.weight
            members.setdefault(r.key, [])
            if r.value is None:
                members[r.key].append(r.claim_id)
                continue
            slots = values.setdefault(r.key, [])
            for i, (v, w, ids, lab) in enumerate(slots):
                if self._same(v, r.value):
                    slots[i] = (v, w + r.weight, [*ids, r.claim_id], lab)
                    break
            else:
                slots.append((r.value, r.weight, [r.claim_id], r.label or r.key))
        # A reading is (key, value); its weight is the key's member weight plus its own stating
        # claims' weight, so a key's best-backed value ranks first among that key's values.
        readings_ranked: list[tuple[float, int, str, float, list[str], str]] = []
        order = 0
        for key, slots in values.items():
            stated = sum(w for _, w, _, _ in slots)
            base = key_weight[key] - stated
            for v, w, ids, lab in slots:
                readings_ranked.append((base + w, order, key, v, ids, lab))
                order += 1
        readings_ranked.sort(key=lambda t: (-t[0], t[1]))
        chosen: list[tuple[float, int, str, float | None, list[str], str]] = list(
            readings_ranked[: self.k])
        # Too few stated figures: a key known only through its members is still a competing
        # reading ("the answer is this scope's figure, which no candidate states").
        bare = sorted((k for k in key_weight if k not in values),
                      key=lambda k: (-key_weight[k], list(key_weight).index(k)))
        for key in bare[: self.k - len(chosen)]:
            chosen.append((key_weight[key], 0, key, None, [], key))
        hyps: list[Hypothesis] = []
        supports: dict[str, set[str]] = {}
        for i, (_, _, key, v, ids, lab) in enumerate(chosen):
            hid = f"h{i}"
            shown = f"{v:,.2f}" if v is not None else "(figure not stated)"
            hyps.append(Hypothesis(hid, f"{lab} = {shown}", v, tuple(ids)))
            for cid in (*ids, *members.get(key, [])):
                supports.setdefault(cid, set()).add(hid)
        return HypothesisSpace(tuple(hyps), {c: frozenset(h) for c, h in supports.items()})

    def _same(self, a: float, b: float) -> bool:
        return math.isclose(a, b, rel_tol=self.rel_tol, abs_tol=self.abs_tol)
