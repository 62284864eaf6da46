"""Raw cells -> typed columns under the inferred schema, ready for the store.

The output is one pandas frame per table: the analyst's columns (clean names, typed) plus staging
columns prefixed `__` that carry what claims need and SQL does not (row locator, entity label,
display text, scale, period bounds). The store writes the analyst columns as the typed table and
turns the staging columns into claims set-wise, so a million cells never pass through a Python
loop twice. Parsing is memoised per distinct value: real columns repeat their values.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ingest.captions import subject_from_title
from ingest.cells import is_empty
from ingest.melt import LongTable, detect_wide, melt
from ingest.numbers import SCALES, column_decimal_mark, find_numbers, parse_number
from ingest.schema import (
    Role,
    SchemaOptions,
    TableSchema,
    infer_schema,
    scale_of_title,
)
from ingest.sections import heading_label, is_statistic_label, row_sections
from ingest.timekeys import TimeKey, parse_time_key
from ingest.types import Cell, RawTable, column_letter

if TYPE_CHECKING:
    from ingest.tablemodel import TableModel

MAX_CONTEXT_COLUMNS = 3  # categorical values repeated in each cell claim so it stands alone
MAX_MARK_NOTES = 5  # columns named one by one in the notes on decimal commas; then a count


@dataclass(frozen=True)
class ClaimColumn:
    """How one typed column becomes cell claims."""

    column: str  # analyst column holding the value
    header: str | None  # the file's header; None: per row in `__header`
    letter: str | None  # sheet column letter; None: per row in `__cell`
    attribute: str | None  # constant attribute; None: per row in `__attribute`
    role: Role


@dataclass(frozen=True)
class TypedTable:
    name: str
    source: str
    schema: TableSchema
    frame: pd.DataFrame
    analyst_columns: tuple[str, ...]
    claim_columns: tuple[ClaimColumn, ...]
    sheet: str | None = None
    page: int | None = None
    table_index: int = 0
    title: str | None = None
    melted: bool = False
    notes: tuple[str, ...] = field(default=())
    per_row_page: bool = False  # rows of a PDF table continued across pages: see `__page`
    sectioned: bool = False  # some rows sit under a section heading: see `__section`
    model: TableModel | None = None  # every cell read in its context (`ingest.tablemodel`)

    @property
    def n_rows(self) -> int:
        return len(self.frame)


def format_number(v: float) -> str:
    """Display text for a typed number that had none (XLSX, DataFrame)."""
    if math.isfinite(v) and v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.10g}"


def _display(v: Cell) -> str:
    if isinstance(v, dt.datetime):
        return v.isoformat(sep=" ") if (v.hour or v.minute or v.second) else v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, float):
        return format_number(v)
    return str(v).strip()


_PLAIN = re.compile(r"[+-]?\d+(\.\d+)?")
_BETWEEN_DIGITS = re.compile(r"\d[.,]\d")


def _parse_one(v: Cell, decimal: str) -> tuple[float, str, str, str] | None:
    """(number, display text, scale, unit) of one distinct value; plain decimals skip the
    cleaner unless the column's decimal mark is "," ("1.613" is then 1613)."""
    if isinstance(v, bool) or is_empty(v):
        return None
    if isinstance(v, int | float):
        return (float(v), format_number(float(v)), "", "")
    if isinstance(v, str) and decimal == "." and _PLAIN.fullmatch(v.strip()):
        return (float(v), v.strip(), "", "")
    p = parse_number(v, decimal=decimal)
    return None if p is None else (p.value, str(v).strip(), p.scale, p.unit)


def _factorize(values: list[Cell]) -> tuple[np.ndarray, list[Cell]]:
    """Codes into distinct values; missing cells get code -1, which indexes the sentinel slot
    appended at the end of every per-distinct array."""
    codes, uniq = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=True)
    return codes, list(uniq)


def _factorize_marked(
    values: list[Cell], marks: str | list[str]
) -> tuple[np.ndarray, list[Cell], list[str]]:
    """`_factorize` where the decimal mark may differ per row (a melted value column gathers
    period columns whose cells proved different marks): distinct (value, mark) pairs."""
    if isinstance(marks, str):
        codes, uniq = _factorize(values)
        return codes, uniq, [marks] * len(uniq)
    codes = np.full(len(values), -1, dtype=np.intp)
    uniq_all: list[Cell] = []
    marks_all: list[str] = []
    for mark in sorted(set(marks)):
        idx = np.array([i for i, m in enumerate(marks) if m == mark], dtype=np.intp)
        sub, uniq = _factorize([values[i] for i in idx])
        codes[idx] = np.where(sub >= 0, sub + len(uniq_all), -1)
        uniq_all.extend(uniq)
        marks_all.extend([mark] * len(uniq))
    return codes, uniq_all, marks_all


def _coded_strings(table: RawTable, position: int) -> tuple[np.ndarray, list[str]] | None:
    """`_factorize` of a column of strings and empty (None) cells — every CSV column — read
    off the table's coded column (`RawTable.coded`: the same pandas factorization, done once
    for the schema and the model) instead of hashing its cells again: each numeric column was
    factorized twice more, ~0.2 s on a 100,000 x 12 table. None for any other column."""
    coded = table.coded[position]
    values = coded.values
    if not values or values[-1] is not None or \
            not all(v.__class__ is str for v in values[:-1]):
        return None
    codes = coded.codes.copy()
    codes[codes == len(values) - 1] = -1  # the empty cells: `_factorize`'s sentinel code
    return codes, list(values[:-1])


def _distinct_strings(values: list[Cell]) -> list[str]:
    """The distinct string cells in order of appearance (so notes quote the same example on
    every run), without a Python loop over repeats."""
    return [v for v in _factorize(values)[1] if isinstance(v, str)]


def _decimal_marks(
    table: RawTable, schema: TableSchema, cols: list[tuple[Cell, ...]], long: LongTable | None,
    file_mark: str,
) -> tuple[dict[str, str | list[str]], list[str]]:
    """The decimal mark of every numeric column (per row where a melted value column gathers
    file columns that differ), and a note for each column read with a decimal comma.

    Each file column is decided by `column_decimal_mark` from its own cells. Only a column
    whose cells prove nothing ("1.613", "2.830", "12.047") falls back: to the mark the table's
    other columns proved, if they agree, else to what the file format implies (a ";" file
    writes decimal commas), else ".".
    """
    groups: dict[tuple[str, int], tuple[str, list[Cell]]] = {}
    distinct: dict[tuple[str, int], list[str]] = {}  # each group's `_distinct_strings`
    for c in schema.columns:
        if c.role is not Role.NUMERIC:
            continue
        values = cols[c.position]
        if long is not None and c.name == "value":
            for v, loc, h in zip(values, long.value_col_locs, long.value_headers, strict=True):
                groups.setdefault((c.name, loc), (h, []))[1].append(v)
        else:
            key = (c.name, table.col_locs[c.position])
            groups[key] = (c.header, list(values))
            known = _coded_strings(table, c.position)
            if known is not None:
                distinct[key] = known[1]
    for k, (_, vals) in groups.items():
        if k not in distinct:
            distinct[k] = _distinct_strings(vals)
    found = {k: column_decimal_mark(distinct[k]) for k in groups}
    proven = {d.mark for d in found.values() if d.decided}
    if len(proven) == 1:
        fallback, why_fallback = next(iter(proven)), "as the table's other columns prove"
    else:
        fallback = file_mark or "."
        why_fallback = "the file is semicolon-delimited and its cells read both ways"
    notes: list[str] = []
    per_group: dict[tuple[str, int], str] = {}
    for k, d in found.items():
        mark = d.mark if d.decided else fallback
        per_group[k] = mark
        # a fallback is worth a note only where it changed a reading: a cell with a mark
        if mark == "," and (d.decided or any(_BETWEEN_DIGITS.search(v) for v in distinct[k])):
            why = f"cells such as {d.example!r}" if d.decided else why_fallback
            notes.append(f"column {groups[k][0]!r}: ',' is the decimal mark ({why})")
    if len(notes) > MAX_MARK_NOTES:
        notes = [*notes[:MAX_MARK_NOTES], f"... and {len(notes) - MAX_MARK_NOTES} more columns "
                 "read with ',' as the decimal mark"]
    out: dict[str, str | list[str]] = {}
    for c in schema.columns:
        if c.role is not Role.NUMERIC:
            continue
        if long is not None and c.name == "value":
            rows = [per_group[(c.name, loc)] for loc in long.value_col_locs]
            out[c.name] = rows if len(set(rows)) > 1 else (rows[0] if rows else ".")
        else:
            out[c.name] = per_group[(c.name, table.col_locs[c.position])]
    return out, notes


def _scale_change_notes(
    header: str, name: str, scale: pd.Series, table: RawTable, long: LongTable | None
) -> list[str]:
    """A column whose figures change scale down the column ("1.2 million" over "450,000"):
    one note per column of the file, naming it and the rows of each scale, since a reader
    comparing its cells must know they are not on one footing. Percentages among amounts (a
    margin row in a statement) are a unit, not a change of scale, and are left out. A melted
    table's value column is reported per period column of the file it came from."""
    heads = list(long.value_headers) if long is not None else [header] * len(scale)
    by_col: dict[str, dict[str, list[int]]] = {}
    for h, sc, r in zip(heads, scale, table.row_locs, strict=True):
        if sc is None or sc == "percent":
            continue
        by_col.setdefault(h, {}).setdefault(sc, []).append(r)
    notes = []
    for h, scales in by_col.items():
        if len(scales) < 2:
            continue
        parts = "; ".join(
            f"{sc or 'as shown'} in row(s) {', '.join(map(str, rows[:5]))}"
            + (", ..." if len(rows) > 5 else "")
            for sc, rows in sorted(scales.items())
        )
        notes.append(
            f"column {h!r}: its numbers change scale down the column (mixed scales: {parts}); "
            f"each claim keeps its own scale and the table column {name!r} holds values in "
            "base units"
        )
    return notes


def _parse_times(values: set[Cell], fy: int) -> dict[object, TimeKey | None]:
    out: dict[object, TimeKey | None] = {}
    for v in values:
        out[v] = None if is_empty(v) else parse_time_key(v, fiscal_year_start_month=fy)
    return out


def _objects(values: list[object]) -> pd.Series:
    """A staging column of Python objects. pandas types a column made from an *empty* list as
    float64, which DuckDB reads as DOUBLE: a melted table without a single figure then had a
    DOUBLE `__header`, and the claim SQL's coalesce(text, __header) failed to bind ("Cannot mix
    values of type VARCHAR and DOUBLE in COALESCE"), rolling back the whole file. An explicit
    dtype keeps every staging column's type whatever the row count (an empty object column is
    untyped NULL in DuckDB, which binds with anything)."""
    return pd.Series(values, dtype=object)


def prepare_table(raw: RawTable, opts: SchemaOptions | None = None) -> TypedTable:
    """Melt if wide, infer the schema, type every cell; report what did not parse."""
    opts = opts or SchemaOptions()
    long: LongTable | None = None
    spec = detect_wide(raw, fiscal_year_start_month=opts.fiscal_year_start_month)
    table = raw
    if spec is not None:
        long = melt(raw, spec)
        table = long.table
    schema = infer_schema(table, opts)
    if long is not None:
        schema = _force_long_roles(schema, long)
    else:
        schema = _period_label_column(table, schema)
    typed = _with_sections(_statistic_rows(_type(table, schema, opts, long, raw.decimal_mark),
                                           table), raw, table)
    lost = _loss_notes(raw, typed)
    if lost:
        from dataclasses import replace

        typed = replace(typed, notes=(*typed.notes, *lost))
    return typed


def where_of(t: RawTable | TypedTable) -> str:
    """'page 3, table 2' / "sheet 'Q1'" / '': the place a note names beside the table."""
    parts = []
    if t.sheet is not None:
        parts.append(f"sheet {t.sheet!r}")
    if t.page is not None:
        parts.append(f"page {t.page}")
        parts.append(f"table {t.table_index + 1}")
    return ", ".join(parts)


def count_figures(cells: Iterable[Cell]) -> int:
    """Figures among the cells (a year standing alone is a period, not a figure)."""
    return sum(
        len(find_numbers(str(c), include_years=False)) for c in cells if not is_empty(c)
    )


def _claimable(typed: TypedTable) -> int:
    """How many cell claims the store will write: one per non-empty cell of a claim column
    (a numeric cell only when it parsed), the rule of `hyrag.claimsql.insert_cell_claims`."""
    f = typed.frame
    n = 0
    for cc in typed.claim_columns:
        ok = f[cc.column].notna()
        if cc.role is Role.NUMERIC:
            ok &= f[f"{cc.column}__text"].notna()
        n += int(ok.sum())
    return n


def _loss_notes(raw: RawTable, typed: TypedTable) -> tuple[str, ...]:
    """A table that holds figures and yields no claim says so: a header with no rows under it
    (a body read into the header cells, or a block cut off by blank rows), or rows whose every
    column was read as a label or a period. Without the note the file is "ingested" with 0
    claims and the figures are silently gone."""
    if _claimable(typed):
        return ()
    where = where_of(raw)
    at = f" ({where})" if where else ""
    if not raw.rows:
        n = count_figures(raw.header)
        shown = ", ".join(repr(h) for h in raw.header[:4]) + (", ..." if len(raw.header) > 4
                                                             else "")
        if n:
            return (f"table {raw.name!r}{at}: a header and no rows; its header cells hold "
                    f"{n} number(s) that yield no claims (rows read into the header?): {shown}",)
        return (f"table {raw.name!r}{at}: a header and no rows ({shown}); it yields no claims",)
    numbers = count_figures(c for r in raw.rows for c in r)
    rows = f"rows {raw.row_locs[0]}-{raw.row_locs[-1]}" if len(raw.rows) > 1 \
        else f"row {raw.row_locs[0]}"
    if not typed.claim_columns:
        roles = ", ".join(f"{c.header!r} as {'a period' if c.role is Role.TIME else 'the label'}"
                          for c in typed.schema.columns)
        why = f"every column was read as a label or a period ({roles})"
    else:
        why = "every cell that would be a claim is empty or not a figure"
    lost = f"; {numbers} number(s) in them are in no claim" if numbers else ""
    return (f"table {raw.name!r}{at}: {rows} yield no claims: {why}{lost}",)


def _with_sections(typed: TypedTable, raw: RawTable, table: RawTable) -> TypedTable:
    """`__section`: the heading each row sits under (`ingest.sections`), read on the table as
    the file shows it and carried to the melted rows by their (page, row) address."""
    from dataclasses import replace

    secs = row_sections(raw)
    if not any(secs):
        return typed  # no `__section` column: the claims' locators are as before
    pages = raw.row_pages or (raw.page,) * len(raw.rows)
    where = {(p, r): s for p, r, s in zip(pages, raw.row_locs, secs, strict=True)}
    tpages = table.row_pages or (table.page,) * len(table.rows)
    sections = pd.Series(
        [where.get((p, r)) for p, r in zip(tpages, table.row_locs, strict=True)], dtype=object)
    typed.frame["__section"] = sections
    first = typed.schema.columns[0].name if typed.schema.columns else None
    if first is not None and typed.schema.time_column == first and \
            not typed.schema.entity_columns:
        # rows labelled by their period: the heading above them names what they are of
        # ("Construction" over "2006–07 | 1,066")
        typed.frame["__entity"] = sections.where(sections.notna(), typed.frame["__entity"])
    return replace(typed, sectioned=True)


def _statistic_rows(typed: TypedTable, table: RawTable) -> TypedTable:
    """Rows of a period column whose label is no period ("No. Obs", "Mean" under a monthly
    series, a "Total" line) are named by their label and dated by no period: their figures are
    not of a period, and "282" is the number of observations, not the CPI of some month.

    The rows that name a statistic of the series (`ingest.sections.is_statistic_label`: the
    table model's `metadata` rows) are also flagged `__meta`: the store keeps them out of the
    SQL route's typed table, so that max(cpi) is a month's CPI and avg(cpi) the mean of the
    months, not of the months and their own count. Their claims stay, named by their label."""
    schema = typed.schema
    if not schema.columns or schema.time_column != schema.columns[0].name or \
            schema.entity_columns or "__time_key" not in typed.frame:
        return typed
    labels = pd.Series([None if is_empty(r[0]) else _display(r[0]) for r in table.rows],
                       dtype=object)
    named = typed.frame["__time_key"].isna() & labels.notna()
    named &= pd.Series([heading_label(r) is None for r in table.rows], dtype=bool)
    if not named.any():
        return typed
    from dataclasses import replace

    typed.frame["__entity"] = labels.where(named, typed.frame["__entity"])
    rows = [f"{table.row_locs[i]} ({labels[i]!r})" for i in named[named].index[:5]]
    notes = [(
        f"row(s) {', '.join(rows)}{', ...' if named.sum() > 5 else ''}: not periods of the "
        f"series in column {schema.columns[0].header!r} (its statistics or a total) — their "
        f"claims are named by their label and dated by no period")]
    meta = named & labels.map(lambda x: x is not None and is_statistic_label(x)).astype(bool)
    if meta.any():
        typed.frame["__meta"] = meta
        shown = ", ".join(repr(labels[i]) for i in meta[meta].index[:5])
        notes.append(f"row(s) {shown}{', ...' if meta.sum() > 5 else ''}: statistics of the "
                     f"series, kept out of the SQL table {typed.name!r} (their claims remain)")
    return replace(typed, notes=(*typed.notes, *notes))


def _period_label_column(table: RawTable, schema: TableSchema) -> TableSchema:
    """A label column of periods is the table's time column: its rows are a series ("2019 |
    1,290 | 888" under "Total | 1 unit"; "2006–07" rows under a "Construction" heading), so
    each figure is dated by its row, not named by a year as if the year were a line item. The
    table model's rule decides (`tablemodel.period_labels`), for a pure series only: a
    schedule whose years run into "Thereafter" and "Less: interest" lines keeps its lines as
    line items (the table model still dates each of its cells). The change is recorded as an
    adjustment."""
    from dataclasses import replace

    from ingest.schema import Adjustment
    from ingest.tablemodel import period_labels

    if schema.time_column is not None or schema.id_column is not None or not schema.columns:
        return schema
    first = schema.columns[0]
    if first.role is Role.TIME or not period_labels(table, pure=True):
        return schema
    cols = (replace(first, role=Role.TIME, dtype="VARCHAR", unit="", scale=""),
            *schema.columns[1:])
    why = "its labels are periods: the rows of a series, headings and statistics aside"
    return replace(schema, columns=cols, time_column=first.name,
                   entity_columns=tuple(c for c in schema.entity_columns if c != first.name),
                   adjustments=(*schema.adjustments,
                                Adjustment(first.name, first.role, Role.TIME, why)))


def _force_long_roles(schema: TableSchema, long: LongTable) -> TableSchema:
    """In a melted table 'period' is the time and 'value' the measure, whatever the sample
    suggested (a statement whose first rows are blank would otherwise fool the agent)."""
    from dataclasses import replace

    cols = []
    for c in schema.columns:
        if c.name == "period":
            c = replace(c, role=Role.TIME, dtype="VARCHAR")
        elif c.name == "value":
            # forced numeric after the agent's guess: the title's scale was never applied
            ts, tu = scale_of_title(long.table.title) if c.role is not Role.NUMERIC else ("", "")
            c = replace(c, role=Role.NUMERIC, dtype="DOUBLE", scale=c.scale or ts,
                        unit=c.unit or tu)
        elif c.role in (Role.ID, Role.NUMERIC, Role.TIME):
            c = replace(c, role=Role.CATEGORICAL, dtype="VARCHAR", unit="", scale="")
        cols.append(c)
    labels = [c.name for c in cols if c.name not in ("period", "value", "measure")]
    # "Revenue 2023" headers: the labels name the entity; bare period headers: the last label
    # names the measure (the line item) and the others the entity.
    entity_cols = tuple(labels) if long.header_measures else tuple(labels[:-1])
    return replace(
        schema,
        columns=tuple(cols),
        id_column=None,
        time_column="period",
        entity_columns=entity_cols,
    )


def _context_strings(frame: pd.DataFrame, columns: list[tuple[str, str]]) -> pd.Series:
    """ "Region North, Channel Online": each context column's header and value, empty parts
    left out."""
    ctx = None
    for cname, header in columns:
        part = (header + " " + frame[cname].astype("string")).fillna("")
        ctx = part if ctx is None else ctx.str.cat(part, sep=", ")
    assert ctx is not None
    return ctx.str.replace(r"(^, |, $)", "", regex=True).str.replace(
        ", , ", ", ", regex=False
    ).astype(object)


def _context(frame: pd.DataFrame, columns: list[tuple[str, str]]) -> pd.Series:
    """Each row's context (`_context_strings`), built once per distinct combination of the
    context columns' values and taken per row: the columns hold few values each, so 100,000
    rows have a few thousand combinations, and the string operations over every row cost
    ~0.5 s. The same strings: the distinct rows are rows of `frame` itself."""
    n = len(frame)
    key = np.zeros(n, dtype=np.int64)
    radix = 1
    for cname, _ in columns:
        codes, uniq = pd.factorize(frame[cname], use_na_sentinel=False)
        radix *= len(uniq) + 1
        if radix >= 1 << 62:  # too many combinations to key: every row on its own
            return _context_strings(frame, columns)
        key = key * (len(uniq) + 1) + codes
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    distinct = frame.iloc[first][[c for c, _ in columns]].reset_index(drop=True)
    shown = _context_strings(distinct, columns).to_numpy(dtype=object)
    return pd.Series(shown[inverse.reshape(-1)], index=frame.index, dtype=object)


def _type(
    table: RawTable, schema: TableSchema, opts: SchemaOptions, long: LongTable | None,
    file_mark: str = "",
) -> TypedTable:
    n = len(table.rows)
    fy = opts.fiscal_year_start_month
    data: dict[str, object] = {}
    notes: list[str] = list(table.notes)
    cols = list(zip(*table.rows, strict=True)) if n else [() for _ in table.header]

    time_col = schema.time_column
    time_keys: list[TimeKey | None] = [None] * n
    marks, mark_notes = _decimal_marks(table, schema, cols, long, file_mark)
    notes.extend(mark_notes)
    for c in schema.columns:
        values = list(cols[c.position])
        if c.role is Role.NUMERIC:
            mark = marks[c.name]
            known = _coded_strings(table, c.position) if isinstance(mark, str) else None
            if known is not None:
                codes, uniq = known
                umarks = [mark] * len(uniq)
            else:
                codes, uniq, umarks = _factorize_marked(values, mark)
            parsed_u = [_parse_one(v, m) for v, m in zip(uniq, umarks, strict=True)]
            ok_u = np.array([p is not None for p in parsed_u] + [False])
            num_u = np.array([p[0] if p else np.nan for p in parsed_u] + [np.nan])
            text_u = np.array([p[1] if p else None for p in parsed_u] + [None], dtype=object)
            scale_u = np.array(
                [(p[2] or c.scale) if p else None for p in parsed_u] + [None], dtype=object
            )
            unit_u = np.array(
                [(p[3] or c.unit) if p else None for p in parsed_u] + [None], dtype=object
            )
            mult_u = np.array([SCALES.get(x, 1.0) if x else 1.0 for x in scale_u])
            ok = ok_u[codes]
            num = num_u[codes]
            nums = pd.array(num, dtype="Float64")
            nums[~ok] = pd.NA
            bases = pd.array(num * mult_u[codes], dtype="Float64")
            bases[~ok] = pd.NA
            text = pd.Series(text_u[codes], dtype=object)
            scale = pd.Series(scale_u[codes], dtype=object)
            unit = pd.Series(unit_u[codes], dtype=object)
            bad = [
                i for i in np.flatnonzero((codes >= 0) & ~ok)
                if not is_empty(values[i])
            ]
            distinct_scales = set(scale.dropna().unique())
            if len(distinct_scales) > 1:
                # "$1.2m" beside "1,234.50": the typed column must be comparable, so it holds
                # the base value; claims keep the displayed number and its scale.
                data[c.name] = bases
                notes.extend(_scale_change_notes(c.header, c.name, scale, table, long))
            else:
                data[c.name] = nums
            data[f"{c.name}__num"] = nums
            data[f"{c.name}__text"] = text
            data[f"{c.name}__base"] = bases
            data[f"{c.name}__scale"] = scale.astype(object)
            data[f"{c.name}__unit"] = unit.astype(object)
            if bad:
                rows = ", ".join(str(table.row_locs[i]) for i in bad[:5])
                notes.append(
                    f"column {c.header!r}: {len(bad)} value(s) are not numbers and were left "
                    f"empty (rows {rows}{', ...' if len(bad) > 5 else ''})"
                )
        elif c.role is Role.TIME:
            parsed_t = _parse_times(set(values), fy)
            keys = [parsed_t[v] for v in values]
            bad = [i for i, v in enumerate(values) if keys[i] is None and not is_empty(v)]
            if bad:
                shown = ", ".join(f"row {table.row_locs[i]}: {values[i]!r}" for i in bad[:5])
                notes.append(
                    f"column {c.header!r}: {len(bad)} value(s) are not periods and were left "
                    f"without a time key ({shown})"
                )
            all_dates = all(k is None or k.grain == "date" for k in keys) and any(keys)
            if all_dates:
                data[c.name] = [k.start if k else None for k in keys]
            else:
                data[c.name] = [k.key if k else None for k in keys]
            # the period as the file writes it ("June 24, 1968"): what its cell claims quote,
            # as a figure's claim quotes its displayed text; the typed column holds the
            # comparable date or key (`hyrag.claimsql._value_exprs`)
            data[f"{c.name}__text"] = _objects(
                [_display(v) if k is not None else None for v, k in zip(values, keys,
                                                                        strict=True)])
            if c.name == time_col:
                time_keys = keys
        else:
            # each distinct cell is shown once and spread over the rows by one NumPy take
            # over the table's coded column (a list lookup per row cost ~0.03 s a column of
            # 100,000 rows). An empty cell is NaN, as Series.map made it.
            data[c.name] = pd.Series(table.coded[c.position].read(
                lambda v: np.nan if is_empty(v) else _display(v)), dtype=object)

    analyst = tuple(c.name for c in schema.columns)
    frame = pd.DataFrame(data, index=pd.RangeIndex(n))
    frame["__row"] = list(table.row_locs)
    frame["__page"] = list(table.row_pages) if table.row_pages else table.page
    frame["__time_key"] = _objects([k.key if k else None for k in time_keys])
    frame["__period_start"] = _objects([k.start if k else None for k in time_keys])
    frame["__period_end"] = _objects([k.end if k else None for k in time_keys])
    frame["__order_key"] = pd.array([k.order_key if k else None for k in time_keys], "Float64")
    frame["__grain"] = _objects([k.grain if k else None for k in time_keys])

    subject = subject_from_title(table.title)
    ent_cols = list(schema.entity_columns)
    if ent_cols:
        parts = [_texts(frame[e]) for e in ent_cols]
        ent = parts[0]
        for p in parts[1:]:
            ent = ent + " / " + p
        frame["__entity"] = pd.Series(ent, index=frame.index, dtype=object)
    else:
        frame["__entity"] = subject or table.name

    claim_cols: list[ClaimColumn] = []
    if long is not None:
        frame["__cell"] = _objects([
            f"{column_letter(cl)}{r}" if cl >= 1 else None
            for cl, r in zip(long.value_col_locs, table.row_locs, strict=True)
        ])
        frame["__header"] = _objects(list(long.value_headers))
        labels = [c.name for c in schema.columns if c.name not in ("period", "value")]
        attr_col = "measure" if long.has_measure else (labels[-1] if labels else None)
        if attr_col is not None:
            attr = frame[attr_col].astype("string")
            if attr_col == "measure" and len(labels) > 1:
                # pure period headers carry no measure: the row's last label names it
                fallback = frame[[x for x in labels if x != "measure"][-1]].astype("string")
                empty = attr.isna() | (attr == "")
                if not long.header_measures:
                    # an extra column ("Increase / (Decrease)") qualifies the row's line item
                    attr = attr.mask(~empty, fallback.fillna("") + " " + attr.fillna(""))
                attr = attr.mask(empty, fallback)
            frame["__attribute"] = attr.astype(object)
        claim_cols.append(
            ClaimColumn("value", None, None, None if attr_col else "value", Role.NUMERIC)
        )
        ctx_cols: list[str] = []
    else:
        skip = set(schema.entity_columns)
        if not schema.id_column and time_col:
            skip.add(time_col)
        for c in schema.columns:
            if c.name in skip:
                continue
            letter = column_letter(table.col_locs[c.position]) if table.col_locs[c.position] else None
            claim_cols.append(ClaimColumn(c.name, c.header, letter, c.header, c.role))
        ctx_cols = [
            c.name
            for c in schema.columns
            if c.role is Role.CATEGORICAL and c.name not in skip and c.distinct <= 50
        ][:MAX_CONTEXT_COLUMNS]
    if ctx_cols:
        frame["__context"] = _context(frame, [(c, schema.column(c).header) for c in ctx_cols])
    else:
        frame["__context"] = ""

    _percent_rows(frame, schema, long is not None)
    _own_measure_rows(frame, schema, long is not None, scale_of_title(table.title)[0])

    return TypedTable(
        name=table.name,
        source=table.source,
        schema=schema,
        frame=frame,
        analyst_columns=analyst,
        claim_columns=tuple(claim_cols),
        sheet=table.sheet,
        page=table.page,
        table_index=table.table_index,
        title=table.title,
        melted=long is not None,
        notes=tuple(notes),
        per_row_page=bool(table.row_pages),
    )


# a row label that says its figures are percentages: "Gross margin (%)", "EBIT to sales %"
# (a figure before the sign, "92 %" or "(3) %", is a cell that became a label, not a unit)
_PERCENT_LABEL = re.compile(r"\(\s*(?:in\s+)?%\s*\)|[a-z]\s*%\s*$|\((?:in\s+)?per\s?cent(?:age)?s?\)\s*$",
                            re.I)


def _texts(col: pd.Series) -> np.ndarray:
    """`col.astype("string").fillna("")` as an object array of str. A column of strings and
    empty cells (every display column) skips pandas' Arrow-backed string dtype: converting
    100,000 labels there and back cost ~0.1 s a column, and the entity and the percent rows
    each read one."""
    values = col.to_numpy(dtype=object)
    values = np.where(pd.isna(values), "", values)
    if all(v.__class__ is str for v in values):
        return values
    return col.astype("string").fillna("").to_numpy(dtype=object)


def _row_labels(frame: pd.DataFrame, schema: TableSchema, melted: bool) -> np.ndarray | None:
    """Each row's line label as text (a melted table's attribute, else its entity label), or
    None where the table has none: what `_percent_rows` and `_own_measure_rows` read."""
    labels = frame.get("__attribute") if melted else (
        frame["__entity"] if schema.entity_columns else None)
    return None if labels is None or not len(frame) else _texts(labels)


def _restate(frame: pd.DataFrame, schema: TableSchema, rows: np.ndarray, scale: str,
             unit: str | None = None, only_scale: str | None = None) -> None:
    """In place: the figures of `rows` (those whose scale is `only_scale`, when given) take
    `scale` (and `unit`, when given), and their base value is the displayed one."""
    for c in schema.columns:
        if c.role is not Role.NUMERIC or f"{c.name}__scale" not in frame:
            continue
        has = rows & frame[f"{c.name}__num"].notna().to_numpy(bool)
        if only_scale is not None:
            has &= frame[f"{c.name}__scale"].to_numpy(dtype=object) == only_scale
        if not has.any():
            continue
        frame.loc[has, f"{c.name}__scale"] = scale
        if unit is not None:
            frame.loc[has, f"{c.name}__unit"] = unit
        frame.loc[has, f"{c.name}__base"] = frame.loc[has, f"{c.name}__num"]


def _percent_rows(frame: pd.DataFrame, schema: TableSchema, melted: bool) -> None:
    """A row whose label says "(%)" holds percentages whatever the table's caption says: in a
    "$ million" results table, "Gross margin (%) 22.9" is 22.9 percent, not 22.9 million (the
    caption's scale is the amounts'). Its numeric cells take scale percent, in place."""
    texts = _row_labels(frame, schema, melted)
    if texts is None:
        return
    search = _PERCENT_LABEL.search
    rows = np.fromiter((search(x) is not None for x in texts), bool, count=len(texts))
    if rows.any():
        _restate(frame, schema, rows, "percent", unit="%")


def _own_measure_rows(frame: pd.DataFrame, schema: TableSchema, melted: bool,
                      title_scale: str) -> None:
    """A row whose label names a measure no title magnitude applies to — a per-unit ratio
    ("Earnings per share"), a unit other than money ("Number of employees") — keeps its
    figures as displayed where the title declares a magnitude: in "(in thousands, except per
    share data)" the 2.40 of "Earnings per share" is 2.40, not 2,400. The rule is the table
    model's (`tablemodel.row_measure`), so a cell's claim and its model cell state one scale;
    only figures whose scale is the title's are changed (a cell's own "$1.2 million" stays).
    In place: scale "" and the base value the displayed one."""
    from ingest.tablemodel import row_measure  # the model's reading of a row's label

    if title_scale not in SCALES or title_scale in ("", "percent"):
        return
    texts = _row_labels(frame, schema, melted)
    if texts is None:
        return
    own = {t: row_measure(t) for t in set(texts.tolist())}
    rows = np.fromiter(((m := own[t]) is not None and m[0] == "" for t in texts), bool,
                       count=len(texts))
    if rows.any():
        _restate(frame, schema, rows, "", only_scale=title_scale)


def role_counts(schema: TableSchema) -> dict[str, int]:
    return dict(Counter(c.role.value for c in schema.columns))
