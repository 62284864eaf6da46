"""Reciprocal Rank Fusion (Cormack, Clarke and Buettcher, SIGIR 2009), seed 003 eq. 9.

    RRF(d) = sum over rankings j of 1 / (k + r_j(d)),   r_j(d) in {1, 2, ...}

A document absent from a ranking contributes nothing for it. Only ranks are used, never the
strategies' raw scores, which live on incomparable scales (cosine, BM25, graph match counts).
k = 60 is the constant Cormack et al. found robust across TREC runs and the one seed 003 uses:
it damps the head of each list, so the first place of one strategy (1/61) is worth little more
than the fifth place (1/65), and agreement among several strategies outweighs one strategy's
enthusiasm. A pure function: no I/O, deterministic tie-breaking by id.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

DEFAULT_K = 60


def rrf_scores(
    rankings: Sequence[Sequence[T]] | Mapping[str, Sequence[T]],
    k: int = DEFAULT_K,
    weights: Mapping[str, float] | None = None,
) -> dict[T, float]:
    """Fused score per item. A ranking lists items best first; duplicates after the first
    occurrence are ignored (an item has one rank per ranking). `weights` (by ranking name, when
    `rankings` is a mapping) scale each ranking's contributions; default 1."""
    if k < 0:
        raise ValueError(f"RRF k must be >= 0, got {k}")
    named = rankings.items() if isinstance(rankings, Mapping) else enumerate(rankings)
    parts: dict[T, list[float]] = {}
    for name, ranking in named:
        w = 1.0 if weights is None else float(weights.get(str(name), 1.0))
        seen: set[T] = set()
        rank = 0
        for item in ranking:
            if item in seen:
                continue
            seen.add(item)
            rank += 1
            parts.setdefault(item, []).append(w / (k + rank))
    # fsum is correctly rounded, so the fused score (and any tie) does not depend on the order
    # in which the strategies are listed.
    return {item: math.fsum(p) for item, p in parts.items()}


def rrf(
    rankings: Sequence[Sequence[T]] | Mapping[str, Sequence[T]],
    k: int = DEFAULT_K,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[T, float]]:
    """Items with their fused scores, best first; equal scores ordered by str(item)."""
    scores = rrf_scores(rankings, k, weights)
    return sorted(scores.items(), key=lambda kv: (-kv[1], str(kv[0])))
