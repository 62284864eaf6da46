"""Records that flow through ingestion: raw tables out of readers, passages out of text."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy and pandas load only when a table is read column-wise
    from ingest.cellcodes import CodedColumn

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
    # A PDF table continued across pages: the page of each row, whose `row_locs` then count
    # within that page. Empty when every row is on `page` (or the source has no pages).
    row_pages: tuple[int, ...] = field(default=())
    # Each column's header levels, top to bottom (`ingest.layout`): a group heading and the
    # period under it as two levels. Empty when the reader knows only the joined `header`.
    column_paths: tuple[tuple[str, ...], ...] = field(default=())
    # The decimal mark the file's format implies, where it implies one: "," for a
    # semicolon-delimited text file (spreadsheet programs write ";" where "," is the decimal
    # mark). Only a column whose own cells prove no mark falls back to it (`ingest.typed`).
    decimal_mark: str = ""

    def __post_init__(self) -> None:
        if len(self.rows) != len(self.row_locs):
            raise ValueError("rows and row_locs differ in length")
        if self.row_pages and len(self.row_pages) != len(self.rows):
            raise ValueError("rows and row_pages differ in length")
        if len(self.header) != len(self.col_locs):
            raise ValueError("header and col_locs differ in length")
        if self.column_paths and len(self.column_paths) != len(self.header):
            raise ValueError("header and column_paths differ in length")
        width = len(self.header)
        for r in self.rows:
            if len(r) != width:
                raise ValueError(f"row of width {len(r)} in a table of width {width}")

    @functools.cached_property
    def coded(self) -> tuple[CodedColumn, ...]:
        """Every column coded by its distinct cells (`ingest.cellcodes`), built on first use
        and kept: the row kinds, the section headings and the table model all read the same
        table, and each would otherwise code it again."""
        from ingest.cellcodes import code_columns

        return code_columns(self.rows, len(self.header))

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


@dataclass(frozen=True)
class Locator:
    """Where a claim comes from, precise enough to open the file and point at it.

    Tables: file, sheet (XLSX) or page (PDF), table index, row (1-based row in the file/sheet),
    column (header text), cell address and, for a row under a section heading, the heading
    (`ingest.sections`). Prose: file, page, paragraph, sentence (0-based index
    within the paragraph) and span (character offsets of the value within the sentence, which
    keeps two facts of one sentence apart).
    """

    file: str
    sheet: str | None = None
    page: int | None = None
    table: int | None = None
    row: int | None = None
    column: str | None = None
    cell: str | None = None
    section: str | None = None  # the heading the row sits under ("Non-current:"), if any
    paragraph: int | None = None
    sentence: int | None = None
    span: tuple[int, int] | None = None
    aggregate: str | None = None  # derived claims: "sum(revenue) | region=North | 2024Q1"

    def to_dict(self) -> dict[str, object]:
        """Only the fields that are set, in a fixed order: the canonical form hashed into ids."""
        out: dict[str, object] = {}
        for name in (
            "file", "sheet", "page", "table", "row", "column", "cell", "section",
            "paragraph", "sentence", "span", "aggregate",
        ):
            v = getattr(self, name)
            if v is not None:
                out[name] = list(v) if isinstance(v, tuple) else v
        return out

    def describe(self) -> str:
        """Human form for citations: 'sales.csv, row 12, column revenue (D12)'."""
        d = self.to_dict()
        parts = [str(d.pop("file"))]
        if "sheet" in d:
            parts.append(f"sheet {d['sheet']}")
        if "page" in d:
            parts.append(f"page {d['page']}")
        if "row" in d:
            parts.append(f"row {d['row']}")
        if "column" in d:
            parts.append(f"column {d['column']}")
        if "cell" in d:
            parts.append(f"cell {d['cell']}")
        if "section" in d:
            parts.append(f"under {d['section']!r}")
        if "paragraph" in d:
            parts.append(f"paragraph {d['paragraph']}")
        if "sentence" in d:
            parts.append(f"sentence {d['sentence']}")
        return ", ".join(parts)


@dataclass(frozen=True)
class ClaimRecord:
    """One atomic, self-contained statement with its provenance (CONTRACT.md 'Values and
    periods'). The engine adds claim_id (from the source's sha256, kind and locator) when
    storing it; ingest never needs the database.
    """

    kind: str  # "cell" | "aggregate" | "text" | "summary" | "sentence" (a numberless
    # definition, kept for quoting: ingest/textclaims.py `defines`)
    text: str  # a full sentence that stands alone
    locator: Locator
    entity: str | None = None
    attribute: str | None = None
    value_text: str | None = None  # as displayed: "1,410.2", "(620.0)", "13.1%"
    value_num: float | None = None  # displayed number with its sign: 1410.2, -620.0, 13.1
    scale: str = ""  # "" | "thousand" | "million" | "billion" | "percent"
    unit: str = ""  # "USD", "NOK", "%", "days", ""
    value_base: float | None = None  # value_num times the scale multiplier (percent as is)
    time_key: str | None = None  # canonical period: "2024", "2024Q1", "2024-03", ...
    period_start: dt.date | None = None
    period_end: dt.date | None = None
    order_key: float | None = None
    conf_base: float = 0.95
    table: str | None = None  # typed table the cell belongs to
    derived_from: tuple[Locator, ...] = ()  # aggregates: component cells; text: none


@dataclass(frozen=True)
class RelationRecord:
    """(head, relation, tail) read from a sentence; `locator` is the sentence's claim."""

    head: str
    relation: str
    tail: str
    locator: Locator
    text: str = ""
