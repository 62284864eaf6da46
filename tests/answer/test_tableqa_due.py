"""The total of the instruments a debt table lists as due by a date (`tableqa_due`): the lines
of the kind named whose stated maturity falls by the cut-off, in the column of the as-of date
and measure the question names; other kinds, later maturities and doubtful columns are not
read."""

from __future__ import annotations

import pytest

from hyrag.answer import tableqa_due
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


def _ask(kb, q: str):  # noqa: ANN001, ANN201
    r = tableqa_due.resolve(q, kb.store.con)
    return None if r is None else (r.answer, r.scale)


def test_the_notes_due_by_the_cutoff_are_added(kb) -> None:  # noqa: ANN001
    # December 2022, April 2023 and December 2024: not the Term Loan, not September 2025
    assert _ask(kb, "What is the total carrying amount of Senior Notes due by December 2024 "
                    "as of December 31, 2019?") == (1265.8, "million")
    # 2018's column holds the note repaid in 2020 as well
    assert _ask(kb, "What is the total fair value of Senior Notes due by April 2023 as of "
                    "December 31, 2018?") == (1285.8, "million")


def test_no_cutoff_or_no_measure_named_declines(kb) -> None:  # noqa: ANN001
    assert _ask(kb, "What is the total carrying amount of Senior Notes as of December 31, "
                    "2019?") is None
    # carrying amount or fair value? The question does not say
    assert _ask(kb, "What is the total of Senior Notes due by December 2024 as of December "
                    "31, 2019?") is None
