"""A figure computed from figures displayed in thousands is stated in thousands, and verified
as such: through `kb.ask` on a report table ingested here."""

from __future__ import annotations

from pathlib import Path

import hyrag

REPORT = """($ in thousands),2019,2018,2017
Revenue,"120,500","110,200","98,300"
Cost of revenue,"(60,100)","(58,000)","(51,200)"
Interest cost,"1,200","1,450","1,300"
"""


def _kb(tmp_path: Path):
    path = tmp_path / "statement.csv"
    path.write_text(REPORT, encoding="utf-8")
    kb = hyrag.open(tmp_path / "kb")
    kb.ingest(path)
    return kb


def test_a_derived_figure_states_its_operands_magnitude(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    try:
        a = kb.ask("What was the change in revenue from 2018 to 2019?")
        assert a.decision == "answer", a.text
        assert "10,300 thousand [1][2]" in a.text  # its evidence cited in reading order
        assert a.verification["verdict"] == "pass"
        a = kb.ask("What was the average cost of revenue for 2018 and 2019?")
        assert a.decision == "answer", a.text
        assert "-59,050 thousand" in a.text
        # a rate of change is no figure in thousands
        a = kb.ask("What was the percentage change in revenue from 2018 to 2019?")
        assert "9.35%" in a.text and "9.35% thousand" not in a.text
    finally:
        kb.close()


def test_a_line_item_is_named_once(tmp_path: Path) -> None:
    """A row label read as both entity and attribute is not written twice ("Interest cost
    Interest cost in 2018")."""
    kb = _kb(tmp_path)
    try:
        a = kb.ask("What was the revenue in 2019 and 2018?")
        assert a.decision == "answer", a.text
        assert "Revenue in 2019 was 120,500 thousand" in a.text
        assert "Revenue Revenue" not in a.text
    finally:
        kb.close()
