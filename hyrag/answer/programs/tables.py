"""The one table-model cache of the answer core.

The models of the tables a subject may see, read from the store (`hyrag.tablecells`) with
their word indexes (`link.index`), kept per view of the knowledge base (`catalog.view_key`:
its database, generation, tables and sources), so that a question costs lookups, not a reload,
and a subject never sees a model read through another subject's view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from hyrag import tablecells
from hyrag.answer.programs.link import TableIndex, index

if TYPE_CHECKING:
    import duckdb

# tables with more non-empty cells than this are left to the SQL route: a program reads a
# report or a list a person could read, and a 100,000-row table costs seconds to load
PROGRAM_MAX_CELLS = 200_000
# views kept at once (a server answering several subjects keeps each one's models)
MAX_VIEWS = 8
_CACHE: OrderedDict[tuple, dict[str, TableIndex]] = OrderedDict()
_LOCK = threading.Lock()


def tables(con: duckdb.DuckDBPyConnection) -> dict[str, TableIndex]:
    """Every table model the connection's subject may see, indexed, by table name."""
    from hyrag.answer.parse.catalog import view_key

    key = view_key(con)
    with _LOCK:
        got = _CACHE.get(key)
        if got is not None:
            _CACHE.move_to_end(key)
            return got
    models = tablecells.load_all(con.cursor(), max_cells=PROGRAM_MAX_CELLS)
    out = {name: index(m) for name, m in sorted(models.items()) if m.arrays.row}
    with _LOCK:
        _CACHE[key] = out
        while len(_CACHE) > MAX_VIEWS:
            _CACHE.popitem(last=False)
    return out
