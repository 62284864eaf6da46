"""HyRAG: answers over spreadsheets, PDFs and DataFrames in which every number traces to a cell.

    import hyrag
    kb = hyrag.open("kb/")
    kb.ingest("sales.csv")
    kb.sql("SELECT region, sum(revenue) FROM sales GROUP BY region")

`KnowledgeBase` and `open` are loaded on first use (module `__getattr__`, PEP 562): a bare
`import hyrag` (a CLI start, `hyrag --help`, a tool reading `__version__`) then costs the error
classes and settings only, not DuckDB and what the knowledge base imports (issue 20).
"""

from typing import TYPE_CHECKING

from hyrag.errors import HyragError, IngestFailed, SqlRejected, SqlTimeout, StoreError
from hyrag.settings import Settings

if TYPE_CHECKING:
    from hyrag.kb import KnowledgeBase, open

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

_LAZY = frozenset({"KnowledgeBase", "open"})


def __getattr__(name: str) -> object:
    if name in _LAZY:
        from hyrag import kb

        value = getattr(kb, name)
        globals()[name] = value  # later lookups are ordinary attribute reads
        return value
    raise AttributeError(f"module 'hyrag' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
