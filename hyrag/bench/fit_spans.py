"""`hyrag bench fit-spans`: fit the span programs' model (`hyrag.answer.programs.spans`) on
training questions, and report it on questions it was not fitted on.

Reproducible: a fixed seed, full-batch optimisation, documents processed in order; minutes on
two cores. Training data is TAT-QA dev split by document — `--train even` fits on the
even-numbered documents and reports on the odd ones (`--train odd` the other way round;
`--train all` fits the shipped weights on every document and has no held-out figure). Each
document's paragraphs are written as a text file and read with `kb.ingest(path)`, the
product's own path; each question's candidates are the route's own (`spans.candidates`).

Positives are the text questions whose answer is a span of the text (TAT-QA's answer_type
"span" / "multi-span" with answer_from "text"). The sentence ranker's positives are the
retrieved sentences holding the question's best candidate span (the highest F1 against the
gold answer under TAT-QA's conventions, `hyrag.bench.tatqa.score`, at least `MIN_F1`); the
span ranker's, within each such sentence, its candidates of that best F1 — the F1-optimal
span, not only an exact one, so that questions whose gold answer no candidate matches
exactly still teach which clause answers. Both are listwise log-linear rankers (softmax over
the list, L2 penalty, Adam, full batch), fitted as one weight vector.

Two calibrated tiers (`spans.SpanModel`), each a logistic calibrator over
`spans.calibration_features` fitted on the training half's out-of-fold rankings (two folds by
document) of the questions the span programs are asked, and the lowest cut keeping its
precision target: the answer tier, "the best span is the answer exactly" (`--precision`,
default 0.9), above which the clause is answered; the quote tier, "it quotes the answer's
clause" (F1 >= `MIN_F1`: the right sentence cited; `--quote-precision`, default 0.9), above
which the cited sentence is offered as `needs_verification`. The route is asked whatever the
question — table and figure questions too — and it is the engine's last resort, so with
`--unanswered RUN.json` (a `hyrag bench tatqa --answer-core hybrid --no-spans --out` run) the
questions asked are the ones that run left unanswered; without it, every question. The
calibrators may learn that a question's opening words ("how much") never ask for a clause.
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
from pathlib import Path
from typing import TYPE_CHECKING

from hyrag.bench.fit import calibrate, confidence, listwise_adam, threshold

if TYPE_CHECKING:
    import numpy as np

SEED = 19
MIN_F1 = 0.5  # a candidate this close to the gold answer (F1) may be the one taught


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tatqa", required=False, default=None, help="tatqa_dataset_dev.json")
    p.add_argument("--train", choices=("even", "odd", "all"), default="even",
                   help="which TAT-QA documents to fit on (the others are reported)")
    p.add_argument("--cache", default=None,
                   help="keep each document's knowledge base here (DIR/<n>/kb) between runs")
    p.add_argument("--collected", default=None, metavar="FILE.pkl.gz",
                   help="the collected candidates: read from FILE when it exists, else "
                        "collected and written there (valid only for the code that wrote it)")
    p.add_argument("--out", default=None,
                   help="write the fitted model here (the package's span_weights.json to ship)")
    p.add_argument("--unanswered", default=None, metavar="RUN.json",
                   help="a `hyrag bench tatqa --no-spans --out` run: the "
                        "calibrator and threshold are fitted on the questions it left "
                        "unanswered — the ones the last resort is asked — not on all")
    p.add_argument("--precision", type=float, default=0.9,
                   help="precision of the answer tier (exactly right) out of fold")
    p.add_argument("--quote-precision", type=float, default=0.9,
                   help="precision of the quote tier (the answer's clause quoted) out of fold")
    p.add_argument("--l2", type=float, default=1e-2)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--jobs", type=int, default=2, help="documents ingested at once")
    p.add_argument("--limit", type=int, default=None, help="the first N documents")


def _ingest(job: tuple[dict, Path]) -> None:
    """One document's paragraphs into its own knowledge base under the cache."""
    import hyrag
    from hyrag.bench.tatqa import write_document
    from hyrag.settings import Settings

    doc, root = job
    _, text = write_document(doc, root / "doc")
    with hyrag.open(root / "kb", settings=Settings(answer_use_search=False)) as kb:
        if text is not None:
            kb.ingest(text)
    (root / "done").write_text("1", encoding="utf-8")


def is_span_question(q: dict) -> bool:
    """A question the span programs are fitted to answer: a span of the text."""
    return q["answer_from"] == "text" and q["answer_type"] in ("span", "multi-span")


class _Index:
    """Feature names -> columns, grown as questions are collected."""

    def __init__(self) -> None:
        self.names: dict[str, int] = {}

    def sparse(self, phis: list[dict[str, float]]) -> tuple[list[int], list[float], list[int]]:
        idx: list[int] = []
        val: list[float] = []
        off = [0]
        for phi in phis:
            for k, v in phi.items():
                idx.append(self.names.setdefault(k, len(self.names)))
                val.append(v)
            off.append(len(idx))
        return idx, val, off


def collect(docs: list[dict], cache: Path, limit: int | None, jobs: int) -> dict:
    """Per question: its candidates' features (sparse), their F1 / EM against the gold
    answer, and what the calibrator reads besides the model's probabilities."""
    import numpy as np

    import hyrag
    from hyrag.answer.programs.execute import ExecutionError, quote
    from hyrag.answer.programs.language import Span
    from hyrag.answer.programs.spans import _SHAPE, candidates, prose, token_range
    from hyrag.bench.tatqa import score
    from hyrag.settings import Settings

    chosen = list(enumerate(docs[:limit]))
    todo = [(d, cache / str(i)) for i, d in chosen if not (cache / str(i) / "done").exists()]
    with ProcessPoolExecutor(max_workers=max(jobs, 1)) as pool:
        list(pool.map(_ingest, todo))
    index = _Index()
    out: list[dict] = []
    for i, doc in chosen:
        if i % 50 == 0:
            print(f"  document {i}/{len(chosen)}, {len(out)} questions", file=sys.stderr)
        with hyrag.open(cache / str(i) / "kb", settings=Settings(answer_use_search=False),
                        read_only=True) as kb:
            p = prose(kb.store.con)
            for q in doc["questions"]:
                asked, found = candidates(q["question"], p)
                s_phi = [phi for _, _, phi, _ in found]
                sent_of, spans_phi, f1, em, shape, rng = [], [], [], [], [], []
                for k, (si, _cover, _phi, spans) in enumerate(found):
                    for a, b, phi in spans:
                        try:
                            text = quote(Span(p.sentences[si].claim_id, a, b), p.by_claim).text
                        except ExecutionError:
                            text = ""
                        e, f = score(q, [text], "") if text else (0.0, 0.0)
                        sent_of.append(k)
                        rng.append(token_range(p.sentences[si].text, a, b))
                        spans_phi.append(phi)
                        f1.append(f)
                        em.append(e)
                        shape.append([phi.get(x, 0.0) for x in _SHAPE])
                si_, sv_, so_ = index.sparse(s_phi)
                pi_, pv_, po_ = index.sparse(spans_phi)
                gold_sent = any(
                    str(g).strip() and str(g).strip().lower() in p.sentences[si].text.lower()
                    for g in (q["answer"] if isinstance(q["answer"], list) else [q["answer"]])
                    for si, *_ in found)
                out.append({
                    "doc": i, "uid": q["uid"], "span": is_span_question(q),
                    "from": q["answer_from"], "opening": asked.opening,
                    "cover": np.array([c for _, c, _, _ in found], dtype=np.float32),
                    "s": (np.array(si_, dtype=np.int32), np.array(sv_, dtype=np.float32),
                          np.array(so_, dtype=np.int64)),
                    "p": (np.array(pi_, dtype=np.int32), np.array(pv_, dtype=np.float32),
                          np.array(po_, dtype=np.int64)),
                    "sent_of": np.array(sent_of, dtype=np.int32),
                    "rng": np.array(rng, dtype=np.int32).reshape(-1, 2),
                    "f1": np.array(f1, dtype=np.float32), "em": np.array(em, dtype=np.float32),
                    "shape": np.array(shape, dtype=np.float32).reshape(-1, len(_SHAPE)),
                    "retrieved_gold": gold_sent})
    return {"names": index.names, "questions": out}


def _dot(csr: tuple, w: np.ndarray) -> np.ndarray:
    """Each row's score w . phi of a sparse (idx, val, offsets) matrix."""
    import numpy as np

    idx, val, off = csr
    n = len(off) - 1
    if n <= 0:
        return np.zeros(0)
    rows = np.repeat(np.arange(n), np.diff(off))
    return np.bincount(rows, weights=w[idx] * val, minlength=n)


def _softmax(x: np.ndarray) -> np.ndarray:
    import numpy as np

    if not len(x):
        return x
    e = np.exp(x - x.max())
    return e / e.sum()


def lists(questions: list[dict]) -> list[tuple[tuple, np.ndarray]]:
    """The listwise problems (sparse features, positive weights): per span question whose
    best candidate reaches `MIN_F1`, its sentences (positives: those holding a best-F1
    candidate) and, in each positive sentence, its spans (positives: its best-F1 ones)."""
    import numpy as np

    out = []
    for g in questions:
        if not g["span"] or not len(g["f1"]):
            continue
        top = float(g["f1"].max())
        if top < MIN_F1:
            continue
        best = g["f1"] >= top - 1e-6
        pos_sent = np.zeros(len(g["cover"]))
        pos_sent[np.unique(g["sent_of"][best])] = 1.0
        if len(pos_sent) > 1:
            out.append((g["s"], pos_sent))
        idx, val, off = g["p"]
        for k in np.flatnonzero(pos_sent):
            rows = np.flatnonzero(g["sent_of"] == k)
            a, b = rows[0], rows[-1] + 1
            sub = (idx[off[a]:off[b]], val[off[a]:off[b]], off[a:b + 1] - off[a])
            out.append((sub, (g["f1"][a:b] >= top - 1e-6).astype(float)))
    return out


def fit(questions: list[dict], n_features: int, l2: float, steps: int) -> np.ndarray:
    """One weight vector for both rankers (`lists`): listwise softmax, L2, Adam."""
    import numpy as np

    probs = lists(questions)
    if not probs:
        return np.zeros(n_features)
    idx_l, val_l, cand_l, grp_l, pos_l = [], [], [], [], []
    n = 0
    for gi, ((idx, val, off), pos) in enumerate(probs):
        rows = np.repeat(np.arange(len(off) - 1), np.diff(off)) + n
        idx_l.append(idx)
        val_l.append(val)
        cand_l.append(rows)
        grp_l.append(np.full(len(off) - 1, gi))
        pos_l.append(pos)
        n += len(off) - 1
    idx, val = np.concatenate(idx_l), np.concatenate(val_l).astype(float)
    cand, grp, pos = np.concatenate(cand_l), np.concatenate(grp_l), np.concatenate(pos_l)
    return listwise_adam(idx, val, cand, grp, pos, n, n_features, len(probs), l2, steps)


def best(g: dict, w: np.ndarray) -> dict | None:
    """The question's best span under weights `w`: its calibration features, EM, F1 and
    whether its sentence is one holding the best candidate; None without candidates."""
    import numpy as np

    from hyrag.answer.programs.spans import _SHAPE, MBR_TOP, calibration_features, decode

    if not len(g["f1"]):
        return None
    ps = _softmax(_dot(g["s"], w))
    sp = _dot(g["p"], w)
    p_span = np.zeros_like(sp)
    for k in range(len(ps)):
        rows = g["sent_of"] == k
        p_span[rows] = _softmax(sp[rows])
    joint = ps[g["sent_of"]] * p_span
    order = np.argsort(-joint, kind="stable")
    top = order[:MBR_TOP]
    pick, ef1 = decode([float(joint[i]) for i in top], [int(g["sent_of"][i]) for i in top],
                       [int(g["rng"][i, 0]) for i in top], [int(g["rng"][i, 1]) for i in top])
    b = int(top[pick])
    other = float(max((joint[i] for i in order[:2] if i != b), default=0.0))
    k = int(g["sent_of"][b])
    phi = {name: float(v) for name, v in zip(_SHAPE, g["shape"][b], strict=True)}
    f = calibration_features(float(ps[k]), float(p_span[b]), float(g["cover"][k]), phi,
                             other, tuple(g["opening"]), ef1)
    top = float(g["f1"].max())
    right_sentence = top > 0 and bool((g["f1"][g["sent_of"] == k] >= top - 1e-6).any())
    return {"f": f, "em": float(g["em"][b]), "f1": float(g["f1"][b]),
            "sentence": right_sentence, "reachable_em": float(g["em"].max()),
            "top_f1": top}


def out_of_fold(questions: list[dict], n_features: int, l2: float, steps: int,
                asked: set[str] | None = None) -> list[dict]:
    """The training half's best spans as a model fitted without each question's document
    would pick them: two folds by document (`best`: calibration features, EM, F1), of the
    questions `asked` (all when None)."""
    docs = sorted({g["doc"] for g in questions})
    fold = {d: k % 2 for k, d in enumerate(docs)}
    out = []
    for f in (0, 1):
        w = fit([g for g in questions if fold[g["doc"]] != f], n_features, l2, steps)
        for g in questions:
            if fold[g["doc"]] == f and (asked is None or g["uid"] in asked):
                b = best(g, w)
                if b is not None:
                    out.append(b)
    return out


def report(name: str, questions: list[dict], w: np.ndarray, cals: tuple[dict, dict],
           cuts: tuple[float, float], asked: set[str] | None = None) -> str:
    """Span questions: how often the right sentence is retrieved and picked, the best span's
    EM / F1; the questions `asked` (all when None): at the threshold, what is answered and how
    often rightly."""
    spans = [g for g in questions if g["span"]]
    bs = [best(g, w) for g in spans]
    n = max(len(spans), 1)
    retrieved = sum(g["retrieved_gold"] for g in spans) / n
    reach = sum(float(g["f1"].max()) >= MIN_F1 for g in spans if len(g["f1"])) / n
    picked = sum(b["sentence"] for b in bs if b) / n
    em = sum(b["em"] for b in bs if b) / n
    f1 = sum(b["f1"] for b in bs if b) / n
    upper = sum(b["reachable_em"] for b in bs if b) / n
    lines = [f"{name}: {len(spans)} text-span questions; gold text in the top sentences "
             f"{retrieved:.3f}, a candidate with F1 >= {MIN_F1} {reach:.3f}, exact candidate "
             f"{upper:.3f}; best span's sentence right {picked:.3f}, EM {em:.3f}, F1 {f1:.3f}"]
    allb = [(g, best(g, w)) for g in questions if asked is None or g["uid"] in asked]
    allb = [(g, b) for g, b in allb if b is not None]
    answered = [b for _, b in allb if confidence(b["f"], cals[0]) >= cuts[0]]
    quoted = [b for _, b in allb if confidence(b["f"], cals[0]) < cuts[0]
              and confidence(b["f"], cals[1]) >= cuts[1]]
    for tier, bs, cut in (("answered", answered, cuts[0]), ("quoted (needs_verification)",
                                                             quoted, cuts[1])):
        exact = sum(b["em"] for b in bs)
        clause = sum(b["f1"] >= MIN_F1 for b in bs)
        lines.append(f"  {tier} at {cut:.3f}: {len(bs)} of {len(allb)} questions, {exact:.0f} "
                     f"exactly right ({exact / max(len(bs), 1):.3f}), {clause} quoting the "
                     f"answer's clause (F1 >= {MIN_F1}: {clause / max(len(bs), 1):.3f}), mean "
                     f"F1 {sum(b['f1'] for b in bs) / max(len(bs), 1):.3f}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from hyrag.answer.programs.spans import HASH_BUCKETS, SPAN_WEIGHTS_FILE, SpanModel

    if not args.tatqa:
        print("hyrag: error: --tatqa FILE is required", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    saved = Path(args.collected) if args.collected else None
    if saved is not None and saved.exists():
        with gzip.open(saved, "rb") as f:
            data = pickle.load(f)  # a file this command wrote (--collected), never another
    else:
        docs = json.loads(Path(args.tatqa).read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory(prefix="hyrag-fitspans-") as tmp:
            cache = Path(args.cache) if args.cache else Path(tmp)
            data = collect(docs, cache, args.limit, args.jobs)
        if saved is not None:
            with gzip.open(saved, "wb") as f:
                pickle.dump(data, f)
    names, questions = data["names"], data["questions"]
    print(f"collected {len(questions)} questions ({sum(g['span'] for g in questions)} "
          f"text-span), {len(names)} features, in {time.perf_counter() - t0:.0f} s",
          file=sys.stderr)
    parity = {"even": 0, "odd": 1}.get(args.train)
    train = [g for g in questions if parity is None or g["doc"] % 2 == parity]
    held = [g for g in questions if parity is not None and g["doc"] % 2 != parity]
    asked = None
    if args.unanswered:
        runs = json.loads(Path(args.unanswered).read_text(encoding="utf-8"))
        asked = {r["uid"] for r in runs if not r["answer"]}
    w = fit(train, len(names), args.l2, args.steps)
    oof = out_of_fold(train, len(names), args.l2, args.steps, asked)
    cal = calibrate([(b["f"], b["em"]) for b in oof])
    t = threshold([(confidence(b["f"], cal), b["em"]) for b in oof], args.precision)
    qcal = calibrate([(b["f"], float(b["f1"] >= MIN_F1)) for b in oof])
    qt = threshold([(confidence(b["f"], qcal), float(b["f1"] >= MIN_F1)) for b in oof
                    if confidence(b["f"], cal) < t], args.quote_precision)
    print(report(f"training ({args.train} documents)", train, w, (cal, qcal), (t, qt), asked))
    if held:
        other = "odd" if args.train == "even" else "even"
        print(report(f"held out ({other} documents)", held, w, (cal, qcal), (t, qt), asked))
    print(f"out of fold (training half, {len(oof)} questions): answer tier {t:.3f} at "
          f"precision >= {args.precision}, quote tier {qt:.3f} at {args.quote_precision}")
    if args.out:
        inv = {j: k for k, j in names.items()}
        weights = {inv[j]: float(x) for j, x in enumerate(np.asarray(w)) if abs(x) > 1e-6}
        meta = {"fitted_on": f"TAT-QA dev, {args.train} documents (rankers on text-span "
                             "questions; calibrator out of fold on "
                             + ("the questions a run without span programs left unanswered)"
                                if asked is not None else "all questions)"),
                "seed": SEED, "l2": args.l2, "steps": args.steps, "min_f1": MIN_F1,
                "quote_precision_target": args.quote_precision,
                "hash_buckets": HASH_BUCKETS, "precision_target": args.precision,
                "command": "hyrag bench fit-spans " + " ".join(
                    shlex.quote(a) for a in sys.argv[3:])}
        out = Path(args.out)
        SpanModel(weights, t, meta, cal, qcal, qt).save(out)
        size = out.stat().st_size
        print(f"wrote {out} ({len(weights)} weights, {size / 1024:.0f} KiB; tiers {t:.3f} / "
              f"{qt:.3f})" + (" — the shipped file" if out.resolve() ==
                             SPAN_WEIGHTS_FILE.resolve() else ""))
    return 0
