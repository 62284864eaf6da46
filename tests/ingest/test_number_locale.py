"""Decimal and thousands separators decided per column from that column's cells, and the cells
of extracted financial-report tables ("1.51% ( 1.51 % )", "( 32 )", "$ 5735")."""

from __future__ import annotations

import pytest

import hyrag
from ingest.numbers import column_decimal_mark, decimal_vote, parse_number


def _ingest(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    kb = hyrag.open(tmp_path / "kb")
    return kb, kb.ingest(p)


def _claims(kb) -> dict[tuple[str, str], tuple[str, float]]:
    rows = kb.store.con.execute(
        "SELECT entity, attribute, value_text, value_num FROM claims WHERE kind = 'cell' "
        "AND value_num IS NOT NULL").fetchall()
    return {(e, a): (t, v) for e, a, t, v in rows}


# --- the per-column rule -------------------------------------------------------------------


@pytest.mark.parametrize(("cell", "mark"), [
    ("1.234,56", ","), ("1,234.56", "."), ("3,5", ","), ("2.25", "."), ("0.125", "."),
    ("0,125", ","), ("12047,5", ","), ("1.234.567", ","), ("1,234,567", "."),
    ("1 234,56", ","), ("€ 1.200,50", ","), ("12,5 %", ","),
    ("1.613", None), ("1,613", None), ("12.047", None), ("412", None), ("2024.03.01", None),
    ("Berlin", None), (None, None),
])
def test_one_cell_proves_a_mark_only_where_it_reads_one_way(cell, mark):
    assert decimal_vote(cell) == mark


def test_column_mark_comes_from_its_own_cells_with_the_fallback_only_without_proof():
    assert column_decimal_mark(["1.613", "2.830", "12.047"]).decided is False
    assert column_decimal_mark(["1.613", "2.830", "12.047"], ",").mark == ","
    assert column_decimal_mark(["1.613", "2.830", "12.047"]).mark == "."
    got = column_decimal_mark(["1.613", "3,5"], fallback=".")
    assert (got.mark, got.decided, got.example) == (",", True, "3,5")
    # a comma file's column of "1.5" and "2.25" stays decimal whatever the fallback says
    assert column_decimal_mark(["1.5", "2.25", "1.613"], fallback=",").mark == "."


@pytest.mark.parametrize(("cell", "value"), [
    ("1.613", 1613.0), ("12.047", 12047.0), ("1.234,56", 1234.56), ("3,5", 3.5),
    ("1 234,56", 1234.56), ("1\u00a0234,56", 1234.56), ("1\u202f234,56", 1234.56),
    ("1.234.567", 1234567.0), ("-1.234,5", -1234.5), ("(1.234,50)", -1234.5),
    ("€ 1.200,50", 1200.5), ("12,5 %", 12.5), ("1,613", 1.613),
    ("1,5% ( 1,5 % )", 1.5), ("1.234 ( 1.234 )", 1234.0),
])
def test_parse_number_with_a_decimal_comma(cell, value):
    assert parse_number(cell, decimal=",").value == value


def test_parse_number_default_is_unchanged():
    assert parse_number("1.613").value == 1.613
    assert parse_number("1,613").value == 1613.0
    with pytest.raises(ValueError):
        parse_number("1", decimal=";")


# --- through kb.ingest ----------------------------------------------------------------------


def test_german_semicolon_file_reads_grouped_thousands_and_decimal_commas(tmp_path):
    text = ("Filiale;Mitarbeiter;Umsatz;Marge\n"
            "Berlin;1.613;1.234,56;3,5\n"
            "Hamburg;2.830;987,10;12,25\n"
            "München;12.047;12.345.678,90;7\n")
    kb, report = _ingest(tmp_path, "filialen.csv", text)
    got = _claims(kb)
    assert got[("Berlin", "Mitarbeiter")] == ("1.613", 1613.0)
    assert got[("München", "Mitarbeiter")] == ("12.047", 12047.0)
    assert got[("Berlin", "Umsatz")] == ("1.234,56", 1234.56)
    assert got[("München", "Umsatz")][1] == 12345678.9
    assert got[("Berlin", "Marge")] == ("3,5", 3.5)
    rows = kb.sql("SELECT filiale, mitarbeiter, umsatz, marge FROM filialen ORDER BY filiale").rows
    assert [tuple(r) for r in rows] == [("Berlin", 1613.0, 1234.56, 3.5),
                                        ("Hamburg", 2830.0, 987.1, 12.25),
                                        ("München", 12047.0, 12345678.9, 7.0)]
    assert any("'Umsatz'" in n and "decimal mark" in n for n in report.notes)


def test_semicolon_column_of_three_digit_groups_alone_is_thousands(tmp_path):
    """No cell proves a mark; the ';' file (what spreadsheets write where ',' is the decimal
    mark) decides, and the report says so."""
    kb, report = _ingest(tmp_path, "staff.csv",
                         "Stadt;Mitarbeiter\nBerlin;1.613\nHamburg;2.830\nKöln;12.047\n")
    assert kb.sql("SELECT sum(mitarbeiter) FROM staff").rows[0][0] == 1613 + 2830 + 12047
    assert any("semicolon-delimited" in n for n in report.notes)


def test_french_spaces_group_thousands(tmp_path):
    text = ("Région;Chiffre d'affaires;Effectif\n"
            "Île-de-France;1 234,56;1\u00a0200\n"
            "Bretagne;98 765,4;850\n"
            "Normandie;3\u202f210,05;2\u202f400\n")
    kb, _ = _ingest(tmp_path, "regions.csv", text)
    got = _claims(kb)
    assert got[("Île-de-France", "Chiffre d'affaires")][1] == 1234.56
    assert got[("Normandie", "Chiffre d'affaires")][1] == 3210.05
    assert got[("Île-de-France", "Effectif")][1] == 1200.0
    rows = kb.sql("SELECT * FROM regions ORDER BY effectif").rows
    assert [tuple(r) for r in rows] == [("Bretagne", 98765.4, 850.0),
                                        ("Île-de-France", 1234.56, 1200.0),
                                        ("Normandie", 3210.05, 2400.0)]


def test_columns_of_one_file_are_decided_apart(tmp_path):
    """One column proves '.', the next ','; neither borrows the other's."""
    text = "Artikel;Gewicht;Preis\nA;1.5;1.234,50\nB;2.25;99,90\nC;1.613;5\n"
    kb, _ = _ingest(tmp_path, "mixed.csv", text)
    rows = kb.sql("SELECT artikel, gewicht, preis FROM mixed ORDER BY artikel").rows
    assert [tuple(r) for r in rows] == [("A", 1.5, 1234.5), ("B", 2.25, 99.9), ("C", 1.613, 5.0)]


def test_comma_file_decimals_stay_decimals(tmp_path):
    kb, report = _ingest(tmp_path, "prices.csv", "item,price\na,1.5\nb,2.25\nc,1.613\n")
    rows = kb.sql("SELECT item, price FROM prices ORDER BY item").rows
    assert [tuple(r) for r in rows] == [("a", 1.5), ("b", 2.25), ("c", 1.613)]
    assert not any("decimal mark" in n for n in report.notes)


def test_wide_german_statement_melts_with_its_marks(tmp_path):
    text = "Position;2023;2024\nUmsatz;1.613;2.830\nKosten;1.234,5;987,25\n"
    kb, _ = _ingest(tmp_path, "guv.csv", text)
    got = {(e, a, t): v for e, a, t, v in kb.store.con.execute(
        "SELECT entity, attribute, time_key, value_num FROM claims WHERE kind = 'cell' "
        "AND value_num IS NOT NULL").fetchall()}
    values = {(a, t): v for (_, a, t), v in got.items()}
    assert values[("Umsatz", "2023")] == 1613.0 and values[("Umsatz", "2024")] == 2830.0
    assert values[("Kosten", "2023")] == 1234.5 and values[("Kosten", "2024")] == 987.25


# --- cells of extracted financial-report tables --------------------------------------------


@pytest.mark.parametrize(("cell", "value", "scale", "unit"), [
    ("1.51% ( 1.51 % )", 1.51, "percent", "%"),
    ("-0.3% ( -0.3 % )", -0.3, "percent", "%"),
    ("( 32 )", -32.0, "", ""),
    ("$ 5735", 5735.0, "", "USD"),
    ("$ ( 1,234 )", -1234.0, "", "USD"),
    ("$ 5735 ( 5735 )", 5735.0, "", "USD"),
])
def test_report_table_cells(cell, value, scale, unit):
    p = parse_number(cell)
    assert (p.value, p.scale, p.unit) == (value, scale, unit)


@pytest.mark.parametrize("cell", ["1,234 (12)", "1.5% ( 2.5 % )", "12 ( 3 )"])
def test_a_bracketed_second_figure_is_no_repeat(cell):
    assert parse_number(cell) is None


def test_report_table_csv_ingests_those_cells(tmp_path):
    text = ("item,2019,2018\n"
            "net revenue,$ 5735,$ 5210\n"
            "impairment,( 32 ),\"$ ( 1,234 )\"\n"
            "effective rate,1.51% ( 1.51 % ),2.0% ( 2.0 % )\n")
    kb, _ = _ingest(tmp_path, "tenk.csv", text)
    got = {(a, t): (v, s, u) for a, t, v, s, u in kb.store.con.execute(
        "SELECT attribute, time_key, value_num, scale, unit FROM claims WHERE kind = 'cell' "
        "AND value_num IS NOT NULL").fetchall()}
    assert got[("net revenue", "2019")] == (5735.0, "", "USD")
    assert got[("impairment", "2019")][0] == -32.0
    assert got[("impairment", "2018")] == (-1234.0, "", "USD")
    assert got[("effective rate", "2019")] == (1.51, "percent", "%")
