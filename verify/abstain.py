"""Calibrated abstention (seed 003, section 4.3): one confidence, a threshold, a reliability table.

    confidence = sigmoid(w0 + w_n * log1p(n_results) + w_s * top_similarity
                         + w_r * rerank_confidence - w_c * complexity)

`n_results` — how many pieces of evidence were committed; `top_similarity` — the best
retrieval score among them (1.0 for an exact structural match); `rerank_confidence` — how well
the committed evidence answers the requirements (offline: the share of requirements with
direct support times the verifier's score; an LLM cross-encoder's confidence online);
`complexity` — a penalty in [0, 1] for questions that need more steps (requirements beyond one,
an arithmetic operation, several periods, unmatched words). The weights are named defaults
(`Weights`); the threshold is a setting per trust mode and is *calibrated* on data with
`calibrate` — the lowest threshold whose answered share reaches a target precision on a
calibration split — and judged on a held-out split with `reliability_table`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Weights:
    bias: float = -2.0
    n_results: float = 0.6  # per log1p(result)
    top_similarity: float = 1.5
    rerank: float = 3.0
    complexity: float = 1.5


@dataclass(frozen=True)
class Signals:
    n_results: int
    top_similarity: float
    rerank_confidence: float
    complexity: float

    def to_dict(self) -> dict[str, float]:
        return {"n_results": self.n_results, "top_similarity": round(self.top_similarity, 4),
                "rerank_confidence": round(self.rerank_confidence, 4),
                "complexity": round(self.complexity, 4)}


def confidence(s: Signals, w: Weights = Weights()) -> float:  # noqa: B008
    z = (w.bias + w.n_results * math.log1p(max(s.n_results, 0))
         + w.top_similarity * _clip(s.top_similarity) + w.rerank * _clip(s.rerank_confidence)
         - w.complexity * _clip(s.complexity))
    return round(1 / (1 + math.exp(-z)), 4)


def complexity(n_requirements: int, operation: bool, n_periods: int, unmatched_words: int
               ) -> float:
    """A penalty in [0, 1]: 0 for a one-requirement lookup, more for each extra step."""
    p = 0.15 * max(n_requirements - 1, 0) + (0.15 if operation else 0.0) \
        + 0.05 * max(n_periods - 1, 0) + 0.05 * min(unmatched_words, 6)
    return _clip(p)


def should_abstain(conf: float, threshold: float) -> bool:
    return conf < threshold


def calibrate(confidences: Sequence[float], correct: Sequence[bool], *,
              target_precision: float = 0.9, min_answered: int = 5) -> float:
    """The lowest threshold t such that the answers with confidence >= t are right at least
    `target_precision` of the time (and at least `min_answered` of them remain). When no
    threshold reaches the target, the threshold of the most precise such set (best effort;
    callers report whether the target was reached); 1.0 when every answer is wrong."""
    pairs = sorted(zip(confidences, correct, strict=True), key=lambda p: -p[0])
    best = 1.0
    right = 0
    fallback, fallback_prec = 1.0, 0.0
    for i, (c, ok) in enumerate(pairs, start=1):
        right += bool(ok)
        nxt = pairs[i][0] if i < len(pairs) else -1.0
        if nxt == c:
            continue  # a threshold cannot split equal confidences
        if i >= min_answered and right / i >= target_precision:
            best = c
        if i >= min_answered and right / i > fallback_prec:
            fallback, fallback_prec = c, right / i
    if best == 1.0 and not best_effort_off(target_precision) and fallback_prec > 0:
        return round(fallback, 4)
    return round(best, 4)


def best_effort_off(target_precision: float) -> bool:
    """Hook for callers that want the strict 'never reached: 1.0' behaviour (target > 1)."""
    return target_precision > 1.0


def reliability_table(confidences: Sequence[float], correct: Sequence[bool], *,
                      bins: int = 5) -> list[dict[str, float]]:
    """Confidence bins (equal width over [0, 1]) with count, mean confidence and accuracy."""
    rows = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        sel = [(c, ok) for c, ok in zip(confidences, correct, strict=True)
               if lo <= c < hi or (b == bins - 1 and c == 1.0)]
        rows.append({"bin": f"[{lo:.1f}, {hi:.1f}{']' if b == bins - 1 else ')'}",
                     "n": len(sel),
                     "mean_confidence": round(sum(c for c, _ in sel) / len(sel), 3) if sel else 0,
                     "accuracy": round(sum(ok for _, ok in sel) / len(sel), 3) if sel else 0})
    return rows


def _clip(x: float) -> float:
    return min(max(float(x), 0.0), 1.0)
