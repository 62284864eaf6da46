"""The collected candidates of `hyrag bench fit` as sparse arrays, and the ranker fitted and
evaluated on them.

A question's candidates collected as dictionaries (`fit.collect_wtq`: about 150 candidates of
about 60 features each per WikiTableQuestions question) cost some hundred bytes per feature in
Python objects: the 11,321 questions of WTQ's training file took 18 GB, so the list tables'
ranker was fitted on a third of them. Packed — one vocabulary of feature names shared by every
question, each question's features as int32 indices and float32 values, an operator's
features stored once (they are the same for every candidate of the operator: `score.features`)
— the same questions take under a tenth of that, and the ranker is fitted on all of them.

The model is the one of `fit` (a listwise softmax ranker over the two problems of each
question: its operators, then each operator's candidates; `fit.lists`) and the ranking that of
`score.Model.best_first`, computed on the arrays: `fit_packed` and `tops` give what `fit.fit`
and `fit._tops` give on the same questions as dictionaries.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Vocabulary:
    """Feature names and their indices, shared by every packed question of one collection."""

    index: dict[str, int] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)

    def ids(self, phi: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
        """The feature indices and values of `phi` (new names are added)."""
        idx = np.empty(len(phi), dtype=np.int32)
        val = np.empty(len(phi), dtype=np.float32)
        for k, (name, v) in enumerate(phi.items()):
            j = self.index.get(name)
            if j is None:
                j = self.index[name] = len(self.names)
                self.names.append(sys.intern(name))
            idx[k], val[k] = j, v
        return idx, val

    def vector(self, weights: dict[str, float]) -> np.ndarray:
        """`weights` as a vector over this vocabulary (names it lacks score nothing)."""
        w = np.zeros(len(self.names))
        for name, v in weights.items():
            j = self.index.get(name)
            if j is not None:
                w[j] = v
        return w


@dataclass(frozen=True)
class Packed:
    """One question's candidates: its operators (`keys`, each with its operator features as
    a CSR row of `op_ptr` / `op_idx` / `op_val`), each candidate's operator (`cand_key`), its
    operand features (CSR rows of `arg_ptr` / `arg_idx` / `arg_val`), whether it is right
    (`y`) and which answer it computes (`answers`: equal ids, equal answers)."""

    doc: object
    uid: str
    kind: str
    keys: tuple[str, ...]
    op_ptr: np.ndarray
    op_idx: np.ndarray
    op_val: np.ndarray
    cand_key: np.ndarray
    arg_ptr: np.ndarray
    arg_idx: np.ndarray
    arg_val: np.ndarray
    y: np.ndarray
    answers: np.ndarray

    @property
    def n(self) -> int:
        return len(self.cand_key)


def pack(group: dict, vocab: Vocabulary, kind: str = "") -> Packed:
    """A collected question (`fit.collect_wtq`'s dictionary form) packed over `vocab`; with
    `kind`, the features' copies for that kind dropped (`fit.one_kind`)."""
    mark = kind + "|" if kind else None
    keys: dict[str, int] = {}
    op_rows: list[tuple[np.ndarray, np.ndarray]] = []
    cand_key, arg_rows = [], []
    for (a, b), key in zip(group["phi"], group["keys"], strict=True):
        k = keys.get(key)
        if k is None:
            k = keys[key] = len(keys)
            op_rows.append(vocab.ids(_drop(a, mark)))
        cand_key.append(k)
        arg_rows.append(vocab.ids(_drop(b, mark)))
    answers: dict[str, int] = {}
    ans = [answers.setdefault(x, len(answers)) for x in group.get("answers") or
           [str(i) for i in range(len(cand_key))]]
    op_ptr, op_idx, op_val = _csr(op_rows)
    arg_ptr, arg_idx, arg_val = _csr(arg_rows)
    return Packed(group["doc"], str(group.get("uid", "")), kind,
                  tuple(sys.intern(k) for k in keys), op_ptr, op_idx, op_val,
                  np.array(cand_key, dtype=np.int32), arg_ptr, arg_idx, arg_val,
                  np.array(group["y"], dtype=np.int8), np.array(ans, dtype=np.int32))


def _drop(phi: dict[str, float], mark: str | None) -> dict[str, float]:
    return phi if mark is None else {k: v for k, v in phi.items() if not k.startswith(mark)}


def _csr(rows: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, ...]:
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(i) for i, _ in rows])
    if not rows:
        return ptr, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
    return (ptr, np.concatenate([i for i, _ in rows]).astype(np.int32),
            np.concatenate([v for _, v in rows]).astype(np.float32))


def fit_packed(groups: Sequence[Packed], vocab: Vocabulary, l2: float, steps: int
               ) -> dict[str, float]:
    """`fit.fit` on packed questions: the listwise ranker over each question's operators
    (positive: an operator with a right candidate) and over the candidates of each operator
    with a right one and more than one candidate; {feature: weight}."""
    from hyrag.bench.fit import listwise_adam

    idx, val, cand, grp, pos = [], [], [], [], []
    n = ng = 0
    for g in groups:
        if not g.y.any():
            continue
        right = np.zeros(len(g.keys), dtype=bool)
        right[g.cand_key[g.y > 0]] = True
        counts = np.diff(g.op_ptr)
        idx.append(g.op_idx)
        val.append(g.op_val)
        cand.append(np.repeat(np.arange(n, n + len(g.keys)), counts))
        grp.append(np.full(len(g.keys), ng))
        pos.append(right.astype(np.float32))
        n += len(g.keys)
        ng += 1
        for k in np.flatnonzero(right):
            members = np.flatnonzero(g.cand_key == k)
            if len(members) < 2:
                continue
            lo, hi = g.arg_ptr[members], g.arg_ptr[members + 1]
            sel = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi, strict=True)])
            idx.append(g.arg_idx[sel])
            val.append(g.arg_val[sel])
            cand.append(np.repeat(np.arange(n, n + len(members)), hi - lo))
            grp.append(np.full(len(members), ng))
            pos.append(g.y[members].astype(np.float32))
            n += len(members)
            ng += 1
    if not ng:
        return {}
    w = listwise_adam(np.concatenate(idx), np.concatenate(val).astype(np.float64),
                      np.concatenate(cand), np.concatenate(grp), np.concatenate(pos), n,
                      len(vocab.names), ng, l2, steps)
    return {vocab.names[j]: round(float(x), 6) for j, x in enumerate(w) if abs(x) > 1e-6}


def tops(groups: Sequence[Packed], vocab: Vocabulary, weights: dict[str, float],
         decode: str = "factored") -> list[tuple[dict, int]]:
    """`fit._tops` on packed questions: per question, the calibration features of the
    candidate `score.Model.best_first` picks under `weights` (decoding as `decode` says), and
    whether it is right."""
    from hyrag.answer.programs.score import calibration_features

    w = vocab.vector(weights)
    out: list[tuple[dict, int]] = []
    for g in groups:
        if not g.n:
            out.append(({}, 0))
            continue
        op_s = _row_sums(w, g.op_ptr, g.op_idx, g.op_val)
        arg_s = _row_sums(w, g.arg_ptr, g.arg_idx, g.arg_val)
        p_op = _softmax(op_s)
        p_arg = np.empty(g.n)
        for k in range(len(g.keys)):
            members = g.cand_key == k
            p_arg[members] = _softmax(arg_s[members])
        pk = p_op[g.cand_key]
        # best_first: the likeliest operator, then its likeliest candidate, then the first
        p = pk * p_arg
        b = int(np.argmax(p)) if decode == "joint" else \
            int(np.lexsort((np.arange(g.n), -p_arg, -pk))[0])
        chosen_first = [float(p[b])] + [float(x) for i, x in enumerate(p) if i != b]
        agree = float(p[g.answers == g.answers[b]].sum())
        lo, hi = g.arg_ptr[b], g.arg_ptr[b + 1]
        best = {vocab.names[j]: float(v) for j, v in zip(g.arg_idx[lo:hi], g.arg_val[lo:hi],
                                                          strict=True)}
        out.append((calibration_features(chosen_first, ({}, best), g.keys[g.cand_key[b]],
                                         (float(pk[b]), float(p_arg[b])), agree),
                    int(g.y[b] > 0)))
    return out


def _row_sums(w: np.ndarray, ptr: np.ndarray, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
    rows = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    return np.bincount(rows, weights=w[idx] * val, minlength=len(ptr) - 1)


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max())
    return e / e.sum()


def document_folds(docs: Iterable[object], folds: int) -> dict[object, int]:
    """Each document's fold, for out-of-fold predictions (`fit.out_of_fold`, `out_of_fold`):
    the documents in a fixed order, dealt round-robin, so a document's questions share a fold."""
    return {d: k % folds for k, d in enumerate(sorted(set(docs), key=str))}


def out_of_fold(groups: Sequence[Packed], vocab: Vocabulary, l2: float, steps: int,
                floor: float, decode: str, folds: int) -> list[tuple[dict, int]]:
    """`fit.out_of_fold` on packed questions: `folds` folds by document, each question ranked
    by the ranker fitted on the other folds (its weights below `floor` dropped)."""
    from hyrag.bench.fit import pruned

    fold = document_folds((g.doc for g in groups), folds)
    out: list[tuple[dict, int]] = []
    for f in range(folds):
        train = [g for g in groups if fold[g.doc] != f]
        test = [g for g in groups if fold[g.doc] == f]
        out += tops(test, vocab, pruned(fit_packed(train, vocab, l2, steps), floor), decode)
    return out


def size_mb(groups: Sequence[Packed]) -> float:
    """The arrays' size in megabytes (what the collection holds in memory)."""
    return sum(a.nbytes for g in groups for a in (
        g.op_ptr, g.op_idx, g.op_val, g.cand_key, g.arg_ptr, g.arg_idx, g.arg_val, g.y,
        g.answers)) / 1e6


def unpack(g: Packed, vocab: Vocabulary) -> dict:
    """A packed question in `fit.collect_wtq`'s dictionary form, with its kind's copies of the
    features restored (`score.features` gives every feature a copy conjoined with the kind)."""
    def phi(ptr: np.ndarray, idx: np.ndarray, val: np.ndarray, r: int) -> dict[str, float]:
        d = {vocab.names[j]: float(v) for j, v in zip(idx[ptr[r]:ptr[r + 1]],
                                                       val[ptr[r]:ptr[r + 1]], strict=True)}
        if g.kind:
            d.update({f"{g.kind}|{k}": v for k, v in list(d.items())})
        return d

    ops = [phi(g.op_ptr, g.op_idx, g.op_val, k) for k in range(len(g.keys))]
    return {"doc": g.doc, "uid": g.uid,
            "phi": [(ops[k], phi(g.arg_ptr, g.arg_idx, g.arg_val, i))
                    for i, k in enumerate(g.cand_key.tolist())],
            "keys": [g.keys[k] for k in g.cand_key.tolist()],
            "answers": [str(a) for a in g.answers.tolist()], "y": g.y.tolist()}
