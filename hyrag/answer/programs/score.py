"""The ranker: a log-linear model over (question, program, linked cells, result).

score(c) = w . phi(q, c), and the probability of a candidate is its softmax among the
question's candidates (a listwise log-linear ranker, as in Pasupat & Liang 2015's
floating parser and TagOp's operator classifier, without the neural encoder). The features are
generic: the question's tokens crossed with the operator (so "change", "average", "from ...
to" are cues the data teaches, not word lists), the linker's match qualities of the operands,
how the operands' periods cover the years the question names, operand order, and facts of the
result (its sign, a percentage of percentages). The weights are fitted by `fit` on training
questions and ship as `weights.json`; the confidence of the best program is its probability,
and `min_confidence` (fitted on the same training half) is the abstention threshold.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hyrag.answer.programs.candidates import Candidate
from hyrag.answer.programs.execute import Result
from hyrag.answer.programs.link import Question
from hyrag.answer.programs.lists import result_features
from ingest.units import MAGNITUDES

WEIGHTS_FILE = Path(__file__).with_name("weights.json")
WEIGHT_FLOOR = 1e-3  # weights below this are not shipped (`Model.save`)


def features(q: Question, c: Candidate, r: Result, kind: str = ""
             ) -> tuple[dict[str, float], dict[str, float]]:
    """(phi_op, phi_args): what the operator's choice rests on — the question's words and
    shape, crossed with the operator — and what the operands' choice within one operator rests
    on — how the linker matched them, their order, the result (module docstring).

    `kind` (`table_kind`: "report" | "list"): each feature is also given once more, conjoined
    with the kind of table the candidate reads, so that one ranker fitted on report tables
    and list tables together keeps what holds for both in the shared features and what holds
    for one kind in its own copies (feature augmentation, Daume 2007): "what was X in 2019"
    over a report table and "what was X's position" over a list of players ask different
    operators with the same words."""
    phi_op, phi = _features(q, c, r)
    if kind == "list":
        phi.update(result_features(q, c, r))  # what a list candidate answers (`lists`)
    if kind:
        phi_op.update({f"{kind}|{k}": v for k, v in list(phi_op.items())})
        phi.update({f"{kind}|{k}": v for k, v in list(phi.items())})
    return phi_op, phi


def table_kind(col_years: Sequence[int | None]) -> str:
    """"report" for a table whose columns are periods (two or more columns name a year: line
    items x periods), "list" for any other (one row per entity; `lists`)."""
    return "report" if sum(y is not None for y in col_years) >= REPORT_PERIOD_COLUMNS else "list"


# a table is a report (line items x periods) when at least this many of its columns name a year
REPORT_PERIOD_COLUMNS = 2


def part_kind(kind: str, scales: Sequence[str], period_headings: bool = False,
              prose: bool = False) -> str:
    """The part of the model (`Model.kinds`) that ranks a table's candidates: its kind
    (`table_kind`), except that a table whose cells carry a report's scale (thousands,
    millions, billions) is ranked as a report whatever its columns. A statement of line items
    whose columns are not periods ("Current $'000 | Non-current $'000") is a report, not a
    list of entities; the list part was fitted on lists (WikiTableQuestions'), which state no
    such scale. So is a table whose periods head sections of rows ("2019:" over its quarters,
    "Year ended 30 June 2019" over its lines: `period_headings`): its periods are in its rows.
    And so is any table of a knowledge base that holds prose (`prose`: a report's text beside
    its tables): the list part was fitted on lists that stand alone, and its threshold on
    their precision target (answering where a standalone list is all there is to read); the
    report part was fitted on reports' tables, list-shaped ones included, with their prose,
    at the precision a report's reader is promised. Ranked by the list part, lists inside
    reports were answered below that precision (README, "program route").
    The features keep the table's kind: this picks the part, not the features."""
    return "report" if kind == "list" and (
        period_headings or prose or any(s in MAGNITUDES for s in scales)) else kind


def _features(q: Question, c: Candidate, r: Result) -> tuple[dict[str, float],
                                                           dict[str, float]]:
    """`features` without the table kind's copies."""
    op = c.program.op
    phi_op = operator_features(q, op_key(c))
    phi: dict[str, float] = {f"arg:{op}:shape={c.shape}": 1.0}
    # operand facts whose fit to a question its words tell: operand order, and a period's
    # year stated in place of its label (`language.CONVENTIONS["as year"]`)
    order = [k for k in ("first_later", "first_earlier", "first_mentioned_first",
                         "first_mentioned_last", "year") if c.features.get(k)]
    for w in q.grams:
        for o in order:
            phi[f"arg:{op}:{o}:w={w}"] = 1.0
    for k, v in c.features.items():
        if v:
            phi[f"arg:{k}"] = v
            phi[f"arg:{op}:{k}"] = v
    for o in order:
        phi[f"arg:{op}:shape={c.shape}:{o}"] = 1.0
    nums = [v for v in r.values if isinstance(v, float)]
    if nums:
        phi[f"arg:{op}:negative"] = float(any(v < 0 for v in nums))
    if any(isinstance(v, str) for v in r.values):
        phi[f"arg:{op}:text_value"] = 1.0
    if any(cv.scale == "percent" for cv in r.cells):
        phi[f"arg:{op}:percent_operands"] = 1.0
    return phi_op, phi


def operator_features(q: Question, key: str) -> dict[str, float]:
    """What choosing the operator `key` rests on: the question's words and word pairs
    (`Question.grams`) and shape (how many years it names, whether it bounds a range) crossed
    with the operator."""
    phi = {f"op={key}": 1.0, f"op={key}:nyears={min(len(q.years), 3)}": 1.0,
           f"op={key}:bounds={len(q.bounds) > 0}": 1.0}
    for w in q.grams:
        phi[f"op={key}:w={w}"] = 1.0
    return phi


# the operator "no table program answers this question": its answer is in the prose, or
# nowhere in the knowledge base (`none_features`, `Model.rank`)
NONE = "none"


def none_features(q: Question) -> dict[str, float]:
    """The features of the `NONE` operator, which competes with the table programs'
    operators in the ranker's operator softmax (`Model.rank`), as the null program of
    weakly supervised semantic parsing does: fitted on every training question — a positive
    where none of the question's candidates is right ("Why did revenue rise?", a figure only
    the text states) — it learns from the question's words when a table program is unlikely
    whatever its cells, which a ranker fitted only on questions with a right candidate never
    sees. It reads the question's words only, never the knowledge base, so it stands the same
    beside a table alone as beside a report's prose; and the calibrator, fitted with its
    probability always present, reads it wherever a program is ranked. Measured on TAT-QA
    dev's held-out halves (README, "program route")."""
    return operator_features(q, NONE)


def op_key(c: Candidate) -> str:
    """The operator choice a candidate belongs to (an operator, with or without a condition;
    a list-table candidate's kind too, `lists`: the row after a named one is another choice
    than the named row itself)."""
    w = c.program.where
    kind = {"=": "equal", "~": "holds"}.get(w[:1], "bounded" if w else "plain")
    key = f"{c.program.op}/{kind}"
    return key + (f"/{c.shape[5:]}" if c.shape.startswith("list:") else "")


@dataclass(frozen=True)
class Model:
    """Fitted weights and the abstention threshold fitted with them; with `kinds`, another
    ranker, calibrator and threshold for the candidates over tables of a kind (`table_kind`).

    Report tables (line items x periods, TAT-QA's) and list tables (one row per entity,
    WikiTableQuestions') ask different things of a ranker and score differently: a threshold
    fitted on the two pooled sits where report tables keep their precision and answers almost
    no list question. So a kind may carry its own part, fitted on its own training questions
    (`hyrag bench fit --kind list`), while the top-level weights stay what they were fitted on
    (report tables: TAT-QA) and answer for every kind without a part of its own."""

    weights: dict[str, float]
    min_confidence: float
    meta: dict
    # the calibrator: logistic weights over `calibration_features` of the best candidate,
    # fitted on out-of-fold predictions (`hyrag.bench.fit`); empty: the probability itself
    calibrator: dict[str, float] = field(default_factory=dict)
    # table kind -> the model for candidates over tables of that kind (no `kinds` of its own)
    kinds: dict[str, Model] = field(default_factory=dict)
    # how the best candidate is picked (`best_first`): "factored" (the likeliest operator,
    # then its likeliest operands) or "joint" (the likeliest candidate), fitted with the part
    decode: str = "factored"

    def for_kind(self, kind: str) -> Model:
        """The part that ranks, calibrates and thresholds candidates over a `kind` table."""
        return self.kinds.get(kind, self)

    def confidence(self, probs: list[float], best: tuple[dict, dict], op: str,
                   parts: tuple[float, float] = (0.0, 0.0), agree: float = 0.0,
                   prose: ProseEvidence | None = None, none: float = 0.0) -> float:
        """How likely the chosen program is right (`calibration_features`): the calibrator
        over its probabilities, its margin over the likeliest other, its operator, how
        well its operands are linked, how well the prose answers instead (`prose`), and the
        probability that no table program does (`none`, `Model.rank`)."""
        if not self.calibrator:
            return probs[0] if probs else 0.0
        z = sum(self.calibrator.get(k, 0.0) * v
                for k, v in calibration_features(probs, best, op, parts, agree,
                                                 prose or NO_PROSE, none).items())
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    def score(self, phi: dict[str, float]) -> float:
        w = self.weights
        return sum(w.get(k, 0.0) * v for k, v in phi.items())

    def rank(self, keys: list[str], phis: list[tuple[dict, dict]], kinds: Sequence[str] = (),
             none: dict[str, float] | None = None) -> Ranking:
        """`best_first`, with the `NONE` operator in the operator softmax when the model was
        fitted with it and a candidate is scored by this part (not by a kind's own part,
        fitted without it): its features `none` (`none_features`). The candidates'
        probabilities are then shares of the mass left beside it."""
        ms = [self.for_kind(k) for k in kinds] if kinds else [self] * len(phis)
        if none is None or f"op={NONE}" not in self.weights or not any(m is self for m in ms):
            return Ranking(self.best_first(keys, phis, kinds), 0.0)
        order = self.best_first(keys + [NONE], phis + [(none, {})],
                                list(kinds) + [""] if kinds else ())
        p_none = next(pp[0] for i, pp in order if i == len(keys))
        return Ranking([(i, pp) for i, pp in order if i < len(keys)], p_none,
                       bool(order) and order[0][0] == len(keys))

    def probabilities(self, keys: list[str], phis: list[tuple[dict, dict]],
                      kinds: Sequence[str] = ()) -> list[float]:
        """P(candidate) = P(operator | question) x P(operands | operator): a softmax over the
        operators present, then one over each operator's candidates, so an operator with many
        candidate operand sets is not favoured for having many."""
        return [a * b for a, b in self.parts(keys, phis, kinds)]

    def parts(self, keys: list[str], phis: list[tuple[dict, dict]], kinds: Sequence[str] = ()
              ) -> list[tuple[float, float]]:
        """(P(operator | question), P(operands | operator)) of each candidate; `kinds` (each
        candidate's table kind, when given) picks the part that scores it (`for_kind`)."""
        ms = [self.for_kind(k) for k in kinds] if kinds else [self] * len(phis)
        return factored(keys, [m.score(a) for m, (a, _) in zip(ms, phis, strict=True)],
                        [m.score(b) for m, (_, b) in zip(ms, phis, strict=True)])

    def best_first(self, keys: list[str], phis: list[tuple[dict, dict]],
                   kinds: Sequence[str] = ()) -> list[tuple[int, tuple[float, float]]]:
        """(candidate index, (P(operator), P(operands | operator))), best first: the likeliest
        operator, then within it the likeliest operands. Decoding in two steps rather than by
        the joint probability keeps an operator with many plausible operand sets (a ratio:
        which two of twelve cells?) from losing to one with few (a lookup) for spreading its
        mass; measured on the held-out halves of TAT-QA dev it picks the right program more
        often."""
        parts = self.parts(keys, phis, kinds)
        ms = [self.for_kind(k) for k in kinds] if kinds else [self]
        if all(m.decode == "joint" for m in ms):
            # a part fitted to decode jointly (`hyrag bench fit --decode joint`): on a list
            # table a question's operator is often told by its operands, not its words alone
            # ("the year after X" is the next row or the previous one as the table runs)
            order = sorted(range(len(parts)), key=lambda i: (-parts[i][0] * parts[i][1], i))
        else:
            order = sorted(range(len(parts)), key=lambda i: (-parts[i][0], -parts[i][1], i))
        return [(i, parts[i]) for i in order]

    @staticmethod
    def load(path: Path = WEIGHTS_FILE) -> Model:
        return Model.from_dict(json.loads(path.read_text(encoding="utf-8")))

    @staticmethod
    def from_dict(d: dict) -> Model:
        return Model(dict(d["weights"]), float(d["min_confidence"]), dict(d.get("meta", {})),
                     dict(d.get("calibrator", {})),
                     {k: Model.from_dict(v) for k, v in d.get("kinds", {}).items()},
                     str(d.get("decode", "factored")))

    def to_dict(self) -> dict:
        """The JSON form `save` writes: weights smaller than `WEIGHT_FLOOR` are dropped and
        the rest kept to four decimals (a ranker's scores do not move at that precision; the
        file halves)."""
        kept = {k: round(v, 4) for k, v in sorted(self.weights.items())
                if abs(v) >= WEIGHT_FLOOR}
        d: dict = {"meta": self.meta, "min_confidence": self.min_confidence,
                   "calibrator": self.calibrator}
        if self.decode != "factored":
            d["decode"] = self.decode
        if self.kinds:
            d["kinds"] = {k: m.to_dict() for k, m in sorted(self.kinds.items())}
        d["weights"] = kept
        return d

    def save(self, path: Path) -> None:
        """Write the model (`to_dict`)."""
        path.write_text(json.dumps(self.to_dict(), indent=0, sort_keys=False) + "\n",
                        encoding="utf-8")


_CALIBRATED = ("arg:min_label_cov", "arg:mean_question_cov", "arg:min_fuzzy",
               "arg:years_covered", "arg:years_extra", "arg:min_col_cov", "arg:row_other",
               # a list table's links (`lists`): the named value, the columns stated and read
               "arg:val_cover", "arg:val_exact", "arg:col_cov", "arg:x_col_cov")


def answer_key(r: Result) -> str:
    """What two programs must both compute to give the same answer: values (numbers to six
    significant digits) and scale."""
    vals = [f"{v:.6g}" if isinstance(v, float) else str(v) for v in r.values]
    return "|".join(vals) + f"@{r.scale}"


def agreement(probs: list[float], answers: list[str]) -> float:
    """The probability mass of every candidate computing the chosen one's answer (`probs` and
    `answers` chosen first): programs that differ in form but agree in value — a lookup and a
    one-cell sum, one total reached two ways — are evidence for that answer (the marginal over
    programs of weakly supervised semantic parsing, Liang et al. 2013)."""
    if not probs:
        return 0.0
    return sum(p for p, a in zip(probs, answers, strict=True) if a == answers[0])


@dataclass(frozen=True)
class Ranking:
    """A question's candidates best first ((index, (P(operator), P(operands | operator))),
    `Model.best_first`), the probability of the `NONE` operator beside them, and whether it
    is the likeliest operator: then no table program is the answer."""

    order: list[tuple[int, tuple[float, float]]]
    none: float = 0.0
    abstains: bool = False


@dataclass(frozen=True)
class ProseEvidence:
    """How well a sentence of the knowledge base's prose answers a question, as the
    calibrator reads it beside a table program: the idf-weighted share of the question's
    content words the best sentence covers (`spans.retrieve`), the same for the second best,
    and whether the best one states a figure.

    A report says many figures twice, in a table and in its prose, and some only in its
    prose ("Depreciation was $2.5 million in 2019", beside a table whose depreciation line is
    another measure). Where a sentence covers the question's words as well as the program's
    cells do, and states a figure, the answer is as likely the sentence's: the program is less
    sure than its ranking says. Measured on TAT-QA dev's held-out halves (calibrator fitted
    on the other half, out of fold): these three features raise the calibrator's AUC from
    0.857 / 0.886 to 0.871 / 0.899 and lower its log-loss from 0.474 / 0.442 to 0.452 /
    0.418 (README, "program route")."""

    cover: float = 0.0
    second: float = 0.0
    figure: bool = False

    def features(self) -> dict[str, float]:
        return {"prose_cover": self.cover, "prose_margin": self.cover - self.second,
                "prose_cover_figure": self.cover if self.figure else 0.0}


NO_PROSE = ProseEvidence()


def calibration_features(probs: list[float], best: tuple[dict, dict], op: str,
                         parts: tuple[float, float] = (0.0, 0.0), agree: float = 0.0,
                         prose: ProseEvidence = NO_PROSE, none: float = 0.0
                         ) -> dict[str, float]:
    """What the calibrator reads of a question's ranking (`probs`: the candidates'
    probabilities, the chosen one first; `parts`: its P(operator) and P(operands | operator),
    which fail apart — a sure operator over unsure operands, or the reverse; `agree`: the
    `agreement` of the others with its answer): its probability, its margin over the
    likeliest other, the number of candidates, its operator and the link qualities of its
    operands; and how well the knowledge base's prose answers the question instead
    (`prose`, `ProseEvidence`), and the probability of the `NONE` operator (`none`: 0 for
    a model fitted without it)."""
    first = probs[0] if probs else 0.0
    other = max(probs[1:], default=0.0)
    out = {"bias": 1.0, "p_best": first, "margin": first - other,
           "p_operator": parts[0], "p_operands": parts[1], "p_answer": agree,
           "log_candidates": math.log1p(len(probs)), f"op={op}": 1.0}
    for k in _CALIBRATED:
        out[k] = float(best[1].get(k, 0.0))
    out.update(prose.features())
    if none:
        out["p_none"] = none
    return out




def softmax(scores: list[float]) -> list[float]:
    """Probabilities of candidates from their scores (numerically stable)."""
    if not scores:
        return []
    m = max(scores)
    e = [math.exp(s - m) for s in scores]
    z = sum(e)
    return [x / z for x in e]


def factored(keys: list[str], op_scores: list[float], arg_scores: list[float]
             ) -> list[tuple[float, float]]:
    """(P(op), P(candidate | op)) from per-candidate operator scores (equal within an
    operator) and operand scores (`Model.parts`)."""
    # an operator's score is its candidates' (equal for enumerated ones; a proposed program's
    # bonus, `route.PROPOSED`, lifts its operator)
    best: dict[str, float] = {}
    for k, sc in zip(keys, op_scores, strict=True):
        best[k] = max(best.get(k, sc), sc)
    ops = list(best)
    p_op = dict(zip(ops, softmax([best[k] for k in ops]), strict=True))
    out = [(0.0, 0.0)] * len(keys)
    for k in ops:
        idx = [i for i, x in enumerate(keys) if x == k]
        for i, p in zip(idx, softmax([arg_scores[i] for i in idx]), strict=True):
            out[i] = (p_op[k], p)
    return out
