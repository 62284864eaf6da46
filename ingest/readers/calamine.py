"""Legacy Excel (.xls) and OpenDocument (.ods) workbooks -> `RawTable`s, every sheet, with real
sheet coordinates, the same tables `ingest.readers.xlsx` makes of an .xlsx.

Decision: python-calamine (Rust's calamine): a maintained reader of xls, xlsx and ods in one,
much faster than openpyxl, with typed cells (numbers, dates, booleans) and no formula engine
(cached results are read, as in the xlsx reader). .xlsx stays with openpyxl, whose number
formats this reader cannot see: calamine gives a 13.1% cell as 0.131, so a fraction shown as a
percentage reads as the fraction here.

- The grid starts at A1 (`skip_empty_area=False`), so row and column numbers are the sheet's.
- Merged ranges (.xls; calamine reports none for .ods) are forward-filled down and across, as
  in the xlsx reader: a category merged over three rows belongs to each row.
- Excel error values (#DIV/0!, #N/A, ...) read as None with a note naming the cell.
- Hidden sheets are read (their data is still the workbook's data) and noted.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from ingest.errors import EmptyFileError, EncryptedFileError, UnreadableFileError
from ingest.headers import HEADER_OVERLAP
from ingest.readers.workbook import SheetGrid, choose_sheets, workbook_tables
from ingest.readers.xlsx import EXCEL_ERRORS
from ingest.types import Cell, RawTable, column_letter

MAX_MERGE_CELLS = 1_000_000  # a merge over whole columns must not explode memory

_FORMATS = {".xls": "XLS", ".ods": "ODS"}


def _cell(v: object, row: int, col: int, notes: list[str]) -> Cell:
    """calamine value -> Cell: '' -> None, strings stripped, errors -> None, times -> text."""
    if v is None or v == "":
        return None
    if isinstance(v, str):
        s = v.strip()
        if s in EXCEL_ERRORS:
            notes.append(f"cell {column_letter(col)}{row}: Excel error {s} read as empty")
            return None
        return s or None
    if isinstance(v, bool | int | float | dt.datetime | dt.date):
        return v
    if isinstance(v, dt.time):
        return v.isoformat()
    return str(v)  # durations (timedelta) and anything calamine adds later


def _grid(sheet: object, notes: list[str]) -> list[list[Cell]]:
    """All rows of a sheet from A1, trailing empty cells and rows dropped."""
    grid: list[list[Cell]] = []
    for r, values in enumerate(sheet.to_python(skip_empty_area=False), start=1):  # type: ignore[attr-defined]
        row = [_cell(v, r, c, notes) for c, v in enumerate(values, start=1)]
        while row and row[-1] is None:
            row.pop()
        grid.append(row)
    while grid and not grid[-1]:
        grid.pop()
    return grid


def _fill_merges(grid: list[list[Cell]], merges: Sequence[tuple[tuple[int, int], ...]]) -> int:
    """Copy each merged range's top-left value into every cell of the range (calamine gives
    0-based inclusive corners); the number of ranges filled."""
    filled = 0
    budget = MAX_MERGE_CELLS
    for (r1, c1), (r2, c2) in merges:
        if r1 >= len(grid):
            continue
        top = grid[r1]
        value = top[c1] if c1 < len(top) else None
        r2 = min(r2, len(grid) - 1)
        cells = (r2 - r1 + 1) * (c2 - c1 + 1)
        if value is None or cells > budget:
            continue
        budget -= cells
        for r in range(r1, r2 + 1):
            row = grid[r]
            if len(row) <= c2:
                row.extend([None] * (c2 + 1 - len(row)))
            for c in range(c1, c2 + 1):
                row[c] = value
        filled += 1
    return filled


def _open(p: Path, source: str, kind: str):  # type: ignore[no-untyped-def]
    import python_calamine  # imported here: reading CSVs must not pay for it

    try:
        if p.stat().st_size == 0:
            raise EmptyFileError("the file is empty (0 bytes)", source=source)
        return python_calamine.CalamineWorkbook.from_path(str(p))
    except OSError as e:
        raise UnreadableFileError(f"cannot read file: {e.strerror or e}", source=source) from e
    except python_calamine.PasswordError as e:
        raise EncryptedFileError(
            f"the workbook is password-protected; remove the password and save it again ({e})",
            source=source,
        ) from e
    except python_calamine.CalamineError as e:
        raise UnreadableFileError(
            f"not a readable {kind} workbook ({type(e).__name__}: {e})", source=source
        ) from e


def read_calamine(
    path: str | Path, *, header_overlap: float = HEADER_OVERLAP, sheet: str | None = None
) -> list[RawTable]:
    """Every table on every non-empty sheet of an .xls or .ods (or only on `sheet`), in
    workbook order; tables are named as `read_xlsx` names them."""
    p = Path(path)
    source = str(path)
    kind = _FORMATS.get(p.suffix.lower(), "spreadsheet")
    wb = _open(p, source, kind)
    try:
        names = list(wb.sheet_names)
        hidden = {m.name for m in wb.sheets_metadata if "Visible" not in str(m.visible)}
        chosen = choose_sheets(names, sheet, source)
        grids: dict[str, tuple[list[list[Cell]], list[str], int]] = {}
        for name in names:
            cell_notes: list[str] = []
            try:
                ws = wb.get_sheet_by_name(name)
                grid = _grid(ws, cell_notes)
                merges = ws.merged_cell_ranges or []
            except Exception as e:  # calamine's errors per sheet: corrupt records, XML
                raise UnreadableFileError(
                    f"cannot read the sheet ({type(e).__name__}: {e})", source=source, sheet=name
                ) from e
            filled = _fill_merges(grid, merges) if grid else 0
            grids[name] = (grid, cell_notes, filled)
    finally:
        wb.close()
    out = []
    for name in chosen:
        grid, cell_notes, filled = grids[name]
        sheet_notes = [f"{filled} merged ranges forward-filled"] if filled else []
        if name in hidden:
            sheet_notes.append(f"sheet {name!r} is hidden")
        out.append(SheetGrid(name, grid, tuple(sheet_notes), tuple(cell_notes)))
    return workbook_tables(source, p.stem, out, header_overlap=header_overlap, chosen=sheet,
                           n_sheets=sum(1 for g, _, _ in grids.values() if g))
