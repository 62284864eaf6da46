"""`hyrag bench answers`: the answer engine against the committed gold questions.

Prints accuracy by question type, Knowledge Gap precision and recall, absence hallucination
(a gap question whose missing requirement got a value), conflict exposure, clarify precision
and recall, and median latency per question. A question is correct when the decision is the
expected one, every expected number appears in the answer text (within the gold tolerance),
every expected entity string appears in it, every expected gap is declared and, for conflict
questions, the conflict is exposed. Without --kb it builds a fresh knowledge base of
`sample_data/` (no vectors) in a temporary folder, so results never depend on earlier runs.

`--llm` runs every question a second time with the LLM route on, against the configured
endpoint (`hyrag.llm.bench`), on a copy of the knowledge base taken before the offline pass,
and prints the offline and LLM columns side by side with the tokens used per step.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
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
    from hyrag.llm.bench import add_arguments as llm_arguments

    llm_arguments(p)


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
    from hyrag.answer.parse.catalog import norm

    return norm(s or "")


def judge(item: dict, ans) -> dict:
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


def _run_pass(kb, items: list[dict], trust: str, warm_up: bool = True,
              outcomes: Counter | None = None) -> list[dict]:
    """Every question through `kb.ask`, judged; `outcomes` (with the LLM route) collects which
    steps used the model's output and which degraded to their offline twin."""
    from hyrag.llm.bench import audit_outcomes

    if warm_up:
        kb.ask("warm-up: what was the total sales revenue in 2024?")
    results = []
    for it in items:
        ans = kb.ask(it["question"], trust=trust)
        results.append(judge(it, ans))
        if outcomes is not None:
            outcomes.update(audit_outcomes(kb, ans))
    return results


def summarize(results: list[dict]) -> dict:
    """The printed figures of one pass: accuracy by type and overall, knowledge gaps, absence
    hallucination, conflict exposure, clarify, latency (each a (value, detail) pair)."""
    by = defaultdict(list)
    for r in results:
        by[r["type"]].append(r["ok"])
    allok = [r["ok"] for r in results]
    pred = sum(len(r["got_gaps"]) for r in results)
    exp = sum(len(r["exp_gaps"]) for r in results)
    hit = sum(len({tuple(g) for g in r["got_gaps"]} & {tuple(g) for g in r["exp_gaps"]})
              for r in results)
    gapq = [r for r in results if r["exp_gaps"]]
    conf = [r for r in results if r["type"] == "conflict" and r["expected_decision"] ==
            "needs_verification"]
    clar_pred = [r for r in results if r["decision"] == "clarify"]
    clar_exp = [r for r in results if r["expected_decision"] == "clarify"]
    cp = sum(r["expected_decision"] == "clarify" for r in clar_pred)
    lat = sorted(r["latency_ms"] for r in results)
    return {
        "types": {t: (len(oks), sum(oks) / len(oks)) for t, oks in by.items()},
        "overall": (len(allok), sum(allok) / max(len(allok), 1)),
        "gap_precision": (hit / pred if pred else 1.0, f"{hit}/{pred}"),
        "gap_recall": (hit / exp if exp else 1.0, f"{hit}/{exp}"),
        "absence_hallucination": (sum(r["hallucinated_gap"] for r in gapq), len(gapq)),
        "conflict_exposure": (sum(r["conflict_exposed"] for r in conf), len(conf)),
        "clarify_precision": (cp / len(clar_pred) if clar_pred else 1.0,
                              f"{cp}/{len(clar_pred)}"),
        "clarify_recall": (cp / len(clar_exp) if clar_exp else 1.0, f"{cp}/{len(clar_exp)}"),
        "latency_median": statistics.median(lat) if lat else 0.0,
        "latency_p90": lat[int(0.9 * (len(lat) - 1))] if lat else 0.0,
    }


def _print_offline(s: dict) -> None:
    print(f"{'type':<16}{'n':>5}{'accuracy':>10}")
    for t, (n, acc) in s["types"].items():
        print(f"{t:<16}{n:>5}{acc:>10.3f}")
    print(f"{'overall':<16}{s['overall'][0]:>5}{s['overall'][1]:>10.3f}")
    print()
    print(f"knowledge gap precision   {s['gap_precision'][0]:.3f}  ({s['gap_precision'][1]})")
    print(f"knowledge gap recall      {s['gap_recall'][0]:.3f}  ({s['gap_recall'][1]})")
    print(f"absence hallucination     {s['absence_hallucination'][0]} of "
          f"{s['absence_hallucination'][1]} gap questions")
    print(f"conflict exposure         {s['conflict_exposure'][0]}/{s['conflict_exposure'][1]}")
    print(f"clarify precision         {s['clarify_precision'][0]:.3f}  "
          f"({s['clarify_precision'][1]}); recall {s['clarify_recall'][0]:.3f}")
    print(f"median latency per question {s['latency_median']:.1f} ms "
          f"(p90 {s['latency_p90']:.1f} ms)")


def _print_side_by_side(s: dict, m: dict, llm, outcomes: Counter) -> None:
    from hyrag.llm.bench import columns, usage_lines

    rows = []
    for t, (n, acc) in s["types"].items():
        rows.append((f"accuracy {t} (n={n})", f"{acc:.3f}", f"{m['types'][t][1]:.3f}"))
    rows.append((f"accuracy overall (n={s['overall'][0]})", f"{s['overall'][1]:.3f}",
                 f"{m['overall'][1]:.3f}"))
    for key, label in (("gap_precision", "knowledge gap precision"),
                       ("gap_recall", "knowledge gap recall"),
                       ("clarify_precision", "clarify precision"),
                       ("clarify_recall", "clarify recall")):
        rows.append((label, f"{s[key][0]:.3f} ({s[key][1]})", f"{m[key][0]:.3f} ({m[key][1]})"))
    for key, label in (("absence_hallucination", "absence hallucination"),
                       ("conflict_exposure", "conflict exposure")):
        rows.append((label, f"{s[key][0]}/{s[key][1]}", f"{m[key][0]}/{m[key][1]}"))
    rows.append(("median latency (ms)", f"{s['latency_median']:.1f}",
                 f"{m['latency_median']:.1f}"))
    rows.append(("p90 latency (ms)", f"{s['latency_p90']:.1f}", f"{m['latency_p90']:.1f}"))
    for line in columns(rows):
        print(line)
    for line in usage_lines(llm, outcomes):
        print(line)


def _why(r: dict) -> str:
    why = []
    if r["decision"] != r["expected_decision"]:
        why.append(f"decision {r['decision']} != {r['expected_decision']}")
    if r["missing_numbers"]:
        why.append(f"numbers {r['missing_numbers']}")
    if r["missing_entities"]:
        why.append(f"entities {r['missing_entities']}")
    if r["missing_gaps"]:
        why.append(f"gaps {r['missing_gaps']}")
    return "; ".join(why)


def run(args: argparse.Namespace) -> int:
    import hyrag
    from hyrag.llm import bench as llm_bench
    from hyrag.settings import Settings

    items = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8")
             .splitlines() if line.strip()]
    if args.limit:
        items = items[: args.limit]
    settings = Settings(answer_use_search=bool(args.search))
    llm = llm_bench.client(args, settings)  # None without --llm; an error if not configured
    tmp = tempfile.TemporaryDirectory(prefix="hyrag-bench-answers-")
    try:
        base = Path(tmp.name) / "kb"
        if args.kb:
            base = Path(args.kb)
        else:
            t = time.perf_counter()
            with hyrag.open(base, settings=settings) as kb:
                kb.ingest_many(sample_files())
            print(f"built a fresh knowledge base of sample_data/ in "
                  f"{time.perf_counter() - t:.1f} s", file=sys.stderr)
        twin = None
        if llm is not None:  # the LLM pass starts from the same state, never the offline's
            twin = Path(tmp.name) / "kb-llm"
            shutil.copytree(base, twin)
        with hyrag.open(base, settings=settings) as kb:
            results = _run_pass(kb, items, args.trust)
        llm_results: list[dict] = []
        outcomes: Counter = Counter()
        if llm is not None and twin is not None:
            t = time.perf_counter()
            with hyrag.open(twin, settings=llm_bench.llm_settings(settings, args),
                            llm=llm) as kb:
                # no warm-up: the offline pass warmed the process, and a warm-up question
                # would spend tokens outside the figures
                llm_results = _run_pass(kb, items, args.trust, warm_up=False,
                                        outcomes=outcomes)
            print(f"LLM pass: {len(items)} questions in {time.perf_counter() - t:.1f} s",
                  file=sys.stderr)
    finally:
        tmp.cleanup()
    s = summarize(results)
    if llm is None:
        _print_offline(s)
    else:
        _print_side_by_side(s, summarize(llm_results), llm, outcomes)
    wrong = [r for r in results if not r["ok"]]
    if wrong:
        print(f"\n{len(wrong)} wrong{' offline' if llm is not None else ''}:")
        for r in wrong[:40]:
            print(f"  {r['id']}: {r['question']}  -> {_why(r)}")
    if llm is not None:
        fixed = [m for r, m in zip(results, llm_results, strict=True) if m["ok"] and not r["ok"]]
        broke = [m for r, m in zip(results, llm_results, strict=True) if r["ok"] and not m["ok"]]
        print(f"\nwith the LLM route: {len(fixed)} fixed, {len(broke)} broken")
        for m in broke[:40]:
            print(f"  broken {m['id']}: {m['question']}  -> {_why(m)}")
        for m in fixed[:40]:
            print(f"  fixed  {m['id']}: {m['question']}")
        for r, m in zip(results, llm_results, strict=True):
            r["llm"] = m
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2, ensure_ascii=False),
                                  encoding="utf-8")
    cmd = "hyrag bench answers" + "".join(
        f" --{k.replace('_', '-')} {shlex.quote(str(v))}" for k, v in (
            ("kb", args.kb), ("data", args.data if args.data != str(GOLD) else None),
            ("limit", args.limit), ("trust", args.trust if args.trust != "balanced" else None))
        if v) + (" --search" if args.search else "") + llm_bench.flags(args)
    print(f"\nreproduce: {cmd}")
    return 0
