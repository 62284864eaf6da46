"""Readers: one file (or DataFrame) -> the `RawTable`s in it, dispatched by file extension.

Readers keep cells as the format gives them (CSV: strings; XLSX/XLS/ODS: numbers, dates,
strings) and
every cell's file coordinates; typing, number cleaning and claims come later. PDFs are read by
`ingest.pdf` (owned separately); it is imported only when a PDF is asked for, so a missing
pdfplumber never breaks CSV or XLSX ingestion.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ingest.errors import UnsupportedFormatError
from ingest.headers import HEADER_OVERLAP
from ingest.limits import DEFAULT_LIMITS, IngestLimits
from ingest.readers.calamine import read_calamine
from ingest.readers.csv import read_csv
from ingest.readers.frame import read_dataframe
from ingest.readers.xlsx import read_xlsx
from ingest.types import RawTable

DELIMITED = (".csv", ".tsv", ".txt")
WORKBOOKS = (".xlsx", ".xlsm")
LEGACY_WORKBOOKS = (".xls", ".ods")  # read by python-calamine (`ingest.readers.calamine`)

__all__ = ["read_calamine", "read_csv", "read_dataframe", "read_path", "read_xlsx",
           "with_companion_prose"]
# The prose of a table file: a text file beside it with the same stem ("report.csv" and
# "report.txt"), as a report exported to a sheet and its notes. It is read only for what it says
# about the table (its scale); it is ingested as text in its own right.
COMPANION_PROSE = (".txt", ".md")


def read_path(
    path: str | Path, *, header_overlap: float = HEADER_OVERLAP, sheet: str | None = None,
    limits: IngestLimits = DEFAULT_LIMITS,
    origin: str | Path | None = None,
) -> list[RawTable]:
    """All tables in the file at `path`.

    `sheet` restricts a workbook to one sheet (unknown names raise `IngestError` listing the
    sheets); it is ignored for formats without sheets. `limits` bound what a workbook may decompress
    to before it is read (`ingest.limits`; tables of every format are checked by the caller).
    """
    p = Path(path)
    ext = p.suffix.lower()
    beside = Path(origin) if origin is not None else p  # where its companion prose lives
    if ext in DELIMITED:
        return with_companion_prose(beside, read_csv(path, header_overlap=header_overlap,
                                                require_delimiter=ext == ".txt"))
    if ext in WORKBOOKS:
        return with_companion_prose(beside, read_xlsx(path, header_overlap=header_overlap,
                                                 sheet=sheet, limits=limits))
    if ext in LEGACY_WORKBOOKS:
        return with_companion_prose(beside, read_calamine(path, header_overlap=header_overlap,
                                                     sheet=sheet))
    if ext == ".pdf":
        if importlib.util.find_spec("ingest.pdf") is None:
            raise UnsupportedFormatError("PDF tables are not supported yet", source=str(path))
        try:
            from ingest.pdf import read_pdf_tables  # type: ignore[attr-defined]
        except ImportError as e:
            raise UnsupportedFormatError(
                f"PDF reading is unavailable ({e})", source=str(path)
            ) from e
        return list(read_pdf_tables(p))
    raise UnsupportedFormatError(
        f"no reader for {ext or 'files without an extension'!r}; supported: "
        ".csv .tsv .txt .xlsx .xlsm .xls .ods .pdf",
        source=str(path),
    )


def with_companion_prose(path: Path, tables: list[RawTable]) -> list[RawTable]:
    """The tables of `path`, each whose title states no scale given the one the companion prose
    declares or implies (`captions.prose_scale`), with a note saying where it came from — the
    caption a report puts above its table ("(in thousands)") is often in its text, not in the
    sheet. Without a companion file the tables are returned as read."""
    from dataclasses import replace

    from ingest.captions import caption_scale, prose_scale

    prose = next((c for c in (path.with_suffix(s) for s in COMPANION_PROSE)
                  if c != path and c.is_file()), None)
    if prose is None or not tables:
        return tables
    from ingest.errors import IngestError
    from ingest.numbers import parse_number
    from ingest.text import read_text_file

    try:
        paragraphs = [p.text for p in read_text_file(prose)]
    except IngestError:  # an unreadable or empty companion says nothing about the table
        return tables
    out = []
    for t in tables:
        if caption_scale(t.title):
            out.append(t)
            continue
        cells = [n.value for r in t.rows for c in r[1:] if isinstance(c, str) and "%" not in c
                 and (n := parse_number(c)) is not None and n.value is not None]
        scale, how = prose_scale(paragraphs, cells)
        if not scale:
            out.append(t)
            continue
        out.append(replace(t, title=f"{t.title} (in {scale}s)" if t.title else f"(in {scale}s)",
                           notes=(*t.notes, f"scale {scale} {how} ({prose.name})")))
    return out
