"""Encodings a user's CSV arrives in, through `kb.ingest(path)`: the names come out right, and
the ingest report says which encoding was read and how sure the detector was."""

from __future__ import annotations

import pytest

import hyrag
from hyrag.errors import IngestFailed
from ingest.text import read_text_file

# Company, city, revenue: enough rows that the detector sees the file's characters, as a real
# export would have them.
_TW = [("台積電", "新竹", "1234"), ("鴻海精密", "新北", "5678"), ("聯發科技", "新竹", "910"),
       ("中華電信", "台北", "455"), ("國泰金控", "台北", "321"), ("統一企業", "台南", "87")]
_CN = [("中国石油", "北京", "1234"), ("贵州茅台", "贵阳", "5678"), ("招商银行", "深圳", "910"),
       ("中国平安", "深圳", "455"), ("工商银行", "北京", "321"), ("万科企业", "深圳", "87")]
_JP = [("トヨタ自動車", "愛知", "1234"), ("任天堂", "京都", "5678"), ("ソニーグループ", "東京", "910"),
       ("日立製作所", "東京", "455"), ("三菱商事", "東京", "321"), ("京セラ", "京都", "87")]


def _csv(rows: list[tuple[str, str, str]], header: str = "company,city,revenue") -> str:
    return header + "\n" + "".join(",".join(r) + "\n" for r in rows)


def _ingest(tmp_path, name: str, data: bytes):
    p = tmp_path / name
    p.write_bytes(data)
    kb = hyrag.open(tmp_path / "kb")
    report = kb.ingest(p)
    return kb, report


def _claims(kb) -> dict[tuple[str, str], float]:
    rows = kb.store.con.execute(
        "SELECT entity, attribute, value_num FROM claims WHERE kind = 'cell' "
        "AND value_num IS NOT NULL").fetchall()
    return {(e, a): v for e, a, v in rows}


@pytest.mark.parametrize(
    ("rows", "codec", "names"),
    [
        (_TW, "big5", ("big5", "cp950")),
        (_CN, "gbk", ("gbk", "gb18030", "gb2312")),
        (_JP, "shift_jis", ("shift_jis", "cp932")),
    ],
)
def test_east_asian_csv_ingests_with_the_right_names(tmp_path, rows, codec, names):
    kb, report = _ingest(tmp_path, f"{codec}.csv", _csv(rows).encode(codec))
    got = _claims(kb)
    for company, _, revenue in rows:
        assert got[(company, "revenue")] == float(revenue)
    cities = {r[0] for r in kb.sql(f"SELECT city FROM {codec} ORDER BY city").rows}
    assert cities == {r[1] for r in rows}
    note = next(n for n in report.notes if "charset-normalizer" in n)
    assert any(f"encoding {n} " in note for n in names), note
    assert "confidence" in note


@pytest.mark.parametrize(("codec", "bom"), [("utf-16-le", False), ("utf-16-le", True),
                                            ("utf-16-be", False)])
def test_utf16_csv_with_and_without_bom_is_text_not_binary(tmp_path, codec, bom):
    data = _csv(_JP).encode(codec)
    if bom:
        data = "\ufeff".encode(codec) + data
    kb, report = _ingest(tmp_path, "u16.csv", data)
    got = _claims(kb)
    assert got[("トヨタ自動車", "revenue")] == 1234.0
    assert got[("京セラ", "revenue")] == 87.0
    assert any(n.startswith("encoding utf-16") for n in report.notes), report.notes


def test_cp1252_file_keeps_its_accents_and_says_the_guess_is_uncertain(tmp_path):
    """Western code pages read short files equally well; the tie goes to cp1252 (Excel's),
    and the note says the guess could be wrong."""
    text = _csv([("Møller A/S", "Århus", "12"), ("Café Zürich", "Genève", "30"),
                 ("Société Générale", "Lyon", "7")])
    kb, report = _ingest(tmp_path, "s.csv", text.encode("cp1252"))
    got = _claims(kb)
    assert got[("Møller A/S", "revenue")] == 12.0 and got[("Café Zürich", "revenue")] == 30.0
    assert "encoding cp1252" in report.notes
    guess = next(n for n in report.notes if "charset-normalizer" in n)
    assert "low confidence" in guess


def test_plain_utf8_needs_no_guess(tmp_path):
    kb, report = _ingest(tmp_path, "u8.csv", _csv(_TW).encode("utf-8"))
    assert _claims(kb)[("台積電", "revenue")] == 1234.0
    assert "encoding utf-8" in report.notes
    assert not any("charset-normalizer" in n for n in report.notes)


def test_nul_bytes_that_are_no_utf16_are_still_refused(tmp_path):
    p = tmp_path / "bin.csv"
    p.write_bytes(b"\x00\x01\x02garbage\x00" * 50)
    with hyrag.open(tmp_path / "kb") as kb, pytest.raises(IngestFailed, match="bin.csv.*binary"):
        kb.ingest(p)


def test_big5_prose_file_is_read_as_big5(tmp_path):
    """Prose files share the detector: a Big5 report's sentence keeps its company name."""
    text = ("台積電二零二三年營收為新台幣二兆一千六百億元，較前一年成長百分之九。\n\n"
            "鴻海精密工業的營收則為六兆一千六百億元。公司預計明年持續投資先進製程。\n")
    p = tmp_path / "report.txt"
    p.write_bytes(text.encode("big5"))
    passages = read_text_file(p)
    assert passages[0].text.startswith("台積電二零二三年")
    assert passages[1].text.startswith("鴻海精密工業")
