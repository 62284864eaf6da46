"""The linker's reading of tables a user ingests: what names a row, and how related a
question's words are to a column's header."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyrag.answer.programs.link import Question, link_rows
from hyrag.answer.programs.lists import enumerate_list_programs
from hyrag.answer.programs.relatedness import asked_words, question_rarity, relatedness
from hyrag.answer.programs.tables import tables
from hyrag.embed import static_model_available
from tests.answer.conftest import csv_kb

FEES = """Fees paid to the auditor,,
,2019,2018
Audit Fees (1),"$55,000","$58,000"
Tax Fees (2),"$11,000","$28,000"
All Other Fees,$-,$-
Total Fees,"$66,000","$86,000"
"""


def test_a_footnote_mark_after_a_row_label_names_nothing(tmp_path: Path) -> None:
    """"Audit Fees (1)" is named by "audit fees" as fully as "Total Fees" by "total fees":
    the mark points at a note below the table. Asked for "the total amount of audit fees",
    the audit fees row is the best named, not the total's."""
    kb = csv_kb(tmp_path, "fees.csv", FEES)
    try:
        (ti,) = tables(kb.store.con).values()
        rows = link_rows(Question.of("What is the total amount of audit fees in 2019?"), ti)
        labels = [ti.row_labels[r.index] for r in rows]
        assert labels[0] == "Audit Fees (1)", labels
        assert rows[0].label_cov == pytest.approx(1.0)
        tax = next(r for r in link_rows(Question.of("What were the tax fees in 2018?"), ti)
                   if ti.row_labels[r.index] == "Tax Fees (2)")
        assert tax.label_cov == pytest.approx(1.0)
    finally:
        kb.close()


def test_asked_words_leave_out_function_words_and_the_cells_words() -> None:
    assert asked_words("Who earns the most in Sales?", lambda w: w == "sales") == (
        "earns", "most")


STAFF = """Name,Department,Salary,Joined
Ann Lee,Sales,5100,1998
Bo Chan,IT,6200,2001
Cy Diaz,IT,4800,2005
"""


@pytest.mark.skipif(not static_model_available(),
                    reason="the static embedding model ships in the package; a checkout "
                           "without hyrag/embed/models/minilm-static has no relatedness")
def test_a_header_named_in_other_words_is_related_to_the_question(tmp_path: Path) -> None:
    """"Who earns the most?" names no header's word; "earns" is related to "Salary" far more
    than to "Name" or "Joined", and the list candidates that state or pick by the salary
    column carry it as a feature the ranker weighs (`col_rel`)."""
    rel = relatedness(["earns"], ["Name", "Department", "Salary", "Joined"])[:, 0]
    assert rel.argmax() == 2 and rel[2] > 0.5 > max(rel[0], rel[1], rel[3])
    kb = csv_kb(tmp_path, "staff.csv", STAFF)
    try:
        (ti,) = tables(kb.store.con).values()
        salary = [c.path[-1] for c in ti.model.columns].index("Salary")
        cands = enumerate_list_programs(Question.of("Who earns the most?"), ti)
        picked = [c for c in cands if c.program.op == "argmax"
                  and c.program.cells()[0].col == salary]
        assert picked and all(c.features["x_col_rel_best"] == 1.0 for c in picked)
        assert all(c.features.get("x_col_rel_best", 0.0) == 0.0 for c in cands
                   if c.program.op == "argmax" and c.program.cells()[0].col != salary)
    finally:
        kb.close()


def test_words_every_other_question_uses_weigh_less_than_rare_ones() -> None:
    """"most" and "first" say how to read a table, "attendance" which column: the question
    rarity fitted with the Knowledge-Gap check's term statistics tells them apart."""
    most, first, attendance = question_rarity(["most", "first", "attendance"])
    assert 0.0 <= max(most, first) < attendance <= 1.0


def test_relatedness_without_words_is_zero() -> None:
    assert relatedness([], ["Salary"]).shape == (1, 0)
    assert relatedness(["earns"], []).shape == (0, 1)
