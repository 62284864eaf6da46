"""The Warrant loop's conversation stays inside the endpoint's context window (pure functions;
the loop against a real server is in tests/llm)."""

from __future__ import annotations

import json

import pytest

from hyrag.errors import SettingsError
from hyrag.llm.warrant_loop import estimate_tokens, fit_messages
from hyrag.settings import Settings


def _tool_result(i: int, n_docs: int = 8) -> dict:
    docs = [{"doc_id": f"c{i}-{j}", "text": "Revenue of the North region in 2023 " * 12,
             "entity": "North", "attribute": "revenue", "period": "2023", "value": str(100 + j),
             "source": "orders.csv"} for j in range(n_docs)]
    return {"role": "tool", "tool_call_id": f"t{i}",
            "content": json.dumps({"requirement": "North revenue", "documents": docs})}


def _conversation(rounds: int) -> list[dict]:
    msgs = [{"role": "system", "content": "rules " * 50},
            {"role": "user", "content": "Question: revenue of North in 2023?"}]
    for i in range(rounds):
        msgs.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"t{i}", "type": "function", "function": {
                "name": "retrieve_knowledge", "arguments": '{"query": "North revenue"}'}}]})
        msgs.append(_tool_result(i))
    return msgs


def test_oldest_tool_results_lose_their_texts_first() -> None:
    msgs = _conversation(4)
    full = estimate_tokens(msgs)
    budget = full - 600
    out, fits = fit_messages(msgs, budget)
    assert fits and estimate_tokens(out) <= budget
    tools = [json.loads(m["content"]) for m in out if m["role"] == "tool"]
    assert "elided" in tools[0] and "elided" not in tools[-1]  # the latest is what it acts on
    # what commit_facts needs survives the trimming
    assert [d["doc_id"] for d in tools[0]["documents"]] == [f"c0-{j}" for j in range(8)]
    assert all(set(d) == {"doc_id", "period", "value"} for d in tools[0]["documents"])
    assert msgs[3]["content"] != out[3]["content"] and msgs is not out  # the input is untouched
    assert "elided" not in json.loads(msgs[3]["content"])


def test_a_conversation_that_fits_is_unchanged() -> None:
    msgs = _conversation(2)
    out, fits = fit_messages(msgs, estimate_tokens(msgs))
    assert fits and out == msgs


def test_says_when_nothing_more_can_be_trimmed() -> None:
    msgs = _conversation(3)
    out, fits = fit_messages(msgs, 50)
    assert not fits
    assert all("elided" in json.loads(m["content"]) for m in out if m["role"] == "tool")


def test_context_setting_must_leave_room_for_the_reply() -> None:
    assert Settings().llm_context_tokens == 4096
    with pytest.raises(SettingsError, match="llm_context_tokens must exceed llm_max_tokens"):
        Settings(llm_context_tokens=512, llm_max_tokens=512)
