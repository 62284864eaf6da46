"""`hyrag bench tatqa --data tatqa_dataset_dev.json`: TAT-QA (Zhu et al., ACL 2021; data CC BY 4.0)
end to end, offline, no LLM.

For each document: a fresh knowledge base, and the document as a user would have it on disk
(`write_document`): its table as a CSV file exactly as its rows are, its paragraphs as a text
file beside it with the same stem. Both go through `kb.ingest(path)`; the benchmark holds no
table reading of its own (header rows, captions, scales and sections are read by `ingest/`,
the prose's scale through the companion text file). Then each of its questions through
`kb.ask`'s engine. The prediction is the answer's `values` with its `scale`
(`hyrag.answer.synthesize.values`); an answer whose decision is not `answer` has none: an abstention
(empty prediction). Scoring re-implements TAT-QA's published conventions: numbers normalised
to four decimals after multiplying by the scale (percent 0.01), so the scale must match;
multi-span answers compared as a bag; arithmetic and count F1 equal to EM.

Printed: EM/F1 by answer type and by source, the table-cell lookup / arithmetic subset, the
questions that use the table (on even and odd documents, beside the figure of the DataFrame
loader this benchmark had before), the
abstention rate, the share of answers whose numbers all pass grounding, the precision of
non-abstained answers, TagOp's published figures beside ours, and — with `--calibrate` — the
abstention threshold calibrated on the even-numbered documents and a reliability table on the
odd-numbered ones. `--out FILE` writes every prediction (uid, answer, scale, decision) as JSON.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import string
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from hyrag.settings import ANSWER_CORES, Settings

TAGOP = {"EM": 50.1, "F1": 58.0, "split": "test"}
# EM and precision of answered on the dev questions that use the table, when this benchmark
# still built each table as a DataFrame with its own header and scale rules (c683b67): the
# figure the product's own path, `kb.ingest(path)`, has to reach.
LOADER_FIGURE = (0.787, 0.955)
_SCALE_MULT = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "percent": 0.01}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", required=False, default=None,
                   help="tatqa_dataset_dev.json (TAT-QA's dataset_raw format)")
    p.add_argument("--out", default=None, help="write every prediction as JSON")
    p.add_argument("--limit", type=int, default=None, help="the first N questions")
    p.add_argument("--policy", default="relevance", choices=("relevance", "random", "ecr"),
                   help="claim-selection policy (seed 003 Table 4); relevance only offline")
    p.add_argument("--trust", default="balanced")
    p.add_argument("--answer-core", default=Settings().answer_core, choices=ANSWER_CORES,
                   help="settings.answer_core: the reader chain, the program route, the "
                        "program route first (hybrid) or where no reader answers (fallback, "
                        "the default)")
    p.add_argument("--weights", default="",
                   help="the program route's ranker (hyrag bench fit --out); default: shipped")
    p.add_argument("--span-weights", default="",
                   help="the span programs' model (hyrag bench fit-spans --out); default: shipped")
    p.add_argument("--terms", default="",
                   help="the term statistics of the Knowledge-Gap check (hyrag bench fit-terms "
                        "--out); default: shipped")
    p.add_argument("--no-spans", action="store_true",
                   help="without the span programs (settings.program_spans): the run whose "
                        "unanswered questions `hyrag bench fit-spans --unanswered` calibrates on")
    p.add_argument("--docs", choices=("all", "even", "odd"), default="all",
                   help="only the even- or odd-numbered documents (the half a fit held out)")
    p.add_argument("--plot", default=None, metavar="DIR",
                   help="write reliability and accuracy-by-answer-type PNGs (needs matplotlib)")
    p.add_argument("--shared", type=int, default=None, metavar="N",
                   help="latency instead: the first N documents in one knowledge base, kb.ask "
                        "timed over their first --limit questions (default 100)")
    p.add_argument("--calibrate", action="store_true",
                   help="calibrate the abstention threshold on even documents, report on odd")
    from hyrag.llm.bench import add_arguments as llm_arguments  # --llm, --llm-steps

    llm_arguments(p)


# -- the document as a user would load it ----------------------------------------------------
def write_document(doc: dict, folder: Path, stem: str = "report") -> tuple[Path, Path | None]:
    """One TAT-QA document as an analyst would have it on disk: its table as a CSV file exactly
    as its rows are (header rows first, no cell changed), and its paragraphs, in order, as a
    text file beside it with the same stem — the report's prose, which may declare the
    table's scale ("(in thousands)"). No reading happens here: `kb.ingest(path)` reads both."""
    import csv

    folder.mkdir(parents=True, exist_ok=True)
    table = folder / f"{stem}.csv"
    with table.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(doc["table"]["table"])
    paras = [p["text"] for p in sorted(doc["paragraphs"], key=lambda p: p["order"])]
    if not paras:
        return table, None
    text = folder / f"{stem}.txt"
    text.write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    return table, text


# -- TAT-QA's scoring conventions (re-implemented) -------------------------------------------
def _to_number(s: str) -> float | None:
    t = str(s).strip().replace(",", "").replace("$", "").replace("€", "").replace("£", "")
    t = t.replace("−", "-").strip()
    neg = t.startswith("(") and t.endswith(")")
    t = t.strip("()").strip()
    t = t.rstrip("%").strip()
    try:
        v = float(t)
    except ValueError:
        return None
    return -v if neg else v


def _answer_str(answers: list, scale: str) -> str:
    """The answers as one string, each number at four decimals after its scale, in a canonical
    order — the order of the *normalised* spans, so that a bag compares equal whatever order
    and formatting its members come in ("$1,910" and "1910" sort alike)."""
    out = []
    for a in (str(x) for x in answers):
        n = _to_number(a)
        if n is None:
            out.append(f"{a} {scale}".strip())
        elif "%" in a:
            out.append(f"{n:.4f}")
        else:
            out.append(f"{round(n, 2) * _SCALE_MULT.get(scale, 1.0):.4f}")
    return " ".join(sorted(out))


def _normalise(s: str) -> str:
    toks = []
    for w in s.lower().split():
        n = _to_number(w)
        if n is not None:
            toks.append(f"{n:.4f}" if "." in w or n != int(n) else str(float(n)))
            continue
        w = "".join(ch for ch in w if ch not in set(string.punctuation) - {"-"})
        if w and w not in ("a", "an", "the"):
            toks.append(w)
    return " ".join(toks)


def _f1(pred: str, gold: str) -> float:
    p, g = set(pred.split()), set(gold.split())
    inter = len(p & g)
    if not p or not g:
        return float(p == g)
    if inter == 0:
        return 0.0
    pr, rc = inter / len(p), inter / len(g)
    return 2 * pr * rc / (pr + rc)


def score(q: dict, pred: list | None, pred_scale: str) -> tuple[float, float]:
    """(EM, F1) of a prediction under TAT-QA's conventions."""
    if not pred:
        return 0.0, 0.0
    gold = q["answer"] if isinstance(q["answer"], list) else [
        str(int(q["answer"])) if q["answer_type"] == "count" else str(q["answer"])]
    g = _normalise(_answer_str(gold, q["scale"]))
    cands = [_normalise(_answer_str(pred, pred_scale))]
    if len(pred) == 1 and not pred_scale and _to_number(str(pred[0])) is not None \
            and "%" not in str(pred[0]):
        cands.append(_normalise(f"{_to_number(str(pred[0])):.4f}"))
    em = max(float(c == g) for c in cands)
    f1 = max(_f1(c, g) for c in cands)
    if q["answer_type"] in ("arithmetic", "count"):
        f1 = em
    return em, round(f1, 2)


def gold_operation(q: dict) -> str:
    """The gold operation from the annotated derivation (for the per-operation table)."""
    d = (q.get("derivation") or "").replace(" ", "")
    if q["answer_type"] in ("span", "multi-span"):
        return "lookup" if q["answer_from"] == "table" and not d else (
            "compare" if ">" in d or "vs" in d else "span")
    if q["answer_type"] == "count":
        return "count"
    if re.fullmatch(r"\(?\(([^()]+)-([^()]+)\)/\2\)?(\*100)?", d) or re.fullmatch(
            r"\(([^()]+)-([^()]+)\)/\2", d):
        return "change ratio"
    if re.fullmatch(r"\(([^()]+\+)+[^()]+\)/\d+", d):
        return "average"
    if re.fullmatch(r"[^()+\-*/]+-[^()+\-*/]+", d):
        return "difference"
    if re.fullmatch(r"\(?([^()+\-*/]+\+)+[^()+\-*/]+\)?", d):
        return "sum"
    if re.fullmatch(r"[^()+\-*/]+/[^()+\-*/]+(\*100)?", d):
        return "ratio"
    return "other"


# -- predictions -----------------------------------------------------------------------------
def predict(engine, kb, question: str, trust: str):
    """(answer, prediction, scale): the answer's own `values` and `scale`
    (`answer.synthesize.values`), numbers written as TAT-QA's answers are (at most four
    decimals); an answer whose decision is not `answer` has no values, an abstention (None)."""
    ans = engine.ask(question, trust=trust)
    if not ans.values:
        return ans, None, ""
    return ans, [v if isinstance(v, str) else _num_str(v) for v in ans.values], ans.scale


def _num_str(v: float) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:.4f}".rstrip("0").rstrip(".")


def _predict_llm(kb, q: dict, args, llm) -> dict:
    """--llm: the same question with the LLM route on (`hyrag.llm.bench`), scored the same."""
    from hyrag.answer.engine import AnswerEngine
    from hyrag.llm.bench import audit_outcomes, with_llm

    t0 = time.perf_counter()
    try:
        ans, pred, pscale = predict(AnswerEngine(with_llm(kb, llm, args)), kb, q["question"],
                                    args.trust)
    except Exception as e:  # one failing question is a miss
        print(f"{q['uid']} (LLM): {type(e).__name__}: {e}", file=sys.stderr)
        ans, pred, pscale = None, None, ""
    em, f1 = score(q, pred, pscale)
    toks = ans.verification.get("tokens", []) if ans is not None else []
    steps = audit_outcomes(kb, ans) if ans is not None else {}
    return {"answer": pred, "scale": pscale, "decision": ans.decision if ans else "error",
            "em": em, "f1": f1, "grounded": not any(
                t["status"] in ("ungrounded", "derivation_mismatch") for t in toks),
            "steps": {f"{s}/{how}": n for (s, how), n in steps.items()},
            "seconds": round(time.perf_counter() - t0, 2)}


def _program(ans) -> dict:  # hyrag.Answer or None
    return (ans.program or {}) if ans is not None else {}


def route_of(ans) -> str:  # hyrag.Answer or None
    """The route written beside a prediction: the table reader's operation when a reader
    answered ("tableqa:lookup"), else the engine's route."""
    p = _program(ans)
    if p.get("kind") == "table_reader":
        return f"tableqa:{p['operation']}"
    if p.get("kind") == "program":
        return f"program:{p['operation']}"
    return ans.route if ans is not None else ""


def run(args: argparse.Namespace) -> int:
    import hyrag
    from hyrag.answer.engine import AnswerEngine
    from hyrag.errors import HyragError
    from hyrag.llm import bench as llm_bench
    from verify import calibrate, reliability_table

    if not args.data:
        print("hyrag: error: --data PATH to tatqa_dataset_dev.json is required", file=sys.stderr)
        return 1
    docs = json.loads(Path(args.data).read_text(encoding="utf-8"))
    settings = Settings(answer_use_search=False, answer_core=args.answer_core,
                        program_weights=args.weights, program_span_weights=args.span_weights,
                        program_spans=not getattr(args, "no_spans", False),
                        answer_terms_file=getattr(args, "terms", ""))
    if args.shared:
        from hyrag.bench.tatqa_shared import run_shared

        return run_shared(args, docs, settings)
    half = {"even": 0, "odd": 1}.get(getattr(args, "docs", "all"))
    llm = llm_bench.client(args, settings)  # --llm: the configured endpoint, else None
    results: list[dict] = []
    t0 = time.perf_counter()
    budget = args.limit
    for di, doc in enumerate(docs):
        if budget is not None and budget <= 0:
            break
        if half is not None and di % 2 != half:
            continue
        with tempfile.TemporaryDirectory(prefix="hyrag-tatqa-") as tmp:
            kb = hyrag.open(Path(tmp) / "kb", settings=settings)
            try:
                table, text = write_document(doc, Path(tmp) / "doc")
                for path in (table, text):
                    if path is None:
                        continue
                    try:
                        kb.ingest(path)
                    except HyragError as e:  # a file the product refuses: the rest is asked
                        print(f"doc {di}: {path.name} not ingested: {e}", file=sys.stderr)
                engine = AnswerEngine(kb)
                for q in doc["questions"]:
                    if budget is not None and budget <= 0:
                        break
                    if budget is not None:
                        budget -= 1
                    try:
                        ans, pred, pscale = predict(engine, kb, q["question"], args.trust)
                    except Exception as e:  # one failing question is a miss
                        print(f"{q['uid']}: {type(e).__name__}: {e}", file=sys.stderr)
                        ans, pred, pscale = None, None, ""
                    em, f1 = score(q, pred, pscale)
                    ver = ans.verification if ans is not None else {}
                    results.append({
                        "uid": q["uid"], "doc": di, "question": q["question"],
                        "answer": pred, "scale": pscale,
                        "decision": ans.decision if ans is not None else "error",
                        "gold": q["answer"], "gold_scale": q["scale"],
                        "answer_type": q["answer_type"], "answer_from": q["answer_from"],
                        "operation": gold_operation(q), "em": em, "f1": f1,
                        "em_any_scale": score(q, pred, q["scale"])[0] if pred else 0.0,
                        "grounded": not any(t["status"] in ("ungrounded", "derivation_mismatch")
                                            for t in ver.get("tokens", [])),
                        "verdict": ver.get("verdict"), "confidence": ver.get("confidence"),
                        "residue": _program(ans).get("residue"),
                        "route": route_of(ans),
                        # the span programs' quote tier: the clause offered for verification
                        "quote_f1": score(q, [_program(ans)["quote"]], "")[1]
                        if "tentative" in _program(ans) else None,
                        # the question a CRAG rewrite answered instead, when one did
                        "asked": ver["crag"]["attempts"][-1]["question"] if ver.get("crag") and
                        ver["crag"]["stop"].startswith("passed after") else None,
                    })
                    if llm is not None:  # the LLM twin of this prediction, side by side
                        results[-1]["llm"] = _predict_llm(kb, q, args, llm)
            finally:
                kb.close()
    elapsed = time.perf_counter() - t0
    _report(results, elapsed, args, calibrate, reliability_table)
    if llm is not None:
        print("\n".join(llm_bench.tatqa_lines(results, llm)))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, ensure_ascii=False,
                                             default=str), encoding="utf-8")
    if getattr(args, "plot", None):
        _plots(results, Path(args.plot))
    cmd = f"hyrag bench tatqa --data {shlex.quote(args.data)}" + (
        f" --limit {args.limit}" if args.limit else "") + (
        " --calibrate" if args.calibrate else "") + (
        f" --policy {args.policy}" if args.policy != "relevance" else "") + (
        f" --answer-core {args.answer_core}" if args.answer_core != Settings().answer_core else "") + (
        f" --weights {shlex.quote(args.weights)}" if args.weights else "") + (
        f" --span-weights {shlex.quote(args.span_weights)}" if args.span_weights else "") + (
        f" --terms {shlex.quote(args.terms)}" if getattr(args, "terms", "") else "") + (
        f" --docs {args.docs}" if args.docs != "all" else "") + (
        " --no-spans" if args.no_spans else "") + llm_bench.flags(args)
    print(f"\nreproduce: {cmd}")
    return 0


def _plots(results: list[dict], folder: Path) -> None:
    """The abstention reliability diagram and accuracy by answer type, as PNGs."""
    try:
        from hyrag.display import plots
    except ImportError as e:  # matplotlib is the `plot` extra
        print(f"--plot skipped: {e} (pip install 'hyrag[plot]')", file=sys.stderr)
        return
    folder.mkdir(parents=True, exist_ok=True)
    answered = [r["decision"] not in ("abstain", "error") and r["answer"] is not None
                for r in results]
    conf = [float(r["confidence"] or 0.0) for r in results]
    fig = plots.reliability_diagram(conf, [bool(r["em"]) for r in results], answered=answered,
                                    title="TAT-QA dev: confidence vs exact match (answered)")
    plots.save(fig, folder / "tatqa_reliability.png")
    groups: dict[str, list[bool]] = {}
    for r in results:
        groups.setdefault(r["answer_type"], []).append(bool(r["em"]))
    fig = plots.accuracy_by_type(groups, title="TAT-QA dev: exact match by answer type")
    plots.save(fig, folder / "tatqa_accuracy_by_type.png")
    print(f"plots: {folder / 'tatqa_reliability.png'}, {folder / 'tatqa_accuracy_by_type.png'}")


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _report(results: list[dict], elapsed: float, args, calibrate, reliability_table) -> None:
    n = len(results)
    answered = [r for r in results if r["answer"]]
    print(f"TAT-QA dev, {n} questions, {len({r['doc'] for r in results})} documents, "
          f"{elapsed:.1f} s (offline, no LLM, policy {args.policy}"
          f"{' — random/ecr not wired offline: relevance used' if args.policy != 'relevance' else ''})")
    print(f"\n{'':<26}{'n':>6}{'EM':>8}{'F1':>8}")
    print(f"{'overall':<26}{n:>6}{_mean([r['em'] for r in results]):>8.3f}"
          f"{_mean([r['f1'] for r in results]):>8.3f}")
    for key in ("answer_type", "answer_from", "operation"):
        groups = defaultdict(list)
        for r in results:
            groups[r[key]].append(r)
        for g, rs in sorted(groups.items(), key=lambda x: -len(x[1])):
            print(f"{key[7:] if key.startswith('answer_') else 'op'}={g:<20}{len(rs):>6}"
                  f"{_mean([r['em'] for r in rs]):>8.3f}{_mean([r['f1'] for r in rs]):>8.3f}")
    core = [r for r in results if r["answer_from"] == "table" and r["operation"] in (
        "lookup", "difference", "change ratio", "average", "sum", "ratio")]
    core_ans = [r for r in core if r["answer"]]
    print(f"\ntable cells, lookup/difference/change ratio/average/sum/ratio: n={len(core)} "
          f"EM {_mean([r['em'] for r in core]):.3f}; answered {len(core_ans)}, precision "
          f"{_mean([r['em'] for r in core_ans]):.3f}")
    uses = [r for r in results if r["answer_from"] in ("table", "table-text")]
    uses_ans = [r for r in uses if r["answer"]]
    print(f"questions that use the table (table, table-text): n={len(uses)} EM "
          f"{_mean([r['em'] for r in uses]):.3f}, precision of answered "
          f"{_mean([r['em'] for r in uses_ans]):.3f} ({len(uses_ans)} answered); the "
          f"benchmark's own DataFrame loader gave {LOADER_FIGURE[0]:.3f} / {LOADER_FIGURE[1]:.3f} "
          "(c683b67, before the tables went through kb.ingest(path))")
    for half, parity in (("even", 0), ("odd", 1)):
        rs = [r for r in uses if r["doc"] % 2 == parity]
        ra = [r for r in rs if r["answer"]]
        print(f"  {half} documents: n={len(rs)} EM {_mean([r['em'] for r in rs]):.3f}, "
              f"precision {_mean([r['em'] for r in ra]):.3f}")
    for half, parity in (("even", 0), ("odd", 1)):
        rs = [r for r in results if r["doc"] % 2 == parity]
        ra = [r for r in rs if r["answer"]]
        print(f"all questions, {half} documents: n={len(rs)} EM "
              f"{_mean([r['em'] for r in rs]):.3f}, F1 {_mean([r['f1'] for r in rs]):.3f}, "
              f"precision {_mean([r['em'] for r in ra]):.3f} ({len(ra)} answered)")
    quotes = [r for r in results if r.get("quote_f1") is not None]
    if quotes:
        print(f"\nspan programs' quote tier (needs_verification, no value stated): "
              f"{len(quotes)} cited sentences offered; the quoted clause has F1 >= 0.5 with "
              f"the gold answer in {_mean([float(r['quote_f1'] >= 0.5) for r in quotes]):.3f}, "
              f"mean F1 {_mean([r['quote_f1'] for r in quotes]):.3f}")
    spans = [r for r in results if r["route"] == "program:span" and r["answer"]]
    if spans:
        print(f"\nspan programs (the last resort, programs/spans.py): {len(spans)} answered, "
              f"{sum(r['em'] for r in spans):.0f} exactly right, mean F1 "
              f"{_mean([r['f1'] for r in spans]):.3f}; without them (their answers read as the "
              "abstentions they replace):")
        for half, parity in (("even", 0), ("odd", 1)):
            rs = [r for r in results if r["doc"] % 2 == parity]
            if not rs:
                continue
            for name, sub in (("all questions", rs),
                              ("text questions", [r for r in rs if r["answer_from"] == "text"])):
                was = [{**r, "em": 0.0, "f1": 0.0, "answer": None}
                       if r["route"] == "program:span" else r for r in sub]
                line = []
                for tag, xs in (("with", sub), ("without", was)):
                    xa = [r for r in xs if r["answer"]]
                    line.append(f"{tag} EM {_mean([r['em'] for r in xs]):.3f} F1 "
                                f"{_mean([r['f1'] for r in xs]):.3f} precision "
                                f"{_mean([r['em'] for r in xa]):.3f} ({len(xa)} answered)")
                print(f"  {half} documents, {name} (n={len(sub)}): " + "; ".join(line))
    print(f"abstention rate           {1 - len(answered) / max(n, 1):.3f}  "
          f"({n - len(answered)}/{n})")
    print(f"answers fully grounded    {_mean([float(r['grounded']) for r in answered]):.3f}  "
          f"({sum(r['grounded'] for r in answered)}/{len(answered)})")
    print(f"precision (answered)      {_mean([r['em'] for r in answered]):.3f}")
    print(f"EM if the scale were right  {_mean([r['em_any_scale'] for r in results]):.3f}  "
          "(diagnostic only: the official metric requires the scale)")
    print(f"TagOp (published, {TAGOP['split']}): EM {TAGOP['EM']:.1f} / F1 {TAGOP['F1']:.1f}; "
          f"ours (dev): EM {100 * _mean([r['em'] for r in results]):.1f} / F1 "
          f"{100 * _mean([r['f1'] for r in results]):.1f}")
    if args.calibrate and answered:
        cal = [r for r in answered if r["doc"] % 2 == 0 and r["confidence"] is not None]
        rep = [r for r in answered if r["doc"] % 2 == 1 and r["confidence"] is not None]
        t = calibrate([r["confidence"] for r in cal], [bool(r["em"]) for r in cal],
                      target_precision=0.9)
        kept = [r for r in rep if r["confidence"] >= t]
        cal_kept = [r for r in cal if r["confidence"] >= t]
        reached = _mean([r["em"] for r in cal_kept]) >= 0.9 if cal_kept else False
        print(f"\nabstention threshold calibrated on even documents ({len(cal)} answers, target "
              f"precision 0.90): {t:.3f}"
              + ("" if reached else f" — target not reached; best effort, calibration "
                 f"precision {_mean([r['em'] for r in cal_kept]):.3f} on {len(cal_kept)}"))
        print(f"held-out odd documents: {len(rep)} answers; at the threshold {len(kept)} kept, "
              f"precision {_mean([r['em'] for r in kept]):.3f} (before "
              f"{_mean([r['em'] for r in rep]):.3f})")
        print(f"\n{'confidence bin':<16}{'n':>6}{'mean conf':>11}{'accuracy':>10}  (held-out)")
        for row in reliability_table([r["confidence"] for r in rep], [bool(r["em"]) for r in rep],
                                     bins=5):
            print(f"{row['bin']:<16}{row['n']:>6}{row['mean_confidence']:>11.3f}"
                  f"{row['accuracy']:>10.3f}")
