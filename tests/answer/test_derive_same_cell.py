"""The engine's arithmetic (`AnswerEngine._derive`) over the facts its requirements committed:
two requirements resting on one and the same cell ("the difference between total net
receivables and current net receivables", both mapped onto the "Current" cell) give no
difference of 0 — a figure against itself answers nothing — while two cells do."""

from __future__ import annotations

from hyrag.answer.engine import AnswerEngine
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.parser import ParsedQuestion
from hyrag.answer.parse.requirements import Requirement


def _fact(cid: str, rid: str, value: float) -> Fact:
    return Fact(claim_id=cid, requirement=rid, source="t", locator="{}", text="", entity="Net",
                attribute="Current", value=value, value_text=str(value), value_base=value,
                unit="", scale="", time_key=None, kind="cell", table="t", score=1.0,
                warrant_query="")


def _derive(cells: list[tuple[str, float]]) -> list:
    store = CommitmentStore()
    verdicts = []
    for i, (cid, v) in enumerate(cells, 1):
        req = Requirement(f"R{i}", "Net receivables", "Current")
        store.commit(_fact(cid, req.rid, v))
        verdicts.append(Verdict(req, "direct", (cid,)))
    parsed = ParsedQuestion("q", (), operation="difference")
    return AnswerEngine._derive(None, parsed, verdicts, store, {})


def test_one_cell_for_two_requirements_is_no_difference() -> None:
    assert _derive([("c1", 23524.0), ("c1", 23524.0)]) == []


def test_two_cells_are_subtracted() -> None:
    ds = _derive([("c2", 27579.0), ("c1", 23524.0)])
    assert len(ds) == 1 and ds[0].result == 4055.0
