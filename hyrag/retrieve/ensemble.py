"""The Horizon: competitive ensemble retrieval fused with RRF (seed 003 section 4.2, seed 000
section IV, DESIGN.md "Query path").

For one question: the entitlement filter (allowed sources, always intersected with the current
source versions) and the temporal interval become one pre-filter handed to every strategy; each
strategy ranks; the Horizon rule keeps a strategy's candidates whose *own normalised similarity*
is at least theta_H (0.25), at most N_H (20) of them — RRF scores have no absolute scale, so the
threshold cannot apply after fusion (CONTRACT.md); the survivors are fused with RRF (eq. 9,
k = 60); analytical questions get a one-hop relation expansion with a confidence discount; and
each strategy is scored (mean similarity, source diversity, mean claim confidence, weighted) to
name the best one for this question.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from hyrag.retrieve.catalog import ClaimCatalog
from hyrag.retrieve.graph import EntityGraph
from hyrag.retrieve.rrf import rrf
from hyrag.retrieve.strategies import Candidate, QueryContext, Strategy
from hyrag.retrieve.summaries import is_summary
from hyrag.retrieve.temporal import Interval
from hyrag.retrieve.text import tokens

_ANALYTICAL = re.compile(
    r"\b(compare|comparison|versus|vs\.?|trend|growth|grew|why|impact|effect|cause[ds]?|"
    r"because|relat\w*|own(s|ed|er)?|subsidiar\w*|acquir\w*|parent|partner\w*|affect\w*)\b",
    re.I,
)


@dataclass(frozen=True)
class RetrievalSettings:
    """Named retrieval settings. theta_H, N_H and RRF k come from `hyrag.settings.Settings`;
    the rest are ours (the seeds give the form, not the numbers) and are read from Settings
    when it defines them."""

    horizon_threshold: float = 0.25  # theta_H (seed 000, section IV)
    horizon_max: int = 20  # N_H (seed 000, section IV)
    rrf_k: int = 60  # eq. 9 (Cormack et al. 2009)
    strategy_weight_similarity: float = 0.5  # strategy scoring: mean normalised similarity
    strategy_weight_diversity: float = 0.2  # share of distinct source items among candidates
    strategy_weight_confidence: float = 0.3  # mean claim confidence (eq. 10)
    expansion_discount: float = 0.8  # expanded claims' fused score = discount x their seed's

    @classmethod
    def from_settings(cls, settings: object | None) -> RetrievalSettings:
        if settings is None:
            return cls()
        names = cls.__dataclass_fields__
        return cls(**{n: getattr(settings, n) for n in names if hasattr(settings, n)})


@dataclass
class RetrievedClaim:
    """One ranked result, with why it was retrieved."""

    claim_id: str
    rank: int
    fused_score: float
    kind: str
    text: str
    source_id: str | None
    file: str | None
    locator: str | None
    table: str | None
    entity: str | None
    attribute: str | None
    value: str | None
    time_key: str | None
    confidence: float | None
    ranks: dict[str, int] = field(default_factory=dict)  # strategy -> 1-based rank
    scores: dict[str, float] = field(default_factory=dict)  # strategy -> normalised similarity
    expanded_from: str | None = None  # "claim_id via relation" for relation expansion

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class StrategyReport:
    name: str
    candidates: int
    mean_similarity: float
    diversity: float
    mean_confidence: float
    score: float
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class SearchResult:
    question: str
    claims: list[RetrievedClaim]
    strategies: list[StrategyReport]
    best_strategy: str | None
    interval: tuple[float, float] | None
    embedding: str
    seconds: float
    analytical: bool = False

    def ids(self) -> list[str]:
        return [c.claim_id for c in self.claims]

    def to_dict(self) -> dict[str, object]:
        return {
            "question": self.question,
            "best_strategy": self.best_strategy,
            "interval": list(self.interval) if self.interval else None,
            "embedding": self.embedding,
            "analytical": self.analytical,
            "seconds": round(self.seconds, 4),
            "strategies": [s.to_dict() for s in self.strategies],
            "claims": [c.to_dict() for c in self.claims],
        }


def is_analytical(question: str) -> bool:
    return bool(_ANALYTICAL.search(question))


class EnsembleRetriever:
    def __init__(
        self,
        cat: ClaimCatalog,
        graph: EntityGraph,
        strategies: list[Strategy],
        settings: RetrievalSettings,
        summaries: dict[str, dict] | None = None,
        embedding: str = "",
    ) -> None:
        self.cat, self.graph, self.strategies = cat, graph, strategies
        self.settings = settings
        self.summaries = summaries or {}
        self.embedding = embedding

    def context(
        self,
        question: str,
        qvec: np.ndarray | None,
        interval: Interval | None,
        allowed_sources: frozenset[str] | None,
    ) -> QueryContext:
        mask = self.cat.mask(allowed_sources, interval.as_tuple() if interval else None)
        exact = None
        if interval is not None:
            with np.errstate(invalid="ignore"):
                exact = (self.cat.period_lo == interval.lo) & (
                    np.floor(self.cat.order_keys) == np.floor(interval.hi)
                )
        return QueryContext(
            question, qvec, set(tokens(question)), interval, mask, exact, self.settings.horizon_max
        )

    def horizon(self, cands: list[Candidate]) -> list[Candidate]:
        """theta_H on the strategy's own normalised similarity, then at most N_H."""
        s = self.settings
        return [c for c in cands if c.sim >= s.horizon_threshold][: s.horizon_max]

    def search(
        self,
        question: str,
        qvec: np.ndarray | None,
        *,
        k: int = 10,
        interval: Interval | None = None,
        allowed_sources: frozenset[str] | None = None,
        strategies: list[str] | None = None,
        expand: bool | None = None,
    ) -> SearchResult:
        t0 = time.perf_counter()
        ctx = self.context(question, qvec, interval, allowed_sources)
        lists: dict[str, list[Candidate]] = {}
        reports: list[StrategyReport] = []
        for st in self.strategies:
            if strategies is not None and st.name not in strategies:
                continue
            t1 = time.perf_counter()
            lists[st.name] = self.horizon(st.rank(ctx, allowed_sources))
            reports.append(self._score(st.name, lists[st.name], time.perf_counter() - t1))
        fused = rrf({n: [c.id for c in cs] for n, cs in lists.items()}, self.settings.rrf_k)
        analytical = is_analytical(question) if expand is None else expand
        expanded: dict[str, str] = {}
        if analytical:
            fused, expanded = self._expand(fused, ctx.mask)
        ranks = {n: {c.id: r for r, c in enumerate(cs, 1)} for n, cs in lists.items()}
        sims = {n: {c.id: c.sim for c in cs} for n, cs in lists.items()}
        out = []
        for r, (cid, score) in enumerate(fused[:k], 1):
            out.append(self._result(cid, r, score, ranks, sims, expanded.get(cid)))
        scored = [rep for rep in reports if rep.candidates]
        best = max(scored, key=lambda rep: (rep.score, rep.name)).name if scored else None
        return SearchResult(
            question,
            out,
            reports,
            best,
            interval.as_tuple() if interval else None,
            self.embedding,
            time.perf_counter() - t0,
            analytical,
        )

    # -- internals -------------------------------------------------------------------------
    def _score(self, name: str, cands: list[Candidate], seconds: float) -> StrategyReport:
        """Seed 003: "average similarity score, a diversity proxy based on unique source items,
        and average claim confidence (when applicable) via a weighted sum"."""
        s = self.settings
        if not cands:
            return StrategyReport(name, 0, 0.0, 0.0, 0.0, 0.0, seconds)
        items, confs = set(), []
        for c in cands:
            i = self.cat.index.get(c.id)
            if i is None:  # a summary node: its own item, no claim confidence
                items.add(c.id)
                continue
            items.add(self.cat.item_ids[i] or self.cat.locators[i].rsplit('"sentence"', 1)[0])
            confs.append(float(self.cat.conf[i]))
        mean_sim = float(np.mean([c.sim for c in cands]))
        div = len(items) / len(cands)
        mean_conf = float(np.mean(confs)) if confs else 0.0
        score = (
            s.strategy_weight_similarity * mean_sim
            + s.strategy_weight_diversity * div
            + s.strategy_weight_confidence * mean_conf
        )
        return StrategyReport(name, len(cands), mean_sim, div, mean_conf, score, seconds)

    def _expand(
        self,
        fused: list[tuple[str, float]],
        mask: np.ndarray,
    ) -> tuple[list[tuple[str, float]], dict[str, str]]:
        """One hop along `relations` from the entities of the Horizon's claims (seed 003:
        "discounting confidence slightly for expanded claims")."""
        have = {cid for cid, _ in fused}
        extra: dict[str, tuple[float, str]] = {}
        visible = set(self.cat.source_ids[mask].tolist())
        for cid, score in fused[: self.settings.horizon_max]:
            i = self.cat.index.get(cid)
            if i is None or not self.cat.entities[i]:
                continue
            for rel, other in self.graph.neighbours(str(self.cat.entities[i]), visible):
                for j in self.graph.by_entity.get(other, ()):
                    oid = str(self.cat.ids[j])
                    if not mask[j] or oid in have:
                        continue
                    s = score * self.settings.expansion_discount
                    if oid not in extra or s > extra[oid][0]:
                        extra[oid] = (s, f"{cid} via {rel}")
        merged = fused + [(oid, s) for oid, (s, _) in extra.items()]
        merged.sort(key=lambda kv: (-kv[1], kv[0]))
        return merged, {oid: why for oid, (_, why) in extra.items()}

    def _result(
        self, cid: str, rank: int, score: float, ranks: dict, sims: dict, expanded_from: str | None
    ) -> RetrievedClaim:
        r = {n: m[cid] for n, m in ranks.items() if cid in m}
        s = {n: round(m[cid], 4) for n, m in sims.items() if cid in m}
        i = self.cat.index.get(cid)
        if i is None:
            meta = self.summaries.get(cid, {}) if is_summary(cid) else {}
            return RetrievedClaim(
                cid,
                rank,
                score,
                "summary",
                meta.get("text", ""),
                meta.get("source_id"),
                None,
                None,
                meta.get("table"),
                None,
                None,
                None,
                None,
                None,
                r,
                s,
                expanded_from,
            )
        c = self.cat
        return RetrievedClaim(
            cid,
            rank,
            score,
            str(c.kinds[i]),
            str(c.texts[i]),
            c.source_ids[i],
            c.files[i],
            c.locators[i],
            c.tables[i],
            c.entities[i],
            c.attributes[i],
            c.values[i],
            c.time_keys[i],
            float(c.conf[i]),
            r,
            s,
            expanded_from,
        )
