"""Which period each amount of a report sentence is for.

Ingestion gives every number of a sentence the period its clause names first, which is right
for "Revenue was $5 million in 2019" and wrong for the commonest sentence of a financial report:
"Depreciation was $2.5 million, $2.6 million and $2.4 million during fiscal 2019, 2018 and 2017,
respectively" — there the n-th amount belongs to the n-th period. The prose reader
(`prose_read.py`) needs the reading an analyst makes, so this module re-reads the sentence:

1. a comparative in brackets, "£13.0 million (2018: £12.4 million)" or "$1,792,000
   (reduction of $181,000 in 2018)": an amount inside the brackets is for the period the
   brackets name, never for the sentence's own;
2. "respectively": the amounts of each "..., respectively" segment are paired in order with
   the periods that segment names (or, naming none, with those of the segment before: "was
   $12,548 and $12,643 for 2019 and 2018, respectively, of which $9,028 and $9,189,
   respectively, ..."); a segment whose counts differ pairs nothing — its amounts get no
   period, so no question can pick one of them by period;
3. otherwise the period written right after the amount in its clause ("$148.6 million in
   2018"), else right before it ("At March 31, 2019, we had $1.1 million"), with no other
   amount in between; else the one period the whole sentence names; else none.

A sentence that names no period at all leaves its amounts without one here; the caller may
fall back on the period ingestion inherited from the paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.respectively import pair_respectively

# a year, or a split fiscal year "2017/18"; "FY2019" and "fiscal years2019" still count
_YEAR = re.compile(r"(?:(?<=FY)|(?<=years)|(?<![A-Za-z\d$£€.,]))((?:19|20)\d{2})"
                   r"(?:/(\d{2}))?(?![\d]|,\d)")
_FY2 = re.compile(r"\b(?:FY|F)\s?'?(\d{2})\b(?![\d,.%])")
_CLAUSE = re.compile(r";|:\s|,\s+(?:and|while|but|whereas|compared|as compared)\b|"
                     r"\s+(?:while|whereas|compared (?:to|with)|as compared)\b")
# how far (in characters) a period may sit from the amount it qualifies
_NEAR = 90


@dataclass(frozen=True)
class Mention:
    """A period the sentence names: where, and its key ("2019", "2017/18")."""
    start: int
    end: int
    key: str


def period_mentions(text: str) -> list[Mention]:
    """The periods a sentence names, in reading order (years and split fiscal years; a
    two-digit "FY19" / "F19" is read as 2019). A span "from 2018 to 2019" is one mention, the
    later year: a change stated over it is that year's change."""
    out = []
    for m in _YEAR.finditer(text):
        key = m.group(1) + (f"/{m.group(2)}" if m.group(2) else "")
        out.append(Mention(m.start(), m.end(), key))
    for m in _FY2.finditer(text):
        out.append(Mention(m.start(), m.end(), str(2000 + int(m.group(1)))))
    out.sort(key=lambda x: x.start)
    merged: list[Mention] = []
    for m in out:
        if merged and re.fullmatch(r"\s*(?:to|through|-|–)\s*(?:fiscal\s+)?",
                                   text[merged[-1].end:m.start], re.I) and re.search(
                r"\b(?:from|between)\s+(?:fiscal\s+)?$", text[:merged[-1].start], re.I):
            merged[-1] = Mention(merged[-1].start, m.end, max(merged[-1].key, m.key))
            continue
        merged.append(m)
    return merged


def _brackets(text: str) -> list[tuple[int, int]]:
    """(start, end) of each top-level bracketed part."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append((start, i + 1))
    return out


def _inside(pos: int, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    return next(((a, b) for a, b in spans if a < pos < b), None)


def _clause_of(text: str, pos: int) -> tuple[int, int]:
    cuts = [0] + [m.start() for m in _CLAUSE.finditer(text)] + [len(text)]
    for a, b in zip(cuts, cuts[1:], strict=False):
        if a <= pos < b:
            return a, b
    return 0, len(text)


def assign(text: str, spans: list[tuple[int, int]],
           kinds: list[str] | None = None) -> list[str | None]:
    """The period of each amount (given by its character span in `text`), or None when the
    sentence does not say which period it is for. `kinds` ("%", "amount") lets an aside of
    another kind sit between an amount and its period: "$53 million of debentures, or 0.21%
    of plan assets, at December 31, 2019"."""
    kinds = kinds or [""] * len(spans)
    mentions = period_mentions(text)
    brackets = _brackets(text)
    # a period mention that is part of an amount's own span ("FY19 revenue" aside) is not one
    mentions = [m for m in mentions if not any(a <= m.start < b for a, b in spans)]
    out: list[str | None] = [None] * len(spans)
    done = [False] * len(spans)
    # 1. comparatives in brackets
    for i, (a, _b) in enumerate(spans):
        br = _inside(a, brackets)
        if br is None:
            continue
        done[i] = True
        local = [m for m in mentions if br[0] < m.start < br[1]]
        others = [s for s in spans if br[0] < s[0] < br[1]]
        if len({m.key for m in local}) == 1 and len(others) == 1:
            out[i] = local[0].key
    outside = [m for m in mentions if _inside(m.start, brackets) is None]
    # 2. "respectively" segments (`ingest.respectively`: ingestion stamps claims the same way)
    paired, inside = pair_respectively(
        text, spans, [(m.start, m.key) for m in outside],
        frozenset(i for i, d in enumerate(done) if d))
    for i in inside:
        done[i] = True
        out[i] = paired.get(i)
    # 3. the period beside the amount, else the sentence's one period
    sentence_keys = {m.key for m in outside}
    for i, (a, b) in enumerate(spans):
        if done[i]:
            continue
        ca, cb = _clause_of(text, a)
        nxt = min([s[0] for s, k in zip(spans, kinds, strict=True) if s[0] > a
                   and k == kinds[i]] + [cb])
        after = [m for m in outside if b <= m.start < min(nxt, b + _NEAR)]
        if after:
            out[i] = after[0].key
            continue
        prv = max([s[1] for s in spans if s[1] <= a] + [ca])
        before = [m for m in outside if max(prv, a - _NEAR) <= m.start < a]
        if before:
            out[i] = before[-1].key
            continue
        if len(sentence_keys) == 1:
            out[i] = next(iter(sentence_keys))
    return out
