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


def test_numbers_the_question_states_are_held_by_the_evidence() -> None:
    """`unheld_numbers`: a number the question states on its own is a condition the evidence
    must hold somewhere (a value, a period, a cell's or a query's text); codes ("FY19", "Q4",
    "10-K") and ordinals are words, not conditions."""
    from hyrag.answer.link.commitment import Fact
    from hyrag.answer.link.coverage import question_numbers, unheld_numbers

    assert question_numbers("How many towns have over 2,000 people in 1990?") == [
        ("2,000", 2000.0), ("1990", 1990.0)]
    assert question_numbers("What was FY19 revenue per the 10-K in Q4, placed 1st?") == []

    def fact(**kw) -> Fact:
        base = dict(claim_id="c", requirement="R1", source="t.csv", locator="{}", text="",
                    entity="t", attribute="population", value=None, value_text="",
                    value_base=None, unit="", scale="", time_key=None, kind="cell",
                    table="t", score=1.0, warrant_query="")
        return Fact(**(base | kw))

    total = fact(kind="aggregate", text="The total population in t was 24,072.",
                 value=24072.0, value_base=24072.0, attribute="total population")
    assert unheld_numbers("How many towns have populations over 2,000?", [total]) == ["2,000"]
    # the figure's period, a query's WHERE clause, a cell's value all hold the number
    dated = fact(value=5.0, value_base=5.0, time_key="2019", text="Revenue 2019 was 5.")
    assert unheld_numbers("What was revenue in 2019?", [dated]) == []
    query = fact(kind="sql", locator="SELECT count(*) FROM t WHERE population > 2000",
                 text="The count is 4.", value=4.0, value_base=4.0)
    assert unheld_numbers("How many towns have populations over 2,000?", [query]) == []


@pytest.mark.parametrize("question", [
    "How many teams won 6 matches?",
    "Who began their term in 1890?",
    "Which team began its term first?",
])
def test_a_column_total_does_not_answer_a_condition_it_ignores(tmp_path, question) -> None:
    """A list of rows has a total per figure column. "How many teams won 6 matches?" states a
    condition; "Who began their term in 1890?" a key. The column's total ignores both (a sum
    of 'Won', a sum of years): the engine answers by applying the condition, or abstains
    naming it — never with the total. Nor does a total answer "which team ...": it names no
    row."""
    import hyrag

    (tmp_path / "t.csv").write_text(
        "Team,Won,Lost,Term began\nCanada,6,0,1890\nSweden,4,1,1895\nNorway,2,4,1901\n"
        "Spain,6,0,1910\n", encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(tmp_path / "t.csv")
        a = kb.ask(question)
    totals = {18.0, 5.0, 7596.0}  # the columns' totals
    assert not totals & set(a.values), a.text
    assert a.decision != "answer" or a.values in ((2.0,), ("Canada",)), a.text


@pytest.mark.parametrize(("question", "grouped", "why"), [
    ("Which of the universities was founded first?", False, "names no row"),
    ("In what year were the first schools founded?", False, "names no row"),
    ("Which of the universities was founded first?", True, None),
    ("What is the total enrollment?", False, None),
], ids=["which-total", "when-total", "which-group", "total"])
def test_a_total_over_rows_names_no_row(question, grouped, why) -> None:
    """A query's total over a column's rows (no GROUP BY) names no row and no period: no
    answer to "which / who / when"; a grouped result names its group, and a total answers a
    question asking for the total."""
    from hyrag.answer.decide.guards import no_answer
    from hyrag.answer.link.commitment import Fact
    from hyrag.answer.parse.parser import ParsedQuestion

    sql = 'SELECT SUM("founded") AS value FROM "t"' + (' GROUP BY "school"' if grouped else "")
    f = Fact(claim_id="sql:1", requirement="R1", source="sql", locator=sql,
             text="The total founded in t was 52,985.", entity="Union" if grouped else None,
             attribute="founded", value=52985.0, value_text="52,985", value_base=52985.0,
             unit="", scale="", time_key=None, kind="sql", table="t", score=1.0,
             warrant_query=sql)
    got = no_answer(question, ParsedQuestion(question, tuple(question.split())),
                    structure=False, asks_period=False, read=False, facts=[f],
                    derivations=[], n_requirements=1, max_unexplained=9)
    assert (got is None) if why is None else (why in (got or "")), got


@pytest.mark.parametrize(("question", "why"), [
    ("How many titles only had one episode?", "counts titles"),
    ("What is the number of titles with one episode?", "counts titles"),
    ("How many episodes were there in all?", None),
], ids=["rows", "number-of", "the-column"])
def test_a_count_of_rows_is_not_a_column_total(question, why) -> None:
    """"How many titles ..." counts rows; the total of the episodes column is no answer to
    it, while it answers "how many episodes"."""
    from hyrag.answer.decide.guards import no_answer
    from hyrag.answer.link.commitment import Fact
    from hyrag.answer.parse.parser import ParsedQuestion, counted_noun

    sql = 'SELECT SUM("episodes") AS value FROM "t"'
    f = Fact(claim_id="sql:2", requirement="R1", source="sql", locator=sql,
             text="The total episodes in t was 31.", entity=None, attribute="episodes",
             value=31.0, value_text="31", value_base=31.0, unit="", scale="", time_key=None,
             kind="sql", table="t", score=1.0, warrant_query=sql)
    parsed = ParsedQuestion(question, tuple(question.split()), counted=counted_noun(question))
    got = no_answer(question, parsed,
                    structure=False, asks_period=False, read=False, facts=[f],
                    derivations=[], n_requirements=1, max_unexplained=9)
    assert (got is None) if why is None else (why in (got or "")), got
