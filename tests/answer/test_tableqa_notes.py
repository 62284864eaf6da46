"""Lines and columns a question names in part (`tableqa_notes`, `tableqa_pair`, `tableqa`):
a parenthesised note the question quotes picks the line carrying it (a heading's unlabelled
total), a share of a line under a heading is of that heading's total, "as of end of period"
names the "Balance at End of Period" column, and a "2019 over 2018" column is no year's
figure of the line."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa, tableqa_pair
from hyrag.answer.readers import tableqa_read as read
from tests.answer.conftest import statement_kb

EPS = [
    ["Weighted average number of shares (millions)", "", ""],
    ["Basic earnings per share", "1,305.7", "1,300.5"],
    ["Diluted earnings per share", "1,313.7", "1,303.9"],
    ["Basic earnings per share (cents per share) (1)", "", ""],
    ["Continuing operations", "114.3", "123.4"],
    ["Discontinued operations", "91.9", "9.2"],
    ["", "206.2", "132.6"],
    ["Diluted earnings per share (cents per share) (1,2)", "", ""],
    ["Continuing operations", "113.6", "123.1"],
    ["Discontinued operations", "91.3", "9.2"],
    ["", "204.9", "132.3"],
]


@pytest.fixture(scope="module")
def eps(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, EPS, None, "eps", columns=("item", "2019", "2018"))
    yield k
    k.close()


def test_a_quoted_note_picks_the_line_carrying_it(eps) -> None:
    con = eps.store.con
    r = tableqa.resolve("What is the nominal difference for basic earnings per share (cents "
                        "per share) between 2018 and 2019?", con)
    assert r is not None and (r.operation, r.answer) == ("difference", 73.6)
    # without the note the question names the count line, which it fully names
    r = tableqa.resolve("What is the nominal difference for basic earnings per share between "
                        "2018 and 2019?", con)
    assert r is not None and round(r.answer, 2) == 5.2


def test_a_share_of_a_line_under_a_heading_is_of_the_headings_total(eps) -> None:
    r = tableqa.resolve("What is the percentage constitution of continuing operations in "
                        "diluted earnings per share in 2019?", eps.store.con)
    assert r is not None and (r.answer, r.scale) == (55.44, "percent")


BALANCES = [
    ["Accounts receivable", "$90,831", "$7,117", "$97,948"],
    ["Deferred revenue (current)", "$5,101", "$(618)", "$4,483"],
    ["Deferred revenue (non-current)", "$3,707", "$(263)", "$3,444"],
]
BALANCE_COLS = ["item", "Balance at Beginning of Period", "Increase / (Decrease)",
                "Balance at End of Period"]


@pytest.fixture(scope="module")
def balances(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, BALANCES, None, "balances", columns=BALANCE_COLS)
    yield k
    k.close()


def test_end_of_period_names_the_closing_balance_column(balances) -> None:
    con = balances.store.con
    r = tableqa_pair.resolve("What is the ratio of current deferred revenue to non-current "
                             "deferred revenue as of end of period?", con)
    assert r is not None and r.answer == 1.3
    r = tableqa_pair.resolve("What is the ratio of current deferred revenue to non-current "
                             "deferred revenue as of beginning of period?", con)
    assert r is not None and r.answer == 1.38
    # no point of the period named: which balance?
    assert tableqa_pair.resolve("What is the ratio of current deferred revenue to non-current "
                                "deferred revenue?", con) is None


SEGMENTS = [
    ["Modules", "$ 1,460,116", "$ 502,001", "$ 806,398", "$ 958,115", "$(304,397)"],
    ["Systems", "1,603,001", "1,742,043", "2,134,926", "(139,042)", "(392,883)"],
    ["Net sales", "$ 3,063,117", "$ 2,244,044", "$ 2,941,324", "$ 819,073", "$(697,280)"],
]
SEGMENT_COLS = ["(Dollars in thousands)", "2019", "2018", "2017", "2019 over 2018",
                "2018 over 2017"]


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, SEGMENTS, None, "segments", columns=SEGMENT_COLS)
    yield k
    k.close()


def test_a_column_comparing_two_years_is_no_years_figure(segments) -> None:
    r = tableqa.resolve("What is the net difference in sale of systems between 2017 and "
                        "2019?", segments.store.con)
    assert r is not None and r.answer == -531925.0
    r = tableqa.resolve("What were the systems in 2017?", segments.store.con)
    assert r is not None and r.answer == 2134926.0


def test_a_net_difference_keeps_its_sign() -> None:
    assert read.distance("What is the difference in sales between 2017 and 2019?")
    assert not read.distance("What is the net difference in sales between 2017 and 2019?")


EMISSIONS = [
    ["Combustion of fuel (Scope 1)", "59,495", "66,336", "75,600"],
    ["Electricity purchased (Scope 2)", "27,633", "32,389", "67,754"],
]
EMISSION_COLS = ["Emissions from:", "FY19**", "FY18**", "FY18***"]


@pytest.fixture(scope="module")
def emissions(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, EMISSIONS, None, "emissions", columns=EMISSION_COLS)
    k.ingest_text(["* Emissions are calculated using the GHG Protocol. ** UK & Ireland only – "
                   "comparable with FY19 Group structure. *** Full Group including US "
                   "business."], source="notes")
    yield k
    k.close()


def test_a_footnote_mark_the_question_explains_picks_the_column(emissions) -> None:
    con = emissions.store.con
    r = tableqa.resolve("What is the change in the Combustion of fuel (Scope 1) from FY18 to "
                        "FY19 for UK and Ireland only?", con)
    assert r is not None and r.answer == -6841.0
    r = tableqa.resolve("What is the Combustion of fuel (Scope 1) in FY18 for the full group "
                        "including US business?", con)
    assert r is not None and r.answer == 75600.0
    # naming neither footnote: which basis of FY18?
    assert tableqa.resolve("What is the change in the Combustion of fuel (Scope 1) from FY18 "
                           "to FY19?", con) is None


ALLOCATION = [
    ["Goodwill", "261.3", "(7.4)", "253.9"],
    ["Total assets", "$ 540.6", "$ 5.2", "$ 545.8"],
    ["Other liabilities", "19.8", "1.6", "21.4"],
    ["Total liabilities", "$ 94.9", "$ 5.2", "$ 100.1"],
]
ALLOCATION_COLS = ["(In millions)", "Preliminary Allocation As of August 1, 2019",
                   "Measurement Period Adjustments", "Revised Allocation As of December 31, 2019"]


@pytest.fixture(scope="module")
def allocation(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ALLOCATION, None, "allocation", columns=ALLOCATION_COLS)
    yield k
    k.close()


def test_before_and_after_the_adjustments_column(allocation) -> None:
    con = allocation.store.con
    r = tableqa_pair.resolve("What is the percentage difference of total liabilities when "
                             "comparing after adjustment to before adjustment?", con)
    assert r is not None and (r.answer, r.scale) == (5.48, "percent")
    # "before" and "after" of different things: which columns?
    assert tableqa_pair.resolve("What is the percentage difference of total liabilities "
                                "after adjustment compared to before tax?", con) is None


OBLIGATIONS = [
    ["Operating leases (1)", "$19,437", "$4,143", "$7,111", "$3,686", "$4,497"],
    ["Capital leases", "65", "27", "38", "—", "—"],
    ["Total contractual obligations", "$19,902", "$4,170", "$7,299", "$3,936", "$4,497"],
]
OBLIGATION_COLS = ["(In thousands)", "Total", "2020", "2021-2022", "2023-2024", "Thereafter"]


@pytest.fixture(scope="module")
def obligations(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, OBLIGATIONS, None, "obligations",
                     columns=OBLIGATION_COLS)
    yield k
    k.close()


def test_period_bucket_columns_the_question_quotes(obligations) -> None:
    con = obligations.store.con
    r = tableqa_pair.resolve("What was the increase / (decrease) in the contractual obligation "
                             "for operating leases from 2020 to 2021-2022?", con)
    assert r is not None and r.answer == 2968.0
    r = tableqa_pair.resolve("What was the change in operating leases from 2021-2022 to "
                             "2023-2024?", con)
    assert r is not None and r.answer == -3425.0
    # a bucket the table does not have
    assert tableqa_pair.resolve("What was the change in operating leases from 2021-2022 to "
                                "2022-2023?", con) is None
