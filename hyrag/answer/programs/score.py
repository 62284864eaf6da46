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
from dataclasses import dataclass
from pathlib import Path

from hyrag.answer.programs.candidates import Candidate
from hyrag.answer.programs.execute import Result
from hyrag.answer.programs.lexicon import tokens
from hyrag.answer.programs.link import Question

WEIGHTS_FILE = Path(__file__).with_name("weights.json")


def features(q: Question, c: Candidate, r: Result) -> dict[str, float]:
    """phi(q, c): the candidate's features (see the module docstring)."""
    op = c.program.op
    out: dict[str, float] = {f"op={op}": 1.0, f"op={op}:shape={c.shape}": 1.0,
                             f"op={op}:nyears={min(len(q.years), 3)}": 1.0}
    words = [t for t in tokens(q.text) if not t.replace(".", "").isdigit()]
    order = [k for k in ("first_later", "first_earlier", "first_mentioned_first",
                         "first_mentioned_last") if c.features.get(k)]
    for w in set(words) | {f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)}:
        out[f"op={op}:w={w}"] = 1.0
        for o in order:
            out[f"op={op}:{o}:w={w}"] = 1.0
    for k, v in c.features.items():
        if v:
            out[k] = v
            out[f"op={op}:{k}"] = v
    for o in order:
        out[f"op={op}:shape={c.shape}:{o}"] = 1.0
    nums = [v for v in r.values if isinstance(v, float)]
    if nums:
        out[f"op={op}:negative"] = float(any(v < 0 for v in nums))
    texts = [v for v in r.values if isinstance(v, str)]
    out[f"op={op}:text_value"] = float(bool(texts))
    if any(cv.scale == "percent" for cv in r.cells):
        out[f"op={op}:percent_operands"] = 1.0
    return out


@dataclass(frozen=True)
class Model:
    """Fitted weights and the abstention threshold fitted with them."""

    weights: dict[str, float]
    min_confidence: float
    meta: dict

    def score(self, phi: dict[str, float]) -> float:
        w = self.weights
        return sum(w.get(k, 0.0) * v for k, v in phi.items())

    @staticmethod
    def load(path: Path = WEIGHTS_FILE) -> Model:
        d = json.loads(path.read_text(encoding="utf-8"))
        return Model(dict(d["weights"]), float(d["min_confidence"]), dict(d.get("meta", {})))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"meta": self.meta, "min_confidence": self.min_confidence,
                                    "weights": dict(sorted(self.weights.items()))},
                                   indent=0, sort_keys=False) + "\n", encoding="utf-8")


def softmax(scores: list[float]) -> list[float]:
    """Probabilities of candidates from their scores (numerically stable)."""
    if not scores:
        return []
    m = max(scores)
    e = [math.exp(s - m) for s in scores]
    z = sum(e)
    return [x / z for x in e]
