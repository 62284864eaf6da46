"""TAT-QA's scoring conventions as `hyrag bench tatqa` re-implements them."""

from __future__ import annotations

from hyrag.bench.tatqa import score


def _q(answer, scale: str = "", answer_type: str = "multi-span") -> dict:
    return {"answer": answer, "scale": scale, "answer_type": answer_type}


def test_a_multi_span_answer_is_a_bag_whatever_its_order_and_formatting() -> None:
    q = _q(["$14,740", "$1,910"], "thousand")
    assert score(q, ["14740", "1910"], "thousand")[0] == 1.0
    assert score(q, ["1910", "14740"], "thousand")[0] == 1.0
    assert score(q, ["1910", "14740"], "")[0] == 0.0  # the scale must still match
    assert score(q, ["1910"], "thousand")[0] == 0.0


def test_a_number_is_compared_after_its_scale() -> None:
    q = _q(["$1.8 million"], "", "span")
    assert score(_q(["1,779"], "thousand", "span"), ["1779"], "thousand")[0] == 1.0
    assert score(q, ["1779"], "thousand")[0] == 0.0
