"""The program language and its one interpreter, over a table ingested as a user would."""

from __future__ import annotations

import pytest

from hyrag.answer.programs.execute import ExecutionError, run, states_nothing
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.route import answer, rank
from hyrag.answer.programs.tables import tables
from hyrag.kb import KnowledgeBase
from tests.answer.conftest import csv_kb


def _at(kb: KnowledgeBase, label: str, period: str) -> Cell:
    """The cell of the row labelled `label` in the column of `period`, through the model."""
    for name, ti in tables(kb.store.con).items():
        for i, lab in enumerate(ti.row_labels):
            for j, c in enumerate(ti.model.columns):
                if lab == label and c.period == period and (i, j) in ti.cell_pos:
                    return Cell(name, i, j)
    raise AssertionError(f"no cell {label} / {period}")


def test_program_checks_its_operator_and_arity() -> None:
    c = Cell("t", 0, 1)
    with pytest.raises(ValueError, match="unknown operator"):
        Program("median", (c,))
    with pytest.raises(ValueError, match="difference takes 2"):
        Program("difference", (c,))
    with pytest.raises(ValueError, match="bad condition"):
        Program("difference", (c, c), where="<3")
    with pytest.raises(ValueError, match="only arithmetic"):
        Program("lookup", (c,), magnitude=True)


def test_program_round_trips_through_its_json_form() -> None:
    a, b = Cell("t", 1, 1), Cell("t", 1, 2)
    p = Program("average", (Program("difference", (a, b)), b))
    assert Program.from_dict(p.to_dict()) == p
    assert p.cells() == (a, b)
    assert p.depth() == 2
    sizes = Program("average", (a, b), magnitude=True)
    assert Program.from_dict(sizes.to_dict()) == sizes
    assert str(sizes) == "average(t[1,1], t[1,2]) of magnitudes"
    assert str(Program("labels", (a, b), where="<5")) == "labels(t[1,1], t[1,2] where <5)"


def test_arithmetic_over_cells_keeps_the_tables_scale(kb: KnowledgeBase) -> None:
    tabs = tables(kb.store.con)
    p19, p18 = _at(kb, "Product", "2019"), _at(kb, "Product", "2018")
    r = run(Program("difference", (p19, p18)), tabs)
    assert r.values == (20.0,) and r.scale == "thousand"
    assert r.expression == "100 - 80"
    r = run(Program("change_ratio", (p19, p18)), tabs)
    assert r.values == (25.0,) and r.scale == "percent"
    r = run(Program("average", (p19, p18)), tabs)
    assert r.values == (90.0,)
    s19 = _at(kb, "Services", "2019")
    r = run(Program("percent_of", (s19, _at(kb, "Total", "2019"))), tabs)
    assert round(r.values[0], 4) == 33.3333 and r.scale == "percent"
    # a nested program: (2019 - 2018) / 2018 of Services, as FinQA writes it
    nested = Program("divide", (Program("difference", (s19, _at(kb, "Services", "2018"))),
                                _at(kb, "Services", "2018")))
    assert run(nested, tabs).values == (0.25,)


def test_bracketed_deductions_read_as_amounts_only_when_the_program_says_so(
        kb: KnowledgeBase) -> None:
    """"The average returns" averages the amounts returned, 25; the signed figures average to
    -25. Both readings are programs; which one a question means is the ranker's choice."""
    tabs = tables(kb.store.con)
    r19, r18 = _at(kb, "Returns", "2019"), _at(kb, "Returns", "2018")
    assert run(Program("average", (r19, r18)), tabs).values == (-25.0,)
    sizes = run(Program("average", (r19, r18), magnitude=True), tabs)
    assert sizes.values == (25.0,) and sizes.scale == "thousand"
    assert sizes.expression == "(30 + 20) / 2"
    nested = Program("difference", (Program("sum", (r19, r18)), r18), magnitude=True)
    r = run(nested, tabs)  # |(-30) + (-20)| - |-20|: a computed operand's size, shown as such
    assert r.values == (30.0,) and "|-30 + -20|" in r.expression


def test_labels_argmax_and_conditions_name_periods_or_rows(kb: KnowledgeBase) -> None:
    tabs = tables(kb.store.con)
    row = (_at(kb, "Product", "2019"), _at(kb, "Product", "2018"))
    assert run(Program("argmax", row), tabs).values == ("2019",)
    assert run(Program("labels", row, where="<90"), tabs).values == ("2018",)
    assert run(Program("count", row, where=">50"), tabs).values == (2.0,)
    col = (_at(kb, "Product", "2019"), _at(kb, "Services", "2019"))
    assert run(Program("argmin", col), tabs).values == ("Services",)


def test_a_percent_cell_is_quoted_as_displayed(kb: KnowledgeBase) -> None:
    r = run(Program("lookup", (_at(kb, "Margin", "2019"),)), tables(kb.store.con))
    assert r.answer == ("20%",) and r.values == (20.0,)


def test_what_cannot_be_computed_is_an_execution_error(kb: KnowledgeBase) -> None:
    tabs = tables(kb.store.con)
    pct, amount = _at(kb, "Margin", "2019"), _at(kb, "Product", "2019")
    with pytest.raises(ExecutionError, match="different scales"):
        run(Program("sum", (pct, amount)), tabs)
    with pytest.raises(ExecutionError, match="no table"):
        run(Program("lookup", (Cell("nowhere", 0, 0),)), tabs)


def test_a_nil_mark_answers_no_lookup(tmp_path) -> None:
    """A statement's dash says there is no amount: a program reading only dashes executes
    (it is ranked as it was fitted) but states nothing, and the route commits no such answer
    ("what were the investing activities in 2019?" -> a gap, not "—"); a figure beside the
    dash is still a statement."""
    kb = csv_kb(tmp_path, "cash.csv", ",2019,2018\nOperating activities,\"1,250\",980\n"
                "Investing activities,—,$ -\nFinancing activities,(310),(295)\n")
    try:
        con = kb.store.con
        tabs = tables(con)
        dash = _at(kb, "Investing activities", "2019")
        dollar_dash = _at(kb, "Investing activities", "2018")
        figure = _at(kb, "Operating activities", "2019")
        assert states_nothing(run(Program("lookup", (dash,)), tabs))
        assert states_nothing(run(Program("each", (dash, dollar_dash)), tabs))
        assert not states_nothing(run(Program("each", (figure, dash)), tabs))
        best = rank("What were the investing activities in 2019?", con)[0]
        assert best.result.cells[0].row_label == "Investing activities"
        assert answer("What were the investing activities in 2019?", con,
                      min_confidence=0.0) is None
        assert answer("What were the operating activities in 2019?", con,
                      min_confidence=0.0) is not None
    finally:
        kb.close()


# periods named above the unit of each column, and periods named by dates
SPLIT_HEADER = """,2019,2019,2018,2018
,Amount,%,Amount,%
Maintenance,"16,000",40,"14,000",38
Licenses,"24,000",60,"22,800",62
"""
DATED = ""","April 27, 2019","April 28, 2018"
Property and equipment,165,172
"""


def test_a_column_answered_for_its_period_is_named_by_the_period(tmp_path) -> None:
    """"In which year was maintenance the highest?" over columns headed "2019" > "Amount":
    the answer is the period the header names, not the unit beneath it."""
    from tests.answer.conftest import csv_kb

    kb = csv_kb(tmp_path, "maintenance.csv", SPLIT_HEADER)
    try:
        tabs = tables(kb.store.con)
        (name, ti), = tabs.items()
        amounts = [j for j, c in enumerate(ti.model.columns) if c.path[-1:] == ("Amount",)]
        row = ti.row_labels.index("Maintenance")
        cells = tuple(Cell(name, row, j) for j in amounts)
        assert run(Program("argmax", cells), tabs).values == ("2019",)
        assert run(Program("labels", cells, where="<15000"), tabs).values == ("2018",)
    finally:
        kb.close()


def test_a_period_named_by_a_date_is_stated_as_its_year_when_the_program_says_so(
        tmp_path) -> None:
    from tests.answer.conftest import csv_kb

    kb = csv_kb(tmp_path, "ppe.csv", DATED)
    try:
        tabs = tables(kb.store.con)
        (name, ti), = tabs.items()
        cells = (Cell(name, 0, 1), Cell(name, 0, 2))
        assert run(Program("argmin", cells), tabs).values == ("April 27, 2019",)
        years = Program("labels", cells, where="<170", year=True)
        assert run(years, tabs).values == ("2019",)
        assert Program.from_dict(years.to_dict()) == years
        assert str(years) == f"labels({name}[0,1], {name}[0,2] where <170) as years"
        with pytest.raises(ValueError, match="only argmax / argmin / labels"):
            Program("sum", cells, year=True)
    finally:
        kb.close()
