"""The current claims as column arrays: what every strategy filters and ranks over.

Strategies need, per claim, its source (entitlement pre-filter), its period (temporal hard
filter), its row (row -> cells), confidence (strategy scoring) and text (BM25). Reading these
once per knowledge-base generation into NumPy columns makes each pre-filter one boolean mask
instead of a SQL round trip per query. Superseded claims are never loaded (DESIGN.md: without
`as_of`, superseded claims are never eligible).

A claim's effective order key is its own, or else its row's latest: "region was North" has no
period, but the order it describes happened on the row's order date, so "in 2024" keeps it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CONF_SUPPORT, CONF_CONTRADICT = 0.15, 0.25  # seed 003 eq. 10 coefficients


@dataclass
class ClaimCatalog:
    ids: np.ndarray  # object (str)
    source_ids: np.ndarray
    item_ids: np.ndarray
    kinds: np.ndarray
    tables: np.ndarray
    entities: np.ndarray
    attributes: np.ndarray
    values: np.ndarray
    texts: np.ndarray
    files: np.ndarray
    locators: np.ndarray
    time_keys: np.ndarray
    order_keys: np.ndarray  # float64, NaN when untimed (effective: own or the row's)
    period_lo: np.ndarray  # float64 YYYYMMDD of period_start, NaN when untimed
    positions: np.ndarray  # int: column position within the row (for row -> cells order)
    roles: np.ndarray  # object: the column's role (id, categorical, numeric, time, text) or None
    conf: np.ndarray  # float64: eq. 10 confidence
    generation: tuple = ()

    def __post_init__(self) -> None:
        self.index = {cid: i for i, cid in enumerate(self.ids.tolist())}
        self.by_item: dict[str, list[int]] = {}
        for i, item in enumerate(self.item_ids.tolist()):
            if item:
                self.by_item.setdefault(item, []).append(i)
        for cells in self.by_item.values():
            cells.sort(key=lambda j: int(self.positions[j]))

    def __len__(self) -> int:
        return len(self.ids)

    def _source_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """(distinct source ids, each claim's index into them), computed once per catalog."""
        if getattr(self, "_codes", None) is None:
            uniq, codes = np.unique(self.source_ids.astype(str), return_inverse=True)
            self._codes = (uniq, codes.astype(np.int32))
        return self._codes

    def mask(
        self,
        allowed_sources: set[str] | frozenset[str] | None,
        interval: tuple[float, float] | None,
    ) -> np.ndarray:
        """The pre-filter every strategy applies before it ranks (read-only: cached, since
        each strategy of a search asks for the same one; a new catalog starts a new cache)."""
        key = (None if allowed_sources is None else frozenset(allowed_sources), interval)
        cache = self.__dict__.setdefault("_masks", {})
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
            # a lookup table over small integer codes: an isin over a million strings cost
            # ~30 ms a query, over the codes ~6 ms, the gather ~1 ms
            uniq, codes = self._source_codes()
            m &= np.isin(uniq, list(allowed_sources))[codes]
        if interval is not None:
            lo, hi = interval
            with np.errstate(invalid="ignore"):
                m &= (self.order_keys >= lo) & (self.order_keys <= hi)
        return m


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


def generation(con) -> tuple:  # noqa: ANN001 - duckdb connection or cursor
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


def load_catalog(con) -> ClaimCatalog:  # noqa: ANN001
    gen = generation(con)
    tbl = con.sql(_SQL.format(sup=CONF_SUPPORT, con=CONF_CONTRADICT)).to_arrow_table()

    def obj(name: str) -> np.ndarray:
        return np.asarray(tbl.column(name).to_pylist(), dtype=object)

    def num(name: str) -> np.ndarray:
        col = tbl.column(name).cast("float64").fill_null(math.nan)
        return np.asarray(col.to_numpy(), dtype=np.float64)

    return ClaimCatalog(
        ids=obj("claim_id"),
        source_ids=obj("source_id"),
        item_ids=obj("item_id"),
        kinds=obj("kind"),
        tables=obj("table_name"),
        entities=obj("entity"),
        attributes=obj("attribute"),
        values=obj("value_text"),
        texts=obj("text"),
        files=obj("file"),
        locators=obj("locator"),
        time_keys=obj("time_key"),
        order_keys=num("ok"),
        period_lo=num("plo"),
        positions=np.nan_to_num(num("pos")).astype(np.int64),
        roles=obj("role"),
        conf=num("conf"),
        generation=gen,
    )
