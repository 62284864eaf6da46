"""CRAG self-correction: at most two rewrites; failures counted per column by the persisted
schema-evolution tracker, which proposes a reclassification past its threshold."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import hyrag
from hyrag.answer import engine as engine_mod
from hyrag.answer.verify import crag
from hyrag.answer.verify.tracker import SchemaEvolutionTracker
from hyrag.settings import Settings

SETTINGS = Settings(answer_use_search=False)


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"region": ["North", "South", "West"],
                         "revenue": [120.5, 98.25, 143.0], "year": [2024, 2024, 2024]})


@pytest.fixture
def kb_dir(tmp_path: Path) -> Path:
    with hyrag.open(tmp_path / "kb", settings=SETTINGS) as kb:
        kb.ingest(_frame(), name="regions")
    return tmp_path / "kb"


def test_run_stops_after_two_retries() -> None:
    calls: list[str] = []

    def attempt(q: str, trace: list[dict]) -> dict:
        calls.append(q)
        return {"verification": {"verdict": "fail", "score": 0.1, "failures": ["x"]}}

    n = iter(range(100))
    res = crag.run("q0", attempt, lambda a: a["verification"], lambda a: [],
                   retries=2, rewrite_fn=lambda *a, **k: f"q{next(n) + 1}")
    assert len(calls) == 3 and res.retries == 2
    assert res.stop.startswith("still fail after 2")
    assert res.answer is not None


def test_run_returns_first_pass_and_stops_without_a_new_rewrite() -> None:
    verdicts = iter(["weak", "pass", "pass"])
    res = crag.run("q", lambda q, t: {"v": next(verdicts), "q": q},
                   lambda a: {"verdict": a["v"], "score": 0.9},
                   lambda a: [{"attribute": "revenue", "entity": "North", "period": "2024"}])
    assert res.answer["v"] == "pass" and res.answer["q"] == "What was revenue of North in 2024?"
    res = crag.run("q", lambda q, t: {"v": "fail"}, lambda a: {"verdict": a["v"]},
                   lambda a: [])
    assert len(res.attempts) == 1 and res.stop == "no rewrite aims at the gap"


def test_rewrite_aims_at_the_failing_requirement() -> None:
    rep = {"sentences": [{"status": "unsupported", "sentence": "South revenue was 99 [2]."}]}
    reqs = [{"entity": "North", "attribute": "revenue", "period": "2024"},
            {"entity": "South", "attribute": "revenue", "period": "2024"}]
    assert crag.rewrite("orig", rep, reqs) == "What was revenue of South in 2024?"
    assert crag.rewrite("orig", rep, reqs, tried=["What was revenue of South in 2024?"]) is None


def _always_fail(real):
    def check(*a, **k):
        rep = real(*a, **k)
        rep["verdict"], rep["score"] = "fail", 0.1
        rep["tokens"] = [dict(t, status="ungrounded") for t in rep["tokens"]]
        rep["sentences"] = [dict(s, status="unsupported") for s in rep["sentences"]]
        return rep
    return check


def test_engine_retries_at_most_twice_and_tracker_persists(kb_dir: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(engine_mod, "check", _always_fail(engine_mod.check))
    with hyrag.open(kb_dir, settings=SETTINGS) as kb:
        a = kb.ask("What was the revenue of North in 2024?")
        assert a.verification["verdict"] == "fail" and a.decision != "answer"
        attempts = a.verification["crag"]["attempts"]
        assert 2 <= len(attempts) <= 3  # the question, then at most two rewrites
        assert attempts[0]["question"] == "What was the revenue of North in 2024?"
        kb.ask("What was the revenue of North in 2024?")
        n1 = SchemaEvolutionTracker(kb.store).count("regions", "revenue")
        assert n1 >= 3
    # a new session of the engine (a new process would do the same): the counts are kept
    with hyrag.open(kb_dir, settings=SETTINGS) as kb:
        tr = SchemaEvolutionTracker(kb.store, kb.settings.tracker_threshold)
        assert tr.count("regions", "revenue") == n1
        sug = tr.suggestions()
        assert list(sug["column_name"]) == ["revenue"]
        assert sug["proposal"][0].startswith("numeric -> check scale/unit")


def test_passing_answer_makes_no_retry(kb_dir: Path) -> None:
    with hyrag.open(kb_dir, settings=SETTINGS) as kb:
        a = kb.ask("What was the revenue of North in 2024?")
        assert a.decision == "answer" and "120.5" in a.text
        assert a.verification["verdict"] == "pass" and "crag" not in a.verification
        assert SchemaEvolutionTracker(kb.store).count("regions", "revenue") == 0


def test_tracker_threshold_and_read_only(kb_dir: Path) -> None:
    with hyrag.open(kb_dir, settings=SETTINGS) as kb:
        tr = SchemaEvolutionTracker(kb.store, threshold=2)
        assert tr.record("regions", "region", "r") == 1
        assert tr.suggestions().empty
        assert tr.record("regions", "region", "r") == 2
        assert list(tr.suggestions()["column_name"]) == ["region"]
    # a read-only store logs the failure beside it; the next read-write open counts it in
    with hyrag.open(kb_dir, settings=SETTINGS, read_only=True) as kb:
        assert SchemaEvolutionTracker(kb.store).record("regions", "region") == 3
    with hyrag.open(kb_dir, settings=SETTINGS) as kb:
        assert kb.store.con.execute("SELECT failures FROM schema_evolution WHERE column_name = "
                                    "'region'").fetchone() == (3,)
