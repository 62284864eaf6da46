"""The other LLM steps against the real model: whatever SmolLM2 answers, each step returns
output that passed its check in code, or the offline twin's with the reason recorded."""

from __future__ import annotations

import contextlib

import pytest

pytest.importorskip("llama_cpp", reason="llama_cpp is not installed: the LLM tests run "
                    "with `make test-llm`")

import ecr  # noqa: E402
import hyrag  # noqa: E402
from hyrag.answer.parse.catalog import load_catalog  # noqa: E402
from hyrag.llm import LLMClient  # noqa: E402
from hyrag.llm.steps import (  # noqa: E402
    LLMHypothesisGenerator,
    extract_claims_llm,
    hyde_llm,
    rerank_llm,
    rerank_offline,
    run_step,
    text2sql_llm,
)

from .conftest import settings  # noqa: E402


def _rec(events: list):
    return lambda kind, payload: events.append((kind, payload))


def test_rerank_ids_are_candidates_and_confidence_bounded(client: LLMClient) -> None:
    cands = [{"claim_id": f"c{i}", "text": t, "score": s} for i, (t, s) in enumerate([
        ("Riverside Clinic employed 412 registered nurses in 2024.", 0.9),
        ("Crestwood College had 5,200 students.", 0.6),
        ("Riverside Clinic employed 57 physicians in 2024.", 0.5)])]
    ev: list = []
    rk = run_step("rerank", lambda: rerank_llm(client, "How many nurses at Riverside?", cands),
                  lambda: rerank_offline(cands), _rec(ev))
    assert sorted(rk.ids) == ["c0", "c1", "c2"] and 0.0 <= rk.confidence <= 1.0
    assert ev[-1][0] in ("llm_step", "llm_degraded")


def test_hyde_is_a_bounded_sentence(client: LLMClient) -> None:
    text = run_step("hyde", lambda: hyde_llm(client, "How many nurses did Riverside Clinic "
                                             "employ in 2024?"), lambda: "", None)
    assert isinstance(text, str) and len(text) <= 400


def test_hypotheses_only_values_candidates_state(client: LLMClient) -> None:
    readings = [ecr.Reading("a", "R1", 412.0, 0.9, "Riverside Clinic, nurses, 2024"),
                ecr.Reading("b", "R1", 410.0, 0.7, "Riverside Clinic, nurses, 2024")]
    ev: list = []
    space = LLMHypothesisGenerator(client, record=_rec(ev)).generate(
        "How many nurses did Riverside Clinic employ in 2024?", readings)
    assert space.hypotheses
    for h in space.hypotheses:
        assert h.value in (412.0, 410.0, None)
        assert set(h.basis) <= {"a", "b"}


def test_text2sql_passes_grounding_and_guard_or_degrades(kb_dir, client: LLMClient) -> None:
    with hyrag.open(kb_dir, settings=settings("text2sql"), read_only=True) as kb:
        cat = load_catalog(kb.store)
        ev: list = []
        sql = run_step("text2sql", lambda: text2sql_llm(
            client, "What was the total revenue in the North region?", cat, "sales"),
            lambda: None, _rec(ev))
        if sql is None:
            assert ev[-1][0] == "llm_degraded" and ev[-1][1]["reason"]
        else:  # grounded; the guard still decides (a rejection is typed, never a crash)
            with contextlib.suppress(hyrag.HyragError):
                kb.sql(sql)


def test_claim_extraction_keeps_only_verbatim_claims(client: LLMClient) -> None:
    passage = ("Riverside Clinic employed 412 registered nurses and 57 physicians in 2024. "
               "The clinic opened a new wing.")
    claims = run_step("claims", lambda: extract_claims_llm(client, passage), lambda: [], None)
    for c in claims:
        assert c["sentence"] in passage and c["entity"] in c["sentence"]
        assert c["value"] in c["sentence"]
