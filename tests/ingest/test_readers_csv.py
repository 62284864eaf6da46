"""CSV / TSV / delimited .txt reader: encodings, delimiters, ragged rows, locators, errors."""

from __future__ import annotations

import time

import pytest

from ingest.errors import (
    EmptyFileError,
    IngestError,
    RaggedRowError,
    UnreadableFileError,
    UnsupportedFormatError,
)
from ingest.readers import read_path
from ingest.readers.csv import sniff_delimiter


def write(tmp_path, name, text, encoding="utf-8"):
    p = tmp_path / name
    p.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return p


def test_basic_csv_locators_and_name(tmp_path):
    text = "region,product,revenue\nNorth,Widget,10\nSouth,Gadget,12\n"
    p = write(tmp_path, "Sales 2024.csv", text)
    [t] = read_path(p)
    assert t.name == "sales_2024"
    assert t.source == str(p)
    assert t.header == ("region", "product", "revenue")
    assert t.rows == (("North", "Widget", "10"), ("South", "Gadget", "12"))
    assert t.row_locs == (2, 3)
    assert t.cell_address(1, 2) == "C3"
    assert "encoding utf-8" in t.notes and "delimiter comma" in t.notes


def test_cells_stay_strings_and_blanks_are_none(tmp_path):
    p = write(tmp_path, "a.csv", 'id,amount,note\n1," 1,200.50 ",\n2,(300),  \n')
    [t] = read_path(p)
    assert t.rows == (("1", "1,200.50", None), ("2", "(300)", None))


def test_quoted_fields_with_delimiters_and_newlines_keep_physical_lines(tmp_path):
    text = 'name,comment,amount\n"Acme, Inc.","line one\nline two",5\nBeta,plain,7\n'
    [t] = read_path(write(tmp_path, "q.csv", text))
    assert t.rows[0] == ("Acme, Inc.", "line one\nline two", "5")
    assert t.row_locs == (2, 4)  # Beta is on line 4 in an editor


@pytest.mark.parametrize(
    ("delim", "name"), [(",", "comma"), (";", "semicolon"), ("\t", "tab"), ("|", "pipe")]
)
def test_delimiter_sniffing(tmp_path, delim, name):
    rows = [["Region", "Revenue", "Cost"], ["North", "1.5", "2"], ["South", "3", "4"]]
    text = "\n".join(delim.join(r) for r in rows) + "\n"
    [t] = read_path(write(tmp_path, "d.csv", text))
    assert t.header == ("Region", "Revenue", "Cost")
    assert t.rows[1] == ("South", "3", "4")
    assert f"delimiter {name}" in t.notes


def test_semicolon_file_with_decimal_commas(tmp_path):
    text = "Stadt;Umsatz;Kosten\nBerlin;1,5;2,25\nHamburg;3,75;4,5\nKöln;5,0;6,1\n"
    [t] = read_path(write(tmp_path, "de.csv", text))
    assert t.header == ("Stadt", "Umsatz", "Kosten")
    assert t.rows[0] == ("Berlin", "1,5", "2,25")


def test_sniff_returns_none_for_prose():
    assert sniff_delimiter("Just a sentence\nAnother sentence here\n")[0] is None


def test_cp1252_names_are_decoded(tmp_path):
    text = "supplier,city,amount\nMøller A/S,Århus,€ 1.200\nCafé Zürich,Genève,300\n"
    [t] = read_path(write(tmp_path, "s.csv", text, "cp1252"))
    assert t.rows[0] == ("Møller A/S", "Århus", "€ 1.200")
    assert t.rows[1][0] == "Café Zürich"
    assert "encoding cp1252" in t.notes


def test_utf8_bom_is_not_part_of_the_first_header(tmp_path):
    p = write(tmp_path, "b.csv", "\ufeffid,name\n1,Malmö\n")
    [t] = read_path(p)
    assert t.header == ("id", "name")
    assert t.rows == (("1", "Malmö"),)
    assert "encoding utf-8-sig" in t.notes


def test_utf16_with_bom(tmp_path):
    p = write(tmp_path, "u.txt", "id\tname\n1\tÅse\n", "utf-16")
    [t] = read_path(p)
    assert t.rows == (("1", "Åse"),)


def test_row_with_more_fields_is_an_error_naming_file_line_and_counts(tmp_path):
    p = write(tmp_path, "orders.csv", "id,item,qty\n1,a,2\n2,b,3\n3,c,4,extra\n")
    with pytest.raises(RaggedRowError) as ei:
        read_path(p)
    e = ei.value
    assert isinstance(e, UnreadableFileError)
    assert e.row == 4 and e.found == 4 and e.expected == 3
    assert "orders.csv" in str(e) and "line 4" in str(e)


def test_backslash_escaped_quotes_are_read_as_quotes(tmp_path):
    # read the RFC 4180 way, the comma inside the escaped quote splits the field: ragged
    text = 'Year,Title,Notes\n2001,"The \\"Big, Bad\\" One",Remake\n2003,Plain,"a, b"\n'
    (t,) = read_path(write(tmp_path, "films.csv", text))
    assert list(t.header) == ["Year", "Title", "Notes"]
    assert list(t.rows[0]) == ["2001", 'The "Big, Bad" One', "Remake"]
    assert t.rows[1][2] == "a, b"
    assert any("backslash" in n for n in t.notes)


def test_backslash_retry_keeps_the_first_error_when_rows_stay_ragged(tmp_path):
    text = 'a,b,c\n1,2,3\n4,"x \\" y",5,6,7\n8,9,10\n'
    with pytest.raises(RaggedRowError) as ei:
        read_path(write(tmp_path, "bad.csv", text))
    assert ei.value.row == 3 and "bad.csv" in str(ei.value)


def test_trailing_empty_fields_are_not_ragged(tmp_path):
    [t] = read_path(write(tmp_path, "t.csv", "id,item\n1,a,,\n2,b\n"))
    assert t.rows == (("1", "a"), ("2", "b"))


def test_short_rows_are_padded_and_noted(tmp_path):
    text = "a,b,c,d,e,f\n" + "1,2,3,4,5,6\n" * 15 + "1,2,3,4\n"
    [t] = read_path(write(tmp_path, "s.csv", text))
    assert t.rows[-1] == ("1", "2", "3", "4", None, None)
    assert t.row_locs[-1] == 17
    assert "line 17: 4 fields, expected 6; padded" in t.notes


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf", b",,,\n,,\n"])
def test_empty_file(tmp_path, content):
    p = write(tmp_path, "empty.csv", content)
    with pytest.raises(EmptyFileError, match="empty.csv"):
        read_path(p)


def test_header_only_file_is_a_table_without_rows(tmp_path):
    [t] = read_path(write(tmp_path, "h.csv", "id,name,amount\n"))
    assert t.header == ("id", "name", "amount")
    assert t.rows == () and t.row_locs == ()


def test_binary_garbage_is_unreadable(tmp_path):
    p = write(tmp_path, "bin.csv", b"PK\x03\x04\x00\x00garbage\x00\x01\x02")
    with pytest.raises(UnreadableFileError, match="bin.csv"):
        read_path(p)


def test_title_line_captured_quoted_and_unquoted(tmp_path):
    body = "Region,Revenue,Cost,Margin\nNorth,10,5,50%\n"
    [a] = read_path(write(tmp_path, "a.csv", '"Regional report, USD thousands"\n' + body))
    [b] = read_path(write(tmp_path, "b.csv", "Regional report, USD thousands\n" + body))
    for t in (a, b):
        assert t.title == "Regional report, USD thousands"
        assert t.header == ("Region", "Revenue", "Cost", "Margin")
        assert t.row_locs == (3,)


def test_repeated_header_skipped_and_lookalike_kept(tmp_path):
    text = (
        "Region,Product,Revenue\n"
        "North,Widget,10\n"
        "Region,Product,Revenue\n"
        "Region total,Widget revenue,22\n"
    )
    [t] = read_path(write(tmp_path, "r.csv", text))
    assert t.row_locs == (2, 4)
    assert t.rows[1][0] == "Region total"
    assert any(n.startswith("line 3: repeated header skipped") for n in t.notes)


def test_two_tables_separated_by_blank_line(tmp_path):
    text = "Region,Revenue\nNorth,10\n\nProduct,Units,Price\nA,5,1.5\n"
    a, b = read_path(write(tmp_path, "multi.csv", text))
    assert (a.name, b.name) == ("multi", "multi_2")
    assert (a.table_index, b.table_index) == (0, 1)
    assert b.header == ("Product", "Units", "Price") and b.row_locs == (5,)


def test_tsv_prefers_tab(tmp_path):
    [t] = read_path(write(tmp_path, "x.tsv", "name\tnote\nA\tx, y\nB\tz, w\n"))
    assert t.header == ("name", "note") and t.rows[0] == ("A", "x, y")


def test_prose_txt_is_not_a_table(tmp_path):
    with pytest.raises(UnsupportedFormatError, match="notes.txt"):
        read_path(write(tmp_path, "notes.txt", "This is a memo.\nIt has no columns.\n"))


def test_unsupported_extension(tmp_path):
    with pytest.raises(UnsupportedFormatError, match="data.numbers"):
        read_path(write(tmp_path, "data.numbers", b"x"))


def test_missing_file_is_an_ingest_error(tmp_path):
    with pytest.raises(IngestError, match="nope.csv"):
        read_path(tmp_path / "nope.csv")


def test_unbalanced_quote_is_reported(tmp_path):
    text = 'id,name\n1,"open quote\n' + "2,x\n" * 200
    with pytest.raises(UnreadableFileError, match="line 2"):
        read_path(write(tmp_path, "uq.csv", text))


def test_100k_by_12_reads_in_seconds(tmp_path):
    header = ",".join(f"col{j}" for j in range(12))
    line = "North,Widget,2024-01-31,12.5,\"1,200\",x,y,z,1,2,3,4\n"
    p = write(tmp_path, "big.csv", header + "\n" + line * 100_000)
    t0 = time.perf_counter()
    [t] = read_path(p)
    elapsed = time.perf_counter() - t0
    assert len(t.rows) == 100_000 and t.row_locs[-1] == 100_001
    assert elapsed < 20  # ~1.7 s on an idle dev machine; loose for loaded CI


def test_a_csv_of_tables_stacked_per_period_answers_for_each_period(tmp_path) -> None:
    """The CSV of a report's one-table-per-period layout ("As of December 31, 2019" over its
    block, then "As of December 31, 2018" over the same columns): each block's rows are read in
    its period — each claim keeps its block's caption as its section, which the readers date
    — so a 2018 share uses the 2018 block's figures, and a line's two periods are a change,
    not two sources disagreeing."""
    import csv

    import hyrag
    from tests.ingest.test_headers import STACKED

    path = tmp_path / "investments.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([[c or "" for c in r] for r in STACKED])
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(path)
        sections = dict(kb.store.con.execute(
            "SELECT value_text, json_extract_string(locator, '$.section') FROM claims "
            "WHERE kind = 'cell' AND attribute = 'Amortized Cost'").fetchall())
        assert sections["73,798"] == "As of December 31, 2018"
        assert sections["129,499"] == "As of December 31, 2019"
        a = kb.ask("What percentage of the total amortized cost is made up of government "
                   "bonds in 2018?")
        b = kb.ask("What is the change in the fair value of government bonds from 2018 to "
                   "2019?")
    assert a.decision == "answer" and "43.15" in a.text, a.text
    assert b.decision == "answer" and "38,269" in b.text, b.text


def test_a_csv_titled_with_one_year_dates_its_quarter_rows(tmp_path) -> None:
    """A title line naming the table's one year ("Common Stock Price Range 2018") above quarter
    rows: each row is that year's quarter, so "the average quarterly low in 2018" is the mean
    of the four, and a question about 2019 finds nothing to answer with."""
    import hyrag

    path = tmp_path / "prices.csv"
    path.write_text("Common Stock Price Range 2018\n,Low,High\nFirst Quarter,$ 5.99,$ 8.40\n"
                    "Second Quarter,$ 4.79,$ 6.48\nThird Quarter,$ 2.66,$ 4.63\n"
                    "Fourth Quarter,$ 1.88,$ 3.39\n")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(path)
        a = kb.ask("What is the average quarterly low price in 2018?")
        b = kb.ask("What is the average quarterly low price in 2019?")
    assert a.decision == "answer" and "3.83" in a.text, a.text
    assert b.decision != "answer", b.text
