"""Two cells of a grid (`tableqa_pair`): a difference or a percentage change between cells the
question picks by their row and column words — one row and two of its columns, or two rows
and one column — and nothing when either cell is not fully named, or the order is unclear."""

from __future__ import annotations

import pytest

from hyrag.answer.engine import AnswerEngine
from hyrag.answer.readers import tableqa_pair as pair
from tests.answer.conftest import statement_kb

AGEING = [
    ["Expected loss rate", "2%", "6%", "25%", "-"],
    ["Gross carrying amount", "41,200", "3,150", "980", "45,330"],
    ["Loss allowance provision", "824", "189", "245", "1,258"],
    ["Net receivables", "40,376", "2,961", "735", "44,072"],
]
AGEING_COLS = ["31 March 2020", "Current $'000", "0 to 30 days past due $'000",
               "More than 30 days past due $'000", "Total $'000"]

BUCKETS = [
    ["Region: North", "2,400", "310", "95", "2,805"],
    ["Region: South", "1,150", "620", "410", "2,180"],
    ["Total overdue", "3,550", "930", "505", "4,985"],
]
BUCKET_COLS = ["Days overdue", "1–30", "31–90", ">90", "Total"]

LEASES = [
    ["2021 – 2025", "214", "530"],
    ["2026 – 2030", "120", "302"],
    ["2031 – 2035", "33", "98"],
]
LEASE_COLS = ["Fiscal Year", "Ground Leases", "Building Leases"]

BUYBACKS = [
    ["October 1, 2020 - October 31, 2020", "410", "$ 31.20"],
    ["November 1, 2020 - November 30, 2020", "1,250", "$ 33.05"],
    ["December 1, 2020 - December 31, 2020", "980", "$ 32.40"],
    ["Total", "2,640", "$ 32.45"],
]
BUYBACK_COLS = ["Period", "Total Number of Shares Purchased (Shares in thousands)",
                "Average Price Paid per Share"]

PRICES = [
    ["First Quarter", "$ 12.40", "$ 15.10"],
    ["Second Quarter", "$ 11.05", "$ 14.20"],
    ["Third Quarter", "$ 9.80", "$ 12.60"],
]
PRICE_COLS = ["Quarter", "Low", "High"]


def _kb(tmp_path_factory: pytest.TempPathFactory, rows: list, cols: list, name: str):
    return statement_kb(tmp_path_factory, rows, None, name, cols)


@pytest.fixture(scope="module")
def ageing(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, AGEING, AGEING_COLS, "ageing")
    yield k
    k.close()


@pytest.fixture(scope="module")
def buckets(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, BUCKETS, BUCKET_COLS, "buckets")
    yield k
    k.close()


@pytest.fixture(scope="module")
def leases(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, LEASES, LEASE_COLS, "leases")
    yield k
    k.close()


@pytest.fixture(scope="module")
def prices(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, PRICES, PRICE_COLS, "prices")
    yield k
    k.close()


@pytest.fixture(scope="module")
def buybacks(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, BUYBACKS, BUYBACK_COLS, "buybacks")
    yield k
    k.close()


@pytest.fixture(scope="module")
def regions(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, [["West", "210.6", "35.2"], ["East", "179.9", "30.1"]],
            ["Region", "Revenue 2024", "Margin 2024"], "regions")
    yield k
    k.close()


def ask(kb, q: str):
    return pair.resolve(q, kb.store.con)


def test_two_columns_of_one_row(ageing) -> None:
    r = ask(ageing, "What was the difference between total net receivables and current net "
                    "receivables?")
    assert r is not None and r.answer == 3696.0 and r.scale == "thousand"
    r = ask(ageing, "What is the difference in the gross carrying amount between the total "
                    "and the current?")
    assert r is not None and r.answer == 4130.0
    d = r.derivations[0]
    assert d.name == "difference" and [o.value for o in d.operands] == [45330.0, 41200.0]
    # a part and its total, the part named first: the rest of the total (4,130), not -4,130
    r = ask(ageing, "What is the difference in the gross carrying amount between the "
                    "current and the total?")
    assert r is not None and r.answer == 4130.0
    assert [o.value for o in r.derivations[0].operands] == [45330.0, 41200.0]
    # two siblings, the smaller named first: A - B (-38,050) or how far apart? Not guessed at
    assert ask(ageing, "What is the difference in the gross carrying amount between 0 to 30 "
                       "days past due and current?") is None


def test_two_rows_of_one_column(buckets) -> None:
    # rows "Region: North" / "Region: South", the column "1–30" named as "1-30"; "days
    # overdue" is the label column's header, what the columns are of
    r = ask(buckets, "What is the difference in north and south region due for 1-30 days "
                     "overdue?")
    assert r is not None and r.answer == 1250.0
    r = ask(buckets, "What is the difference between 1-30 and 31-90 days overdue in the north "
                     "region?")
    assert r is not None and r.answer == 2090.0


def test_rows_named_by_their_years(leases) -> None:
    r = ask(leases, "What is the difference of ground leases expiring between the periods "
                    "2021 - 2025 and 2026 - 2030?")
    assert r is not None and r.answer == 94.0
    r = ask(leases, "From fiscal year 2021 - 2025, what is the difference in the number of "
                    "building leases and ground leases?")
    assert r is not None and r.answer == 316.0


def test_sum_of_two_cells(leases) -> None:
    r = ask(leases, "From fiscal year 2026 - 2030, what is the total number of ground leases and "
                    "building leases expiring?")
    assert r is not None and r.answer == 422.0 and r.derivations[0].name == "sum"


def test_dated_lines_named_by_their_order(buybacks) -> None:
    # lines that are periods, "the first month" the first of them; a price per share has no
    # scale, the count of shares the one its header states
    r = ask(buybacks, "What was the change in average price paid per share between the first "
                      "to second month period?")
    assert r is not None and r.answer == 1.85 and r.scale == ""
    r = ask(buybacks, "What was the change in the total number of shares purchased between the "
                      "second to third month period?")
    assert r is not None and r.answer == -270.0 and r.scale == "thousand"
    # a fourth month the table does not have
    assert ask(buybacks, "What was the change in average price paid per share between the "
                         "third to fourth month period?") is None


def test_direction_and_percentage_change(prices) -> None:
    r = ask(prices, "What was the change in the high price from the first quarter to the "
                    "second quarter?")
    assert r is not None and r.answer == -0.9
    r = ask(prices, "What was the percentage change in the low price from the first quarter "
                    "to the third quarter?")
    assert r is not None and r.answer == -20.97 and r.scale == "percent"
    assert r.derivations[0].name == "growth"
    r = ask(prices, "In the second quarter, what is the difference between the high and low "
                    "price?")
    assert r is not None and r.answer == 3.15


def test_no_guess(ageing, buckets, prices, leases, regions) -> None:
    # "the change between A and B": no direction between two cells that are not periods
    assert ask(prices, "What was the change in the high price between the first quarter and "
                       "the second quarter?") is None
    # "A as compared to B" is no move from A to B, and not "the difference between" either
    assert ask(prices, "What was the change in the high price in the first quarter as "
                       "compared to the second quarter?") is None
    # a year the table does not have
    assert ask(prices, "In the first quarter of 2018, what is the difference between the low "
                       "and high price?") is None
    # three columns named: which two?
    assert ask(ageing, "What is the difference in gross carrying amount between current, "
                       "0 to 30 days past due and total?") is None
    # a percent against an amount
    assert ask(ageing, "What is the difference between the current expected loss rate and "
                       "the current gross carrying amount?") is None
    # two rows of the Total column, the smaller first: neither row is the other's total
    assert ask(buckets, "What is the difference between the south and north regions in "
                        "total?") is None
    # no column named, and the table has several
    assert ask(buckets, "What is the difference between the north and south regions?") is None
    # two lines in one period: a line-item comparison, not this reader's
    assert ask(regions, "What is the difference between West and East revenue in 2024?") is None
    # a span of years no line is: every year of it, not two cells
    assert ask(leases, "What is the sum of ground leases from 2021 to 2035?") is None
    # more words than the cells explain
    assert ask(ageing, "What was the difference between total net receivables and current "
                       "net receivables owed by government customers abroad?") is None
    # a percentage change of percentages: relative, or in points?
    assert ask(ageing, "What is the percentage change in the expected loss rate from current "
                       "to total?") is None


def test_engine_answers_through_the_reader(buckets) -> None:
    eng = AnswerEngine(buckets)
    ans = eng.ask("What is the difference between 1-30 and 31-90 days overdue in the south "
                  "region?")
    assert ans.decision == "answer"
    assert eng.last_table_answer["value"] == 530.0


DEBT = [
    ["Term loan", "474.6", "474.6", "222.2", "222.2"],
    ["Senior notes", "421.9", "450.1", "421.1", "421.2"],
    ["Total debt", "896.5", "924.7", "643.3", "643.4"],
]
DEBT_COLS = ["(In millions)", "Carrying Amount 2019", "Fair Value 2019", "Carrying Amount 2018",
             "Fair Value 2018"]

ROLL = [
    ["Non-vested at December 31, 2023", "1,187,586", "$41.12"],
    ["Granted", "473,550", "$53.53"],
    ["Vested", "(365,223)", "$41.83"],
    ["Forfeited", "(12,632)", "$50.49"],
    ["Non-vested at December 31, 2024", "1,283,281", "$45.40"],
]
ROLL_COLS = ["Non-vested awards", "Shares", "Weighted-Average Grant Date Fair Value"]


@pytest.fixture(scope="module")
def debt(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, DEBT, DEBT_COLS, "debt")
    yield k
    k.close()


@pytest.fixture(scope="module")
def roll(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, ROLL, ROLL_COLS, "roll")
    yield k
    k.close()


def test_ratio_of_two_cells(prices, buckets) -> None:
    # one row, two columns: "the ratio of A to B" is A over B, unscaled
    r = ask(prices, "What is the ratio of the high price to the low price in the third quarter?")
    assert r is not None and r.answer == 1.29 and r.scale == ""
    d = r.derivations[0]
    assert d.name == "ratio" and [o.value for o in d.operands] == [12.6, 9.8]
    # "A as a percentage of B": times 100; the part is the operand the part's half names
    r = ask(buckets, "What is the 31-90 days overdue of the south region as a percentage of "
                     "its 1-30 days overdue?")
    assert r is not None and r.answer == 53.91 and r.scale == "percent"
    # whole first: "what percentage of B is made up of A"
    r = ask(buckets, "What percentage of the 1-30 days overdue of the north region is made up "
                     "of its more than 90?")
    assert r is not None and r.answer == 3.96 and r.scale == "percent"


def test_bracketed_deduction_is_a_share_by_its_size(roll) -> None:
    # shares vested "(365,223)" out of a positive closing balance: its size, as a percentage
    r = ask(roll, "What is the vested shares as a percentage of the non-vested shares at "
                  "December 31, 2024?")
    assert r is not None and r.answer == 28.46 and r.scale == "percent"
    assert [o.value for o in r.derivations[0].operands] == [365223.0, 1283281.0]


def test_percentage_difference_between_two_cells(debt) -> None:
    # "the percentage difference between A and B": A against B
    r = ask(debt, "What is the percentage difference between fair value and carrying amount "
                  "of total debt in 2019?")
    assert r is not None and r.answer == 3.15 and r.scale == "percent"
    assert r.derivations[0].name == "growth"
    assert [o.value for o in r.derivations[0].operands] == [896.5, 924.7]


def test_ratio_no_guess(prices, debt, buckets) -> None:
    # a proportion above 1: the part and the whole were read the wrong way round
    assert ask(debt, "What proportion of the senior notes carrying amount in 2019 is the "
                     "total debt carrying amount in 2019?") is None
    # a share of a Total line: the shares reader's, which checks the total adds up
    assert ask(debt, "What is the senior notes fair value in 2019 as a percentage of the total "
                     "debt fair value in 2019?") is None
    # two named lines of one column, not a part of a total: a comparison may pass 100 %
    r = ask(buckets, "What is the north region as a percentage of the south region for 1-30 "
                     "days overdue?")
    assert r is not None and r.answer == 208.7
    # both operands' words in one half: which is over which is a guess
    assert ask(prices, "What is the ratio of the high and low price in the first quarter?") \
        is None
    # no "between": which way the percentage runs is not said
    assert ask(debt, "What is the percentage difference of fair value and carrying amount of "
                     "total debt in 2019?") is None


ADOPTION = [
    ["Accounts receivable, net", "$708", "$657", "$51"],
    ["Total assets", "$15,938", "$15,824", "$114"],
    ["Contract liabilities", "$2,320", "$2,437", "$(117)"],
    ["Retained earnings", "$933", "$686", "$247"],
]
ADOPTION_COLS = ["(In millions)", "As Reported", "Balances Without Adoption of New Standard",
                 "Effect of Change"]


@pytest.fixture(scope="module")
def adoption(tmp_path_factory: pytest.TempPathFactory):
    k = _kb(tmp_path_factory, ADOPTION, ADOPTION_COLS, "adoption")
    yield k
    k.close()


def test_percentage_increase_after_adoption(adoption) -> None:
    # "after adoption of new standard": As Reported against the balance without it
    r = ask(adoption, "What is the percentage increase in Total assets after adoption of new "
                      "standard?")
    assert r is not None and r.answer == 0.72 and r.scale == "percent"
    assert [o.value for o in r.derivations[0].operands] == [15824.0, 15938.0]
    r = ask(adoption, "What is the percentage increase in retained earnings after adoption of "
                      "the new standard?")
    assert r is not None and r.answer == 36.01
    # "after" something no column is without; no percentage asked; no line named
    assert ask(adoption, "What is the percentage increase in Total assets after the merger?") \
        is None
    assert ask(adoption, "What is the increase in Total assets after adoption of new "
                         "standard?") is None
    assert ask(adoption, "What is the percentage increase in goodwill after adoption of new "
                         "standard?") is None


def test_a_period_line_over_the_total_of_the_span(buybacks) -> None:
    con = buybacks.store.con
    r = pair.resolve("What was the total number of shares purchased in the first month as a "
                     "percentage of total shares purchased in the three month period?", con)
    assert r is not None and (r.answer, r.scale) == (15.53, "percent")
    # the span the question says is not the table's: which total?
    assert pair.resolve("What was the total number of shares purchased in the first month as "
                        "a percentage of total shares purchased in the six month period?",
                        con) is None
    # the average price of the span is no sum of the months': no share of it
    assert pair.resolve("What was the average price paid per share in the first month as a "
                        "percentage of the average price paid per share in the three month "
                        "period?", con) is None
