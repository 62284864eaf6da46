"""`hyrag bench policy`: the overhead of the policy check on `kb.ask` median latency.

One knowledge base of the six business tables and the conflicting pair (two of them ingested as
`confidential`), hashed vectors (no model needed). The same questions are asked, interleaved
round-robin so drift hits every mode alike, in four modes:

* `bypass`     — `kb.ask` with an enforcer that decides nothing and writes nothing (the
                 baseline: the engine as it ran before governance);
* `owner`      — `kb.ask` without a policy file: the PEP decides ALLOW `no-policy` and writes
                 the verdict batch;
* `governed`   — `kb.ask` under a policy as a subject entitled to everything: the PDP runs for
                 the action and every source, the verdict batch is written;
* `restricted` — the same policy as a subject who may not see the confidential sources: every
                 read goes through the per-subject views (reported, not the target: it does
                 different work, over fewer sources).

Target (issue 8): `governed` median within 5% of `bypass`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

TARGET = 0.05
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
    p.add_argument("--rounds", type=int, default=7, help="times each question is asked per mode")
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


def _bypass(kb):  # noqa: ANN001, ANN202
    """The same knowledge base with a PEP that checks nothing: no PDP call, no audit write."""
    import uuid

    from hyrag.policy import Effect, Enforcer, Grant, Subject, Verdict

    class NoCheck(Enforcer):
        def plan(self, action, *, resource=None, detail=None):  # noqa: ANN001, ANN201
            return Grant(uuid.uuid4().hex[:16], Subject("owner"), action,
                         Verdict(Effect.ALLOW, "bypass", "none", "benchmark baseline"), False)

        def record(self, g):  # noqa: ANN001, ANN201
            return False

    nk = kb.as_subject(None, policy=None)
    nk.pep = NoCheck(kb.store, None)
    return nk


def run(args: argparse.Namespace) -> int:
    from hyrag.kb import KnowledgeBase
    from hyrag.policy import parse_policy

    os.environ.setdefault("HYRAG_EMBED_TIER", "hashed")
    data = Path(args.data) if args.data else Path(__file__).resolve().parents[2] / "sample_data"
    questions = QUESTIONS[: args.limit] if args.limit else QUESTIONS
    with tempfile.TemporaryDirectory(prefix="hyrag-bench-policy-") as tmp:
        folder = Path(tmp) / "kb"
        build(folder, data)
        policy = parse_policy(POLICY, origin="bench policy")
        base = KnowledgeBase(folder)
        modes = {
            "bypass": _bypass(base).ask,
            "owner": lambda q: base.ask(q),
            "governed": base.as_subject("lead", policy=policy).ask,
            "restricted": base.as_subject("intern", policy=policy).ask,
        }
        times: dict[str, list[float]] = {m: [] for m in modes}
        for q in questions:  # warm caches (catalogs, indices) in every mode
            for fn in modes.values():
                fn(q)
        for _ in range(args.rounds):
            for q in questions:
                for m, fn in modes.items():
                    t0 = time.perf_counter()
                    fn(q)
                    times[m].append((time.perf_counter() - t0) * 1000)
        base.close()
    med = {m: statistics.median(v) for m, v in times.items()}
    print(f"kb.ask median latency over {len(questions)} questions x {args.rounds} rounds "
          f"(hashed vectors):")
    for m in modes:
        over = (med[m] - med["bypass"]) / med["bypass"]
        print(f"  {m:<11} median {med[m]:8.2f} ms   vs bypass {over:+7.2%}")
    overhead = (med["governed"] - med["bypass"]) / med["bypass"]
    ok = overhead < TARGET
    print(f"policy-check overhead (governed vs bypass): {overhead:+.2%} "
          f"(target < {TARGET:.0%}: {'met' if ok else 'NOT met'})")
    if args.out:
        Path(args.out).write_text(json.dumps({"median_ms": med, "overhead": overhead,
                                              "times_ms": times}, indent=1))
    argv = ["hyrag", "bench", "policy"] + ([f"--rounds={args.rounds}"] if args.rounds != 7
                                           else []) + (
        [f"--limit={args.limit}"] if args.limit else [])
    print("reproduce:", " ".join(argv))
    return 0
