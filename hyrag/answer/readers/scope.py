"""What the table and prose readers read: the knowledge base without its large tables.

The readers (`hyrag.answer.readers`) read reports: statements of line items by period, list
tables of a few hundred rows, sentences. Each reads its share of the store once per process
into Python (every numeric cell, every label, each grid) and keeps it (`catalog.per_view`).
That is ~0.1 s on the sample knowledge base and was minutes and several GB at 1.1 M claims
(issue 20: 60-130 s for a fresh process's first `kb.ask` over one 100,000-row table), while a
question about a table that size is the parser's, the Warrant gate's and the SQL route's:
`tableops.load_grids` already leaves a table of more than `READER_MAX_ROWS` rows to them.

So the readers are handed a connection on which such tables are not there: `kb_tables`,
`schemas` and `claims` are TEMP views without the tables of more than `READER_MAX_ROWS` rows and
their claims (over the subject's own views when a policy restricts them). A knowledge base
without such a table is read through the very connection it was before, so no answer over
report-sized tables can change; the structural fetch, the SQL route and the Horizon still see
everything. The views' `kb_tables` differs from the whole store's, so the readers' caches
(`catalog.view_key`) never mix the two.
"""

from __future__ import annotations

import threading

# A table of more rows than this is not a report the readers read (tableops.load_grids' limit).
READER_MAX_ROWS = 5000
SCOPED = ("kb_tables", "schemas", "claims")
_LOCK = threading.Lock()


def _lit(s: str) -> str:
    return "'" + str(s).replace("'", "''") + "'"


def scope_ddl(db: str, large: tuple[tuple[str, str], ...], *, over_temp: bool) -> list[str]:
    """TEMP views of `SCOPED` without the (source_id, table_name) pairs in `large`. Over the
    database's own tables, or (`over_temp`) over TEMP views of the same names already made on
    the cursor (a subject's views): those are renamed first and read under their new name."""
    pred = " OR ".join(f"(source_id = {_lit(s)} AND table_name = {_lit(t)})" for s, t in large)
    out = []
    for name in SCOPED:
        if over_temp:
            base = f"temp.main._hyrag_scope_{name}"
            out.append(f"ALTER VIEW temp.main.{name} RENAME TO _hyrag_scope_{name}")
        else:
            base = '"' + db.replace('"', '""') + f'".main.{name}'
        out.append(f"CREATE OR REPLACE TEMP VIEW {name} AS SELECT * FROM {base} "
                   f"WHERE coalesce(NOT ({pred}), true)")
    return out


def readers_con(reader):  # Store or GovernedStore -> a connection
    """The connection the readers get for `reader` (a `Store` or a subject's `GovernedStore`):
    its own when no table has more than `READER_MAX_ROWS` rows, else one whose every cursor
    sees the store without those tables (pooled cursors, made once per store version)."""
    from hyrag.policy.views import GovernedConnection, store_version

    base = reader.con
    cur = base.cursor()
    try:
        large = tuple(cur.execute(
            "SELECT source_id, table_name FROM kb_tables WHERE coalesce(n_rows, 0) > ? "
            "ORDER BY 1, 2", [READER_MAX_ROWS]).fetchall())
        if not large:
            return base
        key = (large, store_version(cur))
        db = cur.execute("SELECT current_database()").fetchone()[0]
    finally:
        cur.close()
    with _LOCK:
        cache: dict = reader.__dict__.setdefault("_readers_scope", {})
        con = cache.get(key)
        if con is None:
            for old in cache.values():  # an older store version: its views are stale
                old.close()
            cache.clear()
            governed = isinstance(base, GovernedConnection)
            raw = base._con if governed else base  # the subject's raw store
            ddl = (list(base._ddl) if governed else []) + scope_ddl(
                db, large, over_temp=governed)
            con = cache[key] = GovernedConnection(raw, ddl)
    return con
