"""The linker's reading of tables a user ingests: what names a row."""

from __future__ import annotations

from pathlib import Path

import pytest

from hyrag.answer.programs.link import Question, link_rows
from hyrag.answer.programs.tables import tables
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
