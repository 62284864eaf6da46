"""`hyrag bench retrieval`: recall@5, recall@10 and MRR of each Horizon strategy alone and of
the RRF-fused ensemble, on the labelled set tests/data/retrieval_gold.jsonl (>= 120 questions
over sample_data/: lookups, names, periods, comparisons, paraphrases, typos, document sentences).

Gold claims are named by file and locator and resolved to claim ids in the knowledge base under
test, so the set survives re-ingestion. recall@k is the share of a question's gold claims in the
top k (averaged over questions); MRR is the mean of 1 / rank of the first gold claim (0 when
none is in the top 10). "Alone" means the same Horizon (theta_H, N_H, filters) with one
strategy's list as the only input to the fusion, so its order is that strategy's own.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from hyrag.errors import HyragError

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_GOLD = ROOT / "tests" / "data" / "retrieval_gold.jsonl"
SAMPLE = ROOT / "sample_data"
SAMPLE_FILES = ("*.csv", "conflicts", "docs")
STRATEGIES = ("row_vectors", "claim_vectors", "lexical", "graph")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=str(DEFAULT_GOLD), help="gold set (JSON lines)")
    p.add_argument(
        "--kb", default=None, help="an existing knowledge base of sample_data (default: build one)"
    )
    p.add_argument("--out", default=None, help="write per-question rankings as JSON")
    p.add_argument("--limit", type=int, default=None, help="first N questions only")
    p.add_argument("--backend", default="auto", choices=["auto", "lance", "numpy"])
    p.add_argument("--tier", default=None, choices=["static", "local", "remote", "hashed"],
                   help="embedding tier of the knowledge base built (default: the default "
                   "choice, hyrag.embed.choose_tier); with --kb, a check of its recorded tier")


def sample_paths() -> list[Path]:
    out: list[Path] = []
    for pat in SAMPLE_FILES:
        out.extend(sorted(SAMPLE.glob(pat)) if "*" in pat else [SAMPLE / pat])
    return out


def build_sample_kb(folder: Path, tier: str | None = None) -> None:
    from hyrag.kb import KnowledgeBase
    from hyrag.settings import Settings

    with KnowledgeBase(folder, settings=Settings(embed_tier=tier or "")) as kb:
        kb.ingest_many(sample_paths())
        kb.index()


def resolve_gold(con, gold: list[dict]) -> list[str]:
    """(file, locator) -> claim ids among current claims; an unresolvable gold is an error."""
    ids = []
    for g in gold:
        rows = con.execute(
            "SELECT c.claim_id, c.locator FROM claims c JOIN sources s USING (source_id) "
            "WHERE c.file = ? AND NOT c.superseded AND s.status = 'current'",
            [g["file"]],
        ).fetchall()
        want = g["locator"]
        hit = [cid for cid, loc in rows if json.loads(loc) == want]
        if not hit:
            raise HyragError(f"gold claim not found: {g['file']} {json.dumps(want)}")
        ids.append(hit[0])
    return ids


def score(ranked: list[str], gold: list[str]) -> tuple[float, float, float]:
    g = set(gold)
    r5 = len(g & set(ranked[:5])) / len(g)
    r10 = len(g & set(ranked[:10])) / len(g)
    first = next((i for i, c in enumerate(ranked[:10], 1) if c in g), None)
    return r5, r10, (1.0 / first if first else 0.0)


def evaluate(kb, questions: list[dict]) -> tuple[dict, list[dict]]:
    """Per-configuration mean recall@5, recall@10, MRR, plus per-category recall@10."""
    configs: dict[str, list[str] | None] = {s: [s] for s in STRATEGIES}
    configs["fused (RRF)"] = None
    sums: dict[str, list[float]] = {c: [0.0, 0.0, 0.0] for c in configs}
    cats: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    best = defaultdict(int)
    items = []
    for q in questions:
        gold = resolve_gold(kb.store.con, q["gold"])
        row = {"id": q["id"], "question": q["question"], "gold": gold, "results": {}}
        for name, strat in configs.items():
            res = kb.search(q["question"], k=10, strategies=strat)
            ranked = res.ids()
            r5, r10, rr = score(ranked, gold)
            for i, v in enumerate((r5, r10, rr)):
                sums[name][i] += v
            cats[q["category"]][name].append(r10)
            row["results"][name] = {"ranked": ranked, "recall@10": r10, "rr": rr}
            if strat is None:
                best[res.best_strategy] += 1
        items.append(row)
    n = max(1, len(questions))
    table = {c: [v / n for v in s] for c, s in sums.items()}
    return {
        "table": table,
        "categories": {k: {c: sum(v) / len(v) for c, v in d.items()} for k, d in cats.items()},
        "best_strategy_counts": dict(best),
    }, items


def run(args: argparse.Namespace) -> int:
    from hyrag.kb import KnowledgeBase
    from hyrag.settings import Settings

    questions = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line]
    if args.limit:
        questions = questions[: args.limit]
    tmp = None
    t0 = time.perf_counter()
    if args.kb:
        folder = Path(args.kb)
    else:
        tmp = Path(tempfile.mkdtemp(prefix="hyrag-bench-retrieval-"))
        folder = tmp / "kb"
        print(f"building the sample knowledge base in {folder} ...", file=sys.stderr)
        build_sample_kb(folder, args.tier)
    build_s = time.perf_counter() - t0
    try:
        with KnowledgeBase(folder, settings=Settings(embed_tier=args.tier or "")) as kb:
            kb.horizon.backend = args.backend
            t1 = time.perf_counter()
            summary, items = evaluate(kb, questions)
            eval_s = time.perf_counter() - t1
            emb = kb.horizon.embedder.info.label()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"hyrag bench retrieval: {len(questions)} questions, embeddings {emb}, "
        f"kb build {build_s:.0f} s, evaluation {eval_s:.0f} s"
    )
    print(f"\n{'strategy':<16} {'recall@5':>9} {'recall@10':>10} {'MRR':>7}")
    for name, (r5, r10, mrr) in summary["table"].items():
        print(f"{name:<16} {r5:>9.3f} {r10:>10.3f} {mrr:>7.3f}")
    cats = summary["categories"]
    names = list(summary["table"])
    print("\nrecall@10 by category")
    print(f"{'category':<12} {'n':>4} " + " ".join(f"{n[:13]:>13}" for n in names))
    counts = defaultdict(int)
    for q in questions:
        counts[q["category"]] += 1
    for cat, d in cats.items():
        print(f"{cat:<12} {counts[cat]:>4} " + " ".join(f"{d[n]:>13.3f}" for n in names))
    print(
        "\nbest strategy per query (strategy scoring):",
        dict(sorted(summary["best_strategy_counts"].items(), key=lambda kv: -kv[1])),
    )
    fused = summary["table"]["fused (RRF)"][1]
    single = max(v[1] for k, v in summary["table"].items() if k != "fused (RRF)")
    verdict = "beats" if fused > single else "does NOT beat"
    print(f"\nfused recall@10 {fused:.3f} {verdict} the best single strategy ({single:.3f})")
    if args.out:
        Path(args.out).write_text(json.dumps({"summary": summary, "items": items}, indent=1))
    argv = (
        ["hyrag", "bench", "retrieval"]
        + (["--kb", str(args.kb)] if args.kb else [])
        + (["--limit", str(args.limit)] if args.limit else [])
        + (["--tier", args.tier] if args.tier else [])
    )
    print("reproduce:", " ".join(shlex.quote(a) for a in argv))
    return 0
