"""Per-file results into one store: the same store an ingest of the files one after another writes.

Three things in an ingest depend on the files before it, and each is replayed here in file order
rather than inside the parallel tasks:

- **identity**: a file whose bytes an earlier file already had is the same source, "unchanged",
  and adds nothing;
- **table names**: a table takes the first free name (`sales`, `sales_2`, ...), so a name
  depends on the tables before it. Each task names its file's tables alone; the `Merger`
  replays the choices with `choose_table_name` in file order, and the few files whose names
  then differ are ingested again with the names given (a second pass, exact by construction:
  the claim texts, typed tables and table model all carry the name; rewriting them afterwards
  would be a second implementation of what carries a name);
- **links**: supports / contradicts / negates relate claims across files, so they are
  computed once over the merged set (`hyrag.ingestion.link_claims`), in file order.

Claim ids do not depend on any of them (sha256 of the file, kind and locator: CONTRACT.md), so
they are the same whichever worker ran which file.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hyrag.claimsql import ident
from hyrag.errors import ScaleError
from hyrag.ingestion import TableKey, choose_table_name, link_claims
from hyrag.scale.layout import DATA_TABLES
from hyrag.scale.worker import FileResult
from hyrag.store import Store

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa


@dataclass(frozen=True)
class MergeReport:
    sources: tuple[str, ...]  # source ids in ingest order
    ingested: tuple[str, ...]  # the files written, in file order
    unchanged: tuple[str, ...]  # files whose bytes an earlier file had (the same source)
    failed: tuple[FileResult, ...]
    renamed: tuple[str, ...]  # files ingested a second time with the names chosen here
    claims: int
    links: int
    link_seconds: float


@dataclass(frozen=True)
class Rerun:
    """A file to ingest again with these table names (`Ingestor.table_names`)."""

    index: int
    path: str
    table_names: dict[TableKey, str]


class Merger:
    """Takes the per-file results as they come, in any order, and writes them into an empty
    store in file order's terms: a result is decided (failed, unchanged, or written with its
    names) once every file before it is, so the driver holds only the results that arrived
    ahead of a slower file, not the whole corpus. A file whose names must change is handed
    back as a `Rerun` (with the names, fixed from then on); the files after it go on.

    Use it inside one transaction of the store (`Store.transaction`): a commit per file costs
    a write-ahead-log sync each, ~0.25 s per file on a busy disk, more than the file's rows."""

    def __init__(self, store: Store, files: int) -> None:
        if store.count("SELECT count(*) FROM sources"):
            raise ScaleError("merging needs an empty store", source=str(store.folder))
        self.store = store
        self.files = files
        self._next = 0  # the first file not yet decided
        self._ahead: dict[int, FileResult] = {}  # results that arrived before their turn
        self._taken: list[str] = []  # table names given so far, in order
        self._seen: set[str] = set()
        self._awaiting: dict[int, dict[TableKey, str]] = {}  # index -> names its rerun must use
        self._order: list[str] = []
        self._ingested: dict[int, str] = {}
        self._unchanged: list[str] = []
        self._failed: list[FileResult] = []
        self._renamed: list[str] = []

    def offer(self, r: FileResult) -> list[Rerun]:
        """One file's result; returns the files to ingest again (usually none)."""
        if r.index in self._awaiting:
            names = self._awaiting.pop(r.index)
            got = {n.key: n.name for n in r.namings}
            if not r.ok or got != names:
                raise ScaleError(
                    "a file ingested twice gave different results (was it changed during the "
                    f"ingest?): {r.error or f'tables {sorted(got.values())}'}", source=r.path)
            self._write(r)
            return []
        self._ahead[r.index] = r
        reruns: list[Rerun] = []
        while self._next in self._ahead:
            r = self._ahead.pop(self._next)
            self._next += 1
            if not r.ok:
                self._failed.append(r)
                continue
            if r.source_id in self._seen:
                self._unchanged.append(r.path)
                continue
            self._seen.add(r.source_id or "")
            self._order.append(r.source_id or "")
            names: dict[TableKey, str] = {}
            for n in r.namings:
                names[n.key] = choose_table_name(n.wanted, self._taken)
                self._taken.append(names[n.key])
            if any(names[n.key] != n.name for n in r.namings):
                self._awaiting[r.index] = names
                self._renamed.append(r.path)
                reruns.append(Rerun(r.index, r.path, names))
            else:
                self._write(r)
        return reruns

    def _write(self, r: FileResult) -> None:
        con = self.store.con
        for name in DATA_TABLES:
            _insert(con, f"INSERT INTO {ident(name)} BY NAME SELECT * FROM", r.engine[name])
        for name, rows in r.typed.items():
            _insert(con, f"CREATE TABLE {ident(name)} AS SELECT * FROM", rows)
        self._ingested[r.index] = r.path

    def finish(self) -> MergeReport:
        """Once every file's result is in: link the set (in file order) and report."""
        if self._next < self.files or self._awaiting:
            raise ScaleError(f"merge incomplete: {self.files - self._next} file(s) without a "
                             f"result, {len(self._awaiting)} awaiting their second ingest")
        t0 = time.perf_counter()
        links = link_claims(self.store, self._order)
        link_seconds = time.perf_counter() - t0
        return MergeReport(
            sources=tuple(self._order),
            ingested=tuple(p for _, p in sorted(self._ingested.items())),
            unchanged=tuple(self._unchanged), failed=tuple(self._failed),
            renamed=tuple(self._renamed),
            claims=self.store.count("SELECT count(*) FROM claims"), links=links,
            link_seconds=link_seconds)


def _insert(con: duckdb.DuckDBPyConnection, statement: str, rows: pa.Table) -> None:
    con.execute("SELECT 1").fetchall()  # DuckDB refuses register() while a result is pending
    con.register("hyrag_merge_part", rows)
    try:
        con.execute(f"{statement} temp.main.hyrag_merge_part")
    finally:
        with contextlib.suppress(Exception):
            con.execute("SELECT 1").fetchall()
        con.unregister("hyrag_merge_part")


# The columns of a claim and of a link that say what was claimed and where: everything but the
# time it was written (`claim_links.created_at`), which no two ingests share.
CLAIM_COLUMNS = (
    "claim_id", "source_id", "item_id", "kind", "table_name", "entity", "attribute",
    "value_text", "value_num", "scale", "unit", "value_base", "time_key", "period_start",
    "period_end", "order_key", "text", "locator", "file", "sheet", "page", "row_num",
    "column_name", "cell", "conf_base", "support", "contradict", "superseded",
)
LINK_COLUMNS = ("src", "dst", "kind", "note")


def claim_set_digest(store: Store) -> str:
    """An order-independent digest of the claims (ids, values, texts, locators, counts) and
    their links: equal for two stores that hold the same claim set, whatever wrote them."""
    cols = ", ".join(CLAIM_COLUMNS)
    link_cols = ", ".join(LINK_COLUMNS)
    row = store.con.cursor().execute(
        f"""SELECT md5(
            coalesce((SELECT string_agg(h, '' ORDER BY h) FROM
                      (SELECT md5(CAST(({cols}) AS VARCHAR)) AS h FROM claims)), '') || '|' ||
            coalesce((SELECT string_agg(h, '' ORDER BY h) FROM
                      (SELECT md5(CAST(({link_cols}) AS VARCHAR)) AS h FROM claim_links)), ''))"""
    ).fetchone()
    return str(row[0])
