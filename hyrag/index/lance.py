"""The LanceDB index: one Lance table per index in `<kb>/lance/`, written from Python.

DuckDB never touches these files (its connection is hardened against file access). The filter
goes into Lance's `where(..., prefilter=True)`, which restricts the candidate set before the
nearest-neighbour search, so the k results are the best *admitted* vectors. Untimed vectors
store NULL for their order-key span, and SQL comparisons with NULL are false, so they never pass
a time filter (the same rule as the NumPy backend's NaN).

Small tables are searched exactly (a flat scan). `maintain()` — called after every sync — trains
an approximate IVF index (IVF_SQ by default, `hyrag.index.ann`) once a table reaches
`ann_min_vectors`, with bitmap indexes on `source_id` and `kind` so the policy and kind
pre-filters do not scan a million strings per query; `nprobes` and `refine_factor` trade recall
for speed (the refine step re-ranks the candidates with full vectors), and `hyrag bench latency`
reports the recall it costs against the exact scan.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from hyrag.embed import EmbedInfo
from hyrag.index import Hit, VectorBatch, VectorFilter, VectorIndex
from hyrag.index.ann import AnnSettings

SCALAR_COLUMNS = ("source_id", "kind")  # pre-filter columns that get a bitmap index


def _q(s: str) -> str:
    return "'" + str(s).replace("'", "''") + "'"


def _in(col: str, values: frozenset[str]) -> str:
    return f"{col} IN ({', '.join(_q(v) for v in sorted(values))})"


def where_clause(flt: VectorFilter | None) -> str | None:
    """The SQL predicate of a filter (None when it admits everything)."""
    if flt is None:
        return None
    parts = []
    if flt.allowed_sources is not None:
        parts.append(_in("source_id", flt.allowed_sources))
    if flt.kinds is not None:
        parts.append(_in("kind", flt.kinds))
    if flt.ids is not None:
        parts.append(_in("id", flt.ids))
    if flt.interval is not None:
        lo, hi = flt.interval
        if not math.isinf(hi):
            parts.append(f"ok_lo <= {hi!r}")
        else:
            parts.append("ok_lo IS NOT NULL")
        if not math.isinf(lo):
            parts.append(f"ok_hi >= {lo!r}")
        else:
            parts.append("ok_hi IS NOT NULL")
    return " AND ".join(parts) if parts else None


class LanceIndex(VectorIndex):
    def __init__(self, folder: Path, name: str, ann: AnnSettings | None = None) -> None:
        os.environ.setdefault("LANCE_LOG", "error")  # lance's Rust logger warns on stderr
        import lancedb

        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.db = lancedb.connect(str(self.folder))
        self._meta = self.folder / f"{name}.model.json"
        self.info = EmbedInfo(**json.loads(self._meta.read_text())) if self._meta.exists() else None
        self.ann = ann or AnnSettings()
        self.nprobes = self.ann.nprobes
        self.refine_factor: int | None = self.ann.refine_factor or None
        self._tbl = self._open()

    def _open(self):  # lancedb table
        try:
            return self.db.open_table(self.name)
        except (FileNotFoundError, ValueError):
            return None

    def _save_info(self) -> None:
        i = self.info
        assert i is not None
        self._meta.write_text(json.dumps({"tier": i.tier, "model": i.model, "dim": i.dim}))

    def _schema(self, dim: int) -> pa.Schema:
        return pa.schema(
            [
                pa.field("id", pa.string()),
                pa.field("source_id", pa.string()),
                pa.field("kind", pa.string()),
                pa.field("table_name", pa.string()),
                pa.field("ok_lo", pa.float64()),
                pa.field("ok_hi", pa.float64()),
                pa.field("vector", pa.list_(pa.float32(), dim)),
            ]
        )

    def _add(self, batch: VectorBatch) -> None:
        dim = batch.vectors.shape[1]
        flat = pa.array(np.ascontiguousarray(batch.vectors, dtype=np.float32).ravel())

        def nulls(xs: list[float]) -> pa.Array:
            return pa.array(
                [None if x is None or math.isnan(x) else float(x) for x in xs], pa.float64()
            )

        table = pa.Table.from_arrays(
            [
                pa.array(batch.ids, pa.string()),
                pa.array(batch.source_ids, pa.string()),
                pa.array(batch.kinds, pa.string()),
                pa.array(batch.tables, pa.string()),
                nulls(batch.ok_lo),
                nulls(batch.ok_hi),
                pa.FixedSizeListArray.from_arrays(flat, dim),
            ],
            schema=self._schema(dim),
        )
        if self._tbl is None:
            self._tbl = self.db.create_table(self.name, table, mode="overwrite")
        else:
            self._tbl.add(table)

    def delete_sources(self, source_ids: Sequence[str]) -> int:
        if self._tbl is None or not source_ids:
            return 0
        pred = _in("source_id", frozenset(source_ids))
        before = self._tbl.count_rows()
        self._tbl.delete(pred)
        return before - self._tbl.count_rows()

    def ann_stats(self) -> tuple[int, int] | None:
        """(indexed, unindexed) rows of the vector index, or None when there is none."""
        if self._tbl is None:
            return None
        for ix in self._tbl.list_indices():
            if list(ix.columns) == ["vector"]:
                st = self._tbl.index_stats(ix.name)
                if st is not None:
                    return int(st.num_indexed_rows), int(st.num_unindexed_rows)
        return None

    def maintain(self) -> str | None:
        """Train the ANN index when the table crossed `min_vectors` or grew past
        `rebuild_growth` since the last training; returns what it did (None: nothing due)."""
        if self._tbl is None:
            return None
        stats = self.ann_stats()
        indexed, unindexed = stats if stats is not None else (0, self.count())
        if not self.ann.needs_build(indexed, unindexed):
            return None
        self.build_ann()
        return "built" if stats is None else "rebuilt"

    def build_ann(
        self,
        *,
        num_partitions: int | None = None,
        num_sub_vectors: int | None = None,
        index_type: str | None = None,
    ) -> None:
        """Train the IVF index (cosine) and the bitmap indexes of the pre-filter columns.
        Defaults: one partition per `partition_rows` vectors; for IVF_PQ dim/8 sub-vectors."""
        if self._tbl is None:
            return
        n = self._tbl.count_rows()
        dim = self.info.dim if self.info else 384
        kind = (index_type or self.ann.index_type.value).upper()
        from lancedb import index as li

        common = {
            "distance_type": "cosine",
            "num_partitions": num_partitions or self.ann.num_partitions(n),
            "max_iterations": self.ann.max_iterations,
            "sample_rate": self.ann.sample_rate,
        }
        if kind == "IVF_PQ":
            config = li.IvfPq(num_sub_vectors=num_sub_vectors or max(1, dim // 8), **common)
        else:
            config = {"IVF_SQ": li.IvfSq, "IVF_RQ": li.IvfRq, "IVF_FLAT": li.IvfFlat}[kind](
                **common
            )
        self._tbl.create_index("vector", config=config, replace=True)
        for col in SCALAR_COLUMNS:
            self._tbl.create_index(col, config=li.Bitmap(), replace=True)

    def search(
        self, vector: np.ndarray, k: int, flt: VectorFilter | None = None, *, exact: bool = False
    ) -> list[Hit]:
        if self._tbl is None or k <= 0 or (flt is not None and flt.is_empty_set()):
            return []
        where = where_clause(flt)
        rows = self._query(vector, k, where, "exact" if exact else "fixed")
        if len(rows) < k and where and not exact:
            # A narrow pre-filter can leave the probed partitions with fewer than k admitted
            # vectors; only then probe on until k are found (maximum 0 = no limit). Not by
            # default: LanceDB's adaptive probing made every query 3-4x slower (measured).
            rows = self._query(vector, k, where, "until_k")
        hits = [
            Hit(r["id"], 1.0 - float(r["_distance"]), r["source_id"], r["kind"], r["table_name"])
            for r in rows
        ]
        hits.sort(key=lambda h: (-h.score, h.id))
        return hits

    def _query(self, vector: np.ndarray, k: int, where: str | None, mode: str) -> list[dict]:
        q = self._tbl.search(np.asarray(vector, dtype=np.float32)).distance_type("cosine")
        q = q.select(["id", "source_id", "kind", "table_name", "_distance"]).limit(k)
        if where:
            q = q.where(where, prefilter=True)
        if mode == "exact":
            q = q.bypass_vector_index()
        else:
            if mode == "until_k":
                q = q.minimum_nprobes(self.nprobes).maximum_nprobes(0)
            else:
                q = q.nprobes(self.nprobes)
            if self.refine_factor:
                q = q.refine_factor(self.refine_factor)
        return q.to_arrow().to_pylist()

    def count(self) -> int:
        return 0 if self._tbl is None else int(self._tbl.count_rows())

    def sources(self) -> set[str]:
        if self._tbl is None:
            return set()
        col = self._tbl.to_arrow().column("source_id").to_pylist()
        return set(col)
