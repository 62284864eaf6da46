"""Section 4.1 triggers as a pure function."""

from __future__ import annotations

from ecr import ECRSettings, should_trigger


def test_no_trigger_on_a_small_consistent_pool() -> None:
    d = should_trigger("What was revenue in 2024Q1?", [0.9] * 15, False)
    assert not d.trigger and d.reasons == ()


def test_candidate_volume_is_strictly_more_than_15() -> None:
    assert should_trigger("q", [0.9] * 16, False).reasons == ("candidate_volume",)
    assert not should_trigger("q", [0.9] * 15, False).trigger


def test_uncertainty_words_match_as_prefixes() -> None:
    d = should_trigger("Do the sources DISAGREE? Conflicting reports.", [0.9], False)
    assert d.reasons == ("uncertainty_words",)
    assert set(d.uncertainty_words) == {"conflict", "disagree"}
    assert not should_trigger("The unconflicted total", [0.9], False).trigger


def test_confidence_variance_above_threshold() -> None:
    d = should_trigger("q", [0.0, 1.0, 0.0, 1.0], False)  # variance 0.25
    assert d.reasons == ("confidence_variance",)
    assert not should_trigger("q", [0.5, 0.9], False).trigger  # variance 0.04


def test_explicit_contradiction_and_settings() -> None:
    assert should_trigger("q", [], True).reasons == ("explicit_contradiction",)
    s = ECRSettings(trigger_candidates=2)
    assert "candidate_volume" in should_trigger("q", [0.9] * 3, False, s).reasons
