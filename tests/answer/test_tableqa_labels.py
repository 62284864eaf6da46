"""Which line a question names (`tableqa_rows.rank_rows`) and when one line is not enough: a
label's timing ("during the period") and its note ("(non-current)") only qualify the line, so
naming the rest names it — unless another line shares that name; and a lookup that quotes two
line items is not answered with one of them."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa
from tests.answer.conftest import statement_kb

ROWS = [
    ["Granted during the period", "1,001", "907", "866"],
    ["Forfeited during the period", "(177)", "(35)", "(21)"],
    ["Carrying amount (non-current liabilities/assets)", "(494)", "1,663", "1,200"],
    ["Hedged amount (current)", "10", "20", "30"],
    ["Hedged amount (non-current)", "40", "50", "60"],
    ["Net sales", "1,200", "1,000", "900"],
    ["Research and development", "50", "40", "30"],
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ROWS, "Awards and hedges (in thousands)", "labels")
    yield k
    k.close()


def ask(kb, q: str):
    return tableqa.resolve(q, kb.store.con)


def test_timing_words_of_a_label_need_not_be_named(kb) -> None:
    r = ask(kb, "What was the change in the number of shares granted in 2019 from 2018?")
    assert r is not None and r.operation == "difference" and r.answer == 94.0


def test_a_labels_note_need_not_be_named(kb) -> None:
    r = ask(kb, "What is the 2018 carrying amount?")
    assert r is not None and r.answer == 1663.0


def test_a_note_that_tells_two_lines_apart_must_be_named(kb) -> None:
    assert ask(kb, "What is the 2018 hedged amount?") is None
    r = ask(kb, "What is the 2018 hedged amount (non-current)?")
    assert r is not None and r.answer == 50.0


def test_a_lookup_quoting_two_line_items_is_not_one_figure(kb) -> None:
    assert ask(kb, "What was the net sales and research and development in 2018?") is None
    r = ask(kb, "What was the research and development in 2018?")
    assert r is not None and r.answer == 40.0


def test_a_why_question_is_no_figure(kb) -> None:
    assert ask(kb, "Why did research and development decrease in 2018?") is None
    assert ask(kb, "What was the reason for the change in research and development in "
                   "2018?") is None


def test_direct_evidence_from_figureless_sentences_lets_the_line_be_read(kb) -> None:
    from types import SimpleNamespace

    from hyrag.answer import readers
    from hyrag.answer.parse.catalog import load_catalog
    from hyrag.answer.parse.parser import parse

    q = "What was the research and development in 2018?"
    parsed = parse(q, load_catalog(kb.store))
    said = [SimpleNamespace(kind="text", value=None)]
    r = readers.read(q, kb.store.con, parsed=parsed, direct=True, facts=said).result
    assert r is not None and r.answer == 40.0
    # a direct answer from a cell, or from a sentence stating a figure, stands: the
    # line-item reader is not asked over it
    for f in (SimpleNamespace(kind="cell", value=40.0), SimpleNamespace(kind="text", value=4)):
        assert readers.read(q, kb.store.con, parsed=parsed, direct=True, facts=[f]).result \
            is None


def test_a_standard_written_without_its_space_names_its_line(tmp_path_factory) -> None:
    """"IFRS9" is the label's "IFRS 9": the question names the IFRS 9 opening balance, not
    the IAS 39 one it would otherwise tie with (both are "Opening balance")."""
    k = statement_kb(tmp_path_factory, [["Opening balance – IAS 39", "", "77,131", ""],
                                        ["Opening balance – IFRS 9", "83,934", "100,107", ""],
                                        ["Additions", "39,116", "51,185", ""]],
                     "Financial assets (in millions)", "ifrs")
    try:
        r = ask(k, "What is the 2018 IFRS9 opening balance?")
        assert r is not None and r.answer == 100107.0
        r = ask(k, "What is the 2018 IAS39 opening balance?")
        assert r is not None and r.answer == 77131.0
    finally:
        k.close()
