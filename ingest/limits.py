"""Bounds on what one file may cost to ingest, checked before the cost is paid.

A 1 MB XLSX can decompress to gigabytes (a zip bomb), one inline string can be a gigabyte, and a
sheet can declare tens of millions of cells; without bounds such a file takes the machine's
memory or hours and ends in no message. Each bound is a named setting (`hyrag.settings`:
`ingest_max_member_bytes`, `ingest_max_sheet_cells`, `ingest_max_cell_chars`,
`ingest_max_table_columns`) and crossing one raises `LimitExceededError` naming the file, the
limit and the setting. `ingest` never imports `hyrag`, so the engine passes the values in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ingest.errors import LimitExceededError
from ingest.types import RawTable

# Defaults, measured on this code (issue 22): an XLSX sheet member of 1 GiB is some 20 million
# cells, minutes of openpyxl; 20 million cells is the largest sheet read in bounded time and
# memory; Excel's own limit for a cell is 32,767 characters, and a CSV field far beyond it is a
# document, not a value; 1,024 columns ingest in ~10 s / ~300 MB, while the typed staging frame
# (five columns per numeric column) makes 2,000 columns take ~30 s and 16,384 several minutes.
MAX_MEMBER_BYTES = 1 << 30
MAX_SHEET_CELLS = 20_000_000
MAX_CELL_CHARS = 1_000_000
MAX_TABLE_COLUMNS = 1024


@dataclass(frozen=True)
class IngestLimits:
    max_member_bytes: int = MAX_MEMBER_BYTES  # decompressed bytes of one archive member
    max_sheet_cells: int = MAX_SHEET_CELLS  # cells of one sheet or table
    max_cell_chars: int = MAX_CELL_CHARS  # characters of one cell
    max_table_columns: int = MAX_TABLE_COLUMNS  # columns of one table (before melting)


DEFAULT_LIMITS = IngestLimits()


def too_many_cells(n: int, limits: IngestLimits, **where: object) -> LimitExceededError:
    return LimitExceededError(
        f"more than {limits.max_sheet_cells:,} cells (the limit is the setting "
        "ingest_max_sheet_cells)", **where)  # type: ignore[arg-type]


def too_long_cell(limits: IngestLimits, **where: object) -> LimitExceededError:
    return LimitExceededError(
        f"a cell holds more than {limits.max_cell_chars:,} characters (the limit is the "
        "setting ingest_max_cell_chars)", **where)  # type: ignore[arg-type]


def check_tables(
    tables: Iterable[RawTable], limits: IngestLimits, *, fiscal_year_start_month: int = 1
) -> None:
    """Cells, characters and columns of read tables, whatever reader made them (a CSV holds
    them in memory already; what this bounds is the typing and claim work that follows)."""
    from ingest.types import column_letter

    for t in tables:
        where: dict[str, object] = {"source": t.source, "sheet": t.sheet, "page": t.page}
        if len(t.header) > limits.max_table_columns:
            from ingest.melt import detect_wide

            if detect_wide(t, fiscal_year_start_month=fiscal_year_start_month) is None:  # a wide period table melts into a long one
                raise LimitExceededError(
                    f"table {t.name!r} has {len(t.header):,} columns, more than "
                    f"{limits.max_table_columns:,} (the limit is the setting "
                    "ingest_max_table_columns)", **where)  # type: ignore[arg-type]
        if len(t.rows) * max(len(t.header), 1) > limits.max_sheet_cells:
            raise too_many_cells(len(t.rows) * len(t.header), limits, **where)
        cap = limits.max_cell_chars
        for i, row in enumerate(t.rows):
            for j, v in enumerate(row):
                if v.__class__ is str and len(v) > cap:  # type: ignore[arg-type]
                    col = t.col_locs[j] if j < len(t.col_locs) else 0
                    raise too_long_cell(
                        limits, **where, row=t.row_locs[i],
                        column=(column_letter(col) if t.sheet is not None and col else
                                (t.header[j] if j < len(t.header) else None)))
