"""PDF reading on the committed sample documents (sample_data/docs, made by make_docs.py) and on
broken files built in the test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from ingest.errors import EmptyFileError, EncryptedFileError, UnreadableFileError
from ingest.pdf import locate_row, read_pdf, read_pdf_tables

DOCS = Path(__file__).resolve().parents[2] / "sample_data" / "docs"


def _make_docs():
    """The sample-document generator (sample_data/docs/make_docs.py), imported by path: its PDF
    writer builds the odd layouts these tests need."""
    if "make_docs" not in sys.modules:
        spec = importlib.util.spec_from_file_location("make_docs", DOCS / "make_docs.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["make_docs"] = mod  # dataclasses look their module up by name
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return sys.modules["make_docs"]


def _minimal_pdf(*, encrypt: bool = False, content: bytes | None = None,
                 image: bool = False) -> bytes:
    """One Letter page, optionally with a content stream or a /Standard /Encrypt dictionary
    whose owner/user hashes match no password (pdfminer's empty-password attempt fails)."""
    if image:  # a scanned page: one grey 8x8 image drawn over the page, no text at all
        content = b"q 612 0 0 792 0 0 cm /Im1 Do Q"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        + (b" /Resources << /XObject << /Im1 5 0 R >> >>" if image else b"")
        + (b" /Contents 4 0 R" if content is not None else b"") + b" >>",
    ]
    if content is not None:
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    if image:
        pixels = bytes(range(96, 160))
        objs.append(b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace "
                    b"/DeviceGray /BitsPerComponent 8 /Length 64 >>\nstream\n" + pixels
                    + b"\nendstream")
    if encrypt:
        objs.append(b"<< /Filter /Standard /V 1 /R 2 /O <" + b"11" * 32 + b"> /U <" + b"22" * 32
                    + b"> /P -44 >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    extra = b""
    if encrypt:
        extra = b" /Encrypt %d 0 R /ID [<00112233445566778899aabbccddeeff>" \
                b"<00112233445566778899aabbccddeeff>]" % len(objs)
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objs) + 1, extra, xref)
    return bytes(out)


# --- tables ---------------------------------------------------------------------------------

def test_table_continued_across_pages_is_joined() -> None:
    tables = read_pdf_tables(DOCS / "fjordline_segments_2024.pdf")
    routes = tables[0]
    assert routes.page == 1 and routes.table_index == 0
    assert routes.header == ("Route", "2022", "2023", "2024")
    assert routes.title == "Revenue by route (NOK thousands)"
    assert len(routes.rows) == 27  # 22 rows on page 1 + 5 on page 2, header repeat dropped
    assert all(r[0] != "Route" for r in routes.rows)
    assert routes.rows[0] == ("Bergen-Stavanger", "84,210", "88,950", "93,400")
    assert routes.rows[-1] == ("Total", "843,720", "869,100", "910,850")
    assert routes.col_locs == (1, 2, 3, 4)
    # every row keeps its page and its row within that page's table
    assert routes.row_locs[:2] == (2, 3)
    assert len(set(zip(routes.row_pages, routes.row_locs, strict=True))) == len(routes.rows)
    assert routes.cell_address(0, 1) == "B2"
    assert locate_row(routes, len(routes.rows) - 1) == (2, 6)
    assert locate_row(routes, 0) == (1, 2)
    assert "continued across pages 1-2" in routes.notes


def test_table_continued_at_top_of_next_page_without_header() -> None:
    tables = read_pdf_tables(DOCS / "fjordline_segments_2024.pdf")
    assert len(tables) == 2
    emp = tables[1]
    assert emp.page == 2 and emp.table_index == 1
    assert emp.header == ("Country", "2023", "2024")
    assert emp.title == "Employees by country (FTE)"
    assert emp.rows[-1] == ("Total", "1,520", "1,607")
    assert ("Austria", "1", "1") in emp.rows
    assert locate_row(emp, len(emp.rows) - 1) == (3, 3)


def test_single_page_table_with_caption() -> None:
    tables, passages = read_pdf(DOCS / "crestwood_employment_outcomes_2024.pdf")
    (t,) = tables
    assert t.page == 2 and t.table_index == 0
    assert t.title == "Table 1. Graduate employment rate by school, class of 2024 (percent)"
    assert t.header == ("School", "Graduates", "Responses", "Employment rate (%)")
    assert t.rows[-1] == ("All schools", "1,390", "1,127", "88")
    assert t.row_locs == (2, 3, 4, 5, 6)
    # table text and its caption are not prose
    prose = " ".join(p.text for p in passages)
    assert "Arts and Humanities 351" not in prose and "Table 1." not in prose


def test_annual_report_table_spans_two_pages_with_repeated_header() -> None:
    tables, passages = read_pdf(DOCS / "annual_report_2024.pdf")
    summary = tables[0]
    assert (summary.page, summary.table_index) == (1, 0)
    assert summary.title == "Kestrel Dynamics - Five-year financial summary (USD millions)"
    assert summary.header == ("Line item", "2020", "2021", "2022", "2023", "2024")
    assert len(summary.rows) == 26 and all(r[0] != "Line item" for r in summary.rows)
    assert summary.rows[0] == ("Revenue", "1,021.4", "1,108.7", "1,184.9", "1,292.6", "1,410.2")
    assert summary.rows[1][1] == "(432.1)"  # a bracket negative stays as displayed
    labels = [r[0] for r in summary.rows]
    # page 2, under the repeated header
    assert locate_row(summary, labels.index("Free cash flow")) == (2, 7)
    assert locate_row(summary, labels.index("Revenue")) == (1, 2)
    # the "(continued)" caption on page 2 is neither a table title nor prose
    assert not any("continued" in p.text for p in passages)


def test_unruled_table_is_read_by_column_alignment() -> None:
    tables, passages = read_pdf(DOCS / "annual_report_2024.pdf")
    seg = tables[1]
    assert (seg.page, seg.table_index) == (2, 1)
    assert seg.title == "Kestrel Dynamics - Revenue by segment (USD millions)"
    assert seg.header == ("Segment", "2022", "2023", "2024")
    assert seg.rows == (
        ("Industrial sensors", "612.3", "655.1", "701.4"),
        ("Marine systems", "401.8", "438.2", "472.9"),
        ("Software and services", "170.8", "199.3", "235.9"),
        ("Total", "1,184.9", "1,292.6", "1,410.2"),
    )
    assert seg.row_locs == (2, 3, 4, 5) and seg.col_locs == (1, 2, 3, 4)
    prose = " ".join(p.text for p in passages)
    assert "Marine systems 401.8" not in prose and "Segment 2022" not in prose
    assert "Marine systems revenue increased by 7.9%" in prose


def test_prose_in_two_columns_is_not_an_unruled_table(tmp_path) -> None:
    md = _make_docs()
    doc = md.Document("Two columns", "Acme  |  Newsletter", "Acme newsletter")
    p = doc.new_page()
    left = md.wrap("Acme Inc. opened a new plant in Ohio this spring. The plant employs local "
                   "people and serves customers across the Midwest region of the country.",
                   200)
    right = md.wrap("The board met twice during the quarter to review the strategy and to "
                    "approve the budget for the coming year, which it did in full.", 200)
    for k in range(max(len(left), len(right))):
        y = 650 - 14 * k
        if k < len(left):
            p.text(72, y, left[k])
        if k < len(right):
            p.text(330, y, right[k])
    f = tmp_path / "columns.pdf"
    f.write_bytes(doc.to_bytes())
    tables, passages = read_pdf(f)
    assert tables == []
    assert "Ohio" in " ".join(x.text for x in passages)


def test_policy_document_is_prose_only() -> None:
    tables, passages = read_pdf(DOCS / "policy_2024.pdf")
    assert tables == []
    texts = [p.text for p in passages]
    assert "- Expense claims must be submitted within 30 days of the expense." in texts
    assert not any("Policy HHP-7" in t for t in texts)  # running header


# --- passages -------------------------------------------------------------------------------

def test_passages_have_page_and_paragraph_and_no_furniture() -> None:
    _, passages = read_pdf(DOCS / "northgate_overview_2024.pdf")
    assert {p.page for p in passages} == {1, 2}
    for page in (1, 2):
        paras = [p.paragraph for p in passages if p.page == page]
        assert paras == list(range(len(paras)))
    texts = [p.text for p in passages]
    assert texts[0] == "Northgate University at a Glance"
    assert not any("Page 1 of 2" in t or "Page 2 of 2" in t for t in texts)
    assert not any("northgate.edu" in t for t in texts)  # running header on every page
    assert "Northgate does not disclose its headcount of adjunct instructors." in texts
    # lines of one paragraph are joined into one passage
    assert any(t.startswith("Northgate University employs 1,950 staff") and "2024." in t
               for t in texts)


def test_single_page_furniture_dropped() -> None:
    _, passages = read_pdf(DOCS / "riverside_clinic_2024.pdf")
    texts = [p.text for p in passages]
    assert texts[0] == "Riverside Clinic Annual Report 2024"
    assert not any("Page 1 of 1" in t or "Annual Staffing and Activity Report" in t
                   for t in texts)
    assert texts[1].startswith("Riverside Clinic employed 412 registered nurses")


def test_prose_only_pdf_has_no_tables() -> None:
    assert read_pdf_tables(DOCS / "northgate_academics_2024.pdf") == []


# --- errors ---------------------------------------------------------------------------------

def test_not_a_pdf(tmp_path) -> None:
    f = tmp_path / "report.pdf"
    f.write_text("name,revenue\nAcme,1\n")
    with pytest.raises(UnreadableFileError) as ei:
        read_pdf(f)
    assert "report.pdf" in str(ei.value)


def test_corrupt_pdf(tmp_path) -> None:
    f = tmp_path / "broken.pdf"
    f.write_bytes(b"%PDF-1.4\nthis is not a PDF body\n")
    with pytest.raises(UnreadableFileError) as ei:
        read_pdf(f)
    assert "broken.pdf" in str(ei.value)


def test_truncated_pdf(tmp_path) -> None:
    f = tmp_path / "truncated.pdf"
    f.write_bytes((DOCS / "riverside_clinic_2024.pdf").read_bytes()[:700])
    with pytest.raises(UnreadableFileError) as ei:
        read_pdf(f)
    assert "truncated.pdf" in str(ei.value)


def test_encrypted_pdf(tmp_path) -> None:
    f = tmp_path / "locked.pdf"
    f.write_bytes(_minimal_pdf(encrypt=True))
    with pytest.raises(EncryptedFileError) as ei:
        read_pdf(f)
    assert "locked.pdf" in str(ei.value) and "password" in str(ei.value)


def test_pdf_without_text_or_tables_is_empty(tmp_path) -> None:
    f = tmp_path / "scan.pdf"
    f.write_bytes(_minimal_pdf(content=b"0.5 w 10 10 m 100 10 l S"))
    with pytest.raises(EmptyFileError) as ei:
        read_pdf(f)
    assert "scan.pdf" in str(ei.value) and "OCR" in str(ei.value)


def test_image_only_pdf_says_ocr_is_not_supported(tmp_path) -> None:
    f = tmp_path / "scanned.pdf"
    f.write_bytes(_minimal_pdf(image=True))
    with pytest.raises(EmptyFileError) as ei:
        read_pdf(f)
    assert ei.value.page == 1
    assert "scanned.pdf" in str(ei.value) and "OCR is not supported" in str(ei.value)


def test_zero_byte_pdf(tmp_path) -> None:
    f = tmp_path / "zero.pdf"
    f.write_bytes(b"")
    with pytest.raises(EmptyFileError):
        read_pdf(f)


def test_missing_file(tmp_path) -> None:
    with pytest.raises(UnreadableFileError) as ei:
        read_pdf(tmp_path / "nope.pdf")
    assert "nope.pdf" in str(ei.value)
