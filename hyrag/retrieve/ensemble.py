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

What the strategies rank over depends on who asks (issue 8). Besides the pre-filter, a subject
who may see only some sources gets a *scope* built over those sources alone: BM25 statistics
(N, df, avgdl), the graph's lookup table of names and its relations, the latest period, and the
claims' confidences (support / contradiction counters counted over visible claims only). So no
score, rank, fuzzy match or confidence a restricted subject sees changes when a source they may
not see is ingested. Scopes are built once per visible set and kept (a few, least recently used
first out) until the knowledge base changes, when the whole retriever is rebuilt.
"""

from __future__ import annotations

import copy
import re
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass, field

import numpy as np

from hyrag.retrieve.catalog import CONF_CONTRADICT, CONF_SUPPORT, ClaimCatalog
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
    # issue 8: sources that were not searched because they need an attestation (STEP_UP):
    # {"sources": count, "rules": [rule ids], "notice": text}; None when there are none. The
    # count and the rules only: never a name, a table or anything of their content.
    step_up: dict | None = None

    def ids(self) -> list[str]:
        return [c.claim_id for c in self.claims]

    def to_dict(self) -> dict[str, object]:
        return {
            "question": self.question,
            "best_strategy": self.best_strategy,
            "interval": list(self.interval) if self.interval else None,
            "embedding": self.embedding,
            "analytical": self.analytical,
            "step_up": self.step_up,
            "seconds": round(self.seconds, 4),
            "strategies": [s.to_dict() for s in self.strategies],
            "claims": [c.to_dict() for c in self.claims],
        }


def is_analytical(question: str) -> bool:
    return bool(_ANALYTICAL.search(question))


SCOPE_CACHE = 16  # visible sets kept per retriever (one per distinct subject view in use)


@dataclass
class Scope:
    """The retriever as one visible set of claims sees it (see the module docstring)."""

    visible: np.ndarray | None  # None: every current claim (the unrestricted scope)
    strategies: list[Strategy]
    graph: EntityGraph
    conf: np.ndarray
    latest: int | None  # catalog index of the latest timed visible claim


def _latest_index(cat: ClaimCatalog, visible: np.ndarray | None) -> int | None:
    timed = ~np.isnan(cat.order_keys) & cat.time_keys.notnull()
    if visible is not None:
        timed &= visible
    idx = np.flatnonzero(timed)
    return int(idx[np.argmax(cat.order_keys[idx])]) if idx.size else None


class EnsembleRetriever:
    def __init__(
        self,
        cat: ClaimCatalog,
        graph: EntityGraph,
        strategies: list[Strategy],
        settings: RetrievalSettings,
        summaries: dict[str, dict] | None = None,
        embedding: str = "",
        con: object = None,
    ) -> None:
        """`con`: the store's connection, to count a restricted scope's support / contradiction
        links over visible claims (None: scopes keep the stored confidences)."""
        self.cat, self.graph, self.strategies = cat, graph, strategies
        self.settings = settings
        self.summaries = summaries or {}
        self.embedding = embedding
        self.con = con
        self._full: Scope | None = None
        self._scopes: OrderedDict[frozenset[str], Scope] = OrderedDict()
        self._lock = threading.Lock()

    # -- scopes (issue 8) -------------------------------------------------------------------
    def scope(self, allowed_sources: frozenset[str] | set[str] | None) -> Scope:
        """The scope of a visible set; the unrestricted one when every current claim is
        visible. Built once per set, then looked up."""
        if self._full is None:
            self._full = Scope(
                None, self.strategies, self.graph, self.cat.conf, _latest_index(self.cat, None)
            )
        if allowed_sources is None:
            return self._full
        key = frozenset(allowed_sources)
        with self._lock:
            sc = self._scopes.get(key)
            if sc is not None:
                self._scopes.move_to_end(key)
                return sc
        visible = self.cat.mask(key, None)
        sc = self._full if visible.all() else self._build_scope(visible, key)
        with self._lock:
            self._scopes[key] = sc
            while len(self._scopes) > SCOPE_CACHE:
                self._scopes.popitem(last=False)
        return sc

    def latest_time_key(self, allowed_sources: frozenset[str] | set[str] | None) -> str | None:
        """The time key of the latest period a subject can see ("latest", "last year")."""
        j = self.scope(allowed_sources).latest
        return None if j is None else self.cat.time_keys[j]

    def _build_scope(self, visible: np.ndarray, sources: frozenset[str]) -> Scope:
        conf = self._visible_conf(visible, sources)
        graph = self.graph.restrict(visible, sources, conf)
        restricted: dict[int, object] = {}
        strategies = []
        for st in self.strategies:
            sc = copy.copy(st)
            bm25 = getattr(sc, "bm25", None)
            if bm25 is not None:
                if id(bm25) not in restricted:
                    restricted[id(bm25)] = bm25.restrict(visible)
                sc.bm25 = restricted[id(bm25)]
            if isinstance(getattr(sc, "graph", None), EntityGraph):
                sc.graph = graph
            strategies.append(sc)
        return Scope(visible, strategies, graph, conf, _latest_index(self.cat, visible))

    def _visible_conf(self, visible: np.ndarray, sources: frozenset[str]) -> np.ndarray:
        """Eq. 10 confidences with the support / contradiction counters counted over visible
        claims only: the stored counters minus the links whose other end the subject cannot
        see (a claim of another source, or of an older version)."""
        if self.con is None or not visible.any():
            return self.cat.conf
        rows = (
            self.con.cursor()
            .execute(
                """
            WITH vis AS (
                SELECT c.claim_id FROM claims c JOIN sources s USING (source_id)
                WHERE NOT c.superseded AND s.status = 'current'
                  AND c.source_id IN (SELECT unnest(?::VARCHAR[]))
            ), x AS (
                SELECT src AS id, dst AS other, kind FROM claim_links
                WHERE kind IN ('supports', 'contradicts')
                UNION ALL
                SELECT dst, src, kind FROM claim_links WHERE kind IN ('supports', 'contradicts')
            ), hid AS (
                SELECT id, count(*) FILTER (WHERE kind = 'supports') AS s,
                       count(*) FILTER (WHERE kind = 'contradicts') AS c
                FROM x WHERE id IN (SELECT claim_id FROM vis)
                  AND other NOT IN (SELECT claim_id FROM vis)
                GROUP BY id
            )
            SELECT c.claim_id, c.conf_base, greatest(0, c.support - hid.s),
                   greatest(0, c.contradict - hid.c)
            FROM hid JOIN claims c ON c.claim_id = hid.id
            """,
                [sorted(sources)],
            )
            .fetchall()
        )
        if not rows:
            return self.cat.conf
        conf = self.cat.conf.copy()
        for cid, base, sup, con in rows:
            i = self.cat.index.get(cid)
            if i is not None and base is not None:
                conf[i] = min(
                    1.0,
                    max(0.0, float(base) + CONF_SUPPORT * np.log1p(sup) - CONF_CONTRADICT * con),
                )
        return conf

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
        scope = self.scope(allowed_sources)
        ctx = self.context(question, qvec, interval, allowed_sources)
        lists: dict[str, list[Candidate]] = {}
        reports: list[StrategyReport] = []
        for st in scope.strategies:
            if strategies is not None and st.name not in strategies:
                continue
            t1 = time.perf_counter()
            lists[st.name] = self.horizon(st.rank(ctx, allowed_sources))
            reports.append(
                self._score(st.name, lists[st.name], time.perf_counter() - t1, scope.conf)
            )
        fused = rrf({n: [c.id for c in cs] for n, cs in lists.items()}, self.settings.rrf_k)
        analytical = is_analytical(question) if expand is None else expand
        expanded: dict[str, str] = {}
        if analytical:
            fused, expanded = self._expand(fused, ctx.mask, scope.graph)
        ranks = {n: {c.id: r for r, c in enumerate(cs, 1)} for n, cs in lists.items()}
        sims = {n: {c.id: c.sim for c in cs} for n, cs in lists.items()}
        out = []
        for r, (cid, score) in enumerate(fused[:k], 1):
            out.append(self._result(cid, r, score, ranks, sims, expanded.get(cid), scope.conf))
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
    def _score(
        self, name: str, cands: list[Candidate], seconds: float, conf: np.ndarray | None = None
    ) -> StrategyReport:
        """Seed 003: "average similarity score, a diversity proxy based on unique source items,
        and average claim confidence (when applicable) via a weighted sum"."""
        s = self.settings
        conf = self.cat.conf if conf is None else conf
        if not cands:
            return StrategyReport(name, 0, 0.0, 0.0, 0.0, 0.0, seconds)
        items, confs = set(), []
        for c in cands:
            i = self.cat.index.get(c.id)
            if i is None:  # a summary node: its own item, no claim confidence
                items.add(c.id)
                continue
            items.add(self.cat.item_ids[i] or self.cat.locators[i].rsplit('"sentence"', 1)[0])
            confs.append(float(conf[i]))
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
        graph: EntityGraph | None = None,
    ) -> tuple[list[tuple[str, float]], dict[str, str]]:
        """One hop along `relations` from the entities of the Horizon's claims (seed 003:
        "discounting confidence slightly for expanded claims")."""
        graph = self.graph if graph is None else graph
        have = {cid for cid, _ in fused}
        extra: dict[str, tuple[float, str]] = {}
        visible = self.cat.source_ids.distinct(mask)
        for cid, score in fused[: self.settings.horizon_max]:
            i = self.cat.index.get(cid)
            if i is None or not self.cat.entities[i]:
                continue
            for rel, other in graph.neighbours(str(self.cat.entities[i]), visible):
                for j in graph.by_entity.get(other, ()):
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
        self,
        cid: str,
        rank: int,
        score: float,
        ranks: dict,
        sims: dict,
        expanded_from: str | None,
        conf: np.ndarray | None = None,
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
            float((c.conf if conf is None else conf)[i]),
            r,
            s,
            expanded_from,
        )
