"""Tables whose rows are periods, read through `kb.ingest(path)`: each figure is dated by its
row and a heading above the rows names what they are of. (A series with lines that are not
periods — a "Thereafter" bucket, "No. Obs" under it — keeps its lines as line items in the
claims; the table model dates and kinds them: tests/ingest/test_tablemodel.py.)"""

from __future__ import annotations

from pathlib import Path

from tests.ingest.conftest import cell_claims as claims


def test_period_rows_under_a_heading_are_that_headings(kb, tmp_path: Path) -> None:
    p = tmp_path / "industries.csv"
    p.write_text("Industry,Businesses at end of June,Employment at end of June\n"
                 "Construction,,\n2006,\"1,066\",485\n2007,\"1,102\",501\n"
                 "Manufacturing,,\n2006,820,\"1,210\"\n", encoding="utf-8")
    kb.ingest(p)
    c = claims(kb, "industries.csv")
    assert c["C3"] == ("Construction", "Employment at end of June", "2006", 485.0)
    assert c["B6"] == ("Manufacturing", "Businesses at end of June", "2006", 820.0)
    assert "A3" not in c  # the period label is the claim's period, not a figure of its own


def test_year_rows_under_an_empty_corner_date_their_figures(kb, tmp_path: Path) -> None:
    p = tmp_path / "starts.csv"
    p.write_text(",United States,,\n,Total,1 unit,2 to 4 units\n2019,1290,888,31\n"
                 "2020,1380,912,38\n", encoding="utf-8")
    kb.ingest(p)
    c = claims(kb, "starts.csv")
    # the spanning caption is a level of every column's name: "Total" of what is said
    assert c["B4"][1:] == ("United States, Total", "2020", 1380.0)
    assert not any(v[1] == "column_1" for v in c.values())  # no year read as a measure
