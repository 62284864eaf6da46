"""The LLM route proposes programs against the real model: whatever SmolLM2 replies, every
proposal is either a program over cells the tables hold, executed by the interpreter, or
rejected with its reason; the answer's figures are the interpreter's, never the model's."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("llama_cpp", reason="llama_cpp is not installed: the LLM tests run "
                    "with `make test-llm`")

import hyrag  # noqa: E402
from hyrag.answer.programs.execute import run  # noqa: E402
from hyrag.answer.programs.language import Program  # noqa: E402
from hyrag.answer.programs.propose import propose_llm  # noqa: E402
from hyrag.answer.programs.tables import tables  # noqa: E402
from hyrag.llm import LLMClient  # noqa: E402
from hyrag.llm.steps import run_step  # noqa: E402

from .conftest import settings  # noqa: E402

REPORT = """Revenue by line (in thousands),,
,2019,2018
Product,100,80
Services,50,40
Total,150,120
"""
QUESTION = "What was the change in Services revenue from 2018 to 2019?"
# what a small model may do wrong and the route degrades on (hyrag.llm.client): not JSON, or
# cut at the token limit; "unavailable" (a server that is down or crashed) is no such fault
MODEL_FAULTS = ("malformed", "truncated", "refused")


@pytest.fixture(scope="module")
def kb_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("programs")
    (folder / "revenue.csv").write_text(REPORT, encoding="utf-8")
    with hyrag.open(folder / "kb", settings=settings()) as kb:
        kb.ingest(folder / "revenue.csv")
    return folder / "kb"


def test_every_proposal_is_a_program_over_held_cells_or_a_stated_rejection(
        client: LLMClient, kb_path: Path) -> None:
    with hyrag.open(kb_path, settings=settings(), read_only=True) as kb:
        tabs = tables(kb.store.con)
        ev: list[tuple[str, dict]] = []
        programs, rejected = run_step("programs", lambda: propose_llm(client, QUESTION, tabs),
                                      lambda: ([], []), lambda k, p: ev.append((k, p)))
        assert client.log[-1].step == "programs"
        if ev[-1][0] == "llm_degraded":  # a reply that is no JSON: the reason is recorded
            # or cut at the token limit; an unreachable or crashed server is a failure here
            assert ev[-1][1]["kind"] in MODEL_FAULTS, ev[-1][1]
            assert ev[-1][1]["reason"] and not programs
        else:
            assert ev[-1][0] == "llm_step"
        for p in programs:
            assert isinstance(p, Program)
            assert all((c.row, c.col) in tabs[c.table].cell_pos for c in p.cells())
        assert all(isinstance(r, str) and r for r in rejected)


def test_an_answer_with_proposals_is_the_interpreters_and_the_audit_records_them(
        client: LLMClient, kb_path: Path) -> None:
    s = settings("programs", answer_core="programs", program_min_confidence=0.0)
    with hyrag.open(kb_path, settings=s, llm=client, read_only=True) as kb:
        events = list(kb.ask_stream(QUESTION))
        a = events[-1]["answer"]
        kinds = [e["type"] for e in events]
        degraded = [e for e in events if e["type"] == "llm_degraded"]
        assert "program_proposals" in kinds or degraded, kinds
        assert all(e["kind"] in MODEL_FAULTS for e in degraded), degraded
        assert a.program is not None, a.text
        program = Program.from_dict(a.program["program"])
        assert list(run(program, tables(kb.store.con)).values) == list(a.values)
        if a.program["proposed_by_llm"]:
            proposed = next(e for e in events if e["type"] == "program_proposals")["proposed"]
            assert a.program["program"] in proposed
