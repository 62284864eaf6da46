"""The total of an item a table shows only as its current and non-current parts
(`tableqa_parts`): added up in the column and period the question names; declined where the
item has a line of its own, the question names a part, or the column is in doubt."""

from __future__ import annotations

import pytest

from hyrag.answer import tableqa_parts
from tests.answer.conftest import statement_kb

# one block of measure columns per period heading, as a currency-exposure note prints it
EXPOSURE = [
    ["As at 31 December 2019", "", ""],
    ["Monetary assets, current", "27,728", "2,899"],
    ["Monetary assets, non-current", "373", "12"],
    ["Monetary liabilities, current", "(4,273)", "(14,732)"],
    ["Monetary liabilities, non-current", "(91)", "(5,739)"],
    ["As at 31 December 2018", "", ""],
    ["Monetary assets, current", "18,041", "1,994"],
    ["Monetary assets, non-current", "2,642", "7"],
    ["Monetary liabilities, current", "(3,434)", "(4,587)"],
    ["Monetary liabilities, non-current", "(3,733)", "(9,430)"],
]

PERIODS = [
    ["Deferred revenue, current", "500", "400"],
    ["Deferred revenue, non-current", "120", "80"],
    ["Other assets", "30", "20"],
    ["Total other assets", "30", "20"],
    ["Other assets, current", "10", "5"],
    ["Other assets, non-current", "20", "15"],
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, EXPOSURE, "(in millions)", "exposure",
                     columns=("item", "USD denominated", "Non-USD denominated"))
    yield k
    k.close()


@pytest.fixture(scope="module")
def pkb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, PERIODS, "(in thousands)", "periods",
                     columns=("item", "2019", "2018"))
    yield k
    k.close()


def _ask(kb, q: str):
    r = tableqa_parts.resolve(q, kb.store.con)
    return None if r is None else (r.answer, r.scale)


def test_the_parts_of_the_named_column_and_period_are_added(kb) -> None:
    assert _ask(kb, "What was the total USD denominated monetary assets as at 31 December "
                    "2019?") == (28101.0, "million")
    assert _ask(kb, "What was the total USD denominated monetary assets as at 31 December "
                    "2018?") == (20683.0, "million")
    assert _ask(kb, "What was the total non-USD denominated monetary assets as at 31 "
                    "December 2019?") == (2911.0, "million")


def test_bracketed_liabilities_total_their_size(kb) -> None:
    assert _ask(kb, "What was the total non-USD denominated monetary liabilities as at 31 "
                    "December 2019?") == (20471.0, "million")


def test_a_column_in_doubt_or_a_named_part_declines(kb) -> None:
    assert _ask(kb, "What was the total monetary assets as at 31 December 2019?") is None
    assert _ask(kb, "What was the total USD denominated current monetary assets as at 31 "
                    "December 2019?") is None
    assert _ask(kb, "What was the change in total USD denominated monetary assets from 2018 "
                    "to 2019?") is None


def test_period_columns_and_an_item_with_its_own_line(pkb) -> None:
    assert _ask(pkb, "What was the total deferred revenue in 2019?") == (620.0, "thousand")
    # "Other assets" has a line of its own: that line is the total, not this reader's sum
    assert _ask(pkb, "What was the total other assets in 2019?") is None
