"""Report tables given as rows of strings, ingested as a user's file: written to a CSV exactly as
the rows are (header rows first) and read by `kb.ingest(path)`, so tests exercise the product's
own table reading, never a loader of their own."""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hyrag.ingestion import IngestReport
    from hyrag.kb import KnowledgeBase


def write_grid(path: Path, grid: list[list[str]], prose: list[str] | None = None) -> Path:
    """`grid` as the CSV file `path`; `prose`, when given, as the text file beside it with the
    same stem (the report's paragraphs, `ingest.readers.with_companion_prose`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(grid)
    if prose:
        path.with_suffix(".txt").write_text("\n\n".join(prose) + "\n", encoding="utf-8")
    return path


def ingest_grid(kb: KnowledgeBase, grid: list[list[str]], name: str,
                prose: list[str] | None = None) -> IngestReport:
    """Ingest `grid` (and its prose) into `kb` as the files a user would have: `name`.csv,
    written beside the knowledge base (in the test's own temporary folder, so nothing is left
    behind in the system's temporary directory)."""
    folder = Path(tempfile.mkdtemp(prefix="grid-", dir=kb.path.parent))
    path = write_grid(folder / f"{name}.csv", grid, prose)
    report = kb.ingest(path)
    if prose:
        kb.ingest(path.with_suffix(".txt"))
    return report
