"""Legacy .xls and OpenDocument .ods workbooks through `kb.ingest(path)`: every sheet, the
right claims, and locators that name the sheet and the real cell.

The workbooks are committed (tests/data/workbooks/), written by tests/data/make_workbooks.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hyrag
from hyrag.errors import IngestFailed
from ingest.errors import UnreadableFileError
from ingest.readers import read_path

WORKBOOKS = Path(__file__).parents[1] / "data" / "workbooks"


@pytest.fixture(params=["xls", "ods"])
def kb_with_workbook(request, tmp_path):
    kb = hyrag.open(tmp_path / "kb")
    report = kb.ingest(WORKBOOKS / f"regions.{request.param}")
    yield kb, report, request.param
    kb.close()


def test_workbook_sheets_become_claims_with_sheet_and_cell(kb_with_workbook):
    kb, report, ext = kb_with_workbook
    assert set(report.tables) == {"regions_revenue", "regions_staff"}
    rows = kb.store.con.execute(
        "SELECT entity, attribute, time_key, value_num, scale, unit, locator FROM claims "
        "WHERE kind = 'cell' AND value_num IS NOT NULL").fetchall()
    got = {(e, a, t): (v, s, u, json.loads(loc)) for e, a, t, v, s, u, loc in rows}
    # a label column over period headers is melted as for .xlsx: the row label is the attribute
    v, scale, unit, loc = got[("regions_revenue", "Nordic", "2024")]
    assert (v, scale, unit) == (1350.5, "thousand", "USD")
    # the title is in B2 and the header in B4: Nordic's 2024 figure is in D5 of "Revenue"
    assert loc["sheet"] == "Revenue" and loc["cell"] == "D5" and loc["row"] == 5
    assert got[("regions_revenue", "Benelux", "2023")][0] == 430.0
    staff = {(e, a): (val[0], val[3]) for (e, a, _), val in got.items() if a == "Headcount"}
    assert staff[("Platform", "Headcount")][0] == 14.0
    assert staff[("Platform", "Headcount")][1]["sheet"] == "Staff"
    assert staff[("Platform", "Headcount")][1]["cell"] == "C2"


def test_workbook_typed_tables_keep_names_and_dates(kb_with_workbook):
    kb, _, _ = kb_with_workbook
    rows = kb.sql("SELECT team, lead, headcount, since FROM regions_staff ORDER BY team").rows
    assert [tuple(map(str, r)) for r in rows] == [
        ("Payments", "Jürgen Müller", "9.0", "2021-06-15"),
        ("Platform", "Åsa Lindström", "14.0", "2019-03-01"),
        ("Search", "Chloé Martin", "6.0", "2022-01-10"),
    ]


def test_one_sheet_of_a_workbook(tmp_path):
    [t] = read_path(WORKBOOKS / "regions.ods", sheet="staff")
    assert t.sheet == "Staff" and t.header == ("Team", "Lead", "Headcount", "Since")


def test_folder_ingest_picks_up_xls_and_ods(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for ext in ("xls", "ods"):
        (folder / f"regions.{ext}").write_bytes((WORKBOOKS / f"regions.{ext}").read_bytes())
    with hyrag.open(tmp_path / "kb") as kb:
        reports, errors = kb.ingest_many([folder])
        sources = {Path(r.source).suffix for r in reports}
    assert not errors
    assert sources == {".xls", ".ods"}


def test_corrupt_xls_is_an_error_naming_the_file(tmp_path):
    p = tmp_path / "broken.xls"
    p.write_bytes(b"not an OLE2 container" * 20)
    with pytest.raises(UnreadableFileError, match="broken.xls.*not a readable XLS"):
        read_path(p)
    with hyrag.open(tmp_path / "kb") as kb, pytest.raises(IngestFailed, match="broken.xls"):
        kb.ingest(p)
