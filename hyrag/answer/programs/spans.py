"""Span programs: a text question answered by quoting a clause of a report's sentence.

A quarter of report questions are answered in the prose, not the tables ("why did X
decrease", "what does X include", "how is X calculated"). The answer is a span of one
sentence, quoted and cited by the claim that states the sentence (`language.Span`), so it is
exactly traceable: nothing is composed. Three steps, all generic (no question is written in):

1. **Retrieval** (`retrieve`): every prose sentence of the knowledge base scored by the
   idf-weighted share of the question's content words it contains (`lexicon.content`: one
   tokenizer, one stemmer); the best `TOP_SENTENCES` are read.
2. **Candidates** (`candidate_spans`): inside each sentence, the contiguous token runs that
   start at a syntactic boundary (the sentence's start, after punctuation, after a function
   word such as a copula, a preposition or a conjunction, at a figure) and end at one (before
   punctuation, before a function word, after a figure, at the sentence's end): the sentence,
   its clauses, the text after its verb, its figures. Which of them answers is learned.
3. **Scoring** (`SpanModel`): P(sentence) x P(span | sentence), two log-linear softmaxes over
   generic features (how well the sentence covers the question; where the question's words
   fall around the span; the span's length, position and boundaries; the question's first
   words crossed with the span's shape and its boundary words, hashed into a bounded space).
   The weights are fitted by `hyrag bench fit-spans` on training questions and ship as
   `span_weights.json`, with two calibrated tiers fitted out of fold (`SpanModel`): above
   the first the clause is answered; above the second only, the cited sentence is offered
   as `needs_verification`; below both the question stays a Knowledge Gap.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.answer.programs.execute import Sentence, run
from hyrag.answer.programs.language import Program, Span
from hyrag.answer.programs.lexicon import STOP, content, token_spans, tokens
from hyrag.answer.programs.score import ProseEvidence, softmax

if TYPE_CHECKING:
    import duckdb

    from hyrag.answer.programs.route import ProgramReading

SPAN_WEIGHTS_FILE = Path(__file__).with_name("span_weights.json")
TOP_SENTENCES = 4  # sentences read per question (retrieval's recall at 4 is what is bounded)
MAX_SPAN_TOKENS = 60  # a longer run of a sentence is the sentence itself or no answer
SUBJECT_TOKENS = 6  # a span may open at any of a sentence's first words (after its subject)
HASH_BUCKETS = 1 << 13  # lexical crosses are hashed into this many features (file size bound)
WEIGHT_FLOOR = 1e-3  # weights below this are not shipped
# a number, with its currency sign, its brackets and its scale or percent after it
_FIGURE_PREFIX = "$€£(-"
_PUNCT = re.compile(r"[,;:()\u2013\u2014]|\s-\s")


@dataclass(frozen=True)
class Prose:
    """The knowledge base's prose sentences as retrieval reads them: each sentence, its
    content-token set, and the idf of every token (a sentence is a document)."""

    sentences: tuple[Sentence, ...]
    words: tuple[frozenset[str], ...]
    idf: dict[str, float]
    by_claim: dict[str, Sentence] = field(default_factory=dict)


def prose(con: duckdb.DuckDBPyConnection) -> Prose:
    """The prose of the store (`sentence` and `text` claims, each sentence once), cached per
    database generation and view (`tables.per_view`)."""
    from hyrag.answer.programs.tables import per_view

    return per_view(con, "prose", _build)


def _build(con: duckdb.DuckDBPyConnection) -> Prose:
    rows = con.cursor().execute(
        "SELECT claim_id, text, coalesce(file, ''), locator, conf_base FROM claims "
        "WHERE NOT superseded AND kind IN ('sentence', 'text') ORDER BY claim_id").fetchall()
    seen: dict[str, Sentence] = {}
    for cid, text, file, locator, conf in rows:
        # the marks ingestion prefixes ("[negated] ", "[Riverside Clinic] ") are not quoted
        s = re.sub(r"^(?:\[negated\] )?(?:\[[^\]]*\] )?", "", text or "").strip()
        if s and s not in seen:
            seen[s] = Sentence(cid, s, file, locator or "", float(conf or 0.0))
    sents = tuple(sorted(seen.values(), key=_reading_order))
    words = tuple(frozenset(content(s.text)) for s in sents)
    df: dict[str, int] = {}
    for ws in words:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    n = len(sents)
    idf = {w: math.log((n + 1) / (d + 0.5)) for w, d in df.items()}
    return Prose(sents, words, idf, {s.claim_id: s for s in sents})


def _reading_order(s: Sentence) -> tuple:
    """Source, page, paragraph, sentence: the order a reader meets the sentences in."""
    try:
        loc = json.loads(s.locator)
    except ValueError:
        loc = {}
    return (s.source, loc.get("page") or 0, loc.get("paragraph") or 0, loc.get("sentence") or 0,
            s.claim_id)


def _position(s: Sentence) -> int:
    try:
        return int(json.loads(s.locator).get("sentence") or 0)
    except (ValueError, AttributeError):
        return 0


# -- the question ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Asked:
    """What the span features read of a question: its content tokens, their idf weights in
    the knowledge base, and its opening words (the wh-word and the one after it)."""

    text: str
    words: frozenset[str]
    weight: dict[str, float]
    opening: tuple[str, str]

    @staticmethod
    def of(question: str, p: Prose) -> Asked:
        words = frozenset(content(question))
        default = math.log(len(p.sentences) + 1.5)  # a word no sentence has: the rarest
        weight = {w: p.idf.get(w, default) for w in words}
        toks = tokens(question)
        first = toks[0] if toks else ""
        second = toks[1] if len(toks) > 1 else ""
        return Asked(question, words, weight, (first, f"{first}_{second}"))


def retrieve(q: Asked, p: Prose, k: int = TOP_SENTENCES) -> list[tuple[int, float]]:
    """The `k` sentences that cover most of the question's idf weight: (index, coverage),
    best first; sentences sharing no content word are never returned."""
    total = sum(q.weight.values())
    if total <= 0:
        return []
    scored = []
    for i, ws in enumerate(p.words):
        got = sum(q.weight[w] for w in q.words & ws)
        if got > 0:
            scored.append((-got / total, i))
    scored.sort()
    return [(i, -s) for s, i in scored[:k]]


def evidence(question: str, con: duckdb.DuckDBPyConnection) -> ProseEvidence:
    """How well the knowledge base's prose answers `question` (`score.ProseEvidence`): the
    coverage of its best two sentences (`retrieve`) and whether the best states a figure.
    What the program route's calibrator weighs a table program against."""
    p = prose(con)
    if not p.sentences:
        return ProseEvidence()
    top = retrieve(Asked.of(question, p), p, 2)
    if not top:
        return ProseEvidence()
    best, cover = top[0]
    return ProseEvidence(cover, top[1][1] if len(top) > 1 else 0.0,
                         any(ch.isdigit() for ch in p.sentences[best].text))


# -- candidates ------------------------------------------------------------------------------
_SCALE_WORDS = frozenset({"thousand", "million", "billion", "percent"})


def candidate_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of the token runs that start and end at a boundary
    (module docstring), at most `MAX_SPAN_TOKENS` tokens long; the whole sentence always."""
    toks = token_spans(text)
    n = len(toks)
    if not n:
        return []
    # function words are read as written ("during", not its stem)
    stop = [text[a:b].lower() in STOP for a, b, _ in toks]
    starts, ends = {0}, {n}
    for i, (a, b, t) in enumerate(toks):
        gap_before = text[toks[i - 1][1]:a] if i else ""
        gap_after = text[b:toks[i + 1][0]] if i + 1 < n else ""
        # a clause opens after punctuation, one word after it (", while | passenger revenue
        # grew"), or one or two words after a function word ("is paid | our allowable
        # costs", "are determined | by comparison")
        if i and (_PUNCT.search(gap_before) or stop[i - 1] or (i > 1 and (
                stop[i - 2] or _PUNCT.search(text[toks[i - 2][1]:toks[i - 1][0]])))):
            starts.add(i)
        # a sentence's subject is short: its predicate (the text after the main verb, "include
        # | fuel, crew wages and port fees") opens within its first words
        if i <= SUBJECT_TOKENS:
            starts.add(i)
        if t[0].isdigit():
            starts.add(i)
            ends.add(i + 1)
            if i + 1 < n and not gap_after.strip() and not stop[i + 1]:
                ends.add(i + 2)  # a figure and its unit: "2.5 years", "$1.2 million"
        if i + 1 < n and (_PUNCT.search(gap_after) or stop[i + 1]):
            ends.add(i + 1)
    out: dict[str, tuple[int, int]] = {}
    for i in sorted(starts):
        for j in sorted(ends):
            if i < j <= i + MAX_SPAN_TOKENS and not stop[j - 1]:
                a, b = _chars(text, toks, i, j)
                out.setdefault(text[a:b], (a, b))
    # the whole sentence, once: the run of all its tokens quotes the same words
    whole = text.rstrip().rstrip(".").rstrip()
    if whole not in out:
        out[whole] = (0, len(whole))
    return list(out.values())



def _chars(text: str, toks: tuple, i: int, j: int) -> tuple[int, int]:
    """A token run's character offsets, widened over a figure's sign, brackets and percent."""
    a, b = toks[i][0], toks[j - 1][1]
    while a > 0 and text[a - 1] in _FIGURE_PREFIX and toks[i][2][0].isdigit():
        a -= 1
    while b < len(text) and text[b] in "%)" and (text[b] == "%" or "(" in text[a:b]):
        b += 1
    return a, b


# -- features --------------------------------------------------------------------------------
def _bucket(x: float, edges: tuple[float, ...]) -> int:
    return sum(x > e for e in edges)


def _hashed(name: str) -> str:
    """A lexical cross's feature: hashed into `HASH_BUCKETS`, so the shipped weights stay
    small whatever words the training questions hold."""
    return f"h{zlib.crc32(name.encode()) % HASH_BUCKETS}"


def sentence_features(q: Asked, p: Prose, i: int, cover: float, rank: int, best: float
                      ) -> dict[str, float]:
    """What P(sentence) rests on: its coverage of the question, its rank and margin, its
    length and place in the paragraph, and the question's opening crossed with them."""
    s = p.sentences[i]
    ws = p.words[i]
    n_tok = len(tokens(s.text))
    extra = sum(p.idf.get(w, 0.0) for w in ws - q.words) / max(len(ws), 1)
    qw = q.opening[0]
    out = {"s:cover": cover, "s:gap": best - cover, f"s:rank={rank}": 1.0,
           f"s:len={_bucket(n_tok, (8, 16, 30, 50))}": 1.0, "s:first": float(_position(s) == 0),
           "s:figure": float(any(t[0].isdigit() for t in tokens(s.text))), "s:extra_idf": extra,
           "s:matched": float(len(q.words & ws)) / max(len(q.words), 1)}
    out[f"s:q={qw}:rank={rank}"] = 1.0
    out[f"s:q={qw}:cover"] = cover
    return out


def span_features(q: Asked, text: str, a: int, b: int) -> dict[str, float]:
    """What P(span | sentence) rests on: where the question's words fall (before, inside,
    after the span), its length and share of the sentence, its boundaries (the punctuation
    and the word before and after it), whether it is a figure, and the question's opening
    words crossed with its shape and boundary words (hashed)."""
    toks = token_spans(text)
    inside = [t for s, e, t in toks if a <= s and e <= b]
    before = [t for s, e, t in toks if e <= a]
    after = [t for s, e, t in toks if s >= b]
    total = sum(q.weight.values()) or 1.0

    def cover(ts: list[str]) -> float:
        return sum(q.weight[w] for w in q.words & set(ts)) / total

    n = len(inside)
    length = _bucket(n, (1, 2, 3, 5, 8, 12, 20, 30))
    share = n / max(len(toks), 1)
    prev_gap = text[toks[len(before) - 1][1]:a] if before else ""
    punct_before = (_PUNCT.search(prev_gap) or re.search(r"\S", prev_gap))
    pb = punct_before.group(0).strip() if punct_before else ("^" if not before else "_")
    tail = text[b:].lstrip()
    pa = tail[:1] if tail and not tail[0].isalnum() else ("$" if not after else "_")
    prev_w = before[-1] if before else "^"
    next_w = after[0] if after else "$"
    first_w = inside[0] if inside else ""
    last_w = inside[-1] if inside else ""
    figure = bool(inside) and all(t[0].isdigit() or t in _SCALE_WORDS for t in inside)
    content_inside = [t for t in inside if t not in STOP]
    novel = sum(t not in q.words for t in content_inside) / max(len(content_inside), 1)
    # how the span adjoins the question's words: an answer tends to follow (or precede) what
    # the question restates ("operates plans in | Greece and Turkey"), and to hold all of
    # what the sentence says beyond it
    matched_before = [k for k, t in enumerate(before) if t in q.words]
    matched_after = [k for k, t in enumerate(after) if t in q.words]
    adj_before = min(len(before) - 1 - matched_before[-1], 3) if matched_before else -1
    adj_after = min(matched_after[0], 3) if matched_after else -1
    novel_all = sum(t not in q.words and t not in STOP for _, _, t in toks)
    novel_recall = sum(t not in q.words for t in content_inside) / max(novel_all, 1)
    matched_in = min(sum(t in q.words for t in inside), 2)
    out: dict[str, float] = {
        "p:bias": 1.0, f"p:len={length}": 1.0, "p:share": share, "p:log_len": math.log1p(n),
        "p:whole": float(not before and not after), "p:at_start": float(not before),
        "p:at_end": float(not after), "p:cover_in": cover(inside), "p:cover_before":
        cover(before), "p:cover_after": cover(after), "p:novel": novel,
        "p:figure": float(figure), "p:has_figure": float(any(t[0].isdigit() for t in inside)),
        f"p:pb={pb}": 1.0, f"p:pa={pa}": 1.0, f"p:adj_before={adj_before}": 1.0,
        f"p:adj_after={adj_after}": 1.0, "p:novel_recall": novel_recall,
        f"p:matched_in={matched_in}": 1.0,
        f"p:adj_before={adj_before}|end={not after}": 1.0,
    }
    for qw in q.opening:
        shape = f"len={length}|whole={not before and not after}|end={not after}"
        out[f"p:q={qw}|{shape}"] = 1.0
        out[f"p:q={qw}|fig={figure}"] = 1.0
        out[f"p:q={qw}|pb={pb}"] = 1.0
        out[f"p:q={qw}|cover_before"] = cover(before)
        out[f"p:q={qw}|novel"] = novel
        out[f"p:q={qw}|adj_before={adj_before}"] = 1.0
        out[f"p:q={qw}|matched_in={matched_in}"] = 1.0
        out[f"p:q={qw}|novel_recall"] = novel_recall
        for name in (f"prev={prev_w}", f"first={first_w}", f"last={last_w}", f"next={next_w}",
                     f"prev={prev_w}|first={first_w}"):
            out[_hashed(f"q={qw}|{name}")] = 1.0
    for name in (f"prev={prev_w}", f"first={first_w}", f"next={next_w}", f"last={last_w}"):
        out[_hashed(name)] = 1.0
    return out


# -- the model -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scored:
    """A candidate span with its sentence, features and probabilities."""

    sentence: Sentence
    start: int
    end: int
    cover: float  # the sentence's retrieval coverage of the question
    p_sentence: float
    p_span: float
    phi: dict[str, float]
    tokens: tuple[int, int] = (0, 0)  # the span's token range in the sentence
    expected_f1: float = 0.0  # its expected F1 against the ranking (`decode`)

    @property
    def probability(self) -> float:
        return self.p_sentence * self.p_span

    def program(self) -> Program:
        return Program("span", (Span(self.sentence.claim_id, self.start, self.end),))


@dataclass(frozen=True)
class SpanModel:
    """The fitted weights (sentence and span features alike) and two calibrated tiers:
    `calibrator` / `min_confidence`, the probability that the best span is the answer exactly
    and the cut above which it is answered; `quote_calibrator` / `quote_min_confidence`, the
    probability that it quotes the answer's clause (the right sentence cited) and the cut
    above which the sentence is offered, cited, as `needs_verification` — an analyst is
    better served by the sentence that answers than by an abstention, but a clause that is
    only near the answer is no answer to state."""

    weights: dict[str, float]
    min_confidence: float
    meta: dict
    calibrator: dict[str, float] = field(default_factory=dict)
    quote_calibrator: dict[str, float] = field(default_factory=dict)
    quote_min_confidence: float = 1.01

    def score(self, phi: dict[str, float]) -> float:
        w = self.weights
        return sum(w.get(k, 0.0) * v for k, v in phi.items())

    def confidence(self, ranked: list[Scored], q: Asked, *, quote: bool = False) -> float:
        """How likely the best span is the answer exactly (or, with `quote`, quotes its
        clause): `calibration_features` through the tier's calibrator."""
        if not ranked:
            return 0.0
        b = ranked[0]
        other = max((r.probability for r in ranked[1:]), default=0.0)
        f = calibration_features(b.p_sentence, b.p_span, b.cover, b.phi, other, q.opening,
                                 b.expected_f1)
        cal = self.quote_calibrator if quote else self.calibrator
        if not cal:
            return f["p_best"]
        z = sum(cal.get(k, 0.0) * v for k, v in f.items())
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    @staticmethod
    def load(path: Path = SPAN_WEIGHTS_FILE) -> SpanModel:
        d = json.loads(path.read_text(encoding="utf-8"))
        return SpanModel(dict(d["weights"]), float(d["min_confidence"]),
                         dict(d.get("meta", {})), dict(d.get("calibrator", {})),
                         dict(d.get("quote_calibrator", {})),
                         float(d.get("quote_min_confidence", 1.01)))

    def save(self, path: Path) -> None:
        """Write the model; weights below `WEIGHT_FLOOR` are dropped, the rest kept to four
        decimals."""
        kept = {k: round(v, 4) for k, v in sorted(self.weights.items())
                if abs(v) >= WEIGHT_FLOOR}
        path.write_text(json.dumps({"meta": self.meta, "min_confidence": self.min_confidence,
                                    "calibrator": self.calibrator,
                                    "quote_min_confidence": self.quote_min_confidence,
                                    "quote_calibrator": self.quote_calibrator,
                                    "weights": kept}, indent=0) + "\n", encoding="utf-8")


def calibration_features(p_sentence: float, p_span: float, cover: float,
                         phi: dict[str, float], other: float, opening: tuple[str, ...],
                         expected_f1: float = 0.0) -> dict[str, float]:
    """What the calibrator reads of a question's ranking: the best span's probability and its
    parts (P(sentence), P(span | sentence)), its margin over the likeliest other (`other`:
    that one's probability), its expected F1 (`decode`), the sentence's coverage of the
    question, the span's shape (its features `_SHAPE`) and the question's opening words."""
    p = p_sentence * p_span
    out = {"bias": 1.0, "p_best": p, "p_sentence": p_sentence, "p_span": p_span,
           "margin": p - other, "cover": cover, "expected_f1": expected_f1}
    for k in _SHAPE:
        out[k[2:]] = phi.get(k, 0.0)
    for qw in opening:
        out[f"q={qw}"] = 1.0
    return out


_SHAPE = ("p:figure", "p:whole", "p:novel", "p:cover_in", "p:cover_before", "p:log_len")


MBR_TOP = 20  # the likeliest spans the answer's expected F1 is taken over (`decode`)


def decode(probs: list[float], sentence: list[int], lo: list[int], hi: list[int]
           ) -> tuple[int, float]:
    """The span to answer with — the likeliest — and its expected F1 against the `MBR_TOP`
    likeliest spans weighted by their probabilities: how much the ranking agrees on the
    words of the answer (several likely spans sharing one clause), which the calibrator
    reads. Picking the span of the largest expected F1 instead (minimum-Bayes-risk decoding)
    was measured on the held-out halves of TAT-QA dev: F1 +0.03, exact match -0.01 to -0.05
    (it prefers the middle of the likely spans to either exact one), so it is not the pick."""
    top = sorted(range(len(probs)), key=lambda i: (-probs[i], i))[:MBR_TOP]
    mass = sum(probs[i] for i in top) or 1.0
    best = top[0]
    f = 0.0
    for j in top:
        if sentence[best] != sentence[j]:
            continue
        ov = min(hi[best], hi[j]) - max(lo[best], lo[j])
        if ov > 0:
            f += probs[j] * 2 * ov / (hi[best] - lo[best] + hi[j] - lo[j])
    return best, f / mass


def token_range(text: str, a: int, b: int) -> tuple[int, int]:
    """The token indices [i, j) of the tokens within characters [a, b) of `text`."""
    toks = token_spans(text)
    inside = [k for k, (s, e, _) in enumerate(toks) if a <= s and e <= b]
    return (inside[0], inside[-1] + 1) if inside else (0, 0)




def candidates(question: str, p: Prose) -> tuple[Asked, list[tuple[int, float, dict,
                                                                   list[tuple[int, int, dict]]]]]:
    """The question read against the prose, and per retrieved sentence: (index, coverage,
    sentence features, [(start, end, span features)])."""
    q = Asked.of(question, p)
    found = retrieve(q, p)
    best = found[0][1] if found else 0.0
    out = []
    for rank, (i, cover) in enumerate(found):
        text = p.sentences[i].text
        spans = [(a, b, span_features(q, text, a, b)) for a, b in candidate_spans(text)]
        out.append((i, cover, sentence_features(q, p, i, cover, rank, best), spans))
    return q, out


def rank(question: str, p: Prose, m: SpanModel) -> tuple[Asked, list[Scored]]:
    """Every candidate span of the retrieved sentences: first the one `decode` picks (with
    its expected F1), then the others by P(sentence) x P(span | sentence)."""
    q, found = candidates(question, p)
    ps = softmax([m.score(phi) for _, _, phi, _ in found])
    out: list[Scored] = []
    sent: list[int] = []
    for k, ((i, cover, _phi, spans), p_s) in enumerate(zip(found, ps, strict=True)):
        pp = softmax([m.score(phi) for _, _, phi in spans])
        text = p.sentences[i].text
        out += [Scored(p.sentences[i], a, b, cover, p_s, x, phi, token_range(text, a, b))
                for (a, b, phi), x in zip(spans, pp, strict=True)]
        sent += [k] * len(spans)
    if not out:
        return q, out
    pick, ef1 = decode([s.probability for s in out], sent, [s.tokens[0] for s in out],
                       [s.tokens[1] for s in out])
    chosen = replace(out[pick], expected_f1=ef1)
    rest = sorted((s for k, s in enumerate(out) if k != pick),
                  key=lambda s: (-s.probability, s.sentence.claim_id, s.start, s.end))
    return q, [chosen, *rest]


_MODELS: dict[str, SpanModel] = {}


def model(path: str = "") -> SpanModel:
    """The span model in `path` ("" for the shipped `span_weights.json`), loaded once."""
    got = _MODELS.get(path)
    if got is None:
        got = _MODELS[path] = SpanModel.load(Path(path)) if path else SpanModel.load()
    return got


def answer(question: str, con: duckdb.DuckDBPyConnection, *, weights: str = "",
           min_confidence: float | None = None, quote_min_confidence: float | None = None
           ) -> ProgramReading | None:
    """The best span committed as a reader result (`route.ProgramReading`: one requirement,
    the sentence's claim as its one committed fact, the clause as the value), or None when
    it reaches neither tier (`SpanModel`; the fitted cuts unless given). A span above the
    quote tier only is marked `tentative` in its program: the engine offers the cited
    sentence as `needs_verification`, stating no value."""
    m = model(weights)
    p = prose(con)
    if not p.sentences:
        return None
    q, ranked = rank(question, p, m)
    if not ranked:
        return None
    conf = m.confidence(ranked, q)
    if conf >= (m.min_confidence if min_confidence is None else min_confidence):
        return commit(ranked[0], conf, p)
    quoted = m.confidence(ranked, q, quote=True)
    if quoted >= (m.quote_min_confidence if quote_min_confidence is None
                  else quote_min_confidence):
        return commit(ranked[0], conf, p, tentative=quoted)
    return None


def commit(best: Scored, confidence: float, p: Prose, tentative: float | None = None
           ) -> ProgramReading:
    """The engine's types for a quoted span: the sentence's claim committed as the evidence
    of one requirement, the clause as the answer, and a sentence citing it; `tentative`:
    the quote tier's confidence, when only that tier was reached."""
    from hyrag.answer.link.commitment import CommitmentStore, Fact
    from hyrag.answer.link.warrant import Verdict
    from hyrag.answer.parse.requirements import Requirement
    from hyrag.answer.programs.route import ProgramReading

    prog = best.program()
    r = run(prog, {}, p.by_claim)
    quote = r.quotes[0]
    s = quote.sentence
    label = quote.text if len(quote.text) <= 60 else quote.text[:57].rsplit(" ", 1)[0] + " ..."
    req = Requirement("R1", None, label)
    store = CommitmentStore()
    store.commit(Fact(
        claim_id=s.claim_id, requirement="R1", source=s.source, locator=s.locator, text=s.text,
        entity=None, attribute=label, value=None, value_text="", value_base=None, unit="",
        scale="", time_key=None, kind="text", table=None, score=best.cover,
        warrant_query=f"program: {prog}", confidence=s.confidence))
    program = {"kind": "program", "operation": "span", "program": prog.to_dict(),
               "expression": r.expression, "confidence": round(confidence, 4),
               "operands": [s.claim_id], "quote": quote.text}
    if tentative is not None:
        program["tentative"] = round(tentative, 4)
    return ProgramReading([req], [Verdict(req, "direct", (s.claim_id,))], store, [],
                          "program:span", quote.text, "", confidence, 0, "", program)
