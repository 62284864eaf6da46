"""`kb.ask`, `Answer`, `kb.ask_stream`, `hyrag ask` and `hyrag audit show`."""

from __future__ import annotations

import json

from hyrag.answer.answer import FIELDS
from hyrag.cli import main


def test_answer_to_dict_and_evidence_frame(akb):
    a = akb.ask("What was the total sales revenue in the West region in 2024?")
    d = a.to_dict()
    assert tuple(d) == FIELDS
    json.dumps(d)
    assert a.decision == "answer" and "210,596" in a.text
    f = a.evidence_frame()
    assert list(f.columns) == ["n", "claim_id", "source", "locator", "text", "score"]
    assert len(f) == len(a.evidence) >= 1
    assert a.requirements[0]["support"] == "direct"
    assert a.verification["verdict"] == "pass" and "ReverseVerifier" in a.verification["checker"]


def test_conflict_is_shown_side_by_side_with_ecr_trace(akb):
    a = akb.ask("What was the revenue of the North region in 2023Q4?")
    assert a.decision == "needs_verification" and a.conflicts
    values = {c["value"] for c in a.conflicts[0]["claims"]}
    assert values == {"59595.03", "65554.53"}
    assert {c["source"] for c in a.conflicts[0]["claims"]} == {"erp_revenue.csv",
                                                              "crm_revenue.csv"}
    assert a.ecr and a.ecr["triggered"] and a.ecr["trace"]
    assert "| 65554.53 | crm_revenue.csv |" in a.brief


def test_clarify_and_exploratory_latest(akb):
    a = akb.ask("What was Kestrel Dynamics revenue?")
    assert a.decision == "clarify" and "2023" in a.text and "2024" in a.text
    b = akb.ask("What was Kestrel Dynamics revenue?", trust="exploratory")
    assert b.decision == "answer" and "1,410.2" in b.text


def test_ask_stream_yields_stage_events(akb):
    events = list(akb.ask_stream("Compare the graduate employment rates of Crestwood College "
                                 "and Northgate University."))
    types = [e["type"] for e in events]
    assert types[:2] == ["parse", "route"]
    assert "commit" in types and "gap" in types and "sentence" in types
    assert types.index("verification") < types.index("sentence")
    assert types[-1] == "final" and events[-1]["answer"].decision == "needs_verification"


def test_cli_ask_json_and_audit_show(tmp_path, sample_dir, capsys):
    import hyrag

    answer_kb_dir = tmp_path / "kb"
    with hyrag.open(answer_kb_dir) as kb:  # its own folder: the session one is open already
        kb.ingest_many([sample_dir / "docs" / "northgate_overview_2024.pdf",
                        sample_dir / "docs" / "crestwood_employment_outcomes_2024.pdf"])
    q = "What was the graduate employment rate of Northgate University?"
    assert main(["ask", q, "--kb", str(answer_kb_dir), "--no-search", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == "abstain" and out["gaps"][0]["entity"] == "Northgate University"
    assert main(["audit", "show", out["audit_id"], "--kb", str(answer_kb_dir)]) == 0
    shown = capsys.readouterr().out
    assert "declared absent" in shown and "abstain" in shown
    assert main(["audit", "show", "nope", "--kb", str(answer_kb_dir)]) == 1
    assert "no audit events" in capsys.readouterr().err
    assert main(["ask", "  ", "--kb", str(answer_kb_dir), "--no-search"]) == 1
