"""Nothing a file holds is lost without a word: every cell either becomes a claim or the
IngestReport, `kb_tables.notes` and `hyrag ingest` say what was not read and where."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import hyrag
from hyrag.cli import main
from hyrag.errors import IngestFailed

DOCS = Path(__file__).resolve().parents[2] / "sample_data" / "docs"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_period_table_with_no_figures_beside_a_table_ingests(tmp_path):
    """A header of periods with no body (the rows went elsewhere) above a second table once
    failed the whole file: its melted table had no rows, a staging column typed DOUBLE, and
    the claim SQL's COALESCE refused to mix it with text."""
    p = _write(tmp_path, "selected.csv",
               "Selected data,2019,2018\n\n\nSegment,Sales\nNorth,100\nSouth,200\n")
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(p)
        assert report.status == "ingested"
        got = kb.store.con.execute(
            "SELECT entity, value_num FROM claims WHERE kind = 'cell' ORDER BY entity"
        ).fetchall()
    assert got == [("North", 100.0), ("South", 200.0)]


def test_a_period_table_whose_figures_are_all_blank_ingests_with_a_note(tmp_path):
    p = _write(tmp_path, "blank.csv", "Line item,2019,2018\nRevenue,,\nCosts,,\n")
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(p)
        notes = _table_notes(kb, "blank")
    assert report.claims == 0
    want = "table 'blank': rows 2-3 yield no claims"
    assert any(want in n for n in report.notes) and want in notes


def _table_notes(kb, table: str) -> str:
    row = kb.store.con.execute(
        "SELECT notes FROM kb_tables WHERE table_name = ?", [table]).fetchone()
    assert row is not None, table
    return row[0] or ""


def _make_docs():
    """The sample-document PDF writer (sample_data/docs/make_docs.py), imported by path."""
    if "make_docs" not in sys.modules:
        spec = importlib.util.spec_from_file_location("make_docs", DOCS / "make_docs.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["make_docs"] = mod
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return sys.modules["make_docs"]


# --- a region that holds numbers and yields no claims ----------------------------------------

def test_rows_whose_columns_are_all_labels_or_periods_are_noted(tmp_path):
    """'revenue' has a word among its figures, so it is read as the row label, and 'year' is
    the period: no column is left to claim. Before, "0 claims" and nothing else."""
    p = _write(tmp_path, "rev.csv", "year,revenue\n2019,100\n2020,n.a. (restated)\n2021,300\n")
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(p)
        notes = _table_notes(kb, "rev")
    assert report.claims == 0
    want = "table 'rev': rows 2-4 yield no claims"
    assert any(want in n and "2 number(s)" in n for n in report.notes)
    assert want in notes and "'revenue' as the label" in notes


def test_pdf_figure_lines_no_table_took_are_noted_beside_the_page_table(tmp_path):
    md = _make_docs()
    doc = md.Document("Employment", "Acme | Employment", "Acme report")
    page = doc.new_page()
    page.para("Head office staff by department.")
    page.table([["Department", "Staff"], ["Finance", "12"], ["Legal", "4"]], [120, 60])
    page.para("Employment by industry, last three surveys:")
    for k, line in enumerate(["Construction 485 1,066 1,210", "Manufacturing 2,310 2,295 2,402",
                              "Retail trade 1,904 1,877 1,950", "Transport 622 640 655"]):
        page.text(72, page.y - 14 * k, line)  # one space apart: no columns to align
    f = tmp_path / "employment.pdf"
    f.write_bytes(doc.to_bytes())
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(f)
        (table,) = report.tables
        notes = _table_notes(kb, table)
    want = ("page 1: 4 lines holding 12 numbers (from 'Construction 485 1,066 1,210') were "
            "not read as a table")
    assert any(n.startswith(want) for n in report.notes)
    assert want in notes


def test_pdf_figure_lines_on_a_page_without_tables_are_the_sources_note(tmp_path):
    md = _make_docs()
    doc = md.Document("Employment", "Acme | Employment", "Acme report")
    page = doc.new_page()
    page.para("Employment by industry, last three surveys:")
    for k, line in enumerate(["Construction 485 1,066 1,210", "Manufacturing 2,310 2,295 2,402",
                              "Retail trade 1,904 1,877 1,950"]):
        page.text(72, page.y - 14 * k, line)
    f = tmp_path / "employment.pdf"
    f.write_bytes(doc.to_bytes())
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(f)
        (src_notes,) = kb.store.con.execute("SELECT notes FROM sources").fetchone()
    want = "page 1: 3 lines holding 9 numbers"
    assert any(n.startswith(want) for n in report.notes) and want in src_notes


def test_pdf_data_rows_taken_for_header_repeats_are_noted(tmp_path):
    md = _make_docs()
    doc = md.Document("Units", "Acme | Units", "Acme report")
    page = doc.new_page()
    page.para("Dwellings by number of units.")
    page.table([["Units", "1", "2", "3", "4"], ["Owned", "12", "40", "7", "3"],
                ["Total 1", "1", "2", "3", "4"]], [90, 50, 50, 50, 50])
    f = tmp_path / "units.pdf"
    f.write_bytes(doc.to_bytes())
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(f)
        notes = _table_notes(kb, report.tables[0])
    want = "1 row(s) share most of their words with the header and were skipped"
    assert any(want in n and "page 1 row 3" in n for n in report.notes) and want in notes


# --- a column whose numbers change scale -----------------------------------------------------

SCALED = "Region,Population\nNorth,1.2 million\nSouth,\"450,000\"\nEast,0.9 million\n"


def test_a_column_whose_numbers_change_scale_is_named(tmp_path):
    p = _write(tmp_path, "regions.csv", SCALED)
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(p)
        notes = _table_notes(kb, "regions")
        base = kb.store.con.execute("SELECT sum(population) FROM regions").fetchone()[0]
    want = ("column 'Population': its numbers change scale down the column (mixed scales: "
            "as shown in row(s) 3; million in row(s) 2, 4)")
    assert any(n.startswith(want) for n in report.notes) and want in notes
    assert base == pytest.approx(2_550_000)


def test_a_period_column_of_a_statement_is_named_not_the_melted_value(tmp_path):
    p = _write(tmp_path, "results.csv",
               'Line item,2019,2018\nRevenue,1.2 million,"950,000"\nMargin,12%,11%\n'
               'Costs,"400,000","380,000"\n')
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(p)
    scale_notes = [n for n in report.notes if "change scale" in n]
    # 2018 is all plain figures beside its percentages: a margin row is no change of scale
    assert len(scale_notes) == 1 and scale_notes[0].startswith("column '2019': ")


# --- a file with neither table nor text ------------------------------------------------------

@pytest.mark.parametrize(("body", "said"), [
    ("x", "one line (x) and no rows under it"),
    ("name,amount\n", "a header (name, amount) and no rows under it"),
    ("Line item,2019,2018\n", "a header (Line item, 2019, 2018) and no rows under it"),
])
def test_a_file_with_no_rows_and_no_text_is_an_error_naming_it(tmp_path, body, said):
    p = _write(tmp_path, "empty.csv", body)
    with hyrag.open(tmp_path / "kb") as kb:
        with pytest.raises(IngestFailed) as err:
            kb.ingest(p)
        assert kb.store.count("SELECT count(*) FROM sources") == 0
    assert "empty.csv" in str(err.value) and said in str(err.value)


def test_an_empty_table_beside_data_is_a_note_not_an_error(tmp_path):
    p = _write(tmp_path, "two.csv", "Segment,Sales\nNorth,100\n\n\nRegion,Staff\n")
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(p)
    assert report.claims == 1
    assert any("a header and no rows ('Region', 'Staff')" in n for n in report.notes)


# --- the CLI shows the notes ----------------------------------------------------------------

def test_hyrag_ingest_prints_the_notes(tmp_path, capsys):
    p = _write(tmp_path, "regions.csv", SCALED)
    assert main(["ingest", str(p), "--kb", str(tmp_path / "kb"), "--no-vectors"]) == 0
    out = capsys.readouterr().out
    assert "note: column 'Population': its numbers change scale down the column" in out


def test_hyrag_ingest_names_an_empty_file(tmp_path, capsys):
    p = _write(tmp_path, "x.csv", "x")
    assert main(["ingest", str(p), "--kb", str(tmp_path / "kb"), "--no-vectors"]) == 1
    err = capsys.readouterr().err
    assert "x.csv" in err and "no rows under it" in err
