""""..., respectively": which period each amount of such a sentence is for.

The commonest sentence of a financial report lists its amounts and its periods in the same
order: "Depreciation was $2.5 million, $2.6 million and $2.4 million during fiscal 2019, 2018
and 2017, respectively". Reading each amount's period as the one written nearest after it
gives all three amounts 2019; an analyst pairs the n-th amount with the n-th period. Both
ingestion (the period stamped on each text claim, `textclaims.py`) and the prose reader
(`hyrag/answer/prose_periods.py`) need that reading, so it is one pure function here.

Each "respectively" closes a segment (from the previous one, or the sentence start). Its
amounts are grouped into lists (neighbours joined only by "," / "and"); when the segment names
two or more periods and every list has exactly that many amounts, the lists pair in order
("$2.9 billion and $2.5 billion is long-term and $118 million and $131 million is current at
2019 and 2018, respectively"). A segment naming no period takes the previous segment's ("was
$12,548 and $12,643 for 2019 and 2018, respectively, of which $9,028 and $9,189,
respectively"). A segment whose counts differ pairs nothing: which amount is which period is
not written, so none is claimed.
"""

from __future__ import annotations

import re

_RESPECTIVELY = re.compile(r"\brespective(?:ly)?\b")


def amount_lists(text: str, spans: list[tuple[int, int]], idx: list[int]) -> list[list[int]]:
    """The amounts `idx` (indices into `spans`, in reading order) grouped into lists:
    neighbours joined only by "," / "and" form one list."""
    out: list[list[int]] = []
    for i in idx:
        if out and re.fullmatch(r"\s*,?\s*(?:and\s+)?", text[spans[out[-1][-1]][1]:spans[i][0]]):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def pair_respectively(text: str, spans: list[tuple[int, int]],
                      mentions: list[tuple[int, str]],
                      skip: frozenset[int] = frozenset()) -> tuple[dict[int, str], set[int]]:
    """(amount index -> period key, the indices of every amount inside a "respectively"
    segment). `spans` are the amounts' character spans, `mentions` the (position, key) of the
    periods the sentence names — the caller decides which count (a comparison base "than in
    2018" or a period inside brackets may be left out); amounts in `skip` were read otherwise.
    An amount inside a segment but not paired had its period left unwritten by the sentence."""
    paired: dict[int, str] = {}
    inside: set[int] = set()
    prev: list[str] = []
    seg_start = 0
    for rm in _RESPECTIVELY.finditer(text):
        idx = [i for i, (a, _) in enumerate(spans)
               if seg_start <= a < rm.start() and i not in skip and i not in inside]
        keys = list(dict.fromkeys(k for pos, k in mentions if seg_start <= pos < rm.start()))
        if not keys and prev:
            keys = prev
        if idx:
            inside.update(idx)
            lists = amount_lists(text, spans, idx)
            if len(keys) >= 2 and all(len(li) == len(keys) for li in lists):
                for li in lists:
                    for i, k in zip(li, keys, strict=True):
                        paired[i] = k
                prev = keys
        seg_start = rm.end()
    return paired, inside
