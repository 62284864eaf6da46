"""`hyrag bench answers`: the answer engine against the committed gold questions.

Prints accuracy by question type, Knowledge Gap precision and recall, absence hallucination
(a gap question whose missing requirement got a value), conflict exposure, clarify precision
and recall, and median latency per question. A question is correct when the decision is the
expected one, every expected number appears in the answer text (within the gold tolerance),
every expected entity string appears in it, every expected gap is declared and, for conflict
questions, the conflict is exposed. Without --kb it builds a fresh knowledge base of
`sample_data/` (no vectors) in a temporary folder, so results never depend on earlier runs.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "tests" / "data" / "answers_gold.jsonl"
SAMPLE = ROOT / "sample_data"
_NUM = re.compile(r"\(?[-−]?\$?\d[\d,]*(?:\.\d+)?\)?")


def sample_files() -> list[Path]:
    return [*sorted(SAMPLE.glob("*.csv")), SAMPLE / "conflicts", SAMPLE / "messy",
            *sorted((SAMPLE / "docs").glob("*.pdf"))]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kb", default=None, help="an existing knowledge base (default: build one "
                   "from sample_data/ in a temporary folder)")
    p.add_argument("--data", default=str(GOLD), help="gold questions (JSONL)")
    p.add_argument("--out", default=None, help="write per-question predictions as JSON")
    p.add_argument("--limit", type=int, default=None, help="run the first N questions")
    p.add_argument("--search", action="store_true",
                   help="use the retrieval ensemble (kb.search) as the Horizon too")
    p.add_argument("--trust", default="balanced")


def text_numbers(text: str) -> list[float]:
    out = []
    for m in _NUM.finditer(re.sub(r"\[\d+\]", " ", text)):
        s = m.group(0)
        neg = s.startswith("(") and s.endswith(")")
        s = s.strip("()").replace(",", "").replace("$", "").replace("−", "-")
        try:
            v = float(s)
        except ValueError:
            continue
        out.append(-v if neg else v)
    return out


def _n(s: str | None) -> str:
    from hyrag.answer.catalog import norm

    return norm(s or "")


def judge(item: dict, ans) -> dict:  # noqa: ANN001
    text = ans.text
    nums = text_numbers(text)
    missing_numbers = [x for x in item["numbers"]
                       if not any(abs(x - y) <= item.get("tol", 0.01) + 1e-9 for y in nums)]
    missing_entities = [e for e in item["entities"] if e.lower() not in text.lower()]
    got_gaps = {(_n(g["entity"]), _n(g["attribute"])) for g in ans.gaps}
    exp_gaps = {(_n(g["entity"]), _n(g["attribute"])) for g in item["gaps"]}
    missing_gaps = [g for g in exp_gaps if g not in got_gaps]
    conflict_ok = (not item["conflict"]) or bool(ans.conflicts)
    decision_ok = ans.decision == item["decision"]
    # absence hallucination: a requirement the gold says is missing got committed evidence
    halluc = any(_n(r.get("entity")) == e and _n(r.get("attribute")) == a and r.get(
        "evidence_refs") for r in ans.requirements for e, a in exp_gaps)
    ok = decision_ok and not missing_numbers and not missing_entities and not missing_gaps \
        and conflict_ok
    return {"id": item["id"], "type": item["type"], "question": item["question"], "ok": ok,
            "decision": ans.decision, "expected_decision": item["decision"],
            "missing_numbers": missing_numbers, "missing_entities": missing_entities,
            "missing_gaps": [list(g) for g in missing_gaps], "conflict_exposed": bool(
                ans.conflicts), "hallucinated_gap": halluc, "got_gaps": [list(g) for g in got_gaps],
            "exp_gaps": [list(g) for g in exp_gaps], "latency_ms": ans.latency_ms,
            "text": text, "route": ans.route}


def run(args: argparse.Namespace) -> int:
    import hyrag
    from hyrag.settings import Settings

    items = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8")
             .splitlines() if line.strip()]
    if args.limit:
        items = items[: args.limit]
    settings = Settings(answer_use_search=bool(args.search))
    tmp = None
    if args.kb:
        kb = hyrag.open(args.kb, settings=settings)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="hyrag-bench-answers-")
        kb = hyrag.open(Path(tmp.name) / "kb", settings=settings)
        t = time.perf_counter()
        kb.ingest_many(sample_files())
        print(f"built a fresh knowledge base of sample_data/ in {time.perf_counter() - t:.1f} s",
              file=sys.stderr)
    results = []
    try:
        kb.ask("warm-up: what was the total sales revenue in 2024?")
        for it in items:
            results.append(judge(it, kb.ask(it["question"], trust=args.trust)))
    finally:
        kb.close()
        if tmp is not None:
            tmp.cleanup()
    by = defaultdict(list)
    for r in results:
        by[r["type"]].append(r["ok"])
    print(f"{'type':<16}{'n':>5}{'accuracy':>10}")
    for t, oks in by.items():
        print(f"{t:<16}{len(oks):>5}{sum(oks) / len(oks):>10.3f}")
    allok = [r["ok"] for r in results]
    print(f"{'overall':<16}{len(allok):>5}{sum(allok) / max(len(allok), 1):>10.3f}")
    pred = sum(len(r["got_gaps"]) for r in results)
    exp = sum(len(r["exp_gaps"]) for r in results)
    hit = sum(len({tuple(g) for g in r["got_gaps"]} & {tuple(g) for g in r["exp_gaps"]})
              for r in results)
    gapq = [r for r in results if r["exp_gaps"]]
    conf = [r for r in results if r["type"] == "conflict" and r["expected_decision"] ==
            "needs_verification"]
    clar_pred = [r for r in results if r["decision"] == "clarify"]
    clar_exp = [r for r in results if r["expected_decision"] == "clarify"]
    lat = [r["latency_ms"] for r in results]
    print()
    print(f"knowledge gap precision   {hit / pred if pred else 1.0:.3f}  ({hit}/{pred})")
    print(f"knowledge gap recall      {hit / exp if exp else 1.0:.3f}  ({hit}/{exp})")
    print(f"absence hallucination     {sum(r['hallucinated_gap'] for r in gapq)} of "
          f"{len(gapq)} gap questions")
    print(f"conflict exposure         {sum(r['conflict_exposed'] for r in conf)}/{len(conf)}")
    cp = sum(r["expected_decision"] == "clarify" for r in clar_pred)
    print(f"clarify precision         {cp / len(clar_pred) if clar_pred else 1.0:.3f}  "
          f"({cp}/{len(clar_pred)}); recall {cp / len(clar_exp) if clar_exp else 1.0:.3f}")
    print(f"median latency per question {statistics.median(lat) if lat else 0:.1f} ms "
          f"(p90 {sorted(lat)[int(0.9 * (len(lat) - 1))] if lat else 0:.1f} ms)")
    wrong = [r for r in results if not r["ok"]]
    if wrong:
        print(f"\n{len(wrong)} wrong:")
        for r in wrong[:40]:
            why = []
            if r["decision"] != r["expected_decision"]:
                why.append(f"decision {r['decision']} != {r['expected_decision']}")
            if r["missing_numbers"]:
                why.append(f"numbers {r['missing_numbers']}")
            if r["missing_entities"]:
                why.append(f"entities {r['missing_entities']}")
            if r["missing_gaps"]:
                why.append(f"gaps {r['missing_gaps']}")
            print(f"  {r['id']}: {r['question']}  -> {'; '.join(why)}")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2, ensure_ascii=False),
                                  encoding="utf-8")
    cmd = "hyrag bench answers" + "".join(
        f" --{k.replace('_', '-')} {shlex.quote(str(v))}" for k, v in (
            ("kb", args.kb), ("data", args.data if args.data != str(GOLD) else None),
            ("limit", args.limit), ("trust", args.trust if args.trust != "balanced" else None))
        if v) + (" --search" if args.search else "")
    print(f"\nreproduce: {cmd}")
    return 0
