"""A report table's header block read as a person reads it (`ingest.layout`), through the CSV
reader a user's file takes: the rows above the first figures are the header; a label alone right
above the first figures heads the first rows' section; captions and units said of every column
are the table's, not one column's; group headings name the columns they tile."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.readers import read_path
from ingest.types import RawTable
from tests.grids import write_grid


@pytest.fixture()
def read(tmp_path: Path):
    def _read(grid: list[list[str]], prose: list[str] | None = None) -> RawTable:
        [t] = read_path(write_grid(tmp_path / "report.csv", grid, prose))
        return t
    return _read


def labels(t: RawTable) -> list[str]:
    return [r[0] or "" for r in t.rows]


def test_a_heading_above_the_first_amounts_is_a_body_row(read) -> None:
    t = read([["", "2019", "2018"], ["Current:", "", ""], ["Loans", "100", "90"],
              ["Non-current:", "", ""], ["Loans", "300", "200"]])
    assert t.header[1:] == ("2019", "2018")
    assert labels(t) == ["Current:", "Loans", "Non-current:", "Loans"]


def test_headings_above_the_first_amounts_are_body_rows(read) -> None:
    t = read([["", "2019", "2018"], ["Observable markets data", "", ""],
              ["Equity securities", "", ""], ["Canadian", "1,017", "844"]])
    assert labels(t) == ["Observable markets data", "Equity securities", "Canadian"]


def test_a_scale_caption_above_the_first_amounts_is_the_tables_scale(read) -> None:
    t = read([["", "2019", "2018"], ["(In thousands)", "", ""], ["Loans", "100", "90"]])
    assert labels(t) == ["Loans"] and t.title == "(in thousands)"
    t = read([["Year ended", "", ""], ["", "2019", "2018"], ["Loans", "100", "90"]])
    assert labels(t) == ["Loans"] and t.header[1:] == ("2019", "2018")


def test_a_caption_spanning_the_columns_is_no_part_of_their_names(read) -> None:
    t = read([["", "", "Years Ended September 30,", ""], ["", "2019", "2018", "2017"],
              ["Fixed Price", "$ 1,452.4", "$ 1,146.2", "$ 1,036.9"]])
    assert t.header[1:] == ("2019", "2018", "2017")
    t = read([["", "December 31", ""], ["", "2019", "2 0 1 8"],
              ["", "U.S. $ in thousands", ""], ["Operating loss carryforward", "73,260", "57,768"]])
    assert t.header[1] == "2019" and t.title == "(in thousands)" and len(t.rows) == 1


def test_group_headings_spread_over_the_columns_they_tile(read) -> None:
    t = read([["", "Financial assets", "", "Financial liabilities", ""],
              ["", "2019", "2018", "2019", "2018"],
              ["", "RMB'Million", "RMB'Million", "RMB'Million", "RMB'Million"],
              ["Additions", "39,116", "51,185", "75", "3,301"]])
    # each 2018 is its group's; the scale repeated over every column is the caption's
    assert t.header[1:] == ("Financial assets 2019", "Financial assets 2018",
                            "Financial liabilities 2019", "Financial liabilities 2018")
    assert t.title == "(in millions)"


def test_a_heading_centred_or_uneven_over_its_columns_is_not_spread(read) -> None:
    t = read([["", "", "Fiscal year", "", "% Change"],
              ["", "2019", "2018", "Actual", "Comp."], ["Orders", "12,749", "11,875", "7 %", "7 %"]])
    assert t.header[3] == "Actual"
    t = read([["", "F19", "F18", "", ""], ["$ MILLION", "53 WEEKS", "52 WEEKS", "CHANGE", "NORM"],
              ["Sales", "1,671", "1,612", "3.7%", "1.8%"]])
    assert t.header[3] == "CHANGE"


def test_a_header_block_repeated_per_period_heads_its_rows(read) -> None:
    # one table per period stacked: the repeated column headings are no line items, and each
    # block's spanning caption heads its rows, as the report prints it
    t = read([["", "", "As of December 31, 2019", ""], ["", "Amortized", "Unrealized", "Fair"],
              ["", "Cost", "Gains", "Value"], ["Bonds", "$129", "$—", "$126"],
              ["Total", "$229", "$—", "$223"],
              ["", "", "As of December 31, 2018", ""], ["", "Amortized", "Unrealized", "Fair"],
              ["", "Cost", "Gains", "Value"], ["Bonds", "$73", "$14", "$87"],
              ["Total", "$171", "$14", "$179"]])
    assert t.header[1:] == ("Amortized Cost", "Unrealized Gains", "Fair Value")
    assert labels(t) == ["As of December 31, 2019", "Bonds", "Total",
                         "As of December 31, 2018", "Bonds", "Total"]


def test_header_like_rows_that_do_not_repeat_the_header_stay(read) -> None:
    t = read([["", "2019", "2018"], ["Loans", "100", "90"], ["", "Current", ""],
              ["Cash", "5", "4"]])
    assert labels(t) == ["Loans", "", "Cash"]


def test_a_caption_naming_the_tables_one_year_is_its_title(read) -> None:
    t = read([["", "", "Common Stock Price Range 2018"], ["", "Low", "High"],
              ["First Quarter", "$ 5.99", "$ 8.40"]])
    assert t.header[1:] == ("Low", "High") and t.title == "Common Stock Price Range 2018"
    t = read([["", "", "Years ended"], ["", "2019", "2018"], ["Sales", "5", "4"]])
    assert t.title is None


def test_the_companion_prose_gives_the_scale_the_sheet_does_not_state(read) -> None:
    grid = [["", "2019", "2018"], ["Other assets", "5,687", "4,120"]]
    t = read(grid, ["Other assets consist of the following (in thousands):"])
    assert t.title == "(in thousands)"
    assert any("declared in the prose" in n and "report.txt" in n for n in t.notes)
    # two declarations that disagree: which one is the table's is not knowable
    t = read(grid, ["Amounts are in thousands.", "Segment figures (in millions)."])
    assert t.title is None
    # a scale the sheet states wins over the prose
    t = read([["", "2019", "2018"], ["", "(in millions)", ""], ["Other assets", "5,687", "4"]],
             ["Other assets consist of the following (in thousands):"])
    assert t.title == "(in millions)"


def test_bracketed_amounts_behind_a_currency_sign_are_figures(read) -> None:
    t = read([["", "Years Ended December 31,", ""], ["", "2018", "2017"],
              ["Interest expense", "$(2,085)", "$(3,343)"], ["Interest income", "1,826", "1,284"]])
    assert t.header[1:] == ("2018", "2017") and labels(t) == ["Interest expense",
                                                              "Interest income"]


def test_a_number_among_header_words_keeps_its_row_in_the_header(read) -> None:
    t = read([["", "", "Years Ended December 31,", "31,"], ["", "2019", "2018", "2017"],
              ["State", "$49", "$44", "$48"]])
    assert t.header[1] == "2019" and labels(t) == ["State"]


def test_footnoted_years_are_headings_not_figures(read) -> None:
    t = read([["(in millions)", "2019", "2018 (4)", "2017 (4)"],
              ["Total revenues", "$39,506", "$39,383", "$37,792"]])
    assert t.header[1:] == ("2019", "2018 (4)", "2017 (4)") and t.title == "(in millions)"


def test_rows_continued_after_a_blank_line_stay_in_the_table(read) -> None:
    t = read([["", "2019", "2018"], ["Deferred tax assets:", "", ""], ["Reserves", "245", "255"],
              ["", "", ""], ["Deferred tax liabilities:", "", ""], ["Intangibles", "—", "(552)"],
              ["", "", ""], ["Net assets sold", "$—", "$(21,329)"]])
    assert labels(t) == ["Deferred tax assets:", "Reserves", "Deferred tax liabilities:",
                         "Intangibles", "Net assets sold"]
    assert t.header[1:] == ("2019", "2018")


def test_tables_stacked_with_their_own_headings_are_two_tables(tmp_path: Path) -> None:
    grid = [["", "September 29,", "July 7,"], ["", "2019", "2019"],
            ["High", "$91.30", "$87.84"], ["Low", "$70.77", "$75.80"],
            ["", "September 30,", "July 8,"], ["", "2018", "2018"],
            ["High", "$93.98", "$92.46"], ["Low", "$81.87", "$79.23"]]
    first, second = read_path(write_grid(tmp_path / "prices.csv", grid))
    assert first.header[1:] == ("September 29, 2019", "July 7, 2019")
    assert second.header[1:] == ("September 30, 2018", "July 8, 2018")
    assert [r[0] for r in second.rows] == ["High", "Low"] and second.row_locs == (7, 8)


def test_the_companion_prose_scale_reaches_the_claims_through_kb_ingest(tmp_path: Path) -> None:
    import hyrag
    from hyrag.settings import Settings

    path = write_grid(tmp_path / "files" / "report.csv",
                      [["", "2019", "2018"], ["Other assets", "5,687", "4,120"]],
                      ["Other assets consist of the following (in thousands):"])
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        report = kb.ingest(path)
        scales = {r[0] for r in kb.store.con.execute(
            "SELECT scale FROM claims WHERE kind = 'cell' AND value_num IS NOT NULL").fetchall()}
    assert scales == {"thousand"}
    assert any("declared in the prose (report.txt)" in n for n in report.notes)
