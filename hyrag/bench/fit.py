"""`hyrag bench fit`: fit the program route's ranker (`hyrag.answer.programs.score`) on
training questions, and report it on questions it was not fitted on.

Reproducible: a fixed seed, full-batch optimisation, documents processed in order; minutes on
two cores. Training data is TAT-QA dev split by document — `--train even` fits on the
even-numbered documents and reports on the odd ones (`--train odd` the other way round;
`--train all` fits the shipped weights on every document and has no held-out figure). Each
document goes through the product's own path: its table and prose written as files and read
with `kb.ingest(path)`; each question's candidates are the route's own (`programs.route.rank`).
A candidate is a positive when what it computes scores EM 1 under TAT-QA's conventions
(`hyrag.bench.tatqa.score`).

`--wtq DIR` adds WikiTableQuestions training questions (`data/random-split-1-train.tsv` only;
the dev file is `hyrag bench wtq`'s to report): whole tables in an order shuffled with the
seed, until `--wtq-limit` questions (default 3,000 of 11,321, so that a fit takes minutes);
each table ingested once with `kb.ingest(path)` as `hyrag bench wtq` does, kept under
`--cache`; a candidate is a positive when its answer matches the target by WTQ's denotation
accuracy (`hyrag.bench.wtq.correct`). WTQ questions are all training questions: with `--tatqa`
too, the held-out figure is TAT-QA's other half.

`--kind list` (or `report`) fits one part of the model (`score.Model.kinds`): the ranker,
calibrator and threshold of the candidates over tables of that kind, on the given training
questions whose table is of it, and writes it into `--base` (default: the shipped file) with
every other part kept as it was. The shipped file's report tables are TAT-QA's fit (`--train
all`) and its list tables WTQ's (`--wtq DIR --kind list`): the two kinds score apart, and a
threshold fitted on them pooled answered almost no list question. Within one kind the
features' kind copies repeat the shared ones and are dropped; `--floor` prunes the part's
small weights, its out-of-fold calibration fitted with the same pruning.

The model is a listwise log-linear ranker: for each question, maximise the log of the
probability mass on its positive candidates (softmax over its candidates), with an L2 penalty;
Adam, full batch. Each TAT-QA question's operators include the `NONE` operator (no table
program answers it: `score.none_features`), a positive where none of its candidates is right,
so the ranker is fitted on every question with a candidate, text questions too. The abstention threshold is then the probability above which the best
program is answered, chosen to maximise right answers while precision of answered stays at or
above `--precision` (default 0.92, the issue's goal) on the training half's out-of-fold
predictions (`out_of_fold`: `--folds` folds by document, `OOF_FOLDS`), not on the fitted
questions themselves.
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import shlex
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, replace
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.bench.fit_sparse import (
    Packed,
    Vocabulary,
    document_folds,
    fit_packed,
    pack,
    size_mb,
    tops,
    unpack,
)
from hyrag.bench.fit_sparse import out_of_fold as out_of_fold_packed

if TYPE_CHECKING:
    import numpy as np

SEED = 19
# Folds of the out-of-fold predictions the calibrator and threshold are fitted on. Each fold's
# ranker is fitted on the other folds: with two it sees half the training questions and ranks
# less surely than the ranker shipped (fitted on all), so the calibrator learns too low a
# confidence and the threshold answers too little. Five: TAT-QA dev's held-out halves at the
# fitted threshold, odd (fit on even) 220 right of 245 answered either way; even (fit on odd)
# 143 of 151 (precision 0.947) with two, 182 of 192 (0.948) with five.
OOF_FOLDS = 5


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tatqa", default=None, help="tatqa_dataset_dev.json")
    p.add_argument("--wtq", default=None, metavar="DIR",
                   help="the WikiTableQuestions folder: fit on data/random-split-1-train.tsv "
                        "too (never on the dev file; `hyrag bench wtq` reports that)")
    p.add_argument("--wtq-limit", type=int, default=3000,
                   help="WTQ training questions used (whole tables, in a seeded order; 0: all)")
    p.add_argument("--jobs", type=int, default=4, help="WTQ tables ingested at once")
    p.add_argument("--train", choices=("even", "odd", "all"), default="even",
                   help="which TAT-QA documents to fit on (the others are reported)")
    p.add_argument("--cache", default=None,
                   help="keep each document's knowledge base here (DIR/<n>/kb) between runs")
    p.add_argument("--collected", default=None, metavar="FILE.json.gz",
                   help="the collected candidates: read from FILE when it exists, else "
                        "collected and written there, so fits of other halves or settings "
                        "reuse one collection (it is only valid for the code that wrote it)")
    p.add_argument("--out", default=None,
                   help="write the fitted weights here (the package's weights.json to ship)")
    p.add_argument("--precision", type=float, default=0.92)
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--folds", type=int, default=OOF_FOLDS,
                   help="folds by document of the out-of-fold predictions the calibrator and "
                        "threshold are fitted on (`OOF_FOLDS`)")
    p.add_argument("--limit", type=int, default=None, help="the first N documents")
    p.add_argument("--kind", choices=("report", "list"), default=None,
                   help="fit only the part of the model for tables of this kind (the "
                        "questions given whose table is of it) and keep every other part of "
                        "--base as it is")
    p.add_argument("--floor", type=float, default=0.0,
                   help="with --kind: drop the part's weights smaller than this (its size in "
                        "the shipped file; the out-of-fold calibration is fitted with the "
                        "same pruning)")
    p.add_argument("--decode", choices=("factored", "joint"), default="factored",
                   help="with --kind: how the part picks a question's best candidate — the "
                        "likeliest operator, then its operands (factored), or the likeliest "
                        "candidate (joint); the calibration and threshold are fitted on the "
                        "same picks")
    p.add_argument("--base", default=None,
                   help="the model whose other parts are kept: with --kind, all but that "
                        "kind's; without, its parts per kind (default: the shipped "
                        "weights.json)")


def _kb(doc: dict, i: int, cache: Path):
    import hyrag
    from hyrag.bench.tatqa import write_document
    from hyrag.settings import Settings

    root = cache / str(i)
    done = root / "done"
    settings = Settings(answer_use_search=False)
    if done.exists():
        return hyrag.open(root / "kb", settings=settings, read_only=True)
    table, text = write_document(doc, root / "doc")
    kb = hyrag.open(root / "kb", settings=settings)
    kb.ingest(table)
    if text is not None:
        kb.ingest(text)
    kb.close()
    done.write_text("1", encoding="utf-8")
    return hyrag.open(root / "kb", settings=settings, read_only=True)


def collect(docs: list[dict], cache: Path, limit: int | None = None) -> list[dict]:
    """Per table question: its document number and its candidates' features and labels."""
    from hyrag.answer.programs.link import Question
    from hyrag.answer.programs.route import rank
    from hyrag.answer.programs.score import Model, answer_key, none_features, op_key
    from hyrag.answer.programs.spans import evidence
    from hyrag.bench.tatqa import _num_str, score

    zero = Model({}, 0.0, {})
    out = []
    for i, doc in enumerate(docs[:limit]):
        qs = doc["questions"]
        if not qs:
            continue
        kb = _kb(doc, i, cache)
        try:
            con = kb.store.con
            for q in qs:
                ranked = rank(q["question"], con, zero)
                labels = []
                for r in ranked:
                    vals = [v if isinstance(v, str) else _num_str(v) for v in r.result.answer]
                    labels.append(score(q, vals, r.result.scale)[0])
                out.append({"doc": i, "uid": q["uid"], "from": q["answer_from"],
                            "none": none_features(Question.of(q["question"])),
                            "phi": [r.phi for r in ranked],
                            "answers": [answer_key(r.result) for r in ranked],
                            "keys": [op_key(r.candidate) for r in ranked], "y": labels,
                            "prose": astuple(evidence(q["question"], con))})
        finally:
            kb.close()
    return out


def _ingest_one(job: tuple[Path, Path]) -> None:
    """One WTQ table into its own knowledge base under the cache (`collect_wtq`)."""
    import hyrag
    from hyrag.settings import Settings

    path, root_kb = job
    root_kb.mkdir(parents=True, exist_ok=True)
    with hyrag.open(root_kb / "kb", settings=Settings(answer_use_search=False)) as kb:
        kb.ingest(path)
    (root_kb / "done").write_text("1", encoding="utf-8")


def collect_wtq(root: Path, cache: Path, limit: int | None, jobs: int = 4,
                vocab: Vocabulary | None = None) -> list[Packed]:
    """Per WTQ training question (`data/random-split-1-train.tsv`; whole tables, in an order
    shuffled with `SEED`, until `limit` questions): its candidates' features, labels and
    answers, packed over `vocab` (`fit_sparse`: every question of the file fits in memory),
    with its table kind's copies of the features dropped (`one_kind`; `fit_sparse.unpack`
    restores them). Each table is ingested once with `kb.ingest(path)`, as `hyrag bench wtq`
    does, and kept under `cache`; a candidate is a positive when its answer matches the target
    by WTQ's denotation accuracy (`hyrag.bench.wtq.correct`)."""
    import csv
    import random

    import hyrag
    from hyrag.answer.programs.route import rank
    from hyrag.answer.programs.score import Model, answer_key, op_key
    from hyrag.bench.wtq import _fmt, correct
    from hyrag.settings import Settings

    with open(root / "data" / "random-split-1-train.tsv", encoding="utf-8", newline="") as f:
        items = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    by_table: dict[str, list[dict]] = {}
    for it in items:
        by_table.setdefault(it["context"], []).append(it)
    order = sorted(by_table)
    random.Random(SEED).shuffle(order)
    zero = Model({}, 0.0, {})
    settings = Settings(answer_use_search=False)
    chosen, k = [], 0
    for context in order:
        if limit is not None and k >= limit:
            break
        chosen.append(context)
        k += len(by_table[context])
    # ingestion waits on the disk more than on a core: a few tables at once
    todo = [(root / c, cache / c.replace("/", "_")) for c in chosen
            if not (cache / c.replace("/", "_") / "done").exists()]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_ingest_one, todo))
    vocab = vocab if vocab is not None else Vocabulary()
    out: list[Packed] = []
    for n, context in enumerate(chosen):
        if n % 100 == 0:
            print(f"  WTQ table {n}/{len(chosen)}, {len(out)} questions, "
                  f"{size_mb(out):.0f} MB", file=sys.stderr)
        root_kb = cache / context.replace("/", "_")
        with hyrag.open(root_kb / "kb", settings=settings, read_only=True) as kb:
            for it in by_table[context]:
                target = it["targetValue"].split("|")
                ranked = rank(it["utterance"], kb.store.con, zero)
                g = {"doc": n, "uid": it["id"], "phi": [r.phi for r in ranked],
                     "keys": [op_key(r.candidate) for r in ranked],
                     "answers": [answer_key(r.result) for r in ranked],
                     "y": [int(correct([_fmt(v) for v in r.result.answer], target))
                           for r in ranked]}
                out.append(pack(g, vocab, kind_of(g)))
    return out


def lists(groups: list[dict]) -> list[dict]:
    """The two ranking problems of each question (`score.Model.probabilities`): its operators
    (operator features; positive when one of the operator's candidates is right), and within
    each operator its candidates (operand features). A question collected with the `NONE`
    operator's features (`score.none_features`) has it among its operators, a positive when
    no candidate is right (`score.Model.rank`)."""
    out = []
    for g in groups:
        by_op: dict[str, list[int]] = {}
        for i, k in enumerate(g["keys"]):
            by_op.setdefault(k, []).append(i)
        ops = {"phi": [g["phi"][idx[0]][0] for idx in by_op.values()],
               "y": [float(any(g["y"][i] for i in idx)) for idx in by_op.values()]}
        if g.get("none") is not None and g["phi"]:
            ops["phi"].append(g["none"])
            ops["y"].append(float(not any(g["y"])))
        out.append(ops)
        for idx in by_op.values():
            if len(idx) > 1:
                out.append({"phi": [g["phi"][i][1] for i in idx], "y": [g["y"][i] for i in idx]})
    return out


def fit(groups: list[dict], l2: float, steps: int):
    """Listwise softmax ranker over both problems of every question (`lists`); returns
    {feature: weight}."""
    import numpy as np

    groups = lists(groups)

    names: dict[str, int] = {}
    for g in groups:
        for phi in g["phi"]:
            for k in phi:
                names.setdefault(k, len(names))
    train = [g for g in groups if any(g["y"])]
    if not train:
        return {}
    idx, val, cand, grp, pos = [], [], [], [], []
    n = 0
    for gi, g in enumerate(train):
        for phi, y in zip(g["phi"], g["y"], strict=True):
            for k, v in phi.items():
                idx.append(names[k])
                val.append(v)
                cand.append(n)
            grp.append(gi)
            pos.append(y)
            n += 1
    idx, val, cand = np.array(idx), np.array(val, dtype=float), np.array(cand)
    grp, pos = np.array(grp), np.array(pos, dtype=float)
    w = listwise_adam(idx, val, cand, grp, pos, n, len(names), len(train), l2, steps)
    inv = {j: k for k, j in names.items()}
    return {inv[j]: round(float(x), 6) for j, x in enumerate(w) if abs(x) > 1e-6}


def listwise_adam(idx: np.ndarray, val: np.ndarray, cand: np.ndarray, grp: np.ndarray,
                  pos: np.ndarray, n: int, n_features: int, n_groups: int, l2: float,
                  steps: int) -> np.ndarray:
    """Weights of a listwise softmax ranker with L2, by Adam from a seeded start. The data is
    sparse triples: feature `idx[k]` has value `val[k]` in candidate `cand[k]`; candidate i
    belongs to group (question) `grp[i]` and is a positive when `pos[i]`. The loss is
    -log of the positives' probability mass per group (several programs may be right)."""
    import numpy as np

    rng = np.random.default_rng(SEED)
    w = rng.normal(0, 1e-4, n_features)
    m1, m2 = np.zeros_like(w), np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        s = np.bincount(cand, weights=w[idx] * val, minlength=n)
        mx = np.full(n_groups, -np.inf)
        np.maximum.at(mx, grp, s)
        e = np.exp(s - mx[grp])
        z = np.bincount(grp, weights=e, minlength=n_groups)
        p = e / z[grp]
        # d/ds of -log sum_{pos} p  =  p - (p * pos) / sum_pos p
        pmass = np.bincount(grp, weights=p * pos, minlength=n_groups)
        coef = p - (p * pos) / np.maximum(pmass[grp], 1e-300)
        g = np.bincount(idx, weights=coef[cand] * val, minlength=n_features) / n_groups
        g += l2 * w
        m1 = b1 * m1 + (1 - b1) * g
        m2 = b2 * m2 + (1 - b2) * g * g
        w -= lr * (m1 / (1 - b1 ** t)) / (np.sqrt(m2 / (1 - b2 ** t)) + 1e-8)
    return w


def evaluate(groups: list[dict], weights: dict[str, float],
             calibrator: dict[str, float] | None = None) -> list[tuple[float, int]]:
    """(confidence in the best candidate, is it right) per question (no candidate: (0, 0));
    the confidence is the calibrator's when one is given, else the best probability."""
    return [(confidence(f, calibrator), y) for f, y in _tops(groups, weights)]


def _tops(groups: list[dict], weights: dict[str, float]) -> list[tuple[dict, int]]:
    """Per question: the calibration features of its best candidate, and whether it is right."""
    from hyrag.answer.programs.score import (
        Model,
        ProseEvidence,
        agreement,
        calibration_features,
    )

    m = Model(weights, 0.0, {})
    out = []
    for g in groups:
        got = m.rank(g["keys"], g["phi"], none=g.get("none")) if g["phi"] else None
        if got is None or got.abstains:
            out.append(({}, 0))  # no candidate, or the NONE operator is the likeliest
            continue
        p = [a * b for _, (a, b) in sorted(got.order)]
        b, parts = got.order[0]
        rest = [i for i in range(len(p)) if i != b]
        chosen_first = [p[b]] + [p[i] for i in rest]
        answers = g.get("answers") or [str(i) for i in range(len(p))]
        agree = agreement(chosen_first, [answers[b]] + [answers[i] for i in rest])
        prose = ProseEvidence(*g.get("prose", ()))  # collections before it: none measured
        out.append((calibration_features(chosen_first, g["phi"][b], g["keys"][b], parts, agree,
                                         prose, got.none), int(g["y"][b] > 0)))
    return out


def confidence(f: dict, calibrator: dict[str, float] | None) -> float:
    """The calibrator's probability for calibration features `f` (no calibrator: the best
    probability itself; no features: 0). Shared by `hyrag bench fit-spans`."""
    import math

    if not f:
        return 0.0
    if not calibrator:
        return f["p_best"]
    z = sum(calibrator.get(k, 0.0) * v for k, v in f.items())
    return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


def calibrate(tops: list[tuple[dict, int]], l2: float = 1e-2, steps: int = 50
              ) -> dict[str, float]:
    """Logistic regression of "the best program is right" on its calibration features: the
    confidence the abstention threshold is set on. Fitted to convergence by Newton's method
    (iteratively reweighted least squares, with the L2 penalty `l2`; at most `steps`
    iterations, a handful in practice): the calibrator has a few dozen features, so each step
    is one small linear solve. Plain gradient descent on these unscaled features stopped far
    from the optimum; on TAT-QA dev's held-out halves the converged fit's log-loss is 0.47 /
    0.43 against 0.63 / 0.71, and its fitted thresholds no longer swing between halves."""
    import numpy as np

    rows = [(f, y) for f, y in tops if f]
    names = sorted({k for f, _ in rows for k in f})
    x = np.array([[f.get(k, 0.0) for k in names] for f, _ in rows])
    y = np.array([y for _, y in rows], dtype=float)
    w = np.zeros(len(names))
    eye = np.eye(len(names))
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -50, 50)))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x * (p * (1.0 - p))[:, None]).T @ x / len(y) + l2 * eye
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return {k: round(float(v), 6) for k, v in zip(names, w, strict=True)}


def threshold(scored: list[tuple[float, int]], precision: float) -> float:
    """The lowest probability cut whose answered questions keep `precision` (most answers)."""
    best_t, best_right = 1.01, -1
    for t in sorted({round(p, 3) for p, _ in scored}):
        ans = [y for p, y in scored if p >= t]
        if ans and sum(ans) / len(ans) >= precision and sum(ans) > best_right:
            best_t, best_right = t, sum(ans)
    return best_t


def out_of_fold(groups: list[dict], l2: float, steps: int, floor: float = 0.0,
                folds: int = OOF_FOLDS) -> list[tuple[dict, int]]:
    """The training half's best candidates as a ranker fitted without each question's
    document would pick them (calibration features, right): `folds` folds by document, each
    ranked by the ranker fitted on the others (its weights below `floor` dropped, as the
    shipped ranker's are). The calibrator and the threshold are fitted on these, not on the
    fitted questions' own (over-confident) rankings."""
    out: list[tuple[dict, int]] = []
    fold = document_folds((g["doc"] for g in groups), folds)
    for f in range(folds):
        train = [g for g in groups if fold[g["doc"]] != f]
        test = [g for g in groups if fold[g["doc"]] == f]
        out += _tops(test, pruned(fit(train, l2, steps), floor))
    return out


def pruned(weights: dict[str, float], floor: float) -> dict[str, float]:
    """The weights at least `floor` in size: the ones that move a ranking (`--floor`)."""
    return {k: v for k, v in weights.items() if abs(v) >= floor}


def one_kind(group: dict, kind: str) -> dict:
    """A collected question with its features' copies for `kind` dropped: within a part
    fitted for one kind every candidate carries them, so they only repeat the shared
    features (and would double the part's size); the part scores the shared ones."""
    mark = kind + "|"
    return {**group, "phi": [({k: v for k, v in a.items() if not k.startswith(mark)},
                              {k: v for k, v in b.items() if not k.startswith(mark)})
                             for a, b in group["phi"]]}


def report(name: str, scored: list[tuple[float, int]], t: float) -> str:
    n = len(scored)
    ans = [y for p, y in scored if p >= t]
    top = sum(y for _, y in scored)
    prec = sum(ans) / len(ans) if ans else 0.0
    return (f"{name}: n={n} top-1 right {top / max(n, 1):.3f}; at threshold {t:.3f}: "
            f"EM {sum(ans) / max(n, 1):.3f}, answered {len(ans)}, precision {prec:.3f}")


def _collect_all(args: argparse.Namespace) -> tuple[list[dict], list[Packed], Vocabulary]:
    groups: list[dict] = []
    lists_groups: list[Packed] = []
    vocab = Vocabulary()
    with tempfile.TemporaryDirectory(prefix="hyrag-fit-") as tmp:
        cache = Path(args.cache) if args.cache else Path(tmp)
        if args.tatqa:
            docs = json.loads(Path(args.tatqa).read_text(encoding="utf-8"))
            groups = collect(docs, cache, args.limit)
        if args.wtq:
            lists_groups = collect_wtq(Path(args.wtq), cache / "wtq", args.wtq_limit or None,
                                       args.jobs, vocab)
    return groups, lists_groups, vocab


def _load(path: Path) -> tuple[list[dict], list[Packed], Vocabulary]:
    """A collection `run` saved (`--collected`): pickled, its WTQ questions packed; a JSON one
    of an earlier version (every question a dictionary) is read and its WTQ questions packed."""
    with gzip.open(path, "rb") as f:
        head = f.peek(1)[:1] if hasattr(f, "peek") else b""
        if head != b"[":
            return pickle.load(f)
        groups, raw = json.loads(f.read().decode("utf-8"))
    vocab = Vocabulary()
    return groups, [pack(g, vocab, kind_of(g)) for g in raw], vocab


def kind_of(group: dict) -> str:
    """The table kind (`score.table_kind`) a collected question's candidates read, as their
    features carry it (every feature has a copy conjoined with the kind, `score.features`);
    "" for a question without candidates."""
    for phi_op, _ in group["phi"][:1]:
        for k in phi_op:
            if "|" in k:
                return k.split("|", 1)[0]
    return ""


def fit_kind(args: argparse.Namespace, groups: list[dict], lists_groups: list[Packed],
             vocab: Vocabulary) -> int:
    """`--kind K`: fit the ranker, calibrator and threshold of tables of kind K on the given
    training questions over such tables (TAT-QA's `--train` half and WTQ's training file),
    and write them into `--base` as its part for K (`score.Model.kinds`); the rest of the
    base — the report tables' ranker and threshold, say — is kept byte for byte."""
    from hyrag.answer.programs.score import WEIGHTS_FILE, Model

    parity = {"even": 0, "odd": 1}.get(args.train)
    pool = [pack(g, vocab, args.kind) for g in groups if (
        parity is None or g["doc"] % 2 == parity) and kind_of(g) == args.kind]
    pool += [replace(g, doc=("wtq", g.doc)) for g in lists_groups if g.kind == args.kind]
    if not pool:
        print(f"hyrag: error: no training question reads a {args.kind} table", file=sys.stderr)
        return 1
    decode = getattr(args, "decode", "factored")
    weights = pruned(fit_packed(pool, vocab, args.l2, args.steps), args.floor)
    oof = out_of_fold_packed(pool, vocab, args.l2, args.steps, args.floor, decode, args.folds)
    cal = calibrate(oof)
    t = threshold([(confidence(f, cal), y) for f, y in oof], args.precision)
    print(report(f"training ({args.kind} tables), in sample",
                 [(confidence(f, cal), y) for f, y in tops(pool, vocab, weights, decode)], t))
    print(report(f"training ({args.kind} tables), out of fold",
                 [(confidence(f, cal), y) for f, y in oof], t))
    base_path = Path(args.base) if args.base else WEIGHTS_FILE
    base = Model.load(base_path)
    fitted = []
    if groups:
        fitted.append(f"TAT-QA dev, {args.train} documents, {args.kind} tables")
    if lists_groups:
        fitted.append(f"WTQ random-split-1-train, {args.kind} tables")
    meta = {"fitted_on": "; ".join(fitted) + f" ({len(pool)} questions; the ranker on those "
            "with a right candidate, the calibrator on all, out of fold)",
            "seed": SEED, "l2": args.l2, "steps": args.steps, "precision_target": args.precision,
            "command": "hyrag bench fit " + " ".join(shlex.quote(a) for a in sys.argv[3:])}
    part = Model(weights, t, meta, cal, decode=decode)
    if args.out:
        out = Path(args.out)
        Model(base.weights, base.min_confidence, base.meta, base.calibrator,
              {**base.kinds, args.kind: part}).save(out)
        print(f"wrote {out}: {args.kind} tables {len(part.weights)} weights, threshold "
              f"{t:.3f}; the other parts as in {base_path}")
    return 0


def run(args: argparse.Namespace) -> int:
    from hyrag.answer.programs.score import WEIGHTS_FILE, Model

    if not args.tatqa and not args.wtq:
        print("hyrag: error: --tatqa FILE and/or --wtq DIR is required", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    saved = Path(args.collected) if args.collected else None
    if saved is not None and saved.exists():
        groups, packed, vocab = _load(saved)
    else:
        groups, packed, vocab = _collect_all(args)
        if saved is not None:
            with gzip.open(saved, "wb") as f:
                pickle.dump((groups, packed, vocab), f, protocol=pickle.HIGHEST_PROTOCOL)
    print(f"collected {len(groups) + len(packed)} questions in "
          f"{time.perf_counter() - t0:.0f} s; "
          f"{sum(bool(any(g['y'])) for g in groups) + sum(bool(g.y.any()) for g in packed)} "
          f"have a right candidate; WTQ's packed in {size_mb(packed):.0f} MB", file=sys.stderr)
    if getattr(args, "kind", None):
        return fit_kind(args, groups, packed, vocab)
    lists_groups = [unpack(g, vocab) for g in packed]
    parity = {"even": 0, "odd": 1}.get(args.train)
    train = [g for g in groups if parity is None or g["doc"] % 2 == parity]
    held = [g for g in groups if parity is not None and g["doc"] % 2 != parity]
    weights = fit(train + lists_groups, args.l2, args.steps)
    # WTQ groups count their tables as documents: offset so the two sets never share a fold key
    oof = out_of_fold(train + [{**g, "doc": ("wtq", g["doc"])} for g in lists_groups],
                      args.l2, args.steps, folds=args.folds)
    cal = calibrate(oof)
    t = threshold([(confidence(f, cal), y) for f, y in oof], args.precision)
    table = [g for g in train if g["from"] != "text"]
    if table:
        print(report(f"training ({args.train} documents), table questions",
                     evaluate(table, weights, cal), t))
    if lists_groups:
        print(report("training (WTQ random-split-1-train questions)",
                     evaluate(lists_groups, weights, cal), t))
    print(report("training, out of fold, all questions",
                 [(confidence(f, cal), y) for f, y in oof], t))
    if held:
        other = "odd" if args.train == "even" else "even"
        print(report(f"held out ({other} documents), table questions",
                     evaluate([g for g in held if g["from"] != "text"], weights, cal), t))
        print(report(f"held out ({other} documents), all questions",
                     evaluate(held, weights, cal), t))
    if args.out:
        fitted = [f"TAT-QA dev, {args.train} documents (the ranker on questions with a right "
                  "candidate; the calibrator on all, out of fold)"] if args.tatqa else []
        if args.wtq:
            fitted.append(f"WTQ random-split-1-train, {len(lists_groups)} questions")
        meta = {"fitted_on": "; ".join(fitted),
                "seed": SEED, "l2": args.l2, "steps": args.steps, "folds": args.folds,
                "precision_target": args.precision,
                "command": "hyrag bench fit " + " ".join(shlex.quote(a) for a in sys.argv[3:])}
        out = Path(args.out)
        # the parts fitted per table kind (`--kind`) are kept from --base: refitting the
        # report tables' ranker leaves the list tables' one as it was
        base_path = Path(args.base) if args.base else WEIGHTS_FILE
        kinds = Model.load(base_path).kinds if base_path.exists() else {}
        Model(weights, t, meta, cal, kinds).save(out)
        print(f"wrote {out} ({len(weights)} weights; threshold {t:.3f}"
              + (f"; the parts for {', '.join(sorted(kinds))} tables as in {base_path}"
                 if kinds else "") + ")"
              + (" — the shipped file" if out.resolve() == WEIGHTS_FILE.resolve() else ""))
    return 0
