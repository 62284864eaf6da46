"""One error root for everything the engine raises.

Every `HyragError` carries where it happened (source, sheet, page, row, claim_id) so the CLI can
print one line a user can act on, and a test can match the fields instead of the wording.
"""

from __future__ import annotations


class HyragError(Exception):
    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        sheet: str | None = None,
        page: int | None = None,
        row: int | None = None,
        claim_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.sheet = sheet
        self.page = page
        self.row = row
        self.claim_id = claim_id

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
        if self.claim_id:
            parts.append(f"claim {self.claim_id}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class SettingsError(HyragError, ValueError):
    """A setting is out of range or of the wrong kind."""


class IngestFailed(HyragError):
    """A file could not be ingested; the store is unchanged."""


class StoreError(HyragError):
    """The knowledge base folder or its database is unusable (wrong version, locked, corrupt)."""


class SqlRejected(HyragError):
    """A statement failed the read-only guard; `reason` says which rule."""

    def __init__(self, message: str, *, reason: str = "rejected", **kw) -> None:
        super().__init__(message, **kw)
        self.reason = reason


class SqlTimeout(HyragError):
    """A query ran past the time limit and was interrupted."""


class SqlExecutionError(HyragError):
    """DuckDB refused an accepted statement (unknown column, type error)."""


class ScaleError(HyragError):
    """The distributed ingest (`hyrag.scale`) cannot run as asked: its extra is not installed,
    an option it does not support was given, or the dataset location is unusable."""
