"""A percentage change the table states (`tableqa_stated`): the "% Change" cell of the line
and the periods asked is quoted, not recomputed — and nothing when the question asks a change
in a percentage, names other periods or qualifies the line in words the table lacks."""

from __future__ import annotations

import pytest

import hyrag
from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import tableqa_stated as stated
from hyrag.settings import Settings
from tests.grids import ingest_grid

EBITDA = [
    ["", "30 June 2019", "30 June 2018", "Change"],
    ["", "$'000", "$'000", "%"],
    ["Net profit after tax", "(9,819)", "6,639", "(248%)"],
    ["EBITDA", "79,046", "63,954", "24%"],
    ["Underlying EBITDA", "85,123", "62,575", "36%"],
]
ORDERS = [
    ["$ million", "2019", "2018", "Change (%)"],
    ["Order intake", "532.0", "470.0", "13.2"],
    ["Revenue", "503.6", "476.9", "5.6"],
]
INTEREST = [
    ["Year Ended May 31,", "", "", "", ""],
    ["", "", "", "Percent Change", ""],
    ["(Dollars in millions)", "2019", "Actual", "Constant", "2018"],
    ["Interest expense", "$2,082", "3%", "4%", "$2,025"],
]
SALES = [
    ["", "", "Years Ended", "", "", "Change", "", ""],
    ["(Dollars in thousands)", "2019", "2018", "2017", "2019 over 2018", "",
     "2018 over 2017", ""],
    ["Modules", "$ 1,460,116", "$ 502,001", "$ 806,398", "$ 958,115", "191%",
     "$(304,397)", "(38)%"],
    ["Systems", "1,603,001", "1,742,043", "2,134,926", "(139,042)", "(8)%", "(392,883)",
     "(18)%"],
]


def _kb(tmp_path_factory, grid):
    k = hyrag.open(tmp_path_factory.mktemp("stated") / "kb", settings=Settings(
        answer_use_search=False))
    ingest_grid(k, grid, "report_table")
    return k


@pytest.fixture(scope="module")
def kbs(tmp_path_factory: pytest.TempPathFactory):
    ks = {n: _kb(tmp_path_factory, g) for n, g in
          {"ebitda": EBITDA, "orders": ORDERS, "interest": INTEREST, "sales": SALES}.items()}
    yield ks
    for k in ks.values():
        k.close()


def ask(kb, q: str):
    return stated.resolve(q, kb.store.con)


def test_stated_change_quoted(kbs) -> None:
    r = ask(kbs["ebitda"], "What was the percentage change in underlying EBITDA between 2018 "
                           "and 2019?")
    assert r is not None and (r.answer, r.scale) == ("36%", "")
    r = ask(kbs["ebitda"], "What was the percentage change in EBITDA in 2019?")
    assert r is not None and r.answer == "24%"
    r = ask(kbs["orders"], "What is the change (%) for order intake between 2018 and 2019?")
    assert r is not None and (r.answer, r.scale) == (13.2, "percent")


def test_change_column_of_the_periods_asked(kbs) -> None:
    r = ask(kbs["sales"], "What was the percentage increase in modules sales from 2018 to 2019?")
    assert r is not None and r.answer == "191%"
    # the amount column compares 2018 with 2019: the stated change is no answer for 2017
    assert ask(kbs["sales"], "What was the percentage change in modules sales from 2017 to "
                             "2018?") is None
    # no column compares 2017 with 2019
    assert ask(kbs["sales"], "What was the percentage change in modules sales from 2017 to "
                             "2019?") is None


def test_named_columns_between_the_periods(kbs) -> None:
    r = ask(kbs["interest"], "How much was the actual and constant percentage change in "
                             "interest expense?")
    assert r is not None and r.answer == ["3%", "4%"]
    r = ask(kbs["interest"], "What was the constant percentage change in interest expense?")
    assert r is not None and r.answer == "4%"
    # two stated changes and the question names neither
    assert ask(kbs["interest"], "What was the percentage change in interest expense?") is None


def test_no_guess(kbs) -> None:
    # a change in a percentage, not a percentage change
    assert ask(kbs["ebitda"], "What was the change in EBITDA between 2018 and 2019?") is None
    # other periods than the change compares
    assert ask(kbs["ebitda"], "What was the percentage change in EBITDA between 2017 and "
                              "2018?") is None
    # the line qualified in words the table does not state
    assert ask(kbs["orders"], "What was the percentage change in order intake before "
                              "exceptional items and acquisition related costs between 2018 "
                              "and 2019?") is None


def test_engine_answers_through_the_reader(kbs) -> None:
    eng = AnswerEngine(kbs["ebitda"])
    ans = eng.ask("What was the percentage change in underlying EBITDA between 2018 and 2019?")
    assert ans.decision == "answer" and "36%" in ans.text


COMMON = [
    ["", "Year Ended December 31,", ""],
    ["", "2019", "2018"],
    ["Sales", "100.0 %", "100.0 %"],
    ["Gross profit", "40.0", "50.9"],
    ["Operating expenses", "33.1", "27.0"],
    ["Net income", "6.9 %", "23.9 %"],
]
AMOUNTS = [
    ["", "2019", "2018"],
    ["Sales", "100", "100"],
    ["Gross profit", "$40", "$51"],
]


@pytest.fixture(scope="module")
def common(tmp_path_factory: pytest.TempPathFactory):
    ks = {"common": _kb(tmp_path_factory, COMMON), "amounts": _kb(tmp_path_factory, AMOUNTS)}
    yield ks
    for k in ks.values():
        k.close()


def test_common_size_line_in_percent(common) -> None:
    r = stated.common_size("What was the change in percentage of sales represented by gross "
                           "profit between 2018 and 2019?", common["common"].store.con)
    assert r is not None and round(r.answer, 2) == -10.9 and r.scale == "percent"
    r = stated.common_size("What was the percentage of sales represented by operating "
                           "expenses in 2019?", common["common"].store.con)
    assert r is not None and (r.answer, r.scale) == (33.1, "percent")


def test_common_size_needs_the_hundred_line(common) -> None:
    # no line named as the base
    assert stated.common_size("What was the percentage of revenue represented by gross "
                              "profit in 2019?", common["common"].store.con) is None
    # a table of dollar amounts whose sales happen to read 100
    assert stated.common_size("What was the percentage of sales represented by gross profit "
                              "in 2019?", common["amounts"].store.con) is None
