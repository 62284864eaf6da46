"""ECR inside the engine: one claim committed for two requirements is one piece of evidence."""

from __future__ import annotations

from types import SimpleNamespace

from hyrag.answer.engine import AnswerEngine
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.requirements import Requirement
from hyrag.answer.parse.router import Route
from hyrag.settings import Settings


def fact(cid: str, req: str, value: float, source: str) -> Fact:
    return Fact(claim_id=cid, requirement=req, source=source, locator="{}",
                text=f"Revenue of North in 2024 was {value}.", entity="North",
                attribute="revenue", value=value, value_text=str(value), value_base=value,
                unit="", scale="", time_key="2024", kind="cell", table="sales", score=1.0,
                warrant_query="", confidence=0.95)


def test_a_claim_shared_by_two_requirements_does_not_break_resolution() -> None:
    store = CommitmentStore()
    for f in (fact("c1", "R1", 100.0, "erp.csv"), fact("c1", "R2", 100.0, "erp.csv"),
              fact("c2", "R1", 120.0, "crm.csv")):
        store.commit(f)
    assert [f.claim_id for f in store.facts] == ["c1", "c1", "c2"]
    req = Requirement("R1", "North", "revenue", period="2024")
    verdicts = [Verdict(req, "conflicting", ("c1", "c2"))]
    engine = AnswerEngine(SimpleNamespace(settings=Settings(), llm=None))
    events: list = []
    out = engine._ecr("What was North's revenue in 2024?", Route.LOOKUP, verdicts, store,
                      lambda kind, data: events.append((kind, data)))
    assert out is not None and out["triggered"]
    chosen = [s["claim_id"] for s in out["trace"]]
    assert len(chosen) == len(set(chosen)) <= 2
