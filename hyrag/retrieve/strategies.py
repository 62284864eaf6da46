"""The four Horizon strategies (seed 003, section 4.2; DESIGN.md "Horizon").

Each strategy ranks claims (and, for row vectors, `summary:` nodes) for a question and returns
its own normalised similarity per candidate: cosine for the vector strategies, BM25 divided by
the query's best admitted BM25 for the lexical one, the match score over its maximum for the
graph one. Every strategy takes `allowed_sources` and the time interval as a *pre-filter*: the
vector indices receive them in their search call, BM25 and the graph zero / drop non-admitted
claims before sorting. None of them filters a finished top-k.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from hyrag.index import VectorFilter, VectorIndex
from hyrag.retrieve.bm25 import BM25Index
from hyrag.retrieve.catalog import ClaimCatalog
from hyrag.retrieve.graph import EntityGraph
from hyrag.retrieve.temporal import Interval

CELLS_PER_ROW = 2  # cells a row contributes when the question names none of its columns


@dataclass
class QueryContext:
    """Everything a strategy needs about one question, computed once."""

    question: str
    qvec: np.ndarray | None
    q_tokens: set[str]
    interval: Interval | None
    mask: np.ndarray  # catalog pre-filter: allowed sources and the interval
    exact_period: np.ndarray | None  # claims whose period is exactly the asked one
    limit: int  # candidates to produce before the Horizon threshold


@dataclass(frozen=True)
class Candidate:
    id: str
    sim: float


class Strategy(ABC):
    name: str

    @abstractmethod
    def rank(self, ctx: QueryContext, allowed_sources: frozenset[str] | None) -> list[Candidate]:
        """Candidates best first, only among admitted claims."""

    def _vfilter(
        self, ctx: QueryContext, allowed: frozenset[str] | None, kinds: frozenset[str]
    ) -> VectorFilter:
        return VectorFilter(
            allowed_sources=allowed,
            kinds=kinds,
            interval=ctx.interval.as_tuple() if ctx.interval else None,
        )


class RowVectorStrategy(Strategy):
    """Rows (and cluster summaries) by cosine; a row leads to its cells, the ones whose column
    the question names first."""

    name = "row_vectors"

    def __init__(self, index: VectorIndex, cat: ClaimCatalog, graph: EntityGraph) -> None:
        self.index, self.cat, self.graph = index, cat, graph

    def rank(self, ctx: QueryContext, allowed_sources: frozenset[str] | None) -> list[Candidate]:
        if ctx.qvec is None:
            return []
        flt = self._vfilter(ctx, allowed_sources, frozenset({"row", "summary"}))
        out: list[Candidate] = []
        for hit in self.index.search(ctx.qvec, ctx.limit, flt):
            if hit.kind == "summary":
                out.append(Candidate(hit.id, hit.score))
                continue
            cells = [i for i in self.cat.by_item.get(hit.id, ()) if ctx.mask[i]]
            scored = [
                (self.graph.attr_match(self.cat.attributes[i], ctx.q_tokens), i) for i in cells
            ]
            named = [i for s, i in sorted(scored, key=lambda t: -t[0]) if s > 0]
            for i in named or cells[:CELLS_PER_ROW]:
                out.append(Candidate(str(self.cat.ids[i]), hit.score))
            if len(out) >= ctx.limit:
                break
        return out[: ctx.limit]


class ClaimVectorStrategy(Strategy):
    """Text claims by cosine (claim-first retrieval, seed 003 section 4.1)."""

    name = "claim_vectors"

    def __init__(self, index: VectorIndex, cat: ClaimCatalog) -> None:
        self.index, self.cat = index, cat

    def rank(self, ctx: QueryContext, allowed_sources: frozenset[str] | None) -> list[Candidate]:
        if ctx.qvec is None:
            return []
        flt = self._vfilter(ctx, allowed_sources, frozenset({"text"}))
        out = []
        for hit in self.index.search(ctx.qvec, ctx.limit, flt):
            i = self.cat.index.get(hit.id)
            if i is not None and ctx.mask[i]:
                out.append(Candidate(hit.id, hit.score))
        return out


class LexicalStrategy(Strategy):
    """BM25 over every claim's text; the question's canonical period keys ("2024Q1" for "Q1
    2024") are added to the query so they meet the claims' own spelling."""

    name = "lexical"

    def __init__(self, bm25: BM25Index, cat: ClaimCatalog) -> None:
        self.bm25, self.cat = bm25, cat

    def rank(self, ctx: QueryContext, allowed_sources: frozenset[str] | None) -> list[Candidate]:
        from hyrag.retrieve.text import tokens

        q = tokens(ctx.question)
        if ctx.interval is not None:
            q += [k.lower() for k in ctx.interval.keys]
        hits = self.bm25.search(q, ctx.limit, ctx.mask)
        return [Candidate(str(self.cat.ids[i]), norm) for i, _raw, norm in hits]


class GraphStrategy(Strategy):
    """Names in the question (exact or fuzzy) -> the claims about them (seed 003: "graph /
    category traversal")."""

    name = "graph"

    def __init__(self, graph: EntityGraph, cat: ClaimCatalog) -> None:
        self.graph, self.cat = graph, cat

    def rank(self, ctx: QueryContext, allowed_sources: frozenset[str] | None) -> list[Candidate]:
        hits = self.graph.rank(ctx.question, ctx.q_tokens, ctx.mask, ctx.exact_period, ctx.limit)
        return [Candidate(str(self.cat.ids[i]), s) for i, s in hits]
