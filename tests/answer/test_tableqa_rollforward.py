"""Roll-forward tables (`tableqa_rollforward`): balances stated "at" dates in rows, movements
between them. The movements between two balances belong to the period the closing balance
ends; a balance is read at the date or the year named; a bracketed deduction, a period the
rows do not bound, or a line the question does not name is not answered from."""

from __future__ import annotations

import pytest

from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import tableqa_rollforward as rf
from tests.answer.conftest import statement_kb

AWARDS = [
    ["Non-vested at December 31, 2017", "1,000", "$40.00"],
    ["Granted", "400", "$50.00"],
    ["Vested", "(300)", "$41.00"],
    ["Non-vested at December 31, 2018", "1,100", "$44.00"],
    ["Granted", "500", "$52.00"],
    ["Vested", "(350)", "$45.00"],
    ["Non-vested at December 31, 2019", "1,250", "$47.00"],
]
WEEKS = [  # a 52/53-week year: the January 1 close ends the year before
    ["Nonvested at January 1, 2017", "98"],
    ["Granted", "132"],
    ["Nonvested at January 1, 2018", "230"],
    ["Granted", "110"],
    ["Nonvested at December 30, 2018", "340"],
    ["Granted", "353"],
    ["Nonvested at December 29, 2019", "693"],
]
NOT_ROLLED = [  # dated labels, but no balance opening and closing the table
    ["Term loan due July 2022", "500"],
    ["Notes due December 2023", "300"],
    ["Total debt", "800"],
]


@pytest.fixture(scope="module")
def awards(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, AWARDS, None, "awards", ["Non-vested awards", "Shares",
                                       "Weighted-Average Grant Date Fair Value"])
    yield k
    k.close()


@pytest.fixture(scope="module")
def weeks(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, WEEKS, None, "weeks", ["", "Number of Shares"])
    yield k
    k.close()


def ask(kb, q: str):
    return rf.resolve(q, kb.store.con)


def test_movement_belongs_to_the_period_its_closing_balance_ends(awards) -> None:
    r = ask(awards, "What is the number of non-vested shares granted in 2019?")
    assert r is not None and r.operation == "lookup" and r.answer == 500.0
    r = ask(awards, "What is the number of non-vested shares granted in 2018?")
    assert r is not None and r.answer == 400.0
    # the column the question names: the fair value, not the shares
    r = ask(awards, "What is the weighted-average grant date fair value of shares granted "
                    "in 2019?")
    assert r is not None and r.answer == 52.0


def test_balance_at_a_date_or_a_year(awards) -> None:
    r = ask(awards, "What is the number of non-vested shares as of December 31, 2018?")
    assert r is not None and r.answer == 1100.0
    r = ask(awards, "What was the change in the number of non-vested shares from 2018 to 2019?")
    assert r is not None and r.operation == "difference" and r.answer == 150.0
    r = ask(awards, "What is the percentage change in the number of non-vested shares from "
                    "2017 to 2018?")
    assert r is not None and r.answer == 10.0


def test_movements_across_periods(awards) -> None:
    r = ask(awards, "What is the average number of non-vested shares granted in 2018 and 2019?")
    assert r is not None and r.answer == 450.0
    r = ask(awards, "What was the change in the number of non-vested shares granted from 2018 "
                    "to 2019?")
    assert r is not None and r.answer == 100.0


def test_bracketed_deduction_and_unbounded_period_abstain(awards) -> None:
    # "(350)" vested: the number that vested (350) or the signed figure (-350)?
    assert ask(awards, "What is the number of non-vested shares vested in 2019?") is None
    # no balances bound a 2017 movement in this table
    assert ask(awards, "What is the number of non-vested shares granted in 2017?") is None
    # two periods and no operation: each, their sum or their change?
    assert ask(awards, "What is the number of non-vested shares granted in 2018 and 2019?") \
        is None
    # figures asked for "respectively" are quoted as the table shows them
    r = ask(awards, "What is the respective number of non-vested shares vested in 2018 and "
                    "2019?")
    assert r is not None and r.operation == "each" and r.answer == ["(300)", "(350)"]
    # ... but not combined: the average of the sizes, or of the signed figures?
    assert ask(awards, "What is the average number of non-vested shares vested in 2018 and "
                       "2019?") is None
    # a measure the table lacks
    assert ask(awards, "What is the number of non-vested shares granted to directors in "
                       "2019 under the retention plan?") is None


def test_dates_between_balances_and_52_week_years(weeks) -> None:
    r = ask(weeks, "What is the respective number of nonvested shares granted on January 1, "
                   "2017 and between December 30, 2018 and December 29, 2019?")
    assert r is not None and r.operation == "each" and r.answer == [132.0, 353.0]
    # a close on January 1, 2018 ends 2017; December 30, 2018 ends 2018
    r = ask(weeks, "How many nonvested shares were granted in 2017?")
    assert r is not None and r.answer == 132.0
    r = ask(weeks, "How many nonvested shares were granted in 2018?")
    assert r is not None and r.answer == 110.0
    # a balance with movements on both sides: before it, or after?
    assert ask(weeks, "How many nonvested shares were granted on January 1, 2018?") is None


def test_engine_answers_through_the_reader(awards) -> None:
    eng = AnswerEngine(awards)
    ans = eng.ask("What is the number of non-vested shares granted in 2019?")
    assert ans.decision == "answer"
    assert eng.last_table_answer["value"] == 500.0


def test_dated_labels_without_balances_are_no_roll_forward(tmp_path_factory) -> None:
    k = statement_kb(tmp_path_factory, NOT_ROLLED, None, "debt", ["Debt", "Amount"])
    try:
        assert rf.tables(k.store.con) == []
        assert ask(k, "What is the amount of the term loan due July 2022?") is None
    finally:
        k.close()
