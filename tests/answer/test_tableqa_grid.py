"""Tables without periods (`tableqa_grid`): the cell where the row and the column a question
names meet — and nothing when it names a period, an operation, two columns equally, or a
row label the table repeats."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer import tableqa_grid as grid
from hyrag.answer.engine import AnswerEngine
from hyrag.settings import Settings

AGEING = [
    ["Expected loss rate", "1%", "5%", "20%", "-"],
    ["Gross carrying amount", "23,762", "2,068", "1,703", "27,533"],
    ["Loss allowance provision", "238", "103", "341", "682"],
]
COLS = ["30 June 2019", "Current $'000", "0 to 30 days past due $'000",
        "More than 30 days past due $'000", "Total $'000"]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = hyrag.open(tmp_path_factory.mktemp("ageing") / "kb", settings=Settings(
        answer_use_search=False))
    k.ingest(pd.DataFrame(AGEING, columns=COLS), name="ageing")
    yield k
    k.close()


def ask(kb, q: str):
    return grid.resolve(q, kb.store.con)


def test_row_meets_column(kb) -> None:
    r = ask(kb, "What is the gross carrying amount for current receivables?")
    assert r is not None and r.answer == 23762.0
    r = ask(kb, "What was the expected loss rate for current receivables?")
    assert r is not None and r.answer == "1%"
    r = ask(kb, "What is the total loss allowance provision?")
    assert r is not None and r.answer == 682.0


def test_no_guess(kb) -> None:
    # a period: a column this table does not have
    assert ask(kb, "What is the gross carrying amount for current receivables in 2018?") is None
    # an operation over two cells
    assert ask(kb, "What is the difference in the gross carrying amount between the current "
                   "and the total?") is None
    # no column named
    assert ask(kb, "What is the gross carrying amount?") is None
    # more words than the row and the column explain
    assert ask(kb, "What is the gross carrying amount for current receivables owed by "
                   "government customers abroad?") is None


def test_engine_answers_through_the_reader(kb) -> None:
    eng = AnswerEngine(kb)
    ans = eng.ask("What is the loss allowance provision for current receivables?")
    assert ans.decision == "answer"
    assert eng.last_table_answer["value"] == 238.0


def test_a_row_labelled_by_a_span_of_years(tmp_path_factory) -> None:
    """"Expiring between fiscal year 2020 - 2024" names the row "2020 – 2024" of a maturity
    schedule (its years are the row's label, not a period column); a span no row has, or a
    second year beside it, is not guessed."""
    k = hyrag.open(tmp_path_factory.mktemp("spans") / "kb", settings=Settings(
        answer_use_search=False))
    k.ingest(pd.DataFrame([["2020 – 2024", "381", "697"], ["2025 – 2029", "198", "270"]],
                          columns=["Fiscal Year", "Ground Leases", "Building Leases"]),
             name="leases")
    try:
        r = ask(k, "What is the number of ground leases expiring between fiscal year 2020 - 2024?")
        assert r is not None and r.answer == 381.0
        r = ask(k, "How many building leases expire in 2025 to 2029?")
        assert r is not None and r.answer == 270.0
        assert ask(k, "How many ground leases expire in 2030 - 2034?") is None
        assert ask(k, "How many ground leases expire in 2020 - 2024 and 2019?") is None
    finally:
        k.close()


def test_the_nth_period_line_of_a_monthly_schedule(tmp_path_factory) -> None:
    """"During the second month" of a schedule whose lines are dated periods is its second
    line (the "Total" line aside); the column is the most specific one the question names."""
    k = hyrag.open(tmp_path_factory.mktemp("months") / "kb", settings=Settings(
        answer_use_search=False))
    k.ingest(pd.DataFrame([
        ["January 26, 2019 - February 22, 2019", "262", "306,255"],
        ["February 23, 2019 - March 22, 2019", "3,380", "309,635"],
        ["March 23, 2019 - April 26, 2019", "3,608", "313,244"],
        ["Total", "7,250", ""]],
        columns=["Period", "Total Number of Shares Purchased",
                 "Total Number of Shares Purchased as Part of Publicly Announced Program"]),
        name="buyback")
    try:
        r = ask(k, "What was the number of shares purchased as part of the publicly announced "
                   "program during the second month?")
        assert r is not None and r.answer == 309635.0
        r = ask(k, "What was the number of shares purchased in the third month?")
        assert r is not None and r.answer == 3608.0
        assert ask(k, "What was the number of shares purchased in the fifth month?") is None
    finally:
        k.close()


CARRY = [
    ["Income tax net operating loss carryforwards:", "", ""],
    ["Domestic-state", "2031", "$41,250"],
    ["Foreign", "2035 or indefinite", "$312,400"],
    ["Tax credit carryforwards:", "", ""],
    ["Domestic-federal", "2030", "$22,105"],
    ["Domestic-state", "2028", "$2,870"],
]


@pytest.fixture(scope="module")
def carry(tmp_path_factory: pytest.TempPathFactory):
    k = hyrag.open(tmp_path_factory.mktemp("carry") / "kb", settings=Settings(
        answer_use_search=False))
    k.ingest(pd.DataFrame(CARRY, columns=["(dollars in thousands)",
                                          "Last Fiscal Year of Expiration", "Amount"]),
             name="carry")
    yield k
    k.close()


def test_a_repeated_line_told_apart_by_its_section(carry) -> None:
    # "Domestic-state" under two headings: the one whose heading the question names, read in
    # the table's one column of amounts (a header with no words of its own to name)
    r = ask(carry, "What was the amount of domestic-state income tax net operating loss "
                   "carryforwards?")
    assert r is not None and r.answer == 41250.0
    r = ask(carry, "What was the amount of domestic-state tax credit carryforwards?")
    assert r is not None and r.answer == 2870.0
    # neither heading named: which of the two lines is a guess
    assert ask(carry, "What was the amount of domestic-state carryforwards?") is None
    # the engine: the parser's sum of both "Domestic-state" lines is no answer to it
    ans = AnswerEngine(carry).ask("What was the amount of domestic-state income tax net "
                                  "operating loss carryforwards?")
    assert ans.decision == "answer" and "41,250" in ans.text and "44,120" not in ans.text


def test_an_unasked_sum_is_no_direct_answer() -> None:
    from types import SimpleNamespace as NS

    summed = NS(kind="sql", warrant_query='SELECT SUM("amount") AS value FROM "t" WHERE '
                                          "\"item\" = 'Domestic-state'")
    picked = NS(kind="sql", warrant_query='SELECT "amount" FROM "t" WHERE "item" = \'x\'')
    assert grid.unasked_sum(NS(operation=None), [summed])
    assert not grid.unasked_sum(NS(operation="total"), [summed])  # a sum asked for
    assert not grid.unasked_sum(NS(operation=None), [picked])  # a cell, not a sum
    assert not grid.unasked_sum(NS(operation=None), [summed, NS(kind="cell")])
    assert not grid.unasked_sum(NS(operation=None), [])


def test_a_wordless_column_explains_no_other_word(carry) -> None:
    # "Amount" says nothing of revenue: the line's words must be all the question says
    assert ask(carry, "What was the revenue of domestic-state income tax net operating loss "
                      "carryforwards?") is None
    assert not grid._wordless("Growth %") and grid._wordless("Amount ($ in thousands)")
