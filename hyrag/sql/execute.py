"""Running a guarded query: own cursor, row cap, interrupt timer, typed errors, JSON-safe rows.

Why a cursor per query: `con.cursor()` is a separate DuckDB client context on the same database,
so an interrupt stops only this query, and session state a query might set (a random seed) dies
with the cursor. Why `fetchmany(row_cap + 1)`: one extra row tells us the result was truncated
without materialising the rest.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import math
import threading
import time
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import duckdb

from hyrag.errors import SqlExecutionError, SqlTimeout
from hyrag.sql.guard import GuardedQuery

# Applied in this order; `lock_configuration` must come last, since after it nothing can be set.
# The extension switches are belt and braces: with external access off DuckDB cannot read an
# extension file anyway, but autoloading is the one path that would otherwise try.
_HARDENING: tuple[str, ...] = (
    "SET enable_external_access = false",
    "SET autoinstall_known_extensions = false",
    "SET autoload_known_extensions = false",
    "SET allow_community_extensions = false",
    # DuckDB's Python client resolves an unknown table name to a DataFrame variable in the
    # caller's frames; the SQL route must only ever see the database's own tables.
    "SET python_enable_replacements = false",
    "SET lock_configuration = true",
)


def harden_connection(con: duckdb.DuckDBPyConnection) -> None:
    """Make `con` (and every cursor made from it) unable to touch any file but its own database.

    The engine opens its knowledge-base file once and hardens right away (CONTRACT.md): DuckDB
    then refuses file and network access, extension loading and any later `SET`, even for SQL
    that never went through the guard.
    """
    for statement in _HARDENING:
        con.execute(statement)


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

    def to_frame(self):  # noqa: ANN201 - pandas.DataFrame, imported lazily
        """The rows as a pandas DataFrame (duplicate column names suffixed as in `to_dict`);
        `truncated` and `elapsed_ms` stay on this object."""
        import pandas as pd

        return pd.DataFrame.from_records(self.rows, columns=_unique_names(self.columns))

    df = to_frame  # DuckDB's spelling

    def _repr_html_(self) -> str:  # notebooks
        from hyrag.display import query_result_html

        return query_result_html(self)


def run_query(
    con: duckdb.DuckDBPyConnection,
    guarded: GuardedQuery,
    *,
    row_cap: int,
    timeout_s: float,
) -> QueryResult:
    """Run an accepted query with at most `row_cap` rows returned and `timeout_s` of run time.

    A timer interrupts the cursor when the time is up; the interrupt surfaces as DuckDB's
    `InterruptException`, which becomes `SqlTimeout`. Any other DuckDB error becomes
    `SqlExecutionError` carrying DuckDB's own message (unknown column, bad cast, ...).
    """
    if row_cap < 1:
        raise ValueError(f"row_cap must be >= 1, got {row_cap}")
    if not timeout_s > 0:
        raise ValueError(f"timeout_s must be > 0, got {timeout_s}")
    cursor = con.cursor()
    fired = threading.Event()

    def _interrupt() -> None:
        fired.set()
        cursor.interrupt()

    timer = threading.Timer(timeout_s, _interrupt)
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        cursor.execute(guarded.sql)
        description = cursor.description or []
        fetched = cursor.fetchmany(row_cap + 1)
    except duckdb.InterruptException as e:
        raise SqlTimeout(
            f"query interrupted after the {timeout_s:g} s time limit"
            + ("" if fired.is_set() else " (interrupted externally)")
        ) from e
    except duckdb.Error as e:
        if fired.is_set():
            # An interrupt can surface as another error class mid-operator; the timer is the cause.
            raise SqlTimeout(f"query interrupted after the {timeout_s:g} s time limit") from e
        raise SqlExecutionError(f"DuckDB could not run the query: {e}") from e
    finally:
        timer.cancel()
        with contextlib.suppress(duckdb.Error):
            cursor.close()
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    truncated = len(fetched) > row_cap
    return QueryResult(
        columns=[str(d[0]) for d in description],
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
