"""The TAT-QA loader's table as a DataFrame: the leading rows without an amount are the column
headings, except a label alone right above the first amounts ("Current:"), which heads the
first rows' section and stays a body row (as it would in a user's sheet)."""

from __future__ import annotations

from hyrag.bench.tatqa import table_frame


def test_a_heading_above_the_first_amounts_is_a_body_row() -> None:
    grid = [["", "2019", "2018"], ["Current:", "", ""], ["Loans", "100", "90"],
            ["Non-current:", "", ""], ["Loans", "300", "200"]]
    f = table_frame(grid)
    assert list(f.columns) == ["item", "2019", "2018"]
    assert list(f.iloc[:, 0]) == ["Current:", "Loans", "Non-current:", "Loans"]


def test_headings_above_the_first_amounts_are_body_rows() -> None:
    grid = [["", "2019", "2018"], ["Observable markets data", "", ""],
            ["Equity securities", "", ""], ["Canadian", "1,017", "844"]]
    f = table_frame(grid)
    assert list(f.iloc[:, 0]) == ["Observable markets data", "Equity securities", "Canadian"]


def test_a_caption_above_the_first_amounts_stays_a_heading() -> None:
    grid = [["", "2019", "2018"], ["(In thousands)", "", ""], ["Loans", "100", "90"]]
    f = table_frame(grid)
    assert list(f.iloc[:, 0]) == ["Loans"]
    assert f.attrs["title"] == "(in thousands)"
    grid = [["Year ended", "", ""], ["", "2019", "2018"], ["Loans", "100", "90"]]
    assert list(table_frame(grid).iloc[:, 0]) == ["Loans"]


def test_group_headings_spread_over_the_columns_they_tile() -> None:
    grid = [["", "Financial assets", "", "Financial liabilities", ""],
            ["", "2019", "2018", "2019", "2018"],
            ["", "RMB'Million", "RMB'Million", "RMB'Million", "RMB'Million"],
            ["Additions", "39,116", "51,185", "75", "3,301"]]
    f = table_frame(grid)
    # each 2018 is its group's; the scale repeated over every column is the caption's
    assert list(f.columns) == ["item", "Financial assets 2019", "Financial assets 2018",
                               "Financial liabilities 2019", "Financial liabilities 2018"]
    assert f.attrs["title"] == "(in millions)"


def test_a_heading_centred_or_uneven_over_its_columns_is_not_spread() -> None:
    grid = [["", "", "Fiscal year", "", "% Change"],
            ["", "2019", "2018", "Actual", "Comp."], ["Orders", "12,749", "11,875", "7 %", "7 %"]]
    assert list(table_frame(grid).columns)[3] == "Actual"
    grid = [["", "F19", "F18", "", ""], ["$ MILLION", "53 WEEKS", "52 WEEKS", "CHANGE", "NORM"],
            ["Sales", "1,671", "1,612", "3.7%", "1.8%"]]
    assert list(table_frame(grid).columns)[3] == "CHANGE"


def test_a_header_block_repeated_per_period_heads_its_rows() -> None:
    # one table per period stacked: the repeated column headings are no line items, and each
    # block's spanning caption heads its rows, as the report prints it
    grid = [["", "", "As of December 31, 2019", ""], ["", "Amortized", "Unrealized", "Fair"],
            ["", "Cost", "Gains", "Value"], ["Bonds", "$129", "$—", "$126"],
            ["Total", "$229", "$—", "$223"],
            ["", "", "As of December 31, 2018", ""], ["", "Amortized", "Unrealized", "Fair"],
            ["", "Cost", "Gains", "Value"], ["Bonds", "$73", "$14", "$87"],
            ["Total", "$171", "$14", "$179"]]
    f = table_frame(grid)
    assert list(f.columns) == ["item", "Amortized Cost", "Unrealized Gains", "Fair Value"]
    assert list(f.iloc[:, 0]) == ["As of December 31, 2019", "Bonds", "Total",
                                  "As of December 31, 2018", "Bonds", "Total"]


def test_blocks_with_their_own_column_dates_sit_side_by_side() -> None:
    grid = [["", "September 29,", "July 7,"], ["", "2019", "2019"],
            ["High", "$91.30", "$87.84"], ["Low", "$70.77", "$75.80"],
            ["", "September 30,", "July 8,"], ["", "2018", "2018"],
            ["High", "$93.98", "$92.46"], ["Low", "$81.87", "$79.23"]]
    f = table_frame(grid)
    assert list(f.columns) == ["item", "September 29, 2019", "July 7, 2019",
                               "September 30, 2018", "July 8, 2018"]
    assert [list(r) for r in f.itertuples(index=False)] == [
        ["High", "$91.30", "$87.84", "$93.98", "$92.46"],
        ["Low", "$70.77", "$75.80", "$81.87", "$79.23"]]


def test_header_like_rows_that_do_not_repeat_the_header_stay() -> None:
    grid = [["", "2019", "2018"], ["Loans", "100", "90"], ["", "Current", ""],
            ["Cash", "5", "4"]]
    assert list(table_frame(grid).iloc[:, 0]) == ["Loans", "", "Cash"]


def test_a_caption_naming_the_tables_one_year_is_its_title() -> None:
    grid = [["", "", "Common Stock Price Range 2018"], ["", "Low", "High"],
            ["First Quarter", "$ 5.99", "$ 8.40"]]
    f = table_frame(grid)
    assert list(f.columns) == ["item", "Low", "High"]
    assert f.attrs["title"] == "Common Stock Price Range 2018"
    grid = [["", "", "Years ended"], ["", "2019", "2018"], ["Sales", "5", "4"]]
    assert "title" not in table_frame(grid).attrs
