"""Totals over line items and over period rows: a percentage line does not stand for the
amount it is a percentage of, a "Total" line is summed over the span of periods a question
totals it over, and an aggregate over a schedule whose rows are periods runs over the periods
the question names — never over every line of the column."""

from __future__ import annotations

import pandas as pd
import pytest

import hyrag
from hyrag.answer.readers import tableops, tableqa
from hyrag.settings import Settings
from tests.answer.conftest import statement_kb

REVENUE = [
    ["Net revenues", "2,280", "1,664", "1,500"],
    ["Percentage of total net revenues", "47%", "41%", "40%"],
    ["Operating income", "1,111", "839", "700"],
    ["Total other non-current assets", "41,846", "8,620", "7,000"],
]

# a maturity schedule: the rows are periods, the columns line items
LEASES = pd.DataFrame([
    ["2020", "460", "47"], ["2021", "361", "28"], ["2022", "308", "22"],
    ["2023", "265", "22"], ["2024", "194", "21"], ["Thereafter", "686", "170"],
    ["Total lease payments", "2,274", "310"], ["Less: interest", "(516)", "(90)"],
    ["Total", "1,758", "220"],
], columns=["item", "Operating Leases", "Finance Leases"])


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, REVENUE, "Results (in millions)", "revenue")
    yield k
    k.close()


@pytest.fixture(scope="module")
def leases(tmp_path_factory: pytest.TempPathFactory):
    k = hyrag.open(tmp_path_factory.mktemp("leases") / "kb",
                   settings=Settings(answer_use_search=False))
    k.ingest(LEASES, name="leases")
    yield k
    k.close()


def ask(kb, q: str):
    return tableqa.resolve(q, kb.store.con)


def test_a_percentage_line_does_not_stand_for_the_amount(kb) -> None:
    r = ask(kb, "What is the Total net revenue for fiscal 2019 and 2018?")
    assert (r.operation, r.answer) == ("sum", 3944.0)
    assert [x.entity for x in r.requirements] == ["Net revenues", "Net revenues"]


def test_a_question_asking_a_percentage_still_reads_the_percentage_line(kb) -> None:
    r = ask(kb, "What was the percentage of total net revenues in 2019?")
    assert r.requirements[0].entity == "Percentage of total net revenues"


def test_a_total_line_is_summed_over_the_span_the_question_totals(kb) -> None:
    r = ask(kb, "What is the total value of other non-current assets between 2018 to 2019?")
    assert (r.operation, r.answer) == ("sum", 50466.0)


def test_a_total_line_named_for_two_years_stays_unanswered(kb) -> None:
    # "Total other non-current assets in 2019 and 2018": both figures, or their sum?
    r = ask(kb, "What were the total other non-current assets in 2019 and 2018?")
    assert r is None or r.operation == "each"


def test_a_total_line_over_both_years_is_their_sum(kb) -> None:
    # "in both 2019 and 2018" gathers the years into the one figure "total" asks for
    r = ask(kb, "What is the total other non-current assets in both 2019 and 2018?")
    assert (r.operation, r.answer) == ("sum", 50466.0)


def _aggregate(kb, q: str):
    res = tableops.resolve(q, kb.store.con)
    return None if res is None else res.answer


def test_a_sum_over_period_rows_runs_over_the_named_periods(leases) -> None:
    assert _aggregate(leases, "What is the sum of finance leases from 2020 to 2024?") == 140.0


def test_a_sum_naming_periods_the_rows_do_not_hold_abstains(leases) -> None:
    assert _aggregate(leases, "What is the sum of finance leases from 2017 to 2019?") is None


def test_a_schedule_of_period_rows_reads_its_columns_as_line_items(leases) -> None:
    r = ask(leases, "What was the change in operating leases between 2021 and 2022?")
    assert (r.operation, r.answer) == ("difference", -53.0)
    r = ask(leases, "What is the percentage change in the amount of operating leases in 2021 "
                    "from 2020?")
    assert (r.operation, r.answer) == ("change_ratio", -21.52)
    r = ask(leases, "What were the finance leases for 2022?")
    assert (r.operation, r.answer) == ("lookup", 22.0)
    # "Thereafter" and the totals are no period: a span reaching past the dated rows abstains
    assert ask(leases, "What is the average finance leases from 2024 to 2026?") is None


def test_a_lone_year_among_row_labels_is_no_period(tmp_path) -> None:
    # "1962" beside "1964-1967" labels a row of a list; only a run of years is a schedule
    df = pd.DataFrame([["1975-present", "72"], ["1964-1967", "47"], ["1962", "45"]],
                      columns=["item", "Floors"])
    k = hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False))
    k.ingest(df, name="buildings")
    from hyrag.answer.readers import tableqa_rows as tr

    assert not [c for c in tr.read_cells(k.store.con) if c.get("period_row")]
    assert ask(k, "What were the floors in 1962?") is None
    k.close()
