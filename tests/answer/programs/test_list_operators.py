"""List-table operators asked through `kb.ingest(path)` and `kb.ask`: a yes / no comparison
of two named rows, the other rows sharing a named row's cell ("the same position as X"), and
bounds on years by their order in time ("before 2005") over a date column. Each answer is
checked for its value, its program, and that the ReverseVerifier passes it (every figure it
states is a committed cell's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyrag.answer.programs.execute import run
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.lexicon import time_bounds
from hyrag.answer.programs.tables import tables
from tests.answer.conftest import PLAYERS, csv_kb, fixed_ranker


def _ask(tmp_path: Path, question: str, weights: dict[str, float]):
    """`question` through the program route, with a ranker whose weights pick the program
    under test (the choice among candidates is the fitted ranker's; here it is fixed)."""
    with csv_kb(tmp_path, "players.csv", PLAYERS, fixed_ranker(tmp_path, weights)) as kb:
        return kb.ask(question)


def _checked(a, op: str) -> None:
    assert a.decision == "answer", (a.text, a.verification)
    assert a.program["kind"] == "program" and a.program["operation"] == op, a.program
    assert a.verification["verdict"] == "pass", a.verification


@pytest.mark.parametrize(("question", "order", "expected"), [
    ("Did Bo Lind score more goals than Ed Vale?", 5.0, "no"),
    ("Did Ed Vale score more goals than Bo Lind?", 5.0, "yes"),
    ("Did Ed Vale score fewer goals than Bo Lind?", -5.0, "no"),
])
def test_a_yes_no_comparison_of_two_named_rows(tmp_path: Path, question: str, order: float,
                                                 expected: str) -> None:
    a = _ask(tmp_path, question, {"op=exceeds/plain/pair": 10.0,
                                  "arg:first_mentioned_first": order, "arg:col_cov": 3.0})
    _checked(a, "exceeds")
    assert a.values == (expected,)
    # both figures are stated, each citing its cell
    assert "3 [" in a.text and "5 [" in a.text, a.text


def test_exceeds_executes_in_the_order_of_its_operands(tmp_path: Path) -> None:
    with csv_kb(tmp_path, "players.csv", PLAYERS) as kb:
        (ti,) = tables(kb.store.con).values()
        tabs = tables(kb.store.con)
    goals = next(j for j, c in enumerate(ti.model.columns) if c.path[-1] == "Goals")
    rows = [i for i, r in enumerate(ti.model.rows) if r.kind == "data"]
    a, b = Cell(ti.model.name, rows[0], goals), Cell(ti.model.name, rows[1], goals)
    assert run(Program("exceeds", (a, b)), tabs).values == ("yes",)
    assert run(Program("exceeds", (b, a)), tabs).values == ("no",)
    assert run(Program("exceeds", (a, a)), tabs).values == ("no",)  # not larger: no


def test_the_rows_sharing_a_named_rows_cell(tmp_path: Path) -> None:
    """"Who plays the same position as Ana Ruiz?": the other rows whose position is hers."""
    a = _ask(tmp_path, "Who plays the same position as Ana Ruiz?",
             {"op=each/equal/same": 10.0, "arg:x_col_cov": 5.0, "arg:col_first": 5.0,
              "arg:val_exact": 2.0})
    _checked(a, "each")
    assert a.values == ("Cy Moss",)


def test_a_count_of_the_rows_sharing_a_named_rows_cell(tmp_path: Path) -> None:
    a = _ask(tmp_path, "How many other players play the same position as Bo Lind?",
             {"op=count/equal/same": 10.0, "arg:x_col_cov": 5.0, "arg:val_exact": 2.0})
    _checked(a, "count")
    assert a.values == (1.0,)


def test_bounds_on_years_by_their_order_in_time() -> None:
    assert time_bounds("How many players signed before 2005?") == ("<2005",)
    assert time_bounds("destinations added after the year 2010") == (">2010",)
    assert time_bounds("every title since 1998") == (">=1998",)
    assert time_bounds("scored after 12 games") == ()  # not a year


def test_a_count_of_the_rows_dated_before_a_year(tmp_path: Path) -> None:
    """"Signed before 2005" over a column of dates: a date's figure is its year."""
    a = _ask(tmp_path, "How many players signed before 2005?",
             {"op=count/bounded/count": 10.0, "arg:time_bound": 5.0})
    _checked(a, "count")
    assert a.values == (3.0,)
    assert a.program["program"]["where"] == "<2005"


GAMES = """Date,Opponent,Venue,Result
3 September,Hawks,Home,W
10 September,Owls,Away,W
17 September,Bears,Home,L
24 September,Foxes,Home,W
1 October,Cranes,Home,W
8 October,Wolves,Home,W
15 October,Lynx,Away,L
"""


def test_the_longest_run_of_consecutive_rows(tmp_path: Path) -> None:
    """"How many consecutive games were played at home?": the longest run of rows whose venue
    is Home — four (17 September to 8 October), not the five home games in all; the count
    cites that run's cells."""
    s = fixed_ranker(tmp_path, {"op=streak/equal/streak": 10.0, "arg:val_exact": 2.0})
    with csv_kb(tmp_path, "games.csv", GAMES, s) as kb:
        a = kb.ask("How many consecutive games were played at home?")
    _checked(a, "streak")
    assert a.values == (4.0,)
    [d] = a.derivations
    assert d["name"] == "count" and len(d["operands"]) == 4
    with pytest.raises(ValueError, match="needs the condition"):
        Program("streak", (Cell("t", 0, 0), Cell("t", 1, 0)))
