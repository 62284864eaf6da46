"""Immutable records ECR reads and writes: candidates, hypotheses, trace steps, the resolution.

They carry plain values only (no store handles), so a resolution can be logged, compared in a
test and serialised into an answer's audit record as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

StopReason = Literal["epistemic_sufficiency", "unresolved_conflict", "budget", "exhausted"]


@dataclass(frozen=True)
class Candidate:
    """One atomic claim offered to ECR by upstream retrieval.

    `support` / `contradiction` are the claim's S(c) and C(c) edge counts (eq. 8, eq. 10);
    `negates` lists claims this one explicitly negates or contradicts (eq. 5 and the Conflict
    term of eq. 11'); `supports` the hypothesis ids it supports (A+(c) of eq. 4).
    `relevance` is how well the claim's scope (entity, attribute, period) agrees with the
    question's, in [0, 1]: 1.0 when the caller has no scope parser.
    """

    id: str
    text: str
    confidence: float
    support: int = 0
    contradiction: int = 0
    negates: frozenset[str] = frozenset()
    supports: frozenset[str] = frozenset()
    relevance: float = 1.0
    source: str = ""
    retrieval_score: float = 0.0

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("candidate id must be non-empty")
        for name in ("confidence", "relevance"):
            v = getattr(self, name)
            if not isinstance(v, int | float) or not 0.0 <= v <= 1.0 or math.isnan(v):
                raise ValueError(f"candidate {self.id}: {name} must be in [0, 1], got {v!r}")
        for name in ("support", "contradiction"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0:
                raise ValueError(f"candidate {self.id}: {name} must be an integer >= 0, got {v!r}")
        if self.id in self.negates:
            raise ValueError(f"candidate {self.id}: a claim cannot negate itself")


@dataclass(frozen=True)
class Hypothesis:
    """One mutually exclusive macro-answer a in A (section 3.1)."""

    id: str
    label: str
    value: float | None = None
    basis: tuple[str, ...] = ()  # ids of the claims the hypothesis was generated from


@dataclass(frozen=True)
class TraceStep:
    """One iteration of Box 1: what was chosen, why, what verification said, where H went."""

    t: int
    claim_id: str
    score: float  # eq. 6
    eer: float  # eq. 4 (or eq. 3 in exact mode)
    conflict_potential: int  # eq. 5
    p_verified: float  # eq. 8 (times relevance when enabled)
    observed: float  # 1.0 / 0.0 for a hard observation, q for a soft one
    entropy: float  # H after the update (eq. 1)
    distribution: tuple[float, ...]  # P(a | X_eval) after the update, in hypothesis order


@dataclass(frozen=True)
class Resolution:
    """ECR's output (Box 1 step 3): a dominant hypothesis, or the ranked distribution.

    `dominant` is set only when epistemic sufficiency holds (eq. 11'); otherwise `ranked`
    is the answer, and `stop_reason` says why the loop ended.
    """

    hypotheses: tuple[Hypothesis, ...]
    distribution: tuple[float, ...]
    entropy: float
    initial_entropy: float
    stop_reason: StopReason
    dominant: str | None
    has_unresolved_conflict: bool
    conflicts: tuple[tuple[str, str], ...]
    trace: tuple[TraceStep, ...] = field(default=())

    @property
    def evaluated(self) -> tuple[str, ...]:
        return tuple(s.claim_id for s in self.trace)

    @property
    def ranked(self) -> tuple[tuple[str, float], ...]:
        """Hypothesis ids with their posterior, most probable first (ties by hypothesis order)."""
        order = sorted(range(len(self.hypotheses)), key=lambda i: (-self.distribution[i], i))
        return tuple((self.hypotheses[i].id, self.distribution[i]) for i in order)

    @property
    def top(self) -> str | None:
        """The unique most probable hypothesis, whether or not it is dominant; None on a tie."""
        r = self.ranked
        if not r or (len(r) > 1 and math.isclose(r[0][1], r[1][1], abs_tol=1e-12)):
            return None
        return r[0][0]

    @property
    def entropy_trace(self) -> tuple[float, ...]:
        return (self.initial_entropy, *(s.entropy for s in self.trace))

    def to_dict(self) -> dict[str, object]:
        return {
            "dominant": self.dominant,
            "stop_reason": self.stop_reason,
            "entropy": self.entropy,
            "has_unresolved_conflict": self.has_unresolved_conflict,
            "conflicts": [list(c) for c in self.conflicts],
            "distribution": [
                {"id": h, "label": self._label(h), "p": p} for h, p in self.ranked
            ],
            "trace": [
                {
                    "t": s.t,
                    "claim_id": s.claim_id,
                    "score": s.score,
                    "eer": s.eer,
                    "conflict_potential": s.conflict_potential,
                    "p_verified": s.p_verified,
                    "observed": s.observed,
                    "entropy": s.entropy,
                }
                for s in self.trace
            ],
        }

    def _label(self, hid: str) -> str:
        return next(h.label for h in self.hypotheses if h.id == hid)


@dataclass(frozen=True)
class TriggerDecision:
    """Whether ECR should run (section 4.1), and which heuristics fired."""

    trigger: bool
    reasons: tuple[str, ...]
    n_candidates: int
    confidence_variance: float
    uncertainty_words: tuple[str, ...] = ()
