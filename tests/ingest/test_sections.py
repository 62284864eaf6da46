"""Section headings (`ingest.sections`): a row holding a label and no figure heads the rows
beneath it, and their cell claims keep it in the locator; a total that adds its section up
closes it, one that does not (a grand total) heads nothing; rows under no heading keep the
locator (and so the claim id) they always had."""

from __future__ import annotations

import json

import pandas as pd

import hyrag
from ingest.sections import row_sections
from ingest.types import RawTable


def _raw(rows: list[list[str]]) -> RawTable:
    return RawTable(source="t.csv", name="t", header=("item", "2019", "2018"),
                    rows=tuple(tuple(r) for r in rows), row_locs=tuple(range(2, len(rows) + 2)),
                    col_locs=(1, 2, 3))


STATEMENT = [
    ["Current:", "", ""],
    ["Loans", "100", "90"],
    ["Trade payables", "50", "40"],
    ["Total current liabilities", "150", "130"],
    ["Other", "5", "5"],
    ["Non-current:", "", ""],
    ["Loans", "300", "200"],
    ["Leases", "20", "10"],
    ["Total", "475", "345"],
]


def test_rows_sit_under_their_heading_and_a_total_closes_it() -> None:
    secs = row_sections(_raw(STATEMENT))
    assert secs == (None, "Current:", "Current:", "Current:", None, None, "Non-current:",
                    "Non-current:", None)  # the grand total sums more than "Non-current:"


def test_an_unlabelled_subtotal_closes_its_section() -> None:
    rows = [["Current assets", "", ""], ["Debtors", "415.9", "440.7"],
            ["Cash", "–", "0.2"], ["", "415.9", "440.9"], ["Creditors", "(411.4)", "(288.4)"]]
    assert row_sections(_raw(rows)) == (None, "Current assets", "Current assets",
                                        "Current assets", None)


def test_captions_and_headings_without_figures_head_nothing() -> None:
    rows = [["(In thousands)", "", ""], ["Revenue", "1", "2"], ["Assets", "", ""],
            ["Current assets:", "", ""], ["Cash", "3", "4"]]
    assert row_sections(_raw(rows)) == (None, None, None, None, "Current assets:")


def test_a_nil_line_item_heads_no_section() -> None:
    """"Preferred stock | $— | $—" is a line whose figures are nil, not a heading: the lines
    below it are no part of it."""
    rows = [["Preferred stock", "$—", "—"], ["Common stock", "10", "10"],
            ["Retained earnings", "90", "80"], ["Total equity", "100", "90"]]
    assert row_sections(_raw(rows)) == (None, None, None, None)


def test_a_list_of_names_is_not_sectioned() -> None:
    rows = [["North", "", ""], ["South", "", ""], ["East", "1", ""]]
    assert row_sections(_raw(rows)) == (None, None, None)


def _locators(tmp_path, rows) -> dict[tuple[str, str], dict]:
    df = pd.DataFrame(rows, columns=["item", "2019", "2018"])
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(df, name="t")
        got = kb.store.con.execute(
            "SELECT attribute, time_key, locator FROM claims WHERE kind = 'cell'").fetchall()
    return {(a, f"{t}@{json.loads(loc)['row']}"): json.loads(loc) for a, t, loc in got}


def test_cell_claims_keep_the_section_in_their_locator(tmp_path) -> None:
    locs = _locators(tmp_path, STATEMENT)
    assert locs[("Loans", "2019@2")]["section"] == "Current:"
    assert locs[("Loans", "2019@7")]["section"] == "Non-current:"
    assert "section" not in locs[("Other", "2019@5")]
    assert "section" not in locs[("Total", "2019@9")]


def test_a_table_without_headings_keeps_its_locators(tmp_path) -> None:
    locs = _locators(tmp_path, [["Loans", "100", "90"], ["Leases", "20", "10"]])
    assert locs[("Loans", "2019@1")] == {"file": "t", "row": 1, "column": "2019", "cell": "B1"}


def test_an_unmelted_table_keeps_sections_too(tmp_path) -> None:
    # "Year Ended December 31, 2019 (thousands)" does not parse as a period: no melt
    df = pd.DataFrame([["Revenue:", "", ""], ["Product", "10", "8"], ["Services", "5", "4"]],
                      columns=["item", "Year 2019 (thousands)", "Year 2018 (thousands)"])
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(df, name="t")
        got = kb.store.con.execute(
            "SELECT locator FROM claims WHERE kind = 'cell' AND value_num IS NOT NULL"
        ).fetchall()
    assert got and all(json.loads(loc).get("section") == "Revenue:" for (loc,) in got)
