"""`hyrag bench answers --llm` end to end against the real server: both columns printed side by
side, the tokens the LLM route used, and per-question predictions carrying their LLM twin.

The synthesis step only: it makes one request per answered question, so three questions take
about a minute; with every step (the Warrant loop: up to 8 tool-calling requests a question,
prompts growing past 2,000 tokens) the same three took 16 minutes here under load."""

from __future__ import annotations

import pytest

pytest.importorskip("llama_cpp", reason="llama_cpp is not installed: the LLM tests run "
                    "with `make test-llm`")

import json  # noqa: E402

from hyrag.cli import main  # noqa: E402

from .conftest import Server  # noqa: E402


def test_bench_answers_llm_columns_and_tokens(server: Server, tmp_path, monkeypatch,
                                              capsys) -> None:
    monkeypatch.setenv("HYRAG_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("HYRAG_LLM_MODEL", server.model.name)
    monkeypatch.setenv("HYRAG_LLM_API_KEY", "local")
    out = tmp_path / "pred.json"
    assert main(["bench", "answers", "--llm", "--llm-steps", "synthesis", "--limit", "3",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    head = next(line for line in lines if line.split()[-2:] == ["offline", "LLM"])
    assert head.index("offline") < head.index("LLM")
    overall = next(line for line in lines if line.startswith("accuracy overall (n=3)"))
    assert len(overall.split()) == 5  # label (3 words), offline, LLM
    usage = next(line for line in lines if line.startswith("LLM: model "))
    assert server.model.name in usage and server.base_url in usage
    requests = int(usage.split("; ")[1].split()[0])
    assert requests > 0 and " prompt + " in usage and "completion tokens" in usage
    assert any(line.strip().startswith("synthesis ") for line in lines)  # per-step tokens
    assert "answers whose step output was used (llm) / degraded to offline" in text
    assert "reproduce: hyrag bench answers --limit 3 --llm --llm-steps synthesis" in text
    preds = json.loads(out.read_text())
    assert len(preds) == 3
    for p in preds:
        assert {"ok", "decision", "text"} <= set(p) and {"ok", "decision", "text"} <= set(
            p["llm"])
        assert p["llm"]["id"] == p["id"] and p["llm"]["text"].strip()
