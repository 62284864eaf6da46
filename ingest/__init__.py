"""Files -> tables and passages -> schema -> claims, relations and time keys. No database code."""

from ingest.errors import IngestError
from ingest.types import Passage, RawTable

__all__ = ["IngestError", "Passage", "RawTable"]
