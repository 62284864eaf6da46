"""XLSX reader: merged cells, multi-row headers, titles, several tables, cached formula values,
hidden sheets, locators and the errors users see for bad files."""

from __future__ import annotations

import datetime as dt
import re
import zipfile

import openpyxl
import pytest

from ingest.errors import EmptyFileError, EncryptedFileError, IngestError, UnreadableFileError
from ingest.readers import read_path
from ingest.readers.xlsx import scan_sheet_xml


def set_cached_values(path, values: dict[str, object]) -> None:
    """Give formula cells the cached results Excel would store on save (openpyxl writes none)."""
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i.filename) for i in z.infolist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    for ref, v in values.items():
        xml, n = re.subn(
            rf'(<c r="{ref}"[^>]*>)(<f>.*?</f>)(<v\s*/>|<v></v>)?', rf"\g<1>\g<2><v>{v}</v>", xml
        )
        assert n == 1, ref
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


@pytest.fixture
def regional(tmp_path):
    """A realistic report sheet: merged title, two-row merged header, repeated header row,
    a merged category column, a formula total, a second table below, a hidden sheet."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Regions"
    ws["A1"] = "Regional report, USD thousands"
    ws.merge_cells("A1:F1")
    ws["A3"], ws["B3"], ws["C3"], ws["E3"] = "Area", "Region", "Revenue", "Cost"
    ws.merge_cells("A3:A4")
    ws.merge_cells("B3:B4")
    ws.merge_cells("C3:D3")
    ws.merge_cells("E3:F3")
    for c, y in zip("CDEF", [2023, 2024, 2023, 2024], strict=True):
        ws[f"{c}4"] = y
    ws.append(["Europe", "North", 100, 120, 60, 70])  # row 5
    ws.append([None, "South", 90, 95.5, 50, 55])  # row 6
    ws.merge_cells("A5:A6")  # category merged down
    ws.append(["Area", "Region", "Revenue", "Revenue", "Cost", "Cost"])  # row 7: repeat
    ws.append(["Asia", "East", 80, 85, 40, 45])  # row 8
    ws.append(["Total", None, "=SUM(C5:C8)", "=SUM(D5:D8)", 150, 170])  # row 9
    ws["A12"], ws["B12"], ws["C12"] = "Product", "Units", "Launched"
    ws.append(["Widget", 5, dt.datetime(2024, 1, 31)])  # row 13
    ws.append(["Gadget", 7, dt.datetime(2024, 2, 29)])  # row 14
    hidden = wb.create_sheet("Archive")
    hidden.sheet_state = "hidden"
    hidden.append(["key", "value"])
    hidden.append(["a", 1])
    wb.create_sheet("Empty")
    p = tmp_path / "Regional Report.xlsx"
    wb.save(p)
    return p


def test_regional_report(regional):
    first, second, archive = read_path(regional)
    assert first.name == "regional_report_regions"
    assert first.sheet == "Regions" and first.table_index == 0
    assert first.title == "Regional report, USD thousands"
    assert first.header == (
        "Area", "Region", "Revenue 2023", "Revenue 2024", "Cost 2023", "Cost 2024",
    )
    # merged category forward-filled down; repeated header row 7 skipped
    assert first.rows[0] == ("Europe", "North", 100, 120, 60, 70)
    assert first.rows[1] == ("Europe", "South", 90, 95.5, 50, 55)
    assert first.row_locs == (5, 6, 8, 9)
    assert any(n.startswith("row 7: repeated header skipped") for n in first.notes)
    assert first.cell_address(1, 3) == "D6"
    assert first.cell_address(2, 0) == "A8"


def test_formula_without_cached_value_is_none_with_a_note(regional):
    first = read_path(regional)[0]
    assert first.rows[3][2:4] == (None, None)
    assert any(n.startswith("cell C9: formula without a cached value") for n in first.notes)


def test_formula_cached_values_come_through(regional):
    set_cached_values(regional, {"C9": 270, "D9": 300.5})
    first = read_path(regional)[0]
    assert first.rows[3] == ("Total", None, 270, 300.5, 150, 170)
    assert not any("formula" in n for n in first.notes)


def test_second_table_on_the_sheet_and_typed_values(regional):
    second = read_path(regional)[1]
    assert second.name == "regional_report_regions_2"
    assert second.table_index == 1
    assert second.header == ("Product", "Units", "Launched")
    assert second.rows[0] == ("Widget", 5, dt.datetime(2024, 1, 31))
    assert isinstance(second.rows[0][1], int)
    assert second.row_locs == (13, 14)
    assert second.cell_address(1, 2) == "C14"


def test_hidden_sheet_read_and_noted_empty_sheet_skipped(regional):
    tables = read_path(regional)
    assert [t.sheet for t in tables] == ["Regions", "Regions", "Archive"]
    archive = tables[2]
    assert archive.name == "regional_report_archive"
    assert "sheet 'Archive' is hidden" in archive.notes


def test_sheet_argument_restricts_and_keeps_names(regional):
    [t] = read_path(regional, sheet="Archive")
    assert t.name == "regional_report_archive" and t.rows == (("a", 1),)
    with pytest.raises(IngestError, match="'Regions', 'Archive', 'Empty'"):
        read_path(regional, sheet="Nope")
    with pytest.raises(EmptyFileError):
        read_path(regional, sheet="Empty")


def test_single_sheet_single_table_is_named_by_the_file(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["id", "amount"])
    ws.append([1, 2.5])
    wb.create_sheet("Sheet2")  # an empty default sheet does not change the name
    p = tmp_path / "2024 Budget.xlsx"
    wb.save(p)
    [t] = read_path(p)
    assert t.name == "t_2024_budget"
    assert t.cell_address(0, 1) == "B2"


def test_table_away_from_a1_keeps_sheet_coordinates(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["C5"], ws["D5"] = "Item", "Qty"
    ws["C6"], ws["D6"] = "Bolt", 10
    p = tmp_path / "offset.xlsx"
    wb.save(p)
    [t] = read_path(p)
    assert t.col_locs == (3, 4) and t.row_locs == (6,)
    assert t.cell_address(0, 1) == "D6"


def test_header_merged_across_columns_fills_each(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Region", "Sales", None, "Headcount"])
    ws.append([None, "Q1", "Q2", None])
    ws.merge_cells("B1:C1")
    ws.merge_cells("A1:A2")
    ws.merge_cells("D1:D2")
    ws.append(["North", 1, 2, 10])
    p = tmp_path / "h.xlsx"
    wb.save(p)
    [t] = read_path(p)
    assert t.header == ("Region", "Sales Q1", "Sales Q2", "Headcount")
    assert t.rows == (("North", 1, 2, 10),)


def test_numeric_block_gets_generated_names(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([1, 2.5, 3])
    ws.append([4, 5.5, 6])
    p = tmp_path / "n.xlsx"
    wb.save(p)
    [t] = read_path(p)
    assert t.header == ("column_1", "column_2", "column_3")
    assert t.row_locs == (1, 2)
    assert any("no header row" in n for n in t.notes)


def test_excel_error_values_are_empty_with_a_note(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["id", "ratio"])
    ws.append([1, "#DIV/0!"])
    p = tmp_path / "e.xlsx"
    wb.save(p)
    [t] = read_path(p)
    assert t.rows == ((1, None),)
    assert any(n.startswith("cell B2: Excel error #DIV/0!") for n in t.notes)


def test_corrupt_bytes_are_unreadable(tmp_path):
    p = tmp_path / "corrupt.xlsx"
    p.write_bytes(b"this is not a workbook at all" * 10)
    with pytest.raises(UnreadableFileError, match="corrupt.xlsx"):
        read_path(p)


def test_truncated_workbook_is_unreadable(tmp_path, regional):
    p = tmp_path / "truncated.xlsx"
    p.write_bytes(regional.read_bytes()[:500])
    with pytest.raises(UnreadableFileError, match="truncated.xlsx"):
        read_path(p)


def test_zip_that_is_not_a_workbook_is_unreadable(tmp_path):
    p = tmp_path / "zip.xlsx"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(UnreadableFileError, match="zip.xlsx"):
        read_path(p)


def test_encrypted_workbook(tmp_path):
    p = tmp_path / "secret.xlsx"
    p.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
    with pytest.raises(EncryptedFileError, match="secret.xlsx"):
        read_path(p)


def test_workbook_with_only_empty_sheets(tmp_path):
    wb = openpyxl.Workbook()
    wb.create_sheet("Other")
    p = tmp_path / "blank.xlsx"
    wb.save(p)
    with pytest.raises(EmptyFileError, match="blank.xlsx"):
        read_path(p)


def test_zero_byte_xlsx_is_empty(tmp_path):
    p = tmp_path / "zero.xlsx"
    p.write_bytes(b"")
    with pytest.raises(EmptyFileError, match="zero.xlsx"):
        read_path(p)


def test_scan_sheet_xml_finds_merges_and_uncached_formulas():
    xml = (
        b'<worksheet><sheetData><row r="1"><c r="A1"><f>1+1</f><v>2</v></c>'
        b'<c r="B1"><f>1+2</f><v /></c><c r="C1" t="s"><v>0</v></c></row></sheetData>'
        b'<mergeCells count="1"><mergeCell ref="A3:C4"/></mergeCells></worksheet>'
    )
    merges, uncached = scan_sheet_xml(xml)
    assert merges == [(3, 1, 4, 3)]
    assert uncached == [(1, 2)]
