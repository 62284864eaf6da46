"""Keeping the vector indices in step with DuckDB.

What is embedded: rows (serialised with their headers), text claims and cluster summaries. Cell
and aggregate claims are not: the sample knowledge base alone has ~40,000 of them and the local
model embeds a few hundred short sentences a second, so a transformer pass per cell would make
ingestion minutes slower per file. Cells are reached structurally (a row vector leads to its
cells through `item_id`) and lexically (BM25 over every claim's text).

Consistency with DuckDB (decided here, tested in tests/index/test_builder.py):
- vectors are written only after the file's DuckDB transaction committed;
- a source counts as indexed only once all its vectors are written; the list of indexed source
  versions is a small JSON file beside the Lance tables, replaced atomically;
- when writing fails, the source stays committed in DuckDB but *un-indexed*: the ingest reports
  a notice, lexical and graph retrieval already see it, and the next `sync()` (every ingest and
  every search) deletes whatever partial vectors it left and writes them again. Rolling the
  source back instead would make a vector outage lose data the user asked to keep;
- vectors of a superseded source version are deleted at the next sync, and every search also
  pre-filters on the current source versions, so a superseded vector is never returned even
  between the two.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hyrag.embed import Embedder
from hyrag.index import (
    INDEX_NAMES,
    Hit,
    VectorBatch,
    VectorFilter,
    VectorIndex,
    open_index,
    resolve_backend,
)
from hyrag.index import mirror as mirror_mod
from hyrag.index.ann import AnnSettings
from hyrag.index.mirror import VectorMirror, mirror_key
from hyrag.index.sidecar import INDEXED_FILE, pending_sources, read_indexed, side_folder
from hyrag.retrieve.summaries import RowCells, describe, kmeans, n_clusters, summary_id

SUMMARIES_FILE = "summaries.json"
# (sources done, sources in all, the step starting): what `sync` tells a progress display
Progress = Callable[[int, int, str], None]


@dataclass
class SyncReport:
    indexed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    vectors: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    ann: dict[str, str] = field(default_factory=dict)  # index name -> "built" / "rebuilt"


def row_text(
    table: str, id_col: str | None, entity: str | None, cells: list[tuple[str, str | None]]
) -> str:
    """'sales order_id SO-10001: order_date 2022-01-01; region North; ...' — headers kept so the
    model sees what each value is."""
    head = f"{table} {id_col or 'row'} {entity}" if entity else table
    return head + ": " + "; ".join(f"{c} {v}" for c, v in cells if v not in (None, ""))


class VectorStore:
    """The knowledge base's row index (rows + summaries) and claim index (text claims)."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        con,
        embedder: Embedder,
        backend: str = "auto",
        ann: AnnSettings | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.con = con
        self.embedder = embedder
        self.backend, self.ann = backend, ann
        # The two indices are opened at their first use, not here: opening LanceDB imports it
        # (1.5-3 s of a fresh process on a 2-core machine), and most processes that hold a
        # VectorStore only ask which sources are `pending()` (the sidecar JSON below) or answer
        # structurally and never search by vector (issue 20).
        self._row_ix: VectorIndex | None = None
        self._claim_ix: VectorIndex | None = None
        self.side = side_folder(self.folder, backend)
        self.side.mkdir(parents=True, exist_ok=True)
        self.summaries: dict[str, dict] = self._read(SUMMARIES_FILE, {})
        self._mirrors: dict[str, tuple[str, VectorMirror | None]] = {}
        # Test hook: called with a step name; raising simulates a vector-store failure.
        self.fail_hook = None
        if resolve_backend(backend) == "numpy":
            # NumPy files are cheap to open, and one that can only be read by unpickling must
            # be found before `pending()` is asked (it makes every source pending again)
            self._open()

    @property
    def rows(self) -> VectorIndex:
        """The row index (rows and cluster summaries), opened on first use."""
        if self._row_ix is None:
            self._open()
        return self._row_ix  # type: ignore[return-value]

    @property
    def claims(self) -> VectorIndex:
        """The text-claim index, opened on first use."""
        if self._claim_ix is None:
            self._open()
        return self._claim_ix  # type: ignore[return-value]

    @property
    def opened(self) -> bool:
        """Whether the vector indices were opened (their backend imported) in this process."""
        return self._row_ix is not None

    def _open(self) -> None:
        self._row_ix = open_index(self.folder, "rows", self.backend, self.ann)
        self._claim_ix = open_index(self.folder, "claims", self.backend, self.ann)
        if getattr(self._row_ix, "stale", False) or getattr(self._claim_ix, "stale", False):
            # a vectors file that could not be read without unpickling (hyrag.index.numpy_index):
            # start both indices empty and re-embed every source, so rows and claims agree
            for ix in (self._row_ix, self._claim_ix):
                ix.reset()
            self.summaries = {}
            self._write(SUMMARIES_FILE, {})
            self._write(INDEXED_FILE, [])

    # -- sidecar files -----------------------------------------------------------------------
    def _read(self, name: str, default):
        p = self.side / name
        return json.loads(p.read_text()) if p.exists() else default

    def _write(self, name: str, obj) -> None:
        p = self.side / name
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(obj, sort_keys=True))
        tmp.replace(p)

    def indexed(self) -> set[str]:
        return read_indexed(self.side)

    # -- the NumPy mirror (hyrag.index.mirror) -------------------------------------------
    def searcher(self, name: str) -> VectorSearcher:
        """What the strategies search table `name` ("rows" or "claims") through: its mirror
        when it has one, else the vector index (opened, and LanceDB imported, only then)."""
        return VectorSearcher(self, name)

    def mirror(self, name: str) -> VectorMirror | None:
        """The NumPy mirror of table `name` for the sources indexed now: read memory-mapped,
        or, when missing and the table is small enough, exported from LanceDB and saved (once
        per knowledge base and sync: then every process reads it). None when the backend is
        NumPy (already in memory) or the table is larger than `ann_mirror_max_vectors`."""
        limit = (self.ann or AnnSettings()).mirror_max_vectors
        if limit <= 0 or resolve_backend(self.backend) != "lance":
            return None
        indexed = self.indexed()
        model = self.side / f"{name}.model.json"  # the table's embedding model, as LanceDB's
        key = mirror_key(indexed, model.read_text() if model.exists() else "")
        cached = self._mirrors.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        got = mirror_mod.load(self.side, name, key)
        if got is None:
            ix = self.rows if name == "rows" else self.claims
            tbl = getattr(ix, "_tbl", None)
            n = 0 if tbl is None else ix.count()
            if n > limit:
                self._mirrors[name] = (key, None)
                return None
            import pyarrow as pa

            arrow = tbl.to_arrow() if tbl is not None else pa.table(
                {"id": pa.array([], pa.string()), "source_id": pa.array([], pa.string()),
                 "kind": pa.array([], pa.string()), "table_name": pa.array([], pa.string()),
                 "ok_lo": pa.array([], pa.float64()), "ok_hi": pa.array([], pa.float64()),
                 "vector": pa.array([], pa.list_(pa.float32(), 1))})
            got = VectorMirror.from_arrow(arrow, indexed)
            if mirror_mod.save(self.side, name, key, got):
                got = mirror_mod.load(self.side, name, key) or got  # the memory-mapped copy
        self._mirrors[name] = (key, got)
        return got

    def pending(self) -> list[str]:
        return pending_sources(self.con, self.side)

    # -- sync --------------------------------------------------------------------------------
    def sync(self, progress: Progress | None = None) -> SyncReport:
        """Index every current, un-indexed source; drop vectors of non-current ones.
        `progress(done, total, step)` is told each source's steps as they start (embedding a
        100,000-row table takes minutes: `hyrag ingest` and `hyrag index` show it)."""
        rep = SyncReport()
        current = {
            r[0]
            for r in self.con.execute(
                "SELECT source_id FROM sources WHERE status = 'current'"
            ).fetchall()
        }
        done = self.indexed()
        stale = sorted(done - current)
        if stale:
            self.rows.delete_sources(stale)
            self.claims.delete_sources(stale)
            self.summaries = {
                k: v for k, v in self.summaries.items() if v["source_id"] not in stale
            }
            self._write(SUMMARIES_FILE, self.summaries)
            done -= set(stale)
            self._write(INDEXED_FILE, sorted(done))
            rep.removed = stale
        todo = self.pending()
        for k, sid in enumerate(todo):
            step = None
            if progress is not None:
                name = self._source_name(sid)
                progress(k, len(todo), name)

                def step(what: str, k: int = k, name: str = name) -> None:
                    progress(k, len(todo), f"{name}: {what}")
            try:
                rep.vectors += self.index_source(sid, step)
            except Exception as e:  # stays pending; the next sync retries it
                rep.failed[sid] = f"{type(e).__name__}: {e}"
                continue
            done.add(sid)
            self._write(INDEXED_FILE, sorted(done))
            rep.indexed.append(sid)
        if rep.indexed or rep.removed:
            for name, ix in (("rows", self.rows), ("claims", self.claims)):
                if progress is not None:
                    progress(len(todo), len(todo) + 1, f"approximate index of {name}")
                did = ix.maintain()  # the ANN index, once a table is large (hyrag.index.ann)
                if did:
                    rep.ann[name] = did
            if progress is not None:
                progress(len(todo), len(todo) + 1, "NumPy mirrors of the vector tables")
        for name in INDEX_NAMES:  # searched without LanceDB from the next process on; written
            self.mirror(name)  # here also when missing (a knowledge base indexed before them)
        if progress is not None and (todo or rep.ann):
            progress(len(todo), len(todo), "")  # the display's last line
        return rep

    def _source_name(self, source_id: str) -> str:
        row = self.con.execute("SELECT name FROM sources WHERE source_id = ?",
                               [source_id]).fetchone()
        return str(row[0]) if row and row[0] else source_id

    def _hook(self, step: str) -> None:
        if self.fail_hook is not None:
            self.fail_hook(step)

    def index_source(self, source_id: str, step: Callable[[str], None] | None = None) -> int:
        """(Re)write every vector of one source version; returns how many. `step(what)` is
        told each long step as it starts."""
        self.rows.delete_sources([source_id])  # a failed earlier attempt may have left some
        self.claims.delete_sources([source_id])
        info = self.embedder.info
        n = 0
        rows = self._rows(source_id)
        by_table: dict[str, list[tuple[str, str, RowCells]]] = defaultdict(list)
        for item, table, text, rc in rows:
            by_table[table].append((item, text, rc))
        for table, members in sorted(by_table.items()):
            texts = [t for _, t, _ in members]
            if step is not None:
                step(f"embedding {len(texts):,} rows of {table}")
            vecs = self.embedder.embed(texts)
            oks = [m[2].order_key for m in members]
            oks = [math.nan if o is None else float(o) for o in oks]
            self._hook("rows")
            self.rows.add(
                VectorBatch(
                    [m[0] for m in members],
                    vecs,
                    [source_id] * len(members),
                    ["row"] * len(members),
                    [table] * len(members),
                    oks,
                    oks,
                ),
                info,
            )
            n += len(members)
            n += self._summarise(source_id, table, members, vecs)
        texts = self.con.execute(
            "SELECT claim_id, text, order_key FROM claims WHERE source_id = ? AND kind = 'text' "
            "ORDER BY claim_id",
            [source_id],
        ).fetchall()
        if texts:
            uniq = sorted({t for _, t, _ in texts})
            if step is not None:
                step(f"embedding {len(uniq):,} text claims")
            vec_of = dict(zip(uniq, self.embedder.embed(uniq), strict=True))
            oks = [math.nan if o is None else float(o) for _, _, o in texts]
            self._hook("claims")
            self.claims.add(
                VectorBatch(
                    [c for c, _, _ in texts],
                    np.vstack([vec_of[t] for _, t, _ in texts]),
                    [source_id] * len(texts),
                    ["text"] * len(texts),
                    [None] * len(texts),
                    oks,
                    oks,
                ),
                info,
            )
            n += len(texts)
        return n

    def _rows(self, source_id: str) -> list[tuple[str, str, str, RowCells]]:
        res = self.con.execute(
            """SELECT c.item_id, c.table_name, c.entity, c.column_name, c.value_text,
                      c.value_num, s.role, c.order_key, c.time_key, s.position,
                      (SELECT column_name FROM schemas i WHERE i.source_id = c.source_id
                         AND i.table_name = c.table_name AND i.role = 'id' LIMIT 1) AS id_col
               FROM claims c LEFT JOIN schemas s ON s.source_id = c.source_id
                    AND s.table_name = c.table_name AND s.column_name = c.column_name
               WHERE c.source_id = ? AND c.kind = 'cell' AND c.item_id IS NOT NULL
               ORDER BY c.table_name, c.item_id, s.position, c.column_name""",
            [source_id],
        ).fetchall()
        grouped: dict[str, list[tuple]] = defaultdict(list)
        for r in res:
            grouped[r[0]].append(r)
        out = []
        for item, cells in grouped.items():
            table, entity, id_col = cells[0][1], cells[0][2], cells[0][10]
            text = row_text(table, id_col, entity, [(c[3], c[4]) for c in cells])
            timed = [(c[7], c[8]) for c in cells if c[7] is not None]
            ok, tk = max(timed) if timed else (None, None)
            rc = RowCells(item, tuple((c[3], c[4], c[5], c[6]) for c in cells), ok, tk)
            out.append((item, table, text, rc))
        out.sort(key=lambda r: (r[1], r[0]))
        return out

    def _summarise(self, source_id: str, table: str, members: list, vecs: np.ndarray) -> int:
        k = n_clusters(len(members))
        if k == 0:
            return 0
        labels, _ = kmeans(vecs, k)
        ids, texts, spans, metas = [], [], [], []
        for j in range(k):
            rows = [members[i][2] for i in np.flatnonzero(labels == j)]
            if not rows:
                continue
            sid = summary_id(table, source_id, j)
            text = describe(table, rows, j, k)
            oks = [r.order_key for r in rows if r.order_key is not None]
            lo, hi = (min(oks), max(oks)) if oks else (math.nan, math.nan)
            ids.append(sid)
            texts.append(text)
            spans.append((lo, hi))
            metas.append(
                {
                    "text": text,
                    "table": table,
                    "source_id": source_id,
                    "rows": len(rows),
                    "members": [r.item_id for r in rows],
                }
            )
        vecs_s = self.embedder.embed(texts)
        self._hook("summaries")
        self.rows.add(
            VectorBatch(
                ids,
                vecs_s,
                [source_id] * len(ids),
                ["summary"] * len(ids),
                [table] * len(ids),
                [s[0] for s in spans],
                [s[1] for s in spans],
            ),
            self.embedder.info,
        )
        for sid, meta in zip(ids, metas, strict=True):
            self.summaries[sid] = meta
        self._write(SUMMARIES_FILE, self.summaries)
        return len(ids)


class VectorSearcher:
    """One table's search as the strategies see it: from the NumPy mirror when there is one
    for the sources indexed now (no LanceDB import), else from the vector index itself."""

    def __init__(self, store: VectorStore, name: str) -> None:
        self.store, self.name = store, name

    def search(self, vector: np.ndarray, k: int, flt: VectorFilter | None = None) -> list[Hit]:
        m = self.store.mirror(self.name)
        if m is not None:
            return m.search(vector, k, flt)
        ix = self.store.rows if self.name == "rows" else self.store.claims
        return ix.search(vector, k, flt)
