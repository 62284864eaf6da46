"""The SQL route: a sqlglot read-only guard, then execution on a hardened DuckDB connection.

`check_sql` decides whether a statement may run at all; `run_query` runs an accepted one after
`check_plan` (DuckDB's own plan reads only allowed relations), with a row cap and a deadline;
`harden_connection` makes the connection unable to reach any other file even if the guard had a
gap (defence in depth, CONTRACT.md "The store and the SQL route").
"""

from hyrag.sql.execute import (
    PlanScope,
    QueryResult,
    catalog_names,
    check_plan,
    harden_connection,
    plan_reads,
    run_query,
)
from hyrag.sql.guard import GuardedQuery, check_sql, fold

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
