"""Cell claims named by the table model (`ingest.modelclaims`), through `kb.ingest(path)`: a
column's attribute carries the captions over it, a row's entity the section headings over it,
a row's period its date heading; a series' statistics ("No. Obs", "Mean") are no periods of
it and no values of its measure in the SQL table; a maturity schedule keeps its lines."""

from __future__ import annotations

from pathlib import Path

from hyrag import tablecells
from hyrag.store import content_id
from ingest.modelclaims import column_name, own_column, own_name
from ingest.sections import is_statistic_label
from tests.ingest.conftest import cell_claims as claims


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_spanning_caption_is_a_level_of_every_columns_attribute(kb, tmp_path: Path) -> None:
    p = write(tmp_path, "completions.csv", ",Northeast,,\n,All units,Single,Multi\n"
              "2021,410,250,160\n2022,395,240,155\n")
    kb.ingest(p)
    c = claims(kb, "completions.csv")
    assert c["B4"][1:] == ("Northeast, All units", "2022", 395.0)
    assert c["D3"][1:] == ("Northeast, Multi", "2021", 160.0)
    # the id is the content hash of the locator, which names the file's own header: renaming
    # the attribute moved no id
    sha, loc = kb.store.con.execute(
        "SELECT s.sha256, c.locator FROM claims c JOIN sources s USING (source_id) "
        "WHERE c.cell = 'B4'").fetchone()
    assert '"column":"All units"' in loc
    cid = kb.store.con.execute("SELECT claim_id FROM claims WHERE cell = 'B4'").fetchone()[0]
    assert cid == content_id(sha, "cell", loc)


def test_a_section_over_rows_names_them_with_their_own_label(kb, tmp_path: Path) -> None:
    p = write(tmp_path, "jobs.csv", "Industry,Businesses at end of June,Employment at end of June\n"
              "Construction,,\n2006–07,\"1,066\",485\n2007–08,\"1,102\",501\n"
              "Mining,,\n2006–07,120,\"1,310\"\n")
    kb.ingest(p)
    c = claims(kb, "jobs.csv")
    # "2006–07" spans two calendar years: no period key, so it stays in the row's name
    assert c["C3"] == ("Construction, 2006–07", "Employment at end of June", None, 485.0)
    assert c["C6"] == ("Mining, 2006–07", "Employment at end of June", None, 1310.0)
    assert "A3" not in {k for k, v in c.items() if v[0] == "Construction, 2006–07"
                        and v[3] is not None}


def test_a_section_over_year_rows_names_the_series_they_date(kb, tmp_path: Path) -> None:
    p = write(tmp_path, "firms.csv", "Industry,Employment at end of June\nConstruction,\n"
              "2006,485\n2007,501\nMining,\n2006,\"1,310\"\n")
    kb.ingest(p)
    c = claims(kb, "firms.csv")
    assert c["B3"] == ("Construction", "Employment at end of June", "2006", 485.0)
    assert c["B6"] == ("Mining", "Employment at end of June", "2006", 1310.0)


def test_a_date_heading_is_no_part_of_the_rows_name(kb, tmp_path: Path) -> None:
    p = write(tmp_path, "exposure.csv", ",USD denominated,Other currencies\n"
              "As at 31 December 2019,,\nMonetary assets,\"27,728\",\"2,899\"\n"
              "Monetary liabilities,(91),\"(5,739)\"\n"
              "As at 31 December 2018,,\nMonetary assets,\"18,041\",\"1,994\"\n"
              "Monetary liabilities,\"(3,733)\",\"(9,430)\"\n")
    kb.ingest(p)
    c = claims(kb, "exposure.csv")
    # the heading says when: it stays the row's section (the readers date by it) and the
    # model's period, and names nothing
    assert c["B3"] == ("Monetary assets", "USD denominated", None, 27728.0)
    assert c["C7"] == ("Monetary liabilities", "Other currencies", None, -9430.0)
    [table] = kb.store.con.execute(
        "SELECT table_name FROM claims WHERE file = 'exposure.csv' LIMIT 1").fetchone()
    m = tablecells.load(kb.store.con, table)
    assert {r.row: r.period for r in m.rows}[7] == "2018-12-31"


def test_nested_headings_name_the_row_outermost_first(kb, tmp_path: Path) -> None:
    p = write(tmp_path, "position.csv", "Item,Amount\nAssets,\nCurrent:,\nCash,10\n"
              "Receivables,5\nNon-current:,\nProperty,30\n")
    kb.ingest(p)
    c = claims(kb, "position.csv")
    assert c["B4"][:2] == ("Assets, Current, Cash", "Amount")
    assert c["B7"][:2] == ("Assets, Non-current, Property", "Amount")
    # a question may name the line by its own label
    a = kb.ask("What was the Amount of Property?")
    assert a.decision == "answer" and [float(v) for v in a.values] == [30.0]


def test_statistics_under_a_series_are_not_its_periods_nor_its_values(kb,
                                                                       tmp_path: Path) -> None:
    p = write(tmp_path, "prices.csv", "Series,CPI\n2019-01,251.7\n2019-02,252.8\n"
              "2019-03,254.2\nNo. Obs,282\nMean,252.9\n")
    report = kb.ingest(p)
    c = claims(kb, "prices.csv")
    assert c["B4"][2:] == ("2019-03", 254.2)
    assert c["B5"] == ("No. Obs", "CPI", None, 282.0)  # a claim of its own, dated by no period
    assert c["B6"] == ("Mean", "CPI", None, 252.9)
    m = tablecells.load(kb.store.con, report.tables[0])
    assert [r.kind for r in m.rows][-2:] == ["metadata", "metadata"]
    # the SQL table holds the months only
    [table] = report.tables
    assert kb.store.con.execute(f'SELECT count(*), max(cpi) FROM "{table}"').fetchone() == (
        3, 254.2)
    assert any("kept out of the SQL table" in n and "No. Obs" in n for n in report.notes)
    a = kb.ask("What was the highest CPI?")
    assert a.decision == "answer" and [float(v) for v in a.values] == [254.2]
    b = kb.ask("What was the CPI in 2019-03?")
    assert b.decision == "answer" and [float(v) for v in b.values] == [254.2]
    o = kb.ask("What was the No. Obs of the CPI?")
    assert o.decision == "answer" and [float(v) for v in o.values] == [282.0]


def test_a_maturity_schedule_keeps_its_lines(kb, tmp_path: Path) -> None:
    p = write(tmp_path, "leases.csv", "Year,Operating leases,Finance leases\n2020,100,50\n"
              "2021,90,45\n2022,80,40\nThereafter,300,500\nTotal lease payments,570,635\n"
              "Less: interest,(70),(50)\nPresent value,500,585\n")
    report = kb.ingest(p)
    c = claims(kb, "leases.csv")
    # the years are due dates of line items, not periods of a series: the lines stay as read
    assert c["B5"] == ("Thereafter", "Operating leases", None, 300.0)
    assert c["C7"] == ("Less: interest", "Finance leases", None, -50.0)
    assert c["B2"] == ("2020", "Operating leases", None, 100.0)
    m = tablecells.load(kb.store.con, report.tables[0])
    kinds = {r.path[-1] if r.path else r.period: r.kind for r in m.rows}
    assert kinds["Thereafter"] == kinds["Less: interest"] == kinds["Present value"] == "data"
    [table] = report.tables
    assert kb.store.con.execute(f'SELECT count(*) FROM "{table}"').fetchone() == (7,)


def test_statistic_labels_are_names_of_statistics_only() -> None:
    for label in ("No. Obs", "Mean", "Std. Dev.", "Median", "N", "25th percentile", "Minimum"):
        assert is_statistic_label(label), label
    for label in ("Thereafter", "Less: interest", "Present value", "Total", "Mean Street",
                  "Revenue"):
        assert not is_statistic_label(label), label


def test_names_and_their_own_labels() -> None:
    assert column_name("Total", ("United States", "Total")) == "United States, Total"
    assert column_name("North Votes", ("North", "Votes")) == "North Votes"  # shown already
    assert column_name("Ground Leases", ("Number of Restaurants", "Ground", "Leases")) == \
        "Number of Restaurants, Ground Leases"
    assert own_column("United States, Total", "Total") == "Total"
    assert own_column("Accounts receivable, net", "2019") == "Accounts receivable, net"
    assert own_name("Assets, Current, Cash", "Current:") == "Cash"
    assert own_name("Construction", "Construction") == "Construction"
    assert own_name("Accounts receivable, net", "") == "Accounts receivable, net"
