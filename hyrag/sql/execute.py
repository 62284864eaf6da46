"""Running a guarded query: own cursor, plan check, row cap, deadline, typed errors, JSON rows.

Why a cursor per query: `con.cursor()` is a separate DuckDB client context on the same database,
so an interrupt stops only this query, and session state a query might set (a random seed) dies
with the cursor. Why `fetchmany(row_cap + 1)`: one extra row tells us the result was truncated
without materialising the rest.

Why a plan check (`check_plan`): the sqlglot guard decides what a name means by its own reading
of SQL scoping, and DuckDB's binder may read the same text differently (a CTE body that is not a
recursive UNION binds its names to the catalog). So before a statement runs, DuckDB's own physical
plan of it (`EXPLAIN (FORMAT JSON)`, views already expanded to the tables they scan) is read, and
the statement is refused unless every table scan and table function in it is on the request's
allow-list (`PlanScope`). Names compare the way DuckDB compares them (ASCII case folding).

Why a worker thread and a deadline: DuckDB checks for an interrupt between vectors, so one long
scalar expression (or the optimizer folding a constant while planning) can run on after the
timer fires, and a streamed result can keep producing rows. The statement therefore runs (plan,
execute, fetch) on a worker thread; the caller waits `timeout_s`, interrupts, waits at most
`INTERRUPT_GRACE_S` more and raises `SqlTimeout` whatever the worker is still doing. A result
that arrives after the deadline is discarded, never returned as an ordinary (truncated) one.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import json
import math
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import duckdb

from hyrag.errors import SqlExecutionError, SqlRejected, SqlTimeout
from hyrag.sql.guard import REASON_PLAN, GuardedQuery, fold
from hyrag.sql.harden import (  # noqa: F401 - re-exported: where they lived before
    _HARDENING,
    SQL_MEMORY_LIMIT,
    SQL_TEMP_DIRECTORY_LIMIT,
    harden_connection,
)

# After the deadline the worker is interrupted; the caller waits this long for DuckDB to stop
# before raising SqlTimeout anyway (the worker then finishes on its own and closes its cursor).
INTERRUPT_GRACE_S = 1.0
# `wait_for_queries` (called when a knowledge base is closed) waits at most this long for
# interrupted workers, so a connection is not closed under a statement still unwinding.
CLOSE_WAIT_S = 30.0

# Table functions a plan may hold: the pure generators the guard allows (`range`,
# `generate_series`, `unnest`), as DuckDB's plan names them.
PLAN_FUNCTIONS: frozenset[str] = frozenset({"range", "generate_series", "unnest"})
# Plan leaves that read no relation: constants, VALUES, a CTE or recursive-CTE buffer, the
# optimizer's empty result. Any other leaf without a table or function is refused (fail closed:
# a DuckDB operator added later must be reviewed before the SQL route accepts it).
PLAN_SAFE_LEAVES: frozenset[str] = frozenset({
    "DUMMY_SCAN", "COLUMN_DATA_SCAN", "EMPTY_RESULT", "CTE_SCAN", "REC_CTE_SCAN",
    "RECURSIVE_CTE_SCAN", "DELIM_SCAN", "CHUNK_SCAN", "EXPRESSION_SCAN", "UNNEST",
})

@dataclass(frozen=True)
class QueryResult:
    """Rows of one query, capped; `truncated` says whether more rows existed."""

    columns: list[str]
    rows: list[tuple]
    truncated: bool
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        """`{"columns", "rows": [{col: val}], "truncated"}` with strictly JSON-safe values.

        Duplicate column names (`SELECT 1 AS a, 2 AS a` is legal) get `_1`, `_2` suffixes so no
        value is lost when rows become objects.
        """
        names = _unique_names(self.columns)
        return {
            "columns": names,
            "rows": [
                {n: _json_safe(v) for n, v in zip(names, row, strict=True)} for row in self.rows
            ],
            "truncated": self.truncated,
        }

    def to_frame(self):  # pandas.DataFrame, imported lazily
        """The rows as a pandas DataFrame (duplicate column names suffixed as in `to_dict`);
        `truncated` and `elapsed_ms` stay on this object."""
        import pandas as pd

        return pd.DataFrame.from_records(self.rows, columns=_unique_names(self.columns))

    df = to_frame  # DuckDB's spelling

    def _repr_html_(self) -> str:  # notebooks
        from hyrag.display import query_result_html

        return query_result_html(self)


@dataclass(frozen=True)
class PlanScope:
    """What a request's plan may read: `tables` as (catalog, schema, table) in DuckDB's ASCII
    fold (a subject's views are expanded in the plan, so the base tables behind them are listed
    too), `functions` the table functions allowed."""

    tables: frozenset[tuple[str, str, str]]
    functions: frozenset[str] = field(default=PLAN_FUNCTIONS)

    @staticmethod
    def of(catalog: str, schema: str, names: Iterable[str]) -> PlanScope:
        return PlanScope(frozenset((fold(catalog), fold(schema), fold(n)) for n in names))

    def __or__(self, other: PlanScope) -> PlanScope:
        return PlanScope(self.tables | other.tables, self.functions | other.functions)


@dataclass(frozen=True)
class PlanReads:
    """The relations one plan reads: tables as (catalog, schema, name), table functions, and
    leaf operators that read something the plan does not name."""

    tables: frozenset[tuple[str, str, str]]
    functions: frozenset[str]
    unknown: frozenset[str]


def split_qualified(name: str) -> tuple[str, ...]:
    """`"temp".main."a.b"` -> ("temp", "main", "a.b"): DuckDB's rendering of a qualified name,
    double quotes around a part that needs them, `""` inside one."""
    parts: list[str] = []
    cur: list[str] = []
    i, quoted = 0, False
    while i < len(name):
        ch = name[i]
        if quoted:
            if ch == '"' and name[i + 1 : i + 2] == '"':
                cur.append('"')
                i += 1
            elif ch == '"':
                quoted = False
            else:
                cur.append(ch)
        elif ch == '"':
            quoted = True
        elif ch == ".":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur))
    return tuple(parts)


def plan_reads(cursor: Any, sql: str) -> PlanReads:
    """Every table scan, table function and unexplained leaf of DuckDB's plan of `sql`."""
    rows = cursor.execute("EXPLAIN (FORMAT JSON) " + sql).fetchall()
    tables: set[tuple[str, str, str]] = set()
    functions: set[str] = set()
    unknown: set[str] = set()
    stack: list[Any] = []
    for row in rows:
        stack.extend(json.loads(row[-1]))
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        info = node.get("extra_info") or {}
        children = node.get("children") or []
        stack.extend(children)
        table = info.get("Table") if isinstance(info, dict) else None
        func = info.get("Function") if isinstance(info, dict) else None
        if table:
            parts = split_qualified(str(table))
            parts = ("",) * (3 - len(parts)) + parts if len(parts) < 3 else parts[-3:]
            tables.add((fold(parts[0]), fold(parts[1]), fold(parts[2])))
        if func:
            functions.add(fold(str(func)))
        if not table and not func and not children:
            name = str(node.get("name", ""))
            if name not in PLAN_SAFE_LEAVES:
                unknown.add(name)
    return PlanReads(frozenset(tables), frozenset(functions), frozenset(unknown))


def check_plan(cursor: Any, sql: str, scope: PlanScope) -> PlanReads:
    """Refuse (`SqlRejected`, reason `plan_not_allowed`) unless DuckDB's plan of `sql` reads
    only what `scope` allows."""
    reads = plan_reads(cursor, sql)
    bad = sorted(".".join(t) for t in reads.tables - scope.tables)
    bad += sorted(f"{f}()" for f in reads.functions - scope.functions)
    bad += sorted(f"operator {u}" for u in reads.unknown)
    if bad:
        # The names stay off the message (it must not confirm that a denied table exists);
        # the exception carries them for the audit record and tests.
        e = SqlRejected(
            f"DuckDB's plan of this statement reads {len(bad)} relation(s) this request may "
            "not read: a name in it resolves to another table, view or function than the "
            "allowed ones (for example a CTE named after a catalog relation)",
            reason=REASON_PLAN,
        )
        e.relations = tuple(bad)  # type: ignore[attr-defined]
        raise e
    return reads


def catalog_names(cursor: Any) -> frozenset[str]:
    """The names of every table and view DuckDB can resolve (any schema, system views and this
    connection's temp views included), ASCII-folded: the names no CTE may take."""
    rows = cursor.execute(
        "SELECT table_name FROM duckdb_tables() UNION SELECT view_name FROM duckdb_views()"
    ).fetchall()
    return frozenset(fold(str(r[0])) for r in rows)


_INFLIGHT: set[threading.Thread] = set()
_INFLIGHT_LOCK = threading.Lock()


def wait_for_queries(timeout_s: float = CLOSE_WAIT_S) -> None:
    """Wait (at most `timeout_s` in all) for statements still unwinding after a timeout."""
    end = time.monotonic() + timeout_s
    with _INFLIGHT_LOCK:
        threads = list(_INFLIGHT)
    for t in threads:
        t.join(max(0.0, end - time.monotonic()))


def run_query(
    con: duckdb.DuckDBPyConnection,
    guarded: GuardedQuery,
    *,
    row_cap: int,
    timeout_s: float,
    scope: PlanScope | None = None,
) -> QueryResult:
    """Run an accepted query with at most `row_cap` rows returned and `timeout_s` of run time.

    With `scope`, DuckDB's plan of the statement must read only what it allows (`check_plan`),
    inside the same time limit. When the time is up the statement is interrupted and
    `SqlTimeout` raised, however far it got (module docstring). Any other DuckDB error becomes
    `SqlExecutionError` carrying DuckDB's own message (unknown column, bad cast, out of
    memory, ...).
    """
    if row_cap < 1:
        raise ValueError(f"row_cap must be >= 1, got {row_cap}")
    if not timeout_s > 0:
        raise ValueError(f"timeout_s must be > 0, got {timeout_s}")
    cursor = con.cursor()
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            if scope is not None:
                check_plan(cursor, guarded.sql, scope)
            cursor.execute(guarded.sql)
            box["description"] = cursor.description or []
            box["rows"] = cursor.fetchmany(row_cap + 1)
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e
        finally:
            with contextlib.suppress(duckdb.Error, RuntimeError):
                cursor.close()
            done.set()
            with _INFLIGHT_LOCK:
                _INFLIGHT.discard(threading.current_thread())

    worker = threading.Thread(target=work, name="hyrag-sql", daemon=True)
    with _INFLIGHT_LOCK:
        _INFLIGHT.add(worker)
    start = time.perf_counter()
    worker.start()
    try:
        finished = done.wait(timeout_s)
    except BaseException:  # Ctrl-C while waiting: stop the statement too
        cursor.interrupt()
        raise
    if not finished:
        cursor.interrupt()
        done.wait(INTERRUPT_GRACE_S)
        raise SqlTimeout(f"query interrupted after the {timeout_s:g} s time limit")
    error = box.get("error")
    if isinstance(error, SqlRejected):
        raise error
    if isinstance(error, duckdb.InterruptException):
        raise SqlTimeout("query interrupted (interrupted externally)") from error
    if isinstance(error, duckdb.Error):
        raise SqlExecutionError(f"DuckDB could not run the query: {error}") from error
    if error is not None:
        raise error
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    fetched = box["rows"]
    truncated = len(fetched) > row_cap
    return QueryResult(
        columns=[str(d[0]) for d in box["description"]],
        rows=[tuple(r) for r in fetched[:row_cap]],
        truncated=truncated,
        elapsed_ms=elapsed_ms,
    )


def _unique_names(columns: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    taken = set(columns)
    out: list[str] = []
    for name in columns:
        if name not in seen:
            seen[name] = 0
            out.append(name)
            continue
        n = seen[name]
        while True:
            n += 1
            candidate = f"{name}_{n}"
            if candidate not in taken:
                break
        seen[name] = n
        taken.add(candidate)
        out.append(candidate)
    return out


def _json_safe(value: Any) -> Any:
    """Map DuckDB's Python values onto JSON types.

    Dates and times become ISO 8601 strings, DECIMAL a float (the CLI prints numbers, not
    strings), intervals seconds as a float, UUID a string, BLOB base64, non-finite floats None
    (strict JSON has no NaN/Infinity), lists/structs/maps recursively.
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_json_safe(v) for v in value]
    return str(value)
