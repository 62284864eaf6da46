"""List-table programs (`hyrag.answer.programs.lists`): a table of one row per entity, read
through `kb.ingest(path)`; the new forms of the language (`where "=value"`, `report`) parse,
serialise and execute over the table model, the enumerator offers the program a question
means, and the route commits it in the engine's types."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hyrag.answer.programs import route
from hyrag.answer.programs.candidates import enumerate_programs
from hyrag.answer.programs.execute import ExecutionError, run, same_text
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.link import Question, link_cells
from hyrag.answer.programs.score import Model
from hyrag.answer.programs.tables import tables
from tests.answer.conftest import ROSTER, csv_kb, fixed_ranker


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):
    k = csv_kb(tmp_path_factory.mktemp("lists"), "roster.csv", ROSTER)
    yield k
    k.close()


@pytest.fixture(scope="module")
def tabs(kb):
    return tables(kb.store.con)


@pytest.fixture(scope="module")
def ti(tabs):
    (only,) = tabs.values()
    return only


def col(ti, header: str) -> int:
    return next(j for j, c in enumerate(ti.model.columns) if c.path[-1] == header)


def row(ti, text: str) -> int:
    return next(i for (i, _j) in ti.values[text.lower()])


def column_cells(ti, header: str) -> tuple[Cell, ...]:
    j = col(ti, header)
    return tuple(Cell(ti.model.name, i, j) for i in range(len(ti.model.rows))
                 if (i, j) in ti.cell_pos)


def test_new_forms_parse_and_round_trip() -> None:
    a, b = Cell("t", 0, 1), Cell("t", 1, 1)
    p = Program("argmax", (a, b), report=2)
    assert Program.from_dict(json.loads(json.dumps(p.to_dict()))) == p
    assert "report column 2" in str(p)
    q = Program("count", (a, b), "=Lakeside")
    assert Program.from_dict(q.to_dict()) == q
    with pytest.raises(ValueError):
        Program("lookup", (a,), report=2)  # only argmax / argmin report another column
    with pytest.raises(ValueError):
        Program("count", (a, b), "=")  # an equality names a value
    with pytest.raises(ValueError):
        Program("difference", (a, b), "=Lakeside")  # a condition keeps operands of a list


def test_same_text_ignores_case_accents_and_articles() -> None:
    assert same_text("The Lakeside", "lakeside")
    assert same_text("Sierra Norte!", "sierra  norte")
    assert not same_text("Lakeside", "Lakeside East")


def test_execute_count_where_equal(ti, tabs) -> None:
    r = run(Program("count", column_cells(ti, "Club"), "=lakeside"), tabs)
    assert r.values == (2.0,)
    assert {c.text for c in r.cells} == {"Lakeside"}


def test_execute_argmax_reports_another_column(ti, tabs) -> None:
    wins = column_cells(ti, "Wins")
    r = run(Program("argmax", wins, report=col(ti, "Skater")), tabs)
    assert r.answer == ("Alma Torvik",)
    # a tie states every tied row, in operand order: Bram Ostler and Cleo Marchetti have 3
    third = tuple(c for c in wins if c.row != row(ti, "Alma Torvik"))
    assert run(Program("argmax", third, report=col(ti, "Skater")), tabs).answer == (
        "Bram Ostler", "Cleo Marchetti")
    r = run(Program("argmin", column_cells(ti, "Debut"), report=col(ti, "Club")), tabs)
    assert r.answer == ("Fjord SC",)


def test_execute_figures_in_a_year_column_are_numbers(ti, tabs) -> None:
    name, d = ti.model.name, col(ti, "Debut")
    a, b = Cell(name, row(ti, "Dario Kent"), d), Cell(name, row(ti, "Bram Ostler"), d)
    assert run(Program("difference", (a, b)), tabs).values == (8.0,)


def test_execute_report_of_a_missing_cell_is_an_error(ti, tabs) -> None:
    with pytest.raises(ExecutionError):
        run(Program("argmax", column_cells(ti, "Wins"), report=99), tabs)


def test_cell_values_are_linked(ti) -> None:
    links = link_cells(Question.of("How many skaters skate for Lakeside?"), ti)
    assert links and links[0].text == "lakeside" and links[0].exact
    assert len({i for i, _ in links[0].cells}) == 2


def _programs(ti, question: str) -> set[str]:
    return {str(c.program) for c in enumerate_programs(Question.of(question), ti)}


def test_enumeration_offers_the_list_programs(ti) -> None:
    name = ti.model.name
    club, skater = col(ti, "Club"), col(ti, "Skater")
    count = Program("count", column_cells(ti, "Club"), "=lakeside")
    assert str(count) in _programs(ti, "How many skaters skate for Lakeside?")
    most = Program("argmax", column_cells(ti, "Wins"), report=skater)
    assert str(most) in _programs(ti, "Which skater has the most wins?")
    after = Program("lookup", (Cell(name, row(ti, "Bram Ostler") + 1, skater),))
    assert str(after) in _programs(ti, "Who is listed after Bram Ostler?")
    first = Program("lookup", (Cell(name, 0, club),))
    assert str(first) in _programs(ti, "Which club is listed first?")
    debut = Program("lookup", (Cell(name, row(ti, "Cleo Marchetti"), col(ti, "Debut")),))
    assert str(debut) in _programs(ti, "What year did Cleo Marchetti debut?")


def test_candidates_stay_bounded(ti) -> None:
    # a few hundred per table (the caps of `lists` and `candidates`): the yes / no comparison
    # of two named rows and the rows sharing a named row's cell added about 30; two conditions
    # on two columns (three named values: three pairs), first / last passing a condition,
    # rarest / distinct and filtered averages about 50 more
    q = "What is the difference in wins between Alma Torvik, Bram Ostler and Dario Kent?"
    assert len(enumerate_programs(Question.of(q), ti)) < 750


def test_route_commits_a_count(kb, tmp_path: Path) -> None:
    weights = tmp_path / "w.json"
    Model({"op=count/equal/count": 5.0, "arg:val_exact": 2.0}, 0.0, {}).save(weights)
    found = route.answer("How many skaters skate for Lakeside?", kb.store.con,
                         weights=str(weights))
    assert found is not None
    assert found.answer == 2.0
    assert found.program["operation"] == "count"
    assert found.program["program"]["where"] == "=lakeside"


def test_a_count_of_text_cells_is_answered_and_verified(tmp_path: Path) -> None:
    # the counted cells ("Lakeside" twice) hold no figure: the count's derivation cites them as
    # items, and the ReverseVerifier checks they are committed claims, not numbers
    s = fixed_ranker(tmp_path, {"op=count/equal/count": 5.0, "arg:val_exact": 2.0})
    with csv_kb(tmp_path, "roster.csv", ROSTER, s) as k:
        a = k.ask("How many skaters skate for Lakeside?")
    assert a.decision == "answer", (a.text, a.verification)
    assert a.values == (2.0,) and a.program["operation"] == "count"
    assert a.verification["verdict"] == "pass"
    [d] = a.derivations
    assert d["name"] == "count" and len(d["operands"]) == 2


def test_route_commits_an_argmax_reporting_a_name(kb, tmp_path: Path) -> None:
    weights = tmp_path / "w.json"
    Model({"op=argmax/plain/rows": 5.0, "arg:col_cov": 3.0, "arg:x_col_cov": 3.0,
           "arg:role=categorical": 1.0, "arg:role=text": 1.0, "arg:role=id": 1.0}, 0.0,
          {}).save(weights)
    ranked = route.rank("Which skater has the most wins?", kb.store.con,
                        Model.load(weights))
    assert ranked[0].result.answer == ("Alma Torvik",)
