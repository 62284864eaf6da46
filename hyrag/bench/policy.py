"""`hyrag bench policy`: the overhead of the policy check on `kb.ask` median latency.

One knowledge base of the six business tables and the conflicting pair (two of them ingested as
`confidential`), hashed vectors (no model needed). The same questions are asked in four arms:

* `baseline`   — `kb.ask` with an enforcer that decides nothing (no PDP call, no source list)
                 but writes the request's audit events as every answer must: the engine with
                 its audit record and without a policy check. The audit write is required in
                 every arm (CONTRACT.md: verdicts before retrieval; "no policy" says so in the
                 audit record), so it is not counted as the policy check's overhead;
* `owner`      — `kb.ask` without a policy file: the PEP decides ALLOW `no-policy`;
* `governed`   — `kb.ask` under a policy as a subject entitled to everything: the PDP runs for
                 the action and every source, the verdict batch carries the scope;
* `restricted` — the same policy as a subject who may not see the confidential sources: reads
                 go through the per-subject views, retrieval through the subject's scope
                 (reported beside the target: it does different work, over fewer sources).

How it is measured, so that one noisy run cannot decide the result: every (round, question)
is one block in which each arm asks the same question `--reps` times, the arms interleaved
(ABCD DCBA ABCD ...: each arm runs first, second, ... equally often, so drift and position
effects hit every arm alike), the order rotated from block to block; the garbage collector runs
before each block and not during it, and so does a DuckDB checkpoint (the audit writes grow
the write-ahead log; a checkpoint inside a block would land on one arm). An arm's time in a block is the fastest of its reps: the
work is deterministic and other processes on the machine can only add time, so the minimum of a
few back-to-back runs is the least contaminated reading, and it is taken the same way in every
arm. Each block then gives one ratio per arm, arm / baseline; the overhead is the median of those
per-pair ratios minus one, with a distribution-free 95% confidence band for that median (order
statistics of the binomial(n, 1/2)). The same is reported for process CPU time, which another
process's load hardly moves. Target (issue 8): the `governed` wall-clock overhead < 5%.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import statistics
import tempfile
import time
from pathlib import Path

TARGET = 0.05
ROUNDS = 6
REPS = 3
QUESTIONS = (
    "What was the total revenue in 2024?",
    "What was the revenue of the North region in 2023?",
    "Which region had the highest revenue in 2024?",
    "What were total expenses in 2024?",
    "How many customers are there?",
    "What was Northwind revenue in 2024Q1?",
    "What is the average salary in Engineering?",
    "What was the marketing spend in 2023?",
)
POLICY = """
version = "bench-1"
[subjects.lead]
roles = ["analyst"]
entitlements = ["confidential"]
[subjects.intern]
roles = ["analyst"]
[[rules]]
id = "analysts-query"
effect = "allow"
actions = ["schema", "search", "ask", "sql"]
roles = ["analyst"]
[[rules]]
id = "confidential-needs-entitlement"
effect = "deny"
classifications = ["confidential", "restricted"]
entitled = false
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rounds", type=int, default=ROUNDS,
                   help="times each question is asked per arm (blocks = rounds x questions)")
    p.add_argument("--reps", type=int, default=REPS,
                   help="back-to-back asks per arm in a block; the fastest counts")
    p.add_argument("--limit", type=int, default=None, help="questions to use (default all)")
    p.add_argument("--data", default=None, help="sample_data folder (default: the repo's)")
    p.add_argument("--out", default=None, help="write the per-mode timings as JSON")


def build(folder: Path, data: Path) -> None:
    from hyrag.kb import KnowledgeBase

    with KnowledgeBase(folder) as kb:
        for name in ("sales", "customers", "expenses", "inventory", "marketing"):
            kb.ingest(data / f"{name}.csv")
        kb.ingest(data / "hr.csv", classification="confidential")
        kb.ingest(data / "conflicts" / "erp_revenue.csv")
        kb.ingest(data / "conflicts" / "crm_revenue.csv", classification="confidential")
        kb.index()


def _baseline(kb):
    """The same knowledge base with a PEP that decides nothing (no PDP call, no source list),
    writing the same audit events an ungoverned answer writes (the verdict batch)."""
    import uuid

    from hyrag.policy import Effect, Enforcer, Grant, Subject, Verdict

    class NoCheck(Enforcer):
        def plan(self, action, *, resource=None, detail=None):
            return Grant(uuid.uuid4().hex[:16], Subject("owner"), action,
                         Verdict(Effect.ALLOW, "baseline", "none", "benchmark baseline"), False,
                         detail=dict(detail or {}))

    nk = kb.as_subject(None, policy=None)
    nk.pep = NoCheck(kb.store, None)
    return nk


def median_band(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Median and a distribution-free ~95% confidence band for it: the order statistics
    n/2 -+ z*sqrt(n)/2 (normal approximation to the binomial(n, 1/2))."""
    v = sorted(xs)
    n = len(v)
    if not n:
        return math.nan, math.nan, math.nan
    half = z * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half) - 1)
    return statistics.median(v), v[lo], v[hi]


def run(args: argparse.Namespace) -> int:
    from hyrag.bench import embed_tier

    with embed_tier("hashed", force=False):  # the caller's own tier, if set, is the one timed
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from hyrag.kb import KnowledgeBase
    from hyrag.policy import parse_policy

    data = Path(args.data) if args.data else Path(__file__).resolve().parents[2] / "sample_data"
    questions = QUESTIONS[: args.limit] if args.limit else QUESTIONS
    with tempfile.TemporaryDirectory(prefix="hyrag-bench-policy-") as tmp:
        folder = Path(tmp) / "kb"
        build(folder, data)
        policy = parse_policy(POLICY, origin="bench policy")
        base = KnowledgeBase(folder)
        arms = {
            "baseline": _baseline(base).ask,
            "owner": base.ask,
            "governed": base.as_subject("lead", policy=policy).ask,
            "restricted": base.as_subject("intern", policy=policy).ask,
        }
        names = list(arms)
        wall: dict[str, list[float]] = {m: [] for m in names}
        cpu: dict[str, list[float]] = {m: [] for m in names}
        for q in questions:  # warm caches (catalogs, indices, scopes, views) in every arm
            for fn in arms.values():
                fn(q)
        reps = max(1, args.reps)
        for block in range(args.rounds * len(questions)):
            q = questions[block % len(questions)]
            k = block % len(names)
            order = names[k:] + names[:k]
            # Every answer appends to the audit table; DuckDB checkpoints its write-ahead log
            # when it grows, a pause that would land on whichever arm crossed the threshold.
            # One checkpoint before each block (untimed) keeps that out of the pairs.
            with contextlib.suppress(Exception):
                base.store.con.execute("CHECKPOINT")
            gc.collect()
            gc.disable()
            try:
                got: dict[str, list[tuple[float, float]]] = {m: [] for m in names}
                for rep in range(reps):
                    for m in (order if rep % 2 == 0 else order[::-1]):  # ABCD DCBA ...
                        t0, c0 = time.perf_counter(), time.process_time()
                        arms[m](q)
                        got[m].append(((time.perf_counter() - t0) * 1000,
                                       (time.process_time() - c0) * 1000))
            finally:
                gc.enable()
            for m in names:
                wall[m].append(min(w for w, _ in got[m]))
                cpu[m].append(min(c for _, c in got[m]))
        base.close()
    n = len(wall["baseline"])

    def bands(times: dict[str, list[float]]) -> dict[str, tuple[float, float, float]]:
        return {m: median_band([a / b for a, b in zip(times[m], times["baseline"], strict=True)
                                if b > 0]) for m in names}

    bw, bc = bands(wall), bands(cpu)
    med = {m: statistics.median(v) for m, v in wall.items()}
    print(f"kb.ask latency, {len(questions)} questions x {args.rounds} rounds = {n} blocks, "
          f"{reps} interleaved asks per arm and block (fastest counts), hashed vectors:")
    print(f"  {'arm':<11} {'median ms':>9}   {'wall: per-pair ratio - 1 [95% band]':<36}"
          f"{'CPU: per-pair ratio - 1 [95% band]'}")
    for m in names:
        (r, lo, hi), (cr, clo, chi) = bw[m], bc[m]
        print(f"  {m:<11} {med[m]:9.2f}   {f'{r - 1:+.2%} [{lo - 1:+.2%}, {hi - 1:+.2%}]':<36}"
              f"{cr - 1:+.2%} [{clo - 1:+.2%}, {chi - 1:+.2%}]")
    overhead, lo, hi = (x - 1 for x in bw["governed"])
    ok = overhead < TARGET
    print(f"policy-check overhead (governed vs baseline, median of {n} per-pair wall-clock "
          f"ratios): {overhead:+.2%}, 95% band [{lo:+.2%}, {hi:+.2%}] "
          f"(target < {TARGET:.0%}: {'met' if ok else 'NOT met'}"
          f"{'' if not ok or hi < TARGET else '; the band reaches past it'})")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "median_ms": med, "overhead": overhead, "band": [lo, hi],
            "wall_ratio_band": {m: list(b) for m, b in bw.items()},
            "cpu_ratio_band": {m: list(b) for m, b in bc.items()},
            "wall_ms": wall, "cpu_ms": cpu}, indent=1))
    argv = ["hyrag", "bench", "policy"] + ([f"--rounds={args.rounds}"] if args.rounds != ROUNDS
                                           else []) + (
        [f"--reps={args.reps}"] if args.reps != REPS else []) + (
        [f"--limit={args.limit}"] if args.limit else [])
    print("reproduce:", " ".join(argv))
    return 0
