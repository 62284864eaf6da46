"""The ranker's decoding and the calibrator's reading of it, on hand-set weights."""

from __future__ import annotations

import math

import pytest

from hyrag.answer.programs.score import Model, calibration_features

KEYS = ["lookup/plain", "ratio/plain", "ratio/plain", "ratio/plain"]
PHIS: list[tuple[dict, dict]] = [({}, {}), ({"op:ratio": 1.0}, {"arg:good": 1.0}),
                                 ({"op:ratio": 1.0}, {}), ({"op:ratio": 1.0}, {})]


def test_decoding_takes_the_likeliest_operator_then_its_likeliest_operands() -> None:
    """P(ratio) = 0.6 spread over three operand sets, P(lookup) = 0.4 on one: by the joint
    probability the lookup wins (0.4 > 0.2); the question asks for a ratio, so the two-step
    decoding answers the ratio's likeliest operands."""
    m = Model({"op:ratio": math.log(1.5)}, 0.5, {})
    joint = m.probabilities(KEYS, PHIS)
    assert max(range(4), key=lambda i: joint[i]) == 0
    order = m.best_first(KEYS, PHIS)
    assert [i for i, _ in order] == [1, 2, 3, 0]
    assert [a * b for _, (a, b) in order] == pytest.approx([joint[i] for i, _ in order])
    # within the operator, the operands the weights prefer come first
    m = Model({"op:ratio": math.log(1.5), "arg:good": -2.0}, 0.5, {})
    assert [i for i, _ in m.best_first(KEYS, PHIS)] == [2, 3, 1, 0]


def test_the_calibrator_reads_the_chosen_candidate_not_the_largest_probability() -> None:
    f = calibration_features([0.2, 0.5, 0.3], ({}, {}), "ratio/plain", (0.4, 0.5))
    assert f["p_best"] == 0.2 and f["margin"] == pytest.approx(-0.3)
    assert (f["p_operator"], f["p_operands"]) == (0.4, 0.5)
    assert f["op=ratio/plain"] == 1.0


def test_features_have_a_copy_per_table_kind_and_shipped_weights_read_the_shared_ones() -> None:
    """A weight learnt for one kind of table applies to candidates over that kind only; a
    model without kind weights scores a candidate as it did before the copies existed."""
    from hyrag.answer.programs.candidates import Candidate
    from hyrag.answer.programs.execute import Result
    from hyrag.answer.programs.language import Cell, Program
    from hyrag.answer.programs.link import Question
    from hyrag.answer.programs.score import features, table_kind

    assert table_kind([None, 2019, 2018]) == "report"
    assert table_kind([None, None, 2019]) == "list"
    q = Question.of("What was the revenue in 2019?")
    c = Candidate(Program("lookup", (Cell("t", 0, 1),)), "cell", {"col_best": 1.0})
    r = Result((100.0,), "", (), "100", "lookup")
    shared = features(q, c, r)
    op, arg = features(q, c, r, "report")
    assert all(op[k] == v and op[f"report|{k}"] == v for k, v in shared[0].items())
    assert all(arg[k] == v and arg[f"report|{k}"] == v for k, v in shared[1].items())
    assert not any(k.startswith("list|") for k in [*op, *arg])
    m = Model({"arg:col_best": 0.5, "list|arg:col_best": 3.0}, 0.5, {})
    assert m.score(arg) == m.score(shared[1]) == 0.5


def test_the_none_operator_competes_with_the_programs_and_a_kind_part_is_left_alone() -> None:
    """A model fitted with the NONE operator (`score.none_features`) reads it in the operator
    softmax: the candidates' probabilities are shares of what it leaves, and where it is the
    likeliest operator the ranking abstains. A model without it, and candidates scored by a
    kind's own part (fitted without it), rank as before."""
    from hyrag.answer.programs.link import Question
    from hyrag.answer.programs.score import NONE, none_features

    none = none_features(Question.of("Why did revenue rise in 2019?"))
    assert none[f"op={NONE}"] == 1.0 and f"op={NONE}:w=why" in none
    plain = Model({"op:ratio": math.log(1.5)}, 0.5, {})
    assert plain.rank(KEYS, PHIS, none=none).order == plain.best_first(KEYS, PHIS)
    assert plain.rank(KEYS, PHIS, none=none).none == 0.0
    # the NONE operator's score log(2.5): P(none) = 2.5 / (1 + 1.5 + 2.5) = 0.5
    m = Model({"op:ratio": math.log(1.5), f"op={NONE}": math.log(2.5)}, 0.5, {})
    got = m.rank(KEYS, PHIS, none=none)
    assert got.abstains and got.none == pytest.approx(0.5)
    assert [i for i, _ in got.order] == [1, 2, 3, 0]
    assert got.order[0][1][0] == pytest.approx(0.3)  # P(ratio) = 1.5 / 5
    # a weaker NONE: the programs are ranked first, their probabilities still share with it
    m = Model({"op:ratio": math.log(1.5), f"op={NONE}": math.log(0.5)}, 0.5, {})
    got = m.rank(KEYS, PHIS, none=none)
    assert not got.abstains and got.none == pytest.approx(0.5 / 3.0)
    # candidates every one of which a kind's own part scores: that part has no NONE
    kinds = Model({}, 0.5, {}, kinds={"list": Model({}, 0.5, {})})
    kinds = Model({f"op={NONE}": 10.0}, 0.5, {}, kinds=kinds.kinds)
    got = kinds.rank(KEYS, PHIS, ["list"] * 4, none=none)
    assert not got.abstains and got.none == 0.0
