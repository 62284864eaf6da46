"""The SQL route: a sqlglot read-only guard, then execution on a hardened DuckDB connection.

`check_sql` decides whether a statement may run at all; `run_query` runs an accepted one with a
row cap and an interrupt timer; `harden_connection` makes the connection unable to reach any other
file even if the guard had a gap (defence in depth, CONTRACT.md "The store and the SQL route").
"""

from hyrag.sql.execute import QueryResult, harden_connection, run_query
from hyrag.sql.guard import GuardedQuery, check_sql

__all__ = ["GuardedQuery", "QueryResult", "check_sql", "harden_connection", "run_query"]
