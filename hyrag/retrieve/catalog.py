"""The current claims as column arrays: what every strategy filters and ranks over.

Strategies need, per claim, its source (entitlement pre-filter), its period (temporal hard
filter), its row (row -> cells), confidence (strategy scoring) and text (BM25). Reading these
once per knowledge-base generation into NumPy columns makes each pre-filter one boolean mask
instead of a SQL round trip per query. Superseded claims are never loaded (DESIGN.md: without
`as_of`, superseded claims are never eligible).

A claim's effective order key is its own, or else its row's latest: "region was North" has no
period, but the order it describes happened on the row's order date, so "in 2024" keeps it.

Text columns are `hyrag.retrieve.columns.TextColumn`s (codes into a pool of distinct strings),
the id lookup and the row -> cells map are sorted keys searched by bisection: nothing here makes
a Python object per claim, so the catalog is saved as arrays in the knowledge-base folder and a
fresh process opens them memory-mapped (`hyrag.retrieve.horizon`, issue 20).
"""

from __future__ import annotations

import math

import numpy as np

from hyrag.retrieve.columns import Groups, Pool, SortedKeys, TextColumn

CONF_SUPPORT, CONF_CONTRADICT = 0.15, 0.25  # seed 003 eq. 10 coefficients
TEXT_COLUMNS = ("ids", "source_ids", "item_ids", "kinds", "tables", "entities", "attributes",
                "values", "texts", "files", "locators", "time_keys", "roles")
NUMBER_COLUMNS = ("order_keys", "period_lo", "positions", "conf")


class ClaimCatalog:
    """Columns (one row per current claim, in claim-id order):
    ids, source_ids, item_ids, kinds, tables, entities, attributes, values, texts, files,
    locators, time_keys, roles (`TextColumn`s; roles: the column's role or None);
    order_keys (float64, NaN when untimed; effective: own or the row's), period_lo (float64
    YYYYMMDD of period_start, NaN when untimed), positions (int: column position within the
    row, for row -> cells order), conf (float64: eq. 10 confidence).
    `index`: claim id -> row; `by_item`: item id -> its cells' rows in column order."""

    def __init__(self, columns: dict[str, TextColumn | np.ndarray], *, index: SortedKeys,
                 by_item: Groups, generation: tuple = ()) -> None:
        self.ids: TextColumn = columns["ids"]  # type: ignore[assignment]
        self.source_ids: TextColumn = columns["source_ids"]  # type: ignore[assignment]
        self.item_ids: TextColumn = columns["item_ids"]  # type: ignore[assignment]
        self.kinds: TextColumn = columns["kinds"]  # type: ignore[assignment]
        self.tables: TextColumn = columns["tables"]  # type: ignore[assignment]
        self.entities: TextColumn = columns["entities"]  # type: ignore[assignment]
        self.attributes: TextColumn = columns["attributes"]  # type: ignore[assignment]
        self.values: TextColumn = columns["values"]  # type: ignore[assignment]
        self.texts: TextColumn = columns["texts"]  # type: ignore[assignment]
        self.files: TextColumn = columns["files"]  # type: ignore[assignment]
        self.locators: TextColumn = columns["locators"]  # type: ignore[assignment]
        self.time_keys: TextColumn = columns["time_keys"]  # type: ignore[assignment]
        self.roles: TextColumn = columns["roles"]  # type: ignore[assignment]
        self.order_keys: np.ndarray = columns["order_keys"]  # type: ignore[assignment]
        self.period_lo: np.ndarray = columns["period_lo"]  # type: ignore[assignment]
        self.positions: np.ndarray = columns["positions"]  # type: ignore[assignment]
        self.conf: np.ndarray = columns["conf"]  # type: ignore[assignment]
        self.index, self.by_item, self.generation = index, by_item, generation
        self._masks: dict = {}

    @classmethod
    def build(cls, columns: dict[str, TextColumn | np.ndarray], generation: tuple = ()
              ) -> ClaimCatalog:
        """The catalog of these columns, with its id lookup and row -> cells map computed."""
        ids: TextColumn = columns["ids"]  # type: ignore[assignment]
        items: TextColumn = columns["item_ids"]  # type: ignore[assignment]
        positions = np.asarray(columns["positions"])
        return cls(columns, index=_id_index(ids), by_item=_by_item(items, positions),
                   generation=generation)

    @classmethod
    def of(cls, rows: dict[str, list], generation: tuple = ()) -> ClaimCatalog:
        """From Python lists per column (tests, small catalogs)."""
        cols: dict[str, TextColumn | np.ndarray] = {n: TextColumn.of(rows[n])
                                                   for n in TEXT_COLUMNS}
        for n in NUMBER_COLUMNS:
            cols[n] = np.asarray(rows[n], dtype=np.int64 if n == "positions" else np.float64)
        return cls.build(cols, generation)

    def __len__(self) -> int:
        return len(self.ids)

    # -- saved between processes (hyrag.kbcache) ---------------------------------------------
    def to_arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for n in TEXT_COLUMNS:
            out.update(getattr(self, n).to_arrays(n))
        for n in NUMBER_COLUMNS:
            out[n] = getattr(self, n)
        if self.index.pool is self.ids.pool and self.index.values is None:
            out["index.prefix"] = self.index.prefix  # the ids' own pool: not saved twice
        else:
            out.update(self.index.to_arrays("index"))
        out.update(self.by_item.to_arrays("by_item"))
        return out

    @classmethod
    def from_arrays(cls, a: dict[str, np.ndarray], generation: tuple = ()) -> ClaimCatalog:
        """The catalog `to_arrays` wrote (arrays usually memory-mapped); ValueError or KeyError
        when they do not fit together (a damaged or foreign folder: rebuilt)."""
        n = len(a["conf"])
        cols: dict[str, TextColumn | np.ndarray] = {
            name: TextColumn.from_arrays(name, a, n) for name in TEXT_COLUMNS}
        for name in NUMBER_COLUMNS:
            arr = a[name]
            if arr.dtype.kind not in "if" or len(arr) != n:
                raise ValueError(f"cached catalog column {name} does not match {n} rows")
            cols[name] = arr
        ids = cols["ids"]
        assert isinstance(ids, TextColumn)
        pre = a.get("index.prefix")
        index = (SortedKeys.from_arrays("index", a) if "index.data" in a
                 else SortedKeys(ids.pool, None, pre) if ids.identity else None)
        if index is None or len(index) != n or (pre is not None and (
                pre.dtype != np.uint64 or len(pre) != n)):
            raise ValueError("cached catalog id index does not match its rows")
        return cls(cols, index=index, by_item=Groups.from_arrays("by_item", a),
                   generation=generation)

    # -- pre-filters -------------------------------------------------------------------------
    def mask(
        self,
        allowed_sources: set[str] | frozenset[str] | None,
        interval: tuple[float, float] | None,
    ) -> np.ndarray:
        """The pre-filter every strategy applies before it ranks (read-only: cached, since
        each strategy of a search asks for the same one; a new catalog starts a new cache)."""
        key = (None if allowed_sources is None else frozenset(allowed_sources), interval)
        cache = self._masks
        if key not in cache:
            if len(cache) >= 8:
                cache.pop(next(iter(cache)))
            m = self._mask(allowed_sources, interval)
            m.flags.writeable = False
            cache[key] = m
        return cache[key]

    def _mask(
        self,
        allowed_sources: set[str] | frozenset[str] | None,
        interval: tuple[float, float] | None,
    ) -> np.ndarray:
        m = np.ones(len(self.ids), dtype=bool)
        if allowed_sources is not None:
            # a lookup table over the sources' codes: an isin over a million strings cost
            # ~30 ms a query, the gather ~1 ms
            m &= self.source_ids.isin(allowed_sources)
        if interval is not None:
            lo, hi = interval
            with np.errstate(invalid="ignore"):
                m &= (self.order_keys >= lo) & (self.order_keys <= hi)
        return m


def _id_index(ids: TextColumn) -> SortedKeys:
    """Claim id -> row. The store returns claims in id order, so the ids' own pool usually is
    the sorted key set (row = rank, nothing more saved); otherwise a sorted copy with rows."""
    pool = ids.pool
    if ids.identity or np.array_equal(ids.codes, np.arange(len(ids))):
        lens = pool.lengths()
        if len(pool) < 2:
            return SortedKeys(pool)
        if (lens == lens[0]).all() and lens[0] > 0:  # fixed width: compare as bytes, in C
            fixed = pool.data.view(f"S{int(lens[0])}")
            if (fixed[1:] >= fixed[:-1]).all():
                return SortedKeys(pool)
        else:
            raw = [pool[j] for j in range(len(pool))]
            if all(a <= b for a, b in zip(raw, raw[1:], strict=False)):
                return SortedKeys(pool)
    return SortedKeys.build(ids.tolist())  # type: ignore[arg-type]


def _by_item(items: TextColumn, positions: np.ndarray) -> Groups:
    """Item id -> its cells' rows, ordered by column position (ties: claim order)."""
    names = items.pool.decoded()
    usable = np.asarray([bool(s) for s in names] + [False], dtype=bool)  # "" is no item
    key = np.where(usable[items.codes], items.codes, -1)
    return Groups.build(key, names, np.argsort(positions, kind="stable"))


_SQL = """
WITH cur AS (
    SELECT c.* FROM claims c JOIN sources s USING (source_id)
    WHERE NOT c.superseded AND s.status = 'current' AND c.kind <> 'sentence'
), rowkey AS (
    SELECT item_id, max(order_key) AS row_ok FROM cur WHERE item_id IS NOT NULL GROUP BY 1
)
SELECT cur.claim_id, cur.source_id, cur.item_id, cur.kind, cur.table_name, cur.entity,
       cur.attribute, cur.value_text, cur.text, cur.file, cur.locator, cur.time_key,
       coalesce(cur.order_key, rowkey.row_ok) AS ok,
       CASE WHEN cur.period_start IS NULL THEN NULL
            ELSE year(cur.period_start) * 10000 + month(cur.period_start) * 100
                 + day(cur.period_start) END AS plo,
       coalesce(sc.position, 0) AS pos, sc.role AS role,
       least(1.0, greatest(0.0, cur.conf_base + {sup} * ln(1 + cur.support)
                                 - {con} * cur.contradict)) AS conf
FROM cur
LEFT JOIN rowkey USING (item_id)
LEFT JOIN schemas sc ON sc.source_id = cur.source_id AND sc.table_name = cur.table_name
                    AND sc.column_name = cur.column_name
ORDER BY cur.claim_id
"""
_SQL_NAMES = {"ids": "claim_id", "source_ids": "source_id", "item_ids": "item_id",
              "kinds": "kind", "tables": "table_name", "entities": "entity",
              "attributes": "attribute", "values": "value_text", "texts": "text", "files": "file",
              "locators": "locator", "time_keys": "time_key", "roles": "role"}


def generation(con) -> tuple:  # duckdb connection or cursor
    """Changes whenever a source is added or superseded or a link (and so a counter) is
    written."""
    row = con.execute(
        "SELECT count(*), max(ingested_at)::VARCHAR, count(*) FILTER (WHERE status='current') "
        "FROM sources"
    ).fetchall()[0]
    # Counters move only when links are written (ingestion); counting the links is a metadata
    # read, where summing every claim's counters cost ~6 ms per search at 1.1 M claims.
    links = con.execute("SELECT count(*) FROM claim_links").fetchall()[0]
    return (*row, links[0])


def load_catalog(con) -> ClaimCatalog:
    """Read the current claims from the store (the build; `from_arrays` is the saved path)."""
    gen = generation(con)
    tbl = con.sql(_SQL.format(sup=CONF_SUPPORT, con=CONF_CONTRADICT)).to_arrow_table()

    def num(name: str) -> np.ndarray:
        col = tbl.column(name).cast("float64").fill_null(math.nan)
        return np.asarray(col.to_numpy(), dtype=np.float64)

    cols: dict[str, TextColumn | np.ndarray] = {
        n: TextColumn.from_arrow(tbl.column(sql)) for n, sql in _SQL_NAMES.items()}
    ids = cols["ids"]
    assert isinstance(ids, TextColumn)
    if np.array_equal(ids.codes, np.arange(len(ids))):  # unique ids: the pool is the column
        cols["ids"] = TextColumn(None, ids.pool, len(ids))
    cols["order_keys"], cols["period_lo"], cols["conf"] = num("ok"), num("plo"), num("conf")
    cols["positions"] = np.nan_to_num(num("pos")).astype(np.int64)
    return ClaimCatalog.build(cols, gen)


__all__ = ["ClaimCatalog", "Pool", "generation", "load_catalog"]
