"""Wide tables whose headers are periods become long (entity, measure, period) tables.

Financial statements put periods across the top (`Q1 2023 ... FY2024`); a claim must name one
period, so each cell of such a table becomes one row of the long form. Headers that carry a
measure and a period together ("Revenue 2023", "Units Q1 2024") are split into both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.cells import is_empty
from ingest.timekeys import parse_time_key
from ingest.types import RawTable

MIN_PERIOD_COLUMNS = 2  # fewer period headers than this is an ordinary table with a date column


@dataclass(frozen=True)
class WideSpec:
    label_positions: tuple[int, ...]  # columns that name the row (line item, region)
    extra_positions: tuple[int, ...]  # numeric columns without a period ("Growth %")
    period_positions: tuple[int, ...]
    measures: tuple[str | None, ...]  # per period column: measure text from the header, if any
    periods: tuple[str, ...]  # per period column: the period part of the header


@dataclass(frozen=True)
class LongTable:
    """The long form plus the per-row sheet column of each value, so claims keep cell addresses."""

    table: RawTable
    value_col_locs: tuple[int, ...]
    value_headers: tuple[str, ...]
    has_measure: bool  # a `measure` column exists (from headers or from extra numeric columns)
    header_measures: bool = False  # the period headers themselves name measures ("Revenue 2023")


def _split_header(h: str, fy: int) -> tuple[str | None, str] | None:
    text = str(h).strip()
    if not text:
        return None
    if parse_time_key(text, fiscal_year_start_month=fy) is not None:
        return None, text
    words = text.replace("_", " ").split()
    # try the longest period suffix, then prefix: "Revenue Q1 2024", "2024 Revenue"
    for k in range(min(3, len(words) - 1), 0, -1):
        tail = " ".join(words[-k:])
        if parse_time_key(tail, fiscal_year_start_month=fy) is not None:
            return " ".join(words[:-k]), tail
        head = " ".join(words[:k])
        if parse_time_key(head, fiscal_year_start_month=fy) is not None:
            return " ".join(words[k:]), head
    return None


def detect_wide(table: RawTable, *, fiscal_year_start_month: int = 1) -> WideSpec | None:
    """A table is wide when at least two headers are periods (alone or after a measure) and
    every other column looks like a label rather than a measure of its own."""
    labels: list[int] = []
    periods: list[int] = []
    measures: list[str | None] = []
    period_text: list[str] = []
    for j, h in enumerate(table.header):
        split = _split_header(h, fiscal_year_start_month)
        if split is None or (j == 0 and split[0] is None and _label_like(table, j)):
            labels.append(j)
        else:
            periods.append(j)
            measures.append(split[0] or None)
            period_text.append(split[1])
    if len(periods) < MIN_PERIOD_COLUMNS or not labels:
        return None
    extras = [j for j in labels[1:] if _numeric_like(table, j)]
    labels = [j for j in labels if j not in extras]
    if not labels:
        return None
    # The period columns must hold values (numbers or blanks), not more labels.
    filled = 0
    numeric = 0
    for r in table.rows[:200]:
        for j in periods:
            v = r[j]
            if v is None or (isinstance(v, str) and not v.strip()):
                continue
            filled += 1
            if isinstance(v, int | float) or re.search(r"\d", str(v)):
                numeric += 1
    if filled and numeric / filled < 0.6:
        return None
    return WideSpec(
        tuple(labels), tuple(extras), tuple(periods), tuple(measures), tuple(period_text)
    )


def _numeric_like(table: RawTable, j: int) -> bool:
    vals = [r[j] for r in table.rows[:200] if not is_empty(r[j])]
    if not vals:
        return False
    num = sum(
        isinstance(v, int | float) or bool(re.fullmatch(r"[\s$€£(+-]*[\d.,]+\s*[%)kmb]*", str(v)))
        for v in vals
    )
    return num >= 0.8 * len(vals)


def _label_like(table: RawTable, j: int) -> bool:
    vals = [r[j] for r in table.rows[:50] if r[j] is not None]
    return bool(vals) and sum(isinstance(v, str) and not re.fullmatch(r"[\d.,\s()%$-]+", v) for v in vals) >= 0.6 * len(vals)


def melt(table: RawTable, spec: WideSpec) -> LongTable:
    has_measure = any(m for m in spec.measures) or bool(spec.extra_positions)
    label_headers = [table.header[j] for j in spec.label_positions]
    header = [*label_headers]
    if has_measure:
        header.append("measure")
    header += ["period", "value"]
    rows: list[tuple] = []
    row_locs: list[int] = []
    pages: list[int] = []
    col_locs: list[int] = []
    headers: list[str] = []
    for i, r in enumerate(table.rows):
        labels = tuple(r[j] for j in spec.label_positions)
        if all(is_empty(v) for v in labels) and all(
            is_empty(r[j]) for j in (*spec.period_positions, *spec.extra_positions)
        ):
            continue  # a separator row; a row with values but no label still lands
        for k, j in enumerate(spec.period_positions):
            v = r[j]
            if v is None or (isinstance(v, str) and not v.strip()):
                continue
            row = list(labels)
            if has_measure:
                row.append(spec.measures[k] or "")
            row += [spec.periods[k], v]
            rows.append(tuple(row))
            row_locs.append(table.row_locs[i])
            if table.row_pages:
                pages.append(table.row_pages[i])
            col_locs.append(table.col_locs[j])
            headers.append(table.header[j])
        for j in spec.extra_positions:
            v = r[j]
            if v is None or (isinstance(v, str) and not v.strip()):
                continue
            rows.append((*labels, table.header[j], None, v))
            row_locs.append(table.row_locs[i])
            if table.row_pages:
                pages.append(table.row_pages[i])
            col_locs.append(table.col_locs[j])
            headers.append(table.header[j])
    long_col_locs = [table.col_locs[j] for j in spec.label_positions]
    extra = len(header) - len(long_col_locs)
    # Synthetic columns (measure, period, value) have no single sheet column; the value's real
    # column is kept per row in `value_col_locs`.
    long_col_locs += [0] * extra
    long = RawTable(
        source=table.source,
        name=table.name,
        header=tuple(header),
        rows=tuple(rows),
        row_locs=tuple(row_locs),
        col_locs=tuple(long_col_locs),
        sheet=table.sheet,
        page=table.page,
        table_index=table.table_index,
        title=table.title,
        notes=(*table.notes, f"melted {len(spec.period_positions)} period columns into rows"),
        row_pages=tuple(pages),
        decimal_mark=table.decimal_mark,
    )
    return LongTable(
        long, tuple(col_locs), tuple(headers), has_measure, any(m for m in spec.measures)
    )
