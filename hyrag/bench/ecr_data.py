"""Candidate claims, queries and retrieval for the ECR claims-only harness (seed 003, 5.1).

The engine's store and retrieval are not built yet, so this module makes its own claims from a
dataset folder with pandas, and is the only thing to swap once the store exists. Everything is
derived from the files: no table, column or value is named in the code.

- Tables: every `DATA/*.csv`. Schema inference: the first column is the row id; the time column
  is the first whose values parse as dates, months, quarters or fiscal years; categorical
  dimensions are text columns with 2..12 distinct values; measures are the numeric columns
  (averaged when the name says they are not additive: avg, pct, price, rate, rating, percent).
- Secondary reports: `DATA/conflicts/*.csv` (one figure per dimension value and period, from
  another system). They state figures for the same (attribute, dimension, value, period) keys as
  the tables' aggregates, so they agree or disagree with them: agreements are support links,
  disagreements explicit `contradicts` links (eq. 8 counts).
- Claims: one self-contained sentence per cell ("sales order_id SO-10001 (region North, ...)
  revenue in 2024Q1 was 1,877.68."), one per aggregate over (dimension value, period) at month,
  quarter and year grain, one per report row, and one per cross-table difference the query set
  asks about. Each has entity/dimension, attribute, period, value, source and a base confidence.
- Retrieval: BM25 (k1 = 1.2, b = 0.75) over claim text, deterministic, ties by claim order.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ecr import Candidate, Reading

CONF_CELL = 0.95  # a clean table cell
CONF_AGGREGATE = 0.90  # an aggregate recomputed from cells
CONF_REPORT = 0.85  # a figure reported by another system
MAX_DIM_VALUES = 12
NON_ADDITIVE = ("avg", "pct", "price", "rate", "rating", "percent")
VALUE_TOL = 0.005  # figures are shown with two decimals: equal means within half a cent

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_QUARTER = re.compile(r"^(\d{4})\s*Q([1-4])$", re.I)
_QUARTER_REV = re.compile(r"^Q([1-4])\s+(\d{4})$", re.I)
_FY = re.compile(r"^FY\s*(\d{4})$", re.I)
_TIME_IN_TEXT = re.compile(r"\b(\d{4}-\d{2}|\d{4}Q[1-4]|\d{4})\b")


@dataclass(frozen=True)
class Period:
    key: str  # canonical time key: 2024, 2024Q1, 2024-03
    grain: str  # month | quarter | year

    def coarsen(self, grain: str) -> Period | None:
        order = ("month", "quarter", "year")
        if order.index(grain) < order.index(self.grain):
            return None
        y = self.key[:4]
        if grain == "year":
            return Period(y, "year")
        if grain == "quarter":
            if self.grain == "quarter":
                return self
            return Period(f"{y}Q{(int(self.key[5:7]) - 1) // 3 + 1}", "quarter")
        return self


def parse_period(raw: object) -> Period | None:
    """A canonical period from a cell (CONTRACT.md time keys); dates count at month grain."""
    s = str(raw).strip()
    if m := _DATE.match(s) or _MONTH.match(s):
        return Period(f"{m.group(1)}-{m.group(2)}", "month")
    if m := _QUARTER.match(s):
        return Period(f"{m.group(1)}Q{m.group(2)}", "quarter")
    if m := _QUARTER_REV.match(s):
        return Period(f"{m.group(2)}Q{m.group(1)}", "quarter")
    if m := _FY.match(s):
        return Period(m.group(1), "year")
    return None


@dataclass(frozen=True)
class Table:
    name: str
    source: str
    frame: pd.DataFrame = field(repr=False, compare=False)
    id_col: str
    time_col: str
    dims: tuple[str, ...]
    measures: tuple[str, ...]
    grain: str  # finest period grain of the time column
    secondary: bool = False

    def agg_name(self, measure: str) -> str:
        return "average" if is_non_additive(measure) else "total"


def is_non_additive(measure: str) -> bool:
    return any(w in measure.lower() for w in NON_ADDITIVE)


@dataclass(frozen=True)
class Claim:
    """One candidate claim with its provenance (the store's `claims` row, simplified)."""

    id: str
    text: str
    source: str
    table: str | None  # None for a secondary report: it does not say which population
    kind: str  # cell | aggregate | report | derived
    attribute: str
    dims: tuple[tuple[str, str], ...]  # the dimension values the claim is about
    period: Period
    value: float
    confidence: float
    support: int = 0
    contradiction: int = 0
    contradicts: tuple[str, ...] = ()

    def dim(self, name: str) -> str | None:
        return next((v for d, v in self.dims if d == name), None)


@dataclass(frozen=True)
class Query:
    """A templated question, its scope (what a scope parser reads from it) and its gold."""

    qid: str
    text: str
    kind: str  # lookup | comparison
    parts: tuple[tuple[str, str], ...]  # (table, measure) pairs the answer is computed from
    attribute: str  # the answer's attribute (a measure, or "A minus B" for a comparison)
    dim: str
    value: str
    period: Period
    gold: float


# --------------------------------------------------------------------------- loading


def load_tables(data: Path) -> list[Table]:
    """Infer every CSV's schema (primary tables, then `conflicts/` reports)."""
    out: list[Table] = []
    files = [(p, False) for p in sorted(data.glob("*.csv"))]
    files += [(p, True) for p in sorted((data / "conflicts").glob("*.csv"))]
    for path, secondary in files:
        t = _infer(path, data, secondary)
        if t is not None:
            out.append(t)
    if not any(not t.secondary for t in out):
        raise FileNotFoundError(f"no usable CSV table (with a time column) under {data}")
    return out


def _infer(path: Path, root: Path, secondary: bool) -> Table | None:
    df = pd.read_csv(path)
    cols = list(df.columns)
    id_col = "" if secondary else cols[0]
    time_col, grain = "", ""
    for c in cols:
        if c == id_col or df[c].dtype.kind in "if":
            continue
        parsed = df[c].dropna().map(parse_period)
        if len(parsed) and parsed.notna().mean() >= 0.9:
            time_col = c
            grains = {p.grain for p in parsed.dropna()}
            grain = min(grains, key=("month", "quarter", "year").index)
            break
    if not time_col:
        return None
    dims = tuple(
        c for c in cols
        if c not in (id_col, time_col) and df[c].dtype.kind not in "ifb"
        and 2 <= df[c].nunique() <= MAX_DIM_VALUES
    )
    if secondary:
        dims = tuple(c for c in cols if c != time_col and df[c].dtype.kind not in "ifb")
    measures = tuple(c for c in cols if c != id_col and df[c].dtype.kind in "if")
    df = df.copy()
    df["__period"] = df[time_col].map(parse_period)
    rel = str(path.relative_to(root))
    return Table(path.stem, rel, df, id_col, time_col, dims, measures, grain, secondary)


# --------------------------------------------------------------------------- claims


def _fmt(v: float) -> str:
    return f"{v:,.2f}"


def _periods(p: Period, grain: str) -> list[Period]:
    out = []
    for g in ("month", "quarter", "year"):
        c = p.coarsen(g)
        if c is not None and ("month", "quarter", "year").index(g) >= (
            "month", "quarter", "year").index(grain):
            out.append(c)
    return out


def build_claims(tables: Sequence[Table]) -> list[Claim]:
    """Cells, aggregates and report figures, with support / contradiction links between them."""
    claims: list[Claim] = []
    for t in tables:
        if t.secondary:
            claims.extend(_report_claims(t))
            continue
        claims.extend(_cell_claims(t))
        claims.extend(_aggregate_claims(t))
    return _link(claims)


def _cell_claims(t: Table) -> list[Claim]:
    out: list[Claim] = []
    df = t.frame
    for i, row in enumerate(df.itertuples(index=False)):
        r = dict(zip(df.columns, row, strict=True))
        p: Period | None = r["__period"]
        if p is None:
            continue
        dims = tuple((d, str(r[d])) for d in t.dims if pd.notna(r[d]))
        ctx = ", ".join(f"{d} {v}" for d, v in dims)
        show = p.coarsen("quarter") or p
        for m in t.measures:
            v = r[m]
            if pd.isna(v):
                continue
            text = (f"{t.name} {t.id_col} {r[t.id_col]} ({ctx}) {m} in {show.key} "
                    f"was {_fmt(float(v))}.")
            out.append(Claim(f"{t.source}#row{i + 2}:{m}", text, t.source, t.name, "cell", m,
                             dims, p, float(v), CONF_CELL))
    return out


@functools.lru_cache(maxsize=256)
def aggregate_frame(t: Table, grain: str) -> pd.DataFrame:
    """Long frame: dim, value, period key, measure, aggregate (sum or mean), at one grain."""
    df = t.frame[t.frame["__period"].notna()].copy()
    df["__pk"] = df["__period"].map(lambda p: (p.coarsen(grain) or p).key)
    df = df[df["__period"].map(lambda p: p.coarsen(grain) is not None)]
    parts = []
    for d in t.dims:
        for m in t.measures:
            fn = "mean" if is_non_additive(m) else "sum"
            g = df.groupby([d, "__pk"])[m].agg([fn, "count"]).reset_index()
            g = g[g["count"] > 0]
            parts.append(pd.DataFrame({"dim": d, "value": g[d].astype(str), "period": g["__pk"],
                                       "measure": m, "agg": g[fn].astype(float)}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _aggregate_claims(t: Table) -> list[Claim]:
    out: list[Claim] = []
    for grain in ("month", "quarter", "year"):
        if ("month", "quarter", "year").index(grain) < ("month", "quarter", "year").index(t.grain):
            continue
        agg = aggregate_frame(t, grain)
        for r in agg.itertuples(index=False):
            word = t.agg_name(r.measure).capitalize()
            text = (f"{word} {r.measure} in {t.name} for {r.dim} {r.value} in {r.period} "
                    f"was {_fmt(r.agg)}.")
            cid = f"{t.source}#agg:{r.dim}={r.value}:{r.period}:{r.measure}"
            # S = 1: the figure is recomputed from its component cells and agrees with them
            out.append(Claim(cid, text, t.source, t.name, "aggregate", r.measure,
                             ((r.dim, r.value),), Period(r.period, grain), float(r.agg),
                             CONF_AGGREGATE, support=1))
    return out


def _report_claims(t: Table) -> list[Claim]:
    out: list[Claim] = []
    for i, row in enumerate(t.frame.itertuples(index=False)):
        r = dict(zip(t.frame.columns, row, strict=True))
        p: Period | None = r["__period"]
        if p is None:
            continue
        dims = tuple((d, str(r[d])) for d in t.dims)
        ctx = ", ".join(f"{d} {v}" for d, v in dims)
        for m in t.measures:
            if pd.isna(r[m]):
                continue
            text = f"{t.name} reports {m} for {ctx} in {p.key} was {_fmt(float(r[m]))}."
            out.append(Claim(f"{t.source}#row{i + 2}:{m}", text, t.source, None, "report", m,
                             dims, p, float(r[m]), CONF_REPORT))
    return out


def _key(c: Claim) -> tuple[str, tuple[tuple[str, str], ...], str]:
    return (c.attribute, c.dims, c.period.key)


def _link(claims: list[Claim]) -> list[Claim]:
    """Reports vs aggregates of the same key: agreement = support, disagreement = contradicts."""
    stated: dict[tuple, list[int]] = {}
    for i, c in enumerate(claims):
        if c.kind in ("aggregate", "report") and len(c.dims) == 1:
            stated.setdefault(_key(c), []).append(i)
    sup = [0] * len(claims)
    con: list[list[str]] = [[] for _ in claims]
    for idx in stated.values():
        if not any(claims[i].kind == "report" for i in idx):
            continue
        for a in idx:
            for b in idx:
                if a >= b or (claims[a].kind == claims[b].kind == "aggregate"):
                    continue
                if math.isclose(claims[a].value, claims[b].value, abs_tol=VALUE_TOL):
                    sup[a] += 1
                    sup[b] += 1
                else:
                    con[a].append(claims[b].id)
                    con[b].append(claims[a].id)
    out = []
    for i, c in enumerate(claims):
        if sup[i] or con[i]:
            c = Claim(**{**c.__dict__, "support": c.support + sup[i],
                         "contradiction": c.contradiction + len(con[i]),
                         "contradicts": tuple(con[i])})
        out.append(c)
    return out


def derived_claims(tables: Sequence[Table], queries: Sequence[Query]) -> list[Claim]:
    """Cross-table differences for the measure pairs the comparisons ask about, for every
    shared dimension value and period, so a comparison has competing derived readings."""
    by_name = {t.name: t for t in tables}
    out: list[Claim] = []
    seen: set[tuple] = set()
    for q in queries:
        if q.kind != "comparison":
            continue
        (ta, ma), (tb, mb) = q.parts
        sig = (ta, ma, tb, mb, q.dim, q.period.grain)
        if sig in seen:
            continue
        seen.add(sig)
        fa = _agg_map(by_name[ta], q.period.grain, q.dim, ma)
        fb = _agg_map(by_name[tb], q.period.grain, q.dim, mb)
        for (v, p) in sorted(set(fa) & set(fb)):
            d = fa[(v, p)] - fb[(v, p)]
            text = (f"{by_name[ta].agg_name(ma).capitalize()} {ma} in {ta} minus "
                    f"{by_name[tb].agg_name(mb)} {mb} in {tb} for {q.dim} {v} in {p} "
                    f"was {_fmt(d)}.")
            cid = f"derived:{ta}.{ma}-{tb}.{mb}:{q.dim}={v}:{p}"
            out.append(Claim(cid, text, f"{by_name[ta].source}+{by_name[tb].source}", None,
                             "derived", q.attribute, ((q.dim, v),),
                             Period(p, q.period.grain), d, CONF_AGGREGATE, support=1))
    return out


def _agg_map(t: Table, grain: str, dim: str, measure: str) -> dict[tuple[str, str], float]:
    a = aggregate_frame(t, grain)
    a = a[(a["dim"] == dim) & (a["measure"] == measure)]
    return {(r.value, r.period): float(r.agg) for r in a.itertuples(index=False)}


# --------------------------------------------------------------------------- queries


def make_queries(tables: Sequence[Table], n: int = 80, seed: int = 20240315,
                 comparison_share: float = 0.375) -> list[Query]:
    """`n` templated questions with gold computed from the data: single-table lookups of a
    total (or average) per dimension value and period, and cross-table comparisons (how much
    one table's total exceeds another's for a shared dimension value and period). The query
    seed is fixed so every policy and every `--seed` sees the same frozen query set."""
    rng = np.random.default_rng(seed)
    prim = [t for t in tables if not t.secondary and t.dims and t.measures]
    qgrain = {t.name: ("quarter" if t.grain in ("month", "quarter") else "year") for t in prim}
    aggs = {t.name: aggregate_frame(t, qgrain[t.name]) for t in prim}
    pairs = []
    for i, a in enumerate(prim):
        for b in prim[i + 1:]:
            if qgrain[a.name] != qgrain[b.name]:
                continue
            for d in sorted(set(a.dims) & set(b.dims)):
                shared = set(a.frame[d].astype(str)) & set(b.frame[d].astype(str))
                if len(shared) >= 2:
                    pairs.append((a, b, d))
    n_cmp = round(n * comparison_share) if pairs else 0
    out: list[Query] = []
    seen: set[str] = set()
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        if len(out) < n - n_cmp:
            t = prim[int(rng.integers(len(prim)))]
            a = aggs[t.name]
            m = t.measures[int(rng.integers(len(t.measures)))]
            rows = a[(a["measure"] == m) & a["period"].str.startswith("20")]
            if rows.empty:
                continue
            r = rows.iloc[int(rng.integers(len(rows)))]
            word = t.agg_name(m)
            text = (f"What was the {word} {m} in {t.name} for {r['dim']} {r['value']} in "
                    f"{r['period']}?")
            q = Query("", text, "lookup", ((t.name, m),), m, r["dim"], r["value"],
                      Period(r["period"], qgrain[t.name]), float(r["agg"]))
        else:
            ta, tb, d = pairs[int(rng.integers(len(pairs)))]
            if rng.random() < 0.5:
                ta, tb = tb, ta
            ma = ta.measures[int(rng.integers(len(ta.measures)))]
            mb = tb.measures[int(rng.integers(len(tb.measures)))]
            fa = _agg_map(ta, qgrain[ta.name], d, ma)
            fb = _agg_map(tb, qgrain[tb.name], d, mb)
            common = sorted(set(fa) & set(fb))
            if not common:
                continue
            v, p = common[int(rng.integers(len(common)))]
            text = (f"How much higher was the {ta.agg_name(ma)} {ma} in {ta.name} than the "
                    f"{tb.agg_name(mb)} {mb} in {tb.name} for {d} {v} in {p}?")
            attr = f"{ta.name}.{ma} minus {tb.name}.{mb}"
            q = Query("", text, "comparison", ((ta.name, ma), (tb.name, mb)), attr, d, v,
                      Period(p, qgrain[ta.name]), fa[(v, p)] - fb[(v, p)])
        if q.text in seen:
            continue
        seen.add(q.text)
        out.append(Query(f"q{len(out):03d}", *list(q.__dict__.values())[1:]))
    return out


# --------------------------------------------------------------------------- retrieval


_TOKEN = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace(",", ""))


class BM25:
    """Okapi BM25 over claim texts (k1 = 1.2, b = 0.75): deterministic lexical retrieval.

    Postings are numpy arrays per token, so scoring a query is one scatter-add per query term.
    """

    def __init__(self, texts: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        docs = [tokens(t) for t in texts]
        self.n = len(docs)
        lengths = np.array([len(d) for d in docs], dtype=float)
        avg = float(lengths.mean()) if self.n else 1.0
        post: dict[str, dict[int, int]] = {}
        for i, d in enumerate(docs):
            for tok in d:
                post.setdefault(tok, {}).setdefault(i, 0)
                post[tok][i] += 1
        self.postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for tok, dd in post.items():
            ids = np.fromiter(dd.keys(), dtype=np.int64)
            tf = np.fromiter(dd.values(), dtype=float)
            idf = math.log(1 + (self.n - len(ids) + 0.5) / (len(ids) + 0.5))
            norm = k1 * (1 - b + b * lengths[ids] / avg)
            self.postings[tok] = (ids, idf * tf * (k1 + 1) / (tf + norm))

    def scores(self, query: str) -> np.ndarray:
        s = np.zeros(self.n)
        for tok in tokens(query):
            if tok in self.postings:
                ids, w = self.postings[tok]
                np.add.at(s, ids, w)
        return s

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        s = self.scores(query)
        order = np.lexsort((np.arange(self.n), -s))[:k]
        return [(int(i), float(s[i])) for i in order]


# --------------------------------------------------------------------------- scope and readings

_PART = re.compile(r"\b(?:total|average) (\S+) in (\S+?)\b(?= for| than|\?)")
_PERIOD_Q = re.compile(r"\bin (\d{4}Q[1-4]|\d{4})\?$")


@dataclass(frozen=True)
class Scope:
    parts: tuple[tuple[str, str], ...]
    dim: str
    value: str
    period: Period


def parse_scope(text: str, vocabulary: frozenset[tuple[str, str]]) -> Scope:
    """What the question asks about, read from its text: (measure, table) parts, the
    dimension value (the longest known "dimension value" phrase after "for"), the period."""
    parts = tuple((t, m) for m, t in _PART.findall(text))
    pm = _PERIOD_Q.search(text)
    if not pm or not parts:
        raise ValueError(f"cannot read a scope from {text!r}")
    key = pm.group(1)
    period = Period(key, "quarter" if "Q" in key else "year")
    head = text[: pm.start()]
    best = max(((d, v) for d, v in vocabulary if head.endswith(f" for {d} {v} ")
                or head.endswith(f" for {d} {v}")), key=lambda dv: len(dv[0]) + len(dv[1]),
               default=None)
    if best is None:
        raise ValueError(f"no known dimension value in {text!r}")
    return Scope(parts, best[0], best[1], period)



def relevance(c: Claim, q: Query) -> float:
    """Scope agreement of a claim with the question (1 inside the scope, else 0).

    A claim is in scope when it is about the question's dimension value, within its period,
    about one of the (table, measure) parts the answer is computed from (a report names no
    table, so only its measure must match), or states the answer's own derived attribute.
    This is what a scope parser reads from the question; it never looks at the gold figure.
    """
    if c.dim(q.dim) != q.value:
        return 0.0
    cp = c.period.coarsen(q.period.grain)
    if cp is None or cp.key != q.period.key:
        return 0.0
    if c.kind == "derived":
        return 1.0 if c.attribute == q.attribute else 0.0
    for table, measure in q.parts:
        if c.attribute == measure and (c.table is None or c.table == table):
            return 1.0
    return 0.0


def readings(c: Claim, q: Query, weight: float) -> list[Reading]:
    """The answer readings a claim offers for this question's grain and dimension.

    A figure stated at the question's grain for one dimension value is a reading of its own key
    (attribute, dimension value, period): competing keys are other values, periods or
    attributes. A finer figure (a cell, a monthly aggregate) is a member of the key it rolls up
    into, for the question's dimension and grain; for a comparison, figures of either part are
    members of the difference's key.
    """
    out: list[Reading] = []
    grain = q.period.grain
    stated = c.kind in ("aggregate", "report", "derived") and len(c.dims) == 1
    if stated and c.period.grain == grain:
        (d, v), = c.dims
        key = f"{c.attribute} | {d} {v} | {c.period.key}"
        out.append(Reading(c.id, key, c.value, weight, key))
    v = c.dim(q.dim)
    cp = c.period.coarsen(grain)
    if v is None or cp is None:
        return out
    if q.kind == "comparison":
        if c.kind != "derived" and any(
            c.attribute == m and (c.table is None or c.table == t) for t, m in q.parts
        ):
            key = f"{q.attribute} | {q.dim} {v} | {cp.key}"
            out.append(Reading(c.id, key, None, weight, key))
    elif not (stated and c.period.grain == grain):
        key = f"{c.attribute} | {q.dim} {v} | {cp.key}"
        out.append(Reading(c.id, key, None, weight, key))
    return out


def to_candidate(c: Claim, q: Query, score: float, source_suffix: str = "") -> Candidate:
    return Candidate(
        id=c.id, text=c.text, confidence=c.confidence, support=c.support,
        contradiction=c.contradiction, negates=frozenset(c.contradicts),
        relevance=relevance(c, q), source=c.source + source_suffix, retrieval_score=score,
    )


@dataclass
class Corpus:
    """Tables, claims, queries and the BM25 index of one dataset folder."""

    data: Path
    tables: list[Table]
    claims: list[Claim]
    queries: list[Query]
    index: BM25
    vocabulary: frozenset[tuple[str, str]] = frozenset()
    _period_at: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    _noise_pool: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def load(cls, data: Path | str, n_queries: int = 80) -> Corpus:
        root = Path(data)
        if not root.is_dir():
            raise FileNotFoundError(f"dataset folder not found: {root}")
        tables = load_tables(root)
        claims = build_claims(tables)
        queries = make_queries(tables, n_queries)
        claims = claims + derived_claims(tables, queries)
        vocab = frozenset((d, v) for c in claims for d, v in c.dims)
        for q in queries:  # the harness reads each question back like a real scope parser
            got = parse_scope(q.text, vocab)
            if (got.dim, got.value, got.period, got.parts) != (q.dim, q.value, q.period, q.parts):
                raise AssertionError(f"scope parser disagrees with the template on {q.text!r}")
        return cls(root, tables, claims, queries, BM25([c.text for c in claims]), vocab)

    def retrieve(self, q: Query, k: int = 20, rrf_k: int = 60) -> list[tuple[Claim, float]]:
        """Top-k of two BM25 strategies fused by Reciprocal Rank Fusion (seed 003, eq. 9).

        Strategy 1 keeps the claims inside the question's scope: its period (the temporal
        filter of section 4.2) and its dimension value (the identifier filter of 4.1).
        Strategy 2 ranks everything else, which is where the real competitors live (another
        value, period, attribute or source). RRF interleaves the two lists, so the pool holds
        about k/2 of the scope's own evidence and k/2 of its best competitors. The score is
        the RRF score; ties by claim order.
        """
        scope = parse_scope(q.text, self.vocabulary)
        bm = self.index.scores(q.text)
        grain = scope.period.grain
        if grain not in self._period_at:
            self._period_at[grain] = np.array(
                [(c.period.coarsen(grain) or Period("", grain)).key for c in self.claims])
        in_period = self._period_at[grain] == scope.period.key
        about = np.array([c.dim(scope.dim) == scope.value for c in self.claims])
        fused = np.zeros(len(bm))
        depth = 10 * k
        scope_mask = in_period & about
        for s in (np.where(scope_mask, bm, -np.inf), np.where(scope_mask, -np.inf, bm)):
            order = np.lexsort((np.arange(len(s)), -s))[:depth]
            order = order[np.isfinite(s[order])]
            fused[order] += 1.0 / (rrf_k + np.arange(1, len(order) + 1))  # eq. 9
        top = np.lexsort((np.arange(len(fused)), -fused))[:k]
        return [(self.claims[i], float(fused[i])) for i in top if fused[i] > 0]

    def noise(self, q: Query, k: int, rng: np.random.Generator,
              exclude: set[str]) -> list[tuple[Claim, float]]:
        """k claims from unrelated sources (another table or report than the question's
        parts), sampled uniformly: the noise pool of the 40% noise ablation (Table 5)."""
        tables = {t for t, _ in q.parts}
        if self._noise_pool is None:
            self._noise_pool = np.arange(len(self.claims))
        pool = [i for i in rng.choice(self._noise_pool, size=min(len(self.claims), 50 * k),
                                      replace=False).tolist()
                if self.claims[i].table not in tables and self.claims[i].kind != "derived"
                and self.claims[i].id not in exclude]
        s = self.index.scores(q.text)
        return [(self.claims[i], float(s[i])) for i in pool[:k]]
