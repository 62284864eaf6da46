"""Horizon retrieval: the four strategies (row vectors, claim vectors, BM25, the name graph) and
their fusion over one knowledge base (`hyrag.retrieve.horizon.Horizon`).

The package itself imports nothing: the answer readers use its light modules (`text`'s
tokeniser and stop words) in every `hyrag ask`, and importing the Horizon with them pulled in
NumPy, the embedders and the vector-index builder, which a question answered from the claims
never uses (issue 20). `from hyrag.retrieve import Horizon` still works (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

_HORIZON_NAMES = frozenset({"Horizon", "STRATEGIES", "RETRIEVAL_CACHE"})

if TYPE_CHECKING:
    from hyrag.retrieve.horizon import RETRIEVAL_CACHE, STRATEGIES, Horizon


def __getattr__(name: str) -> object:
    if name not in _HORIZON_NAMES:
        raise AttributeError(f"module 'hyrag.retrieve' has no attribute {name!r}")
    from hyrag.retrieve import horizon

    value = getattr(horizon, name)
    globals()[name] = value
    return value


__all__ = ["RETRIEVAL_CACHE", "STRATEGIES", "Horizon"]
