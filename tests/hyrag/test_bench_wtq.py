"""`hyrag bench wtq`: the dataset's denotation scoring, and the whole bench on a two-question
folder laid out as WikiTableQuestions is (data/*.tsv naming csv/*.csv)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from hyrag.bench import wtq


@pytest.mark.parametrize(("pred", "target", "ok"), [
    (["1,986"], ["1986"], True),  # numbers compare as numbers
    (["The Beatles"], ["beatles"], True),  # articles and case dropped
    (["Café"], ["Cafe"], True),  # accents folded
    (["Park"], ["Park and Missoula"], False),
    (["a", "b"], ["b", "a"], True),  # a set of values, in any order
    (["a"], ["a", "b"], False),
    (None, ["a"], False),
])
def test_denotation_accuracy(pred, target, ok) -> None:
    assert wtq.correct(pred, target) is ok


def _club(root: Path, rows: str) -> None:
    """A WTQ-shaped folder under `root`: one table (csv/club.csv) and `rows` of questions on it
    (data/q.tsv, WTQ's columns)."""
    (root / "csv").mkdir()
    (root / "data").mkdir()
    (root / "csv" / "club.csv").write_text(
        "Player,HR,Team\nHank Aaron,755,Braves\nEddie Murray,504,Orioles\n"
        "Willie Mays,660,Giants\n", encoding="utf-8")
    (root / "data" / "q.tsv").write_text("id\tutterance\tcontext\ttargetValue\n" + rows,
                                         encoding="utf-8")


def test_the_bench_reads_the_row_a_superlative_picks(tmp_path: Path, capsys) -> None:
    _club(tmp_path, "t-0\twhich player has the least amount of home runs?\tcsv/club.csv\t"
          "Eddie Murray\nt-1\thow many home runs did willie mays hit?\tcsv/club.csv\t660\n")
    out = tmp_path / "pred.json"
    args = argparse.Namespace(data=str(tmp_path), questions="data/q.tsv", out=str(out),
                              limit=None, trust="balanced")
    assert wtq.run(args) == 0
    printed = capsys.readouterr().out
    assert "reproduce: hyrag bench wtq" in printed
    rows = {r["id"]: r for r in json.loads(out.read_text(encoding="utf-8"))}
    assert rows["t-1"]["correct"], rows["t-1"]
    # a "which ... least" question is answered by the row's name or not at all, never by 504
    assert rows["t-0"]["prediction"] in (["Eddie Murray"], None), rows["t-0"]


def test_a_zero_threshold_answers_with_the_best_program_and_records_its_confidence(
        tmp_path: Path, capsys) -> None:
    """`--min-confidence 0` on the program route: every question the route has a program for
    is answered (the ranker's top-1 figure), each with the program's confidence recorded."""
    _club(tmp_path, "t-0\thow many home runs did willie mays hit?\tcsv/club.csv\t660\n")
    out = tmp_path / "pred.json"
    args = argparse.Namespace(data=str(tmp_path), questions="data/q.tsv", out=str(out),
                              limit=None, trust="balanced", answer_core="programs",
                              weights="", min_confidence=0.0)
    assert wtq.run(args) == 0
    printed = capsys.readouterr().out
    assert "program threshold 0" in printed and "--min-confidence 0" in printed
    (row,) = json.loads(out.read_text(encoding="utf-8"))
    assert row["prediction"], row
    assert isinstance(row["confidence"], float) and 0.0 <= row["confidence"] <= 1.0
