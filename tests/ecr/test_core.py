"""The equations of seed 003 as pure functions: bounds, identities and the seed's figures."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecr import (
    ECRSettings,
    bayes_update,
    eer_proxy,
    effective_hypotheses,
    entropy,
    exact_eer,
    likelihood,
    micro_learn,
    trace_variance,
    uniform,
    verification_probability,
)

probs = st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=8).filter(
    lambda xs: sum(xs) > 1e-6
)


def _norm(xs: list[float]) -> np.ndarray:
    a = np.asarray(xs, dtype=float)
    return a / a.sum()


@given(probs)
def test_entropy_is_between_zero_and_log2_k(xs: list[float]) -> None:
    p = _norm(xs)
    h = entropy(p)
    assert 0.0 <= h <= math.log2(len(p)) + 1e-9


def test_entropy_extremes() -> None:
    assert entropy(uniform(3)) == pytest.approx(math.log2(3))
    assert entropy([1.0, 0.0, 0.0]) == 0.0
    assert effective_hypotheses(entropy(uniform(4))) == pytest.approx(4.0)


@given(probs, st.data())
def test_bayes_update_preserves_a_distribution(xs: list[float], data: st.DataObject) -> None:
    p = _norm(xs)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=len(p), max_size=len(p))))
    x = data.draw(st.floats(min_value=0.0, max_value=1.0))
    post = bayes_update(p, likelihood(mask, x, ECRSettings()))
    assert post.sum() == pytest.approx(1.0)
    assert (post >= 0).all()


def test_seed_table2_h_final_is_five_supporting_updates() -> None:
    """CONTRACT.md: 0.7 / 0.3 from a uniform prior over 3, five confirmations -> 0.2129."""
    s = ECRSettings()
    p = uniform(3)
    mask = np.array([True, False, False])
    trace = [entropy(p)]
    for _ in range(5):
        p = bayes_update(p, likelihood(mask, 1.0, s))
        trace.append(entropy(p))
    assert round(trace[-1], 4) == 0.2129
    assert round((trace[0] - trace[-1]) / 5, 4) == 0.2744  # Table 2 dH/claim
    assert round(effective_hypotheses(trace[-1]), 3) == 1.159  # Table 2 2^H
    assert round(trace_variance(trace), 6) == 0.262860  # Table 3 TraceVar 0.262859(7)
    assert trace[4] > s.epsilon >= trace[5]  # four are not enough: collapse at exactly 5


@given(probs, st.floats(min_value=0.0, max_value=1.0))
def test_eer_is_zero_for_a_claim_supporting_every_hypothesis(xs: list[float], conf: float) -> None:
    p = _norm(xs)
    everything = np.ones(len(p), dtype=bool)
    nothing = np.zeros(len(p), dtype=bool)
    s = ECRSettings()
    assert eer_proxy(p, everything, conf) == 0.0
    assert eer_proxy(p, nothing, conf) == 0.0
    assert exact_eer(p, everything, s) == pytest.approx(0.0, abs=1e-12)
    # the update really is the identity, which is why the EER must be 0
    assert np.allclose(bayes_update(p, likelihood(everything, 1.0, s)), p)


def test_literal_seed_proxy_keeps_the_artifact() -> None:
    p = uniform(3)
    assert eer_proxy(p, np.ones(3, dtype=bool), 1.0, literal=True) == pytest.approx(math.log2(3))


@given(probs, st.data())
@settings(max_examples=50)
def test_eer_values_are_bounded(xs: list[float], data: st.DataObject) -> None:
    p = _norm(xs)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=len(p), max_size=len(p))))
    h = entropy(p)
    assert 0.0 <= eer_proxy(p, mask, 1.0) <= h + 1e-12
    assert 0.0 <= exact_eer(p, mask, ECRSettings()) <= h + 1e-9


def test_eq4_value_at_uniform() -> None:
    p = uniform(3)
    one = np.array([True, False, False])
    assert eer_proxy(p, one, 0.5) == pytest.approx(1 / 3 * math.log2(3) * 0.5)


def test_verification_probability_eq8() -> None:
    assert verification_probability(0, 0, 0.83) == 0.83
    assert verification_probability(3, 1, 0.1) == pytest.approx(4 / 6)
    assert verification_probability(0, 1, 0.99) == pytest.approx(1 / 3)
    with pytest.raises(ValueError):
        verification_probability(-1, 0, 0.5)


@given(
    st.floats(min_value=-2, max_value=3),
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=50),
)
def test_micro_learning_is_clipped(base: float, s: int, c: int) -> None:
    assert 0.0 <= micro_learn(base, s, c) <= 1.0


def test_micro_learning_eq10_values() -> None:
    assert micro_learn(0.5, 0, 0) == 0.5
    assert micro_learn(0.5, 3, 0) == pytest.approx(0.5 + 0.15 * math.log(4))
    assert micro_learn(0.5, 0, 1) == pytest.approx(0.25)
    assert micro_learn(0.9, 100, 0) == 1.0
    assert micro_learn(0.2, 0, 2) == 0.0
