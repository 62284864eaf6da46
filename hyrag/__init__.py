"""HyRAG: answers over spreadsheets, PDFs and DataFrames in which every number traces to a cell.

    import hyrag
    kb = hyrag.open("kb/")
    kb.ingest("sales.csv")
    kb.sql("SELECT region, sum(revenue) FROM sales GROUP BY region")
"""

from hyrag.errors import HyragError, IngestFailed, SqlRejected, SqlTimeout, StoreError
from hyrag.kb import KnowledgeBase, open
from hyrag.settings import Settings

__all__ = [
    "HyragError",
    "IngestFailed",
    "KnowledgeBase",
    "Settings",
    "SqlRejected",
    "SqlTimeout",
    "StoreError",
    "open",
]
__version__ = "0.1.0"
