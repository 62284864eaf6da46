"""A figure for part of a question is not its answer: the engine abstains and names the words
its evidence does not speak to (hyrag/answer/coverage.py)."""

from __future__ import annotations

import pytest

from hyrag.answer.link.coverage import unexplained
from hyrag.settings import Settings


def test_words_the_evidence_names_are_explained() -> None:
    ev = ["Deferred income tax assets", "Without ASC 606 Adoption",
          "In 2018, IMFT discontinued production of NAND."]
    assert unexplained(("without", "adoption", "asc", "606"), ev) == []
    assert unexplained(("discontinued", "production", "nand"), ev) == []
    # plural / possessive / case spellings are the same word; filler never counts
    assert unexplained(("Adoptions", "company's", "reported"), ev) == []
    assert unexplained(("rural", "satellite", "wards", "rural"), ev) == ["rural", "satellite",
                                                                         "ward"]


@pytest.mark.parametrize("question", [
    "How many physicians did Riverside Clinic employ in its rural satellite pediatric wards "
    "in 2024?",
    "What was Kestrel Dynamics revenue from defence helicopter avionics retrofits in 2024?",
])
def test_a_narrower_question_than_the_evidence_abstains(akb, question) -> None:
    broad = akb.ask(question.split(" in its ")[0].split(" from ")[0] + " in 2024?")
    assert broad.decision == "answer"
    a = akb.ask(question)
    assert a.decision == "abstain"
    assert "does not speak to" in a.brief


def test_the_allowance_is_a_setting(akb) -> None:
    from dataclasses import replace

    from hyrag.answer.engine import AnswerEngine

    q = "How many physicians did Riverside Clinic employ in its rural satellite wards in 2024?"
    engine = AnswerEngine(akb)
    assert engine.ask(q).decision == "abstain"
    engine.settings = replace(akb.settings, answer_max_unexplained=5)
    assert engine.ask(q).decision == "answer"
    with pytest.raises(Exception, match="answer_max_unexplained"):
        Settings(answer_max_unexplained=-1)


@pytest.mark.parametrize("question", [
    # two figures found, their share not computed: the figures alone are no answer
    "What share of Kestrel Dynamics revenue in 2024 was its operating income in 2024?",
    # one figure found for a ratio of two: it answers a different question
    "What was the ratio of Riverside Clinic physicians to registered nurses in 2024?",
])
def test_a_combination_not_computed_abstains(akb, question) -> None:
    a = akb.ask(question)
    assert a.decision == "abstain"
    assert "does not compute it" in a.brief


def test_a_stored_ratio_still_answers(akb) -> None:
    a = akb.ask("What is the student-to-faculty ratio of Crestwood College?")
    assert a.decision == "answer" and "13" in a.text


@pytest.mark.parametrize(("question", "explains"), [
    ("What caused the increase in interest income?", True),
    ("What led to the increase in segment costs?", True),
    ("What impacted the company's effective tax rate in 2019?", True),
    ("Why did revenue fall in 2019?", True),
    ("How is diluted earnings per share calculated?", True),
    ("What was the increase in interest income in 2019?", False),
    ("How much did revenue increase in 2019?", False),
])
def test_questions_asking_for_words_not_figures(question, explains) -> None:
    """An explanation question is not answered with a figure (the offline engine abstains;
    the passage itself would answer it)."""
    from hyrag.answer.decide.guards import asks_for_explanation

    assert asks_for_explanation(question) is explains


def test_which_row_is_not_answered_by_the_extreme_value_alone(tmp_path) -> None:
    """"Which locomotive weighs the least?" asks for a row's name: the smallest weight alone
    (an aggregate over the column, no row named) is no answer to it, and the reader chain
    abstains; the program route (by default, where the readers abstain) answers with the
    row's name, citing the weights it compared. Asked for the weight, the figure is the
    answer."""
    import pandas as pd

    import hyrag
    from hyrag.settings import Settings

    frame = pd.DataFrame({"Name": ["Re 4/4", "Ae 6/6", "Ee 3/3"],
                          "Builder": ["SLM", "SLM", "BBC"], "Weight": [80, 120, 95]})
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(frame, name="locomotives")
        a = kb.ask("Which locomotive weighs the least?")
        assert a.decision == "answer" and a.values == ("Re 4/4",), a.text
        assert a.program["operation"] == "argmin" and a.verification["verdict"] == "pass"
        assert kb.ask("What is the smallest weight?").decision == "answer"
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_core="readers")) as kb:
        a = kb.ask("Which locomotive weighs the least?")
        assert a.decision == "abstain" and "extreme value alone" in a.brief


def test_a_name_asked_for_is_not_answered_with_a_figure(tmp_path) -> None:
    """"What is the symbol of the common stock?" asks for a name; the closing price quoted
    beside it in the same passage is a figure, not the symbol, so the engine does not answer
    with it. Asked for the price, it does."""
    import hyrag

    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest_text(["Our common stock trades on the NASDAQ Global Select Market under the "
                        "symbol TZOO. On March 3, 2020, the closing price of our common stock "
                        "on the NASDAQ Global Select Market was $8.64."], source="filing")
        a = kb.ask("What is the symbol of the Company's common stock trading on the NASDAQ "
                   "Global Select Market?")
        assert "8.64" not in a.text or a.decision != "answer", a.text
        b = kb.ask("What was the closing price of the common stock on March 3, 2020?")
        assert b.decision == "answer" and "8.64" in b.text, b.text
