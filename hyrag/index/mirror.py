"""Exact vector search without LanceDB: a float mirror of a Lance table, searched with NumPy.

Why: importing LanceDB was about a third of a fresh process's first search at 1.1 M claims
(1.5-3 s on a 2-core machine), while the vector tables most knowledge bases hold are small
enough that one matrix-vector product over every vector is a few milliseconds (100,000 x 384
float32: ~150 MB, read memory-mapped). Up to `ann_mirror_max_vectors` (default 250,000) vectors
a table gets a mirror: its vectors and pre-filter columns as `.npy` files in
`<kb>/lance/mirror/<table>.<key>/`, written when vectors are indexed (`VectorStore.sync`) or, for
a knowledge base indexed before mirrors existed, at its first vector search. Searches use it and
never import LanceDB. Larger tables are searched by LanceDB (its ANN index) as before.

Between `ann_min_vectors` (100,000: where LanceDB trains its approximate index) and
`ann_mirror_max_vectors` the mirror's search is *exact*, where LanceDB's was approximate: the
results are the true top k (recall 1.0 against LanceDB's ~0.99 at nprobes 32, refine 2).

Same results as LanceDB's exact path: cosine similarity (1 - LanceDB's cosine distance), the
same pre-filter (allowed sources, kinds, ids, the order-key span with NaN never passing a time
filter, as LanceDB's NULL), ties broken by id. The mirror is keyed by the list of indexed
sources (`indexed.json`), the embedding model and this module's code: any sync that adds or
removes a source's vectors changes the key, so a stale mirror is never read. It holds the
vectors of indexed sources only: the partial vectors a failed write left (their source still
pending, rewritten by the next sync) are never in it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from hyrag.index import Hit, VectorFilter
from hyrag.retrieve.columns import TextColumn

MIRROR_DIR = "mirror"
_CODE = ("hyrag.index.mirror", "hyrag.retrieve.columns", "hyrag.kbcache")


def mirror_key(indexed: Iterable[str], model: str) -> str:
    """The key of a mirror of the vectors of these indexed sources, made by `model`."""
    from hyrag.kbcache import code_digest

    raw = json.dumps([sorted(indexed), model, code_digest(_CODE)])
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def mirror_dir(side: Path, name: str, key: str) -> Path:
    return Path(side) / MIRROR_DIR / f"{name}.{key}"


class VectorMirror:
    """The vectors of one table and their pre-filter columns; `search` as `VectorIndex`'s."""

    def __init__(self, ids: TextColumn, vectors: np.ndarray, source_ids: TextColumn,
                 kinds: TextColumn, tables: TextColumn, ok_lo: np.ndarray, ok_hi: np.ndarray,
                 norms: np.ndarray) -> None:
        self.ids, self.vectors, self.source_ids = ids, vectors, source_ids
        self.kinds, self.tables, self.ok_lo, self.ok_hi = kinds, tables, ok_lo, ok_hi
        self.norms = norms
        self._row_of: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    # -- written from LanceDB, read memory-mapped ------------------------------------------
    @classmethod
    def from_arrow(cls, table: object, keep_sources: set[str] | None = None) -> VectorMirror:
        """From a Lance table's Arrow export (id, source_id, kind, table_name, ok_lo, ok_hi,
        vector); `keep_sources`: only vectors of these sources (None: all)."""
        import pyarrow as pa

        assert isinstance(table, pa.Table)
        n = table.num_rows
        vec = table.column("vector").combine_chunks() if n else None
        dim = vec.type.list_size if vec is not None else 0
        flat = (vec.flatten().to_numpy(zero_copy_only=False) if vec is not None
                else np.zeros(0, np.float32))
        vectors = np.asarray(flat, dtype=np.float32).reshape(n, dim)

        def num(name: str) -> np.ndarray:
            col = table.column(name).cast(pa.float64()).fill_null(np.nan)
            return np.asarray(col.to_numpy(), dtype=np.float64)

        out = cls(TextColumn.from_arrow(table.column("id")), vectors,
                  TextColumn.from_arrow(table.column("source_id")),
                  TextColumn.from_arrow(table.column("kind")),
                  TextColumn.from_arrow(table.column("table_name")), num("ok_lo"), num("ok_hi"),
                  np.linalg.norm(vectors, axis=1).astype(np.float32))
        if keep_sources is not None:
            keep = out.source_ids.isin(keep_sources)
            if not keep.all():
                out = out.take(np.flatnonzero(keep))
        return out

    def take(self, rows: np.ndarray) -> VectorMirror:
        return VectorMirror(self.ids[rows], self.vectors[rows], self.source_ids[rows],
                            self.kinds[rows], self.tables[rows], self.ok_lo[rows],
                            self.ok_hi[rows], self.norms[rows])

    def to_arrays(self) -> dict[str, np.ndarray]:
        out = {"vectors": self.vectors, "norms": self.norms, "ok_lo": self.ok_lo,
               "ok_hi": self.ok_hi}
        for name in ("ids", "source_ids", "kinds", "tables"):
            out.update(getattr(self, name).to_arrays(name))
        return out

    @classmethod
    def from_arrays(cls, a: dict[str, np.ndarray]) -> VectorMirror:
        vectors = a["vectors"]
        n = len(vectors)
        if vectors.dtype != np.float32 or vectors.ndim != 2:
            raise ValueError("mirror vectors are not a float32 matrix")
        for name in ("norms", "ok_lo", "ok_hi"):
            if a[name].dtype.kind != "f" or len(a[name]) != n:
                raise ValueError(f"mirror column {name} does not match {n} vectors")
        cols = {name: TextColumn.from_arrays(name, a, n)
                for name in ("ids", "source_ids", "kinds", "tables")}
        return cls(cols["ids"], vectors, cols["source_ids"], cols["kinds"], cols["tables"],
                   a["ok_lo"], a["ok_hi"], a["norms"])

    # -- search ------------------------------------------------------------------------------
    def mask(self, flt: VectorFilter | None) -> np.ndarray | None:
        """The pre-filter as LanceDB's `where_clause` states it (None: every vector)."""
        if flt is None:
            return None
        m = np.ones(len(self), dtype=bool)
        if flt.allowed_sources is not None:
            m &= self.source_ids.isin(flt.allowed_sources)
        if flt.kinds is not None:
            m &= self.kinds.isin(flt.kinds)
        if flt.ids is not None:
            if self._row_of is None:
                self._row_of = {cid: i for i, cid in enumerate(self.ids.tolist()) if cid}
            rows = [self._row_of[c] for c in flt.ids if c in self._row_of]
            only = np.zeros(len(self), dtype=bool)
            only[rows] = True
            m &= only
        if flt.interval is not None:
            lo, hi = flt.interval
            with np.errstate(invalid="ignore"):  # NaN (LanceDB's NULL) never passes
                m &= (self.ok_lo <= hi) & (self.ok_hi >= lo)
        return m

    def search(self, vector: np.ndarray, k: int, flt: VectorFilter | None = None) -> list[Hit]:
        """Top k by cosine among the vectors that pass `flt`, ties broken by id."""
        n = len(self)
        if not n or k <= 0 or (flt is not None and flt.is_empty_set()):
            return []
        m = self.mask(flt)
        rows = np.arange(n) if m is None else np.flatnonzero(m)
        if not rows.size:
            return []
        q = np.asarray(vector, dtype=np.float32).ravel()
        if m is None or rows.size * 2 >= n:  # one product over everything, then gather
            dots = (self.vectors @ q)[rows]
        else:
            dots = self.vectors[rows] @ q
        with np.errstate(invalid="ignore", divide="ignore"):
            scores = dots / (self.norms[rows] * np.float32(np.linalg.norm(q)))
        scores = np.nan_to_num(scores.astype(np.float32), nan=-np.inf)
        k = min(k, rows.size)
        if k < rows.size:
            # the k-th best score, then every row at least as good: ties at the boundary are
            # all kept, so the id tie-break below decides them as LanceDB's sort does
            kth = np.partition(-scores, k - 1)[k - 1]
            cand = np.flatnonzero(-scores <= kth)
        else:
            cand = np.arange(rows.size)
        ids = [self.ids[int(rows[i])] or "" for i in cand]
        order = sorted(range(len(cand)), key=lambda j: (-float(scores[cand[j]]), ids[j]))[:k]
        out = []
        for j in order:
            r = int(rows[cand[j]])
            out.append(Hit(ids[j], float(scores[cand[j]]), self.source_ids[r] or "",
                           self.kinds[r] or "", self.tables[r]))
        return out


def load(side: Path, name: str, key: str) -> VectorMirror | None:
    """The saved mirror of table `name` under `key`, memory-mapped; None when there is none
    (or it cannot be read: it is written again)."""
    from hyrag import kbcache

    got = kbcache.read_folder(mirror_dir(side, name, key), key)
    if got is None:
        return None
    try:
        return VectorMirror.from_arrays(got[0])
    except (KeyError, ValueError, TypeError):
        return None


def save(side: Path, name: str, key: str, mirror: VectorMirror) -> bool:
    from hyrag import kbcache

    return kbcache.write_folder(mirror_dir(side, name, key), key, mirror.to_arrays(),
                                {"vectors": len(mirror)})
