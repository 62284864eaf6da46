"""The total of the instruments a debt table lists as due by a date (`tableqa_due`): the lines
of the kind named whose stated maturity falls by the cut-off, in the column of the as-of date
and measure the question names; other kinds, later maturities and doubtful columns are not
read."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa_due
from tests.answer.conftest import statement_kb

DEBT = [
    ["Term Loan A Facility due July 2022", "474.6", "474.6", "—", "—"],
    ["6.50% Senior Notes due December 2020", "—", "—", "424.0", "440.1"],
    ["4.875% Senior Notes due December 2022", "421.9", "450.1", "421.1", "421.2"],
    ["5.25% Senior Notes due April 2023", "422.0", "454.1", "421.2", "424.5"],
    ["5.125% Senior Notes due December 2024", "421.9", "458.9", "421.3", "419.8"],
    ["5.50% Senior Notes due September 2025", "397.4", "441.2", "397.1", "394.8"],
    ["Total debt", "2,137.8", "2,278.9", "2,084.7", "2,100.4"],
]
COLS = ("item", "December 31, 2019 Carrying Amount", "December 31, 2019 Fair Value",
        "December 31, 2018 Carrying Amount", "December 31, 2018 Fair Value")


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, DEBT, "(in millions)", "debt", COLS)
    yield k
    k.close()


def _ask(kb, q: str):
    r = tableqa_due.resolve(q, kb.store.con)
    return None if r is None else (r.answer, r.scale)


def test_the_notes_due_by_the_cutoff_are_added(kb) -> None:
    # December 2022, April 2023 and December 2024: not the Term Loan, not September 2025
    assert _ask(kb, "What is the total carrying amount of Senior Notes due by December 2024 "
                    "as of December 31, 2019?") == (1265.8, "million")
    # 2018's column holds the note repaid in 2020 as well
    assert _ask(kb, "What is the total fair value of Senior Notes due by April 2023 as of "
                    "December 31, 2018?") == (1285.8, "million")


def test_no_cutoff_or_no_measure_named_declines(kb) -> None:
    assert _ask(kb, "What is the total carrying amount of Senior Notes as of December 31, "
                    "2019?") is None
    # carrying amount or fair value? The question does not say
    assert _ask(kb, "What is the total of Senior Notes due by December 2024 as of December "
                    "31, 2019?") is None


OBLIGATIONS = [
    ["Operating lease obligations", "16,164", "19,812", "6,551", "5,883", "48,410"],
    ["Purchase obligations", "55,755", "16,220", "7,595", "17,649", "97,219"],
    ["Total", "71,919", "36,032", "14,146", "23,532", "145,629"],
]
BUCKETS = ("item", "Up to 1 year", "1 to 3 years", "3 to 5 years", "More than 5 years", "Total")


@pytest.fixture(scope="module")
def obligations(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, OBLIGATIONS, "(in thousands)", "obligations", BUCKETS)
    yield k
    k.close()


def test_the_buckets_within_a_horizon_are_added(obligations) -> None:
    """Due within 5 years: up to 1, 1 to 3 and 3 to 5 years — not the bucket past it, not the
    total; through the engine, the sum is re-computed by the verifier."""
    from tests.answer.conftest import ask_with_table_answer

    q = "What is the company's total purchase obligations that are due within 5 years?"
    assert _ask(obligations, q) == (55755 + 16220 + 7595, "thousand")
    assert _ask(obligations, "What are the operating lease obligations due within three "
                "years?") == (16164 + 19812, "thousand")
    ans, _ = ask_with_table_answer(obligations, q)
    assert ans.decision == "answer" and "79,570" in ans.text, ans.text
    assert not ans.verification.get("failures")


@pytest.mark.parametrize("q", [
    "What are the purchase obligations due within 4 years?",  # cuts through "3 to 5 years"
    "What are the purchase obligations due within 1 year?",  # one bucket: a lookup
    "What are the obligations due within 5 years?",  # no one line named
])
def test_a_horizon_the_buckets_do_not_tile_is_not_read(obligations, q) -> None:
    assert _ask(obligations, q) is None


def test_bucket_headers() -> None:
    assert tableqa_due.bucket("Less than one year") == (0, 1)
    assert tableqa_due.bucket("1-3 years") == (1, 3)
    assert tableqa_due.bucket("Between 3 and 5 years") == (3, 5)
    assert tableqa_due.bucket("After 5 years") == (5, float("inf"))
    assert tableqa_due.bucket("2021") is None


@pytest.mark.parametrize("q", [
    "What percentage of purchase obligations are due within 3 years?",  # a share of the sum
    "What is the interest on purchase obligations due within 5 years?",  # not the amount
    "How much of the operating lease obligations and purchase obligations are due within 3 "
    "years?",  # two lines: not one of them
    "What are the purchase obligations due in 3 years?",  # may mean the third year alone
])
def test_a_horizon_question_about_something_else_is_not_read(obligations, q) -> None:
    assert _ask(obligations, q) is None
