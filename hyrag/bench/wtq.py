"""`hyrag bench wtq --data DIR`: WikiTableQuestions (Pasupat & Liang, ACL 2015; CC BY-SA 4.0),
the 300 questions of `data/training-before300.tsv` (or `--questions`, e.g. the held-out
`data/random-split-1-dev.tsv`), each asked against its own table, through the answer core
`--answer-core` (readers | programs | hybrid | fallback) with the program ranker `--weights`.

For each question: a knowledge base holding its table alone (the CSV, ingested as a user would
with `kb.ingest(path)`), the question through the answer engine, and the prediction is the
answer's `values` (`hyrag.answer.synthesize.values`: a reader's value, a ranking's first row, a
derivation's result, the row a superlative picks, or the committed claim's value). Scoring
follows the dataset's denotation accuracy: the predicted values and the target values (several
separated by `|`) are normalised — Unicode folded, lower-cased, punctuation and articles
dropped, numbers compared as numbers — and must match as sets. Error classes: abstained (no answer), wrong value (one answer, another value), wrong
count of values, and engine error. `--out FILE` writes every prediction as JSON.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shlex
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

from hyrag.settings import ANSWER_CORES, Settings


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=None, help="the WikiTableQuestions folder (holding data/ "
                   "and csv/)")
    p.add_argument("--questions", default="data/training-before300.tsv",
                   help="question file under --data")
    p.add_argument("--out", default=None, help="write every prediction as JSON")
    p.add_argument("--limit", type=int, default=None, help="the first N questions")
    p.add_argument("--trust", default="balanced")
    p.add_argument("--answer-core", default=Settings().answer_core, choices=ANSWER_CORES,
                   help="settings.answer_core: the reader chain, the program route, the "
                        "program route first (hybrid) or where no reader answers (fallback, "
                        "the default)")
    p.add_argument("--weights", default="",
                   help="the program route's ranker (hyrag bench fit --out); default: shipped")
    p.add_argument("--program-first", default=None, metavar="KINDS",
                   help="settings.program_first_kinds, comma-separated (report, list; \"\" for "
                        "none): with the fallback core, the table kinds on which the program "
                        "route answers first when confident (default: the setting's)")
    p.add_argument("--min-confidence", type=float, default=-1.0,
                   help="settings.program_min_confidence: the program route's abstention "
                        "threshold (-1: the one fitted with the weights; 0: answer with the "
                        "best program whatever its confidence, the ranker's top-1 figure)")
    p.add_argument("--mismatched", action="store_true",
                   help="ask each question of another question's table (`mismatch`): the "
                        "table does not hold what was asked, so every answer is a guess where "
                        "a Knowledge Gap was due; reports how often the engine answers")


# the seed of `mismatch`'s pairing of questions with tables they were not written for
MISMATCH_SEED = 20261206


def mismatch(items: list[dict]) -> list[dict]:
    """Each question with the table of another question (in a seeded shuffle of the tables,
    the next table, so never its own): WikiTableQuestions' questions are all answerable from
    their own table, and none is from a table about other things ("what was the attendance
    at the final?" of a list of films). How often the engine answers them measures the
    mission's Knowledge-Gap promise on data nobody here wrote; a coincidental match of the
    target (a count of zero, a yes/no) is scored as usual and counted apart."""
    import random

    tables = sorted({it["context"] for it in items})
    random.Random(MISMATCH_SEED).shuffle(tables)
    other = {t: tables[(i + 1) % len(tables)] for i, t in enumerate(tables)}
    return [{**it, "context": other[it["context"]]} for it in items]


def normalise(v: object) -> str:
    s = unicodedata.normalize("NFKD", str(v))
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower().strip()
    s = re.sub(r"[‘’´`]", "'", s)
    s = re.sub(r"[“”]", '"', s)
    s = re.sub(r"^\"|\"$", "", s).strip()
    n = _number(s)
    if n is not None:
        return repr(round(n, 6))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


def _number(s: str) -> float | None:
    t = s.replace(",", "").replace("$", "").replace("%", "").strip()
    try:
        return float(t)
    except ValueError:
        return None


def correct(pred: list[str] | None, target: list[str]) -> bool:
    if not pred:
        return False
    return sorted(normalise(p) for p in pred) == sorted(normalise(t) for t in target)


def predict(engine, kb, question: str, trust: str):
    """(answer, prediction): the answer's own `values` (`answer.synthesize.values`), each written
    as text; an answer with no values (abstained, or nothing to quote) predicts nothing."""
    ans = engine.ask(question, trust=trust)
    return ans, ([_fmt(v) for v in ans.values] if ans.values else None)


def _fmt(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def run(args: argparse.Namespace) -> int:
    import hyrag
    from hyrag.answer.engine import AnswerEngine
    from hyrag.bench.tatqa import route_of

    if not args.data:
        print("hyrag: error: --data DIR (the WikiTableQuestions folder) is required",
              file=sys.stderr)
        return 1
    root = Path(args.data)
    with open(root / args.questions, encoding="utf-8", newline="") as f:
        items = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    if args.limit:
        items = items[: args.limit]
    mismatched = getattr(args, "mismatched", False)
    if mismatched:
        items = mismatch(items)
    # callers that predate the answer-core options ask the default core with shipped weights
    args.answer_core = getattr(args, "answer_core", Settings().answer_core)
    args.weights = getattr(args, "weights", "")
    args.min_confidence = getattr(args, "min_confidence", -1.0)
    first = getattr(args, "program_first", None)
    kinds = Settings().program_first_kinds if first is None else tuple(
        k.strip() for k in first.split(",") if k.strip())
    settings = Settings(answer_use_search=False, answer_core=args.answer_core,
                        program_weights=args.weights,
                        program_min_confidence=args.min_confidence, program_first_kinds=kinds)
    results = []
    t0 = time.perf_counter()
    # one knowledge base per table, holding that table alone, asked each of its questions in
    # turn (the same knowledge base a fresh one per question would be; one ingestion each)
    by_table: dict[str, list[int]] = {}
    for n, it in enumerate(items):
        by_table.setdefault(it["context"], []).append(n)
    answered: dict[int, tuple] = {}
    for context, idx in by_table.items():
        with tempfile.TemporaryDirectory(prefix="hyrag-wtq-") as tmp:
            try:
                kb = hyrag.open(Path(tmp) / "kb", settings=settings)
                kb.ingest(root / context)
            except Exception as e:  # one failing table is its questions' miss
                for n in idx:
                    answered[n] = (None, "error", f"{type(e).__name__}: {e}"[:200], None, "")
                continue
            with kb:
                engine = AnswerEngine(kb)
                for n in idx:
                    try:
                        ans, pred = predict(engine, kb, items[n]["utterance"], args.trust)
                        answered[n] = (pred, ans.decision, "",
                                       (ans.program or {}).get("confidence"), route_of(ans))
                    except Exception as e:  # one failing question is one miss
                        answered[n] = (None, "error", f"{type(e).__name__}: {e}"[:200],
                                       None, "")
    for n, it in enumerate(items):
        target = it["targetValue"].split("|")
        pred, decision, err, conf, route = answered[n]
        ok = correct(pred, target)
        cls = "correct" if ok else ("engine error" if err else "abstained" if not pred else
                                    "wrong count of values" if len(pred) != len(target) else
                                    "wrong value")
        results.append({"id": it["id"], "question": it["utterance"], "table": it["context"],
                        "prediction": pred, "target": target, "decision": decision,
                        "correct": ok, "class": cls, "error": err,
                        # the answering program's calibrated confidence (None: no program)
                        "confidence": conf, "route": route})
    n = len(results)
    acc = sum(r["correct"] for r in results) / max(n, 1)
    answered = [r for r in results if r["prediction"]]
    print(f"WikiTableQuestions ({args.questions}), {n} questions, answer core "
          f"{args.answer_core}{' (' + args.weights + ')' if args.weights else ''}"
          f"{f', program threshold {args.min_confidence:g}' if args.min_confidence >= 0 else ''}"
          f"{f', programs first on {kinds}' if kinds and args.answer_core == 'fallback' else ''}, "
          f"{time.perf_counter() - t0:.1f} s (offline, no LLM)")
    if mismatched:
        print("  (--mismatched: each question asked of another question's table, which does "
              "not hold what it asks: every answer is a guess where a Knowledge Gap was due; "
              "target: answered 0)")
    if "before300" in args.questions:
        print("  (these are training questions the readers were written against: a training "
              "figure; data/random-split-1-dev.tsv is the held-out half)")
    print(f"accuracy                  {acc:.3f}  ({sum(r['correct'] for r in results)}/{n})")
    print(f"answered                  {len(answered)}; precision "
          f"{sum(r['correct'] for r in answered) / max(len(answered), 1):.3f}")
    print("error classes:")
    for cls, k in Counter(r["class"] for r in results).most_common():
        print(f"  {cls:<24}{k:>5}")
    print("reference: trained pre-LLM systems ~0.37-0.49; LLM systems ~0.73-0.78 (test split)")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, ensure_ascii=False),
                                  encoding="utf-8")
    print(f"\nreproduce: hyrag bench wtq --data {shlex.quote(args.data)}"
          + (f" --questions {shlex.quote(args.questions)}"
             if args.questions != "data/training-before300.tsv" else "")
          + (f" --limit {args.limit}" if args.limit else "")
          + (f" --answer-core {args.answer_core}" if args.answer_core != Settings().answer_core else "")
          + (f" --weights {shlex.quote(args.weights)}" if args.weights else "")
          + (f" --min-confidence {args.min_confidence:g}" if args.min_confidence >= 0 else "")
          + (f" --program-first {shlex.quote(first)}" if first is not None else "")
          + (" --mismatched" if mismatched else ""))
    return 0
