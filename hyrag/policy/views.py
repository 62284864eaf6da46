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

Cost: creating the views takes ~2 ms per statement and they belong to one cursor, and the link
correction scans `claim_links`. So a subject's view is built once per (allowed sources, allowed
tables, store version) and shared by every request with that signature (`governed_store`); its
cursors, views and two small per-cursor temp tables (the visible claim ids, the hidden-link
counts) already made, are pooled and leased (`GovernedCursor`) rather than rebuilt per read.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable

FILTERED_BY_SOURCE = ("sources", "kb_tables", "table_rows", "table_columns", "table_cells",
                      "schemas", "schema_adjustments", "items", "relations")
FILTERED_BY_TABLE = ("schema_evolution",)  # engine tables keyed by typed-table name
# Engine tables a governed subject may read (each through a view below, `meta` as is). An
# engine table added later is not readable by a restricted subject until it gets a view here.
GOVERNED_ENGINE_TABLES = ("meta", *FILTERED_BY_SOURCE, "claims", "claim_links", "attributes",
                          *FILTERED_BY_TABLE)


# per-cursor temp tables behind the views (the guard never accepts these names in user SQL)
VISIBLE, HIDDEN = "_hyrag_visible_claims", "_hyrag_hidden_links"


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
    # Built once per pooled cursor (not per read): the visible claim ids and, per visible claim,
    # its supports / contradicts links to claims the subject cannot see. Snapshots are safe:
    # claims, links and counters only change inside an ingest, which changes the store version
    # and so the cached views (`governed_store`).
    out.append(f"CREATE OR REPLACE TEMP TABLE {VISIBLE} AS SELECT claim_id FROM {m}.claims "
               f"WHERE source_id IN {inlist}")
    if hidden_links:
        out.append(f"""CREATE OR REPLACE TEMP TABLE {HIDDEN} AS
SELECT id, count(*) FILTER (WHERE kind = 'supports') AS s,
       count(*) FILTER (WHERE kind = 'contradicts') AS c
FROM (SELECT src AS id, dst AS other, kind FROM {m}.claim_links
        WHERE kind IN ('supports', 'contradicts')
      UNION ALL
      SELECT dst, src, kind FROM {m}.claim_links WHERE kind IN ('supports', 'contradicts')) x
WHERE id IN (SELECT claim_id FROM {VISIBLE}) AND other NOT IN (SELECT claim_id FROM {VISIBLE})
GROUP BY id""")
        out.append(f"""CREATE OR REPLACE TEMP VIEW claims AS
SELECT c.* REPLACE (greatest(0, c.support - coalesce(h.s, 0))::INTEGER AS support,
                    greatest(0, c.contradict - coalesce(h.c, 0))::INTEGER AS contradict)
FROM {m}.claims c LEFT JOIN {HIDDEN} h ON h.id = c.claim_id
WHERE c.source_id IN {inlist}""")
    else:
        out.append(f"CREATE OR REPLACE TEMP VIEW claims AS SELECT * FROM {m}.claims "
                   f"WHERE source_id IN {inlist}")
    out.append(f"""CREATE OR REPLACE TEMP VIEW claim_links AS
SELECT l.* FROM {m}.claim_links l
WHERE l.src IN (SELECT claim_id FROM {VISIBLE}) AND l.dst IN (SELECT claim_id FROM {VISIBLE})""")
    out.append("""CREATE OR REPLACE TEMP VIEW attributes AS
SELECT item_id, attribute, value_text, value_num, unit, scale, value_base, time_key, order_key,
       claim_id, superseded FROM claims WHERE kind = 'cell'""")
    return out


def crossing_links(con, allowed_sources: Iterable[str]) -> bool:
    """Does any supports/contradicts link join a visible claim to a hidden one?"""
    ids = sorted(set(allowed_sources))
    inlist = "(" + ", ".join(_lit(i) for i in ids) + ")" if ids else "(NULL)"
    row = con.execute(f"""
        SELECT count(*) FROM claim_links l
        JOIN claims a ON a.claim_id = l.src JOIN claims b ON b.claim_id = l.dst
        WHERE l.kind IN ('supports', 'contradicts')
          AND (a.source_id IN {inlist}) <> (b.source_id IN {inlist})""").fetchone()
    return bool(row and row[0])


# Methods of a DuckDB cursor whose results no longer need the cursor (materialised rows, frames,
# arrays) or that only read its state. Any other attribute (`sql`, `arrow`, `fetch_record_batch`,
# ...) may hand out an object that reads from the cursor later, so the cursor is not reused.
_MATERIALISING = frozenset({
    "fetchall", "fetchone", "fetchmany", "fetchdf", "fetch_df", "df", "fetchnumpy",
    "fetch_arrow_table", "description", "rowcount",
})
POOL_SIZE = 4


class GovernedCursor:
    """One lease of a pooled cursor that already has the subject's views. `execute` returns
    the lease itself, so whoever holds a pending result holds the lease; when the last reference
    goes (or `close()` is called) the cursor goes back to its pool. A cursor that may have
    handed out a lazy object, or was interrupted, is never reused."""

    __slots__ = ("_lock", "_owner", "_raw", "_reusable")

    def __init__(self, owner: GovernedConnection, raw) -> None:
        self._owner, self._raw = owner, raw
        self._reusable = True
        self._lock = threading.Lock()

    def _cur(self):
        raw = self._raw
        if raw is None:
            raise RuntimeError("this cursor was closed")
        return raw

    def execute(self, *args, **kw) -> GovernedCursor:
        self._cur().execute(*args, **kw)
        return self

    def executemany(self, *args, **kw) -> GovernedCursor:
        self._cur().executemany(*args, **kw)
        return self

    def cursor(self) -> GovernedCursor:
        return self._owner.cursor()

    def interrupt(self) -> None:
        with self._lock:
            self._reusable = False
            if self._raw is not None:
                self._raw.interrupt()

    def close(self) -> None:
        self._end(close=True)

    def _end(self, *, close: bool) -> None:
        """Back to the pool when reusable; else closed on `close()`, or, when the lease is only
        dropped, left to the objects that may still read from it (a lazy relation)."""
        with self._lock:
            raw, self._raw = self._raw, None
            if raw is not None and (self._reusable or close):
                self._owner._release(raw, self._reusable)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self._cur(), name)
        if name not in _MATERIALISING:
            self._reusable = False
        return attr

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._end(close=False)


class GovernedConnection:
    """Looks like a DuckDB connection to the code that reads the store (`.cursor()`,
    `.execute()`), but every cursor it hands out sees only the subject's views.

    TEMP views belong to one DuckDB connection (a cursor), and creating them costs ~2 ms each;
    so cursors that have them are pooled and leased (`GovernedCursor`) instead of built per
    read. A pool belongs to one (subject's allowed sources, store version): see
    `governed_store`."""

    def __init__(self, con, ddl: list[str]) -> None:
        self._con = con
        self._ddl = ddl
        self._idle: list = []
        self._lock = threading.Lock()
        self.created = 0  # cursors that ran the view DDL (for tests and the benchmark)

    def _fresh(self):
        cur = self._con.cursor()
        for stmt in self._ddl:
            cur.execute(stmt)
        self.created += 1
        return cur

    def _release(self, raw, reusable: bool) -> None:
        if reusable:
            with self._lock:
                if len(self._idle) < POOL_SIZE:
                    self._idle.append(raw)
                    return
        with contextlib.suppress(Exception):
            raw.close()

    def cursor(self) -> GovernedCursor:
        with self._lock:
            raw = self._idle.pop() if self._idle else None
        return GovernedCursor(self, raw if raw is not None else self._fresh())

    def execute(self, *args, **kw) -> GovernedCursor:
        return self.cursor().execute(*args, **kw)

    def sql(self, *args, **kw):
        return self.cursor().sql(*args, **kw)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for raw in idle:
            with contextlib.suppress(Exception):
                raw.close()


def store_version(con) -> tuple:
    """Changes whenever what a view shows can change: a source added or superseded, a typed
    table replaced, a link written (links and counters change only inside an ingest)."""
    return tuple(con.execute(
        "SELECT count(*), max(ingested_at)::VARCHAR, count(*) FILTER (WHERE status = 'current'),"
        " (SELECT count(*) FROM kb_tables), (SELECT count(*) FROM claim_links) FROM sources"
    ).fetchone())


class GovernedStore:
    """The read side of a `Store` for one grant: same folder (plus a digest of the allowed
    sources, so per-folder caches never mix two subjects), governed connection."""

    def __init__(self, store, allowed_sources: frozenset[str],
                 allowed_tables: frozenset[str] = frozenset(), *,
                 version: tuple | None = None) -> None:
        self._store = store
        cur = store.con.cursor()
        self.version = version if version is not None else store_version(cur)
        db = cur.execute("SELECT current_database()").fetchone()[0]
        hidden = crossing_links(cur, allowed_sources)
        present = {r[0] for r in cur.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "AND table_catalog = current_database()"
        ).fetchall()}
        by_table = [t for t in FILTERED_BY_TABLE if t in present]
        self.con = GovernedConnection(store.con, view_ddl(
            db, allowed_sources, hidden_links=hidden, allowed_tables=allowed_tables,
            by_table=by_table))
        digest = hashlib.sha256("|".join(sorted(allowed_sources)).encode()).hexdigest()[:12]
        self.folder = f"{store.folder}#subject-view-{digest}"

    @property
    def read_only(self) -> bool:
        return bool(getattr(self._store, "read_only", False))

    def meta(self, key: str) -> str | None:
        return self._store.meta(key)


CACHE_SIZE = 8


def governed_store(store, allowed_sources: frozenset[str],
                   allowed_tables: frozenset[str] = frozenset()) -> GovernedStore:
    """The subject's view of `store`, built once per (allowed sources, allowed tables, store
    version) and shared by every request with that signature: the views, the crossing-links
    check and the pooled cursors are not rebuilt per read. One cheap query per call reads the
    store version, so an ingest (in this process or any other) is never served stale views."""
    cache: OrderedDict = store.__dict__.setdefault("_governed_views", OrderedDict())
    version = store_version(store.con.cursor())
    key = (frozenset(allowed_sources), frozenset(allowed_tables), version)
    with _CACHE_LOCK:
        gs = cache.get(key)
        if gs is not None:
            cache.move_to_end(key)
            return gs
    gs = GovernedStore(store, frozenset(allowed_sources), frozenset(allowed_tables),
                       version=version)
    with _CACHE_LOCK:
        for k in [k for k in cache if k[2] != version]:  # stale: an older store version
            cache.pop(k).con.close()
        cache[key] = gs
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)[1].con.close()
    return gs


_CACHE_LOCK = threading.Lock()
