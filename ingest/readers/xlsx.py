"""XLSX / XLSM workbooks -> `RawTable`s, every sheet, with real sheet coordinates.

Decision: openpyxl in `read_only=True, data_only=True` mode, plus one pass of our own over each
sheet's XML for what read-only mode does not expose: merged ranges and formula cells without a
cached value. Why not `read_only=False`: the full object model costs several times the time and
memory (a 100,000 x 12 sheet takes tens of seconds and >1 GB), while the two things it would add
are small, well-defined XML elements (`<mergeCell ref=...>`, `<c r=..><f>..</f></c>` without
`<v>`). Values come from openpyxl either way, so shared strings, dates (from number formats) and
cached formula results are its job, not ours.

- Merged ranges are forward-filled down and across: a category merged over three rows belongs to
  each row, and "Revenue" merged over two header columns names both.
- A formula without a cached value (a workbook written by a library and never opened in Excel)
  reads as None with a note naming the cell: HyRAG does not evaluate formulas.
- Excel error values (#DIV/0!, #N/A, ...) read as None with a note naming the cell: they are not
  data, and a string in a numeric column would defeat schema inference.
- Hidden sheets are read (their data is still the workbook's data) and noted.

Bounds (`ingest.limits`): every archive member's decompressed size is checked from the zip
directory before anything is read, and counted again while it streams; the shared strings and
each sheet are streamed in chunks (never read whole) through `scan_member`, which also counts a
sheet's cells and bounds the XML of any one cell, so a zip bomb, a gigabyte-long inline string
or a sheet of tens of millions of cells ends in a one-line error before openpyxl builds it.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from ingest.errors import (
    EmptyFileError,
    EncryptedFileError,
    IngestError,
    LimitExceededError,
    UnreadableFileError,
)
from ingest.headers import HEADER_OVERLAP
from ingest.limits import DEFAULT_LIMITS, IngestLimits, too_long_cell, too_many_cells
from ingest.readers.workbook import SheetGrid, choose_sheets, workbook_tables
from ingest.types import Cell, RawTable, column_letter

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
EXCEL_ERRORS = frozenset(
    {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA",
     "#SPILL!", "#CALC!"}
)
_FAST = (int, float, dt.datetime)  # passed through unchanged, without a call per cell
MAX_MERGE_CELLS = 1_000_000  # a merge over whole columns must not explode memory

_MERGE_RE = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?"')
_HAS_FORMULA_RE = re.compile(rb"<(?:\w+:)?f[\s>/]")
_CELL_RE = re.compile(rb"<(?:\w+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:\w+:)?c>)", re.DOTALL)
_REF_RE = re.compile(rb'\br="([A-Z]+)(\d+)"')
_V_RE = re.compile(rb"<(?:\w+:)?v\b[^>]*>[^<]")
_ROOT_PREFIX_RE = re.compile(rb"<(\w+:)?(?:worksheet|sst)\b")
SCAN_CHUNK = 1 << 20  # bytes decompressed per step of a streamed member
# XML bytes one cell may take per character of its value: UTF-8 takes up to 4, an escape such
# as &quot; 6; plus room for the tags around it. A bound on memory, not the exact test of a
# cell's length (that is `ingest.limits.check_tables`, on the values read).
_XML_BYTES_PER_CHAR = 6
_CELL_TAG_BYTES = 4096


def _col_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n


def _merges_in(xml: bytes) -> list[tuple[int, int, int, int]]:
    merges: list[tuple[int, int, int, int]] = []
    if b"mergeCell" not in xml:
        return merges
    for m in _MERGE_RE.finditer(xml):
        c1, r1 = _col_index(m.group(1).decode()), int(m.group(2))
        if m.group(3):
            c2, r2 = _col_index(m.group(3).decode()), int(m.group(4))
        else:
            c2, r2 = c1, r1
        merges.append((min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
    return merges


def _uncached_in(xml: bytes, prefix: bytes) -> list[tuple[int, int]]:
    uncached: list[tuple[int, int]] = []
    if (b"<" + prefix + b"f") not in xml:
        return uncached
    for m in _CELL_RE.finditer(xml):
        body = m.group(2)
        if not body or not _HAS_FORMULA_RE.search(body) or _V_RE.search(body):
            continue
        ref = _REF_RE.search(m.group(1))
        if ref:
            uncached.append((int(ref.group(2)), _col_index(ref.group(1).decode())))
    return uncached


def scan_sheet_xml(xml: bytes) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int]]]:
    """(merged ranges as (min_row, min_col, max_row, max_col), formula cells with no cached
    value as (row, col)) from a worksheet's XML held in memory (tests; files use
    `scan_member`, which streams)."""
    m = _ROOT_PREFIX_RE.search(xml[:4096])
    prefix = (m.group(1) or b"") if m else b""
    return _merges_in(xml), _uncached_in(xml, prefix)


def _stream(
    archive: zipfile.ZipFile, name: str, limits: IngestLimits, where: dict[str, object]
) -> Iterator[bytes]:
    """A member's bytes in chunks, counted: a directory that understates the size (the check
    before reading trusts it) is caught here."""
    total = 0
    with archive.open(name) as f:
        while chunk := f.read(SCAN_CHUNK):
            total += len(chunk)
            if total > limits.max_member_bytes:
                raise _member_too_big(name, total, limits, where)
            yield chunk


def _member_too_big(
    name: str, size: int, limits: IngestLimits, where: dict[str, object]
) -> LimitExceededError:
    return LimitExceededError(
        f"archive member {name!r} decompresses to more than {limits.max_member_bytes:,} bytes "
        f"({size:,}; a zip bomb? the limit is the setting ingest_max_member_bytes)",
        **where,  # type: ignore[arg-type]
    )


def check_archive(archive: zipfile.ZipFile, limits: IngestLimits, source: str) -> None:
    """Every member's decompressed size from the zip directory, before any is read."""
    for info in archive.infolist():
        if info.file_size > limits.max_member_bytes:
            raise _member_too_big(info.filename, info.file_size, limits, {"source": source})


def scan_member(
    archive: zipfile.ZipFile,
    name: str,
    limits: IngestLimits,
    *,
    source: str,
    sheet: str | None = None,
) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int]]]:
    """Stream one worksheet (or the shared strings) in chunks: its merged ranges and formula
    cells without a cached value (a worksheet), its cell count and the size of each cell's XML
    bounded. Each chunk is cut before its last incomplete cell (`<c ...>` not yet closed), so
    the regexes see whole cells and memory holds a chunk plus at most one cell."""
    where: dict[str, object] = {"source": source, "sheet": sheet}
    element = b"c" if sheet is not None else b"si"
    cap = _XML_BYTES_PER_CHAR * limits.max_cell_chars + _CELL_TAG_BYTES
    merges: list[tuple[int, int, int, int]] = []
    uncached: list[tuple[int, int]] = []
    cells = 0
    prefix: bytes | None = None
    opens: tuple[bytes, ...] = ()
    close = b""
    buf = b""

    def take(region: bytes) -> None:
        nonlocal cells
        if sheet is None:
            return
        cells += sum(region.count(o) for o in opens)
        if cells > limits.max_sheet_cells:
            raise too_many_cells(cells, limits, **where)
        merges.extend(_merges_in(region))
        uncached.extend(_uncached_in(region, prefix or b""))

    for chunk in _stream(archive, name, limits, where):
        buf += chunk
        if prefix is None:
            m = _ROOT_PREFIX_RE.search(buf[:4096])
            if m is None and len(buf) < 4096:
                continue
            prefix = (m.group(1) or b"") if m else b""
            opens = tuple(b"<" + prefix + element + ws for ws in (b" ", b">", b"/", b"\n",
                                                                   b"\t", b"\r"))
            close = b"</" + prefix + element + b">"
        last = max(buf.rfind(o) for o in opens)
        if last >= 0 and buf.find(close, last) < 0:
            end = buf.find(b">", last)
            complete = end >= 0 and buf[end - 1:end] == b"/"
        else:
            complete = True
        cut = last if not complete else buf.rfind(b"<")
        if cut > 0:
            take(buf[:cut])
            buf = buf[cut:]
        if len(buf) > cap:
            raise too_long_cell(limits, **where)
    take(buf)
    return merges, uncached


def _check_magic(p: Path, source: str) -> None:
    try:
        with p.open("rb") as f:
            head = f.read(8)
    except OSError as e:
        raise UnreadableFileError(f"cannot read file: {e.strerror or e}", source=source) from e
    if not head:
        raise EmptyFileError("the file is empty (0 bytes)", source=source)
    if head == OLE2_MAGIC:
        raise EncryptedFileError(
            "the workbook is password-protected (an encrypted OLE2 container, not a plain XLSX "
            "zip; a legacy .xls saved under this name looks the same); remove the password or "
            "save it as .xlsx",
            source=source,
        )
    if not zipfile.is_zipfile(p):
        raise UnreadableFileError(
            "not an XLSX workbook: the bytes are not a zip archive (corrupt or truncated?)",
            source=source,
        )


def _plain(v: object, row: int, col: int, notes: list[str]) -> Cell:
    """openpyxl value -> Cell: strings stripped, errors and blanks -> None, times -> text."""
    if v is None:
        return None
    if isinstance(v, str):
        s = v.strip()
        if s in EXCEL_ERRORS:
            notes.append(f"cell {column_letter(col)}{row}: Excel error {s} read as empty")
            return None
        return s or None
    if isinstance(v, (bool, int, float, dt.datetime, dt.date)):
        return v
    if isinstance(v, dt.time):
        return v.isoformat()
    if isinstance(v, dt.timedelta):
        return str(v)
    return str(v)


def _percent_text(v: float, fmt: str) -> str:
    """0.1312 with format '0.0%' -> '13.1%'; the decimals come from the format."""
    m = re.search(r"0(?:\.(0+))?\s*%", fmt)
    decimals = len(m.group(1) or "") if m else 0
    return f"{v * 100:.{decimals}f}%"


def _read_grid(  # type: ignore[no-untyped-def]
    ws, notes: list[str], limits: IngestLimits = DEFAULT_LIMITS, source: str | None = None
) -> tuple[list[list[Cell]], int]:
    """All rows of a sheet from row 1, column A (ragged), and the widest row's length.

    Counts the cells openpyxl yields, padding included (one stored cell at XFD1048576 is a
    grid of a million rows and 16,384 columns), against `limits.max_sheet_cells`."""
    ws.reset_dimensions()  # some writers store a wrong <dimension>; read what is there
    grid: list[list[Cell]] = []
    width = 0
    seen = 0
    for r, cells in enumerate(ws.iter_rows(min_row=1, min_col=1), start=1):
        seen += max(len(cells), 1)
        if seen > limits.max_sheet_cells:
            raise too_many_cells(seen, limits, source=source, sheet=ws.title)
        row = []
        for c, cell in enumerate(cells, start=1):
            v = getattr(cell, "value", None)
            if v.__class__ is float and "%" in (getattr(cell, "number_format", "") or ""):
                # A fraction shown as a percentage: keep what the reader of the sheet sees
                # ("13.1%"), which is the number the contract stores (value_num 13.1).
                row.append(_percent_text(v, cell.number_format))
            elif v is None or v.__class__ in _FAST:
                row.append(v)
            else:
                row.append(_plain(v, r, c, notes))
        while row and row[-1] is None:
            row.pop()
        grid.append(row)
        width = max(width, len(row))
    while grid and not grid[-1]:
        grid.pop()
    return grid, width


def _fill_merges(
    grid: list[list[Cell]], merges: Sequence[tuple[int, int, int, int]], width: int
) -> int:
    """Copy each merged range's top-left value into every cell of the range; count filled."""
    filled = 0
    budget = MAX_MERGE_CELLS
    for r1, c1, r2, c2 in merges:
        if r1 > len(grid):
            continue
        top = grid[r1 - 1]
        value = top[c1 - 1] if c1 - 1 < len(top) else None
        if value is None:
            continue
        r2 = min(r2, len(grid))
        c2 = min(c2, max(width, c1))
        cells = (r2 - r1 + 1) * (c2 - c1 + 1)
        if cells > budget:
            continue
        budget -= cells
        for r in range(r1, r2 + 1):
            row = grid[r - 1]
            if len(row) < c2:
                row.extend([None] * (c2 - len(row)))
            for c in range(c1, c2 + 1):
                row[c - 1] = value
        filled += 1
    return filled


def _nonempty_sheet_count(archive: zipfile.ZipFile, paths: Sequence[str]) -> int:
    """How many worksheets hold any value: decides whether tables carry the sheet in their name.

    Read from the XML (a `<v>` or inline string) so that restricting to one sheet does not change
    the names a full read would give.
    """
    n = 0
    value = re.compile(rb"<(?:\w+:)?(?:v|is)\b[^>]*>")
    for path in paths:
        try:
            with archive.open(path.lstrip("/")) as f:
                carry = b""
                while chunk := f.read(1 << 20):
                    if value.search(carry + chunk):
                        n += 1
                        break
                    carry = chunk[-64:]
        except KeyError:
            continue
    return n


def read_xlsx(
    path: str | Path,
    *,
    header_overlap: float = HEADER_OVERLAP,
    sheet: str | None = None,
    limits: IngestLimits = DEFAULT_LIMITS,
) -> list[RawTable]:
    """Every table on every non-empty sheet (or only on `sheet`), in workbook order."""
    import openpyxl  # imported here: reading CSVs must not pay for openpyxl's import

    p = Path(path)
    source = str(path)
    _check_magic(p, source)
    try:
        with zipfile.ZipFile(p) as archive:
            # Before openpyxl reads anything: it loads the shared strings whole.
            check_archive(archive, limits, source)
            for name in archive.namelist():
                if name.lower().endswith("sharedstrings.xml"):
                    scan_member(archive, name, limits, source=source)
    except zipfile.BadZipFile as e:
        raise UnreadableFileError(f"not a readable XLSX workbook ({e})", source=source) from e
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "data validation not supported" and friends
            wb = openpyxl.load_workbook(p, read_only=True, data_only=True, keep_links=False)
    except Exception as e:  # openpyxl raises KeyError, BadZipFile, XML errors, ValueError...
        raise UnreadableFileError(
            f"not a readable XLSX workbook ({type(e).__name__}: {e})", source=source
        ) from e
    try:
        return _read_workbook(wb, p, source, header_overlap, sheet, limits)
    finally:
        wb.close()


def _read_workbook(  # type: ignore[no-untyped-def]
    wb, p: Path, source: str, header_overlap: float, sheet: str | None, limits: IngestLimits
):
    sheets = list(wb.worksheets)
    names = [ws.title for ws in sheets]
    wanted = set(choose_sheets(names, sheet, source))
    chosen = [ws for ws in sheets if ws.title in wanted]
    out: list[SheetGrid] = []
    with zipfile.ZipFile(p) as archive:
        paths = [getattr(ws, "_worksheet_path", "") for ws in sheets]
        n_sheets = _nonempty_sheet_count(archive, paths)
        for ws in chosen:
            sheet_notes: list[str] = []
            cell_notes: list[str] = []
            try:
                # The streamed scan first: it refuses a sheet too large before openpyxl reads it.
                merges, uncached = scan_member(
                    archive, ws._worksheet_path.lstrip("/"), limits, source=source,
                    sheet=ws.title,
                )
                grid, width = _read_grid(ws, cell_notes, limits, source)
            except IngestError:
                raise
            except Exception as e:
                raise UnreadableFileError(
                    f"cannot read the sheet ({type(e).__name__}: {e})",
                    source=source,
                    sheet=ws.title,
                ) from e
            if not grid:
                continue
            filled = _fill_merges(grid, merges, width)
            if filled:
                sheet_notes.append(f"{filled} merged ranges forward-filled")
            for r, c in uncached:
                cell_notes.append(
                    f"cell {column_letter(c)}{r}: formula without a cached value read as empty "
                    "(open and save the workbook in Excel to store results)"
                )
            if ws.sheet_state != "visible":
                sheet_notes.append(f"sheet {ws.title!r} is {ws.sheet_state}")
            out.append(SheetGrid(ws.title, grid, tuple(sheet_notes), tuple(cell_notes)))
    return workbook_tables(source, p.stem, out, header_overlap=header_overlap, chosen=sheet,
                           n_sheets=n_sheets)


