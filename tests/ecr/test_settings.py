"""ECRSettings: the seed's defaults, and validation messages that name the field."""

from __future__ import annotations

import pytest

from ecr import ECRSettings


def test_defaults_are_the_seeds() -> None:
    s = ECRSettings()
    assert (s.epsilon, s.budget, s.lambda_conflict) == (0.3, 10, 0.05)
    assert (s.p_support, s.p_other) == (0.7, 0.3)
    assert (s.trigger_candidates, s.trigger_variance) == (15, 0.15)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"epsilon": -0.1}, "epsilon must be"),
        ({"budget": 0}, "budget must be a positive integer"),
        ({"budget": True}, "budget must be a positive integer"),
        ({"lambda_conflict": -1}, "lambda_conflict must be"),
        ({"p_support": 0.2}, "p_support must exceed p_other"),
        ({"p_other": 1.5}, "p_other must be a number in"),
        ({"trigger_candidates": 0}, "trigger_candidates must be a positive integer"),
        ({"trigger_variance": -0.1}, "trigger_variance must be"),
        ({"eer_mode": "magic"}, "eer_mode must be one of"),
        ({"conflict_rule": "x"}, "conflict_rule must be one of"),
        ({"observation": "x"}, "observation must be one of"),
        ({"uncertainty_words": ("",)}, "uncertainty_words"),
    ],
)
def test_invalid_settings_are_rejected(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ECRSettings(**changes)  # type: ignore[arg-type]


def test_with_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown ECR setting"):
        ECRSettings().with_(epsilonn=0.2)


def test_seed_rule_bundle() -> None:
    s = ECRSettings.seed_rule()
    assert (s.eer_mode, s.conflict_rule, s.verify_relevance) == ("seed_proxy", "seed", False)
    assert ECRSettings.seed_rule(budget=3).budget == 3
