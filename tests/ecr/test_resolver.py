"""The Box 1 loop: termination, the stopping rule, the coherence term, Appendix B."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecr import Candidate, ECRSettings, Hypothesis, resolve

H3 = [Hypothesis(f"h{i}", f"answer {i}") for i in range(3)]


def cand(cid: str, *supports: str, conf: float = 0.95, **kw: object) -> Candidate:
    return Candidate(cid, f"claim {cid}", conf, supports=frozenset(supports), **kw)  # type: ignore[arg-type]


def test_five_confirmations_reach_the_seed_figure() -> None:
    cs = [cand(f"c{i}", "h1") for i in range(8)]
    r = resolve(cs, H3)
    assert r.stop_reason == "epistemic_sufficiency"
    assert r.dominant == "h1" and len(r.trace) == 5
    assert round(r.entropy, 4) == 0.2129
    assert r.initial_entropy == pytest.approx(math.log2(3))
    assert [round(s.entropy, 3) for s in r.trace] == [1.457, 1.108, 0.710, 0.403, 0.213]


candidate_lists = st.lists(
    st.tuples(
        st.sets(st.sampled_from(["h0", "h1", "h2"])),
        st.floats(min_value=0, max_value=1),
        st.floats(min_value=0, max_value=1),
    ),
    max_size=25,
)


@given(candidate_lists, st.integers(min_value=1, max_value=12), st.sampled_from(
    ["proxy", "seed_proxy", "exact"]))
@settings(max_examples=80, deadline=None)
def test_terminates_within_min_T_and_candidates(spec, budget, mode) -> None:
    cs = [
        Candidate(f"c{i}", "t", conf, supports=frozenset(sup), relevance=rel)
        for i, (sup, conf, rel) in enumerate(spec)
    ]
    r = resolve(cs, H3, ECRSettings(budget=budget, eer_mode=mode))
    assert len(r.trace) <= min(budget, len(cs))
    assert len(set(r.evaluated)) == len(r.evaluated)
    assert sum(r.distribution) == pytest.approx(1.0)
    assert 0 <= r.entropy <= math.log2(3) + 1e-9
    if r.dominant is not None:
        assert r.entropy <= 0.3 and not r.has_unresolved_conflict
    if r.stop_reason == "budget":
        assert len(r.trace) == budget


def test_lambda_zero_is_entropy_only_selection() -> None:
    """With lambda = 0 the choice is argmax EER alone; with lambda > 0 a twin jumps the queue."""
    first = cand("a", "h0")
    twin = Candidate("not-a", "it is not the case that a", 0.5, negates=frozenset({"a"}))
    strong = [cand(f"s{i}", "h0", conf=0.95) for i in range(3)]
    pool = [first, *strong, twin]
    r0 = resolve(pool, H3, ECRSettings(lambda_conflict=0.0, budget=3))
    assert r0.evaluated == ("a", "s0", "s1")
    assert all(s.score == s.eer for s in r0.trace)
    r1 = resolve(pool, H3, ECRSettings(lambda_conflict=1.0, budget=3))
    assert r1.evaluated[:2] == ("a", "not-a")
    assert r1.trace[1].conflict_potential == 1


def test_appendix_b_claim_and_its_negation() -> None:
    c = Candidate("c", "X holds", 0.9, contradiction=1, supports=frozenset({"h0"}))
    n = Candidate("n", "X does not hold", 0.9, contradiction=1, negates=frozenset({"c"}))
    for s in (ECRSettings(), ECRSettings.seed_rule()):
        r = resolve([c, n], H3, s)
        assert set(r.evaluated) == {"c", "n"}
        assert r.has_unresolved_conflict is True
        assert r.dominant is None
        assert r.stop_reason == "unresolved_conflict"
        assert r.conflicts == (("c", "n"),)


def test_conflict_on_a_dead_hypothesis_is_not_ambiguity_under_the_in_play_rule() -> None:
    dead = Candidate("d", "about h2", 0.9, relevance=0.0, supports=frozenset({"h2"}))
    twin = Candidate("nd", "not d", 0.9, relevance=0.0, negates=frozenset({"d"}))
    live = [cand(f"c{i}", "h0", conf=0.5) for i in range(6)]
    verdict = {"d": 0.0, "nd": 1.0}

    def verify(c: Candidate) -> float:
        return verdict.get(c.id, 1.0)

    # evaluate the dead pair first (seed-literal order), then the live claims
    order = ECRSettings(eer_mode="exact", lambda_conflict=5.0, verify_relevance=False)
    pool = [dead, twin, *live]
    ours = resolve(pool, H3, order.with_(budget=10), verify)
    seed = resolve(pool, H3, order.with_(budget=10, conflict_rule="seed"), verify)
    assert ours.evaluated[:2] == ("d", "nd")
    assert ours.dominant == "h0" and not ours.has_unresolved_conflict
    assert seed.dominant is None and seed.stop_reason == "unresolved_conflict"


def test_stops_when_nothing_informative_is_left() -> None:
    cs = [cand("all", "h0", "h1", "h2"), cand("none")]
    r = resolve(cs, H3)
    assert r.stop_reason == "exhausted" and r.trace == ()
    assert r.top is None and r.dominant is None


def test_budget_stop_and_ranked_output() -> None:
    cs = [cand(f"c{i}", "h0" if i % 2 else "h1") for i in range(20)]
    r = resolve(cs, H3, ECRSettings(budget=2))
    assert r.stop_reason == "budget" and r.dominant is None
    assert [h for h, _ in r.ranked][-1] == "h2"
    d = r.to_dict()
    assert d["stop_reason"] == "budget" and len(d["trace"]) == 2


def test_relevance_zero_claims_are_verified_false() -> None:
    cs = [cand(f"w{i}", "h2", relevance=0.0) for i in range(3)] + [
        cand(f"c{i}", "h0") for i in range(5)
    ]
    r = resolve(cs, H3)
    assert r.dominant == "h0" and len(r.trace) == 5
    seed = resolve(cs, H3, ECRSettings.seed_rule())
    # provenance-only verification takes the off-scope claims as true evidence
    assert seed.evaluated[0] == "w0" and seed.trace[0].observed == 1.0
    assert seed.dominant != "h0"


def test_input_validation() -> None:
    with pytest.raises(ValueError, match="at least one hypothesis"):
        resolve([], [])
    with pytest.raises(ValueError, match="candidate ids must be unique"):
        resolve([cand("a"), cand("a")], H3)
    with pytest.raises(ValueError, match="confidence must be in"):
        Candidate("x", "t", 1.5)
    with pytest.raises(ValueError, match="cannot negate itself"):
        Candidate("x", "t", 0.5, negates=frozenset({"x"}))
