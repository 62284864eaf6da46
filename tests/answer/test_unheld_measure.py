"""A question about a measure no table holds is a Knowledge Gap, never the number of the one
measure that is there (issue 22: "the profit of Nightingale" over a headcount table)."""

from __future__ import annotations

from pathlib import Path

import pytest

import hyrag
from hyrag.settings import Settings


@pytest.fixture()
def kb(tmp_path: Path):
    p = tmp_path / "projects.csv"
    p.write_text("project,year,headcount\nNightingale,2023,35\nNightingale,2024,40\n"
                 "Kestrel,2024,12\n", encoding="utf-8")
    k = hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False))
    k.ingest(p)
    yield k
    k.close()


def test_a_measure_the_table_does_not_hold_is_a_gap(kb) -> None:
    a = kb.ask("What was the profit of Nightingale in 2024?")
    assert a.decision == "abstain" and a.values == ()
    assert [(g["entity"], g["attribute"], g["period"]) for g in a.gaps] == [
        ("Nightingale", "profit", "2024")]
    assert "40" not in a.text and "no profit" in a.text


def test_the_measure_the_table_holds_is_still_answered(kb) -> None:
    a = kb.ask("What was the headcount of Nightingale in 2024?")
    assert a.decision == "answer" and a.values == (40.0,)
