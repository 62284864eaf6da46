"""Errors raised while reading and shaping input files.

`ingest` never imports `hyrag`, so it owns its error root; the engine wraps these into
`hyrag.errors.IngestFailed` (a `HyragError`) at the boundary, keeping the location fields.
"""

from __future__ import annotations


class IngestError(Exception):
    """A file could not be turned into tables or passages.

    The location fields say where: a user fixing a workbook needs the sheet and row, not a
    traceback.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        sheet: str | None = None,
        page: int | None = None,
        row: int | None = None,
        column: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.sheet = sheet
        self.page = page
        self.row = row
        self.column = column

    def where(self) -> str:
        parts = []
        if self.source:
            parts.append(f"file {self.source}")
        if self.sheet:
            parts.append(f"sheet {self.sheet!r}")
        if self.page is not None:
            parts.append(f"page {self.page}")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.column:
            parts.append(f"column {self.column!r}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class UnreadableFileError(IngestError):
    """The bytes are not a file of the kind its name says (corrupt, truncated, wrong format)."""


class EmptyFileError(IngestError):
    """The file holds no table and no text."""


class EncryptedFileError(IngestError):
    """The file is password-protected; HyRAG does not guess passwords."""


class UnsupportedFormatError(IngestError):
    """No reader handles this file extension."""


class TimeKeyError(IngestError):
    """A value in a time column is not a period HyRAG can place on the calendar."""


class SchemaInferenceError(IngestError):
    """The table's shape defeats schema inference (no header, no columns)."""


class RaggedRowError(UnreadableFileError):
    """A delimited row has more fields than its header: the columns cannot be lined up.

    `row` is the 1-based physical line; `found` and `expected` are the field counts, so the
    message alone tells the user what to fix in a text editor.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        row: int | None = None,
        found: int | None = None,
        expected: int | None = None,
    ) -> None:
        super().__init__(message, source=source, row=row)
        self.found = found
        self.expected = expected


class LimitExceededError(IngestError):
    """The file crosses one of the ingest bounds (`ingest.limits.IngestLimits`): an archive
    member that decompresses too far, too many cells or columns, a cell too long. Refused
    before it can take the machine's memory or minutes of work; the message names the limit
    and the setting that raises it."""
