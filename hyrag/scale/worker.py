"""One file's ingest, as a distributed task runs it: the single-node `Ingestor`, unchanged, into a
scratch store of its own, and the rows it wrote handed back as Arrow tables.

There is no second ingest implementation: the task is `Ingestor.ingest_path` with linking left
for later (`link_on_write=False`, links are set-wise: `hyrag.scale.merge`) and, in the rare
second pass, the table names the driver chose (`table_names`). The function imports no Ray, so
it runs (and is tested) in-process too; `hyrag.scale.job` wraps it in a Ray task.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.claimsql import ident
from hyrag.errors import HyragError
from hyrag.ingestion import Ingestor, TableKey, TableNaming
from hyrag.scale.layout import DATA_TABLES
from hyrag.settings import Settings
from hyrag.store import Store

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass(frozen=True)
class FileResult:
    """What one file's task returns: its rows per engine table and per typed table, how its
    tables were named, or the error that stopped it (the file's other fields then empty)."""

    index: int  # the file's place in the job's sorted file list: the ingest order
    path: str
    source_id: str | None = None
    error: str | None = None
    namings: tuple[TableNaming, ...] = ()
    engine: Mapping[str, pa.Table] = field(default_factory=dict)
    typed: Mapping[str, pa.Table] = field(default_factory=dict)
    claims: int = 0
    ingest_seconds: float = 0.0  # the Ingestor's own time (parse, write to the scratch store)
    export_seconds: float = 0.0  # scratch store -> Arrow: the cost of shipping the result
    peak_rss_bytes: int = 0  # the worker process's peak resident memory so far
    pid: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def nbytes(self) -> int:
        """Bytes of Arrow data the result carries back to the driver."""
        return sum(t.nbytes for t in (*self.engine.values(), *self.typed.values()))


def ingest_file(
    index: int, path: str, settings: Settings, *, tenant: str = "default",
    classification: str = "internal", table_names: Mapping[TableKey, str] | None = None,
) -> FileResult:
    """Ingest one file into a scratch store and return its rows; a file that fails is a result
    with its error (one line naming file, sheet, page and row, as `hyrag ingest` prints it),
    never an exception: the job reports every failed file and goes on."""
    t0 = time.perf_counter()
    store = _scratch_store()
    ing = Ingestor(store, settings, link_on_write=False, table_names=table_names)
    try:
        report = ing.ingest_path(path, tenant=tenant, classification=classification)
    except HyragError as e:
        return FileResult(index, path, error=" ".join(str(e).split()),
                          ingest_seconds=time.perf_counter() - t0, **_process())
    t1 = time.perf_counter()
    con = store.con
    engine = {name: con.sql(f'SELECT * FROM "{name}"').to_arrow_table() for name in DATA_TABLES}
    typed = {name: con.sql(f'SELECT * FROM "{name}"').to_arrow_table() for name in report.tables}
    t2 = time.perf_counter()
    return FileResult(
        index, path, source_id=report.source_id, namings=tuple(ing.namings), engine=engine,
        typed=typed, claims=report.claims, ingest_seconds=t1 - t0, export_seconds=t2 - t1,
        **_process())


# A worker process keeps its scratch store for this many files, emptied before each: opening
# one (connect, migrations, hardening) costs ~70 ms, a sixth of a small file's ingest. It is
# renewed after that many, so what DuckDB keeps of deleted rows stays bounded.
SCRATCH_FILES = 50


@dataclass
class _Scratch:
    store: Store
    used: int = 0


_scratch: _Scratch | None = None


def _scratch_store() -> Store:
    """This process's scratch store, empty: as a fresh one is, so each file is ingested alone
    (its tables named against its own only, `_exists` finding no earlier source)."""
    global _scratch
    if _scratch is None or _scratch.used >= SCRATCH_FILES:
        if _scratch is not None:
            _scratch.store.close()
        # in memory, and the folder only named: nothing on disk for a killed worker to leave
        folder = Path(tempfile.gettempdir()) / f"hyrag-scratch-{os.getpid()}"
        _scratch = _Scratch(Store(folder, in_memory=True))
    else:
        store = _scratch.store
        with store.transaction() as con:
            for name in store.user_tables():
                con.execute(f"DROP TABLE IF EXISTS {ident(name)}")
            for name in (*DATA_TABLES, "audit"):
                con.execute(f"DELETE FROM {ident(name)}")
    _scratch.used += 1
    return _scratch.store


def _process() -> dict[str, int]:
    """This process's id and peak resident memory (ru_maxrss: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"peak_rss_bytes": peak if sys.platform == "darwin" else peak * 1024,
            "pid": os.getpid()}
