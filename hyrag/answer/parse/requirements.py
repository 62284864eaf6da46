"""Answer requirements (seed 001): what a question needs before it can be answered.

One requirement per (entity, attribute, period) the question asks about; a comparison of two
institutions gives two, a growth from 2022 to 2024 gives one per endpoint, a trend one per year.
Each requirement carries the scope (tables) and, when the SQL route computes it, the filters
and the aggregate.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from hyrag.answer.parse.parser import ParsedQuestion, Period, expand_years
from hyrag.answer.parse.router import Route


@dataclass(frozen=True)
class Requirement:
    rid: str
    entity: str | None
    attribute: str
    period: str | None = None
    interval: tuple[float, float] | None = None
    scope: tuple[str, ...] = ()
    agg: str | None = None
    filters: tuple[tuple[str, str], ...] = ()  # (column, value) for the SQL route
    forms: tuple[str, ...] = ()  # spellings of the attribute in claims and columns
    entity_forms: tuple[str, ...] = ()
    sql_table: str | None = None  # the typed table the SQL route would compute it from
    load_bearing: bool = True

    @property
    def pair(self) -> tuple[str, str]:
        """The entity-attribute pair the Knowledge Gap Recognition Rule is keyed on."""
        return ((self.entity or "").lower(), self.attribute.lower())

    def label(self) -> str:
        parts = [p for p in (self.entity, self.attribute, self.period) if p]
        return ", ".join(parts)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def sql_table(parsed: ParsedQuestion, cat) -> str | None:
    if parsed.count_table:
        return parsed.count_table
    m = parsed.measure
    if not m or not m.tables:
        return None
    inscope = [t for t in m.tables if t in parsed.scope]
    if inscope:
        return inscope[0]
    # a table holding every categorical value the question names, else the largest
    valued = [t for t in m.tables
              if all(any(tt == t for tt, _ in e.columns) for e in parsed.entities if e.columns)]
    pool = valued or list(m.tables)
    return max(pool, key=lambda t: cat.tables[t].n_rows)


def filters_for(parsed: ParsedQuestion, table: str | None, *, skip: str | None = None
                ) -> tuple[tuple[str, str], ...]:
    out = []
    for e in parsed.entities:
        if e.name == skip:
            continue
        for t, c in e.columns:
            if t == table:
                out.append((c, e.name))
                break
    return tuple(out)


def build(parsed: ParsedQuestion, route: Route, cat) -> list[Requirement]:
    m = parsed.measure
    attribute = m.name if m else (f"number of {parsed.count_table} rows"
                                  if parsed.count_table else "")
    if not attribute:
        return []
    table = sql_table(parsed, cat)
    periods: tuple[Period | None, ...] = tuple(parsed.periods) or (None,)
    if parsed.trend:
        periods = expand_years(parsed.periods) or (None,)
    if parsed.operation in ("growth", "cagr") and len(parsed.periods) >= 2:
        periods = (parsed.periods[0], parsed.periods[-1])
    agg = parsed.operation if parsed.operation in (
        "total", "average", "median", "count", "max", "min") else None
    if agg is None and parsed.operation in ("growth", "cagr", "difference", "ratio", "share") \
            or (agg is None and parsed.trend):
        agg = "total"
    subjects: list = [e for e in parsed.entities if e.kind in ("entity", "id")]
    if route == Route.SQL or (not subjects and table):
        subjects = []  # the SQL route: the values are filters, not subjects
    elif len(subjects) > 1 and table and all(e.columns for e in subjects):
        # "North and South": several values of one column are compared, each one a subject;
        # other values ("Active") filter them
        cols = {c for e in subjects for _, c in e.columns}
        if len(cols) > 1:
            same = [e for e in subjects if any(c == subjects[0].columns[0][1]
                                               for _, c in e.columns)]
            subjects = same or subjects[:1]
    out: list[Requirement] = []
    forms = tuple(m.forms) if m else ()
    for subj in subjects or [None]:
        for p in periods:
            ent = subj.name if subj is not None else None
            ent_forms = tuple(cat.entities.get(_norm(ent), [ent])) if ent else ()
            filt = filters_for(parsed, table, skip=None) if subj is None else \
                filters_for(parsed, table)
            if subj is not None and len(subjects) > 1:
                others = {e.name for e in subjects if e is not subj}
                filt = tuple(f for f in filt if f[1] not in others)
            out.append(Requirement(
                rid=f"R{len(out) + 1}", entity=ent, attribute=attribute,
                period=p.key if p else None, interval=(p.lo, p.hi) if p else None,
                scope=tuple(parsed.scope), agg=agg, filters=filt, forms=forms,
                entity_forms=ent_forms, sql_table=table,
            ))
    return out


def _norm(s: str | None) -> str:
    from hyrag.answer.parse.catalog import norm

    return norm(s or "")
