"""Hostile and unlucky input at ingest (issue 22): bounds that end in a one-line error naming the
file with the store unchanged, engine names a user's table cannot take, the bytes hashed being
the bytes parsed, aggregates that do not depend on summation order, and a PDF whose only line
repeats on every page."""

from __future__ import annotations

import hashlib
import resource
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.xml.constants import SHEET_MAIN_NS

import hyrag
from hyrag.errors import IngestFailed

SHEET = "xl/worksheets/sheet1.xml"
NS = f'xmlns="{SHEET_MAIN_NS}"'  # the sheet XML's namespace (a name, never fetched)


def _workbook(path: Path, rows: list[list[object]]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


def _with_sheet_xml(path: Path, xml: bytes) -> Path:
    """The workbook at `path` with its first sheet's XML replaced (deflated, as Excel does)."""
    src = path.with_suffix(".src.xlsx")
    path.rename(src)
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = xml if info.filename == SHEET else zin.read(info.filename)
            zout.writestr(info.filename, data, compress_type=zipfile.ZIP_DEFLATED)
    src.unlink()
    return path


def _sheet(body: str, tail: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?><worksheet {NS}><sheetData>{body}'
            f"</sheetData>{tail}</worksheet>").encode()


def _kb(tmp_path: Path, **settings: object) -> hyrag.KnowledgeBase:
    kb = hyrag.open(tmp_path / "kb", settings=hyrag.Settings().with_(**settings))
    good = tmp_path / "good.csv"
    good.write_text("region,quarter,revenue\nNorth,2024Q1,10\nSouth,2024Q1,20\n")
    kb.ingest(good)  # a store with something in it: "unchanged" must mean something
    return kb


def _refused(kb: hyrag.KnowledgeBase, path: Path, setting: str) -> str:
    before = kb.store.logical_state()
    with pytest.raises(IngestFailed) as ei:
        kb.ingest(path)
    msg = str(ei.value)
    assert path.name in msg and setting in msg and "\n" not in msg
    assert kb.store.logical_state() == before
    return msg


# --- bounds ----------------------------------------------------------------------------------

def test_zip_bomb_member_is_refused_from_the_zip_directory(tmp_path: Path) -> None:
    """A sheet whose XML decompresses to 4 MB (a few KB in the file) under a 1 MB bound."""
    f = _workbook(tmp_path / "bomb.xlsx", [["a", "b"], [1, 2]])
    pad = "<!--" + " " * (4 << 20) + "-->"
    _with_sheet_xml(f, _sheet('<row r="1"><c r="A1"><v>1</v></c></row>' + pad))
    assert f.stat().st_size < 100_000
    with _kb(tmp_path, ingest_max_member_bytes=1 << 20) as kb:
        msg = _refused(kb, f, "ingest_max_member_bytes")
        assert "xl/worksheets/sheet1.xml" in msg


def test_oversize_inline_cell_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A 1 GiB-style inline string, scaled down: 200,000 characters under a 1,000 bound."""
    f = _workbook(tmp_path / "longcell.xlsx", [["a"], [1]])
    big = "x" * 200_000
    _with_sheet_xml(f, _sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c>'
        '<c r="B1" t="inlineStr"><is><t>value</t></is></c></row>'
        f'<row r="2"><c r="A2" t="inlineStr"><is><t>{big}</t></is></c><c r="B2"><v>1</v></c>'
        "</row>"))
    with _kb(tmp_path, ingest_max_cell_chars=1000) as kb:
        _refused(kb, f, "ingest_max_cell_chars")


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_cell_longer_than_the_bound_is_refused_exactly(tmp_path: Path, suffix: str) -> None:
    """1,500 characters under a 1,000 bound: below the streamed scan's memory bound, caught on
    the value read, in a workbook's shared strings and in a CSV alike."""
    rows = [["name", "amount"], ["y" * 1500, 1], ["short", 2]]
    if suffix == ".xlsx":
        f = _workbook(tmp_path / "long.xlsx", rows)
    else:
        f = tmp_path / "long.csv"
        f.write_text("\n".join(",".join(map(str, r)) for r in rows) + "\n")
    with _kb(tmp_path, ingest_max_cell_chars=1000) as kb:
        msg = _refused(kb, f, "ingest_max_cell_chars")
        assert "row 2" in msg
    with _kb(tmp_path / "ok", ingest_max_cell_chars=2000) as kb:
        assert kb.ingest(f).status == "ingested"


def test_too_many_cells_in_a_sheet(tmp_path: Path) -> None:
    cells = "".join(
        f'<row r="{r}">' + "".join(f'<c r="{chr(65 + c)}{r}"><v>{r * c}</v></c>'
                                   for c in range(20)) + "</row>"
        for r in range(1, 201))
    f = _with_sheet_xml(_workbook(tmp_path / "cells.xlsx", [["a"]]), _sheet(cells))
    with _kb(tmp_path, ingest_max_sheet_cells=1000) as kb:
        _refused(kb, f, "ingest_max_sheet_cells")


def test_sparse_sheet_counts_the_grid_it_spans(tmp_path: Path) -> None:
    """Two stored cells, A1 and T5000: openpyxl would yield 5,000 rows, each padded."""
    f = _with_sheet_xml(_workbook(tmp_path / "sparse.xlsx", [["a"]]), _sheet(
        '<row r="1"><c r="A1"><v>1</v></c></row><row r="5000"><c r="T5000"><v>2</v></c></row>'))
    with _kb(tmp_path, ingest_max_sheet_cells=1000) as kb:
        _refused(kb, f, "ingest_max_sheet_cells")


def _wide_rows(n: int) -> list[list[object]]:
    return [["name", *(f"col{i}" for i in range(1, n))],
            *[[f"row{r}", *(r * 1000 + i for i in range(1, n))] for r in range(3)]]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_16384_columns_end_in_a_clear_error_quickly(tmp_path: Path, suffix: str) -> None:
    """Excel's widest sheet: refused in seconds by the column bound (the typed staging of that
    many columns takes minutes), with the store unchanged."""
    rows = _wide_rows(16_384)
    if suffix == ".xlsx":
        wb = openpyxl.Workbook(write_only=True)
        ws = wb.create_sheet()
        for r in rows:
            ws.append(r)
        f = tmp_path / "wide.xlsx"
        wb.save(f)
    else:
        f = tmp_path / "wide.csv"
        f.write_text("\n".join(",".join(map(str, r)) for r in rows) + "\n")
    with _kb(tmp_path) as kb:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        msg = _refused(kb, f, "ingest_max_table_columns")
        assert time.perf_counter() - t0 < 30
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 500 * 1024  # KiB
        assert "16,384 columns" in msg


def test_wide_table_claims_are_written_in_linear_time(tmp_path: Path) -> None:
    """1,000 columns (one SELECT per column took ~15 ms each, a union of them minutes)."""
    f = tmp_path / "wide1000.csv"
    f.write_text("\n".join(",".join(map(str, r)) for r in _wide_rows(1000)) + "\n")
    with hyrag.open(tmp_path / "kb") as kb:
        t0 = time.perf_counter()
        report = kb.ingest(f)
        assert time.perf_counter() - t0 < 60
        assert report.claims == 3 * 999
        got = kb.store.con.execute(
            "SELECT text, cell, value_num FROM claims WHERE kind = 'cell' AND cell = 'ALL3'"
        ).fetchall()
        assert got == [("wide1000 row1: col999 was 1999.", "ALL3", 1999.0)]


def test_wide_path_writes_the_claims_of_the_per_column_path(tmp_path: Path, monkeypatch) -> None:
    """The long form and the per-column statements give the same ids, text and values."""
    from hyrag import claimsql

    f = tmp_path / "mixed.csv"
    f.write_text("region,quarter,revenue,units,status\n"
                 "North,2024Q1,\"$1.2m\",10,open\nSouth,2024Q2,\"1,234.50\",,closed\n"
                 "East,2024Q3,12%,7,\n")
    cols = "claim_id, item_id, entity, attribute, value_text, value_num, scale, unit, " \
           "value_base, time_key, period_start, text, locator, row_num, column_name, cell"

    def claims(folder: str) -> list[tuple]:
        with hyrag.open(tmp_path / folder) as kb:
            kb.ingest(f)
            return kb.store.con.execute(
                f"SELECT {cols} FROM claims WHERE kind = 'cell' ORDER BY claim_id").fetchall()

    narrow = claims("narrow")
    monkeypatch.setattr(claimsql, "WIDE_TABLE_COLUMNS", 0)
    assert claims("wide") == narrow and len(narrow) == 7


# --- integrity -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["hyrag_buckets", "hyrag_stage", "schema_evolution"])
def test_a_table_named_like_an_engine_table_is_kept(tmp_path: Path, name: str) -> None:
    f = tmp_path / f"{name}.csv"
    f.write_text("sku,price\nA-1,10\nA-2,20\n")
    dated = tmp_path / "dated.csv"
    dated.write_text("region,quarter,revenue\nNorth,2024Q1,10\nNorth,2024Q2,20\n")
    with hyrag.open(tmp_path / "kb") as kb:
        (table,) = kb.ingest(f).tables
        assert table == f"t_{name}"
        kb.ingest(dated)  # its buckets and staging must not touch the user's table
        assert kb.sql(f"SELECT sku, price FROM {table} ORDER BY sku").rows == [
            ("A-1", 10.0), ("A-2", 20.0)]
        listed = kb.store.con.execute("SELECT table_name FROM kb_tables ORDER BY 1").fetchall()
        assert (table,) in listed
        cols = kb.store.con.execute(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'main' "
            "AND table_name = 'schema_evolution' AND column_name = 'failures'").fetchone()[0]
        assert cols == 1  # the engine's own table is the engine's


def test_file_rewritten_during_ingest_is_stored_as_the_bytes_read(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """A writer replaces the file between the hash and the parse: the store holds the values of
    the bytes whose sha256 it records, and those bytes alone."""
    from hyrag import ingestion

    f = tmp_path / "prices.csv"
    first = b"sku,price\nA-1,10\nA-2,20\n"
    f.write_bytes(first)
    real = ingestion.parse_file

    def racing_parse(path, settings, **kw):  # type: ignore[no-untyped-def]
        f.write_bytes(b"sku,price\nA-1,99\nA-2,98\n")  # the concurrent writer
        return real(path, settings, **kw)

    monkeypatch.setattr(ingestion, "parse_file", racing_parse)
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(f)
        sha = kb.store.con.execute("SELECT sha256 FROM sources").fetchone()[0]
        prices = kb.sql("SELECT price FROM prices ORDER BY sku").rows
    assert sha == hashlib.sha256(first).hexdigest()
    assert prices == [(10.0,), (20.0,)]


def test_aggregates_do_not_depend_on_summation_order(tmp_path: Path) -> None:
    """0.1 + 0.2 + 0.3 is 0.6000000000000001 in one order and 0.6 in another; the same rows
    in two orders give the same aggregate claims, equal to the exact sum."""
    rows = ["North,2024-01-15,0.1", "North,2024-02-15,0.2", "North,2024-03-15,0.3",
            "North,2024-01-20,1e10", "North,2024-02-20,-1e10"]
    got = []
    for i, order in enumerate((rows, rows[::-1])):
        f = tmp_path / f"v{i}" / "ledger.csv"
        f.parent.mkdir()
        f.write_text("region,date,amount\n" + "\n".join(order) + "\n")
        with hyrag.open(tmp_path / f"kb{i}") as kb:
            kb.ingest(f)
            got.append(kb.store.con.execute(
                "SELECT attribute, time_key, value_num, value_text, value_base, text "
                "FROM claims WHERE kind = 'aggregate' ORDER BY attribute, time_key").fetchall())
    assert got[0] == got[1]
    totals = {r[1]: r for r in got[0] if r[0] == "total amount"}
    assert totals["2024Q1"][2:5] == (0.6, "0.60", 0.6)


# --- PDF -------------------------------------------------------------------------------------

def _pdf(pages: list[str]) -> bytes:
    """A Letter PDF, one Helvetica line per page at the same place near the top."""
    n = len(pages)
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(n))
            + b"] /Count %d >>" % n,
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for i, text in enumerate(pages):
        stream = b"BT /F1 11 Tf 72 750 Td (" + text.encode() + b") Tj ET"
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
                    b"<< /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i))
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def test_pdf_whose_only_line_repeats_on_every_page_has_text(tmp_path: Path) -> None:
    f = tmp_path / "monthly.pdf"
    f.write_bytes(_pdf([f"Northgate revenue in 2024 was {v} million." for v in (12, 14, 17)]))
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(f)
        assert report.status == "ingested"
        texts = [r[0] for r in kb.store.con.execute(
            "SELECT text FROM claims WHERE kind = 'text' ORDER BY page").fetchall()]
        assert any("14" in t for t in texts) and len(texts) >= 3
