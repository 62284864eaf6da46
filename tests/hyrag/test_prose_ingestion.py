"""PDFs and prose through the engine (issue 3): golden comparison of PDF tables with their XLSX
twins, narrative-versus-table links, negation links, `ingest_text`, and bad PDFs that must leave
the knowledge base as it was."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import pytest

import hyrag
from hyrag.errors import IngestFailed
from ingest.pdf import locate_row, read_pdf_tables

DOCS = Path(__file__).resolve().parents[2] / "sample_data" / "docs"
REPORT = DOCS / "annual_report_2024.pdf"
CELL_FIELDS = "entity, attribute, time_key, value_num, scale, unit"


def _cells(kb, table_like: str | None = None) -> set[tuple]:
    where = "kind = 'cell'" + (f" AND table_name LIKE '{table_like}'" if table_like else "")
    r = kb.sql(f"SELECT {CELL_FIELDS} FROM claims WHERE {where}", row_cap=100_000)
    assert not r.truncated
    return set(r.rows)


@pytest.fixture(scope="module")
def report_kb(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("kb") / "report"
    with hyrag.open(path) as kb:
        report = kb.ingest(REPORT)
        assert report.status == "ingested"
    kb = hyrag.open(path, read_only=True)
    yield kb
    kb.close()


# --- golden comparison: the same table from PDF and from XLSX gives the same claims ---------

@pytest.mark.parametrize(
    ("table", "xlsx", "n"),
    [("%_p1_t1", "annual_report_2024_summary.xlsx", 130),  # ruled, across two pages
     ("%_p2_t2", "annual_report_2024_segments.xlsx", 12)],  # unruled: whitespace only
    ids=["ruled", "unruled"],
)
def test_pdf_table_claims_equal_xlsx_claims(report_kb, tmp_path, table, xlsx, n) -> None:
    from_pdf = _cells(report_kb, table)
    with hyrag.open(tmp_path / "x") as kb:
        kb.ingest(DOCS / xlsx)
        from_xlsx = _cells(kb)
    assert len(from_pdf) == n
    assert from_pdf == from_xlsx
    # what the claims say (not only that both readers agree)
    assert ("Kestrel Dynamics", "Revenue", "2024", 1410.2, "million", "USD") in from_pdf or \
        ("Kestrel Dynamics", "Marine systems", "2024", 472.9, "million", "USD") in from_pdf


def test_bracket_negatives_and_page_of_continued_rows(report_kb) -> None:
    r = report_kb.sql("SELECT value_text, value_num, value_base, row_num, page FROM claims "
                      "WHERE kind = 'cell' AND attribute = 'Free cash flow' AND time_key = '2024'")
    ((text, num, base, row, page),) = r.rows
    assert (text, num, base) == ("148.0", 148.0, 148_000_000.0)
    # a row of a table continued on the next page cites that page and its row there
    assert (page, row) == (2, 7)
    summary = read_pdf_tables(REPORT)[0]
    i = next(k for k, r in enumerate(summary.rows) if r[0] == "Free cash flow")
    assert locate_row(summary, i) == (2, 7)
    r = report_kb.sql("SELECT value_num FROM claims WHERE kind = 'cell' "
                      "AND attribute = 'Cost of revenue' AND time_key = '2020'")
    assert r.rows == [(-432.1,)]


# --- narrative versus table -----------------------------------------------------------------

def _links(kb, kind: str) -> list[tuple]:
    return kb.sql(
        "SELECT a.kind, a.attribute, a.value_text, a.time_key, b.kind, b.attribute, "
        "b.value_text, b.time_key FROM claim_links l JOIN claims a ON a.claim_id = l.src "
        f"JOIN claims b ON b.claim_id = l.dst WHERE l.kind = '{kind}' ORDER BY 2, 4"
    ).rows


def test_narrative_supports_table_cells(report_kb) -> None:
    sup = _links(report_kb, "supports")
    assert sup == [
        ("text", "net income", "$278.6 million", "2024", "cell", "Net income", "278.6", "2024"),
        ("text", "operating income", "$376.6 million", "2024", "cell", "Operating income",
         "376.6", "2024"),
        # "$1.3 billion" agrees with 1,292.6 million at the precision it was written
        ("text", "revenue", "$1.3 billion", "2023", "cell", "Revenue", "1,292.6", "2023"),
        ("text", "revenue", "$1,410.2 million", "2024", "cell", "Revenue", "1,410.2", "2024"),
    ]


def test_exactly_one_contradiction_between_narrative_and_table(report_kb) -> None:
    con = _links(report_kb, "contradicts")
    assert con == [("text", "free cash flow", "$158.0 million", "2024", "cell",
                    "Free cash flow", "148.0", "2024")]
    r = report_kb.sql("SELECT kind, support, contradict FROM claims WHERE contradict > 0")
    assert sorted(r.rows) == [("cell", 0, 1), ("text", 0, 1)]


# --- negation -------------------------------------------------------------------------------

def test_negated_claim_negates_same_entity_and_attribute(tmp_path) -> None:
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest_text(["Northgate University reported a headcount of 2,310 in 2024. "
                        "Northgate University employs 1,950 staff."], source="hr_notes")
        rep = kb.ingest_text(["Northgate University is a public research university. "
                              "Northgate does not disclose its headcount."], source="overview")
        assert rep.links == 1
        rows = kb.sql(
            "SELECT a.text, b.attribute, b.value_num, b.file FROM claim_links l "
            "JOIN claims a ON a.claim_id = l.src JOIN claims b ON b.claim_id = l.dst "
            "WHERE l.kind = 'negates'").rows
        assert rows == [("[negated] [Northgate University] Northgate does not disclose its "
                         "headcount.", "headcount", 2310.0, "hr_notes")]
        # the same source: a negation and the fact it denies, both new
        kb.ingest_text(["Acme Inc. had 40 contractors in 2023. Acme Inc. does not disclose "
                        "its contractors."], source="acme")
        n = kb.sql("SELECT count(*) FROM claim_links WHERE kind = 'negates'").rows[0][0]
        assert n == 2


def test_northgate_overview_negation_has_nothing_to_negate(tmp_path) -> None:
    with hyrag.open(tmp_path / "kb") as kb:
        for f in sorted((DOCS / "partial_coverage").glob("*.md")):
            kb.ingest(f)
        assert kb.sql("SELECT count(*) FROM claim_links WHERE kind = 'negates'").rows == [(0,)]
        neg = kb.sql("SELECT entity, attribute FROM claims WHERE starts_with(text, '[negated]')")
        assert neg.rows == [("Northgate University", "headcount of adjunct instructors")]
        hit = kb.sql("SELECT entity, value_num, unit, time_key, file FROM claims "
                     "WHERE attribute = 'graduate employment rate' AND kind = 'text'").rows
        assert hit == [("Crestwood College", 88.0, "%", "2024",
                        "crestwood_employment_outcomes_2024.md")]
        assert kb.sql("SELECT count(*) FROM claims WHERE entity = 'Northgate University' "
                      "AND attribute LIKE '%employment rate%'").rows == [(0,)]


# --- ingest_text ----------------------------------------------------------------------------

def test_ingest_text_end_to_end(tmp_path) -> None:
    texts = ["Acme Corp. reported revenue of $4.4 billion in fiscal 2023.",
             "Acme Corp. acquired Beta Ltd in 2022. Beta Ltd is located in Oslo."]
    with hyrag.open(tmp_path / "kb") as kb:
        rep = kb.ingest_text(texts, source="notes")
        assert rep.status == "ingested" and rep.claims >= 3
        rows = kb.sql("SELECT entity, attribute, value_num, scale, unit, time_key, file, locator "
                      "FROM claims WHERE value_num IS NOT NULL").rows
        a = texts[0].index("$4.4 billion")
        assert rows == [("Acme Corp", "revenue", 4.4, "billion", "USD", "2023", "notes",
                         '{"file":"notes","paragraph":0,"sentence":0,"span":'
                         f'[{a},{a + len("$4.4 billion")}]}}')]
        src = kb.sql("SELECT kind, uri FROM sources").rows
        assert src == [("text", "text:notes")]
        rels = set(kb.sql("SELECT head, relation, tail FROM relations").rows)
        assert {("Acme Corp", "acquires", "Beta Ltd"), ("Beta Ltd", "located_in", "Oslo")} <= rels
        assert kb.ingest_text(texts, source="notes").status == "unchanged"


# --- bad input: a clear error naming the file (and page), and nothing lands ------------------

def _pdf(objs: list[bytes], trailer_extra: bytes = b"") -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objs) + 1, trailer_extra, xref)
    return bytes(out)


def _page(content_ref: int = 4, resources: bytes = b"") -> list[bytes]:
    return [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << " + resources
            + b" >> /Contents %d 0 R >>" % content_ref]


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def scanned_pdf() -> bytes:
    """One page that is only an image (what a scanner produces): no text layer at all."""
    img = bytes((i * 7) % 256 for i in range(64 * 64))
    return _pdf(_page(resources=b"/XObject << /Im1 5 0 R >>") + [
        _stream(b"q 612 0 0 792 0 0 cm /Im1 Do Q"),
        _stream(img, b" /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace "
                     b"/DeviceGray /BitsPerComponent 8"),
    ])


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for b in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(b ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


_PAD = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")


def encrypted_pdf(user_password: bytes = b"hunter2", owner_password: bytes = b"owner") -> bytes:
    """A real password-protected PDF: the Standard security handler, revision 2 (40-bit RC4,
    PDF 1.4 spec algorithms 3.1-3.4), with a user password, so no reader opens it without one."""
    pad = lambda pw: (pw + _PAD)[:32]  # noqa: E731
    o = _rc4(hashlib.md5(pad(owner_password)).digest()[:5], pad(user_password))
    perms = -44
    file_id = bytes(range(16))
    key = hashlib.md5(pad(user_password) + o + struct.pack("<i", perms) + file_id).digest()[:5]
    u = _rc4(key, _PAD)
    content = b"BT /F1 12 Tf 72 700 Td (Acme revenue was 42 million in 2024.) Tj ET"
    obj_key = hashlib.md5(key + struct.pack("<i", 4)[:3] + b"\0\0").digest()[:10]
    objs = _page(resources=b"/Font << /F1 6 0 R >>") + [
        _stream(_rc4(obj_key, content)),
        b"<< /Filter /Standard /V 1 /R 2 /O <" + o.hex().encode() + b"> /U <"
        + u.hex().encode() + b"> /P %d >>" % perms,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    ident = b"<" + file_id.hex().encode() + b">"
    return _pdf(objs, b" /Encrypt 5 0 R /ID [" + ident + ident + b"]")


def test_encrypted_fixture_is_a_real_encrypted_pdf(tmp_path) -> None:
    import pdfplumber

    f = tmp_path / "locked.pdf"
    f.write_bytes(encrypted_pdf())
    with pdfplumber.open(f, password="hunter2") as pdf:
        assert "Acme revenue was 42 million" in pdf.pages[0].extract_text()


BAD = {
    "scanned.pdf": (scanned_pdf, "OCR is not supported", 1),
    "locked.pdf": (encrypted_pdf, "password", None),
    "truncated.pdf": (lambda: REPORT.read_bytes()[: len(REPORT.read_bytes()) // 2], "truncated",
                      None),
    "really_a_csv.pdf": (lambda: b"name,revenue\nAcme,1\n", "not a PDF", None),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_pdf_raises_named_error_and_changes_nothing(tmp_path, name) -> None:
    make, needle, page = BAD[name]
    f = tmp_path / name
    f.write_bytes(make())
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest_text(["Acme Inc. had 40 staff in 2024."], source="seed")
        before = kb.store.logical_state()
        with pytest.raises(IngestFailed) as err:
            kb.ingest(f)
        assert name in str(err.value) and needle in str(err.value)
        assert err.value.page == page
        assert kb.store.logical_state() == before
