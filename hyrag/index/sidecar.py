"""Which sources have their vectors written: the list beside the vector tables.

Apart from `hyrag.index.builder` so that asking it imports neither NumPy, the embedder nor a
vector backend: every `hyrag ask` and `hyrag search` asks it before it searches (vectors of a
source ingested without them are written by the first search, which needs the store opened
read-write), and most questions are then answered without a vector search (issue 20).
"""

from __future__ import annotations

import json
from pathlib import Path

INDEXED_FILE = "indexed.json"


def side_folder(folder: str | Path, backend: str = "auto") -> Path:
    """The folder of the sidecar files of the vector indices in `folder` (the Lance tables'
    folder, or the NumPy files' when that backend is asked for by name)."""
    return Path(folder) / ("lance" if backend != "numpy" else "vectors")


def read_indexed(side: Path) -> set[str]:
    """The source versions whose vectors are all written."""
    p = side / INDEXED_FILE
    return set(json.loads(p.read_text())) if p.exists() else set()


def pending_sources(con, side: Path) -> list[str]:  # a DuckDB connection
    """Current sources whose vectors are not written yet, oldest first."""
    cur = [r[0] for r in con.execute(
        "SELECT source_id FROM sources WHERE status = 'current' ORDER BY ingested_at"
    ).fetchall()]
    done = read_indexed(side)
    return [s for s in cur if s not in done]
