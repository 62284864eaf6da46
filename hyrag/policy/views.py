"""Per-subject SQL: the engine's tables seen through TEMP views filtered to the allowed sources.

User SQL (and the answer engine's structural reads) run on a cursor of the one hardened
connection. For a subject that may not see every source, that cursor first gets TEMP views which
shadow the engine tables under their own names (DuckDB resolves an unqualified name in the temp
schema first; the guard only accepts unqualified names, so `main.claims` cannot be named):

* `sources`, `kb_tables`, `schemas`, `schema_adjustments`, `items`, `relations`, `claims`:
  rows of allowed sources only;
* `claim_links`: links whose both ends are visible claims — a contradiction, support, negation
  or derivation that involves a denied source is invisible;
* `claims.support` / `claims.contradict`: the stored counters minus the links to claims the
  subject cannot see, so a counter never reveals that a hidden source agrees or disagrees;
* `attributes`: the cell view over the filtered claims.

Typed tables (`sales`, ...) of denied sources get no view: they are not in the subject's table
allow-list, so the guard rejects them exactly as it rejects a table that does not exist.
Aggregate claims are built per table inside one source (their `derived_from` links never cross
sources), so filtering claims by source also hides every aggregate over denied rows; counts and
aggregates the user computes in SQL run over the views and therefore over allowed rows only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

FILTERED_BY_SOURCE = ("sources", "kb_tables", "schemas", "schema_adjustments", "items",
                      "relations")
FILTERED_BY_TABLE = ("schema_evolution",)  # engine tables keyed by typed-table name
# Engine tables a governed subject may read (each through a view below, `meta` as is). An
# engine table added later is not readable by a restricted subject until it gets a view here.
GOVERNED_ENGINE_TABLES = ("meta", *FILTERED_BY_SOURCE, "claims", "claim_links", "attributes",
                          *FILTERED_BY_TABLE)


def _lit(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _ident(s: str) -> str:
    return '"' + s.replace('"', '""') + '"'


def view_ddl(db: str, allowed_sources: Iterable[str], *, hidden_links: bool = True,
             allowed_tables: Iterable[str] = (), by_table: Iterable[str] = ()) -> list[str]:
    """CREATE TEMP VIEW statements for one subject's allowed sources. `hidden_links` False skips
    the counter correction (no supports/contradicts link crosses the visibility boundary);
    `by_table`: the engine tables keyed by table name that exist in this store."""
    ids = sorted(set(allowed_sources))
    inlist = "(" + ", ".join(_lit(i) for i in ids) + ")" if ids else "(NULL)"
    tnames = sorted(set(allowed_tables))
    tlist = "(" + ", ".join(_lit(t) for t in tnames) + ")" if tnames else "(NULL)"
    m = f"{_ident(db)}.main"
    out = [
        f"CREATE OR REPLACE TEMP VIEW {t} AS SELECT * FROM {m}.{t} WHERE source_id IN {inlist}"
        for t in FILTERED_BY_SOURCE
    ] + [
        f"CREATE OR REPLACE TEMP VIEW {t} AS SELECT * FROM {m}.{t} WHERE table_name IN {tlist}"
        for t in by_table
    ]
    if hidden_links:
        out.append(f"""CREATE OR REPLACE TEMP VIEW claims AS
WITH hid AS (
  SELECT id, count(*) FILTER (WHERE kind = 'supports') AS s,
         count(*) FILTER (WHERE kind = 'contradicts') AS c
  FROM (SELECT src AS id, dst AS other, kind FROM {m}.claim_links
          WHERE kind IN ('supports', 'contradicts')
        UNION ALL
        SELECT dst, src, kind FROM {m}.claim_links WHERE kind IN ('supports', 'contradicts')) x
  WHERE other NOT IN (SELECT claim_id FROM {m}.claims WHERE source_id IN {inlist})
  GROUP BY id)
SELECT c.* REPLACE (greatest(0, c.support - coalesce(h.s, 0))::INTEGER AS support,
                    greatest(0, c.contradict - coalesce(h.c, 0))::INTEGER AS contradict)
FROM {m}.claims c LEFT JOIN hid h ON h.id = c.claim_id
WHERE c.source_id IN {inlist}""")
    else:
        out.append(f"CREATE OR REPLACE TEMP VIEW claims AS SELECT * FROM {m}.claims "
                   f"WHERE source_id IN {inlist}")
    out.append(f"""CREATE OR REPLACE TEMP VIEW claim_links AS
SELECT l.* FROM {m}.claim_links l
WHERE l.src IN (SELECT claim_id FROM {m}.claims WHERE source_id IN {inlist})
  AND l.dst IN (SELECT claim_id FROM {m}.claims WHERE source_id IN {inlist})""")
    out.append("""CREATE OR REPLACE TEMP VIEW attributes AS
SELECT item_id, attribute, value_text, value_num, unit, scale, value_base, time_key, order_key,
       claim_id, superseded FROM claims WHERE kind = 'cell'""")
    return out


def crossing_links(con, allowed_sources: Iterable[str]) -> bool:  # noqa: ANN001
    """Does any supports/contradicts link join a visible claim to a hidden one?"""
    ids = sorted(set(allowed_sources))
    inlist = "(" + ", ".join(_lit(i) for i in ids) + ")" if ids else "(NULL)"
    row = con.execute(f"""
        SELECT count(*) FROM claim_links l
        JOIN claims a ON a.claim_id = l.src JOIN claims b ON b.claim_id = l.dst
        WHERE l.kind IN ('supports', 'contradicts')
          AND (a.source_id IN {inlist}) <> (b.source_id IN {inlist})""").fetchone()
    return bool(row and row[0])


class GovernedConnection:
    """Looks like a DuckDB connection to the code that reads the store (`.cursor()`,
    `.execute()`), but every cursor it hands out sees only the subject's views."""

    def __init__(self, con, ddl: list[str]) -> None:  # noqa: ANN001
        self._con = con
        self._ddl = ddl

    def cursor(self):  # noqa: ANN201
        cur = self._con.cursor()
        for stmt in self._ddl:
            cur.execute(stmt)
        return cur

    def execute(self, *args, **kw):  # noqa: ANN002, ANN003, ANN201
        return self.cursor().execute(*args, **kw)

    def sql(self, *args, **kw):  # noqa: ANN002, ANN003, ANN201
        return self.cursor().sql(*args, **kw)


class GovernedStore:
    """The read side of a `Store` for one grant: same folder (plus a digest of the allowed
    sources, so per-folder caches never mix two subjects), governed connection."""

    def __init__(self, store, allowed_sources: frozenset[str],  # noqa: ANN001
                 allowed_tables: frozenset[str] = frozenset()) -> None:
        self._store = store
        self.read_only = store.read_only
        cur = store.con.cursor()
        db = cur.execute("SELECT current_database()").fetchone()[0]
        hidden = crossing_links(cur, allowed_sources)
        present = {r[0] for r in cur.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
        ).fetchall()}
        by_table = [t for t in FILTERED_BY_TABLE if t in present]
        self.con = GovernedConnection(store.con, view_ddl(
            db, allowed_sources, hidden_links=hidden, allowed_tables=allowed_tables,
            by_table=by_table))
        digest = hashlib.sha256("|".join(sorted(allowed_sources)).encode()).hexdigest()[:12]
        self.folder = f"{store.folder}#subject-view-{digest}"

    def meta(self, key: str) -> str | None:
        return self._store.meta(key)
