"""A workbook's sheets -> `RawTable`s: the one assembly the XLSX and the calamine (.xls /
.ods) readers share, so both name tables, place notes and refuse an empty workbook alike."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.errors import EmptyFileError, IngestError
from ingest.headers import MAX_NOTES_PER_KIND, TableParts, find_tables, safe_identifier
from ingest.types import Cell, RawTable

_CELL_NOTE_RE = re.compile(r"^cell ([A-Z]+)(\d+):")


@dataclass(frozen=True)
class SheetGrid:
    """One sheet as read: its rows (1-based sheet rows, normalised cells), the notes said of
    the sheet and of single cells ("cell C7: ...")."""

    name: str
    grid: list[list[Cell]]
    sheet_notes: tuple[str, ...] = ()
    cell_notes: tuple[str, ...] = ()


def choose_sheets(names: Sequence[str], sheet: str | None, source: str) -> list[str]:
    """The sheet names to read: all, or the one `sheet` names (exact, else case-insensitive);
    an unknown name is an error listing the workbook's sheets."""
    if sheet is None:
        return list(names)
    chosen = [n for n in names if n == sheet] or [n for n in names if n.lower() == sheet.lower()]
    if not chosen:
        raise IngestError(f"no sheet named {sheet!r}; the workbook has "
                          + ", ".join(map(repr, names)), source=source, sheet=sheet)
    return chosen


def _col_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def assign_cell_notes(parts: Sequence[TableParts], cell_notes: Sequence[str]) -> list[list[str]]:
    """Each cell note goes to the table holding the cell, else to the sheet's first table."""
    spans = []
    for t in parts:
        rows = (*t.row_locs, *t.header_locs)
        spans.append((min(rows, default=0), max(rows, default=0), set(t.col_locs)))
    out: list[list[str]] = [[] for _ in parts]
    if not parts:
        return out
    for n in cell_notes:
        m = _CELL_NOTE_RE.match(n)
        r, c = (int(m.group(2)), _col_index(m.group(1))) if m else (0, 0)
        k = next((i for i, (lo, hi, cols) in enumerate(spans) if lo <= r <= hi and c in cols), 0)
        out[k].append(n)
    for i, mine in enumerate(out):
        if len(mine) > MAX_NOTES_PER_KIND:
            extra = len(mine) - MAX_NOTES_PER_KIND
            out[i] = [*mine[:MAX_NOTES_PER_KIND], f"... and {extra} more cell notes"]
    return out


def workbook_tables(source: str, stem: str, sheets: Sequence[SheetGrid], *,
                    header_overlap: float, chosen: str | None = None,
                    n_sheets: int | None = None) -> list[RawTable]:
    """The tables of the sheets read, named `stem` when the workbook holds one table, else
    `stem_sheet` (and `_2`, `_3` for further tables of a sheet); `n_sheets`: how many sheets of
    the workbook hold anything, when only some were read (`chosen`). Raises EmptyFileError
    when no sheet read holds a table."""
    found: list[tuple[SheetGrid, list[TableParts], list[list[str]]]] = []
    for s in sheets:
        if not s.grid:
            continue
        parts = find_tables(s.grid, list(range(1, len(s.grid) + 1)),
                            header_overlap=header_overlap, row_word="row", normalized=True)
        found.append((s, parts, assign_cell_notes(parts, s.cell_notes)))
    if not any(parts for _, parts, _ in found):
        which = f"sheet {chosen!r}" if chosen is not None else "any sheet"
        raise EmptyFileError(f"no table found on {which}", source=source, sheet=chosen)
    base_stem = safe_identifier(stem)
    filled = sum(1 for s in sheets if s.grid) if n_sheets is None else n_sheets
    single = filled <= 1 and sum(len(p) for _, p, _ in found) == 1
    tables: list[RawTable] = []
    for s, parts, notes in found:
        base = base_stem if single else f"{base_stem}_{safe_identifier(s.name)}"
        for i, t in enumerate(parts):
            tables.append(RawTable(
                source=source, name=base if i == 0 else f"{base}_{i + 1}", header=t.header,
                rows=t.rows, row_locs=t.row_locs, col_locs=t.col_locs, sheet=s.name,
                table_index=i, title=t.title, notes=(*s.sheet_notes, *notes[i], *t.notes),
                column_paths=t.column_paths))
    return tables
