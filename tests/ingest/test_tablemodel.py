"""The table model (`ingest.tablemodel`, persisted as `table_cells`): each cell of a user's file
carries its row path, column path, period, scale, unit and kind of row — one fixture per class
of structure that real report tables and spreadsheets have, each written here as a small file
and read through `kb.ingest(path)`."""

from __future__ import annotations

from pathlib import Path

import pytest

import hyrag
from hyrag import tablecells
from hyrag.settings import Settings
from ingest.labelperiods import period_key
from ingest.tablemodel import ModelCell, TableModel, row_magnitude


@pytest.fixture()
def model(tmp_path: Path):
    kb = hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False))

    def _model(name: str, text: str) -> TableModel:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        report = kb.ingest(path)
        m = tablecells.load(kb.store.con, report.tables[0])
        assert m is not None
        return m

    yield _model
    kb.close()


def at(m: TableModel, address: str) -> ModelCell:
    [c] = [c for c in m.cells if c.address == address]
    return c


def test_a_section_row_heads_the_rows_beneath(model) -> None:
    m = model("industries.csv", "Industry,Businesses at end of June,Employment at end of June\n"
              "Construction,,\n2006,\"1,066\",485\n2007,\"1,102\",501\n"
              "Manufacturing,,\n2006,820,\"1,210\"\n2007,835,\"1,190\"\n")
    c = at(m, "C3")
    assert (c.row_path, c.col_path, c.period, c.value) == (
        ("Construction",), ("Employment at end of June",), "2006", 485.0)
    assert at(m, "C6").row_path == ("Manufacturing",) and at(m, "C6").value == 1210.0
    assert at(m, "A2").row_kind == "heading" and c.row_kind == "data"
    assert m.cell(("Manufacturing",), ("Businesses at end of June",)) is None  # two years
    assert m.cell(("Construction",), ("Employment at end of June",)) is None


def test_a_year_closed_by_a_colon_heads_the_rows_it_dates(model) -> None:
    """"2019:" alone on its line over quarters' prices: a section heading whose period the
    rows beneath are read in (a bare year line stays a period line, not a heading)."""
    m = model("prices.csv", ",High,Low\n2019:,,\nFourth Quarter,$11.44,$9.47\n"
              "Third Quarter,$14.96,$10.26\n2018:,,\nFourth Quarter,$12.00,$9.00\n")
    c = at(m, "C6")
    assert (c.row_path, c.period, c.value) == (("2018:", "Fourth Quarter"), "2018", 9.0)
    assert at(m, "C3").period == "2019" and at(m, "A2").row_kind == "heading"


def test_nested_headings_stack_in_the_row_path(model) -> None:
    m = model("balance.csv", ",2019,2018\nAssets,,\nCurrent:,,\nCash,10,8\nReceivables,5,4\n"
              "Non-current:,,\nProperty,30,28\n")
    assert at(m, "B4").row_path == ("Assets", "Current:", "Cash")
    assert at(m, "B7").row_path == ("Assets", "Non-current:", "Property")
    assert at(m, "C7").period == "2018"


def test_every_header_row_is_a_level_of_the_column_path(model) -> None:
    m = model("starts.csv", ",United States,,,\n,Total,1 unit,2 to 4 units,5 units or more\n"
              "2019,1290,888,31,371\n2020,1380,912,38,430\n")
    c = at(m, "B4")
    assert c.col_path == ("United States", "Total") and c.value == 1380 and c.period == "2020"
    assert at(m, "E3").col_path == ("United States", "5 units or more")
    # the Total column keeps its values; the years are the rows' periods, not figures
    assert [c.value for c in m.cells if c.col_path[-1] == "Total"] == [1290, 1380]
    assert at(m, "A3").period == "2019"


def test_group_headings_are_levels_of_the_columns_they_span(model) -> None:
    m = model("rates.csv", ",Domestic,,International,\n,2019,2018,2019,2018\n"
              "Discount rate,4.00%,3.75%,1.90%,2.80%\n")
    c = at(m, "E3")
    assert c.col_path == ("International", "2018") and c.period == "2018"
    assert c.row_path == ("Discount rate",) and c.value == 2.8 and c.unit == "%"


def test_notes_above_a_table_are_its_title_not_its_header(model) -> None:
    m = model("starts_region.csv", "Table 4. Housing starts by region\n"
              "Seasonally adjusted annual rate; thousands of units\n"
              "Region,2019,2020\nNortheast,110,98\nSouth,640,701\n")
    c = at(m, "C5")
    assert c.col_path == ("2020",) and c.row_path == ("South",) and c.value == 701
    assert "Housing starts" in (m.title or "") and c.scale == "thousand"


def test_statistics_under_a_series_are_metadata_rows(model) -> None:
    m = model("cpi.csv", "Series,CPI\n2019-01,251.7\n2019-02,252.8\n2019-03,254.2\n"
              "No. Obs,282\nMean,240.1\n")
    obs = at(m, "B5")
    assert obs.row_kind == "metadata" and obs.period is None and obs.row_path == ("No. Obs",)
    assert at(m, "B4").row_kind == "data" and at(m, "B4").period == "2019-03"
    assert max(c.value for c in m.cells if c.row_kind == "data" and c.value) == 254.2


def test_text_columns_that_name_the_row_are_in_its_row_path(model) -> None:
    m = model("votes.csv", "Precinct,Candidate,Votes\nPrecinct 1,Alice Smith,412\n"
              "Precinct 1,Bob Jones,380\nPrecinct 2,Alice Smith,501\n")
    assert at(m, "C3").row_path == ("Precinct 1", "Bob Jones")
    assert m.cell(("Precinct 2", "Alice Smith"), ("Votes",)).value == 501


def test_a_scale_in_the_corner_cell_is_every_amounts(model) -> None:
    m = model("costs.csv", "(In thousands),2019,2018\nRevenue,\"1,200\",950\nCosts,(300),(280)\n")
    c = at(m, "B3")
    assert (c.value, c.scale, c.row_path, c.col_path) == (-300, "thousand", ("Costs",), ("2019",))
    assert at(m, "A2").scale == ""  # a label carries no scale


def test_a_period_in_the_corner_dates_the_grid_and_its_column_names_the_rows(model) -> None:
    # an ageing schedule "as at" a date: the corner states the date, the columns are buckets
    m = model("ageing.csv", "30 June 2019,Current,31 to 60 days past due,Total\n"
              "Gross carrying amount,\"23,762\",787,\"28,320\"\n"
              "Net receivables,\"23,524\",728,\"27,579\"\n")
    c = at(m, "B3")
    assert (c.value, c.row_path, c.col_path, c.period) == (23524, ("Net receivables",),
                                                          ("Current",), "2019-06-30")
    assert m.cell(("Gross carrying amount",), ("Total",)).value == 28320
    assert m.columns[0].period is None  # the labels' column holds no figures of that date


def test_a_column_of_nil_marks_holds_figures_and_names_no_row(model) -> None:
    # a fair-value hierarchy with nothing in level 1: its "—" are amounts of nothing
    m = model("fair_value.csv", "December 31 2019,Level 1,Level 2,Total\n"
              "Money market funds,$—,\"$2,010\",\"$2,010\"\n"
              "Commercial paper,—,\"44,300\",\"44,300\"\n")
    assert at(m, "C3").row_path == ("Commercial paper",)
    assert (at(m, "B3").text, at(m, "B3").value) == ("—", None)
    assert m.cell(("Money market funds",), ("Level 2",)).value == 2010


def test_a_period_over_figures_is_still_their_column_s_period(model) -> None:
    m = model("rates.csv", "Hedge,2019,2018\nInterest rate swap,1:1,1:1\nNotional,\"1,200\",950\n")
    assert at(m, "B3").col_path == ("2019",) and at(m, "B3").period == "2019"
    assert at(m, "B3").row_path == ("Notional",)


def test_a_period_header_with_its_unit_and_a_restatement_note_is_that_period(model) -> None:
    m = model("costs_eur.csv", "Expense,2019 €m,2018 €m Restated,2017 (in millions)\n"
              "Defined contribution schemes,166,178,192\n")
    assert [c.period for c in m.columns[1:]] == ["2019", "2018", "2017"]
    c = at(m, "C2")
    assert (c.value, c.scale, c.unit, c.period) == (178, "million", "EUR", "2018")


def test_an_unlabelled_line_adding_up_the_lines_above_is_a_total(model) -> None:
    m = model("tax.csv", ",2019,2018\nCurrent: Federal,\"1,139\",\"1,294\"\n"
              "Current: State,428,423\n,\"1,567\",\"1,717\"\nDeferred: Federal,34,(470)\n"
              "Deferred: State,6,(83)\n,40,(553)\n,\"1,607\",\"1,164\"\n"
              "Rounding,1,2\n,7,9\n")
    kinds = {r.row: r.kind for r in m.rows}
    # both subtotals, and the grand total of the two; an unlabelled line that adds up
    # nothing above it stays a line
    assert [kinds[r] for r in (4, 7, 8, 10)] == ["total", "total", "total", "data"]
    assert [kinds[r] for r in (2, 3, 5, 6, 9)] == ["data"] * 5


def test_a_net_line_after_a_deduction_is_a_total(model) -> None:
    m = model("ppe.csv", ",2019,2018\nLand,\"1,949\",\"2,185\"\nBuildings,\"138,755\",\"129,582\"\n"
              ",\"140,704\",\"131,767\"\nLess: Accumulated depreciation,\"36,389\",\"33,658\"\n"
              ",\"104,315\",\"98,109\"\n")
    assert [r.kind for r in m.rows] == ["data", "data", "total", "data", "total"]


def test_a_change_column_of_bracketed_percentages_and_nil_marks_holds_figures(model) -> None:
    m = model("segments.csv", "Segment,2019,2018,% Change\nGrocery,\"3,287\",\"3,301\",—%\n"
              "International,793,846,(6)%\nFoodservice,934,\"1,051\",(11)%\nRetail,620,600,3%\n")
    assert m.columns[3].role == "numeric"
    assert at(m, "D3").row_path == ("International",)
    assert (at(m, "D3").value, at(m, "D3").scale) == (-6.0, "percent")
    assert (at(m, "D2").text, at(m, "D2").value) == ("—%", None)


def test_a_balance_column_is_dated_by_the_day_its_header_names(model) -> None:
    m = model("reserve.csv", ",\"Balances, January 31, 2018\",Additions,Payments,"
              "\"Final as of January 31, 2019\"\nWarranty reserve,$12,4,(6),$10\n")
    assert [c.period for c in m.columns[1:]] == ["2018-01-31", None, None, "2019-01-31"]
    assert period_key("Notes due 2025") is None  # a maturity is no period of the figures


def test_a_column_with_a_unit_of_its_own_takes_no_title_scale(model) -> None:
    m = model("intangibles.csv", "(In millions),Useful life (in years),Fair value\n"
              "Purchased technology,4.2,$232\nTrademarks,5.0,25\n")
    assert (at(m, "B2").value, at(m, "B2").scale, at(m, "B2").unit) == (4.2, "", "years")
    assert (at(m, "C3").value, at(m, "C3").scale) == (25, "million")


def test_a_row_stating_its_own_measure_takes_no_title_scale(model) -> None:
    # "in millions, except per share amounts and percentages", as statements leave unsaid
    m = model("income.csv", "(In millions),2019,2018\nRevenue,\"1,200\",950\n"
              "Gross margin %,41.5,40.2\nEarnings per share,1.32,1.10\n"
              "\"Weighted average number of shares (shares, millions)\",,\n"
              "Basic earnings per share,412,405\n"
              "Per share data:,,\nDividends declared,0.40,0.36\n")
    assert (at(m, "B2").scale, at(m, "B3").scale, at(m, "B4").scale) == ("million", "percent", "")
    assert at(m, "B6").scale == "million"  # a heading's declared magnitude wins over the label
    assert at(m, "C8").scale == ""  # under a heading that states a per-share measure


def test_a_row_declaring_its_magnitude_states_its_figures_in_it(model) -> None:
    # no title, no units row: each line says what its figures are in
    m = model("eggs.csv", "Fiscal Year ended,\"June 1, 2019\",\"June 2, 2018\"\n"
              "Net income (loss) - (in thousands),\"$54,229\",\"$125,932\"\n"
              "Gross profit (in thousands),\"222,859\",\"361,046\"\n"
              "Net average selling price (rounded),1.27,1.40\n"
              "Dozens sold (in millions),\"1,231.7\",\"1,094.5\"\n"
              "Margin (% of sales),12.5,13.1\n"
              "Headline revenue,$4.4 billion,$4.1 billion\n")
    assert [at(m, a).scale for a in ("B2", "C3", "B4", "B5", "B7")] == [
        "thousand", "thousand", "", "million", "billion"]
    assert at(m, "B6").scale not in ("thousand", "million", "billion")  # a share, no magnitude


def test_only_a_bracket_that_names_a_magnitude_declares_one() -> None:
    # a list's names beside the label carry brackets that are no magnitude
    assert row_magnitude(["Runner-up", "Kremlin Cup, Moscow, Russia", "Hard (i)"]) == ""
    assert row_magnitude(["Net income (loss) - (in thousands)"]) == "thousand"
    assert row_magnitude(["Sales (€m)"]) == "million"
    assert row_magnitude(["Revenue in millions"]) == ""  # unbracketed: not read


def test_a_heading_declaring_a_magnitude_states_the_lines_beneath_in_it(model) -> None:
    m = model("shares.csv", ",2019,2018\nShares used in computing (in millions):,,\n"
              "Basic,412,405\nDiluted,418,409\nNet income,\"1,200\",950\n")
    assert (at(m, "B3").scale, at(m, "C4").scale) == ("million", "million")


def test_a_cells_claim_states_the_scale_its_model_cell_reads(tmp_path: Path) -> None:
    """"(in thousands, except per share data)": the claim a user's SQL or a direct lookup
    reads for "Earnings per share" states 2.40, not 2,400 thousand, as its model cell does;
    the amounts keep the title's magnitude."""
    path = tmp_path / "results.csv"
    path.write_text("Selected results (in thousands except per share data),2019,2018\n"
                    "Net sales,\"1,200\",\"1,000\"\nEarnings per share,2.40,2.08\n",
                    encoding="utf-8")
    with hyrag.open(tmp_path / "kb", settings=Settings(answer_use_search=False)) as kb:
        report = kb.ingest(path)
        m = tablecells.load(kb.store.con, report.tables[0])
        assert m is not None
        claims = dict(((cell, (scale or "", base)) for cell, scale, base in kb.store.con.execute(
            "SELECT cell, scale, value_base FROM claims WHERE kind = 'cell' AND NOT superseded "
            "AND cell IN ('B2', 'B3')").fetchall()))
        assert (at(m, "B2").scale, at(m, "B3").scale) == ("thousand", "")
        assert claims["B2"] == ("thousand", pytest.approx(1_200_000.0))
        assert claims["B3"] == ("", pytest.approx(2.40))


def test_a_share_line_beneath_a_line_is_named_by_it(model) -> None:
    m = model("revenue.csv", "(In millions),2019,2018\nRevenue:,,\n"
              "Product,\"$39,005\",\"$36,709\"\n"
              "Percentage of revenue,75.1%,74.4%\nService,\"12,899\",\"12,621\"\n"
              "Percentage of revenue,24.9%,25.6%\n")
    assert at(m, "B4").row_path == ("Revenue:", "Product", "Percentage of revenue")
    assert at(m, "C6").row_path == ("Revenue:", "Service", "Percentage of revenue")
    assert (at(m, "B4").value, at(m, "B4").scale) == (75.1, "percent")
    assert at(m, "B5").row_path == ("Revenue:", "Service")


def test_a_first_figure_in_percent_marks_its_column(model) -> None:
    # a common-size statement sets "%" on its first line only, as statements set "$"
    m = model("common.csv", ",2019,2018\nSales,100.0 %,100.0 %\nGross profit,40.0,50.9\n"
              "Operating expenses,33.1,27.0\n")
    assert (at(m, "C3").value, at(m, "C3").scale) == (50.9, "percent")
    # a rate on the first line over amounts is no column of percentages
    m = model("mixed.csv", ",2019,2018\nTax rate,21%,21%\nRevenue,\"1,200\",950\n"
              "Costs,300,280\n")
    assert at(m, "B3").scale == ""


def test_a_total_line_is_a_total_row(model) -> None:
    m = model("sales.csv", ",2019\nNorth,10\nSouth,12\nTotal,22\n")
    assert at(m, "B4").row_kind == "total" and at(m, "B2").row_kind == "data"


def test_lower_case_labels_and_a_first_column_of_numbers(model) -> None:
    m = model("tenk.csv", "item,2019,2018\nnet revenue,$ 5735,$ 5100\nother income,( 32 ),14\n")
    assert at(m, "B2").row_path == ("net revenue",) and at(m, "B2").value == 5735
    m = model("codes.csv", "code,amount\n101,\"1,500\"\n102,\"2,250\"\n")
    assert len([c for c in m.cells if c.col_path == ("amount",)]) == 2  # no row lost to a header


def test_a_year_across_two_calendar_years_stays_in_the_row_path(model) -> None:
    m = model("industries_fy.csv", "Industry,Employment at end of June\nConstruction,\n"
              "2006–07,485\n2007–08,501\n")
    c = at(m, "B3")
    assert (c.row_path, c.period, c.value) == (("Construction", "2006–07"), None, 485.0)
