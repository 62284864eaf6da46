"""Readers: one file (or DataFrame) -> the `RawTable`s in it, dispatched by file extension.

Readers keep cells as the format gives them (CSV: strings; XLSX: numbers, dates, strings) and
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
from ingest.readers.csv import read_csv
from ingest.readers.frame import read_dataframe
from ingest.readers.xlsx import read_xlsx
from ingest.types import RawTable

DELIMITED = (".csv", ".tsv", ".txt")
WORKBOOKS = (".xlsx", ".xlsm")

__all__ = ["read_csv", "read_dataframe", "read_path", "read_xlsx"]


def read_path(
    path: str | Path, *, header_overlap: float = HEADER_OVERLAP, sheet: str | None = None,
    limits: IngestLimits = DEFAULT_LIMITS,
) -> list[RawTable]:
    """All tables in the file at `path`.

    `sheet` restricts a workbook to one sheet (unknown names raise `IngestError` listing the
    sheets); it is ignored for formats without sheets. `limits` bound what a workbook may decompress
    to before it is read (`ingest.limits`; tables of every format are checked by the caller).
    """
    p = Path(path)
    ext = p.suffix.lower()
    if ext in DELIMITED:
        return read_csv(path, header_overlap=header_overlap, require_delimiter=ext == ".txt")
    if ext in WORKBOOKS:
        return read_xlsx(path, header_overlap=header_overlap, sheet=sheet, limits=limits)
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
    hint = " (save legacy .xls workbooks as .xlsx)" if ext == ".xls" else ""
    raise UnsupportedFormatError(
        f"no reader for {ext or 'files without an extension'!r}; supported: "
        ".csv .tsv .txt .xlsx .xlsm .pdf" + hint,
        source=str(path),
    )
