"""Scale declarations in captions: a declared "(in thousands)" counts, an amount the prose
quotes does not; a DataFrame's caption gives its amounts their scale."""

from __future__ import annotations

import pandas as pd
import pytest

from ingest.captions import caption_scale, scale_declaration
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


def test_caption_scale_on_ingested_values(tmp_path) -> None:  # noqa: ANN001
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


def test_caption_added_on_reingest_is_a_new_version(tmp_path) -> None:  # noqa: ANN001
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
