"""The one cache of the answer core: the table models (and prose) of a view.

The models of the tables a subject may see, read from the store (`hyrag.tablecells`) with
their word indexes (`link.index`), and the prose the span programs read (`spans.prose`), kept
per view of the knowledge base (`catalog.view_key`: its database, generation, tables and
sources), so that a question costs lookups, not a reload, and a subject never sees a model
read through another subject's view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from hyrag import tablecells
from hyrag.answer.programs.link import TableIndex, index

if TYPE_CHECKING:
    import duckdb

# tables with more non-empty cells than this are left to the SQL route: a program reads a
# report or a list a person could read, and a 100,000-row table costs seconds to load
PROGRAM_MAX_CELLS = 200_000
# views kept at once (a server answering several subjects keeps each one's models)
MAX_VIEWS = 8
T = TypeVar("T")
_CACHE: OrderedDict[tuple, dict[str, object]] = OrderedDict()
_LOCK = threading.Lock()


def per_view(con: duckdb.DuckDBPyConnection, part: str,
             build: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """`build(con)`, kept as `part` of the connection's view (`catalog.view_key`): the one
    cache of what the answer core derives from a view's contents — its table models
    (`tables`) and its prose (`spans.prose`) — so that both leave together when the view goes
    (the `MAX_VIEWS` most recently used are kept) and no module keeps a cache of its own."""
    from hyrag.answer.parse.catalog import view_key

    key = view_key(con)
    with _LOCK:
        slot = _CACHE.get(key)
        if slot is not None:
            _CACHE.move_to_end(key)
            if part in slot:
                return slot[part]  # type: ignore[return-value]
    got = build(con)
    with _LOCK:
        _CACHE.setdefault(key, {})[part] = got
        _CACHE.move_to_end(key)
        while len(_CACHE) > MAX_VIEWS:
            _CACHE.popitem(last=False)
    return got


def tables(con: duckdb.DuckDBPyConnection) -> dict[str, TableIndex]:
    """Every table model the connection's subject may see, indexed, by table name."""
    return per_view(con, "tables", _load)


def _load(con: duckdb.DuckDBPyConnection) -> dict[str, TableIndex]:
    models = tablecells.load_all(con.cursor(), max_cells=PROGRAM_MAX_CELLS)
    return {name: index(m) for name, m in sorted(models.items()) if m.arrays.row}
