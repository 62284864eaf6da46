"""`hyrag bench embed`: what each embedding tier costs at ingest and gives at retrieval.

Times `hyrag ingest` of what `make demo` ingests (sample_data/: CSVs, messy, conflicts, alt,
the PDFs and market_notes.md), vectors included, as a fresh process per run into a new folder,
once per tier per round, the order rotating each round; "none" is the same ingest with
`--no-vectors`, the floor. Absolute seconds are noisy on a shared machine: the figures to quote
are the medians and their ratio to the reference tier (the last one given, MiniLM by default)
measured in the same run.

Then, unless `--no-recall`, the retrieval gold set (`hyrag bench retrieval`'s 132 questions)
on each tier's last knowledge base: fused recall@10, and the vector strategies' own recall@10,
which is where the tiers differ (lexical and graph retrieval do not use vectors). No number of
the static tier (`hyrag.embed.distill`) was chosen on this gold set: it is report only.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from hyrag.errors import HyragError

NONE = "none"  # ingest with --no-vectors: the floor every tier adds its embedding to
TIER_CHOICES = ("static", "local", "hashed", "remote", NONE)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tiers", default="none,static,local",
                   help="comma-separated tiers to time (static, local, hashed, remote, none = "
                   "--no-vectors); the last is the reference of the ratios (default "
                   "none,static,local)")
    p.add_argument("--repeat", type=int, default=3, help="runs per tier (median)")
    p.add_argument("--recall", action=argparse.BooleanOptionalAction, default=True,
                   help="also the retrieval gold set's recall@10 per tier (default on)")
    p.add_argument("--out", default=None, help="write the figures as JSON")


def parse_tiers(text: str) -> list[str]:
    tiers = [t.strip().lower() for t in text.split(",") if t.strip()]
    bad = [t for t in tiers if t not in TIER_CHOICES]
    if not tiers or bad or len(set(tiers)) != len(tiers):
        raise HyragError(f"--tiers {text!r}: give distinct tiers among {', '.join(TIER_CHOICES)}")
    return tiers


def ingest_once(tier: str, folder: Path) -> tuple[float, int]:
    """Wall seconds of one fresh `hyrag ingest` into `folder`, and the vectors it wrote."""
    from hyrag.bench.coldstart import hyrag_cmd, sample_files

    extra = ["--no-vectors"] if tier == NONE else ["--tier", tier]
    cmd = hyrag_cmd("ingest", *map(str, sample_files()), "--kb", str(folder), "--json", *extra)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    s = time.perf_counter() - t
    if out.returncode != 0:
        tail = out.stderr.strip().splitlines()[-1:] or [""]
        raise HyragError(f"{shlex.join(cmd)} failed ({out.returncode}): {tail[0]}")
    return s, 0 if tier == NONE else _vectors(folder)


def _vectors(folder: Path) -> int:
    from hyrag.kb import KnowledgeBase

    with KnowledgeBase(folder, read_only=True) as kb:
        v = kb.horizon.vectors
        return v.rows.count() + v.claims.count()


def recall(folder: Path) -> dict[str, float]:
    """recall@10 per configuration of `hyrag bench retrieval` on the knowledge base at
    `folder` (its own recorded tier)."""
    from hyrag.bench.retrieval import DEFAULT_GOLD, evaluate
    from hyrag.kb import KnowledgeBase

    questions = [json.loads(x) for x in DEFAULT_GOLD.read_text().splitlines() if x]
    with KnowledgeBase(folder) as kb:
        summary, _ = evaluate(kb, questions)
        label = kb.horizon.embedder.info.label()
    return {"embedding": label, **{k: v[1] for k, v in summary["table"].items()}}  # type: ignore[dict-item]


def run(args: argparse.Namespace) -> int:
    tiers = parse_tiers(args.tiers)
    if args.repeat < 1:
        raise HyragError(f"--repeat must be >= 1, got {args.repeat}")
    times: dict[str, list[float]] = {t: [] for t in tiers}
    vectors: dict[str, int] = {}
    recalls: dict[str, dict] = {}
    tmp = Path(tempfile.mkdtemp(prefix="hyrag-bench-embed-"))
    try:
        for r in range(args.repeat):
            for tier in tiers[r % len(tiers):] + tiers[: r % len(tiers)]:
                folder = tmp / f"{tier}-{r}"
                s, n = ingest_once(tier, folder)
                times[tier].append(s)
                vectors[tier] = n
                last = r == args.repeat - 1
                if last and args.recall and tier != NONE:
                    recalls[tier] = recall(folder)
                if not last:
                    shutil.rmtree(folder, ignore_errors=True)
                print(f"round {r + 1}/{args.repeat} {tier:<7} {s:7.1f} s", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ref = tiers[-1]
    med = {t: statistics.median(v) for t, v in times.items()}
    print(f"\nhyrag ingest of sample_data/ (what make demo ingests), fresh processes, "
          f"{args.repeat} run(s) each; x = median / {ref}'s median")
    print(f"{'tier':<8} {'vectors':>8} {'median s':>9} {'min':>7} {'max':>7} {'x ' + ref:>9}")
    for t in tiers:
        print(f"{t:<8} {vectors[t]:>8} {med[t]:>9.1f} {min(times[t]):>7.1f} "
              f"{max(times[t]):>7.1f} {med[t] / med[ref]:>9.3f}")
    if recalls:
        names = [k for k in next(iter(recalls.values())) if k != "embedding"]
        print("\nretrieval gold set, recall@10 (the last run's knowledge base of each tier)")
        print(f"{'tier':<8} " + " ".join(f"{n[:13]:>13}" for n in names) + "  embedding")
        for t, rec in recalls.items():
            print(f"{t:<8} " + " ".join(f"{rec[n]:>13.3f}" for n in names) +
                  f"  {rec['embedding']}")
    if args.out:
        Path(args.out).write_text(json.dumps(
            {"tiers": tiers, "seconds": times, "median_s": med, "vectors": vectors,
             "recall@10": recalls}, indent=1))
    argv = ["hyrag", "bench", "embed", "--tiers", ",".join(tiers), "--repeat", str(args.repeat)]
    print("reproduce:", shlex.join(argv + ([] if args.recall else ["--no-recall"])))
    return 0
