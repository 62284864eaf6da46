"""Property: whatever the guard accepts leaves the knowledge base unchanged and reads no file.

Hypothesis composes statements from fragments — analyst queries over the allowed tables and
hostile statements (DDL/DML, session commands, table functions and string tables pointing at
canary files) — then stacks them, wraps them in CTEs and subqueries, sprinkles comments and
whitespace between tokens and changes case. Every statement the guard accepts is run on a copy of
a small knowledge-base-like DuckDB file through the real route (hardened connection, cursor, row
cap, timer). After each run:

(a) a fresh read-only connection sees the same tables, views and rows as before;
(b) Linux inotify saw no open/read/create/modify in the canary directory the hostile fragments
    point at — so not even a failed read attempt reached the file system there.

(c) DuckDB's own plan of the accepted statement (`EXPLAIN (FORMAT JSON)`, read on a separate
    connection) scans only allowed tables and generator functions: the guard's reading of the
    names agrees with the binder's.

Hostile fragments include CTEs named after catalog relations (audit, system views) and names
with characters Python and DuckDB case-fold differently.

Labels are checked too: a statement built only from benign fragments must be accepted (the guard
is not just refusing everything), and one containing a hostile fragment must be refused.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import datetime as dt
import os
import random
import shutil
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import hyrag
from hyrag.errors import SqlExecutionError, SqlRejected, SqlTimeout
from hyrag.sql import catalog_names, check_sql, plan_reads
from hyrag.store import CLAIM_STORAGE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux")

ALLOWED = ("sales", "regions", "claims")

# ------------------------------------------------------------------ inotify through ctypes

IN_ACCESS = 0x00000001
IN_MODIFY = 0x00000002
IN_OPEN = 0x00000020
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
_EVENT_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len


class Inotify:
    """A minimal non-blocking inotify watch on one directory (files inside it and the dir)."""

    def __init__(self, directory: Path) -> None:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        self.fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        mask = IN_OPEN | IN_ACCESS | IN_CREATE | IN_MODIFY | IN_DELETE
        wd = libc.inotify_add_watch(self.fd, os.fsencode(directory), mask)
        if wd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch failed on {directory}")

    def drain(self) -> list[tuple[int, str]]:
        """All events queued since the last drain, as (mask, name)."""
        events: list[tuple[int, str]] = []
        while True:
            try:
                buf = os.read(self.fd, 65536)
            except BlockingIOError:
                return events
            offset = 0
            while offset < len(buf):
                _wd, mask, _cookie, length = _EVENT_HEADER.unpack_from(buf, offset)
                offset += _EVENT_HEADER.size
                name = buf[offset : offset + length].rstrip(b"\0").decode(errors="replace")
                offset += length
                events.append((mask, name))

    def close(self) -> None:
        os.close(self.fd)


# ------------------------------------------------------------------ the knowledge base fixture


def build_kb(folder: Path) -> Path:
    """A real knowledge base, built by the engine from two small CSV files."""
    src = folder.parent / "src"
    src.mkdir(parents=True)
    regions = ["north", "south", "east"]
    lines = ["id,region,product,amount,sold_on,note"]
    for i in range(60):
        day = dt.date(2024, 1, 1) + dt.timedelta(days=i)
        note = "" if i % 4 == 0 else f"note {i}"
        lines.append(f"S{i},{regions[i % 3]},p{i % 5},{i * 7 % 100}.00,{day.isoformat()},{note}")
    (src / "sales.csv").write_text("\n".join(lines) + "\n")
    (src / "regions.csv").write_text("region,manager\nnorth,Ada\nsouth,Bo\nwest,Al\n")
    with hyrag.open(folder) as kb:
        kb.ingest(src / "sales.csv")
        kb.ingest(src / "regions.csv")
        kb.store.con.execute(
            "INSERT INTO audit VALUES ('e1', NULL, now(), 'secret', NULL, 'secret event')"
        )
    return folder / "hyrag.duckdb"


def snapshot(path: Path) -> dict[str, object]:
    """The logical state, read by a fresh read-only connection."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [
            r[0]
            for r in con.execute(
                "SELECT schema_name || '.' || table_name FROM duckdb_tables() ORDER BY 1"
            ).fetchall()
        ]
        views = con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1"
        ).fetchall()
        rows = {t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in tables}
        return {"tables": tables, "views": views, "rows": rows}
    finally:
        con.close()


@dataclass
class Env:
    db: Path
    canary: Path
    expected: dict[str, object]
    canary_files: dict[str, bytes]
    watch: Inotify
    reserved: frozenset[str] = frozenset()


def catalog_of(path: Path) -> frozenset[str]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return catalog_names(con)
    finally:
        con.close()


def plan_of(path: Path, sql: str):  # PlanReads | None (does not bind)
    con = duckdb.connect(str(path), read_only=True)
    try:
        con.execute("SET enable_external_access = false")
        return plan_reads(con, sql)
    except duckdb.Error:
        return None  # DuckDB refuses to bind it: it reads nothing
    finally:
        con.close()


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    root = tmp_path_factory.mktemp("sqlprop")
    pristine = build_kb(root / "pristine" / "kb")
    work = root / "kb" / "hyrag.duckdb"  # the copy this module's statements run against
    work.parent.mkdir()
    shutil.copy2(pristine, work)
    canary = root / "canary"
    canary.mkdir()
    files = {
        "canary.csv": b"secret,value\nalpha,1\n",
        "canary.parquet": b"PAR1 not really\n",
        "canary.json": b'{"secret": 1}\n',
        "canary.db": b"not a database\n",
        "canary.txt": b"secret text\n",
    }
    for name, data in files.items():
        (canary / name).write_bytes(data)
    assert " " not in str(canary)  # fragments split on spaces
    watch = Inotify(canary)
    watch.drain()
    yield Env(work, canary, snapshot(work), files, watch, catalog_of(work))
    watch.close()


def test_watcher_sees_an_unguarded_read(env: Env) -> None:
    """The zero-events assertion means something: an unhardened DuckDB read is seen."""
    env.watch.drain()
    con = duckdb.connect()
    con.execute(f"SELECT * FROM read_csv('{env.canary}/canary.csv')").fetchall()
    con.close()
    masks = [m for m, name in env.watch.drain() if name == "canary.csv"]
    assert any(m & IN_OPEN for m in masks) and any(m & IN_ACCESS for m in masks)


# ------------------------------------------------------------------ statement fragments
# Fragments are space-separated tokens; the renderer re-joins them with random separators
# (spaces, newlines, tabs, block and line comments) and random case, so a token must never
# contain a space. `{c}` is the canary directory. sqlglot's tokenizer reads `GROUP BY`,
# `ORDER BY` and `PARTITION BY` as one token, so a comment between the two words is a parse error
# (a false refusal, on the safe side); those pairs are kept together with `§`, a real space.

BENIGN = [
    "SELECT * FROM sales",
    "FROM sales",
    "SELECT region , count(*) AS n FROM sales GROUP BY region",
    "SELECT region , sum(amount) AS total FROM sales GROUP BY region HAVING sum(amount) > 10",
    "SELECT s.id , r.manager FROM sales s JOIN regions r ON s.region = r.region",
    "SELECT * FROM sales LEFT JOIN regions USING (region)",
    "SELECT id , sum(amount) OVER (PARTITION BY region ORDER BY sold_on) AS run FROM sales",
    "SELECT region FROM sales UNION SELECT region FROM regions",
    "SELECT region FROM regions EXCEPT SELECT region FROM sales",
    "VALUES (1 , 'a') , (2 , 'b')",
    "SELECT date_trunc('month' , sold_on) AS m , count(*) FROM sales GROUP BY 1",
    "SELECT * FROM sales WHERE note LIKE '%DROP%TABLE%'",
    "SELECT 'a;b;DROP' AS s",
    "SELECT claim_id , text FROM claims",
    "SELECT max(amount) FROM sales WHERE sold_on > DATE '2024-01-15'",
    "WITH t AS (SELECT * FROM sales) SELECT count(*) FROM t",
    "SELECT * FROM regions WHERE region IN (SELECT region FROM sales)",
    "SELECT range AS n FROM range(5)",
    "SELECT 'read_csv(''{c}/canary.csv'')' AS looks_hostile",
    "SELECT '{c}/canary.csv' AS path_string",
]

HOSTILE = [
    "DROP TABLE sales",
    "DELETE FROM sales",
    "UPDATE sales SET amount = 0",
    "INSERT INTO regions VALUES ('x' , 'y')",
    "CREATE TABLE stolen AS SELECT * FROM sales",
    "CREATE VIEW v AS SELECT 1",
    "ALTER TABLE sales ADD COLUMN z INTEGER",
    "TRUNCATE sales",
    "SELECT * INTO stolen FROM sales",
    "SELECT * FROM audit",
    "SELECT * FROM main.audit",
    "SELECT * FROM information_schema.tables",
    "SELECT * FROM duckdb_tables()",
    "SELECT * FROM read_csv('{c}/canary.csv')",
    "SELECT * FROM read_csv_auto('{c}/canary.csv')",
    "SELECT * FROM read_parquet('{c}/canary.parquet')",
    "SELECT * FROM parquet_scan('{c}/canary.parquet')",
    "SELECT * FROM read_json('{c}/canary.json')",
    "SELECT * FROM read_text('{c}/canary.txt')",
    "SELECT * FROM read_blob('{c}/canary.txt')",
    "SELECT * FROM glob('{c}/*')",
    "SELECT * FROM sniff_csv('{c}/canary.csv')",
    "SELECT * FROM '{c}/canary.csv'",
    'SELECT * FROM "{c}/canary.csv"',
    "SELECT * FROM sales , LATERAL read_csv('{c}/canary.csv')",
    "SELECT * FROM sales JOIN read_csv('{c}/canary.csv') r ON true",
    "SELECT * FROM sales WHERE id IN (SELECT 1 FROM read_csv('{c}/canary.csv'))",
    "SELECT length(read_text('{c}/canary.txt'))",
    "SELECT * FROM query('SELECT * FROM read_csv(''{c}/canary.csv'')')",
    "COPY sales TO '{c}/out.csv'",
    "COPY sales FROM '{c}/canary.csv'",
    "ATTACH '{c}/canary.db' AS other",
    "EXPORT DATABASE '{c}/dump'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "PRAGMA database_list",
    "SET enable_external_access = true",
    "CALL pragma_version()",
    "CHECKPOINT",
    "SELECT getenv('HOME')",
    "SELECT current_setting('home_directory')",
    "SELECT * FROM sales FOR UPDATE",
    "WITH x AS (DELETE FROM sales RETURNING *) SELECT * FROM x",
    # names DuckDB's binder resolves to a catalog relation while they look like a CTE
    "WITH RECURSIVE audit AS ( SELECT * FROM audit ) SELECT * FROM audit",
    "WITH RECURSIVE t AS ( SELECT * FROM audit ) SELECT * FROM t",
    "WITH RECURSIVE sqlite_master AS ( SELECT * FROM sqlite_master ) SELECT * FROM sqlite_master",
    "WITH RECURSIVE duckdb_databases AS ( SELECT * FROM duckdb_databases ) SELECT * FROM "
    "duckdb_databases",
    "WITH RECURSIVE pg_settings AS ( SELECT * FROM pg_settings ) SELECT * FROM pg_settings",
    "WITH RECURSIVE duckdb_views AS ( SELECT * FROM duckdb_views UNION SELECT * FROM "
    "duckdb_views ) SELECT * FROM duckdb_views",
    "WITH a AS ( WITH RECURSIVE audit AS ( SELECT * FROM audit ) SELECT * FROM audit ) SELECT "
    "* FROM a",
    'WITH "\u212audit" AS ( SELECT 1 ) SELECT * FROM audit',
    'WITH "\u212aales" AS ( SELECT 1 ) SELECT * FROM "\u212aales"',
]

WRAPPERS = [
    "WITH w AS ( {q} ) SELECT * FROM w",
    "SELECT * FROM ( {q} ) AS sq",
    "( {q} )",
    "SELECT count(*) AS n FROM ( {q} ) AS sq",
]

SEPARATORS = [" ", "  ", "\n", "\t", " /* x */ ", "/**/", " -- c\n", " /* ; DROP TABLE sales */ "]


@st.composite
def statements(draw: st.DrawFn, canary: str) -> tuple[str, bool]:
    """(sql, hostile_label)."""
    hostile = draw(st.booleans())
    frag = draw(st.sampled_from(HOSTILE if hostile else BENIGN))
    for _ in range(draw(st.integers(0, 2))):
        frag = draw(st.sampled_from(WRAPPERS)).format(q=frag)
    if draw(st.integers(0, 4)) == 0:  # stacking: two statements are always refused
        other = draw(st.sampled_from(HOSTILE + BENIGN))
        frag = f"{frag} ; {other}" if draw(st.booleans()) else f"{other} ; {frag}"
        hostile = True
    elif draw(st.booleans()):
        frag = f"{frag} ;"  # a single trailing semicolon is fine
    for pair in ("GROUP BY", "ORDER BY", "PARTITION BY"):
        frag = frag.replace(pair, pair.replace(" ", "§"))
    tokens = frag.replace("{c}", canary).split(" ")
    case = draw(st.sampled_from(["keep", "upper", "lower", "random"]))
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if "'" not in tok and '"' not in tok:  # literals keep their case; identifiers need not
            if case == "upper":
                tok = tok.upper()
            elif case == "lower":
                tok = tok.lower()
            elif case == "random":
                rng = random.Random(draw(st.integers(0, 2**32 - 1)))
                tok = "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in tok)
        out.append(tok)
        if i < len(tokens) - 1:
            out.append(draw(st.sampled_from(SEPARATORS)))
    prefix = draw(st.sampled_from(["", "\n", "/* report */ ", "-- q\n"]))
    return (prefix + "".join(out)).replace("§", " "), hostile


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_accepted_statements_cannot_change_state_or_read_files(
    env: Env, data: st.DataObject
) -> None:
    sql, hostile = data.draw(statements(str(env.canary)), label="statement")
    try:
        guarded = check_sql(sql, ALLOWED, env.reserved)
    except SqlRejected as e:
        event(f"rejected: {e.reason}")
        assert hostile, f"benign statement refused ({e.reason}): {e.message}\n{sql}"
        assert env.watch.drain() == []
        return
    event("accepted")
    assert not hostile, f"hostile statement accepted:\n{sql}\n-> {guarded.sql}"
    assert guarded.tables <= set(ALLOWED)
    # DuckDB's own plan of every accepted statement reads only allowed relations (computed here
    # on a separate read-only connection, independently of the route's own plan check)
    reads = plan_of(env.db, guarded.sql)
    # (the `claims` view's plan reads the tables claims are stored in, which no statement names)
    assert reads is None or (
        {t for _c, _s, t in reads.tables} <= {*ALLOWED, *CLAIM_STORAGE}
        and reads.functions <= {"range", "generate_series", "unnest"} and not reads.unknown
    ), f"plan of an accepted statement reads {reads}:\n{sql}"
    env.watch.drain()
    kb = hyrag.open(env.db.parent)  # the engine's own connection, hardened on open
    try:
        try:
            result = kb.sql(sql, row_cap=50, timeout_s=5.0)
            assert len(result.rows) <= 50
            event("ran")
        except (SqlExecutionError, SqlTimeout) as e:
            # an accepted statement may still fail to run; it must still change nothing
            event(f"run failed: {type(e).__name__}")
    finally:
        kb.close()
    assert env.watch.drain() == [], f"file system activity in the canary directory: {sql}"
    assert snapshot(env.db) == env.expected, f"logical state changed by: {sql}"
    for name, data_ in env.canary_files.items():
        assert (env.canary / name).read_bytes() == data_
    env.watch.drain()  # our own verification reads above
