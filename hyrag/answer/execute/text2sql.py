"""Text-to-SQL without a model: a parsed question compiles to SQL through sqlglot's builder.

The statement runs through the guarded SQL route (`kb.sql`). Before it runs, a grounding pass
(seed 003, section 4.3) checks every string literal compared with a column against the column's
real values: an exact match passes, a near match is rewritten to the value (and the rewrite is
reported), anything else is rejected with the closest candidates named.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp

from hyrag.answer.parse.catalog import Catalog, TableInfo, norm
from hyrag.errors import HyragError

_AGG = {"total": "SUM", "average": "AVG", "median": "MEDIAN", "max": "MAX", "min": "MIN",
        "count": "COUNT", "stdev": "STDDEV_SAMP"}


class UnknownValue(HyragError):
    """A string literal that matches no value of its column; the candidates are named."""


@dataclass(frozen=True)
class CompiledSQL:
    sql: str
    table: str
    measure: str | None  # column aggregated (None for a row count)
    agg: str
    filters: tuple[tuple[str, str], ...]  # (column, value)
    period: str | None
    group_by: str | None = None
    rewrites: tuple[tuple[str, str], ...] = field(default=())  # (asked, rewritten to)

    def where_sql(self) -> str:
        """The WHERE clause alone (for finding the cells the query read)."""
        tree = sqlglot.parse_one(self.sql, read="duckdb")
        w = tree.args.get("where")
        return w.this.sql(dialect="duckdb") if w else "TRUE"


def _q(name: str) -> exp.Column:
    return exp.column(name, quoted=True)


def period_condition(ti: TableInfo, lo: float, hi: float) -> exp.Expression | None:
    """Rows whose period lies inside [lo, hi] (order keys): a date range or a key list."""
    if not ti.time_col:
        return None
    if ti.time_dtype.upper().startswith(("DATE", "TIMESTAMP")):
        start = f"{int(lo) // 10000:04d}-{int(lo) // 100 % 100:02d}-{int(lo) % 100:02d}"
        end = f"{int(hi) // 10000:04d}-{int(hi) // 100 % 100:02d}-{int(hi) % 100:02d}"
        return exp.Between(this=_q(ti.time_col), low=exp.cast(exp.Literal.string(start), "DATE"),
                           high=exp.cast(exp.Literal.string(end), "DATE"))
    keys = sorted(v for v, k in ti.time_keys.items()
                  if k.start is not None and lo <= float(k.order_key or 0) <= hi
                  and _ymd(k.start) >= lo)
    if not keys:
        return exp.false()
    return exp.In(this=_q(ti.time_col), expressions=[exp.Literal.string(k) for k in keys])


def _ymd(d) -> float:
    return float(d.year * 10000 + d.month * 100 + d.day)


def compile_query(cat: Catalog, table: str, *, agg: str, measure: str | None,
                  filters: list[tuple[str, str]], period: tuple[float, float] | None,
                  period_key: str | None = None, group_by: str | None = None,
                  order: str | None = None, limit: int | None = None) -> CompiledSQL:
    ti = cat.tables[table]
    fn = _AGG[agg]
    if measure is None or agg == "count":
        value = exp.Count(this=exp.Star())
    else:
        value = exp.func(fn, _q(measure))
    value = exp.alias_(value, "value")
    cols: list[exp.Expression] = []
    if group_by:
        cols.append(_q(group_by))
    q = sqlglot.select(*cols, value).from_(exp.to_identifier(table, quoted=True))
    conds: list[exp.Expression] = []
    for col, val in filters:
        conds.append(exp.EQ(this=_q(col), expression=exp.Literal.string(val)))
    if period is not None:
        pc = period_condition(ti, *period)
        if pc is None:  # dropping the period would answer for every period at once
            raise HyragError(f"{table} has no period column to select {period_key or 'the period'}"
                             " the question names")
        conds.append(pc)
    if measure is not None and agg != "count":
        conds.append(exp.Not(this=exp.Is(this=_q(measure), expression=exp.Null())))
    if conds:
        q = q.where(exp.and_(*conds))
    if group_by:
        q = q.group_by(_q(group_by)).order_by(
            exp.Ordered(this=exp.column("value"), desc=(order != "asc")), _q(group_by))
        if limit:
            q = q.limit(limit)
    sql = q.sql(dialect="duckdb")
    sql, rewrites = ground_literals(sql, cat, table)
    return CompiledSQL(sql, table, measure, agg, tuple(filters), period_key, group_by,
                       tuple(rewrites))


def ground_literals(sql: str, cat: Catalog, table: str) -> tuple[str, list[tuple[str, str]]]:
    """Check every `column = 'literal'` / `column IN (...)` against the column's real values."""
    ti = cat.tables[table]
    tree = sqlglot.parse_one(sql, read="duckdb")
    rewrites: list[tuple[str, str]] = []
    real_by_col: dict[str, list[str]] = {}
    for vals in cat.values.values():
        for v, t, c in vals:
            if t == table:
                real_by_col.setdefault(c, []).append(v)
    for node in list(tree.find_all(exp.EQ, exp.In)):
        col = node.this if isinstance(node.this, exp.Column) else None
        if col is None or col.name not in ti.categorical:
            continue
        lits = [node.expression] if isinstance(node, exp.EQ) else list(node.expressions)
        real = real_by_col.get(col.name, [])
        for lit in lits:
            if not isinstance(lit, exp.Literal) or not lit.is_string:
                continue
            asked = lit.this
            if asked in real:
                continue
            by_norm = {norm(v): v for v in real}
            hit = by_norm.get(norm(asked)) or next(iter(difflib.get_close_matches(
                asked, real, n=1, cutoff=0.75)), None)
            if hit is None:
                close = difflib.get_close_matches(asked, real, n=3, cutoff=0.0)
                raise UnknownValue(f"{table}.{col.name} has no value {asked!r}; "
                                   f"closest: {', '.join(close) or '(none)'}")
            lit.replace(exp.Literal.string(hit))
            rewrites.append((asked, hit))
    return tree.sql(dialect="duckdb"), rewrites
