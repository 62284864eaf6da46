"""Answers read as a person writes them: the question restated around its answer, pinned by a
fixture file (question; answer; statement), and through `kb.ask` on a file ingested here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hyrag
from hyrag.answer.synthesize.phrasing import names, statement
from hyrag.settings import Settings

FIXTURES = Path(__file__).parent / "fixtures" / "phrasing.tsv"
CASES = [line.split("\t") for line in FIXTURES.read_text(encoding="utf-8").splitlines()
         if line and not line.startswith("#")]


@pytest.mark.parametrize(("question", "answer", "expected"), CASES,
                         ids=[c[0][:40] for c in CASES])
def test_a_question_becomes_the_sentence_that_answers_it(question: str, answer: str,
                                                         expected: str) -> None:
    assert statement(question, answer, "[1]") == (expected or None)


def test_a_name_the_evidence_does_not_hold_is_never_restated() -> None:
    """A figure of every clinic is not "Riverside Clinic employed ...": the statement would
    claim a scope the evidence lacks."""
    q = "How many registered nurses did Riverside Clinic employ in 2024?"
    assert names(q) == ("Riverside Clinic",)
    held = "Riverside Clinic registered nurses 2024 412"
    assert statement(q, "412", "[1]", evidence=held) is not None
    assert statement(q, "7,674", "[1]", evidence="SELECT SUM(registered_nurses) ...") is None


def test_an_answer_is_stated_in_the_questions_words_and_still_verified(tmp_path: Path) -> None:
    path = tmp_path / "staff.csv"
    path.write_text("clinic,year,registered nurses\nRiverside Clinic,2024,412\n"
                    "Riverside Clinic,2023,398\nLakeside Hospital,2024,655\n", encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(path)
        a = kb.ask("How many registered nurses did Riverside Clinic employ in 2024?")
    assert a.decision == "answer", a.text
    assert re.match(r"Riverside Clinic employed 412 registered nurses in 2024 (\[\d\])+\.",
                    a.text), a.text
    assert a.verification["verdict"] == "pass", a.verification
    assert a.evidence[0]["source"].endswith("staff.csv")


def test_which_thing_ranks_first_is_stated_before_the_ranking(akb) -> None:
    a = akb.ask("Which region had the highest revenue in 2024?")
    assert a.decision == "answer", a.text
    assert re.match(r"West had the highest revenue in 2024 \[\d\]\. Ranked by ", a.text), a.text
    assert a.verification["verdict"] == "pass", a.verification
    low = akb.ask("Which region had the lowest revenue in 2023?")
    assert low.text.startswith(f"{low.values[0]} had the lowest revenue in 2023 ["), low.text
