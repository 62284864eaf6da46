"""The section each row of a line-item table sits under.

Financial statements head groups of rows with a row that holds a label and no figure:
"Current:", "Non-current:", "Revenue:", "Amounts falling due within one year", "UK and Ireland
only". The rows beneath are read in that context — "Loans" under "Non-current:" is the
non-current loans, and a label repeated under two headings ("Client services" under "Revenue:"
and under "Cost of revenue:") is two different line items. The heading carries no number, so no
claim is stored for it; this module records, for every row, the heading it sits under, and the
claims of that row keep it (the locator's "section"), so a reader can tell the two apart and a
question naming the section can be read.

A row heads a section when its first cell is a label (words, not a number, not a caption in
brackets such as "(In thousands)" or a scale declaration) and every other cell is empty, and
at least one row with a figure follows before the next heading. The section runs to the next
heading; a "Total ..." row ends it, and belongs to it only when its figures are the sum of the
section's rows (what an analyst checks: the closing total of "Current:" adds up the current
items; a grand total after the last section does not, and heads no section). An unlabelled
row whose figures are that sum (a subtotal without a name) ends it too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ingest.captions import scale_declaration
from ingest.cells import is_empty
from ingest.numbers import decimals_shown, parse_number
from ingest.types import Cell, RawTable

_TOTAL = re.compile(r"^\s*total\b", re.I)
# The names a statistic of a series goes by when it is printed under the series' rows ("No.
# Obs", "Mean", "Std. Dev."): a figure about the whole column, not a line item of it. Deliberately
# only names of statistics: a "Thereafter" bucket, a "Less: interest" adjustment or a "Present
# value" line under a maturity schedule are line items with amounts of their own.
_STATISTIC = re.compile(
    r"^\s*(?:no\.?\s*(?:of\s+)?obs(?:ervations)?\.?|n|obs\.?|observations|count|mean|"
    r"average|median|mode|std\.?\s*dev(?:iation)?\.?|s\.?\s?d\.?|standard\s+deviation|"
    r"std\.?\s*err(?:or)?\.?|standard\s+error|variance|min(?:imum)?\.?|max(?:imum)?\.?|"
    r"range|skewness|kurtosis|(?:\d{1,2}(?:st|nd|rd|th)\s+)?percentile)\s*:?\s*$",
    re.I)
_LETTER = re.compile(r"[^\W\d_]{2,}")
# a year alone on its line, closed by a colon ("2019:"): a heading of the rows beneath it, as
# "Fiscal 2019" is. A bare "2019" without the colon stays a period line, not a heading
_YEAR_LINE = re.compile(r"(?:19|20)\d{2}:")


def _blank(v: Cell) -> bool:
    """Nothing in the cell: a nil mark ("—", "$—") is a figure of nothing, which a line item
    shows ("Preferred stock | $— | $—") and a heading does not."""
    return v is None or (isinstance(v, str) and not v.strip()) or (
        isinstance(v, float) and math.isnan(v))


def heading_label(row: Sequence[Cell]) -> str | None:
    """The row's label when the row is a heading: a worded first cell and nothing else."""
    if len(row) < 2 or not isinstance(row[0], str) or any(not _blank(v) for v in row[1:]):
        return None
    text = " ".join(row[0].split())
    if _YEAR_LINE.fullmatch(text):
        return text  # "2019:" over the quarters beneath it: the period they are read in
    if not _LETTER.search(text) or re.fullmatch(r"\(.*\)", text):
        return None  # "(In thousands)", "12.5": a caption or a stray figure, not a heading
    if scale_declaration(text)[0] and len(text.split()) <= 4:
        return None  # "$ in millions", "(USD thousands)": the table's scale, not a section
    return text


def heading_labels(table: RawTable) -> list[str | None]:
    """`heading_label` of every row. Only a row whose cells after the first are all blank can
    be a heading; those are found column-wise (`RawTable.coded`), so a table of figures, where
    no row is one, costs a few array operations instead of a call per row."""
    import numpy as np  # at ingest only: the answer route reads headings without NumPy
    rows = table.rows
    out: list[str | None] = [None] * len(rows)
    if len(table.header) < 2 or not rows:
        return out
    cols = table.coded
    maybe = cols[0].read(lambda v: isinstance(v, str), bool)
    for col in cols[1:]:
        maybe &= col.read(_blank, bool)
    for i in np.flatnonzero(maybe).tolist():
        out[i] = heading_label(rows[i])
    return out


def _number(v: Cell) -> tuple[float, int] | None:
    """A figure as (value, decimals shown), for the check that a total adds its rows up."""
    if isinstance(v, bool) or is_empty(v):
        return None
    if isinstance(v, int | float):
        return (float(v), 0) if math.isfinite(v) else None
    p = parse_number(v)
    if p is None:
        return None
    return float(p.value), decimals_shown(v)


def adds_up(total: Sequence[Cell], parts: list[Sequence[Cell]],
            signs: Sequence[int] | None = None) -> bool:
    """Whether the total's figures are the sums of the parts' in every column it fills (a
    rounding unit per part of slack: statements round each line on its own). `signs`: +1 / -1
    per part, for a line a statement deducts ("Less: accumulated depreciation", printed
    without a minus)."""
    checked = 0
    sign = list(signs) if signs is not None else [1] * len(parts)
    for j in range(1, len(total)):
        t = _number(total[j])
        if t is None:
            continue
        vals = [(k * n[0], n[1]) for p, k in zip(parts, sign, strict=True)
                if (n := _number(p[j])) is not None]
        if not vals:
            return False
        dec = max([t[1], *(d for _, d in vals)])
        slack = len(vals) * 10.0 ** -dec + 1e-9
        if abs(math.fsum(v for v, _ in vals) - t[0]) > slack:
            return False
        checked += 1
    return checked > 0


def row_sections(table: RawTable,
                 heads: Sequence[str | None] | None = None) -> tuple[str | None, ...]:
    """Per row of the table, the label of the section heading it sits under (None: none).

    A heading's own row has no section of its own (it has no figures to qualify). Nested
    headings are not stacked: the nearest heading above is the row's section. `heads`: the
    rows' `heading_labels`, when the caller has them."""
    rows = table.rows
    out: list[str | None] = [None] * len(rows)
    heads = heading_labels(table) if heads is None else heads
    if sum(h is not None for h in heads) * 2 > len(rows):
        return tuple(out)  # more headings than rows: a list of names, not a statement
    current: str | None = None
    parts: list[Sequence[Cell]] = []
    for i, r in enumerate(rows):
        if heads[i] is not None:
            follows = next((k for k in range(i + 1, len(rows)) if heads[k] is not None),
                           len(rows))
            figures = any(not is_empty(v) for x in rows[i + 1:follows] for v in x[1:])
            current, parts = (heads[i], []) if figures else (None, [])
            continue
        if current is None:
            continue
        label = r[0] if isinstance(r[0], str) else ("" if is_empty(r[0]) else str(r[0]))
        if _TOTAL.match(label) or (not label.strip() and parts and adds_up(r, parts)):
            # "Total ..." ends the section; so does an unlabelled line adding it up (a
            # statement's subtotal without a name). Either belongs to it when it adds it up.
            if parts and adds_up(r, parts):
                out[i] = current
            current, parts = None, []
            continue
        out[i] = current
        if any(not is_empty(v) for v in r[1:]):
            parts.append(r)
    return tuple(out)


def is_total_label(label: str) -> bool:
    """A line that says it is a total ("Total current assets", "TOTAL")."""
    return bool(_TOTAL.match(label or ""))


def is_statistic_label(label: str) -> bool:
    """A line that names a statistic of the column above it ("No. Obs", "Mean", "Std. Dev."),
    as a series printed with its summary lines shows them."""
    return bool(_STATISTIC.match(label or ""))


def section_paths(table: RawTable,
                  heads: Sequence[str | None] | None = None) -> tuple[tuple[str, ...], ...]:
    """Per row, the headings it sits under, outermost first — the row path's sections.

    Headings printed one right under another, with no line between, nest ("Assets" over
    "Current:"); a heading after lines of figures takes the place of the innermost one
    ("Non-current:" after the current lines). Where a row's section ends (`row_sections`: a
    total, a subtotal, the next heading) its path ends too. A heading's own row gets the path
    it opens. `heads`: the rows' `heading_labels`, when the caller has them."""
    heads = heading_labels(table) if heads is None else heads
    nearest = row_sections(table, heads)
    if not any(nearest):
        return tuple((h,) if h and any(nearest) else () for h in heads)
    out: list[tuple[str, ...]] = []
    stack: list[str] = []
    after_heading = False
    for i, h in enumerate(heads):
        if h is not None:
            stack = [*stack, h] if after_heading else [*stack[:-1], h]
            after_heading = True
            out.append(tuple(stack))
            continue
        after_heading = False
        if nearest[i] is None:
            out.append(())
        elif stack and stack[-1] == nearest[i]:
            out.append(tuple(stack))
        else:
            out.append((nearest[i],))
    return tuple(out)
