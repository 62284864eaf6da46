"""The SQL route: a sqlglot read-only guard, then execution on a hardened DuckDB connection.

`check_sql` decides whether a statement may run at all; `run_query` runs an accepted one after
`check_plan` (DuckDB's own plan reads only allowed relations), with a row cap and a deadline;
`harden_connection` makes the connection unable to reach any other file even if the guard had a
gap (defence in depth, CONTRACT.md "The store and the SQL route").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# Imported on first use (PEP 562): `hyrag.sql.harden` is needed by every store, the guard and its
# sqlglot only by the SQL route (issue 20: a structural `hyrag ask` does not import sqlglot).
_EXPORTS = {
    "PlanScope": "hyrag.sql.execute",
    "QueryResult": "hyrag.sql.execute",
    "catalog_names": "hyrag.sql.execute",
    "check_plan": "hyrag.sql.execute",
    "plan_reads": "hyrag.sql.execute",
    "run_query": "hyrag.sql.execute",
    "harden_connection": "hyrag.sql.harden",
    "GuardedQuery": "hyrag.sql.guard",
    "check_sql": "hyrag.sql.guard",
    "fold": "hyrag.sql.guard",
}

if TYPE_CHECKING:
    from hyrag.sql.execute import (
        PlanScope,
        QueryResult,
        catalog_names,
        check_plan,
        plan_reads,
        run_query,
    )
    from hyrag.sql.guard import GuardedQuery, check_sql, fold
    from hyrag.sql.harden import harden_connection


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hyrag.sql' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "GuardedQuery",
    "PlanScope",
    "QueryResult",
    "catalog_names",
    "check_plan",
    "check_sql",
    "fold",
    "harden_connection",
    "plan_reads",
    "run_query",
]
