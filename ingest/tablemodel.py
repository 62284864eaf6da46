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
  reading of the header and the cells), else the table's title ("(in thousands)");
- the **kind of row** it sits in: `data`; `heading` (a label alone over the rows beneath);
  `total` (a line that says it is one: "Total ...", or an unlabelled line that adds up the lines
  above); `metadata` (a row among rows labelled by periods whose own label is no period: "No.
  Obs", "Mean" under a monthly series — a statistic of the series, not one of its periods);
  `notes` (a row whose cells hold text and no figure).

Pure: no database, no engine; `build` is a function of the raw table and its schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ingest.cells import cell_kind, cell_text, is_empty
from ingest.numbers import parse_number
from ingest.schema import Role, TableSchema, scale_of_title
from ingest.sections import heading_label, is_total_label, section_paths
from ingest.timekeys import parse_time_key
from ingest.types import RawTable, column_letter

ROW_KINDS = ("data", "heading", "total", "metadata", "notes")
# A label column is a column of periods when at least this share of its labelled rows parse as
# one (and at least MIN_PERIOD_ROWS do): the other rows are then statistics of the series.
PERIOD_LABEL_SHARE = 0.75
MIN_PERIOD_ROWS = 2
_NAMING_ROLES = (Role.ID, Role.CATEGORICAL, Role.TEXT)


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
class TableModel:
    """A table as a person reads it: its title and the cells, each in its context."""

    source: str
    name: str
    sheet: str | None
    page: int | None
    title: str | None
    cells: tuple[ModelCell, ...]

    def cell(self, row_path: Sequence[str], col_path: Sequence[str]) -> ModelCell | None:
        """The cell at a row path and a column path, each matched by its trailing levels
        (case-insensitive): ("Construction", "2006-07") and ("Employment",) name one cell."""
        def ends(path: tuple[str, ...], want: Sequence[str]) -> bool:
            w = [x.lower() for x in want]
            return [x.lower() for x in path[len(path) - len(w):]] == w if w else True

        hits = [c for c in self.cells if ends(c.row_path, row_path) and ends(c.col_path, col_path)
                and c.role != "time"]
        return hits[0] if len(hits) == 1 else None


def _period(text: str) -> str | None:
    if not text:
        return None
    try:
        tk = parse_time_key(text)
    except ValueError:
        return None
    return tk.key if tk is not None else None


def _period_of_path(path: Sequence[str]) -> str | None:
    """The innermost level of a path that is a period ("International" over "September 30,
    2018": 2018-09-30)."""
    for level in reversed(path):
        p = _period(level)
        if p is not None:
            return p
    return None


def _period_labels(table: RawTable, kinds: list[str]) -> bool:
    """Is the label column a column of periods (the rows of a time series)? Yes when at least
    MIN_PERIOD_ROWS labels are periods and either PERIOD_LABEL_SHARE of them are, or the
    labels that are not sit together before or after the run of periods (a series followed by
    its statistics: "No. Obs", "Mean"), never between them."""
    labels = [cell_text(r[0]) for r, k in zip(table.rows, kinds, strict=True)
              if k == "data" and not is_empty(r[0])]
    dated = [_period(x) is not None for x in labels]
    n = sum(dated)
    if n < MIN_PERIOD_ROWS:
        return False
    if n >= PERIOD_LABEL_SHARE * len(labels):
        return True
    first, last = dated.index(True), len(dated) - 1 - dated[::-1].index(True)
    return all(dated[first:last + 1])


def period_labels(table: RawTable) -> bool:
    """Are the table's row labels periods — the rows of a series ("2019", "2006–07",
    "2019-03"), headings and trailing statistics aside (`_period_labels`)?"""
    return bool(table.rows) and _period_labels(table, _row_kinds(table))


def _row_kinds(table: RawTable) -> list[str]:
    out = []
    for r in table.rows:
        label = cell_text(r[0]) if r else ""
        rest = r[1:]
        figures = any(cell_kind(v) in ("number", "year") for v in rest)
        if heading_label(r) is not None:
            out.append("heading")
        elif label and is_total_label(label) and figures:
            out.append("total")
        elif not figures and any(not is_empty(v) for v in rest):
            out.append("notes")
        else:
            out.append("data")
    return out


def build(table: RawTable, schema: TableSchema) -> TableModel:
    """The model of one table under its inferred schema (rules in the module docstring)."""
    kinds = _row_kinds(table)
    sections = section_paths(table)
    periods_down = _period_labels(table, kinds)
    if periods_down:
        kinds = ["metadata" if k == "data" and not is_empty(r[0])
                 and _period(cell_text(r[0])) is None else k
                 for r, k in zip(table.rows, kinds, strict=True)]
    cols = {c.position: c for c in schema.columns}
    paths = table.column_paths or tuple((h,) if h else () for h in table.header)
    title_scale, title_unit = scale_of_title(table.title)
    title_period = _title_period(table.title)
    time_pos = next((c.position for c in schema.columns if c.role is Role.TIME), None)
    naming = [c.position for c in schema.columns if c.role in _NAMING_ROLES]
    if periods_down and time_pos is None:
        time_pos = 0
    naming = [j for j in naming if j != time_pos]
    col_periods = [_period_of_path(p) for p in paths]
    grid = table.sheet is not None or table.page is not None or table.source.lower().endswith(
        (".csv", ".tsv", ".txt"))
    cells: list[ModelCell] = []
    for i, r in enumerate(table.rows):
        row_period = _period(cell_text(r[time_pos])) if time_pos is not None else None
        # a row of a period column whose label is no period is named by it ("No. Obs")
        own = [j for j in naming if not is_empty(r[j])] + (
            [time_pos] if time_pos is not None and row_period is None
            and not is_empty(r[time_pos]) else [])
        names = tuple(cell_text(r[j]) for j in sorted(own))
        row_path = (*sections[i], *names)
        section_period = next((p for p in map(_period, reversed(sections[i])) if p), None)
        for j, v in enumerate(r):
            if is_empty(v):
                continue
            col = cols.get(j)
            text = cell_text(v)
            parsed = parse_number(v) if j not in naming and j != time_pos else None
            value = parsed.value if parsed is not None else None
            scale = (parsed.scale if parsed is not None and parsed.scale else
                     col.scale if col is not None and col.scale else title_scale
                     if value is not None else "")
            unit = (parsed.unit if parsed is not None and parsed.unit else
                    col.unit if col is not None and col.unit else title_unit
                    if value is not None else "")
            cells.append(ModelCell(
                row=table.row_locs[i], column=table.col_locs[j],
                address=f"{column_letter(table.col_locs[j])}{table.row_locs[i]}" if grid
                else None,
                text=text, value=value, row_path=row_path, col_path=tuple(paths[j]),
                period=col_periods[j] or row_period or section_period or title_period,
                scale=scale, unit=unit, row_kind=kinds[i],
                role=col.role.value if col is not None else "text"))
    return TableModel(source=table.source, name=table.name, sheet=table.sheet, page=table.page,
                      title=table.title, cells=tuple(cells))


def _title_period(title: str | None) -> str | None:
    """The one year a title names, as a period ("Common Stock Price Range 2018")."""
    import re

    years = set(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", title or ""))
    return years.pop() if len(years) == 1 else None
