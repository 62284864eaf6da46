"""Okapi BM25 over claim text, in NumPy, with the pre-filter applied before ranking.

Why not a library: bm25s and DuckDB's FTS extension both rank over the whole corpus and leave
filtering to the caller (DuckDB's extension also cannot load on the hardened connection). Here
the inverted index is a CSR layout (term -> posting doc ids and term frequencies); a query adds
each of its terms' contributions into a score vector, zeroes every document the pre-filter
rejects, and only then takes the top k. Scores are normalised per query by the best admitted
score (CONTRACT.md: "BM25 normalised per query"), so theta_H applies on a 0..1 scale.

Parameters k1 = 1.2, b = 0.75 (Robertson and Zaragoza 2009, the usual defaults); idf is the
non-negative Lucene form log(1 + (N - df + 0.5) / (df + 0.5)).

Corpus statistics (N, df, avgdl) are themselves information about the corpus: a subject who may
see only some sources must get them over those sources alone, or their scores would move when a
denied source mentioning the same words is ingested. `restrict(visible)` returns the index as
that subject sees it: the same postings (shared, not copied), statistics recomputed over the
visible documents in one pass of NumPy, and every other document excluded from `search`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

import numpy as np

from hyrag.retrieve.columns import SortedKeys
from hyrag.retrieve.text import tokens

K1, B = 1.2, 0.75


class BM25Index:
    def __init__(self, docs: Iterable[str], *, k1: float = K1, b: float = B) -> None:
        self.k1, self.b = k1, b
        vocab: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        lengths: list[int] = []
        for d, text in enumerate(docs):
            toks = tokens(text or "")
            lengths.append(len(toks))
            counts: dict[int, int] = {}
            for t in toks:
                tid = vocab.setdefault(t, len(vocab))
                counts[tid] = counts.get(tid, 0) + 1
            for tid, c in counts.items():
                rows.append(tid)
                cols.append(d)
                cols.append(c)  # interleaved (doc, tf) pairs, split below
        self.vocab: dict[str, int] | SortedKeys = vocab
        self.n_docs = len(lengths)
        self.doc_len = np.asarray(lengths, dtype=np.float32)
        self.avgdl = float(self.doc_len.mean()) if self.n_docs else 1.0
        pairs = (
            np.asarray(cols, dtype=np.int64).reshape(-1, 2) if cols else np.zeros((0, 2), np.int64)
        )
        term = np.asarray(rows, dtype=np.int64)
        order = np.argsort(term, kind="stable")
        self.post_doc = pairs[order, 0].astype(np.int32)
        self.post_tf = pairs[order, 1].astype(np.float32)
        self._post_term: np.ndarray | None = term[order].astype(np.int32)
        counts = np.bincount(term, minlength=len(vocab)) if len(term) else np.zeros(0, np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.visible: np.ndarray | None = None  # None: every document (see `restrict`)
        self._stats(counts.astype(np.float64), self.n_docs, self.avgdl)

    # -- saved between processes (hyrag.kbcache) ---------------------------------------------
    def to_arrays(self) -> dict[str, np.ndarray]:
        """The postings, lengths and vocabulary (what the constructor tokenised for); the
        statistics are recomputed on load, they are a few vector operations."""
        vocab = self.vocab
        if not isinstance(vocab, SortedKeys):
            terms = sorted(vocab, key=vocab.__getitem__)
            vocab = SortedKeys.build(terms, [vocab[t] for t in terms])
        return {**vocab.to_arrays("vocab"), "doc_len": self.doc_len, "post_doc": self.post_doc,
                "post_tf": self.post_tf, "offsets": self.offsets,
                "params": np.asarray([self.k1, self.b], dtype=np.float64)}

    @classmethod
    def from_arrays(cls, a: dict[str, np.ndarray]) -> BM25Index:
        """The index `to_arrays` described (arrays usually memory-mapped), without tokenising
        the corpus again or building a dict of its vocabulary (a term is found by bisection)."""
        out = cls.__new__(cls)
        out.k1, out.b = (float(x) for x in a["params"])
        out.vocab = SortedKeys.from_arrays("vocab", a)
        out.doc_len = a["doc_len"]
        out.n_docs = len(out.doc_len)
        out.avgdl = float(out.doc_len.mean()) if out.n_docs else 1.0
        out.post_doc, out.post_tf, out.offsets = a["post_doc"], a["post_tf"], a["offsets"]
        kinds = {"doc_len": "f", "post_doc": "i", "post_tf": "f", "offsets": "i"}
        if any(a[k].dtype.kind != v for k, v in kinds.items()) or (
                len(out.offsets) != len(out.vocab) + 1
                or int(out.offsets[-1]) != len(out.post_doc)
                or len(out.post_tf) != len(out.post_doc)):
            raise ValueError("cached BM25 arrays do not fit together")
        out._post_term = None
        out.visible = None
        out._stats(np.diff(out.offsets).astype(np.float64), out.n_docs, out.avgdl)
        return out

    @property
    def post_term(self) -> np.ndarray:
        """Each posting's term (only `restrict` needs it; each term's postings are contiguous,
        so it is rebuilt from the offsets when asked)."""
        if self._post_term is None:
            counts = np.diff(self.offsets)
            self._post_term = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
        return self._post_term

    def _stats(self, df: np.ndarray, n: int, avgdl: float) -> None:
        self.idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
        self._norm = (self.k1 * (1 - self.b + self.b * self.doc_len / max(avgdl, 1e-9))).astype(
            np.float32
        )

    def restrict(self, visible: np.ndarray) -> BM25Index:
        """This index as a subject who sees only the `visible` documents sees it: N, df and
        avgdl over those documents, the others never admitted. Postings are shared."""
        vis = np.asarray(visible, dtype=bool)
        out = copy.copy(self)
        out.visible = vis
        n = int(vis.sum())
        out.avgdl = float(self.doc_len[vis].mean()) if n else 1.0
        keep = vis[self.post_doc] if self.post_doc.size else np.zeros(0, dtype=bool)
        df = np.bincount(self.post_term[keep], minlength=len(self.vocab)).astype(np.float64)
        out._stats(df, n, out.avgdl)
        return out

    def scores(self, query: str | list[str]) -> np.ndarray:
        """Raw BM25 of every document (0 where no query term occurs)."""
        out = np.zeros(self.n_docs, dtype=np.float32)
        toks = tokens(query) if isinstance(query, str) else query
        for t in dict.fromkeys(toks):  # each distinct term once
            tid = self.vocab.get(t)
            if tid is None:
                continue
            a, z = self.offsets[tid], self.offsets[tid + 1]
            docs, tf = self.post_doc[a:z], self.post_tf[a:z]
            out[docs] += self.idf[tid] * tf * (self.k1 + 1) / (tf + self._norm[docs])
        return out

    def search(
        self,
        query: str | list[str],
        k: int,
        mask: np.ndarray | None = None,
    ) -> list[tuple[int, float, float]]:
        """Top k admitted documents as (doc, raw score, score / best admitted score)."""
        s = self.scores(query)
        if self.visible is not None:
            mask = self.visible if mask is None else (mask & self.visible)
        if mask is not None:
            s = np.where(mask, s, 0.0)
        pos = np.flatnonzero(s > 0)
        if not pos.size or k <= 0:
            return []
        k = min(k, pos.size)
        top = pos[np.argpartition(-s[pos], k - 1)[:k]] if k < pos.size else pos
        top = sorted(top.tolist(), key=lambda i: (-float(s[i]), i))
        best = float(s[top[0]])
        return [(i, float(s[i]), float(s[i]) / best) for i in top]
