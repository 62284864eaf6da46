"""Scale declarations in captions: a declared "(in thousands)" counts, an amount the prose
quotes does not; a DataFrame's caption gives its amounts their scale."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ingest.captions import caption_scale, scale_declaration, scale_from_prose
from ingest.readers.frame import read_dataframe


@pytest.mark.parametrize(("text", "scale"), [
    ("Other assets consist of the following (in thousands):", "thousand"),
    ("Net sales by region were as follows (dollars in thousands):", "thousand"),
    ("(in millions, except per share data)", "million"),
    ("(United States Dollars in thousands, except per share data, unless otherwise stated)",
     "thousand"),
    ("All amounts are presented in thousands of euros.", "thousand"),
    ("Expressed in US $000's except share and per share amounts", "thousand"),
    ("Results of operations (in 000’s)", "thousand"),
    ("Revenue (€m)", "million"),
    ("(tabular amounts in billions)", "billion"),
    ("Net sales of $1.2 billion increased 58.5% from $757.3 million.", ""),
    ("User growth in millions of users was strong.", ""),
    ("We paid $5,000 in fees in 2019.", ""),
    ("", ""),
])
def test_caption_scale(text: str, scale: str) -> None:
    assert caption_scale(text) == scale


def test_declaration_phrase() -> None:
    assert scale_declaration("The table below (in millions):") == ("million", "(in millions)")


def test_dataframe_caption_becomes_the_title() -> None:
    df = pd.DataFrame({"item": ["Sales"], "2019": ["1,000"]})
    df.attrs["title"] = "Sales by year (in thousands)"
    (t,) = read_dataframe(df, "sales")
    assert t.title == "Sales by year (in thousands)"
    (t,) = read_dataframe(pd.DataFrame({"a": [1]}), "plain")
    assert t.title is None


def test_caption_scale_on_ingested_values(tmp_path) -> None:
    import hyrag

    df = pd.DataFrame({"item": ["Sales", "Margin %"], "2019": ["1,000", "12.5%"],
                       "2018": ["900", "11.0%"]})
    df.attrs["title"] = "Key figures — net sales growth of 11.1% (in thousands)"
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(df, name="figures")
        rows = dict(kb.store.con.execute(
            "SELECT value_text, scale FROM claims WHERE kind = 'cell'").fetchall())
    assert rows["1,000"] == "thousand" and rows["900"] == "thousand"
    assert rows["12.5%"] == "percent"


@pytest.mark.parametrize("melted", [True, False])
def test_a_row_labelled_percent_is_not_in_the_captions_scale(tmp_path, melted) -> None:
    """"Gross margin (%)" in a "$ million" table holds percentages: 22.9 percent, not 22.9
    million; the amounts beside it keep the caption's scale. Both for a table of periods
    (melted into claims by period) and for one of measures."""
    import hyrag

    cols = ["item", "2019", "2018"] if melted else ["item", "Group", "Retail"]
    df = pd.DataFrame([["Sales", "8,657", "8,244"], ["Gross margin (%)", "22.9", "23.1"],
                       ["EBIT to sales %", "5.5", "6.3"]], columns=cols)
    df.attrs["title"] = "Results ($ million)"
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(df, name="results")
        rows = dict(kb.store.con.execute(
            "SELECT value_text, scale FROM claims WHERE kind = 'cell'").fetchall())
    assert rows["8,657"] == "million" and rows["8,244"] == "million"
    assert rows["22.9"] == rows["23.1"] == rows["5.5"] == "percent"


def test_caption_added_on_reingest_is_a_new_version(tmp_path) -> None:
    """The caption is part of the frame's identity: adding "(in thousands)" to a frame already
    ingested re-scales its amounts instead of being reported unchanged."""
    import hyrag

    df = pd.DataFrame({"item": ["Sales"], "2019": ["1,000"], "2018": ["900"]})
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(df, name="figures")
        assert kb.ingest(df.copy(), name="figures").status == "unchanged"
        captioned = df.copy()
        captioned.attrs["title"] = "Key figures (in thousands)"
        assert kb.ingest(captioned, name="figures").status != "unchanged"
        rows = kb.store.con.execute(
            "SELECT DISTINCT scale FROM claims WHERE kind = 'cell' AND NOT superseded "
            "AND value_num IS NOT NULL").fetchall()
    assert rows == [("thousand",)]


# -- the scale the prose implies -----------------------------------------------------------------
@pytest.mark.parametrize(("cells", "prose", "scale"), [
    # 24,193 rounded as "$24.2 million" quotes it: the table is in thousands
    ([24193, 20402, 47625], ["Net income was $24.2 million in 2019 and $20.4 million in 2018."],
     "thousand"),
    ([1887.8, 1236.4], ["Net income rose to $1.9 billion."], "million"),
    ([24_193_000, 20_402_000], ["Net income was $24.2 million."], ""),  # units
    ([24193], ["Revenue grew 5% to a record."], None),  # no quoted amount
    ([24193], ["Net income was $24,193."], None),  # no scale word: says nothing
    ([5, 7], ["Capital spending was $5 million."], None),  # small cells match by chance
    ([24193, 24_150], ["It was $24.2 million; the other $24.2 billion."], None),  # a tie
])
def test_scale_from_prose(cells, prose, scale) -> None:
    assert scale_from_prose(cells, prose) == scale


def test_pdf_table_without_a_scale_takes_the_one_its_prose_implies(tmp_path) -> None:
    """A report table printed without "(in thousands)" whose page says "net income of $24.2
    million" beside a cell 24,193: its amounts are thousands, and the table's notes say the
    scale was inferred. A table that states its scale keeps it."""
    import importlib.util
    import sys

    from ingest.pdf import read_pdf

    docs = Path(__file__).resolve().parents[2] / "sample_data" / "docs"
    if "make_docs" not in sys.modules:
        spec = importlib.util.spec_from_file_location("make_docs", docs / "make_docs.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["make_docs"] = mod
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    md = sys.modules["make_docs"]
    doc = md.Document("Results", "Acme  |  Results", "Acme results")
    p = doc.new_page()
    p.para("Net income was $24.2 million in fiscal 2019, compared with $20.4 million in 2018.")
    p.table([["Line item", "2019", "2018"], ["Net income", "24,193", "20,402"],
             ["Cash from operations", "45,007", "45,082"]], [190, 70, 70])
    f = tmp_path / "results.pdf"
    f.write_bytes(doc.to_bytes())
    (table,), _ = read_pdf(f)
    assert table.title and "(in thousands)" in table.title
    assert any("inferred" in n for n in table.notes)

    import hyrag

    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(f)
        scales = {s for (s,) in kb.store.con.execute(
            "SELECT DISTINCT scale FROM claims WHERE kind = 'cell' AND value_num IS NOT NULL "
            "AND NOT superseded").fetchall()}
    assert scales == {"thousand"}
