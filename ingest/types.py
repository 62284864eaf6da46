"""Records that flow through ingestion: raw tables out of readers, passages out of text."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

# A cell as a reader hands it over: the displayed string, or a typed value where the file
# format carries one (XLSX numbers and dates, DataFrame dtypes). None is an empty cell.
Cell = str | int | float | bool | dt.date | dt.datetime | None


def column_letter(index: int) -> str:
    """1-based column index -> spreadsheet letters (1 -> A, 27 -> AA)."""
    if index < 1:
        raise ValueError(f"column index must be >= 1, got {index}")
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


@dataclass(frozen=True)
class RawTable:
    """One rectangular table as found in a file, before any typing.

    `row_locs[i]` is the 1-based row number in the file (CSV line / sheet row / page-table row)
    of `rows[i]`, and `col_locs[j]` the 1-based sheet column of `header[j]`, so every cell keeps
    its address through schema inference, melting and claims.
    """

    source: str
    name: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    row_locs: tuple[int, ...]
    col_locs: tuple[int, ...]
    sheet: str | None = None
    page: int | None = None
    table_index: int = 0
    title: str | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.rows) != len(self.row_locs):
            raise ValueError("rows and row_locs differ in length")
        if len(self.header) != len(self.col_locs):
            raise ValueError("header and col_locs differ in length")
        width = len(self.header)
        for r in self.rows:
            if len(r) != width:
                raise ValueError(f"row of width {len(r)} in a table of width {width}")

    def cell_address(self, i: int, j: int) -> str | None:
        """Spreadsheet address (e.g. 'C7') of rows[i][j]; None for sources without a grid."""
        if self.sheet is None and self.page is None and not self.source.lower().endswith(
            (".csv", ".tsv", ".txt")
        ):
            return None
        return f"{column_letter(self.col_locs[j])}{self.row_locs[i]}"


@dataclass(frozen=True)
class Passage:
    """A run of prose with the page or paragraph it came from."""

    source: str
    text: str
    page: int | None = None
    paragraph: int = 0
