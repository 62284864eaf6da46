"""List-table shapes asked through `kb.ingest(path)` and `kb.ask`: two conditions on two
columns at once, the first / last row passing a condition, the rarest text, the sum and the
average over the rows a condition keeps, and durations ("3:45") read as figures. Each is
enumerated by `lists`, executed by `execute`, and checked for its value, its program and that
the ReverseVerifier passes it; the ranker's choice is fixed (`fixed_ranker`), not tested."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyrag.answer.programs.execute import ExecutionError, run
from hyrag.answer.programs.figures import duration, figure_of, leading_figure
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.lexicon import ranges, time_bounds
from hyrag.answer.programs.link import Question, index
from hyrag.answer.programs.lists import enumerate_list_programs
from hyrag.answer.programs.tables import tables
from ingest.timekeys import month_number
from tests.answer.conftest import PLAYERS as BASE_PLAYERS
from tests.answer.conftest import csv_kb, fixed_ranker

PLAYERS = BASE_PLAYERS + "Flo Nyx,Forward,Montreal Impact,7,5 May 2007\n"

SONGS = """Track,Title,Writer,Length
1,Blue Road,Ann Lee,3:45
2,Night Train,Bob Ray,4:02
3,Low Sun,Ann Lee,2:58
4,Red Sky,Cy Dunn,5:10
5,Open Door,Bob Ray,3:30
6,Last Call,Ann Lee,4:15
"""


def _ask(tmp_path: Path, name: str, text: str, question: str, weights: dict[str, float]):
    with csv_kb(tmp_path, name, text, fixed_ranker(tmp_path, weights)) as kb:
        return kb.ask(question)


def _checked(a, op: str) -> None:
    assert a.decision == "answer", (a.text, a.verification)
    assert a.program["kind"] == "program" and a.program["operation"] == op, a.program
    assert a.verification["verdict"] == "pass", a.verification


def test_a_count_under_two_conditions_on_two_columns(tmp_path: Path) -> None:
    """"How many forwards play for Montreal Impact?": rows whose position is Forward *and*
    whose club is Montreal Impact — two, not the three forwards nor the three Montreal rows."""
    a = _ask(tmp_path, "players.csv", PLAYERS, "How many forwards play for Montreal Impact?",
             {"op=count/equal/both": 10.0})
    _checked(a, "count")
    assert a.values == (2.0,)
    p = a.program["program"]
    assert {p["where"], p["and_where"]} == {"=forward", "=montreal impact"}


def test_the_names_under_a_value_and_a_bound(tmp_path: Path) -> None:
    """"Which forwards scored more than 8 goals?": a named value and a bound on two columns,
    the name column stated."""
    a = _ask(tmp_path, "players.csv", PLAYERS, "Which forwards scored more than 8 goals?",
             {"op=each/equal/both": 10.0, "arg:col_first": 5.0})
    _checked(a, "each")
    assert a.values == ("Ana Ruiz", "Cy Moss")


@pytest.mark.parametrize(("question", "op", "expected"), [
    ("Who was the first player listed with more than 5 goals?", "first", "Ana Ruiz"),
    ("Who was the last player listed with more than 5 goals?", "last", "Flo Nyx"),
])
def test_the_first_and_last_row_passing_a_bound(tmp_path: Path, question: str, op: str,
                                                 expected: str) -> None:
    a = _ask(tmp_path, "players.csv", PLAYERS, question,
             {f"op={op}/bounded/end": 10.0, "arg:col_first": 5.0})
    _checked(a, op)
    assert a.values == (expected,)


def test_the_rarest_text_of_a_column(tmp_path: Path) -> None:
    """"Which writer wrote the fewest songs?": the writer the column shows least often."""
    a = _ask(tmp_path, "songs.csv", SONGS, "Which writer wrote the fewest songs?",
             {"op=rarest/plain/mode": 10.0, "arg:col_cov": 5.0})
    _checked(a, "rarest")
    assert a.values == ("Cy Dunn",)


@pytest.mark.parametrize(("question", "weights", "expected"), [
    ("What is the average number of goals of defenders?",
     {"op=average/equal/where": 10.0, "arg:col_cov": 3.0}, 4.0),
    ("How many goals in total did players signed before 2005 score?",
     {"op=sum/bounded/where": 10.0, "arg:col_cov": 3.0}, 26.0),
])
def test_the_sum_and_average_over_the_rows_a_condition_keeps(
        tmp_path: Path, question: str, weights: dict[str, float], expected: float) -> None:
    a = _ask(tmp_path, "players.csv", PLAYERS, question, weights)
    assert a.decision == "answer", (a.text, a.verification)
    assert a.values == (expected,)
    assert a.program["program"]["where"]


def test_the_longest_duration_is_compared_by_its_seconds(tmp_path: Path) -> None:
    """"What is the longest song?": "5:10" is longer than "4:15" (as seconds), and the title of
    its row is stated."""
    a = _ask(tmp_path, "songs.csv", SONGS, "What is the title of the song of longest length?",
             {"op=argmax/plain/rows": 10.0, "arg:x_col_cov": 5.0, "arg:col_cov": 5.0})
    _checked(a, "argmax")
    assert a.values == ("Red Sky",)


def test_a_duration_is_quoted_as_written(tmp_path: Path) -> None:
    with csv_kb(tmp_path, "songs.csv", SONGS) as kb:
        tabs = tables(kb.store.con)
    (ti,) = tabs.values()
    length = next(j for j, c in enumerate(ti.model.columns) if c.path[-1] == "Length")
    rows = list(ti.entity_rows)
    assert ti.col_figures[length] == 6  # a numeric column, for superlatives
    r = run(Program("lookup", (Cell(ti.model.name, rows[3], length),)), tabs)
    assert r.values == (310.0,) and r.answer == ("5:10",)
    gap = run(Program("difference", (Cell(ti.model.name, rows[3], length),
                                     Cell(ti.model.name, rows[0], length))), tabs)
    assert gap.values == (85.0,)  # 5:10 - 3:45, in seconds


def test_the_new_shapes_are_enumerated_once_per_table_fact(tmp_path: Path) -> None:
    """The per-table facts the enumeration reads (entity rows, filled and numeric columns, how
    figures run) are the index's, the same for every question."""
    with csv_kb(tmp_path, "players.csv", PLAYERS) as kb:
        (ti,) = tables(kb.store.con).values()
    assert len(ti.entity_rows) == 6 and ti.col_filled == (6, 6, 6, 6, 6)
    assert ti.col_figures[3] == 6 and ti.col_dates[4] == 6
    got = {(c.program.op, c.shape) for c in enumerate_list_programs(
        Question.of("How many forwards scored more than 8 goals?"), ti)}
    assert {("count", "list:both"), ("each", "list:both"), ("first", "list:end"),
            ("rarest", "list:mode"), ("average", "list:where")} <= got
    assert index(ti.model) == ti  # the same facts, rebuilt


def test_the_execution_rules_of_the_new_operators(tmp_path: Path) -> None:
    with csv_kb(tmp_path, "players.csv", PLAYERS) as kb:
        tabs = tables(kb.store.con)
    (ti,) = tabs.values()
    t, rows = ti.model.name, list(ti.entity_rows)
    position = tuple(Cell(t, i, 1) for i in rows[1:3])
    # two texts, each shown once: neither is rarer
    with pytest.raises(ExecutionError, match="rarest"):
        run(Program("rarest", position), tabs)
    goals = tuple(Cell(t, i, 3) for i in rows)
    # no row passes: no first row
    with pytest.raises(ExecutionError, match="no operand passes"):
        run(Program("first", goals, ">100", report=0), tabs)
    # the operand itself when nothing is reported
    assert run(Program("last", goals, "<6"), tabs).values == (5.0,)
    with pytest.raises(ValueError, match="second condition"):
        Program("count", goals, "", and_where=">3", and_test=1)
    with pytest.raises(ValueError, match="needs the condition"):
        Program("first", goals)
    both = Program("count", goals, ">4", and_where="=Montreal Impact", and_test=2)
    assert run(both, tabs).values == (2.0,)
    assert Program.from_dict(both.to_dict()) == both
    assert "and =Montreal Impact in column 2" in str(both)


def test_figures_read_from_text() -> None:
    assert duration("3:45") == 225.0 and duration("1:02:03") == 3723.0
    assert duration("2:05.5") == 125.5 and duration("12:75") is None
    assert figure_of("1,450 tonnes") == 1450.0 and figure_of("4:02") == 242.0
    assert leading_figure("3:34:14") is None and figure_of("W 45-7") is None


def test_a_figure_with_a_bracketed_aside_is_its_figure() -> None:
    """"73,303 (12.9%)" is a count with its share beside it; "1,024[3]" a figure with a
    footnote mark: each reads as its leading figure, a date or a score does not."""
    assert leading_figure("73,303 (12.9%)") == 73303.0 and leading_figure("1,024[3]") == 1024.0
    assert leading_figure("12 tonnes (est.)") == 12.0
    assert leading_figure("12 March 1944") is None and leading_figure("1 (2) 3") is None


def test_the_spans_a_question_names() -> None:
    assert ranges("how many albums were made in the 70's?") == ((">=1970", "<=1979"),)
    assert ranges("between 1992 and 2011 (inclusive)") == ((">=1992", "<=2011"),)
    assert ranges("from 10 to 20 points") == ((">=10", "<=20"),)
    assert ranges("in the '90s") == ((">=1990", "<=1999"),)
    assert ranges("scored 45s") == ()


@pytest.mark.parametrize(("question", "expected"), [
    ("How many players signed between 2005 and 2007?", 2.0),
    ("How many players signed in the 2000s?", 6.0),
])
def test_a_count_of_the_rows_within_a_span_of_years(tmp_path: Path, question: str,
                                                    expected: float) -> None:
    a = _ask(tmp_path, "players.csv", PLAYERS, question,
             {"op=count/bounded/span": 10.0, "arg:x_col_cov": 3.0})
    _checked(a, "count")
    assert a.values == (expected,)


def test_how_many_different_texts_a_column_shows(tmp_path: Path) -> None:
    """"How many different clubs are listed?": four clubs among six rows; the count cites the
    first row of each."""
    a = _ask(tmp_path, "players.csv", PLAYERS, "How many different clubs are listed?",
             {"op=distinct/plain/distinct": 10.0, "arg:col_cov": 5.0})
    _checked(a, "distinct")
    assert a.values == (4.0,)
    [d] = a.derivations
    assert d["name"] == "count" and len(d["operands"]) == 4


def test_the_rarest_texts_tied(tmp_path: Path) -> None:
    with csv_kb(tmp_path, "players.csv", PLAYERS) as kb:
        tabs = tables(kb.store.con)
    (ti,) = tabs.values()
    club = tuple(Cell(ti.model.name, i, 2) for i in ti.entity_rows)
    # Montreal Impact three times, the other three clubs once each: those three, in order
    assert run(Program("rarest", club), tabs).values == (
        "Toronto FC", "Vancouver Whitecaps", "Columbus Crew")


def test_bounds_on_decades() -> None:
    assert time_bounds("how many were built before the 1970s?") == ("<1970",)
    assert time_bounds("after the 1980s") == (">=1990",)
    assert time_bounds("since the 2000s") == (">=2000",)
    assert time_bounds("until the 1990s") == ("<=1999",)


MATCHES = """Date,Opponent,Attendance
13 Jan,Koper,"7,000"
17 Feb,Hajduk,"8,000"
24 Feb,Osijek,350
2 Mar,Rijeka,"2,000"
"""


def test_a_sum_over_the_rows_of_a_month_written_out(tmp_path: Path) -> None:
    """"The total attendance in February": the rows whose date holds "Feb", the month the
    question writes out, summed."""
    a = _ask(tmp_path, "matches.csv", MATCHES, "What was the total attendance in February?",
             {"op=sum/holds/where": 10.0, "arg:col_cov": 3.0})
    assert a.decision == "answer", (a.text, a.verification)
    assert a.values == (8350.0,)
    assert a.program["program"]["where"] == "~feb"
    assert month_number("February") == 2 and month_number("Sept.") == 9
    assert month_number("sept") == 9 and month_number("marching") is None


@pytest.mark.parametrize(("question", "expected"), [
    ("Did Ed Vale score more or less goals than Bo Lind?", "more"),
    ("Did Bo Lind score more or less goals than Ed Vale?", "less"),
])
def test_a_comparison_answered_with_the_alternatives_offered(tmp_path: Path, question: str,
                                                             expected: str) -> None:
    a = _ask(tmp_path, "players.csv", PLAYERS, question,
             {"op=exceeds/plain/says": 10.0, "arg:first_mentioned_first": 5.0,
              "arg:says_larger=more": 5.0, "arg:col_cov": 3.0})
    _checked(a, "exceeds")
    assert a.values == (expected,)
    with pytest.raises(ValueError, match="alternatives"):
        Program("count", (Cell("t", 0, 0),), says="more|less")
