"""Finding tables, titles and header rows in a grid of cells (seed 003, section 4.1).

Readers hand over a grid exactly as the file holds it: a CSV's lines or a sheet's rows, with the
1-based row number of each and the 1-based column of each position. This module decides where
each table starts, which row(s) name its columns, what above the header is a title, and which
rows are only repeats of the header (page breaks in exports). It never parses numbers beyond
telling "looks like a number" from "looks like a label", because typing columns is schema
inference's job and doing it twice would let the two disagree.

Heuristics, in the order they run (each is a function below so tests can pin it):

1. Blocks: one or more blank rows end a table. A block of only one-cell text lines followed by
   a wider block is that block's title; one at the end of the grid is a footnote.
2. Title lines: leading rows of a block whose only content is one text value starting in the
   block's first column (a merged title cell forward-filled across gives one distinct value too).
3. Header row: the first *wide* row (at least half the block's columns filled) whose cells are
   mostly labels, where a label is text, or a year / date sitting over a column that below it
   holds something else (so `Item | 2023 | 2024` over numbers is a header, `Acme | 2023 | 5`
   over years is data). If the first wide row is not label-like the block has no header and
   gets `column_1..n` with a note.
4. Multi-row headers: sparse label rows right above the header whose content starts right of the
   first column ("Revenue" over "2023 2024") and label rows right below it that complete
   missing or duplicate names and contrast with the data under them are merged per column,
   top row forward-filled across its blanks: "Revenue" over "2023" -> "Revenue 2023".
5. Repeated headers: a data row whose token set has Jaccard overlap >= `header_overlap` (0.70,
   seed 003) with any header row or the merged header is skipped with a note; sharing a word or
   two with the header is far below that.
6. A block after blank rows that has no header (or only repeats the previous header) and fits
   in the previous table's columns continues that table: a blank line inside a table must not
   split it into a headerless fragment.
7. Stacked periods: a header whose top row is one caption over the columns ("As of December
   31, 2019" above "Amortized Cost | Fair Value") that the body repeats under another caption
   ("As of December 31, 2018", then the same header rows) is one table per period, stacked.
   Each caption heads its block's rows as a section heading (`ingest.sections`), so the
   2018 rows are read as 2018's; it names no column (else the 2018 figures would sit in
   columns named for 2019), and the body's caption line is no data row.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ingest.cells import (  # noqa: F401  (cell_text, make_unique_names, safe_identifier are re-exported)
    FOOTNOTE_RE,
    TOKEN_RE,
    cell_kind,
    cell_text,
    is_blank_row,
    make_unique_names,
    normalize_cell,
    row_tokens,
    safe_identifier,
    token_overlap,
)
from ingest.layout import HeaderLayout, column_paths, header_extent, restated_headers
from ingest.types import Cell

HEADER_OVERLAP = 0.70  # seed 003 4.1: skip repeated header rows with >= 0.70 token overlap
MAX_HEADER_SCAN = 10  # a header further down than this is not a header of this block
MAX_HEADER_ROWS = 4
SAMPLE_BELOW = 30  # rows under a header looked at to know what a column holds
MAX_NOTES_PER_KIND = 20  # beyond this a note says how many more, so notes stay readable

@dataclass(frozen=True)
class TableParts:
    """One table found in a grid: what a reader needs to build a `RawTable` besides its name."""

    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    row_locs: tuple[int, ...]
    col_locs: tuple[int, ...]
    header_locs: tuple[int, ...] = ()  # row numbers the header came from; () if generated
    title: str | None = None
    notes: tuple[str, ...] = field(default=())
    column_paths: tuple[tuple[str, ...], ...] = ()  # each column's header levels (layout)


# --------------------------------------------------------------------------- blocks


def split_blocks(rows: Sequence[Sequence[Cell]]) -> list[tuple[int, int]]:
    """[start, end) index ranges of the runs of non-blank rows."""
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    for i, row in enumerate(rows):
        if is_blank_row(row):
            if start is not None:
                blocks.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        blocks.append((start, len(rows)))
    return blocks


def _single_value(row: Sequence[Cell]) -> tuple[int, Cell] | None:
    """(position, value) if all non-empty cells hold one and the same value, else None."""
    pos = -1
    value: Cell = None
    for j, v in enumerate(row):
        if v is None:
            continue
        if pos < 0:
            pos, value = j, v
        elif v != value:
            return None
    return (pos, value) if pos >= 0 else None


def is_title_row(row: Sequence[Cell]) -> bool:
    """One text value, starting in the first column (a merged title filled across counts)."""
    sv = _single_value(row)
    return sv is not None and sv[0] == 0 and cell_kind(sv[1]) == "text"


def _is_text_block(rows: Sequence[Sequence[Cell]]) -> bool:
    return all(is_title_row(r) for r in rows)


# --------------------------------------------------------------------------- header detection


def _column_kinds(rows: Sequence[Sequence[Cell]], width: int) -> list[Counter[str]]:
    kinds: list[Counter[str]] = [Counter() for _ in range(width)]
    for row in rows[:SAMPLE_BELOW]:
        for j in range(width):
            k = cell_kind(row[j])
            if k not in ("empty", "na"):
                kinds[j][k] += 1
    return kinds


def _dominant(c: Counter[str]) -> str | None:
    return c.most_common(1)[0][0] if c else None


def _label_score(row: Sequence[Cell], below: list[Counter[str]]) -> tuple[float, int, int]:
    """(share of non-empty cells that are labels, label count, cells contrasting with below).

    A label is text, or a year/date over a column that is not mostly years/dates below it.
    A contrasting cell is a label whose column below is dominated by another kind: the evidence
    that separates a header row from an all-text data row.
    """
    labels = nonempty = contrast = 0
    for j, v in enumerate(row):
        k = cell_kind(v)
        if k in ("empty", "na"):
            continue
        nonempty += 1
        dom = _dominant(below[j])
        if k == "text":
            labels += 1
            if dom is not None and dom != "text":
                contrast += 1
        elif k in ("year", "date"):
            total = sum(below[j].values())
            if total == 0 or below[j][k] / total < 0.5:
                labels += 1
                contrast += 1 if total else 0
    return (labels / nonempty if nonempty else 0.0), labels, contrast


def _is_wide(row: Sequence[Cell], width: int) -> bool:
    filled = sum(1 for v in row if v is not None)
    return filled >= max(1, math.ceil(width / 2))


def _fill_across(row: Sequence[Cell]) -> list[Cell]:
    """Forward-fill blanks to the right of a value: a group label spans the columns after it."""
    out: list[Cell] = []
    last: Cell = None
    for v in row:
        if v is None:
            out.append(last)
        else:
            last = v
            out.append(v)
    return out


def merge_header_rows(header_rows: Sequence[Sequence[Cell]]) -> list[str]:
    """Per column, the non-empty parts of the header rows top to bottom, repeats dropped.

    Upper rows are filled across first ("Revenue" over "2023 | 2024" names both), and a vertical
    merge filled down ("Region" over "Region") does not become "Region Region".
    """
    if not header_rows:
        return []
    width = len(header_rows[0])
    filled = [_fill_across(r) for r in header_rows[:-1]] + [list(header_rows[-1])]
    names: list[str] = []
    for j in range(width):
        parts: list[str] = []
        for r in filled:
            t = cell_text(r[j])
            if t and (not parts or parts[-1].lower() != t.lower()):
                parts.append(t)
        names.append(" ".join(parts))
    return names


def _has_gap_or_dup(names: Sequence[str], row: Sequence[Cell]) -> bool:
    """Would `row` complete a name that is missing or shared by several columns?"""
    counts = Counter(n.lower() for n in names if n)
    return any(
        row[j] is not None and (not names[j] or counts[names[j].lower()] > 1)
        for j in range(len(names))
    )


@dataclass(frozen=True)
class _HeaderFind:
    title_rows: tuple[int, ...]  # block-relative indices of title lines
    header_rows: tuple[int, ...]  # block-relative indices of header rows (may be empty)
    data_start: int


def find_header(rows: Sequence[Sequence[Cell]]) -> _HeaderFind:
    """Title lines, header rows and the first data row of one block (rectangular, trimmed)."""
    n = len(rows)
    width = len(rows[0]) if rows else 0
    i = 0
    titles: list[int] = []
    if width >= 2:
        while i < n - 1 and is_title_row(rows[i]):
            titles.append(i)
            i += 1
    # The first wide row within reach; narrower rows before it are titles or header tops.
    h = next((j for j in range(i, min(n, i + MAX_HEADER_SCAN)) if _is_wide(rows[j], width)), None)
    if h is None:
        return _HeaderFind(tuple(titles), (), i)
    score, _, _ = _label_score(rows[h], _column_kinds(rows[h + 1 :], width))
    if score <= 0.5:
        return _HeaderFind(tuple(titles), (), i)
    header = [h]
    # Sparse label rows right above whose content starts right of the first column are group
    # labels of a multi-row header; anything else above the header is a title line.
    top = h
    while top > i and len(header) < MAX_HEADER_ROWS:
        r = rows[top - 1]
        first = next((j for j, v in enumerate(r) if v is not None), 0)
        s, _, _ = _label_score(r, _column_kinds(rows[h + 1 :], width))
        if first > 0 and s == 1.0:
            header.insert(0, top - 1)
            top -= 1
        else:
            break
    titles.extend(range(i, top))
    # Label rows right below that complete gaps/duplicates and contrast with the data below.
    nxt = h + 1
    while nxt < n and len(header) < MAX_HEADER_ROWS:
        r = rows[nxt]
        below = _column_kinds(rows[nxt + 1 :], width)
        s, labels, contrast = _label_score(r, below)
        names = merge_header_rows([rows[k] for k in header])
        if s == 1.0 and labels and contrast and _has_gap_or_dup(names, r):
            header.append(nxt)
            nxt += 1
        else:
            break
    return _HeaderFind(tuple(titles), tuple(header), nxt)


def _title_text(rows: Sequence[Sequence[Cell]]) -> str | None:
    lines = []
    for r in rows:
        sv = _single_value(r)
        parts = [cell_text(sv[1])] if sv else [cell_text(v) for v in r if v is not None]
        text = ", ".join(p for p in parts if p)
        if text:
            lines.append(text)
    return " \u2014 ".join(lines) or None


class _Notes:
    """Notes with a cap per kind so a file with 10,000 short lines stays readable."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._counts: Counter[str] = Counter()

    def add(self, kind: str, text: str) -> None:
        self._counts[kind] += 1
        if self._counts[kind] <= MAX_NOTES_PER_KIND:
            self.items.append(text)

    def done(self) -> tuple[str, ...]:
        extra = [
            f"... and {c - MAX_NOTES_PER_KIND} more {kind} notes"
            for kind, c in self._counts.items()
            if c > MAX_NOTES_PER_KIND
        ]
        return (*self.items, *extra)


@dataclass
class _Building:
    header: tuple[str, ...]
    header_raw: list[frozenset[str]]
    rows: list[tuple[Cell, ...]]
    row_locs: list[int]
    cols: list[int]  # grid column indices (0-based) kept
    header_locs: tuple[int, ...]
    title: str | None
    notes: _Notes
    generated: bool
    paths: tuple[tuple[str, ...], ...] = ()


def find_tables(
    grid: Sequence[Sequence[Cell]],
    row_locs: Sequence[int],
    col_locs: Sequence[int] | None = None,
    *,
    header_overlap: float = HEADER_OVERLAP,
    row_word: str = "row",
    normalized: bool = False,
) -> list[TableParts]:
    """Every table in a grid, in reading order.

    `grid` rows may be ragged (padded with None here); cells are normalized (stripped strings,
    blank -> None) unless the reader says it did that already (`normalized`, which saves a
    function call per cell on large files). `row_locs[i]` / `col_locs[j]` are the file
    coordinates carried into the tables; `row_word` names them in notes ("line" for CSV,
    "row" for sheets).
    """
    if len(grid) != len(row_locs):
        raise ValueError("grid and row_locs differ in length")
    width = max((len(r) for r in grid), default=0)
    if col_locs is None:
        col_locs = list(range(1, width + 1))
    if len(col_locs) < width:
        raise ValueError("fewer col_locs than grid columns")
    if normalized:
        rows = [r if len(r) == width else [*r, *([None] * (width - len(r)))] for r in grid]
    else:
        rows = [[normalize_cell(v) for v in r] + [None] * (width - len(r)) for r in grid]
    blocks = _split_restated(rows, split_blocks(rows))
    tables: list[_Building] = []
    pending_title: list[list[Cell]] = []
    for b, (start, end) in enumerate(blocks):
        block = rows[start:end]
        locs = list(row_locs[start:end])
        cols = _used_columns(block, width)
        trimmed = block if len(cols) == width else [[r[j] for j in cols] for r in block]
        nxt_wide = b + 1 < len(blocks) and _block_width(rows, blocks[b + 1]) >= 2
        if _is_text_block(trimmed):
            if nxt_wide:
                pending_title.extend(trimmed)
                continue
            if tables and not pending_title:
                for r, loc in zip(trimmed, locs, strict=True):
                    tables[-1].notes.add(
                        "footnote", f"{row_word} {loc}: text below the table kept out: "
                        f"{cell_text(r[0])!r}"
                    )
                continue
        found = find_header(trimmed)
        lead = next((k for k, t in enumerate(found.title_rows) if t != k), len(found.title_rows))
        extent = header_extent(trimmed, lead) if len(cols) >= 2 else None
        if extent is not None and extent[0] == extent[1]:
            # figures from the first row: no header of its own — the rows of the table above
            # continued after a blank line, when they fit its columns; else the generic finder
            # (a label alone above them is a section heading of those rows, not a title)
            if tables and not pending_title and set(cols) <= set(tables[-1].cols) and all(
                    is_title_row(trimmed[k]) for k in range(lead)):
                found = _HeaderFind((), (), 0)
            extent = None
        if extent is not None:  # a report table: the rows above its first figures (layout 1)
            found = _HeaderFind(found.title_rows[:lead], tuple(range(*extent)), extent[1])
        title_rows = [trimmed[k] for k in found.title_rows]
        title = _title_text([*pending_title, *title_rows])
        pending_title = []
        data_idx = list(range(found.data_start, len(trimmed)))
        prev = tables[-1] if tables else None
        # Continuation: no title of its own, fits the previous table's columns, and either has
        # no header or repeats the previous one.
        if prev is not None and title is None and set(cols) <= set(prev.cols):
            repeat_rows = [
                k for k in found.header_rows
                if _max_overlap(row_tokens(trimmed[k]), prev.header_raw) >= header_overlap
            ]
            if not found.header_rows or len(repeat_rows) == len(found.header_rows):
                for k in repeat_rows:
                    prev.notes.add(
                        "repeat", f"{row_word} {locs[k]}: repeated header skipped"
                    )
                prev.notes.add(
                    "continue", f"{row_word} {locs[0]}: table continues after blank {row_word}s"
                )
                pos = {c: p for p, c in enumerate(prev.cols)}
                start_k = found.header_rows[-1] + 1 if found.header_rows else found.data_start
                for k in range(start_k, len(trimmed)):
                    full: list[Cell] = [None] * len(prev.cols)
                    for p, c in enumerate(cols):
                        full[pos[c]] = trimmed[k][p]
                    _add_data_row(prev, full, locs[k], header_overlap, row_word)
                continue
        notes = _Notes()
        stacked = _stacked_captions(trimmed, found, header_overlap)
        if stacked:
            notes.add("header", f"{row_word} {locs[found.header_rows[0]]}: one table per period "
                      f"stacked; its captions head their blocks' rows")
            trimmed = [list(r) for r in trimmed]
            for k in stacked:  # the caption in the first column, alone: a section heading
                trimmed[k] = [_single_value(trimmed[k])[1], *([None] * (len(cols) - 1))]
            found = _HeaderFind(found.title_rows, found.header_rows[1:], found.data_start)
        layout = None
        if found.header_rows:
            hdr_rows = [trimmed[k] for k in found.header_rows]
            if extent is not None:
                layout = column_paths(hdr_rows)
                raw_names = list(layout.names)
                title = " ".join(t for t in (title, layout.caption_year(),
                                             layout.scale_title()) if t) or None
            else:
                raw_names = merge_header_rows(hdr_rows)
            header = make_unique_names(raw_names)
            header_raw = [row_tokens(r) for r in hdr_rows]
            merged = frozenset(TOKEN_RE.findall(" ".join(raw_names).lower()))
            if merged not in header_raw:
                header_raw.append(merged)
            header_locs = tuple(locs[k] for k in found.header_rows)
            if len(hdr_rows) > 1:
                notes.add(
                    "header",
                    f"header merged from {row_word}s "
                    + ", ".join(str(x) for x in header_locs),
                )
            generated = False
        else:
            header = make_unique_names([""] * len(cols))
            header_raw = []
            header_locs = ()
            notes.add(
                "header",
                f"no header row found at {row_word} {locs[found.data_start]}; columns named "
                f"column_1..column_{len(cols)}",
            )
            generated = True
        tb = _Building(
            header=header, header_raw=header_raw, rows=[], row_locs=[], cols=cols,
            header_locs=header_locs, title=title, notes=notes, generated=generated,
            paths=_paths(hdr_rows if found.header_rows else [], layout, header),
        )
        # Footnotes: trailing one-cell rows that read like "Source: ..." or "* restated".
        end_k = len(trimmed)
        while end_k > found.data_start and len(cols) >= 3:
            sv = _single_value(trimmed[end_k - 1])
            if sv and sv[0] == 0 and isinstance(sv[1], str) and FOOTNOTE_RE.match(sv[1]):
                end_k -= 1
            else:
                break
        for k in sorted(set(data_idx[: end_k - found.data_start]) | set(stacked[:1])):
            _add_data_row(tb, trimmed[k], locs[k], header_overlap, row_word)
        for k in range(end_k, len(trimmed)):
            notes.add(
                "footnote",
                f"{row_word} {locs[k]}: footnote kept out of the table: "
                f"{cell_text(trimmed[k][0])!r}",
            )
        tables.append(tb)
    if pending_title and tables:
        for r in pending_title:
            tables[-1].notes.add("footnote", f"text below the table kept out: {_title_text([r])!r}")
    return [
        TableParts(
            header=t.header,
            rows=tuple(t.rows),
            row_locs=tuple(t.row_locs),
            col_locs=tuple(col_locs[j] for j in t.cols),
            header_locs=t.header_locs,
            title=t.title,
            notes=t.notes.done(),
            column_paths=t.paths,
        )
        for t in tables
    ]


def _paths(hdr_rows: Sequence[Sequence[Cell]], layout: HeaderLayout | None,
           header: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Each column's header levels: the report layout's, else each header row's own cell (a
    repeat of the level above dropped), else the generated name alone."""
    if layout is not None:
        paths = layout.paths
    elif hdr_rows:
        filled = [_fill_across(r) for r in hdr_rows[:-1]] + [list(hdr_rows[-1])]
        paths = tuple(tuple(dict.fromkeys(t for r in filled if (t := cell_text(r[j]))))
                      for j in range(len(header)))
    else:
        paths = ()
    return tuple(p or (h,) for p, h in zip(paths, header, strict=True)) if paths else tuple(
        (h,) for h in header)


def _split_restated(rows: Sequence[Sequence[Cell]],
                    blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The blocks, each cut where its body prints a header of its own (layout
    `restated_headers`): tables stacked without a blank line between them."""
    out: list[tuple[int, int]] = []
    for start, end in blocks:
        block = rows[start:end]
        extent = header_extent(block) if len(block) > 2 else None
        cuts = restated_headers(block, extent) if extent and extent[0] < extent[1] else []
        bounds = [start, *(start + c for c in cuts), end]
        out.extend(zip(bounds, bounds[1:], strict=False))
    return out


def _used_columns(block: Sequence[Sequence[Cell]], width: int) -> list[int]:
    """Indices of the columns holding any value in the block (empty spacer columns dropped)."""
    used: list[int] = []
    todo = list(range(width))
    for r in block:
        if not todo:
            break
        rest = []
        for j in todo:
            if r[j] is None:
                rest.append(j)
            else:
                used.append(j)
        todo = rest
    return sorted(used)


def _block_width(rows: Sequence[Sequence[Cell]], span: tuple[int, int]) -> int:
    start, end = span
    block = rows[start:end]
    return len(_used_columns(block, len(block[0]))) if block else 0


def _stacked_captions(rows: Sequence[Sequence[Cell]], found: _HeaderFind,
                      theta: float) -> list[int]:
    """The caption rows of a table stacked one block per period (heuristic 7): the header's
    top row, then each body row holding one text value right of the first column that the
    header's other rows follow again (token overlap >= `theta`, row for row). [] when the
    header has no such caption, or the body repeats it under no other caption."""
    hdr = list(found.header_rows)
    if len(hdr) < 2:
        return []
    top = _single_value(rows[hdr[0]])
    if top is None or top[0] == 0 or cell_kind(top[1]) != "text":
        return []
    below = [row_tokens(rows[k]) for k in hdr[1:]]
    out = [hdr[0]]
    for k in range(found.data_start, len(rows) - len(below)):
        sv = _single_value(rows[k])
        if sv is None or sv[0] == 0 or cell_kind(sv[1]) != "text" or sv[1] == top[1]:
            continue
        if all(token_overlap(row_tokens(rows[k + 1 + m]), h) >= theta
               for m, h in enumerate(below)):
            out.append(k)
    return out if len(out) > 1 else []


def _max_overlap(tokens: frozenset[str], header_raw: Sequence[frozenset[str]]) -> float:
    return max((token_overlap(tokens, h) for h in header_raw), default=0.0)


def _could_repeat(row: Sequence[Cell], header_raw: Sequence[frozenset[str]], theta: float) -> bool:
    """Cheap necessary condition for overlap >= theta with some header row.

    Jaccard(R, H) >= theta needs at least theta*|H| of H's tokens in R, and every token of R
    is a substring of the row's lower-cased text; counting header tokens found as substrings
    (with an early exit) rules out nearly every data row without tokenizing it. This is what
    keeps a 100,000-line CSV at about a second.
    """
    # str() of any cell contains every token of its cell_text() (2023.0 -> "2023.0" holds
    # "2023"); "None" for blanks only adds spurious hits, which the exact check then rejects.
    text = " ".join(map(str, row)).lower()
    for h in header_raw:
        need = math.ceil(theta * len(h) - 1e-9)
        if need <= 0:
            return True
        misses = len(h) - need
        hits = 0
        for t in h:
            if t in text:
                hits += 1
                if hits >= need:
                    return True
            else:
                misses -= 1
                if misses < 0:
                    break
    return False


def _add_data_row(
    tb: _Building, row: Sequence[Cell], loc: int, header_overlap: float, row_word: str
) -> None:
    if tb.header_raw and _could_repeat(row, tb.header_raw, header_overlap):
        ov = _max_overlap(row_tokens(row), tb.header_raw)
        if ov >= header_overlap:
            tb.notes.add(
                "repeat", f"{row_word} {loc}: repeated header skipped (token overlap {ov:.2f})"
            )
            return
    tb.rows.append(tuple(row))
    tb.row_locs.append(loc)
