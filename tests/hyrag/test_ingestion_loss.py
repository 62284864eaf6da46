"""Nothing a file holds is lost without a word: every cell either becomes a claim or the
IngestReport, `kb_tables.notes` and `hyrag ingest` say what was not read and where."""

from __future__ import annotations

from pathlib import Path

import hyrag


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


def test_a_period_table_whose_figures_are_all_blank_ingests(tmp_path):
    p = _write(tmp_path, "blank.csv", "Line item,2019,2018\nRevenue,,\nCosts,,\n")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(p)
        rows = kb.store.con.execute("SELECT n_rows FROM kb_tables").fetchall()
    assert rows == [(2,)]
