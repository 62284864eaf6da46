"""Vector indices: one interface, two backends (LanceDB on disk, NumPy in memory).

Seed 003, section 4.1: "Vector indices support an optional database backend (LanceDB when
installed) and a pure NumPy cosine-similarity backend otherwise; both support ID filtering". The
filter here is a *pre*-filter: it decides which vectors may be ranked at all (allowed sources,
vector kinds, an order-key interval, explicit ids) before any similarity is sorted, so a denied
or out-of-period vector can never push an allowed one out of the top k (seed 002's entitlement
rule; DESIGN.md, "the entitlement filter is applied inside candidate generation").

Each vector carries metadata: `source_id` (the DuckDB source version it came from), `kind`
(`row`, `text`, `summary`), `table_name`, and the order-key span `ok_lo..ok_hi` of the periods
it covers (NaN when it has no period: such vectors never pass a time filter).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.embed import EmbeddingError, EmbedInfo, check_same_model
from hyrag.index.ann import AnnSettings

# NumPy only for annotations here: `Settings` validates its ann_* fields through
# `hyrag.index.ann`, which imports this package, in every process (issue 20).
if TYPE_CHECKING:
    import numpy as np

INDEX_NAMES = ("rows", "claims")


@dataclass(frozen=True)
class VectorFilter:
    """What may be ranked. None means "no constraint" for each field."""

    allowed_sources: frozenset[str] | None = None
    kinds: frozenset[str] | None = None
    interval: tuple[float, float] | None = None
    ids: frozenset[str] | None = None

    def is_empty_set(self) -> bool:
        """A filter that admits nothing (an empty allow-list): skip the search entirely."""
        return (self.allowed_sources is not None and not self.allowed_sources) or (
            self.ids is not None and not self.ids
        )


@dataclass(frozen=True)
class Hit:
    id: str
    score: float  # cosine similarity in [-1, 1]
    source_id: str
    kind: str
    table_name: str | None = None


@dataclass
class VectorBatch:
    """Vectors and their metadata, column-wise, ready for either backend."""

    ids: list[str]
    vectors: np.ndarray
    source_ids: list[str]
    kinds: list[str]
    tables: list[str | None] = field(default_factory=list)
    ok_lo: list[float] = field(default_factory=list)
    ok_hi: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.ids)
        if not self.tables:
            self.tables = [None] * n
        if not self.ok_lo:
            self.ok_lo = [math.nan] * n
        if not self.ok_hi:
            self.ok_hi = list(self.ok_lo)
        lens = {
            len(self.source_ids),
            len(self.kinds),
            len(self.tables),
            len(self.ok_lo),
            len(self.ok_hi),
            self.vectors.shape[0],
        }
        if lens != {n}:
            raise ValueError(f"vector batch columns differ in length: {sorted(lens)} vs {n}")


class VectorIndex(ABC):
    """The contract both backends honour (tests/index/test_contract.py runs it on both)."""

    info: EmbedInfo | None

    @abstractmethod
    def _add(self, batch: VectorBatch) -> None: ...

    @abstractmethod
    def delete_sources(self, source_ids: Sequence[str]) -> int:
        """Remove every vector of these source versions; returns how many went."""

    @abstractmethod
    def search(self, vector: np.ndarray, k: int, flt: VectorFilter | None = None) -> list[Hit]:
        """Top k by cosine among the vectors that pass `flt` (ties broken by id)."""

    @abstractmethod
    def count(self) -> int: ...

    @abstractmethod
    def sources(self) -> set[str]: ...

    @abstractmethod
    def _save_info(self) -> None: ...

    def maintain(self) -> str | None:
        """Bring any approximate index up to date after writes; returns what it did. The exact
        backends have nothing to maintain."""
        return None

    def add(self, batch: VectorBatch, info: EmbedInfo) -> None:
        """Add vectors made by `info`'s model; refuses a second model (error names both)."""
        check_same_model(self.info, info)
        if batch.vectors.ndim != 2 or batch.vectors.shape[1] != info.dim:
            raise EmbeddingError(
                f"vectors of shape {batch.vectors.shape} do not match {info.label()}"
            )
        if not batch.ids:
            return
        if self.info is None:
            self.info = info
            self._save_info()
        self._add(batch)


def resolve_backend(backend: str) -> str:
    """"auto" -> "lance" when LanceDB is installed, else "numpy" (found without importing it);
    any other name as given."""
    if backend == "auto":
        import importlib.util

        return "lance" if importlib.util.find_spec("lancedb") else "numpy"
    return backend


def open_index(
    folder: str | Path, name: str, backend: str = "auto", ann: AnnSettings | None = None
) -> VectorIndex:
    """`backend`: "lance", "numpy" or "auto" (LanceDB when importable, else NumPy). `ann` says
    when LanceDB trains its approximate index (the NumPy backend always scans exactly)."""
    backend = resolve_backend(backend)
    if backend == "lance":
        from hyrag.index.lance import LanceIndex

        return LanceIndex(Path(folder) / "lance", name, ann)
    if backend == "numpy":
        from hyrag.index.numpy_index import NumpyIndex

        return NumpyIndex(Path(folder) / "vectors", name)
    raise ValueError(f"unknown vector backend {backend!r}; valid: auto, lance, numpy")


__all__ = ["INDEX_NAMES", "Hit", "VectorBatch", "VectorFilter", "VectorIndex", "open_index", "resolve_backend"]
