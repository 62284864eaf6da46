"""Deterministic hypothesis generation from competing readings."""

from __future__ import annotations

from ecr import Candidate, CompetingValueGenerator, HypothesisGenerator, Reading


def test_competing_keys_and_values() -> None:
    rs = [
        Reading("agg-n1", "N|Q1", 100.0, 3.0, "North Q1"),
        Reading("erp-n1", "N|Q1", 100.0, 1.0, "North Q1"),
        Reading("crm-n1", "N|Q1", 110.0, 1.0, "North Q1"),
        Reading("cell-n1", "N|Q1", None, 2.0),
        Reading("agg-s1", "S|Q1", 80.0, 2.5, "South Q1"),
        Reading("agg-n2", "N|Q2", 90.0, 0.5, "North Q2"),
        Reading("other", None),
    ]
    gen: HypothesisGenerator = CompetingValueGenerator(k=3)
    space = gen.generate("q", rs)
    assert [h.value for h in space.hypotheses] == [100.0, 110.0, 80.0]
    assert space.supports["cell-n1"] == {"h0", "h1"}  # a member cannot tell the values apart
    assert space.supports["erp-n1"] == {"h0"}
    assert "other" not in space.supports and "agg-n2" not in space.supports
    cs = space.attach([Candidate("other", "t", 0.5), Candidate("crm-n1", "t", 0.5)])
    assert cs[0].supports == frozenset() and cs[1].supports == {"h1"}


def test_deterministic_ties_follow_input_order() -> None:
    rs = [Reading(f"c{i}", f"k{i}", float(i), 1.0) for i in range(5)]
    space = CompetingValueGenerator(k=3).generate("q", rs)
    assert [h.value for h in space.hypotheses] == [0.0, 1.0, 2.0]


def test_member_only_keys_fill_the_space() -> None:
    rs = [
        Reading("agg", "A", 10.0, 2.0, "A"),
        Reading("m1", "B", None, 1.5),
        Reading("m2", "C", None, 1.0),
        Reading("m3", "D", None, 0.5),
    ]
    space = CompetingValueGenerator(k=3).generate("q", rs)
    assert [h.value for h in space.hypotheses] == [10.0, None, None]
    assert "not stated" in space.hypotheses[1].label
    assert space.supports["m1"] == {"h1"} and "m3" not in space.supports
