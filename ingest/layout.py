"""The header block of a report table: where it ends, its levels per column, its captions.

A report prints a table's header as several rows: a caption spanning the columns ("Years Ended
September 30,"), group headings over runs of columns ("Domestic | | International | "), the
periods ("2019 | 2018"), and a units row ("(in millions)", "$'000", "RMB'Million"). A person
reads each column's name as its own path through those rows — "International, September 30,
2018" — and reads the spanning captions and units as said of every column, not as part of one
column's name. Gluing every header row into one string per column, or dropping the rows that are
not the last, loses what the analyst sees; this module keeps each level.

The rules, each a function below:

1. Extent (`header_extent`): the header is the leading rows of the block with no amount right of
   the first column; the body starts at the first row that has one. Label-only rows right above
   it ("Current:", "Revenue:") head the first rows' section, as the same rows do lower down:
   they are body rows, unless they are the only header there is. A block with no amount at all
   is not a report table (`None`: the generic header finder decides).
2. Group headings (`spread_groups`): a row naming two or more groups that tile the amount
   columns in equal widths writes each group once, in its first column, as a merged cell shows
   it; the columns after it, up to the next group, are that group's too.
3. Spanning rows (`spanning`): a row with one heading only over several amount columns, or one
   scale repeated over every column, says the same of every column: it is a caption of the
   table, not a level of one column's name.
4. Levels (`column_paths`): per column, the non-spanning header cells top to bottom; a column
   with only a spanning caption above it is named by the caption.
5. Scale (`caption_scale`): a scale the captions, the corner cells or a units row name ("$ in
   millions", "U.S. $ in thousands", "€m" repeated over the columns) is the table's, and every
   amount carries it (`scale_title`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.captions import scale_declaration
from ingest.cells import cell_kind, cell_text
from ingest.numbers import scale_hint
from ingest.types import Cell
from ingest.units import CURRENCY_CODES, SCALE_WORDS, SYMBOLS

MAX_HEADER_ROWS = 8  # a report header deeper than this is more likely body rows without figures
# A display of one amount with its restatement in brackets ("1.51% ( 1.51 % )"): an amount.
_DOUBLE_DISPLAY = re.compile(r"^[$\u20ac\u00a3\u00a5(\-\u2212\s]*\d[\d,.]*\s*%?\s*\)?\s*\(.*\)$")
_CURRENCY = re.compile(r"[$\u20ac\u00a3\u00a5]|\b(?:US\$|USD|EUR|GBP|RMB|HK\$)\b")
_FOOTNOTED_YEAR = re.compile(r"^(?:19|20)\d\d\s*\(\w{1,2}\)$")
# an amount with its scale word: "1.2 million", "$4.4 billion", "(0.3) thousand"
_SCALED_AMOUNT = re.compile(r"^[$\u20ac\u00a3\u00a5]?\s*[-\u2212(]?\s*\d[\d,.]*\s*\)?\s*"
                            r"(?:thousands?|millions?|billions?|bn|mn|m|k)\.?$", re.I)
_PLAIN_AMOUNT = re.compile(r"^\(?[-\u2212]?\(?\d[\d,]*(?:\.\d+)?\s*%?\)?$")


def is_amount(v: Cell) -> bool:
    """A figure a body row shows: a number that is not a bare year (a header's period),
    currency and brackets around it or inside them ("$(2,085)", "($ 1,234)") included."""
    kind = cell_kind(v)
    if kind == "number":  # a year printed letter-spaced ("2 0 1 8") is still a year, and a
        # number cut off by a comma ("31," of "December 31," split over two cells) is a date's
        text = cell_text(v)
        return cell_kind(text.replace(" ", "")) != "year" and not text.endswith(",")
    if kind != "text":
        return False
    text = cell_text(v)
    if _FOOTNOTED_YEAR.match(text):  # "2018 (4)": a period heading with its footnote mark
        return False
    bare = _CURRENCY.sub("", text).replace(" ", "")
    return bool(_DOUBLE_DISPLAY.match(text) or _SCALED_AMOUNT.match(text) or (
        bare != text.replace(" ", "") and _PLAIN_AMOUNT.match(bare)))


def holds_figures(row: Sequence[Cell]) -> bool:
    """Does a row show a figure right of its first column?"""
    return any(is_amount(c) for c in row[1:])


def _labels_only(row: Sequence[Cell]) -> bool:
    return bool(cell_text(row[0])) and not any(cell_text(c) for c in row[1:])


def _names_scale(text: str) -> bool:
    return bool(caption_scale(text))


def header_extent(rows: Sequence[Sequence[Cell]], start: int = 0) -> tuple[int, int] | None:
    """(first header row, first body row) of a report table block (rule 1); None when no row
    within reach holds figures. (start, start) when the first row already does: the block has
    no header of its own (a table's rows continued after a blank line)."""
    k = next((i for i in range(start, min(len(rows), start + MAX_HEADER_ROWS + 1))
              if holds_figures(rows[i]) or (i > start and _starts_body(rows[start], rows[i]))),
             None)
    if k is None:
        return None
    while k - 1 > start and _labels_only(rows[k - 1]) \
            and not re.search(r"^\(.*\)$", cell_text(rows[k - 1][0])) \
            and not _names_scale(cell_text(rows[k - 1][0])) \
            and any(cell_text(c) for r in rows[start:k - 1] for c in r[1:]):
        k -= 1
    return start, k


def _starts_body(first: Sequence[Cell], row: Sequence[Cell]) -> bool:
    """Is `row`, below the header's first row, a body row though it shows no figure? Not when
    it is a units row ("2019 | £m | £m", "(In thousands) | $ | $"). Yes when its label is a
    period or a number (header rows below the first are labelled by words, or not at all), or
    when the first row already names every column, each once, and `row` has a label of its
    own: then it is the first line of a table whose lines do not all hold figures ("2001 |
    Formula One | Test driver")."""
    marks = [cell_text(c) for c in row[1:] if cell_text(c)]
    if marks and all(units_only(m) for m in marks):
        return False
    label = cell_text(row[0])
    if label and cell_kind(row[0]) in ("year", "number", "date"):
        return True
    names = [cell_text(c) for c in first]
    return all(names) and len(set(names)) == len(names) and bool(label)


def units_only(text: str) -> bool:
    """A cell that says nothing but a scale and a currency: a scale declaration as a caption
    writes it ("(In thousands of Canadian dollars)", `captions.scale_declaration`), or marks
    alone ("$", "£m", "RMB'Million", "U.S. $ in thousands") — every word a currency symbol or
    code, a scale word, or "in" / "of" between them (`ingest.units`)."""
    if any(ch.isdigit() for ch in text):  # "1.2 million" is an amount, not a units mark
        return False
    scale, unit = scale_hint(text) if text else ("", "")
    if not (scale in ("thousand", "million", "billion") or unit.upper() in CURRENCY_CODES):
        return False
    if scale_declaration(text)[1] == text.strip():
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    return all(w in SCALE_WORDS or w in SYMBOLS or w.upper() in CURRENCY_CODES
               or w in ("in", "of", "u", "s") for w in words)


def spread_groups(head: Sequence[Sequence[Cell]]) -> list[list[str]]:
    """The header rows as text, each group heading spread over the columns it stands over
    (rule 2). Only a row whose groups tile the amount columns from the first one in equal
    widths (the same sub-columns under each group) is spread: a heading centred over its
    columns or groups of uneven widths do not show which columns are whose."""
    out = [[cell_text(c) for c in h] for h in head]
    width = len(out[0]) if out else 0
    for h in out[:-1]:
        at = [j for j in range(1, width) if h[j]]
        spans = {b - a for a, b in zip(at, [*at[1:], width], strict=False)}
        if len(at) < 2 or at[0] != 1 or len(spans) != 1 or spans.pop() < 2:
            continue
        for j in range(1, width):
            if not h[j]:
                h[j] = h[j - 1]
    return out


def spanning(head: Sequence[Sequence[str]], width: int) -> list[bool]:
    """Per header row: does it say the same of every column (rule 3)?"""
    return [width > 2 and (sum(1 for c in h[1:] if c) <= 1 or (
        len({c for c in h[1:]}) == 1 and _names_scale(h[1]))) for h in head]


@dataclass(frozen=True)
class HeaderLayout:
    """What a report table's header says: the captions said of every column, the scale they
    name, each column's path of header levels (top to bottom, spanning captions included: a
    caption over the columns is the outermost level of each), and the levels that name the
    column on its own (`name_paths`: the spanning captions left out)."""

    caption: str
    scale: str  # "" | "thousand" | "million" | "billion"
    paths: tuple[tuple[str, ...], ...]
    name_paths: tuple[tuple[str, ...], ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Each column's name: its own levels joined, a repeat of the level above dropped."""
        out = []
        for p in self.name_paths:
            parts: list[str] = []
            for t in p:
                if not parts or parts[-1].lower() != t.lower():
                    parts.append(t)
            out.append(" ".join(parts))
        return tuple(out)

    def scale_title(self) -> str:
        """The title a scale gives the table ("(in millions)"), which ingestion carries to every
        amount as it does a title line above a sheet's table; '' when none is named."""
        return f"(in {self.scale}s)" if self.scale else ""

    def caption_year(self) -> str | None:
        """The one year a caption names ("Common Stock Price Range 2018"), which dates a table
        whose own columns name no period; None when none or several are named."""
        years = set(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", self.caption))
        if len(years) != 1 or any(re.search(r"(?<!\d)(?:19|20)\d{2}(?!\d)", n)
                                  for n in self.names[1:]):
            return None
        return re.sub(r"\s*\((?:in|\$|amounts)[^)]*\)", "", self.caption).strip() or None


def caption_scale(text: str) -> str:
    """The scale a caption names, '' when none (rule 5): the header reading of
    `ingest.numbers.scale_hint` ("$ in millions", "RMB'Million", "€m", "$'000"), percent aside
    (a "%" over a column is that column's unit, not the table's scale)."""
    scale = scale_hint(text)[0] if text else ""
    return scale if scale in ("thousand", "million", "billion") else ""


def column_paths(head: Sequence[Sequence[Cell]]) -> HeaderLayout:
    """The layout of header rows (rules 2-5): captions, scale and each column's levels."""
    rows = spread_groups(head)
    width = len(rows[0]) if rows else 0
    span = spanning(rows, width)
    caption = " ".join(r[0] for r in rows if r[0])
    caption = " ".join([caption, *(c for r, sp in zip(rows, span, strict=True) if sp
                                   for c in r[1:] if c)]).strip()
    paths: list[tuple[str, ...]] = []
    names: list[tuple[str, ...]] = []
    for j in range(width):
        if j == 0:
            own = tuple(r[0] for r in rows if r[0] and not caption_scale(r[0]))
            paths.append(own)
            names.append(own)
            continue
        parts = tuple(r[j] for r, sp in zip(rows, span, strict=True) if r[j] and not sp)
        if not parts:  # only a spanning caption above: it is this column's header
            parts = tuple(r[j] for r in rows if r[j])
        # a spanning caption is the outermost level of every column it spans (a caption
        # that only declares the scale is the scale, not a level of any name)
        over = tuple(c for r, sp in zip(rows, span, strict=True) if sp
                     for c in r[1:] if c and not _only_scale(c))
        paths.append(tuple(dict.fromkeys((*over, *parts))))
        names.append(parts)
    # each caption on its own: "Percent Change" over two columns does not make "(Dollars in
    # millions)" in the corner a percentage
    parts = [r[0] for r in rows if r[0]] + [c for r, sp in zip(rows, span, strict=True) if sp
                                            for c in r[1:] if c]
    scale = next((sc for sc in map(caption_scale, parts) if sc), "")
    return HeaderLayout(caption=caption, scale=scale, paths=tuple(paths),
                        name_paths=tuple(names))


def _only_scale(text: str) -> bool:
    """A caption that says nothing but the scale and currency: a scale, no other word."""
    return bool(caption_scale(text)) and units_only(text)



def _shape(row: Sequence[Cell]) -> frozenset[int]:
    return frozenset(j for j, c in enumerate(row) if j and cell_text(c))


def restated_headers(rows: Sequence[Sequence[Cell]], extent: tuple[int, int]) -> list[int]:
    """Where the body prints a header block of its own: the first rows of the next table of a
    block that stacks tables one under another, each with its own column headings (the dates
    of 2019 above, of 2018 below). A run of body rows laid out cell for cell as the header rows
    are (no label, the same columns filled, row by row, no figure), whose words differ from the
    header's below its first row, followed by a row with a figure, starts such a table. The
    same headings under another caption are one table per period (`ingest.headers` heuristic
    7), not a new table."""
    first, k = extent[0], extent[1] - extent[0]
    head = rows[first:extent[1]]
    shape = [_shape(r) for r in head]
    if any(cell_text(r[0]) for r in head) or not all(shape):
        return []
    words = [[cell_text(c) for c in r] for r in head]
    out: list[int] = []
    i = extent[1]
    while i + k < len(rows):
        run = rows[i:i + k]
        if [_shape(r) for r in run] == shape and not any(cell_text(r[0]) for r in run) \
                and not any(holds_figures(r) for r in run) and holds_figures(rows[i + k]) \
                and [[cell_text(c) for c in r] for r in run][1:] != words[1:]:
            out.append(i)
            i += k
            continue
        i += 1
    return out
