"""The line-item table resolver (`tableqa`) on a small statement whose scale only its caption
states: the scale reaches every amount, the operations compute what an analyst would, and a
question the resolver cannot read unambiguously is abstained on, not guessed."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import tableqa
from hyrag.settings import Settings
from tests.answer.conftest import statement_kb

ROWS = [
    ["Net sales", "1,200", "1,000", "900"],
    ["Cost of sales", "(700)", "(600)", "(500)"],
    ["Interest expense", "(30)", "(20)", "(10)"],
    ["Weighted average shares outstanding", "50", "48", "45"],
    ["Earnings per share", "2.40", "2.08", "1.90"],
    ["Effective tax rate", "21.0", "24.5", "35.0"],
    ["Total operating costs", "1,000", "800", "700"],
    ["Marketing costs", "250", "200", "150"],
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ROWS,
                     "Selected results (in thousands, except per share data)", "results")
    yield k
    k.close()


def ask(kb, q: str):
    return tableqa.resolve(q, kb.store.con)


def test_caption_scale_reaches_every_amount(kb) -> None:
    rows = kb.store.con.execute(
        "SELECT DISTINCT scale FROM claims WHERE kind = 'cell' AND attribute = 'Net sales'"
    ).fetchall()
    assert rows == [("thousand",)]
    base = kb.store.con.execute(
        "SELECT value_base FROM claims WHERE kind = 'cell' AND attribute = 'Net sales' "
        "AND time_key = '2019'").fetchone()[0]
    assert base == pytest.approx(1_200_000)
    r = ask(kb, "What were net sales in 2019?")
    assert (r.operation, r.answer, r.scale) == ("lookup", 1200.0, "thousand")


def test_change_ratio_with_derivation(kb) -> None:
    r = ask(kb, "What was the percentage change in net sales between 2018 and 2019?")
    assert (r.operation, r.answer, r.scale) == ("change_ratio", 20.0, "percent")
    d = r.derivations[0]
    assert d.expression == "(1,200 - 1,000) / 1,000 x 100"
    assert [o.value for o in d.operands] == [1000.0, 1200.0]


def test_span_of_years_average_and_difference(kb) -> None:
    r = ask(kb, "What was the average net sales between 2017-2019?")
    assert r.operation == "average" and r.answer == pytest.approx(1033.33)
    assert len(r.derivations[0].operands) == 3
    r = ask(kb, "What was the change in net sales from 2018 to 2019?")
    assert (r.operation, r.answer) == ("difference", 200.0)


def test_bracketed_costs_average_is_ambiguous(kb) -> None:
    # its size (25) or the signed line (-25)? the label already says it is a cost
    assert ask(kb, "What was the average interest expense for 2018 and 2019?") is None
    r = ask(kb, "What was the change in interest expense from 2018 to 2019?")
    assert (r.operation, r.answer) == ("difference", -10.0)  # a change keeps the signs


def test_per_share_and_rate_lines_keep_their_own_unit(kb) -> None:
    assert ask(kb, "What was the earnings per share in 2018?").scale == ""
    assert ask(kb, "What was the effective tax rate in 2017?").scale == "percent"


def test_label_word_is_not_an_operation(kb) -> None:
    r = ask(kb, "What was the weighted average shares outstanding in 2018?")
    assert (r.operation, r.answer) == ("lookup", 48.0)


def test_share_of_a_total_puts_the_total_below(kb) -> None:
    r = ask(kb, "What was the total operating costs as a percentage of marketing costs in 2019?")
    assert r is None  # read literally it exceeds 100% of a part: not a share, abstain
    r = ask(kb, "In 2019, what is the percentage constitution of marketing costs among the "
                "total operating costs?")
    assert (r.operation, r.answer, r.scale) == ("percent_of", 25.0, "percent")


def test_years_meeting_a_threshold(kb) -> None:
    r = ask(kb, "In which years was net sales less than 1,100 thousand?")
    assert r.operation == "years_where" and sorted(r.answer) == ["2017", "2018"]
    r = ask(kb, "How many years did net sales exceed $950 thousand?")
    assert (r.operation, r.answer) == ("count_years", 2.0)


def test_two_operations_at_once_abstain(kb) -> None:
    assert ask(kb, "What is the change in the average net sales between 2017-2018 and "
                   "2018-2019?") is None


def test_a_declined_line_item_question_is_not_guessed_by_another_reader(kb, monkeypatch) -> None:
    q = "What were net sales of the premium segment in the Paris flagship boutique in 2019?"
    assert tableqa.read_line_item(q, kb.store.con) == (None, True)  # its question, declined
    assert tableqa.read_line_item("Who founded the company?", kb.store.con) == (None, False)
    from hyrag.answer.readers import tableops

    called: list[str] = []
    monkeypatch.setattr(tableops, "resolve", lambda question, *a, **k: called.append(question))
    a = AnswerEngine(kb).ask(q)
    assert a.decision != "answer" and called == []


def test_unresolvable_question_abstains_end_to_end(kb) -> None:
    assert ask(kb, "What was the headcount of the Paris office in 2019?") is None
    a = AnswerEngine(kb).ask("What was the headcount of the Paris office in 2019?")
    assert a.decision != "answer"


def test_engine_answer_is_grounded(kb) -> None:
    eng = AnswerEngine(kb)
    a = eng.ask("What was the percentage change in net sales between 2018 and 2019?")
    assert a.decision == "answer"
    assert eng.last_table_answer["value"] == 20.0
    assert not [t for t in a.verification["tokens"]
                if t["status"] in ("ungrounded", "derivation_mismatch")]


def test_change_is_signed_difference_is_a_distance(kb) -> None:
    r = ask(kb, "What was the change in cost of sales between 2018 and 2019?")
    assert (r.operation, r.answer) == ("difference", -100.0)
    r = ask(kb, "What is the difference in cost of sales between 2018 and 2019?")
    assert (r.operation, r.answer) == ("difference", 100.0)


def test_question_about_something_else_abstains(kb) -> None:
    assert ask(kb, "What were net sales of the premium segment in the Paris flagship "
                   "boutique in 2019?") is None


def test_period_read_from_an_unparsed_column_header(tmp_path) -> None:
    df = pd.DataFrame([["Revenue", "5,000", "4,000"], ["Other income", "120", "80"]],
                      columns=["item", "Year Ended December 31, 2019 (thousands)",
                               "Year Ended December 31, 2018 (thousands)"])
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as k:
        k.ingest(df, name="statement")
        r = tableqa.resolve("What was the percentage change in revenue from 2018 to 2019?",
                            k.store.con)
        assert (r.operation, r.answer, r.scale) == ("change_ratio", 25.0, "percent")
        r = tableqa.resolve("What was other income in 2018?", k.store.con)
        assert (r.answer, r.scale) == (80.0, "thousand")


def test_respective_values_of_a_line_are_a_lookup_per_year(kb) -> None:
    """"the respective values of X in 2018 and 2019": "respective" and the plural of a stop
    word ("values") are not words the line item must explain."""
    r = ask(kb, "What are the respective amounts and values of marketing costs in 2018 and "
                "2019?")
    assert r is not None and r.operation == "each"
    assert r.answer == [200.0, 250.0]


def test_a_footnote_marker_glued_to_a_label_is_not_part_of_it(tmp_path_factory) -> None:
    """"Incentive schemes1": the superscript footnote lost its superscript in extraction; the
    line is "Incentive schemes" to a reader (the footnote digits only at a label's end)."""
    k = statement_kb(tmp_path_factory, [["Salaries and fees", "4", "4", "4"],
                                        ["Incentive schemes1", "2", "3", "2"],
                                        ["Other benefits2", "0", "1", "1"]],
                     "Directors' remuneration (€m)", "remuneration")
    try:
        r = ask(k, "What is the average incentive schemes between 2018 and 2019?")
        assert r is not None and r.answer == 2.5
    finally:
        k.close()
