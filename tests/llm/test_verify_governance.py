"""Numeric grounding runs on LLM drafts as on offline drafts; governance text never leaves."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_cpp", reason="llama_cpp is not installed: the LLM tests run "
                    "with `make test-llm`")

import json
import re

import openai

import hyrag
from hyrag.llm import LLMClient
from hyrag.llm.client import ChatResult

from .conftest import Server, settings

NURSES = "How many registered nurses did Riverside Clinic employ in 2024?"


class InventingClient(LLMClient):
    """The real server's synthesis, plus a sentence with a number no evidence holds — the
    behaviour of a model that invents a figure."""

    def chat(self, messages, **kw) -> ChatResult:
        res = super().chat(messages, **kw)
        if kw.get("step") == "synthesis":
            return ChatResult(res.content.rstrip() + " It also had 98,765 beds [1].",
                              res.tool_calls, res.finish_reason, res.prompt_tokens,
                              res.completion_tokens, res.message)
        return res


def test_llm_synthesis_is_verified_like_offline(kb_dir, client: LLMClient) -> None:
    with hyrag.open(kb_dir, settings=settings("synthesis"), llm=client) as kb:
        ans = kb.ask(NURSES)
        ev = kb.audit(ans.audit_id)
    steps = [e["payload"] for e in ev if e["kind"] in ("llm_step", "llm_degraded")]
    assert steps and steps[0]["step"] == "synthesis"
    ungrounded = [t for t in ans.verification.get("tokens", []) if t["status"] == "ungrounded"]
    if ungrounded:  # whatever SmolLM2 wrote: a number it invented fails verification
        assert ans.verification["verdict"] != "pass"
        assert ans.decision != "answer"


def test_invented_number_fails_verification(kb_dir, server: Server) -> None:
    c = InventingClient(server.config())
    with hyrag.open(kb_dir, settings=settings("synthesis"), llm=c) as kb:
        ans = kb.ask(NURSES)
    assert "98,765" in ans.text
    assert ans.verification["verdict"] == "fail"
    assert any("98,765" in json.dumps(f) for f in ans.verification["failures"])
    assert ans.decision != "answer"


POLICY = """
version = "zq-policy-v9"

[subjects.zoe]
roles = ["zq-role-analyst"]
tenant = "acme"
entitlements = ["internal"]

[[rules]]
id = "zq-rule-analysts-ask"
effect = "allow"
actions = ["schema", "search", "ask", "sql"]
roles = ["zq-role-analyst"]

[[rules]]
id = "zq-rule-classified-denied"
effect = "deny"
classifications = ["confidential", "restricted"]
entitled = false
"""

FORBIDDEN = ["zq-role", "zq-rule", "zq-policy", "analyst", "entitle", "classification",
             "confidential", "restricted", "policy", "tenant", "acme", "board memo"]


def test_no_governance_text_in_any_payload(tmp_path, server: Server) -> None:
    path = tmp_path / "gov"
    with hyrag.open(path) as kb:
        kb.ingest_text("Orbis Labs employed 120 engineers in 2024.", source="orbis.md",
                       tenant="acme")
        kb.ingest_text("Orbis Labs employed 777 engineers in 2024, says the board memo.",
                       source="memo.md", tenant="acme", classification="confidential")
    (path / "policy.toml").write_text(POLICY)
    sent: list[str] = []
    http = openai.DefaultHttpxClient(event_hooks={"request": [
        lambda r: sent.append(r.read().decode("utf-8", "replace"))]})
    c = LLMClient(server.config(), http_client=http)
    with hyrag.open(path, settings=settings("all"), llm=c, subject="zoe") as kb:
        ans = kb.ask("How many engineers did Orbis Labs employ in 2024?")
    assert sent, "no request reached the server"
    assert any("Orbis Labs" in s for s in sent)  # the question and allowed claims do go out
    for body in sent:
        low = ours(body).lower()
        for word in FORBIDDEN:
            assert word not in low, (word, body[:500])
        # the denied figure as a number (not inside a score such as 0.777)
        assert not DENIED.search(low), body[:500]
    assert not DENIED.search(ans.text)


DENIED = re.compile(r"(?<![\d.])777(?!\d)")


def ours(body: str) -> str:
    """What the engine composed in a request: every message but the assistant's (the model's
    own output echoed back, with the server's random tool-call ids — a hex id may well hold
    "777"), and the tool definitions. Governance text must never be in any of it."""
    data = json.loads(body)
    parts = [json.dumps(m.get("content"), ensure_ascii=False)
             for m in data.get("messages", []) if m.get("role") != "assistant"]
    parts.append(json.dumps(data.get("tools", []), ensure_ascii=False))
    return "\n".join(parts)
