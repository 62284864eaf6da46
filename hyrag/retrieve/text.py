"""Tokenising shared by BM25, the graph matcher and attribute matching, so "unit_price",
"unit price" and "Unit Prices" meet on the same tokens."""

from __future__ import annotations

import re
from functools import lru_cache

_NUM_SEP = re.compile(r"(?<=\d),(?=\d{3}\b)")
_PARTS = re.compile(r"[.\-_/]")
_TOKEN = re.compile(r"[0-9a-zà-ÿ]+(?:[.\-_/][0-9a-zà-ÿ]+)*", re.IGNORECASE)
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "s",
        "such",
        "that",
        "the",
        "their",
        "them",
        "there",
        "these",
        "this",
        "those",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "me",
        "show",
        "tell",
        "give",
        "list",
        "find",
        "all",
        "any",
        "much",
        "many",
    ]
)


def stem(w: str) -> str:
    """Plural / third-person 's' only: enough for "revenues"/"revenue", safe for names."""
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        if w.endswith("ies") and len(w) > 4:
            return w[:-3] + "y"
        return w[:-1]
    return w


def tokens(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased, stemmed tokens; compounds ("so-10001", "unit_price") also give their parts;
    thousands separators are dropped so "1,877.68" is one token."""
    out: list[str] = []
    for m in _TOKEN.finditer(_NUM_SEP.sub("", text)):
        out.extend(_word_tokens(m.group(0)))
    if keep_stopwords:
        return out
    return [t for t in out if t not in STOPWORDS]


@lru_cache(maxsize=1 << 18)
def _word_tokens(word: str) -> tuple[str, ...]:
    """One word's tokens, memoised: a million claim texts repeat the same few thousand words
    (headers, categories, periods), and this cut BM25's cold build at 1.1 M claims by half."""
    t = word.lower()
    parts = _PARTS.split(t)
    if len(parts) > 1 and not all(p.isdigit() for p in parts):
        return (t, *(stem(p) for p in parts if p))
    return (stem(t),)


def norm_phrase(text: str) -> str:
    """A name as a lookup key: lower case, single spaces, no punctuation at the ends."""
    return " ".join(re.sub(r"[^0-9a-zà-ÿ\-&' ]+", " ", text.lower()).split())
