"""RRF (seed 003 eq. 9) properties, checked with hypothesis."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hyrag.retrieve.rrf import rrf, rrf_scores

ranking = st.lists(st.integers(0, 30), max_size=15, unique=True)
rankings = st.lists(ranking, min_size=1, max_size=5)
ks = st.integers(0, 100)


@given(rankings, ks)
def test_score_is_sum_of_reciprocal_ranks(lists: list[list[int]], k: int) -> None:
    scores = rrf_scores(lists, k)
    for item, s in scores.items():
        expected = sum(1.0 / (k + lst.index(item) + 1) for lst in lists if item in lst)
        assert abs(s - expected) < 1e-12


@given(rankings, ks)
def test_only_listed_items_and_bounded(lists: list[list[int]], k: int) -> None:
    scores = rrf_scores(lists, k)
    assert set(scores) == {x for lst in lists for x in lst}
    assert all(0 < s <= len(lists) / (k + 1) + 1e-12 for s in scores.values())  # float sum


@given(rankings, ks, st.randoms())
def test_order_of_rankings_does_not_matter(lists: list[list[int]], k: int, rnd) -> None:
    shuffled = list(lists)
    rnd.shuffle(shuffled)
    assert rrf(lists, k) == rrf(shuffled, k)


@given(rankings, ks)
def test_first_everywhere_is_first_fused(lists: list[list[int]], k: int) -> None:
    top = 999
    fused = rrf([[top, *lst] for lst in lists], k)
    assert fused[0][0] == top


@given(ranking.filter(lambda r: len(r) >= 2), rankings, ks)
def test_moving_up_never_lowers_the_score(
    first: list[int], others: list[list[int]], k: int
) -> None:
    item = first[-1]
    promoted = [item] + first[:-1]
    assert rrf_scores([promoted, *others], k)[item] >= rrf_scores([first, *others], k)[item]


def test_agreement_beats_a_single_vote() -> None:
    """Two second places outweigh one first place at k = 60 (why fusion rewards agreement)."""
    s = rrf_scores([["a", "b"], ["c", "b"]], 60)
    assert s["b"] > s["a"]


def test_duplicates_keep_first_rank_and_weights_scale() -> None:
    assert rrf_scores([["a", "a", "b"]], 60) == rrf_scores([["a", "b"]], 60)
    w = rrf_scores({"x": ["a"], "y": ["b"]}, 60, weights={"x": 2.0})
    assert abs(w["a"] - 2 / 61) < 1e-12 and abs(w["b"] - 1 / 61) < 1e-12
