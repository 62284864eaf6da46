"""Column groups: a heading over several period columns ("Financial assets" over 2019 | 2018,
"Financial liabilities" over 2019 | 2018), or measure columns repeated under one period
heading per period ("USD denominated | Non-USD denominated" under "As at 31 December 2019").
A question naming a group reads only that group's columns; one naming none abstains where the
groups leave the figure open; the group's words explain the question's."""

from __future__ import annotations

import pytest

from tests.answer.conftest import ask_with_table_answer, statement_kb


def _says(a, figure: str) -> bool:
    return a.decision == "answer" and figure in a.text


GROUPED = [["Opening balance", "", "77,131", "", "2,154"],
           ["Additions", "39,116", "51,185", "75", "3,301"],
           ["Closing balance", "123,093", "83,934", "1,873", "4,466"]]
GROUPED_COLS = ("item", "Financial assets 2019", "Financial assets 2018",
                "Financial liabilities 2019", "Financial liabilities 2018")


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, GROUPED, "(in millions)", "grouped", GROUPED_COLS)
    yield k
    k.close()


def test_a_named_group_reads_its_own_columns(grouped) -> None:
    a, _ = ask_with_table_answer(grouped, "What is the 2018 opening balance of financial "
                                          "liabilities?")
    assert _says(a, "2,154"), a.text
    a, _ = ask_with_table_answer(grouped, "What is the 2018 opening balance of financial assets?")
    assert _says(a, "77,131"), a.text


def test_a_change_asked_without_a_rate_is_the_amount_moved(grouped) -> None:
    # the engine's own path would compute a growth rate for "the change": not what is asked
    a, _ = ask_with_table_answer(grouped, "How much is the change in additions of financial "
                                          "assets from 2018 to 2019?")
    assert _says(a, "-12,069") or _says(a, "-12069"), a.text
    assert "%" not in a.text


def test_no_group_named_over_two_groups_abstains(grouped) -> None:
    a, _ = ask_with_table_answer(grouped, "What were the additions in 2019?")
    assert a.decision != "answer" or not any(v in a.text for v in ("39,116", "75 ")), a.text


SECTIONED = [["As at 31 December 2019", "", ""],
             ["Monetary assets, current", "27,728", "2,899"],
             ["Monetary assets, non-current", "373", ""],
             ["Monetary liabilities, current", "(4,273)", "(14,732)"],
             ["Monetary liabilities, non-current", "(91)", "(5,739)"],
             ["As at 31 December 2018", "", ""],
             ["Monetary assets, current", "18,041", "1,994"],
             ["Monetary assets, non-current", "2,642", ""],
             ["Monetary liabilities, current", "(3,434)", "(4,587)"],
             ["Monetary liabilities, non-current", "(3,733)", "(9,430)"]]
SECTIONED_COLS = ("item", "USD denominated", "Non-USD denominated")


@pytest.fixture(scope="module")
def sectioned(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, SECTIONED, "(in millions)", "sectioned", SECTIONED_COLS)
    yield k
    k.close()


def test_a_period_heading_gives_its_rows_that_period(sectioned) -> None:
    a, _ = ask_with_table_answer(sectioned, "What was the amount of USD denominated current "
                                            "monetary assets as at 31 December 2018?")
    assert _says(a, "18,041") and "1,994" not in a.text, a.text


def test_the_group_named_most_fully_is_the_one_read(sectioned) -> None:
    a, _ = ask_with_table_answer(sectioned, "What was the amount of non-USD denominated "
                                            "current monetary assets as at 31 December 2019?")
    assert _says(a, "2,899") and "27,728" not in a.text, a.text


def test_one_word_for_a_group_and_a_line_is_not_read_twice(sectioned) -> None:
    # "non" names the non-USD column or the non-current line, not both; and the non-current
    # line has no non-USD figure: its USD 373 is no answer
    a, _ = ask_with_table_answer(sectioned, "What was the amount of non-USD denominated "
                                            "monetary assets non-current as at 31 December 2019?")
    assert a.decision != "answer" or "373" not in a.text, a.text


def test_a_total_over_lines_named_in_part_is_not_one_part(sectioned) -> None:
    # the current line alone is no total; its current and non-current parts added up are
    # (`tableqa_parts`)
    a, _ = ask_with_table_answer(sectioned, "What was the total USD denominated monetary assets "
                                            "as at 31 December 2019?")
    assert a.decision != "answer" or "28,101" in a.text, a.text


SHARES = [["Cost of revenue:", "", "", "", ""],
          ["License", "64,798", "9%", "35,452", "5%"],
          ["Services", "259,552", "36%", "261,331", "40%"],
          ["Total cost of revenue", "324,350", "45%", "296,783", "45%"]]
SHARES_COLS = ("item", "2019 Amount", "2019 % of total revenue", "2018 Amount",
               "2018 % of total revenue")


@pytest.fixture(scope="module")
def shares(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, SHARES, "(in thousands)", "shares", SHARES_COLS)
    yield k
    k.close()


def test_a_share_column_is_not_named_by_the_lines_words(shares) -> None:
    a, _ = ask_with_table_answer(shares, "What is the average total cost of revenue for 2018 "
                                         "and 2019?")
    assert _says(a, "310,566.5"), a.text


def test_a_column_named_on_its_own_keeps_its_values(shares) -> None:
    # "Amount" under 2018 is its own column, not part of the "% of total revenue" to its left
    a, _ = ask_with_table_answer(shares, "What was the License revenue in 2019 and 2018 "
                                         "respectively?")
    assert _says(a, "64,798") and _says(a, "35,452") and "9%" not in a.text, a.text


PCT_OF = [["OEM", "70%", "65%", "66%"], ["Distribution", "30", "35", "34"],
          ["Total", "100%", "100%", "100%"]]
PCT_COLS = ("item", "Year Ended December 31, 2019 (As percentage of net revenues)",
            "Year Ended December 31, 2018 (As percentage of net revenues)",
            "Year Ended December 31, 2017 (As percentage of net revenues)")


def test_words_the_column_headers_quote_are_no_operation(tmp_path_factory) -> None:
    k = statement_kb(tmp_path_factory, PCT_OF, None, "pctof", PCT_COLS)
    try:
        a, _ = ask_with_table_answer(k, "What is the average percentage of net revenues of OEM?")
        assert _says(a, "67"), a.text
    finally:
        k.close()


RATES = [["Discount rate", "4.00%", "3.75%", "1.90%", "2.80%"]]
RATES_COLS = ("item", "Domestic September 30, 2019", "Domestic September 30, 2018",
              "International September 30, 2019", "International September 30, 2018")


def test_one_rate_is_no_difference_of_two(tmp_path_factory) -> None:
    k = statement_kb(tmp_path_factory, RATES, None, "rates", RATES_COLS)
    try:
        a, _ = ask_with_table_answer(k, "What is the difference between the domestic and "
                                        "international discount rates as at September 30, 2019?")
        assert a.decision != "answer" or "2.1" in a.text, a.text
        a, _ = ask_with_table_answer(k, "What is the year on year percentage change in domestic "
                                        "discount rate between 2018 and 2019?")
        assert _says(a, "6.67"), a.text
    finally:
        k.close()


VALUATIONS = [["Year ended 30 June 2019", "", ""], ["Leasehold", "23%", "77%"],
              ["Freehold", "38%", "62%"], ["Year ended 30 June 2018", "", ""],
              ["Leasehold", "60%", "40%"], ["Freehold", "27%", "73%"]]
VALUATIONS_COLS = ("item", "External valuation %", "Internal valuation %")


def test_lines_repeated_under_period_headings_are_read_per_period(tmp_path_factory) -> None:
    # the parser sees "Leasehold, external valuation" twice (23% and 60%) and no period: the
    # line-item reader reads each under its heading's year
    k = statement_kb(tmp_path_factory, VALUATIONS, None, "valuations", VALUATIONS_COLS)
    try:
        a, _ = ask_with_table_answer(k, "What was the change in the leasehold external "
                                        "valuation % from 2018 to 2019?")
        assert _says(a, "-37"), a.text
        a, _ = ask_with_table_answer(k, "What is the average freehold internal valuation for "
                                        "2018 and 2019?")
        assert _says(a, "67.5"), a.text
    finally:
        k.close()


QUARTERS = [["Fiscal 2019", "", "", "", "", ""],
            ["Revenues", "94,888", "96,037", "88,495", "84,380", "363,800"],
            ["Gross margin", "40.1%", "41.5%", "41.1%", "39.7%", "40.6%"],
            ["Fiscal 2018", "", "", "", "", ""],
            ["Revenues", "88,081", "89,767", "93,669", "94,395", "365,912"],
            ["Gross margin", "42.5%", "41.0%", "40.8%", "40.7%", "41.2%"]]
QUARTERS_COLS = ("item", "First Quarter", "Second Quarter", "Third Quarter", "Fourth Quarter",
                 "Total")


def test_quarter_columns_under_a_fiscal_year_heading_are_its_quarters(tmp_path_factory) -> None:
    # "Second Quarter" under "Fiscal 2019" is 2019's second quarter, not 2018's
    k = statement_kb(tmp_path_factory, QUARTERS, "(in thousands)", "quarters", QUARTERS_COLS)
    try:
        a, _ = ask_with_table_answer(k, "What was the gross margin in the fiscal 2019 second "
                                        "quarter?")
        assert _says(a, "41.5%") and "41.0%" not in a.text, a.text
        a, _ = ask_with_table_answer(k, "What was the revenue in the fiscal 2018 third "
                                        "quarter?")
        assert _says(a, "93,669") and "88,495" not in a.text, a.text
    finally:
        k.close()


def test_period_headings_and_quarter_headers() -> None:
    from hyrag.answer.readers.tableqa_periods import quarter
    from hyrag.answer.readers.tableqa_rows import _section_year

    assert [_section_year(h) for h in ("Fiscal 2019", "FY2018", "As of December 31, 2019",
                                       "Sales 2019", "Fiscal 2017 Restructuring Plan")] == [
        "2019", "2018", "2019", "", ""]
    assert [quarter(h) for h in ("Second Quarter", "Q4", "4th quarter", "Total", "Quarter")] \
        == [2, 4, 4, 0, 0]


HOLDINGS = [["As of December 31, 2019", "", ""], ["Foreign bonds", "129,499", "0"],
            ["US bonds", "99,700", "0"], ["Total .", "229,199", "0"],
            ["As of December 31, 2018", "", ""], ["Foreign bonds", "73,798", "14,234"],
            ["US bonds", "97,223", "416"], ["Total", "171,021", "14,650"]]
HOLDINGS_COLS = ("item", "Amortized Cost", "Unrealized Gains")


def test_a_share_of_the_total_line_under_a_period_heading(tmp_path_factory) -> None:
    # "Total ." and "Total" are one line quoted (the same words), not a third line item
    k = statement_kb(tmp_path_factory, HOLDINGS, "(in thousands)", "holdings", HOLDINGS_COLS)
    try:
        a, ta = ask_with_table_answer(k, "What percentage of the total amortized cost is made "
                                         "up of foreign bonds in 2018?")
        assert a.decision == "answer" and ta and ta["value"] == 43.15, a.text
    finally:
        k.close()


PRICES = [["First Quarter", "$ 5.99", "$ 8.40"], ["Second Quarter", "$ 4.79", "$ 6.48"],
          ["Third Quarter", "$ 2.66", "$ 4.63"], ["Fourth Quarter", "$ 1.88", "$ 3.39"]]


def test_a_title_year_dates_a_table_of_quarter_rows(tmp_path_factory) -> None:
    # "Stock Price Range 2018" over quarter rows: the rows are 2018's quarters
    k = statement_kb(tmp_path_factory, PRICES, "Stock Price Range 2018", "prices",
                     ("item", "Low", "High"))
    try:
        a, ta = ask_with_table_answer(k, "What is the average quarterly low price in 2018?")
        assert a.decision == "answer" and ta and ta["value"] == 3.83, a.text
        a, ta = ask_with_table_answer(k, "In 2018, how many quarters had prices lower than "
                                         "$2.00 during their lows?")
        assert a.decision == "answer" and ta and ta["value"] == 1, a.text
        a, _ = ask_with_table_answer(k, "What is the average quarterly low price in 2017?")
        assert a.decision != "answer" or "3.83" not in a.text, a.text
    finally:
        k.close()


def test_the_year_a_title_ends_with_dates_its_table() -> None:
    from hyrag.answer.readers.tableqa_periods import year_quarters
    from hyrag.answer.readers.tableqa_rows import title_year

    assert [title_year(t) for t in ("Stock Price Range 2018", "As of March 29, 2019 (in "
                                     "millions)", "Fiscal 2017 Restructuring Plan",
                                     "Sales 2018/19", "(in millions)")] == [
        "2018", "2019", "", "", ""]
    quarters = {f"2018Q{q}": [] for q in range(1, 5)}
    assert year_quarters("the average quarterly low in 2018", quarters) == list(quarters)
    assert year_quarters("the low in 2018", quarters) == []
    assert year_quarters("the average quarterly low in 2018", {"2018Q1": []}) == []
