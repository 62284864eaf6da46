"""Okapi BM25 over claim text, in NumPy, with the pre-filter applied before ranking.

Why not a library: bm25s and DuckDB's FTS extension both rank over the whole corpus and leave
filtering to the caller (DuckDB's extension also cannot load on the hardened connection). Here
the inverted index is a CSR layout (term -> posting doc ids and term frequencies); a query adds
each of its terms' contributions into a score vector, zeroes every document the pre-filter
rejects, and only then takes the top k. Scores are normalised per query by the best admitted
score (CONTRACT.md: "BM25 normalised per query"), so theta_H applies on a 0..1 scale.

Parameters k1 = 1.2, b = 0.75 (Robertson and Zaragoza 2009, the usual defaults); idf is the
non-negative Lucene form log(1 + (N - df + 0.5) / (df + 0.5)).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

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
        self.vocab = vocab
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
        counts = np.bincount(term, minlength=len(vocab)) if len(term) else np.zeros(0, np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        df = counts.astype(np.float64)
        self.idf = np.log1p((self.n_docs - df + 0.5) / (df + 0.5)).astype(np.float32)
        self._norm = (
            self.k1 * (1 - self.b + self.b * self.doc_len / max(self.avgdl, 1e-9))
        ).astype(np.float32)

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
