"""Programs over a list table (one row per entity, as WikiTableQuestions' tables are): the
operators a question about such a table needs, run by the one interpreter over a table a user
ingests, and found among the candidates the route enumerates for the question."""

from __future__ import annotations

import pytest

from hyrag.answer.programs.candidates import enumerate_programs
from hyrag.answer.programs.execute import ExecutionError, run
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.lexicon import bounds
from hyrag.answer.programs.link import Question, TableIndex
from hyrag.answer.programs.tables import tables
from hyrag.kb import KnowledgeBase
from tests.answer.conftest import csv_kb

PLAYERS = """Name,Position,Club,Goals,Signed,Height
Ana Ruiz,Forward,Montreal Impact,12,12 March 2004,170 cm
Bo Lind,Defender,Toronto FC,3,2 May 2006,181 cm
Cy Moss,Forward,Vancouver Whitecaps,12,9 June 2004,175 cm
Di Park,Goalkeeper,Montreal Impact,0,1 July 2008,190 cm
Ed Vale,Defender,Columbus Crew,5,3 April 2004,178 cm
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    kb = csv_kb(tmp_path_factory.mktemp("lists"), "players.csv", PLAYERS)
    yield kb
    kb.close()


def _table(kb: KnowledgeBase) -> TableIndex:
    (ti,) = tables(kb.store.con).values()
    return ti


def _column(ti: TableIndex, header: str) -> list[Cell]:
    """The data cells of the column headed `header`, top to bottom."""
    j = next(j for j, c in enumerate(ti.model.columns) if c.path[-1] == header)
    return [Cell(ti.model.name, i, j) for i, r in enumerate(ti.model.rows)
            if r.kind == "data" and (i, j) in ti.cell_pos]


def _col(ti: TableIndex, header: str) -> int:
    return _column(ti, header)[0].col


def test_mode_states_the_text_most_rows_show(kb: KnowledgeBase) -> None:
    ti = _table(kb)
    tabs = tables(kb.store.con)
    # Forward and Defender two rows each: the first of the most frequent
    assert run(Program("mode", tuple(_column(ti, "Position"))), tabs).answer == ("Forward",)
    assert run(Program("mode", tuple(_column(ti, "Club"))), tabs).answer == ("Montreal Impact",)
    with pytest.raises(ExecutionError, match="more than once"):
        run(Program("mode", tuple(_column(ti, "Name"))), tabs)


def test_a_condition_tested_on_another_column_keeps_those_rows(kb: KnowledgeBase) -> None:
    """"Which players play forward?": the names of the rows whose position is Forward; "how
    many goals did Montreal Impact's players score?": the goals of the rows whose club is
    it."""
    ti = _table(kb)
    tabs = tables(kb.store.con)
    names = Program("each", tuple(_column(ti, "Name")), where="=forward",
                    test=_col(ti, "Position"))
    assert run(names, tabs).answer == ("Ana Ruiz", "Cy Moss")
    goals = Program("sum", tuple(_column(ti, "Goals")), where="=Montreal Impact",
                    test=_col(ti, "Club"))
    assert run(goals, tabs).values == (12.0,)
    assert Program.from_dict(names.to_dict()) == names
    with pytest.raises(ValueError, match="needs a condition"):
        Program("each", tuple(_column(ti, "Name")), test=1)


def test_a_word_held_inside_cells_counts_their_rows(kb: KnowledgeBase) -> None:
    """"How many players signed in 2004?": "2004" inside "12 March 2004", a whole word only."""
    ti = _table(kb)
    tabs = tables(kb.store.con)
    signed = tuple(_column(ti, "Signed"))
    assert run(Program("count", signed, where="~2004"), tabs).values == (3.0,)
    assert run(Program("count", signed, where="~200"), tabs).values == (0.0,)
    clubs = tuple(_column(ti, "Club"))
    assert run(Program("count", clubs, where="~montreal"), tabs).values == (2.0,)


def test_inclusive_bounds_are_read_and_applied(kb: KnowledgeBase) -> None:
    assert bounds("which players scored at least 5 goals?") == (">=5",)
    assert bounds("clubs with 3 or fewer goals") == ("<=3",)
    assert bounds("no more than 3 goals") == ("<=3",)
    assert bounds("more than 3 goals") == (">3",)
    ti = _table(kb)
    goals = tuple(_column(ti, "Goals"))
    tabs = tables(kb.store.con)
    assert run(Program("count", goals, where=">=5"), tabs).values == (3.0,)
    assert run(Program("count", goals, where=">5"), tabs).values == (2.0,)


def test_tied_rows_are_all_stated_and_units_stay_as_displayed(kb: KnowledgeBase) -> None:
    """"Who scored the most goals?" names both players on 12; "the tallest player's height"
    is "190 cm" as the cell says it, while the figure 190 is what is compared."""
    ti = _table(kb)
    tabs = tables(kb.store.con)
    top = Program("argmax", tuple(_column(ti, "Goals")), report=_col(ti, "Name"))
    assert run(top, tabs).values == ("Ana Ruiz", "Cy Moss")
    heights = tuple(_column(ti, "Height"))
    tallest = Program("argmax", heights, report=_col(ti, "Height"))
    assert run(tallest, tabs).values == ("190 cm",)
    assert run(Program("lookup", (heights[0],)), tabs).answer == ("170 cm",)
    assert run(Program("difference", (heights[3], heights[0])), tabs).values == (20.0,)


@pytest.mark.parametrize(("question", "expected"), [
    ("Which position is the most common?", ("Forward",)),
    ("How many players signed in 2004?", (3.0,)),
    ("Which players play forward?", ("Ana Ruiz", "Cy Moss")),
    ("How many players scored at least 5 goals?", (3.0,)),
    ("Which players scored more goals than Bo Lind?", ("Ana Ruiz", "Cy Moss", "Ed Vale")),
    ("What is the difference in goals between the first and the last player?", (7.0,)),
])
def test_the_candidates_hold_the_program_a_list_question_needs(
        kb: KnowledgeBase, question: str, expected: tuple) -> None:
    """The enumeration is wide and the ranker chooses: what is checked is that a program
    computing the answer is among the question's candidates."""
    ti = _table(kb)
    tabs = tables(kb.store.con)
    answers = set()
    for c in enumerate_programs(Question.of(question), ti):
        try:
            answers.add(run(c.program, tabs).answer)
        except ExecutionError:  # a candidate that does not execute answers nothing
            continue
    assert expected in answers
