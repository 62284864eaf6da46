"""Line-item questions that name periods which are not plain years (`tableqa_periods`): the
quarter ended on a date, two dates of one year, "Q4 2019 and 2018", a letter-spaced year in a
header — and the readings that stay open (a date the table lacks, a bare year among
quarters), which are abstained on rather than guessed."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer.readers import tableqa
from hyrag.answer.readers import tableqa_periods as periods
from hyrag.settings import Settings
from ingest.timekeys import parse_time_key

QUARTERS = [
    ["Revenue", "1,300", "1,250", "1,200", "1,100"],
    ["Operating income", "300", "250", "320", "200"],
]
DATED = [
    ["Cash", "3,800", "-", "3,800"],
    ["Receivables", "600", "20", "620"],
]
Q4 = [
    ["Wireless", "2,500", "2,400", "100"],
    ["Media", "880", "850", "30"],
]
SPACED = [
    ["Loss carryforward", "73,260", "57,768"],
    ["Valuation allowance", "(19,116)", "(15,144)"],
]


def _open(tmp_path_factory: pytest.TempPathFactory, rows: list, cols: list[str], name: str):
    df = pd.DataFrame(rows, columns=cols)
    df.attrs["title"] = "Results (in thousands)"
    k = hyrag.open(tmp_path_factory.mktemp(name) / "kb", settings=Settings(
        answer_use_search=False))
    k.ingest(df, name=name)
    return k


@pytest.fixture(scope="module")
def quarters(tmp_path_factory: pytest.TempPathFactory):
    k = _open(tmp_path_factory, QUARTERS, ["Quarters ended", "July 27, 2019", "April 27, 2019",
                                           "January 26, 2019", "October 27, 2018"], "q")
    yield k
    k.close()


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory):
    k = _open(tmp_path_factory, DATED, ["item", "Estimated at June 30, 2019", "Adjustments",
                                        "Final as of December 31, 2019"], "d")
    yield k
    k.close()


@pytest.fixture(scope="module")
def q4(tmp_path_factory: pytest.TempPathFactory):
    k = _open(tmp_path_factory, Q4, ["Segment", "Q4 2019", "Q4 2018", "$ change"], "q4")
    yield k
    k.close()


def ask(kb, q: str):
    return tableqa.resolve(q, kb.store.con)


def test_the_question_names_dates_and_quarters_with_elided_years() -> None:
    assert periods.keys("the quarters ended July 27 and April 27 in 2019") == [
        "2019-07-27", "2019-04-27"]
    assert periods.keys("between June 30 and December 31, 2019") == ["2019-06-30", "2019-12-31"]
    assert periods.keys("in Q4 2019 and 2018") == ["2019Q4", "2018Q4"]
    assert periods.keys("the fiscal 2019 third quarter") == ["2019Q3"]
    assert periods.keys("in the first quarter of fiscal 2018") == ["2018Q1"]
    assert periods.keys("as at 31 March 2019") == ["2019-03-31"]
    assert periods.keys("in March 2019") == []  # a month, not a day
    assert not periods.accounts_for_years("Q4 2019 against the 2018 total")


def test_a_quarter_ended_on_a_date_is_that_column(quarters) -> None:
    r = ask(quarters, "What was the revenue for the quarter ended July 27, 2019?")
    assert (r.operation, r.answer) == ("lookup", 1300.0)
    r = ask(quarters, "What was the change in revenue between the quarters ended July 27 and "
                      "April 27 in 2019?")
    assert (r.operation, r.answer) == ("difference", 50.0)
    r = ask(quarters, "What was the percentage change in operating income between the quarters "
                      "ended January 26, 2019 and October 27, 2018?")
    assert (r.operation, r.answer) == ("change_ratio", 60.0)


def test_a_date_the_table_does_not_hold_is_not_guessed(quarters) -> None:
    assert ask(quarters, "What was the revenue for the quarter ended June 30, 2019?") is None
    # a year alone names three quarters' columns: which one is not said
    assert ask(quarters, "What was the revenue in 2019?") is None


def test_two_dates_of_one_year_are_two_columns(dated) -> None:
    r = ask(dated, "What are the respective cash amounts at June 30 and December 31, 2019?")
    assert (r.operation, r.answer) == ("each", [3800.0, 3800.0])
    r = ask(dated, "What is the change in receivables between June 30 and December 31, 2019?")
    assert (r.operation, r.answer) == ("difference", 20.0)


def test_an_elided_quarter_repeats_for_the_bare_year(q4) -> None:
    r = ask(q4, "What is the sum of the revenues for Wireless in Q4 2019 and 2018?")
    assert (r.operation, r.answer) == ("sum", 4900.0)
    r = ask(q4, "What were the Media revenues for Q4 2018?")
    assert (r.operation, r.answer) == ("lookup", 850.0)
    assert ask(q4, "What were the Media revenues for Q3 2018?") is None


def test_a_letter_spaced_year_header_is_a_year(tmp_path_factory) -> None:
    assert parse_time_key("2 0 1 8").key == "2018"
    assert parse_time_key("1 2 3 4") is None
    k = _open(tmp_path_factory, SPACED, ["item", "2019", "2 0 1 8"], "sp")
    try:
        r = ask(k, "What is the percentage change in the loss carryforward from 2018 to 2019?")
        assert (r.operation, r.answer) == ("change_ratio", 26.82)
    finally:
        k.close()


def test_a_fiscal_year_across_two_calendar_years_is_its_own_column(tmp_path_factory) -> None:
    k = _open(tmp_path_factory, [["EBIT", "713", "828"], ["Income taxes", "(216)", "(240)"]],
              ["€ million", "2017/2018", "2018/2019"], "fs")
    try:
        r = ask(k, "What was the change in EBIT in 2018/2019 from 2017/2018?")
        assert (r.operation, r.answer) == ("difference", 115.0)
        r = ask(k, "What was EBIT in 2018/19?")
        assert (r.operation, r.answer) == ("lookup", 828.0)
        # a plain year is either fiscal year's end or start: not guessed
        assert ask(k, "What was EBIT in 2019?") is None
        assert ask(k, "What was EBIT in 2019/2020?") is None
        # a fiscal year is named by the year it ends in: "FY2019" is the "2018/2019" column
        r = ask(k, "What was the amount of income taxes in FY2019?")
        assert (r.operation, r.answer) == ("lookup", -240.0)
        r = ask(k, "What was EBIT in fiscal 2018?")
        assert (r.operation, r.answer) == ("lookup", 713.0)
        assert ask(k, "What was EBIT in FY2020?") is None  # no such span column
        assert ask(k, "What was EBIT in FY2019 and 2018?") is None  # a bare year stays open
    finally:
        k.close()


def test_a_year_end_date_reads_a_plain_year_column_beside_dated_ones(tmp_path_factory) -> None:
    k = _open(tmp_path_factory, [["Net sales", "93,662", "103,350"]],
              ["item", "2019", "December 31, 2018"], "ye")
    try:
        r = ask(k, "What is the net sales for year ended December 31, 2019?")
        assert (r.operation, r.answer) == ("lookup", 93662.0)
        r = ask(k, "What is the change in net sales from December 31, 2018 to December 31, 2019?")
        assert (r.operation, r.answer) == ("difference", -9688.0)
        # a quarter is never read as its year's column
        assert ask(k, "What is the net sales for Q4 2019?") is None
    finally:
        k.close()
