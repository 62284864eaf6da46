"""Line items under section headings ("Current:", "Non-current:", "Amounts falling due within
one year"): the heading's words are the rows' context, so a question naming them is read,
a label repeated under two headings is read under the one the question names (and abstained
on when it names neither), and a question naming another heading than the row's is not
answered from that row."""

from __future__ import annotations

import pytest

from hyrag.answer.readers import tableqa, tablespans
from tests.answer.conftest import statement_kb

ROWS = [
    ["Amounts falling due within one year", "", "", ""],
    ["Trade receivables", "100", "90", "80"],
    ["Taxation recoverable", "12", "10", "8"],
    ["Total receivables due within one year", "112", "100", "88"],
    ["Amounts falling due after more than one year", "", "", ""],
    ["Trade receivables", "40", "30", "20"],
    ["Deferred costs", "7", "6", "5"],
    ["Total", "159", "136", "113"],
    ["Appropriation of earnings", "", "", ""],
    ["Legal reserve", "50", "30", "10"],
    ["Dividends", "20", "20", "20"],
    ["UK and Ireland only", "", "", ""],
    ["Electricity (Scope 2)", "4", "6", "8"],
    ["Weighted average shares", "", "", ""],
    ["Diluted earnings per share", "900", "800", "700"],
    ["Diluted earnings per share (cents)", "", "", ""],
    ["Continuing operations", "30", "20", "10"],
    ["Discontinued operations", "10", "5", "5"],
    ["Net income per share:", "", "", ""],
    ["Basic", "4.60", "0.43", "1.75"],
    ["Global (India and International)", "", "", ""],
    ["Hindi films", "7", "10", "8"],
    ["India Only", "", "", ""],
    ["Hindi films", "1", "3", "1"],
    ["Deferred tax assets:", "", "", ""],
    ["Other", "16", "29", "1"],
    ["Deferred tax liabilities:", "", "", ""],
    ["Other (1)", "10", "14", "2"],
    ["Change in benefit obligation", "", "", ""],
    ["Interest cost", "436", "392", "409"],
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = statement_kb(tmp_path_factory, ROWS, "Balances (in thousands)", "balances")
    yield k
    k.close()


def ask(kb, q: str):
    return tableqa.resolve(q, kb.store.con)


def test_the_heading_explains_the_questions_words(kb) -> None:
    r = ask(kb, "What was the 2019 taxation recoverable falling due within one year?")
    assert (r.operation, r.answer) == ("lookup", 12.0)
    r = ask(kb, "What was the average Electricity (Scope 2) for 2019 and 2018 for UK and "
                "Ireland only?")
    assert (r.operation, r.answer) == ("average", 5.0)
    r = ask(kb, "What was the average Legal reserve within Appropriation of earnings for 2019 "
                "and 2018?")
    assert (r.operation, r.answer) == ("average", 40.0)


def test_a_label_under_two_headings_is_read_under_the_one_named(kb) -> None:
    r = ask(kb, "What were the trade receivables falling due after more than one year in 2019?")
    assert (r.operation, r.answer) == ("lookup", 40.0)
    r = ask(kb, "What was the change in trade receivables falling due within one year from "
                "2018 to 2019?")
    assert (r.operation, r.answer) == ("difference", 10.0)
    assert ask(kb, "What were the trade receivables in 2019?") is None  # which of the two?


def test_another_headings_words_are_not_this_rows(kb) -> None:
    # "Deferred costs" sits only under "after more than one year"
    assert ask(kb, "What were the deferred costs falling due within one year in 2019?") is None
    r = ask(kb, "What were the deferred costs in 2019?")
    assert (r.operation, r.answer) == ("lookup", 7.0)


def test_a_grand_total_is_not_the_last_sections(kb) -> None:
    r = ask(kb, "What was the total in 2019?")
    assert r is not None and r.answer == 159.0
    assert ask(kb, "What was the total falling due after more than one year in 2019?") is None


def test_the_structure_reader_picks_the_named_heading(kb) -> None:
    q = ("What were the respective trade receivables and taxation recoverable falling due "
         "within one year in 2019?")
    r, owned = tablespans.resolve(q, kb.store.con)
    assert owned and r is not None and r.answer == [100.0, 12.0]
    r, owned = tablespans.resolve(q.replace(" falling due within one year", ""), kb.store.con)
    assert owned and r is None  # which trade receivables?


def test_a_heading_is_not_a_line_of_another_section(kb) -> None:
    # the words "diluted earnings per share" are the heading "Continuing operations" sits
    # under; the line of that name under "Weighted average shares" is not what they name
    assert ask(kb, "What percentage of diluted earnings per share is continuing operations "
                   "in 2019?") is None
    r = ask(kb, "What were continuing operations in diluted earnings per share in 2019?")
    assert (r.operation, r.answer) == ("lookup", 30.0)


def test_a_line_under_a_per_share_heading_has_no_scale(kb) -> None:
    r = ask(kb, "What was the basic net income per share in 2019?")
    assert (r.operation, r.answer, r.scale) == ("lookup", 4.6, "")
    r = ask(kb, "What was the 2019 taxation recoverable falling due within one year?")
    assert r.scale == "thousand"  # the caption's scale still reaches the other lines


def test_words_of_one_heading_only_pick_it(kb) -> None:
    # "global" is a word of one heading only; its other words are not needed
    r = ask(kb, "What was the global number of hindi films in 2019?")
    assert (r.operation, r.answer) == ("lookup", 7.0)
    assert ask(kb, "What was the number of hindi films in 2019?") is None


def test_two_labels_named_alike_are_told_apart_by_their_headings(kb) -> None:
    r = ask(kb, "What was the change in other deferred tax liabilities between 2018 and 2019?")
    assert (r.operation, r.answer) == ("difference", -4.0)
    r = ask(kb, "What was the change in other deferred tax assets between 2018 and 2019?")
    assert (r.operation, r.answer) == ("difference", -13.0)


def test_the_lines_under_a_named_heading_are_its_components(kb) -> None:
    r, owned = tablespans.resolve(
        "What financial items does amounts falling due within one year consist of?",
        kb.store.con)
    assert owned and r.answer == ["Trade receivables", "Taxation recoverable"]
    r, owned = tablespans.resolve(
        "How many components are there under appropriation of earnings?", kb.store.con)
    assert owned and r.answer == 2.0
    r, owned = tablespans.resolve("What are the components under assets?", kb.store.con)
    assert r is None  # no heading is "assets" alone


def test_a_headings_operation_words_are_its_own_only_where_quoted(kb) -> None:
    # "more than" of "after more than one year" is the heading's, not a comparison...
    r = ask(kb, "What were the trade receivables falling due after more than one year in 2019?")
    assert (r.operation, r.answer) == ("lookup", 40.0)
    # ...but "change" is the question's, though the line sits under "Change in benefit ..."
    r = ask(kb, "What is the percentage change in interest cost in 2019 from 2018?")
    assert (r.operation, r.answer) == ("change_ratio", 11.22)
