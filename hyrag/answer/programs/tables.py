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

# views kept at once (a server answering several subjects keeps each one's models)
MAX_VIEWS = 8
_CACHE: OrderedDict[tuple, dict[str, TableIndex]] = OrderedDict()
_LOCK = threading.Lock()


def tables(con: duckdb.DuckDBPyConnection) -> dict[str, TableIndex]:
    """Every table model the connection's subject may see, indexed, by table name."""
    from hyrag.answer.catalog import view_key

    key = view_key(con)
    with _LOCK:
        got = _CACHE.get(key)
        if got is not None:
            _CACHE.move_to_end(key)
            return got
    names = [r[0] for r in con.cursor().execute(
        "SELECT table_name FROM kb_tables ORDER BY table_name").fetchall()]
    out: dict[str, TableIndex] = {}
    for name in names:
        model = tablecells.load(con.cursor(), name)
        if model is not None and model.arrays.row:
            out[name] = index(model)
    with _LOCK:
        _CACHE[key] = out
        while len(_CACHE) > MAX_VIEWS:
            _CACHE.popitem(last=False)
    return out
