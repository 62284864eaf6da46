"""Many readers at once: commands that only read open the store read-only, so several `hyrag
ask` / `hyrag sql` processes and a notebook work on one knowledge base together, and what they
record (audit events, tracker failures) goes to the read log beside the file, merged into the
store by the next read-write open and replayable before that."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import hyrag
from hyrag.answer.verify.tracker import SchemaEvolutionTracker
from hyrag.cli import main
from hyrag.errors import StoreError
from hyrag.policy import PolicyDenied
from hyrag.readlog import read

ROOT = Path(__file__).resolve().parents[2]

POLICY = """
version = "readers-1"

[subjects.ana]
roles = ["analyst"]
tenant = "default"
entitlements = ["internal"]

[subjects.aud]
roles = ["auditor"]
tenant = "default"

[[rules]]
id = "analysts-read"
effect = "allow"
actions = ["schema", "search", "ask", "sql"]
roles = ["analyst"]

[[rules]]
id = "auditors-read-audit"
effect = "allow"
actions = ["audit.read"]
roles = ["auditor"]
"""

ASKS = ("What was the revenue of North in 2024?", "What was the revenue of South in 2023?",
        "What was the headcount of East in 2024?")
SQLS = ("SELECT region, revenue FROM plans WHERE year = 2024 ORDER BY region",
        "SELECT sum(headcount) AS n FROM plans")
MY_SQL = "SELECT region, revenue FROM plans WHERE year = 2024 AND revenue > 0 ORDER BY region"


@pytest.fixture(autouse=True)
def hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")


@pytest.fixture()
def kb_dir(tmp_path: Path, hashed: None) -> Path:
    """A governed knowledge base with its vectors written (so readers never need to write)."""
    csv = tmp_path / "plans.csv"
    pd.DataFrame({
        "region": ["North", "South", "East", "West"] * 2,
        "year": [2023] * 4 + [2024] * 4,
        "revenue": [120.0, 80.0, 60.0, 40.0, 150.0, 95.0, 70.0, 45.0],
        "headcount": [12, 8, 6, 4, 14, 9, 7, 5],
    }).to_csv(csv, index=False)
    path = tmp_path / "kb"
    with hyrag.open(path) as kb:
        kb.ingest(csv)
        kb.index()
    (path / "policy.toml").write_text(POLICY)
    return path


def _env() -> dict[str, str]:
    env = dict(os.environ, HYRAG_EMBED_TIER="hashed")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _hyrag(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hyrag.cli", *args], cwd=ROOT, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _sql_request(path: Path, query: str) -> str:
    """The request id of a `sql` request (its audit id is not printed): the verdict naming
    the statement, read from the read log."""
    for r in read(path / "hyrag.readlog.jsonl"):
        if r["kind"] == "policy.verdict" and json.loads(r["payload"])["detail"].get("sql") == query:
            return r["request_id"]
    raise AssertionError(f"no audit record of {query!r}")


def test_readers_run_together_and_every_request_is_audited(kb_dir: Path) -> None:
    t0 = time.perf_counter()
    procs = [_hyrag("ask", q, "--json", "--kb", str(kb_dir), "--as", "ana") for q in ASKS]
    procs += [_hyrag("sql", q, "--json", "--kb", str(kb_dir), "--as", "ana") for q in SQLS]
    # the notebook: open read-only until every process is done, so each of them opened the
    # file while another reader held it (a read-write open would have been refused)
    with hyrag.open(kb_dir, read_only=True, subject="ana") as kb:
        mine = kb.ask(ASKS[0])
        rows = kb.sql(MY_SQL).rows
        outs = [p.communicate(timeout=240) for p in procs]
        elapsed = time.perf_counter() - t0
        for p, (_, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, (p.args, err)
        answers = [json.loads(out) for out, _ in outs[:len(ASKS)]]
        assert json.loads(outs[len(ASKS)][0])["rows"] == [
            {"region": r, "revenue": v} for r, v in rows]
        assert "150" in mine.text and "150" in answers[0]["text"]
        ids = [mine.audit_id, *(a["audit_id"] for a in answers),
               *(_sql_request(kb_dir, q) for q in (*SQLS, MY_SQL))]
        assert all(ids) and len(set(ids)) == len(ids)
        aud = kb.as_subject("aud")
        before = {i: aud.audit(i) for i in ids}  # replayable at once, from the read log
    print(f"\n{len(procs)} reader processes + a notebook: {elapsed:.1f} s")
    for i in ids:
        kinds = [e["kind"] for e in before[i]]
        assert kinds[0] == "policy.verdict", kinds
    for a in (mine.audit_id, *(a["audit_id"] for a in answers)):
        assert {"parse", "context_pack", "answer"} <= {e["kind"] for e in before[a]}
    t1 = time.perf_counter()
    with hyrag.open(kb_dir, subject="aud") as kb:  # read-write: merges the log
        merged = time.perf_counter() - t1
        assert (kb_dir / "hyrag.readlog.jsonl").stat().st_size == 0
        for i in ids:
            n = kb.store.con.execute("SELECT count(*) FROM audit WHERE request_id = ?",
                                     [i]).fetchone()[0]
            assert n == len(before[i])
            assert kb.audit(i) == before[i]
    print(f"read-write open merging {sum(map(len, before.values()))} events: {merged:.2f} s")


def _holder(path: Path, read_only: bool) -> subprocess.Popen:
    """Another process holding the knowledge base open until its stdin closes."""
    code = ("import sys, hyrag; kb = hyrag.open(sys.argv[1], read_only=sys.argv[2] == 'ro'); "
            "print('ready', flush=True); sys.stdin.read(); kb.close()")
    p = subprocess.Popen([sys.executable, "-c", code, str(path), "ro" if read_only else "rw"],
                         cwd=ROOT, env=_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def _release(p: subprocess.Popen) -> None:
    p.communicate(timeout=60)
    assert p.returncode == 0


def test_a_writer_beside_readers_is_a_clear_error(kb_dir: Path, capsys) -> None:
    p = _holder(kb_dir, read_only=True)
    try:
        with pytest.raises(StoreError, match="open read-only in another process") as ei:
            hyrag.open(kb_dir)
        assert str(kb_dir) in str(ei.value) and "IO Error" not in str(ei.value)
        assert main(["ingest", str(kb_dir.parent / "plans.csv"), "--kb", str(kb_dir)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "another process" in err and str(kb_dir) in err
        with hyrag.open(kb_dir, read_only=True, subject="ana") as kb:  # a reader beside it
            assert kb.sql("SELECT count(*) FROM plans").rows == [(8,)]
    finally:
        _release(p)


def test_a_reader_beside_a_writer_is_a_clear_error(kb_dir: Path, capsys) -> None:
    p = _holder(kb_dir, read_only=False)
    try:
        with pytest.raises(StoreError, match="open read-write in another process") as ei:
            hyrag.open(kb_dir, read_only=True)
        assert str(kb_dir) in str(ei.value) and "IO Error" not in str(ei.value)
        assert main(["sql", "SELECT 1", "--kb", str(kb_dir), "--as", "ana"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "open read-write in another process" in err
    finally:
        _release(p)


def test_a_reader_with_no_writable_log_fails_closed_under_a_policy(kb_dir: Path) -> None:
    (kb_dir / "hyrag.readlog.jsonl").mkdir()  # cannot be opened for appending
    with hyrag.open(kb_dir, read_only=True, subject="ana") as kb, \
            pytest.raises(PolicyDenied, match="audit-unavailable"):
        kb.sql("SELECT 1")


def test_an_ungoverned_reader_audits_its_answers(kb_dir: Path) -> None:
    (kb_dir / "policy.toml").unlink()
    with hyrag.open(kb_dir, read_only=True) as kb:
        a = kb.ask(ASKS[0])
        assert a.audit_id and kb.audit(a.audit_id)[-1]["kind"] == "answer"
    with hyrag.open(kb_dir) as kb:
        assert kb.store.con.execute("SELECT count(*) FROM audit WHERE request_id = ?",
                                    [a.audit_id]).fetchone()[0] == len(kb.audit(a.audit_id))


def test_tracker_failures_of_readers_are_counted_once(kb_dir: Path, monkeypatch) -> None:
    with hyrag.open(kb_dir, read_only=True, subject="ana") as kb:
        tracker = SchemaEvolutionTracker(kb.store, threshold=3)
        for _ in range(3):
            tracker.record("plans", "revenue", "grounding failed")
        assert tracker.count("plans", "revenue") == 3
        sug = tracker.suggestions()
        assert list(sug["column_name"]) == ["revenue"] and sug["proposal"][0].startswith("numeric")
        a = kb.ask(ASKS[1])  # governed: the verdicts and the answer are logged too
    # a merge that committed but died before emptying the log: the next one skips what it did
    import hyrag.readlog as readlog

    def crash(fd: int, n: int) -> None:
        raise OSError(5, "simulated crash")

    monkeypatch.setattr(readlog.os, "ftruncate", crash)
    with pytest.raises(StoreError, match="cannot merge the read log"):
        hyrag.open(kb_dir)
    monkeypatch.undo()
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    with hyrag.open(kb_dir, read_only=True, subject="ana") as kb:
        SchemaEvolutionTracker(kb.store).record("plans", "revenue", "again")
    with hyrag.open(kb_dir, subject="aud") as kb:
        assert SchemaEvolutionTracker(kb.store).count("plans", "revenue") == 4
        row = kb.store.con.execute("SELECT failures, proposal FROM schema_evolution WHERE "
                                   "column_name = 'revenue'").fetchone()
        assert row[0] == 4 and row[1].startswith("numeric")
        events = kb.audit(a.audit_id)
        assert kb.store.con.execute("SELECT count(*) FROM audit WHERE request_id = ?",
                                    [a.audit_id]).fetchone()[0] == len(events) > 2


def test_a_line_a_crash_cut_short_loses_no_later_record(tmp_path: Path) -> None:
    from hyrag.readlog import append, tracker_record

    log = tmp_path / "log.jsonl"
    append(log, [tracker_record("t", "a", "", 3)])
    with log.open("ab") as f:
        f.write(b'{"type":"schema_evolution","tab')  # a write that never finished
    append(log, [tracker_record("t", "b", "", 3)])
    assert [r["column"] for r in read(log)] == ["a", "b"]


def test_a_request_that_could_not_be_written_whole_leaves_no_part(tmp_path: Path,
                                                                   monkeypatch) -> None:
    import hyrag.readlog as readlog

    log = tmp_path / "log.jsonl"
    readlog.append(log, [readlog.tracker_record("t", "a", "", 3)])
    real = os.write

    def half_then_full(fd: int, data: memoryview) -> int:
        real(fd, data[:len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(readlog.os, "write", half_then_full)
    with pytest.raises(readlog.ReadLogUnavailable, match="No space left"):
        readlog.append(log, [readlog.tracker_record("t", c, "", 3) for c in "bcd"])
    monkeypatch.undo()
    assert [r["column"] for r in read(log)] == ["a"]
