"""Hierarchical summaries (seed 003, section 4.1): k-means over a table's row vectors, one
deterministic summary per cluster, embedded and stored in the row index so that summaries
compete with raw rows.

Why: a question about a region of the data ("which Furniture orders in the West were large?")
may match no single row well but match the cluster those rows form. The summary names the
cluster's modes and ranges, never a number that is not in its rows. Its id carries the reserved
prefix `summary:` (DESIGN.md) so it can never pass as raw evidence: it leads to claims, a number
in an answer must cite a cell or a sentence.

k-means is plain NumPy (no external ML dependency, as the seed specifies): k-means++ seeding
from a fixed-seed generator, Lloyd iterations until assignments stop changing; the same rows
give the same clusters and the same summaries on every run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

SUMMARY_PREFIX = "summary:"
SEED = 20240315


def n_clusters(n_rows: int, max_k: int = 12) -> int:
    """About sqrt(n/2) clusters (a common rule of thumb), 1..max_k; none below 8 rows."""
    if n_rows < 8:
        return 0
    return int(min(max_k, max(2, round((n_rows / 2) ** 0.5))))


def kmeans(
    x: np.ndarray, k: int, *, iters: int = 50, seed: int = SEED
) -> tuple[np.ndarray, np.ndarray]:
    """(labels, centroids) for rows of `x` (cosine geometry: rows are expected unit length)."""
    n = x.shape[0]
    if k <= 0 or n == 0:
        return np.zeros(n, dtype=np.int64), np.zeros((0, x.shape[1]), dtype=x.dtype)
    k = min(k, n)
    rng = np.random.default_rng(seed)
    centres = [x[int(rng.integers(n))]]
    d2 = np.sum((x - centres[0]) ** 2, axis=1)
    for _ in range(1, k):
        total = float(d2.sum())
        i = int(rng.choice(n, p=d2 / total)) if total > 0 else int(rng.integers(n))
        centres.append(x[i])
        d2 = np.minimum(d2, np.sum((x - x[i]) ** 2, axis=1))
    c = np.vstack(centres)
    labels = np.full(n, -1, dtype=np.int64)
    for _ in range(iters):
        dist = (x * x).sum(1)[:, None] - 2 * x @ c.T + (c * c).sum(1)[None, :]
        new = np.argmin(dist, axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                c[j] = members.mean(axis=0)
    return labels, c


@dataclass(frozen=True)
class RowCells:
    """One row as the summariser sees it: (column, value text, value number, role) per cell."""

    item_id: str
    cells: tuple[tuple[str, str | None, float | None, str | None], ...]
    order_key: float | None = None
    time_key: str | None = None


def describe(table: str, rows: Sequence[RowCells], index: int, k: int) -> str:
    """A deterministic summary of a cluster: categorical modes with shares, numeric ranges,
    the period covered."""
    n = len(rows)
    cats: dict[str, Counter] = {}
    nums: dict[str, list[float]] = {}
    for r in rows:
        for col, text, num, role in r.cells:
            if role == "categorical" and text:
                cats.setdefault(col, Counter())[text] += 1
            elif role == "numeric" and num is not None:
                nums.setdefault(col, []).append(float(num))
    parts = []
    for col in sorted(cats):
        top = sorted(cats[col].items(), key=lambda kv: (-kv[1], kv[0]))[:2]
        parts.append(f"{col} mostly " + " and ".join(f"{v} ({c * 100 // n}%)" for v, c in top))
    for col in sorted(nums):
        vals = np.asarray(nums[col])
        parts.append(
            f"{col} from {_fmt(vals.min())} to {_fmt(vals.max())} "
            f"(median {_fmt(float(np.median(vals)))})"
        )
    keys = sorted({r.time_key for r in rows if r.time_key})
    if keys:
        parts.append(f"periods {keys[0]} to {keys[-1]}")
    return f"Summary of {table}, cluster {index + 1} of {k}, {n} rows: " + "; ".join(parts) + "."


def _fmt(v: float) -> str:
    return f"{v:,.2f}".rstrip("0").rstrip(".")


def summary_id(table: str, source_id: str, index: int) -> str:
    return f"{SUMMARY_PREFIX}{table}:{source_id}:{index}"


def is_summary(node_id: str) -> bool:
    return node_id.startswith(SUMMARY_PREFIX)
