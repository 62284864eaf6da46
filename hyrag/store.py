"""The knowledge base on disk: one DuckDB file of sources, schemas, items, claims and audit.

The database is opened once per process and then hardened (no external access, configuration
locked): the engine's readers are Python, so DuckDB never needs to read another file, and user
SQL runs on a cursor of this same connection (CONTRACT.md, "The store and the SQL route").
Schema changes go through numbered migrations recorded in `meta`, so a knowledge base written by
an older HyRAG opens in a newer one.

Open modes: DuckDB gives a file either to one read-write process or to any number of read-only
ones. Commands that only read open it read-only, so they run beside each other and beside a
notebook; what they must record goes to the read log beside the file (`hyrag.readlog`), which
every read-write open merges first. A mode the file's other processes exclude is refused with
a `StoreError` naming the folder and the process holding it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from hyrag.cellview import claims_view_sql
from hyrag.errors import StoreError

DB_FILE = "hyrag.duckdb"
SCHEMA_VERSION = 5

# Claims and items carry content-hash ids and no PRIMARY KEY: an ART index over a million random
# hashes costs more at ingest than it saves, and ids are unique by construction (tested).
# Engine tables: user SQL may read these (through views once governance exists), never write.
ENGINE_TABLES = (
    "meta",
    "sources",
    "kb_tables",
    "table_rows",
    "table_columns",
    "table_cells",
    "schemas",
    "schema_adjustments",
    "items",
    "claim_links",
    "relations",
    "audit",
    "schema_evolution",
)
# `claims` is a view (schema version 5): the claims stored whole (`claim_rows`) and the cell
# claims of plain tables, whose sentence, locator and address are generated from the narrow
# stored cell (`cell_claims` x `cell_columns` x `cell_rows`, `hyrag.claimsql`).
ENGINE_VIEWS = ("claims", "attributes")
# Where the claims are stored: written by the engine, read by users only through `claims`.
CLAIM_STORAGE = ("claim_rows", "cell_claims", "cell_columns", "cell_rows")
# Scratch tables the engine makes while it writes (always TEMP, and always named with their
# catalog, `temp.hyrag_stage`, so a statement can never resolve one to a user's table) and the
# governance layer's per-cursor tables begin with these; with the engine tables and views they
# are reserved: a user's table never takes one of these names (`is_engine_name`).
ENGINE_PREFIXES = ("hyrag_", "_hyrag_")
ENGINE_NAMES = frozenset((*ENGINE_TABLES, *ENGINE_VIEWS, *CLAIM_STORAGE))
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def is_engine_name(name: str) -> bool:
    """True for a name the engine owns; compared as DuckDB compares names (ASCII case)."""
    low = name.translate(_ASCII_LOWER)
    return low in ENGINE_NAMES or low.startswith(ENGINE_PREFIXES)

_MIGRATION_1 = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS sources (
    source_id VARCHAR PRIMARY KEY,
    uri VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    bytes BIGINT,
    version INTEGER NOT NULL,
    tenant VARCHAR NOT NULL DEFAULT 'default',
    classification VARCHAR NOT NULL DEFAULT 'internal',
    acl VARCHAR,
    effective_date DATE,
    authority INTEGER,
    ingested_at TIMESTAMP NOT NULL,
    status VARCHAR NOT NULL,
    superseded_by VARCHAR,
    notes VARCHAR
);
CREATE TABLE IF NOT EXISTS kb_tables (
    table_name VARCHAR PRIMARY KEY,
    source_id VARCHAR NOT NULL,
    sheet VARCHAR,
    page INTEGER,
    table_index INTEGER,
    title VARCHAR,
    n_rows BIGINT,
    melted BOOLEAN,
    notes VARCHAR
);
CREATE TABLE IF NOT EXISTS schemas (
    source_id VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    column_name VARCHAR NOT NULL,
    header VARCHAR,
    position INTEGER,
    role VARCHAR NOT NULL,
    dtype VARCHAR,
    unit VARCHAR,
    scale VARCHAR,
    null_rate DOUBLE,
    parse_rate DOUBLE,
    distinct_values BIGINT,
    schema_version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS schema_adjustments (
    source_id VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    column_name VARCHAR NOT NULL,
    from_role VARCHAR,
    to_role VARCHAR,
    reason VARCHAR,
    stage VARCHAR,
    created_at TIMESTAMP
);
CREATE TABLE IF NOT EXISTS items (
    item_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    table_name VARCHAR,
    row_num INTEGER,
    entity VARCHAR
);
CREATE TABLE IF NOT EXISTS claims (
    claim_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    item_id VARCHAR,
    kind VARCHAR NOT NULL,
    table_name VARCHAR,
    entity VARCHAR,
    attribute VARCHAR,
    value_text VARCHAR,
    value_num DOUBLE,
    scale VARCHAR,
    unit VARCHAR,
    value_base DOUBLE,
    time_key VARCHAR,
    period_start DATE,
    period_end DATE,
    order_key DOUBLE,
    text VARCHAR NOT NULL,
    locator VARCHAR NOT NULL,
    file VARCHAR,
    sheet VARCHAR,
    page INTEGER,
    row_num INTEGER,
    column_name VARCHAR,
    cell VARCHAR,
    conf_base DOUBLE NOT NULL,
    support INTEGER NOT NULL DEFAULT 0,
    contradict INTEGER NOT NULL DEFAULT 0,
    superseded BOOLEAN NOT NULL DEFAULT FALSE,
    effective_date DATE,
    authority INTEGER
);
CREATE TABLE IF NOT EXISTS claim_links (
    src VARCHAR NOT NULL,
    dst VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    note VARCHAR,
    created_at TIMESTAMP
);
CREATE TABLE IF NOT EXISTS relations (
    head VARCHAR NOT NULL,
    relation VARCHAR NOT NULL,
    tail VARCHAR NOT NULL,
    claim_id VARCHAR,
    source_id VARCHAR
);
CREATE TABLE IF NOT EXISTS audit (
    event_id VARCHAR PRIMARY KEY,
    request_id VARCHAR,
    created_at TIMESTAMP NOT NULL,
    kind VARCHAR NOT NULL,
    subject VARCHAR,
    payload VARCHAR
);
CREATE OR REPLACE VIEW attributes AS
    SELECT item_id, attribute, value_text, value_num, unit, scale, value_base,
           time_key, order_key, claim_id, superseded
    FROM claims WHERE kind = 'cell';
"""

# 2: the schema-evolution tracker (issue 7): verification failures per column, persisted.
_MIGRATION_2 = """
CREATE TABLE IF NOT EXISTS schema_evolution (
    table_name VARCHAR NOT NULL,
    column_name VARCHAR NOT NULL,
    failures INTEGER NOT NULL,
    last_reason VARCHAR,
    proposal VARCHAR,
    created_at TIMESTAMP,
    updated_at TIMESTAMP
);
"""

# 3: the table model (issue 18): every cell of every table with its row path, column path,
# period, scale, unit and kind of row (`ingest.tablemodel`). Tables ingested before this
# version have no rows here until their file is ingested again.
_MIGRATION_3 = """
CREATE TABLE IF NOT EXISTS table_rows (
    table_name VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    row_idx INTEGER NOT NULL,
    row_no INTEGER NOT NULL,
    row_path VARCHAR[] NOT NULL,
    row_kind VARCHAR NOT NULL,
    period VARCHAR
);
CREATE TABLE IF NOT EXISTS table_columns (
    table_name VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    col_idx INTEGER NOT NULL,
    col_no INTEGER NOT NULL,
    letter VARCHAR,
    col_path VARCHAR[] NOT NULL,
    period VARCHAR,
    role VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS table_cells (
    table_name VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    row_idx INTEGER NOT NULL,
    col_idx INTEGER NOT NULL,
    text VARCHAR NOT NULL,
    value DOUBLE,
    scale VARCHAR NOT NULL,
    unit VARCHAR NOT NULL
);
"""

# 4: how many leading levels of a row's path are section headings (`ModelRow.headings`), so
# the stored model names a row as the claims do ("Construction" over "2006–07"). Rows stored
# before it read 0: their paths are unchanged.
_MIGRATION_4 = """
ALTER TABLE table_rows ADD COLUMN IF NOT EXISTS headings INTEGER DEFAULT 0;
"""

# 5: `claims` becomes a view (issue 20, item 4). A 100,000 x 12 table is 1.1 million cell
# claims, and storing each one's sentence, locator JSON and cell address took most of its
# ingest; they are functions of the cell's row, its column and its value, so a plain table's
# cells are stored narrow and the view writes those strings when they are read. Ids stay
# content hashes computed at ingest over the same locator bytes (`hyrag.claimsql`), so a claim
# has the id it had. The old table keeps every claim it holds under its new name,
# `claim_rows`, where the engine also stores every claim that is not a plain table's cell
# (text, aggregates, melted or sectioned tables, PDF tables across pages).
_MIGRATION_5 = f"""
ALTER TABLE claims RENAME TO claim_rows;
CREATE TABLE IF NOT EXISTS cell_columns (
    tid BIGINT NOT NULL,
    k INTEGER NOT NULL,
    source_id VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    file VARCHAR,
    sheet VARCHAR,
    page INTEGER,
    header VARCHAR NOT NULL,
    letter VARCHAR NOT NULL,
    attribute VARCHAR NOT NULL,
    is_numeric BOOLEAN NOT NULL,
    timed BOOLEAN NOT NULL,
    loc_head VARCHAR NOT NULL,
    loc_mid VARCHAR NOT NULL,
    conf_base DOUBLE NOT NULL
);
CREATE TABLE IF NOT EXISTS cell_rows (
    tid BIGINT NOT NULL,
    row_num INTEGER NOT NULL,
    item_id VARCHAR,
    entity VARCHAR,
    context VARCHAR,
    time_key VARCHAR,
    grain VARCHAR,
    period_start DATE,
    period_end DATE,
    order_key DOUBLE
);
CREATE TABLE IF NOT EXISTS cell_claims (
    claim_id VARCHAR NOT NULL,
    tid BIGINT NOT NULL,
    row_num INTEGER NOT NULL,
    k INTEGER NOT NULL,
    value_text VARCHAR NOT NULL,
    value_num DOUBLE,
    scale VARCHAR NOT NULL,
    unit VARCHAR NOT NULL,
    value_base DOUBLE,
    support INTEGER NOT NULL DEFAULT 0,
    contradict INTEGER NOT NULL DEFAULT 0,
    superseded BOOLEAN NOT NULL DEFAULT FALSE
);
{claims_view_sql()}
CREATE OR REPLACE VIEW attributes AS
    SELECT item_id, attribute, value_text, value_num, unit, scale, value_base,
           time_key, order_key, claim_id, superseded
    FROM claims WHERE kind = 'cell';
"""

# Migration n turns version n-1 into version n. Append only; never edit a released step.
MIGRATIONS: dict[int, str] = {1: _MIGRATION_1, 2: _MIGRATION_2, 3: _MIGRATION_3,
                              4: _MIGRATION_4, 5: _MIGRATION_5}


# meta key of the write-transaction counter (`Store.generation`); stored in `meta`, so it needs
# no migration and an older HyRAG ignores it.
META_GENERATION = "generation"
_BUMP_GENERATION = (
    f"INSERT OR REPLACE INTO meta SELECT '{META_GENERATION}', "
    "CAST(coalesce(max(CAST(value AS BIGINT)), 0) + 1 AS VARCHAR) FROM meta "
    f"WHERE key = '{META_GENERATION}'"
)


def content_id(*parts: object, n: int = 16) -> str:
    """First n hex digits of sha256 over the parts joined by '|': stable, content-derived ids."""
    h = hashlib.sha256("|".join("" if p is None else str(p) for p in parts).encode("utf-8"))
    return h.hexdigest()[:n]


def locator_json(locator: dict[str, object]) -> str:
    """Canonical JSON of a locator; DuckDB's json_object produces the same bytes (tested)."""
    return json.dumps(locator, separators=(",", ":"), ensure_ascii=False)


def claim_id(source_sha: str, kind: str, locator: dict[str, object]) -> str:
    """CONTRACT.md: first 16 hex digits of sha256 over (source sha256, kind, locator)."""
    return content_id(source_sha, kind, locator_json(locator))


class Store:
    """Owns the one DuckDB connection of a knowledge-base folder."""

    def __init__(self, folder: str | os.PathLike[str], *, read_only: bool = False,
                 in_memory: bool = False) -> None:
        """`in_memory`: the database lives in memory and `folder` is only named (not created:
        no other process can open this store, so it has no read log). For a scratch store that
        is read out and dropped (one file of a distributed ingest, `hyrag.scale.worker`): a
        file-backed one pays a disk sync per transaction and on close, ~0.15 s a file, a third
        of ingesting a small one."""
        self.folder = Path(folder)
        self.read_only = read_only
        db = self.folder / DB_FILE
        if in_memory and read_only:
            raise StoreError("an in-memory store is never read-only: it starts empty")
        if read_only:
            if not db.exists():
                raise StoreError(f"no knowledge base at {self.folder} (missing {DB_FILE})")
        elif not in_memory:
            self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self.con = duckdb.connect(":memory:" if in_memory else str(db), read_only=read_only)
        except duckdb.IOException as e:
            raise _locked_error(self.folder, read_only, e) from e
        except duckdb.Error as e:
            raise StoreError(f"cannot open {db}: {e}", source=str(db)) from e
        try:
            if not read_only:
                self._migrate()
            self._check_version()
            self.harden()
            if not read_only:
                self.merge_readlog()
        except BaseException:
            self.con.close()  # an open that failed leaves nothing open behind it
            raise

    # -- lifecycle -------------------------------------------------------------------------
    def harden(self) -> None:
        """No file, network or extension access from here on, and nobody can turn it back on."""
        from hyrag.sql.harden import harden_connection

        # Inside a Jupyter kernel without ipywidgets DuckDB refuses to touch this setting at all
        # (even to turn it off); there the bar is off already.
        with contextlib.suppress(duckdb.Error):
            self.con.execute("SET enable_progress_bar = false")
        harden_connection(self.con)

    def close(self) -> None:
        self.con.close()

    @property
    def readlog(self) -> Path:
        """The append-only log of what read-only processes recorded (`hyrag.readlog`)."""
        from hyrag.readlog import READLOG_FILE

        return self.folder / READLOG_FILE

    def merge_readlog(self) -> int:
        """Move what read-only processes logged into the store (audit events, tracker
        failures); returns how many records. Needs the store open read-write."""
        from hyrag import readlog

        try:
            return readlog.merge(self)
        except OSError as e:
            raise StoreError(f"cannot merge the read log {self.readlog}: {e.strerror or e}",
                             source=str(self.readlog)) from e

    def _migrate(self) -> None:
        self.con.execute("CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
        row = self.con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        current = int(row[0]) if row else 0
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"knowledge base {self.folder} has schema version {current}; this HyRAG knows "
                f"up to {SCHEMA_VERSION}: upgrade HyRAG"
            )
        for version in range(current + 1, SCHEMA_VERSION + 1):
            with self.transaction():
                self.con.execute(MIGRATIONS[version])
                self.con.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(version)]
                )

    def _check_version(self) -> None:
        try:
            row = self.con.execute(
                "SELECT value FROM meta WHERE key = 'schema_version'"
            ).fetchone()
        except duckdb.Error as e:
            raise StoreError(f"{self.folder} is not a HyRAG knowledge base: {e}") from e
        if not row or int(row[0]) != SCHEMA_VERSION:
            raise StoreError(
                f"knowledge base {self.folder} has schema version {row[0] if row else None}, "
                f"expected {SCHEMA_VERSION}; open it read-write once to migrate"
            )

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All or nothing: an exception rolls back every statement of the block. A committed
        block advances the store's `generation` (in the same transaction, so a rolled-back
        ingest leaves it where it was)."""
        self.con.execute("BEGIN TRANSACTION")
        try:
            yield self.con
            self.con.execute(_BUMP_GENERATION)
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        else:
            self.con.execute("COMMIT")

    def generation(self) -> int:
        """How many write transactions (ingests, migrations) this store has committed: what a
        cache of the store's contents (`hyrag.kbcache`) is keyed by, in this process and the
        next. 0 for a store no transaction has written since the counter was introduced."""
        value = self.meta(META_GENERATION)
        return int(value) if value is not None else 0

    # -- reads -----------------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self.con.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [key, value])

    def user_tables(self) -> list[str]:
        return [r[0] for r in self.con.execute("SELECT table_name FROM kb_tables ORDER BY 1").fetchall()]

    def readable_tables(self) -> list[str]:
        """Every name the SQL route may read: typed tables and the engine's own tables."""
        return [*self.user_tables(), *[t for t in ENGINE_TABLES if t != "audit"], *ENGINE_VIEWS]

    def logical_state(self) -> dict[str, tuple[int, str]]:
        """Row count and an order-independent digest of every table's rows: what 'unchanged'
        means after a failed ingest (CONTRACT.md). Computed inside DuckDB, so comparing a
        million-claim store costs a scan, not a transfer into Python."""
        names = [
            r[0]
            for r in self.con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                "AND table_type = 'BASE TABLE' ORDER BY 1"
            ).fetchall()
        ]
        state: dict[str, tuple[int, str]] = {}
        for n in names:
            if n == "audit":
                continue  # a failed ingest may add one audit event saying so (CONTRACT.md)
            q = '"' + n.replace('"', '""') + '"'
            count, digest = self.con.execute(
                f"SELECT count(*), coalesce(md5(string_agg(h, '' ORDER BY h)), '') "
                f"FROM (SELECT md5(CAST(t AS VARCHAR)) AS h FROM {q} t)"
            ).fetchone()
            state[n] = (int(count), str(digest))
        return state

    def count(self, sql: str, params: list | None = None) -> int:
        return int(self.con.execute(sql, params or []).fetchone()[0])

    def on_each(self, sql: str, fn: Callable[[tuple], None]) -> None:
        for row in self.con.execute(sql).fetchall():
            fn(row)


_HOLDER = re.compile(r"\(PID (\d+)\)")


def _locked_error(folder: Path, read_only: bool, e: duckdb.IOException) -> StoreError:
    """DuckDB's lock conflict as one line saying who has the folder and what can run beside it
    (any other IO error: the file named with DuckDB's reason)."""
    text = str(e)
    db = folder / DB_FILE
    if "lock" not in text.lower():
        return StoreError(f"cannot open {db}: {text.splitlines()[0]}", source=str(db))
    pid = _HOLDER.search(text)
    who = f"another process (PID {pid.group(1)})" if pid else "another process"
    if read_only:
        return StoreError(
            f"knowledge base {folder} is open read-write in {who}; commands that only read "
            "can open it once that process (an ingest, or a notebook opened read-write) closes "
            "it")
    if "read-only mode" in text:  # DuckDB says so when the holders are readers
        return StoreError(
            f"knowledge base {folder} is open read-only in {who}, perhaps among others; open it "
            "read-only too (hyrag.open(path, read_only=True); hyrag ask / sql / search / schema "
            "do), or write once they close it")
    return StoreError(
        f"knowledge base {folder} is open read-write in {who}; wait until it closes the "
        "knowledge base")
