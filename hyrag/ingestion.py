"""One file in, one transaction: sources, typed tables, schemas, items, claims, links.

Parsing happens before the transaction opens (it is pure Python and may fail on a bad row);
writing happens inside it, so a failure at any point leaves every table as it was. Identity is
content: the same bytes for the same tenant are the same source and ingesting them again changes
nothing; new bytes at the same location are a new version that supersedes the old one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
import hashlib
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

import duckdb
import pandas as pd

from hyrag import claimsql, tablecells
from hyrag.claimsql import ident, lit
from hyrag.errors import HyragError, IngestFailed
from hyrag.parsing import (
    SUPPORTED,
    Parsed,
    file_sha256,
    frame_sha256,
    parse_file,
    parse_frame,
    parse_texts,
)
from hyrag.settings import Settings
from hyrag.store import ENGINE_NAMES, Store, content_id, is_engine_name, locator_json
from ingest.errors import IngestError
from ingest.schema import safe_identifier
from ingest.timekeys import parse_time_key
from ingest.typed import TypedTable

__all__ = [
    "SUPPORTED", "IngestReport", "Ingestor", "TableNaming", "choose_table_name", "file_sha256",
    "link_claims",
]

# Names a user's table never takes (hyrag.store.is_engine_name): the engine's tables and views
# and its scratch prefixes; a file named after one gets the table `t_<name>`.
RESERVED = ENGINE_NAMES
STAGE = "temp.hyrag_stage"  # the staged frame of the table being written
BUCKETS = "temp.hyrag_buckets"  # rows -> the periods they aggregate into
LINK_ORDER = "temp.hyrag_link_order"  # `link_claims`: each source's place in the ingest order

# Where a typed table comes from inside its file: (sheet, page, table index). A new version of
# a file keeps the names of its tables by this key, and `Ingestor.table_names` is keyed by it.
TableKey = tuple[str | None, int | None, int | None]


@dataclass(frozen=True)
class TableNaming:
    """How one table of a file was named: the name it asked for (`TypedTable.name`) and the
    name it got. A distributed ingest (`hyrag.scale`) names each file's tables in a scratch
    store of its own, then replays the choices in file order with `choose_table_name`, so the
    names match an ingest of the same files one after another in one store."""

    key: TableKey
    wanted: str
    name: str


def choose_table_name(wanted: str, taken: Collection[str]) -> str:
    """The name a table asking for `wanted` gets when `taken` are in use: its identifier form,
    `t_`-prefixed when the engine owns it, then `_2`, `_3`, ... until free. One function for
    the single-node ingest and the distributed one, so both name every table alike."""
    base = safe_identifier(wanted, fallback="table")
    if is_engine_name(base):
        base = f"t_{base}"
    used = {n.lower() for n in taken} | RESERVED
    name, k = base, 1
    while name in used:
        k += 1
        name = f"{base}_{k}"
    return name


@dataclass(frozen=True)
class IngestReport:
    source: str
    source_id: str
    status: str  # "ingested" | "unchanged" | "new_version"
    tables: tuple[str, ...] = ()
    claims: int = 0
    links: int = 0
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "source_id": self.source_id,
            "status": self.status,
            "tables": list(self.tables),
            "claims": self.claims,
            "links": self.links,
            "seconds": round(self.seconds, 3),
            "notes": list(self.notes),
        }


# The cyclic garbage collector, paused while a file is read and written. Reading a
# 100,000 x 12 CSV allocates millions of lists and tuples that all stay alive until the file
# is written; each time the long-lived objects grow by a quarter Python scans every one of
# them for cycles (ten full collections on that file, ~0.75 s of its ~4 s of reading, and
# none of them found anything: the readers build no cycles). Reference counting still frees
# every object as before, so memory is unchanged; a cycle made meanwhile waits for the next
# collection after the ingest. Counted, so concurrent ingests resume it only when the last
# ends, and never turned on where the caller had turned it off.
_GC_LOCK = threading.Lock()
_GC_PAUSES = 0
_GC_WAS_ENABLED = False


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside the block (see `_GC_PAUSES`)."""
    global _GC_PAUSES, _GC_WAS_ENABLED
    with _GC_LOCK:
        if _GC_PAUSES == 0:
            _GC_WAS_ENABLED = gc.isenabled()
            gc.disable()
        _GC_PAUSES += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_PAUSES -= 1
            if _GC_PAUSES == 0 and _GC_WAS_ENABLED:
                gc.enable()


F = TypeVar("F", bound=Callable[..., object])


def _without_cyclic_gc(f: F) -> F:
    """`f` run under `paused_gc`."""
    @functools.wraps(f)
    def run(*args: object, **kwargs: object) -> object:
        with paused_gc():
            return f(*args, **kwargs)
    return cast(F, run)


class Ingestor:
    """Writes parsed files into a Store, one transaction per file.

    `link_on_write=False` leaves out the per-file supports / contradicts / negates links: a
    distributed ingest writes each file into a scratch store of its own, where there is nothing
    to link against, and links the whole set once afterwards (`link_claims`). `table_names`
    gives table names by `TableKey` for the files this Ingestor writes (the distributed
    ingest's second pass, one Ingestor per file, when a name chosen alone clashes with an
    earlier file's); `namings` says how the last file's tables were named."""

    def __init__(
        self, store: Store, settings: Settings, *, link_on_write: bool = True,
        table_names: Mapping[TableKey, str] | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.link_on_write = link_on_write
        self.table_names: dict[TableKey, str] = dict(table_names or {})
        self.namings: list[TableNaming] = []
        # Test hook: called between write steps so a failure can be injected mid-file.
        self.step_hook: Callable[[str], None] | None = None
        # Told what starts within a file ("cell claims of sales"): one file of 100,000 rows
        # takes tens of seconds, so a progress display says which part it is in.
        self.progress_hook: Callable[[str], None] | None = None

    def _step(self, name: str) -> None:
        if self.step_hook is not None:
            self.step_hook(name)

    def _doing(self, what: str) -> None:
        if self.progress_hook is not None:
            self.progress_hook(what)

    # -- entry points ----------------------------------------------------------------------
    @_without_cyclic_gc
    def ingest_path(
        self,
        path: str | Path,
        *,
        tenant: str = "default",
        classification: str = "internal",
        effective_date: dt.date | None = None,
        authority: int | None = None,
    ) -> IngestReport:
        p = Path(path)
        if not p.exists():
            raise IngestFailed("no such file", source=str(p))
        if not p.is_file():
            raise IngestFailed("not a file", source=str(p))
        t0 = time.perf_counter()
        sha, size = file_sha256(p)
        uri = str(p.resolve())
        source_id = content_id(tenant, sha)
        if self._exists(source_id):
            return IngestReport(p.name, source_id, "unchanged", seconds=time.perf_counter() - t0)
        # The bytes hashed are the bytes parsed: a file rewritten while it is read would be
        # stored under the hash of other bytes (and later reported "unchanged"), so it is copied
        # once, hashed as it is copied, and the copy is parsed.
        with tempfile.TemporaryDirectory(prefix="hyrag-ingest-") as tmp:
            copy = Path(tmp) / p.name
            sha, size = _copy_hashing(p, copy)
            source_id = content_id(tenant, sha)
            if self._exists(source_id):
                return IngestReport(
                    p.name, source_id, "unchanged", seconds=time.perf_counter() - t0
                )
            try:
                self._doing("reading")
                parsed = parse_file(copy, self.settings, origin=p)
            except IngestError as e:
                self._fail(uri, e)
                src = str(p) if e.source in (None, str(copy)) else e.source
                raise IngestFailed(
                    e.message, source=src, sheet=e.sheet, page=e.page, row=e.row
                ) from e
        return self._write(
            parsed, uri=uri, name=p.name, kind=p.suffix.lower().lstrip("."), sha=sha, size=size,
            tenant=tenant, classification=classification, effective_date=effective_date,
            authority=authority, t0=t0,
        )

    @_without_cyclic_gc
    def ingest_frame(
        self, df: pd.DataFrame, name: str, *, tenant: str = "default",
        classification: str = "internal",
    ) -> IngestReport:
        t0 = time.perf_counter()
        sha = frame_sha256(df)
        source_id = content_id(tenant, sha)
        if self._exists(source_id):
            return IngestReport(name, source_id, "unchanged")
        try:
            self._doing("reading")
            parsed = parse_frame(df, name, self.settings)
        except IngestError as e:
            raise IngestFailed(e.message, source=f"dataframe:{name}", row=e.row) from e
        return self._write(
            parsed, uri=f"dataframe:{name}", name=name, kind="dataframe", sha=sha,
            size=int(df.memory_usage(deep=False).sum()), tenant=tenant,
            classification=classification, effective_date=None, authority=None, t0=t0,
        )

    @_without_cyclic_gc
    def ingest_texts(
        self, texts: list[str], source: str, *, tenant: str = "default",
        classification: str = "internal",
    ) -> IngestReport:
        t0 = time.perf_counter()
        sha = hashlib.sha256("\x1e".join(texts).encode("utf-8")).hexdigest()
        source_id = content_id(tenant, sha)
        if self._exists(source_id):
            return IngestReport(source, source_id, "unchanged")
        try:
            parsed = parse_texts(texts, source, self.settings)
        except IngestError as e:
            raise IngestFailed(e.message, source=source) from e
        return self._write(
            parsed, uri=f"text:{source}", name=source, kind="text", sha=sha,
            size=sum(len(t) for t in texts), tenant=tenant, classification=classification,
            effective_date=None, authority=None, t0=t0,
        )

    # -- internals -------------------------------------------------------------------------
    def _exists(self, source_id: str) -> bool:
        return bool(
            self.store.count("SELECT count(*) FROM sources WHERE source_id = ?", [source_id])
        )

    def _fail(self, uri: str, e: Exception) -> None:
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        self.store.con.execute(
            "INSERT INTO audit VALUES (?, NULL, ?, 'ingest_failed', NULL, ?)",
            [content_id("ingest_failed", uri, now.isoformat()), now,
             locator_json({"uri": uri, "error": str(e)})],
        )

    def _write(
        self, parsed: Parsed, *, uri: str, name: str, kind: str, sha: str, size: int,
        tenant: str, classification: str, effective_date: dt.date | None,
        authority: int | None, t0: float,
    ) -> IngestReport:
        store = self.store
        source_id = content_id(tenant, sha)
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        try:
            with store.transaction() as con:
                prev = con.execute(
                    "SELECT source_id, version FROM sources WHERE uri = ? AND tenant = ? "
                    "AND status = 'current'",
                    [uri, tenant],
                ).fetchall()
                version = 1 + max((v for _, v in prev), default=0)
                reused: dict[tuple, str] = {}
                for old_id, _ in prev:
                    reused.update(self._supersede(old_id, source_id))
                self._step("supersede")
                con.execute(
                    "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, "
                    "'current', NULL, ?)",
                    [source_id, uri, name, kind, sha, size, version, tenant, classification,
                     effective_date, authority, now, "\n".join(_notes(parsed)) or None],
                )
                names: list[str] = []
                self.namings = []
                total = 0
                # issue 8: claim and item ids are per tenant too. The default tenant keeps the
                # contract's ids (sha256 of the file); another tenant's copy of the same file is
                # another source with its own ids, so no id, link or counter is shared.
                id_sha = sha if tenant == "default" else content_id(tenant, sha, n=64)
                for t in parsed.tables:
                    table_name = self._table_name(t, reused)
                    names.append(table_name)
                    self._doing(f"table {table_name}")
                    total += self._write_table(t, table_name, id_sha, source_id, name, now)
                    self._step(f"table:{table_name}")
                if parsed.text_claims or parsed.relations:
                    self._doing("text claims")
                total += self._write_text_claims(parsed, id_sha, source_id, name)
                self._step("text")
                for old_id, _ in prev:
                    con.execute(
                        "INSERT INTO claim_links SELECT n.claim_id, o.claim_id, 'supersedes', "
                        "'new version of the source', now() FROM claims n JOIN claims o "
                        "ON n.locator = o.locator AND n.kind = o.kind "
                        "WHERE n.source_id = ? AND o.source_id = ?",
                        [source_id, old_id],
                    )
                if self.link_on_write:
                    self._doing("corroborations and conflicts")
                links = self._link_conflicts(source_id, tenant) if self.link_on_write else 0
                self._step("links")
                self._doing("committing")
        except HyragError:
            raise
        except IngestError as e:
            raise IngestFailed(e.message, source=name, sheet=e.sheet, page=e.page, row=e.row) from e
        except Exception as e:  # the transaction rolled back; say which file
            self._fail(uri, e)
            raise IngestFailed(f"ingestion failed and was rolled back: {e}", source=name) from e
        notes = _notes(parsed)
        return IngestReport(
            name, source_id, "new_version" if prev else "ingested", tuple(names), total, links,
            time.perf_counter() - t0, notes,
        )

    def _supersede(self, old_id: str, new_id: str) -> dict[tuple, str]:
        """Mark an older version superseded; hand its table names to the new version."""
        con = self.store.con
        con.execute(
            "UPDATE sources SET status = 'superseded', superseded_by = ? WHERE source_id = ?",
            [new_id, old_id],
        )
        # `claims` is a view over two stores of claims (hyrag.store, migration 5)
        con.execute("UPDATE claim_rows SET superseded = TRUE WHERE source_id = ?", [old_id])
        con.execute("UPDATE cell_claims SET superseded = TRUE WHERE tid IN "
                    "(SELECT tid FROM cell_columns WHERE source_id = ?)", [old_id])
        rows = con.execute(
            "SELECT table_name, sheet, page, table_index FROM kb_tables WHERE source_id = ?",
            [old_id],
        ).fetchall()
        out: dict[tuple, str] = {}
        for table_name, sheet, page, ti in rows:
            con.execute(f"DROP TABLE IF EXISTS {ident(table_name)}")
            con.execute("DELETE FROM kb_tables WHERE table_name = ?", [table_name])
            tablecells.delete(con, table_name)
            out[(sheet, page, ti)] = table_name
        return out

    def _table_name(self, t: TypedTable, reused: dict[tuple, str]) -> str:
        key: TableKey = (t.sheet, t.page, t.table_index)
        if key in reused:
            name = reused.pop(key)
        elif key in self.table_names:
            name = self.table_names[key]
        else:
            name = choose_table_name(t.name, self.store.user_tables())
        self.namings.append(TableNaming(key, t.name, name))
        return name

    def _write_table(
        self, t: TypedTable, table_name: str, sha: str, source_id: str, file: str,
        now: dt.datetime,
    ) -> int:
        con = self.store.con
        # a shallow copy (the typed frame is never written to: copy-on-write) with the row ids
        frame = t.frame.copy(deep=False)
        frame["__rid"] = range(len(frame))
        stg = STAGE
        _flush(con)
        con.register("hyrag_stage_frame", frame)
        # One native copy: every later statement scans DuckDB storage, not pandas objects.
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE {stg} AS SELECT *, "
            f"{claimsql.item_id_sql(sha, file, t)} AS __item_id FROM temp.main.hyrag_stage_frame"
        )
        _flush(con)
        con.unregister("hyrag_stage_frame")
        try:
            cols = ", ".join(ident(c) for c in t.analyst_columns)
            # a series' statistics ("No. Obs", "Mean": `ingest.typed._statistic_rows`) are no
            # values of its measure: the typed table holds the series' rows only
            meta = "__meta" in frame
            keep = " WHERE NOT coalesce(__meta, FALSE)" if meta else ""
            con.execute(f"CREATE TABLE {ident(table_name)} AS SELECT {cols} FROM {stg}{keep}")
            con.execute(
                "INSERT INTO kb_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [table_name, source_id, t.sheet, t.page, t.table_index, t.title,
                 t.n_rows - (int(frame["__meta"].fillna(False).sum()) if meta else 0),
                 t.melted, "\n".join(t.notes) or None],
            )
            tablecells.insert(con, table_name, source_id, t.model)
            dtypes = _dtypes_of(con, table_name)
            con.executemany(
                "INSERT INTO schemas VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                [[source_id, table_name, c.name, c.header, c.position, c.role.value,
                  dtypes.get(c.name, "VARCHAR"), c.unit, c.scale, c.null_rate, c.parse_rate,
                  c.distinct] for c in t.schema.columns],
            )
            for a in t.schema.adjustments:
                con.execute(
                    "INSERT INTO schema_adjustments VALUES (?, ?, ?, ?, ?, ?, 'dry_run', ?)",
                    [source_id, table_name, a.column, a.from_role.value, a.to_role.value,
                     a.reason, now],
                )
            claimsql.insert_items(con, stg, sha, source_id, file, t, table_name)
            self._doing(f"cell claims of {table_name}")
            n = claimsql.insert_cell_claims(
                con, stg, sha, source_id, file, t, table_name, self.settings.conf_cell
            )
            self._step("cells")
            levels = self._buckets(con, t)
            if levels:
                self._doing(f"totals and means of {table_name}")
                n += claimsql.insert_aggregates(
                    con, stg, BUCKETS, levels, sha, source_id, file, t, table_name,
                    self.settings.conf_aggregate,
                )
        finally:
            # After a failed statement the transaction is aborted and refuses even DROP; the
            # rollback removes the temp tables, and the original error must not be masked.
            with contextlib.suppress(duckdb.Error):
                con.execute(f"DROP TABLE IF EXISTS {stg}")
                con.execute(f"DROP TABLE IF EXISTS {BUCKETS}")
        return n

    def _buckets(self, con, t: TypedTable) -> list[str]:
        """Rows -> the periods they aggregate into (quarter and year, or their own period),
        as the temp table `BUCKETS` over the staged rows (`STAGE`, which must exist)."""
        if t.melted or t.schema.time_column is None or t.frame.empty:
            return []
        starts = t.frame["__period_start"]
        grains = t.frame["__grain"]
        keys = t.frame["__time_key"]
        fy = self.settings.fiscal_year_start_month
        memo: dict[str, object] = {}

        def tk(key: str):
            if key not in memo:
                memo[key] = parse_time_key(key, fiscal_year_start_month=fy)
            return memo[key]

        # Buckets depend only on the period, so compute them once per distinct key.
        per_key: dict[str, list[tuple[str, object]]] = {}
        levels: set[str] = set()
        # distinct periods first: hashing 100,000 (Timestamp, grain, key) tuples took a second
        distinct = pd.DataFrame({"s": starts, "g": grains, "k": keys}).drop_duplicates()
        for start, grain, key in zip(distinct["s"], distinct["g"], distinct["k"], strict=True):
            if key is None or start is None or grain in (None, "ltm") or key in per_key:
                continue
            cands: list[tuple[str, str]] = []
            if grain in ("date", "month"):
                q = (start.month - 1) // 3 + 1
                cands.append(("quarter", f"{start.year}Q{q}"))
                cands.append(("year", f"{start.year}"))
            elif grain in ("quarter", "half"):
                cands.append(("own", key))
                cands.append(("year", f"{start.year}"))
            else:
                cands.append(("own", key))
            out = []
            for level, k in cands:
                b = tk(k)
                if b is not None:
                    levels.add(level)
                    out.append((level, b))
            per_key[key] = out
        bucket_rows = [
            (key, level, b.key, b.start, b.end, b.order_key)
            for key, lst in per_key.items() for level, b in lst
        ]
        if not bucket_rows:
            return []
        table = pd.DataFrame(
            bucket_rows, columns=["time_key", "level", "key", "start_date", "end_date", "order_key"]
        )
        # the rows meet their periods in DuckDB, over the staged rows: a pandas merge of every
        # row, then a scan of its Python date objects, cost ~0.15 s on 100,000 rows
        _flush(con)
        con.register("hyrag_buckets_frame", table)
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE {BUCKETS} AS SELECT s.__rid AS row_id, b.level, "
            "b.key, b.start_date, b.end_date, b.order_key "
            f"FROM {STAGE} s JOIN temp.main.hyrag_buckets_frame b ON s.__time_key = b.time_key"
        )
        _flush(con)
        con.unregister("hyrag_buckets_frame")
        return sorted(levels)

    def _write_text_claims(self, parsed: Parsed, sha: str, source_id: str, file: str) -> int:
        if not parsed.text_claims and not parsed.relations:
            return 0
        con = self.store.con
        rows = []
        seen: set[str] = set()
        ids_by_loc: dict[str, str] = {}
        for c in parsed.text_claims:
            loc = c.locator.to_dict()
            loc["file"] = file
            lj = locator_json(loc)
            cid = content_id(sha, c.kind, lj)
            ids_by_loc[locator_json(c.locator.to_dict())] = cid
            if cid in seen:
                continue
            seen.add(cid)
            rows.append(
                (cid, source_id, None, c.kind, c.table, c.entity, c.attribute, c.value_text,
                 c.value_num, c.scale, c.unit, c.value_base, c.time_key, c.period_start,
                 c.period_end, c.order_key, c.text, lj, file, c.locator.sheet, c.locator.page,
                 c.locator.row, c.locator.column, c.locator.cell, c.conf_base, 0, 0, False,
                 None, None)
            )
        if rows:
            con.executemany(
                "INSERT INTO claim_rows VALUES (" + ", ".join(["?"] * 30) + ")", rows
            )
        if parsed.relations:
            con.executemany(
                "INSERT INTO relations VALUES (?, ?, ?, ?, ?)",
                [
                    (r.head, r.relation, r.tail,
                     ids_by_loc.get(locator_json(r.locator.to_dict())), source_id)
                    for r in parsed.relations
                ],
            )
        return len(rows)

    def _link_conflicts(self, source_id: str, tenant: str = "default") -> int:
        """The new source's claims against every claim of its tenant stored so far (and a
        document's narrative against its own tables): `_insert_links`."""
        src, ten = lit(source_id), lit(tenant)
        tenant_sources = f"(SELECT source_id FROM sources WHERE tenant = {ten})"
        # Every pair has a claim of another source of the tenant, or a text claim of this one
        # on its own side: with neither (a first file, a table alone) there is nothing to
        # link, and the self-join of a million claims is skipped.
        if not self.store.count(
            f"SELECT count(*) FROM (SELECT 1 FROM claims WHERE (source_id IN {tenant_sources} "
            f"AND source_id <> {src}) OR (source_id = {src} AND kind = 'text') LIMIT 1)"
        ):
            return 0
        return _insert_links(
            self.store,
            joins="",
            pair=f"""n.source_id = {src}
              -- issue 8: tenants never corroborate or contradict each other
              AND o.source_id IN {tenant_sources}
              -- issue 3: a document's narrative restating its own table is checked too
              -- (text -> cell inside the new source), not only claims of other sources
              AND (o.source_id <> {src} OR (n.kind = 'text' AND o.kind = 'cell'))""",
            negation_pair=f"""(n.source_id = {src} OR o.source_id = {src})
              AND n.source_id IN {tenant_sources} AND o.source_id IN {tenant_sources}""",
        )


def link_claims(store: Store, order: Sequence[str]) -> int:
    """Set-wise linking: the links an ingest of the sources `order` names, one after another in
    that order, writes file by file (`Ingestor._link_conflicts`), written in one pass over the
    whole set. A later source's claim supports or contradicts an earlier one's (src = the later,
    as when it arrived second), a text claim its own source's cells; a negation pair is written
    once. For an ingest that wrote its files apart (`Ingestor(link_on_write=False)`), so what
    is linked never depends on which worker ingested which file."""
    if not order:
        return 0
    import pyarrow as pa

    con = store.con
    tenants = dict(con.execute("SELECT source_id, tenant FROM sources").fetchall())
    missing = [s for s in order if s not in tenants]
    if missing:
        raise HyragError(f"link_claims: no such source(s): {', '.join(missing[:5])}")
    ranks = pa.table({"source_id": list(order), "ord": list(range(len(order))),
                      "tenant": [tenants[s] for s in order]})
    _flush(con)
    con.register("hyrag_link_order_frame", ranks)
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {LINK_ORDER} AS "
                    "SELECT * FROM temp.main.hyrag_link_order_frame")
    finally:
        _flush(con)
        con.unregister("hyrag_link_order_frame")
    try:
        joins = (f"JOIN {LINK_ORDER} rn ON rn.source_id = n.source_id "
                 f"JOIN {LINK_ORDER} ro ON ro.source_id = o.source_id")
        return _insert_links(
            store,
            joins=joins,
            pair="""rn.tenant = ro.tenant
              AND (ro.ord < rn.ord OR (o.source_id = n.source_id
                                       AND n.kind = 'text' AND o.kind = 'cell'))""",
            negation_pair="rn.tenant = ro.tenant",
        )
    finally:
        con.execute(f"DROP TABLE IF EXISTS {LINK_ORDER}")


# Two values agree when they are equal at the precision the less precise of them was displayed
# ("4.4 billion" agrees with 4,412 million; 1,250 does not agree with 1,260).
_TOLERANCE = """greatest(
    0.5 * pow(10, -coalesce(length(regexp_extract({a}.value_text, '\\.(\\d+)', 1)), 0))
        * CASE {a}.scale WHEN 'thousand' THEN 1e3 WHEN 'million' THEN 1e6
                         WHEN 'billion' THEN 1e9 ELSE 1 END,
    1e-9 * greatest(1, abs({a}.value_base)))"""


def _insert_links(store: Store, *, joins: str, pair: str, negation_pair: str) -> int:
    """Same entity, attribute and period: support or contradiction; a negated text claim
    against what it negates; then each claim's support / contradict counts. `pair` says which
    (n, o) pairs are new (per file: n in the new source; set-wise: n after o in the ingest
    order), over `claims n JOIN claims o` and `joins`. One statement text for both callers, so
    the per-file and the set-wise links cannot drift apart."""
    con = store.con
    before = store.count("SELECT count(*) FROM claim_links")
    con.execute(
        f"""
        INSERT INTO claim_links
        SELECT n.claim_id, o.claim_id,
            CASE WHEN abs(n.value_base - o.value_base)
                      <= greatest({_TOLERANCE.format(a='n')}, {_TOLERANCE.format(a='o')})
                 THEN 'supports' ELSE 'contradicts' END,
            'same entity, attribute and period in ' || o.file, now()
        FROM claims n JOIN claims o
          ON lower(trim(n.entity)) = lower(trim(o.entity))
         AND lower(trim(n.attribute)) = lower(trim(o.attribute))
         AND n.time_key = o.time_key
        {joins}
        WHERE {pair}
          AND NOT o.superseded AND n.kind IN ('cell', 'text') AND o.kind IN ('cell', 'text')
          AND n.value_base IS NOT NULL AND o.value_base IS NOT NULL
        """
    )
    # issue 3: a negated text claim ("Northgate does not disclose its headcount"; text starts
    # with ingest.textclaims.NEGATED_PREFIX) negates claims with the same entity and the same
    # attribute, in any source, when the periods do not differ (a claim without a period
    # matches every period). src = the negated claim, dst = the claim it negates. Each pair
    # is written once (per file: pairs with at least one claim in the new source).
    con.execute(
        f"""
        INSERT INTO claim_links
        SELECT n.claim_id, o.claim_id, 'negates',
            'states that ' || n.attribute || ' is not given; ' || o.file, now()
        FROM claims n JOIN claims o
          ON lower(trim(n.entity)) = lower(trim(o.entity))
         AND lower(trim(n.attribute)) = lower(trim(o.attribute))
        {joins}
        WHERE {negation_pair}
          AND n.claim_id <> o.claim_id AND NOT n.superseded AND NOT o.superseded
          AND n.kind = 'text' AND starts_with(n.text, '[negated] ')
          -- a cell claim's sentence starts with its table's name, an identifier, never with
          -- the prefix: saying so spares the claims view writing every cell's sentence
          AND (o.kind = 'cell' OR (o.kind = 'text' AND NOT starts_with(o.text, '[negated] ')))
          AND (n.time_key IS NULL OR o.time_key IS NULL OR n.time_key = o.time_key)
        """
    )
    added = store.count("SELECT count(*) FROM claim_links") - before
    if added:
        # The counters live where each claim is stored: whole rows and narrow cells.
        con.execute(
            """
            CREATE OR REPLACE TEMP TABLE temp.hyrag_link_counts AS
            SELECT id, count(*) FILTER (WHERE kind = 'supports') AS sup,
                   count(*) FILTER (WHERE kind = 'contradicts') AS con
            FROM (SELECT src AS id, kind FROM claim_links
                  WHERE kind IN ('supports', 'contradicts')
                  UNION ALL SELECT dst, kind FROM claim_links
                  WHERE kind IN ('supports', 'contradicts'))
            GROUP BY id
            """
        )
        for table in ("claim_rows", "cell_claims"):
            con.execute(
                f"""UPDATE {table} SET support = s.sup, contradict = s.con
                FROM temp.hyrag_link_counts s WHERE {table}.claim_id = s.id"""
            )
        # (a failed statement rolls the transaction back, and the temp table with it)
        con.execute("DROP TABLE temp.hyrag_link_counts")
    return added


def _notes(parsed: Parsed) -> tuple[str, ...]:
    """The file's own notes (what no table carries), then each table's."""
    return (*parsed.notes, *(n for t in parsed.tables for n in t.notes))


def _copy_hashing(src: Path, dst: Path) -> tuple[str, int]:
    """Copy `src` to `dst` in one read, returning the sha256 and size of the bytes copied."""
    h = hashlib.sha256()
    size = 0
    with src.open("rb") as f, dst.open("wb") as out:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            out.write(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def _flush(con) -> None:
    """DuckDB 2 refuses register() while a result is pending; a trivial query completes it."""
    con.execute("SELECT 1").fetchall()


def _dtypes_of(con, table: str) -> dict[str, str]:
    """The DuckDB type of each column of a typed table, read once per table."""
    return dict(con.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ?",
        [table],
    ).fetchall())
