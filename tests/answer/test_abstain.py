"""Calibrated abstention: one confidence, a threshold per trust mode, calibration and a
reliability table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import hyrag
from hyrag.settings import Settings
from verify import Signals, calibrate, complexity, confidence, reliability_table


def test_confidence_moves_with_each_signal() -> None:
    base = Signals(2, 0.8, 0.8, 0.2)
    c = confidence(base)
    assert 0 < c < 1
    assert confidence(Signals(5, 0.8, 0.8, 0.2)) > c
    assert confidence(Signals(2, 1.0, 0.8, 0.2)) > c
    assert confidence(Signals(2, 0.8, 1.0, 0.2)) > c
    assert confidence(Signals(2, 0.8, 0.8, 0.9)) < c
    assert confidence(Signals(0, 0.0, 0.0, 1.0)) < 0.1
    assert complexity(1, False, 1, 0) == 0 < complexity(3, True, 2, 2) <= 1


def test_calibrate_reaches_the_target_precision() -> None:
    conf = [0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    ok = [True, True, True, True, True, False, True, False, False, False]
    t = calibrate(conf, ok, target_precision=0.9, min_answered=3)
    assert t == 0.7  # the five answers at >= 0.7 are all right; adding 0.6 drops to 5/6
    assert calibrate(conf, [False] * 10) == 1.0


def test_reliability_table() -> None:
    rows = reliability_table([0.1, 0.15, 0.5, 0.9, 1.0], [False, False, True, True, True], bins=5)
    assert [r["n"] for r in rows] == [2, 0, 1, 0, 2]
    assert rows[0]["accuracy"] == 0 and rows[-1]["accuracy"] == 1.0


def test_engine_abstains_below_threshold(tmp_path: Path) -> None:
    df = pd.DataFrame({"region": ["North", "South"], "revenue": [120.5, 98.25],
                       "year": [2024, 2024]})
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(df, name="regions")
        a = kb.ask("What was the revenue of North in 2024?")
        assert a.decision == "answer"
        c = a.verification["confidence"]
        assert a.verification["threshold"] == 0.5 < c
    high = Settings(answer_use_search=False, abstain_threshold_balanced=min(c + 0.01, 1.0))
    with hyrag.open(tmp_path / "kb", settings=high) as kb:
        a = kb.ask("What was the revenue of North in 2024?")
        assert a.decision == "abstain"
        assert "below the balanced threshold" in a.brief and "would need" in a.brief
        assert kb.ask("What was the revenue of North in 2024?", trust="exploratory"
                      ).decision == "answer"
