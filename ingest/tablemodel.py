"""The table model: every cell of a table with what a person reads it as.

One representation of a table, built once at ingest and persisted beside the claims
(`hyrag.tablecells`), so that the claims, the SQL route and the answer engine can all read the
same reading of it. Each cell carries:

- its **row path**: the section headings above it (outermost first, `ingest.sections`), then
  what names the row — the row label and any text columns that name the row (a person's name, a
  precinct) — in column order;
- its **column path**: every header row above it as its own level (`ingest.layout`): a group
  heading and the period under it, not one glued string;
- its **period**: from its column path, else its row (a time column, or a row label that is a
  period), else its section heading ("As of December 31, 2018"), else the table's title;
- its **scale and unit**: from the cell itself ("$4.4 billion"), else its column (the schema's
  reading of the header and the cells), else the table's title ("(in thousands)"); a row whose
  label states a measure of its own ("Gross margin %", "Earnings per share", "Useful life (in
  years)") does not take the title's scale (`row_measure`): "in millions, except per share
  amounts", which statements often leave unsaid;
- the **kind of row** it sits in: `data`; `heading` (a label alone over the rows beneath);
  `total` (a line that says it is one: "Total ...", or an unlabelled line that adds up the lines
  above); `metadata` (a row among rows labelled by periods whose own label names a statistic:
  "No. Obs", "Mean" under a monthly series — a figure about the series, not one of its
  periods; `ingest.sections.is_statistic_label`); `notes` (a row whose cells hold text and no
  figure). A line under year rows that names no statistic ("Thereafter", "Less: interest",
  "Present value" under a maturity schedule) is a line item with an amount of its own: `data`.

Pure: no database, no engine; `build` is a function of the raw table and its schema.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ingest.captions import title_year
from ingest.cells import cell_kind, cell_text, is_blank, is_empty
from ingest.labelperiods import label_period, period_of_path
from ingest.numbers import parse_number, scale_hint
from ingest.schema import Role, TableSchema, scale_of_title, takes_title_scale
from ingest.sections import (
    adds_up,
    heading_labels,
    is_statistic_label,
    is_total_label,
    section_paths,
)
from ingest.types import Cell, RawTable, column_letter
from ingest.units import MAGNITUDES

if TYPE_CHECKING:  # the typed frame is handed in; reading a stored model needs no pandas
    import numpy as np
    import pandas as pd

    from ingest.cellcodes import CodedColumn

ROW_KINDS = ("data", "heading", "total", "metadata", "notes")
# A label column is a column of periods when at least this share of its labelled rows parse as
# one (and at least MIN_PERIOD_ROWS do): the other rows are then statistics of the series.
PERIOD_LABEL_SHARE = 0.75
MIN_PERIOD_ROWS = 2
PERIOD_SAMPLE = 50  # labels looked at before a column of names is known to be no series
_NAMING_ROLES = (Role.ID, Role.CATEGORICAL, Role.TEXT)
# a line stating a share of the line above it, as statements print them beneath each line
# ("Product" then "Percentage of revenue", "% of net sales", "As a percentage of sales")
_OF_ABOVE = re.compile(r"^\s*(?:as\s+an?\s+)?(?:%|percent(?:age)?|per\s+cent)\s+of\b", re.I)
# a ratio to one unit of something ("per share", "per employee"; not "per cent")
_PER_UNIT = re.compile(r"\bper\s+(?!cent\b)[a-z]", re.IGNORECASE)


def row_measure(label: str) -> tuple[str, str] | None:
    """(scale, unit) a row's label states for its figures when it names a measure no title
    magnitude applies to — a percentage ("Gross margin %": percent), a unit other than money
    ("Useful life (in years)", "Number of employees"), a per-unit ratio ("Earnings per share")
    — else None (the row's figures take their column's scale, or the title's)."""
    if not label:
        return None
    scale, unit = scale_hint(label)
    if scale == "percent":
        return ("percent", "%")
    if scale:
        return None  # "Revenue (in thousands)": a magnitude of its own, the cell's business
    if not takes_title_scale(unit):
        return ("", unit)
    if _PER_UNIT.search(label):
        return ("", unit)
    return None


# a bracket's text, innermost brackets only: "(in thousands)" in "Gross profit (in thousands)"
_BRACKETED = re.compile(r"\(([^()]*)\)")


def row_magnitude(levels: Sequence[str], headings: Sequence[str] = ()) -> str:
    """The magnitude ("thousand", "million", "billion") a row's label, else the innermost
    section heading above it, declares in brackets for the row's figures ("Gross profit (in
    thousands)", "Shares used in computing (in millions):"), "" when none does. It is said of
    that row alone, so it outranks the table's title and the column's header; a cell that
    states its own ("$4.4 billion") keeps it. Each bracket is read alone by the unit lexicon
    (`numbers.scale_hint`), and one that opens with a figure is a measurement ("(610 mm)"), not
    a declaration: a list's names beside the label ("Kremlin Cup, Moscow", "Hard (i)") declare
    nothing, and a list of 100,000 names costs a substring test per name."""
    for text in (*levels, *reversed(headings)):
        for inner in _BRACKETED.findall(text):
            if inner.lstrip()[:1].isdigit():
                continue  # a measurement ("2 ft (610 mm)"), not a declaration
            scale, _ = scale_hint(inner)
            if scale in MAGNITUDES:
                return scale
    return ""


def _own_levels(r: ModelRow) -> list[str]:
    """What names a row itself: its path below its section headings, figure levels aside (a
    column of changes beside the label lands in the path: `is_figure`)."""
    return [lvl for lvl in r.path[r.headings:] if not is_figure(lvl)]


def _row_magnitudes(rows: Sequence[ModelRow]) -> dict[int, str]:
    """`row_magnitude` of every row that declares one, by position: not headings, and not a
    row whose own label states another measure ("% of revenue", "Number of stores" under
    "(in thousands)": `row_measure`)."""
    out = {}
    for i, r in enumerate(rows):
        if r.kind == "heading" or not any("(" in lvl for lvl in r.path):
            continue  # (`row_magnitude` reads bracketed labels only: one test per level)
        own = _own_levels(r)
        if (m := row_magnitude(own, r.path[:r.headings])) and row_measure(" ".join(own)) is None:
            out[i] = m
    return out


def _own_row_scales(ri: np.ndarray, ci: np.ndarray, values: np.ndarray, scales: np.ndarray,
                    units: np.ndarray, measured: dict[int, tuple[str, str]],
                    magnitudes: dict[int, str], took: dict[int, str], title_scale: str) -> None:
    """In place, on the cells' `scales` and `units`: a row stating a measure of its own
    (`measured`, `_row_scale`) replaces the title's scale its cells inherited, where their
    column states none; a row declaring its magnitude (`magnitudes`, `_row_magnitudes`)
    replaces the scale its cells took from their column or the title (`took`), a percent
    column's aside. A cell's own scale ("$4.4 billion") is kept by both."""
    for k, (i, j) in enumerate(zip(ri.tolist(), ci.tolist(), strict=True)):
        if values[k] is None:
            continue
        m = measured.get(i)
        if m is not None and scales[k] == title_scale and took[j] == title_scale:
            scales[k] = m[0]
            units[k] = m[1] or units[k]
        mag = magnitudes.get(i)
        if mag is not None and scales[k] == took[j] and took[j] != "percent":
            scales[k] = mag


@dataclass(frozen=True)
class ModelCell:
    """One non-empty cell of a table, read in its context."""

    row: int  # the row in the file (1-based line / sheet row / page-table row)
    column: int  # the column in the file (1-based)
    address: str | None  # "C7"; None for sources without a grid
    text: str  # as displayed
    value: float | None  # the displayed number with its sign; None for text
    row_path: tuple[str, ...]
    col_path: tuple[str, ...]
    period: str | None  # canonical time key (`ingest.timekeys`)
    scale: str  # "" | thousand | million | billion | percent
    unit: str
    row_kind: str  # one of ROW_KINDS
    role: str  # the column's role in the schema (numeric, time, categorical, ...)


@dataclass(frozen=True)
class ModelRow:
    """What a row is: its path, its kind and the period it is read in (its label or time
    column, else its section heading, else the table's title)."""

    row: int
    path: tuple[str, ...]
    kind: str
    period: str | None
    # how many leading levels of `path` are the section headings it sits under (the rest name
    # the row itself): the claims name a row by both, "Construction, 2006–07"
    headings: int = 0


@dataclass(frozen=True)
class ModelColumn:
    """What a column is: its header levels, the period they name, its role."""

    column: int
    letter: str | None  # spreadsheet letters for sources with a grid
    path: tuple[str, ...]
    period: str | None
    role: str


@dataclass(frozen=True)
class CellArrays:
    """The non-empty cells, column-wise (a million cells are a million rows of the store, not
    a million objects): indices into the model's rows and columns, and per cell what only the
    cell says — its text, value, and the scale and unit it carries (its own, else its
    column's, else the title's)."""

    row: tuple[int, ...]  # index into TableModel.rows
    column: tuple[int, ...]  # index into TableModel.columns
    text: tuple[str, ...]
    value: tuple[float | None, ...]
    scale: tuple[str, ...]
    unit: tuple[str, ...]


@dataclass(frozen=True)
class TableModel:
    """A table as a person reads it: its title, rows, columns and cells."""

    source: str
    name: str
    sheet: str | None
    page: int | None
    title: str | None
    rows: tuple[ModelRow, ...]
    columns: tuple[ModelColumn, ...]
    arrays: CellArrays

    @property
    def cells(self) -> tuple[ModelCell, ...]:
        """Every cell with its context, in file order (built on demand)."""
        a = self.arrays
        out = []
        for i, j, text, value, scale, unit in zip(a.row, a.column, a.text, a.value, a.scale,
                                                  a.unit, strict=True):
            r, c = self.rows[i], self.columns[j]
            out.append(ModelCell(
                row=r.row, column=c.column,
                address=f"{c.letter}{r.row}" if c.letter else None, text=text, value=value,
                row_path=r.path, col_path=c.path, period=c.period or r.period, scale=scale,
                unit=unit, row_kind=r.kind, role=c.role))
        return tuple(out)

    def cell(self, row_path: Sequence[str], col_path: Sequence[str]) -> ModelCell | None:
        """The cell at a row path and a column path, each matched by its trailing levels
        (case-insensitive): ("Construction", "2006") and ("Employment",) name one cell."""
        def ends(path: tuple[str, ...], want: Sequence[str]) -> bool:
            w = [x.lower() for x in want]
            return [x.lower() for x in path[len(path) - len(w):]] == w if w else True

        hits = [c for c in self.cells if ends(c.row_path, row_path) and ends(c.col_path, col_path)
                and c.role != "time"]
        return hits[0] if len(hits) == 1 else None


def _all_nil(col: CodedColumn) -> bool:
    """Whether every written cell of a column is a nil mark (`cells.is_empty` but not blank),
    read once per distinct cell."""
    marks = [is_empty(v) for v in col.values if not is_blank(v)]
    return bool(marks) and all(marks)


def _corner_period(paths: Sequence[Sequence[str]], naming: Sequence[int], time_pos: int | None,
                   figures: bool) -> str | None:
    """The period the corner cell states ("30 June 2019", "As at December 31, 2019") when the
    table's first column names its rows: a column of names (a naming role, not the table's
    time column) with figures to its right, whose header is a period. A column headed by a
    period elsewhere holds that period's figures; the first column's names are no figures of
    one period, they are the lines the whole grid is dated by."""
    if not paths or 0 not in naming or time_pos == 0 or not figures:
        return None
    return period_of_path(paths[0])


def _period_labels(table: RawTable, kinds: list[str]) -> bool:
    """Is the label column a column of periods (the rows of a time series)? Yes when at least
    MIN_PERIOD_ROWS labels are periods and either PERIOD_LABEL_SHARE of them are, or the
    labels that are not sit together before or after the run of periods (a series followed by
    its statistics: "No. Obs", "Mean"), never between them. Decided on the first
    PERIOD_SAMPLE labels when the first of them are no periods at all (a list of names)."""
    import numpy as np  # at ingest only: reading a stored model needs none
    if not table.rows:
        return False
    col = table.coded[0]
    keep = (np.asarray(kinds, dtype=object) == "data") & ~col.empty
    labels = col.texts[keep].tolist()
    if not any(label_period(x) for x in labels[:PERIOD_SAMPLE]):
        return False
    dated = [label_period(x) is not None for x in labels]
    n = sum(dated)
    if n < MIN_PERIOD_ROWS:
        return False
    if n >= PERIOD_LABEL_SHARE * len(labels):
        return True
    first, last = dated.index(True), len(dated) - 1 - dated[::-1].index(True)
    return all(dated[first:last + 1])


def period_labels(table: RawTable, *, pure: bool = False) -> bool:
    """Are the table's row labels periods — the rows of a series ("2019", "2019-03"),
    headings and trailing statistics aside (`_period_labels`)? `pure`: every labelled line
    (headings, totals and the series' statistics aside) is a period — no "Thereafter" bucket,
    no "Less: interest": those are line items of a schedule, which keeps its lines as such."""
    if not table.rows:
        return False
    kinds = _row_kinds(table)
    if not _period_labels(table, kinds):
        return False
    return not pure or all(label_period(label) is not None or is_statistic_label(label)
                           for r, k in zip(table.rows, kinds, strict=True)
                           if k == "data" and (label := cell_text(r[0])))


def _is_figure_cell(v: Cell) -> bool:
    return v is not None and cell_kind(v) in ("number", "year")


def _is_total_label(label: str) -> bool:
    return bool(label) and is_total_label(label)


def _row_kinds(table: RawTable, heads: Sequence[str | None] | None = None) -> list[str]:
    """Each row's kind (module docstring), read column-wise (`RawTable.coded`): whether a row
    holds anything, a figure or a non-empty cell after its label is an OR over columns of a
    reading made once per distinct cell. `heads`: the rows' `heading_labels`, when known."""
    import numpy as np  # at ingest only: reading a stored model needs none
    rows = table.rows
    n = len(rows)
    if not n:
        return []
    heads = heading_labels(table) if heads is None else heads
    cols = table.coded
    head = np.fromiter((h is not None for h in heads), dtype=bool, count=n)
    filled = np.zeros(n, dtype=bool)
    figure = np.zeros(n, dtype=bool)
    for col in cols[1:]:  # each column asked only about the rows still without a figure
        filled |= col.any_where(lambda v: v is not None, ~filled)
        figure |= col.any_where(_is_figure_cell, ~figure)
    nonempty = np.zeros(n, dtype=bool)  # asked only where it decides: notes or data
    for col in cols[1:]:
        nonempty |= col.any_where(lambda v: not is_blank(v), filled & ~figure & ~head & ~nonempty)
    total = cols[0].read_text(_is_total_label, bool)
    kinds = np.where(
        ~filled, np.where(head, "heading", "data"),
        np.where(figure, np.where(total, "total", "data"),
                 np.where(head, "heading", np.where(nonempty, "notes", "data"))))
    out = kinds.astype(object).tolist()
    unlabelled = np.flatnonzero(figure & cols[0].empty & (kinds == "data")).tolist()
    if unlabelled:
        _unlabelled_totals(table, out, unlabelled)
    return out


# a line a statement deducts from the total above it, its figure printed without a minus
_LESS = re.compile(r"^\s*less\b", re.I)
# the most lines an unlabelled total is checked against (a statement's block of lines; a list
# of 100,000 rows with a blank first cell is not summed row by row)
MAX_TOTAL_PARTS = 60


def _unlabelled_totals(table: RawTable, kinds: list[str], rows: list[int]) -> None:
    """An unlabelled line whose figures add up the labelled lines right above it (back to the
    last heading, total or unlabelled line) is a total, as one labelled "Total" is: a
    statement's subtotal without a name ("Current: Federal", "Current: State", then their sum).
    So is a net line, the total above it and the lines after it ("Less: accumulated
    depreciation" deducted), and one adding up the subtotals above it (a grand total). In
    place, on `kinds`."""
    data = table.rows
    for i in rows:
        parts, above = [], i - 1  # the labelled lines right above, nearest first
        while above >= 0 and kinds[above] == "data" and not is_blank(data[above][0]) and \
                len(parts) <= MAX_TOTAL_PARTS:
            parts.append(data[above])
            above -= 1
        if len(parts) > MAX_TOTAL_PARTS:
            continue
        net = bool(parts) and above >= 0 and kinds[above] == "total"
        if (len(parts) >= 2 and adds_up(data[i], parts)) or (net and adds_up(
                data[i], [*parts, data[above]],
                [*(-1 if _LESS.match(cell_text(p[0])) else 1 for p in parts), 1])) or \
                _adds_up_subtotals(data, kinds, i):
            kinds[i] = "total"


def _adds_up_subtotals(data: Sequence[Sequence[Cell]], kinds: Sequence[str], i: int) -> bool:
    """Whether row `i` adds up two or more totals above it, back to the nearest heading (at
    most `MAX_TOTAL_PARTS` rows up): a grand total."""
    subtotals = []
    for k in range(i - 1, max(-1, i - 1 - MAX_TOTAL_PARTS), -1):
        if kinds[k] == "heading":
            break
        if kinds[k] == "total":
            subtotals.append(data[k])
    return len(subtotals) >= 2 and adds_up(data[i], subtotals)


def build(table: RawTable, schema: TableSchema, typed: pd.DataFrame | None = None) -> TableModel:
    """The model of one table under its inferred schema (rules in the module docstring).
    `typed`: the typed frame of the same rows (`ingest.typed`, not melted), whose parsed
    numbers and time keys are reused; otherwise each distinct value of a column is parsed
    once. Either way the cost is the table's size in lookups, not in parses."""
    import numpy as np  # at ingest only: reading a stored model needs none

    from ingest.cellcodes import object_array
    heads = heading_labels(table)
    kinds = _row_kinds(table, heads)
    sections = section_paths(table, heads)
    periods_down = _period_labels(table, kinds)
    if periods_down:
        kinds = ["metadata" if k == "data" and not is_blank(r[0])
                 and label_period(label := cell_text(r[0])) is None and is_statistic_label(label)
                 else k for r, k in zip(table.rows, kinds, strict=True)]
    by_pos = {c.position: c for c in schema.columns}
    paths = table.column_paths or tuple((h,) if h else () for h in table.header)
    title_scale, title_unit = scale_of_title(table.title)
    title_period = title_year(table.title or "") or None  # the reader's one rule
    time_pos = next((c.position for c in schema.columns if c.role is Role.TIME), None)
    naming = [c.position for c in schema.columns if c.role in _NAMING_ROLES]
    if periods_down and time_pos is None:
        time_pos = 0
    # the corner: a table's first column of names under a period ("30 June 2019" over
    # "Gross carrying amount", "Net receivables") is the row labels' column, and its header
    # dates the whole grid, as a title's period does (and more exactly: the day, where a
    # title's rule reads its year)
    corner = _corner_period(paths, naming, time_pos, any(
        c.role is Role.NUMERIC for c in schema.columns if c.position != 0))
    if corner is not None:
        title_period = corner
    # each column's period: its header's, but not the corner's (that is the whole grid's)
    col_periods = [None if j == 0 and corner is not None else period_of_path(path)
                   for j, path in enumerate(paths)]
    # any other column headed by a period holds that period's figures, whatever else it holds
    # (a maturity date, a hedge ratio "1:1" beside the amounts): it never names the row; nor
    # does a column whose every written cell is a nil mark ("—", "$—": a fair-value level with
    # nothing in it): it is a column of figures, all of them nothing
    naming = [j for j in naming if j != time_pos and col_periods[j] is None
              and not _all_nil(table.coded[j])]
    grid = table.sheet is not None or table.page is not None or table.source.lower().endswith(
        (".csv", ".tsv", ".txt"))
    columns = tuple(ModelColumn(
        column=table.col_locs[j], letter=column_letter(table.col_locs[j]) if grid else None,
        path=tuple(paths[j]), period=col_periods[j],
        role=by_pos[j].role.value if j in by_pos else "text") for j in range(len(paths)))
    keys = None
    if typed is not None and time_pos is not None and time_pos in by_pos and \
            schema.time_column == by_pos[time_pos].name and "__time_key" in typed:
        keys = typed["__time_key"].tolist()
    rows = _model_rows(table, sections, kinds, keys, time_pos, naming, title_period)
    # rows whose label states a measure of their own (`row_measure`), by position: only a
    # title's scale is ever overridden by one, so a table without one (every CSV without a
    # caption) skips reading 100,000 labels for a measure (2-3 s on a 100,000-row table)
    measured = {} if not title_scale else {
        i: m for i, r in enumerate(rows) if r.kind != "heading" and (
            m := _row_scale(" ".join(_own_levels(r)), r.path[:r.headings])) is not None}
    # a statement's line declares its magnitude beside its label; a list's rows are entities
    # whose bracketed names ("Hard (i)", "(from Ah, Kōshien)") the unit lexicon misreads
    magnitudes = _row_magnitudes(rows) if any(p is not None for p in col_periods) else {}
    parts: list[tuple[np.ndarray, ...]] = []
    for j in range(len(paths)):
        col = by_pos.get(j)
        figures = j not in naming and j != time_pos
        col_scale = (col.scale if col is not None and (col.scale or not takes_title_scale(
            col.unit)) else title_scale)
        col_unit = (col.unit if col is not None and col.unit else title_unit)
        if figures and typed is not None and col is not None and col.role is Role.NUMERIC \
                and f"{col.name}__num" in typed:
            parts.append(_typed_cells(table, j, typed, col.name))
            continue
        coded = table.coded[j]
        if not figures:  # a naming column: its non-empty cells' text, no figure read
            ri = np.flatnonzero(~coded.empty)
            parts.append((ri, np.full(len(ri), j, dtype=np.intp), coded.texts[ri],
                          np.full(len(ri), None, dtype=object), np.full(len(ri), "", dtype=object),
                          np.full(len(ri), "", dtype=object)))
            continue
        got = [("", None, "", "") if v is None else _read_cell(v, figures, col_scale, col_unit)
               for v in coded.values]  # once per distinct cell
        ri = np.flatnonzero(np.array([bool(g[0]) for g in got], dtype=bool)[coded.codes])
        at = coded.codes[ri]
        parts.append((ri, np.full(len(ri), j, dtype=np.intp),
                      *(object_array([g[k] for g in got])[at] for k in range(4))))
    ri, ci, texts, values, scales, units = (
        np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, dtype=object)
        for k in range(6))
    if measured or magnitudes:
        # the scale a cell took from its column, else from the title
        took = {j: (c.scale if (c := by_pos.get(j)) is not None and c.scale else title_scale)
                for j in range(len(paths))}
        _own_row_scales(ri, ci, values, scales, units, measured, magnitudes, took, title_scale)
    _first_mark_percent(ri, ci, texts, values, scales, units)
    arrays = _in_file_order(ri, ci, texts, values, scales, units)
    return TableModel(source=table.source, name=table.name, sheet=table.sheet, page=table.page,
                      title=table.title, rows=rows, columns=columns, arrays=arrays)


def _model_rows(table: RawTable, sections: Sequence[tuple[str, ...]], kinds: Sequence[str],
                keys: list | None, time_pos: int | None, naming: list[int],
                title_period: str | None) -> tuple[ModelRow, ...]:
    """Each row's path, kind and period (module docstring). What names a row (its non-empty
    naming cells, and its time cell when that is no period) is read column-wise; the path is
    then assembled per row."""
    import numpy as np  # at ingest only: reading a stored model needs none
    n = len(table.rows)
    cols = table.coded
    if time_pos is None:
        periods: list[str | None] = [None] * n
    elif keys is not None:
        periods = keys
    else:
        periods = cols[time_pos].read_text(label_period).tolist()
    named: list[np.ndarray] = []
    for j in sorted([*naming, *([time_pos] if time_pos is not None else [])]):
        shown = np.where(cols[j].empty, None, cols[j].texts)
        if j == time_pos:
            shown = np.where(np.fromiter((p is None for p in periods), bool, count=n),
                             shown, None)
        named.append(shown)
    names_of = [tuple(x for x in names if x is not None) for names in zip(
        *(c.tolist() for c in named), strict=True)] if named else [()] * n
    section_period: dict[tuple[str, ...], str | None] = {}
    rows: list[ModelRow] = []
    prev: ModelRow | None = None
    for i, (sec, kind, names, row_period) in enumerate(zip(
            sections, kinds, names_of, periods, strict=True)):
        # a heading's own row: the path it opens (its label is the path's last level)
        path = sec if kind == "heading" and sec else (*sec, *names)
        if sec not in section_period:
            section_period[sec] = next((p for p in map(label_period, reversed(sec)) if p), None)
        if prev is not None and kind == "data" and prev.kind in ("data", "total") and \
                prev.path[:prev.headings] == sec and len(names) == 1 and \
                _OF_ABOVE.match(names[0]):
            # "Percentage of revenue" under "Product": the share is the line above's; it is
            # named by that line, then by itself ("Product" > "Percentage of revenue")
            path = (*prev.path, *names)
        prev = ModelRow(row=table.row_locs[i], path=path, kind=kind,
                        period=row_period or section_period[sec] or title_period,
                        headings=len(sec))
        rows.append(prev)
    return tuple(rows)


# a column's bare figures are read as percentages after a first "100.0 %" only up to this size
PERCENT_COLUMN_MAX = 100.0


def _first_mark_percent(ri: np.ndarray, ci: np.ndarray, texts: np.ndarray,
                        values: np.ndarray, scales: np.ndarray, units: np.ndarray) -> None:
    """A column whose first figure carries "%" and whose other figures carry no mark and are
    at most `PERCENT_COLUMN_MAX` in size is a column of percentages ("Sales 100.0 %" over
    "Gross profit 40.0"): statements set the unit on the first line only, as they set "$".
    Those figures take the percent scale (in place, on the cell arrays `build` assembles)."""
    import numpy as np  # at ingest only: reading a stored model needs none
    has = np.not_equal(values, None)  # one C loop over the cells, not a generator
    for j in np.unique(ci[has]).tolist():
        ks = np.flatnonzero(has & (ci == j))
        ks = ks[np.argsort(ri[ks], kind="stable")]
        first, rest = ks[0], ks[1:].tolist()
        if len(rest) < 2 or "%" not in texts[first] or scales[first] != "percent":
            continue
        if all(not any(ch in texts[k] for ch in "%$€£¥") and scales[k] != "percent"
               and abs(values[k] or 0.0) <= PERCENT_COLUMN_MAX for k in rest):
            for k in rest:
                scales[k], units[k] = "percent", "%"


def is_figure(text: str) -> bool:
    """A path level that is a figure ("(12)%", "690,791", "(55) bps"), not a name: a text
    column of changes beside the label lands in the row's path. Its "%" says nothing of the
    row's measure (`row_measure`), and it names no row (`hyrag.answer.programs.link`)."""
    t = text.strip().strip("()$%€£ ").replace(",", "").replace(".", "").replace("-", "")
    return not t or t.isdigit() or (t.endswith("bps") and t[:-3].strip("() ").isdigit())


# a footnote mark a report prints after a row's label: "Audit Fees (1)", "Other items(2)",
# "Total segment assets:(1)", "Net revenue*", "Capital leases ¹", possibly several
# ("(1)(2)"); a letter in brackets is a mark in lower case only ("Net income (a)", not
# "Class (A)")
_FOOTNOTE_MARK = re.compile(r"(?:\s*(?:\(\d{1,2}\)|\([a-z]\)|[*†‡]+|[¹²³⁰-⁹]+))+\s*$")


def without_footnote_mark(label: str) -> str:
    """A row's label as it names the row, without the footnote mark printed after it
    (`_FOOTNOTE_MARK`): the mark points at a note below the table and names nothing, so a
    question about "audit fees" names "Audit Fees (1)" as fully as "Total Fees" names "total
    fees" (`hyrag.answer.programs.link`). A label that is nothing but a mark is kept."""
    bare = _FOOTNOTE_MARK.sub("", label).rstrip(" :")
    return bare if bare else label


def _row_scale(own: str, headings: Sequence[str]) -> tuple[str, str] | None:
    """The measure a row's figures are stated in when it is not the title's (`row_measure`):
    its own label's percentage first; then the section headings above it, innermost first —
    a heading that declares a magnitude ("Shares used (in millions)") keeps the title's
    reading for the rows beneath, whatever their labels say, and one that states a measure
    ("Per share data:", "As a percentage of revenue:") gives it; then its own label's."""
    mine = row_measure(own)
    if mine is not None and mine[0] == "percent":
        return mine
    for h in reversed(headings):
        scale, _ = scale_hint(h)
        if scale and scale != "percent":
            return None
        got = row_measure(h)
        if got is not None and (mine is None or got[0] == "percent"):
            return got
    return mine


def _in_file_order(*columns: np.ndarray) -> CellArrays:
    """The cells, gathered column by column, in file order (by row, then column). Each
    column's cells are in row order and the columns come left to right, so a stable sort by
    row alone is that order: one NumPy argsort, not a Python key function per cell."""
    import numpy as np  # at ingest only: reading a stored model needs none
    order = np.argsort(np.asarray(columns[0], dtype=np.int64), kind="stable")
    return CellArrays(*(tuple(np.asarray(c)[order].tolist()) for c in columns))


def _typed_cells(table: RawTable, j: int, typed: pd.DataFrame,
                 name: str) -> tuple[np.ndarray, ...]:
    """Column `j`'s cells from the typed frame, as (row, column, text, value, scale, unit)
    arrays: its parsed value, scale and unit per row (the display text as the file shows
    it)."""
    import numpy as np  # at ingest only: reading a stored model needs none

    from ingest.cellcodes import object_array
    coded = table.coded[j]
    ri = np.flatnonzero(~coded.empty)
    texts = coded.read(lambda v: v if v.__class__ is str else cell_text(v))[ri]
    num = typed[f"{name}__num"]
    has = num.notna().to_numpy(dtype=bool)[ri]
    values = object_array(num.to_numpy(dtype=float, na_value=np.nan)[ri].tolist())
    values[~has] = None
    # a cell without a figure has neither scale nor unit; a figure without one has ""
    scales, units = (_blank_where(typed[f"{name}__{part}"].to_numpy(dtype=object)[ri], ~has)
                     for part in ("scale", "unit"))
    return ri, np.full(len(ri), j, dtype=np.intp), texts, values, scales, units


def _blank_where(labels: np.ndarray, drop: np.ndarray) -> np.ndarray:
    """`labels` (an object array of strings and None, a copy of its own) with "" where `drop`
    is set or the label is empty, in place: NumPy masks instead of a Python loop per cell."""
    import numpy as np  # at ingest only: reading a stored model needs none
    labels[drop | np.equal(labels, None) | np.equal(labels, "")] = ""
    return labels


def _read_cell(v: object, figures: bool, col_scale: str,
               col_unit: str) -> tuple[str, float | None, str, str]:
    """(text, value, scale, unit) of one cell value; text '' for an empty cell."""
    if is_blank(v):
        return ("", None, "", "")
    text = cell_text(v)
    parsed = parse_number(v) if figures else None
    if parsed is None or parsed.value is None:
        return (text, None, "", "")
    return (text, parsed.value, parsed.scale or col_scale, parsed.unit or col_unit)
