"""PDF reading on the committed sample documents (sample_data/docs, made by make_docs.py) and on
broken files built in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.errors import EmptyFileError, EncryptedFileError, UnreadableFileError
from ingest.pdf import locate_row, read_pdf, read_pdf_tables

DOCS = Path(__file__).resolve().parents[2] / "sample_data" / "docs"


def _minimal_pdf(*, encrypt: bool = False, content: bytes | None = None) -> bytes:
    """One Letter page, optionally with a content stream or a /Standard /Encrypt dictionary
    whose owner/user hashes match no password (pdfminer's empty-password attempt fails)."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        + (b" /Contents 4 0 R" if content is not None else b"") + b" >>",
    ]
    if content is not None:
        objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
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
    # page 1 rows keep their row within the page table; page 2 rows number on, uniquely
    assert routes.row_locs[:2] == (2, 3)
    assert len(set(routes.row_locs)) == len(routes.row_locs)
    assert routes.cell_address(0, 1) == "B2"
    assert locate_row(routes, routes.row_locs[-1]) == (2, 6)
    assert locate_row(routes, 2) == (1, 2)
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
    assert locate_row(emp, emp.row_locs[-1]) == (3, 3)


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


def test_zero_byte_pdf(tmp_path) -> None:
    f = tmp_path / "zero.pdf"
    f.write_bytes(b"")
    with pytest.raises(EmptyFileError):
        read_pdf(f)


def test_missing_file(tmp_path) -> None:
    with pytest.raises(UnreadableFileError) as ei:
        read_pdf(tmp_path / "nope.pdf")
    assert "nope.pdf" in str(ei.value)
