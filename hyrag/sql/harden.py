"""Hardening a knowledge base's DuckDB connection, kept apart from the SQL guard.

Every process that opens a store hardens its connection (`Store.harden`), but only the SQL route
needs the guard and its sqlglot (~0.1 s to import): a `hyrag ask` answered from the claims, or a
notebook that only reads, must not pay for it (issue 20). `hyrag.sql.execute` re-exports these.
"""

from __future__ import annotations

import duckdb

# Memory a DuckDB instance of a knowledge base may use in its buffer manager, and disk it may
# spill to. DuckDB has these only per instance (not per connection or statement), and
# `lock_configuration` freezes them, so they are set once when the store is opened and hold
# for every statement on it: a runaway SQL-route query ends in "Out of Memory Error"
# (SqlExecutionError) instead of growing the process without bound. Generous for ingest and
# analytical queries over a laptop-sized knowledge base. One value DuckDB cannot bound: a single
# scalar value (one string of `repeat`, up to DuckDB's 4 GB value limit) is allocated outside
# the buffer manager; the SQL route's deadline (`hyrag.sql.execute`) still returns control
# to the caller on time.
SQL_MEMORY_LIMIT = "4GB"
SQL_TEMP_DIRECTORY_LIMIT = "8GB"

# Applied in this order; `lock_configuration` must come last, since after it nothing can be set.
# The extension switches are belt and braces: with external access off DuckDB cannot read an
# extension file anyway, but autoloading is the one path that would otherwise try.
_HARDENING: tuple[str, ...] = (
    f"SET memory_limit = '{SQL_MEMORY_LIMIT}'",
    f"SET max_temp_directory_size = '{SQL_TEMP_DIRECTORY_LIMIT}'",
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
