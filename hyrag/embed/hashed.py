"""Deterministic hashed vectors: the tier that needs nothing but NumPy.

Signed feature hashing (Weinberger et al. 2009) of word unigrams, word bigrams and character
trigrams of each word. Words give exact-term matching, bigrams a little word order, character
trigrams tolerance to typos and inflection ("revenues" still shares most trigrams with
"revenue"). The sign bit makes colliding features cancel on average instead of piling up. The
same text gives the same vector on every machine and Python version (crc32, not `hash()`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

import numpy as np

from hyrag.embed import Embedder, EmbedInfo

DIM = 384
_WORD = re.compile(r"[0-9a-zà-ÿ]+(?:[.\-][0-9a-zà-ÿ]+)*", re.IGNORECASE)
W_WORD, W_BIGRAM, W_CHAR = 1.0, 0.5, 0.35


def features(text: str) -> list[tuple[str, float]]:
    """The weighted features of one text (exposed for tests and for the latency bench)."""
    words = [w.lower() for w in _WORD.findall(text)]
    out: list[tuple[str, float]] = [("w:" + w, W_WORD) for w in words]
    out += [("b:" + a + " " + b, W_BIGRAM) for a, b in zip(words, words[1:], strict=False)]
    for w in words:
        padded = f"<{w}>"
        grams = [padded[i : i + 3] for i in range(len(padded) - 2)]
        if grams:
            wt = W_CHAR / np.sqrt(len(grams))
            out += [("c:" + g, wt) for g in grams]
    return out


def slot(feature: str, dim: int = DIM) -> tuple[int, float]:
    """Bucket and sign of a feature: one crc32, low bits the bucket, bit 31 the sign."""
    h = zlib.crc32(feature.encode("utf-8"))
    return h % dim, (1.0 if h & 0x80000000 else -1.0)


class HashedEmbedder(Embedder):
    def __init__(self, dim: int = DIM) -> None:
        self.dim = dim
        self.info = EmbedInfo("hashed", f"hashed-ngrams-v1-{dim}", dim)
        self._memo: dict[str, tuple[int, float]] = {}

    def _slot(self, f: str) -> tuple[int, float]:
        s = self._memo.get(f)
        if s is None:
            s = slot(f, self.dim)
            if len(self._memo) < 500_000:
                self._memo[f] = s
        return s

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            row = out[i]
            for f, w in features(t):
                j, sign = self._slot(f)
                row[j] += sign * w
        return out
