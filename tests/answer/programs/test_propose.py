"""Programs proposed from outside the enumeration (the LLM route's form): validated by the
language, executed by the one interpreter, ranked beside the enumerated candidates. The
reply texts here are what a model might write; the round trip through a real server is
tests/llm/test_programs.py."""

from __future__ import annotations

import pytest

from hyrag.answer.programs.execute import run
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.propose import describe, messages, parse
from hyrag.answer.programs.route import PROPOSED, model, rank
from hyrag.answer.programs.tables import tables
from hyrag.kb import KnowledgeBase
from hyrag.settings import Settings, SettingsError


def _cells(kb: KnowledgeBase) -> tuple[str, dict[str, tuple[int, int]]]:
    """The table's name and (row, column) of Product and Services in 2019 / 2018."""
    (name, ti), = tables(kb.store.con).items()
    out = {}
    for i, label in enumerate(ti.row_labels):
        for j, c in enumerate(ti.model.columns):
            if (i, j) in ti.cell_pos and c.period:
                out[f"{label} {c.period}"] = (i, j)
    return name, out


def test_the_prompt_names_every_row_and_column_by_the_numbers_a_program_uses(
        kb: KnowledgeBase) -> None:
    name, at = _cells(kb)
    text = describe(tables(kb.store.con).values())
    row, col = at["Services 2019"]
    assert f"table {name!r}" in text and f"{row}=Services" in text and f"{col}=" in text
    system = messages("What was the change in Services?", tables(kb.store.con).values())[0]
    assert "never compute" in system["content"] and "change_ratio" in system["content"]


def test_a_reply_is_read_as_programs_and_what_is_not_one_is_rejected_with_its_reason(
        kb: KnowledgeBase) -> None:
    name, at = _cells(kb)
    tabs = tables(kb.store.con)
    (r19, c19), (r18, c18) = at["Services 2019"], at["Services 2018"]
    good = {"op": "difference", "args": [{"table": name, "row": r19, "col": c19},
                                         {"table": name, "row": r18, "col": c18}],
            "value": 999}  # a number the model computed is not read
    reply = {"programs": [good, {"op": "median", "args": []},
                          {"op": "lookup", "args": [{"table": name, "row": 99, "col": 1}]}]}
    programs, rejected = parse(reply, tabs)
    assert programs == [Program("difference", (Cell(name, r19, c19), Cell(name, r18, c18)))]
    assert run(programs[0], tabs).values == (10.0,)
    assert len(rejected) == 2
    assert "unknown operator 'median'" in rejected[0] and "no cell" in rejected[1]
    assert "not a program" in parse({"programs": ["sum everything"]}, tabs)[1][0]
    assert parse("no programs here", tabs)[1][0].startswith("the reply is not a list")


def test_a_proposal_joins_the_ranking_and_its_prior_can_carry_it_first(
        kb: KnowledgeBase) -> None:
    """A torn ranking tips toward the proposal; its answer is the interpreter's figure."""
    name, at = _cells(kb)
    (r19, c19), (r18, c18) = at["Product 2019"], at["Services 2018"]
    odd = Program("multiply", (Cell(name, r19, c19), Cell(name, r18, c18)))
    q = "What is the value for Product and Services?"
    plain = rank(q, kb.store.con, model())
    assert plain and plain[0].candidate.program != odd
    ranked = rank(q, kb.store.con, model(), proposals=[odd], prior=10.0)
    top = ranked[0]
    assert top.candidate.program == odd and top.phi[1][PROPOSED] == 1.0
    assert top.result.values == (4000.0,)  # 100 x 40, computed here
    # without the prior the proposal is one candidate among the rest, not dropped
    assert any(r.candidate.program == odd for r in rank(q, kb.store.con, model(),
                                                         proposals=[odd]))


def test_the_prior_is_a_checked_setting() -> None:
    with pytest.raises(SettingsError, match="program_llm_prior"):
        Settings(program_llm_prior=-1.0)
