"""Time constraints in questions: "in 2024", "Q3 2023", "last 3 quarters", "year to date".

`parse_interval` turns a question's period phrase into an interval of order keys (the periods
that *end* inside it, see `ingest.timekeys` for the order key), relative phrases anchored on the
latest period the knowledge base holds (or today). Split from `timekeys.py`, which parses the
period written in a cell or a header; this module reads the period a person asks about.
"""

from __future__ import annotations

import datetime as dt
import math
import re

from ingest.periods import (
    _DAY_TOP,
    _ONE_DAY,
    TimeKey,
    _add_months,
    _check_fiscal,
    _unit_containing,
    ymd,
)
from ingest.timekeys import find_time_expressions

__all__ = ["parse_interval"]

_NUMWORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_UNIT_MONTHS = {"year": 12, "half": 6, "quarter": 3, "month": 1}
_REL_N = re.compile(
    r"\b(?:last|past|previous|prior|trailing|recent|latest)\s+(?P<n>\d{1,2}|"
    + "|".join(_NUMWORDS)
    + r")\s+(?:(?:fiscal|calendar)\s+)?(?P<u>years?|quarters?|months?|halves|half[\s\-]years?)\b",
    re.IGNORECASE,
)
_REL_ONE = re.compile(
    r"\b(?:last|past|previous|prior|latest|most\s+recent)\s+(?:fiscal\s+)?(?P<u>year|quarter|month|half)\b",
    re.IGNORECASE,
)
_REL_THIS = re.compile(
    r"\b(?:this|current)\s+(?:fiscal\s+)?(?P<u>year|quarter|month|half)\b", re.IGNORECASE
)
_REL_YTD = re.compile(r"\b(?:ytd|year[\s\-]to[\s\-]date)\b", re.IGNORECASE)
_OPEN_BEFORE = re.compile(
    r"\b(?P<w>since|starting(?:\s+(?:in|from|with))?|beginning(?:\s+(?:in|with))?|after"
    r"|later\s+than|before|prior\s+to|earlier\s+than|until|till|through|thru|up\s+to)"
    r"(?:\s+(?:the|end\s+of|start\s+of))?\s*$",
    re.IGNORECASE,
)
_OPEN_AFTER = re.compile(
    r"^\s*(?P<w>onwards?|(?:and|or)\s+(?:later|after|beyond|since)|(?:and|or)\s+(?:earlier|before))\b",
    re.IGNORECASE,
)


def _unit_word(u: str) -> int:
    u = u.lower()
    if u.startswith("half") or u == "halves":
        return 6
    return _UNIT_MONTHS[u.rstrip("s")]


def _last_complete(anchor: dt.date, months: int, fiscal: int) -> TimeKey:
    """The last unit that is complete at `anchor`: the one containing it if it ends there,
    else the one before (a question asked mid-quarter means the quarters already closed)."""
    unit = _unit_containing(anchor, months, fiscal)
    if unit.end == anchor:
        return unit
    assert unit.start is not None
    return _unit_containing(unit.start - _ONE_DAY, months, fiscal)


def _back(unit: TimeKey, n: int, months: int, fiscal: int) -> tuple[float, float]:
    """Order-key interval of the `n` units ending with `unit`."""
    assert unit.start is not None and unit.end is not None
    first = _add_months(unit.start, -months * (n - 1))
    return (float(ymd(first)), ymd(unit.end) + _DAY_TOP)


def _overlaps(a: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a[0] < e and s < a[1] for s, e in spans)


def parse_interval(
    text: str,
    *,
    today: dt.date | None = None,
    fiscal_year_start_month: int = 1,
    latest: TimeKey | None = None,
) -> tuple[float, float] | None:
    """The order-key interval a question constrains to, or None when it names no period.

    Compare a claim's `order_key` with ``lo <= order_key <= hi``. Named periods give their own
    interval ("in 2024" -> 2024-01-01 .. 2024-12-31 by end date, so it contains 2024Q1 and
    2024-03-31); several periods ("between 2022 and 2024", "2023 vs 2024") give the span
    covering all; one period after "since/from/after" or before "onwards" is open above
    (hi = +inf), after "before/until/through/up to" open below (lo = -inf).

    Relative phrases ("last 3 quarters", "last year", "this year", "YTD", "LTM") count back from
    an anchor day: `latest.end` when the caller passes the latest period in the data (so "last 3
    quarters" means the data's last three), else `today` (default: the real date). "Last N"
    counts complete units: the unit containing the anchor when the anchor is its last day,
    otherwise the units before it — asked on 2024-11-15, "last 3 quarters" is 2024Q1..2024Q3.
    """
    if not text:
        return None
    fiscal = _check_fiscal(fiscal_year_start_month)
    if latest is not None and latest.end is not None:
        anchor = latest.end
    else:
        anchor = today or dt.date.today()

    parts: list[tuple[float, float]] = []
    used: list[tuple[int, int]] = []
    for m in _REL_N.finditer(text):
        raw = m.group("n").lower()
        n = _NUMWORDS.get(raw) or int(raw)
        if n < 1:
            continue
        months = _unit_word(m.group("u"))
        parts.append(_back(_last_complete(anchor, months, fiscal), n, months, fiscal))
        used.append(m.span())
    for m in _REL_ONE.finditer(text):
        if _overlaps(m.span(), used):
            continue
        months = _unit_word(m.group("u"))
        parts.append(_back(_last_complete(anchor, months, fiscal), 1, months, fiscal))
        used.append(m.span())
    for m in _REL_THIS.finditer(text):
        unit_key = _unit_containing(anchor, _unit_word(m.group("u")), fiscal)
        span = unit_key.interval()
        assert span is not None
        parts.append(span)
        used.append(m.span())
    for m in _REL_YTD.finditer(text):
        year = _unit_containing(anchor, 12, fiscal)
        assert year.start is not None
        parts.append((float(ymd(year.start)), ymd(anchor) + _DAY_TOP))
        used.append(m.span())

    found = [
        (s, e, k)
        for s, e, k in find_time_expressions(text, fiscal_year_start_month=fiscal)
        if not _overlaps((s, e), used)
    ]
    anchored: list[tuple[int, int, TimeKey]] = []
    for s, e, k in found:
        if k.anchored:
            anchored.append((s, e, k))
        else:  # a bare LTM in a question: the twelve months up to the anchor
            parts.append(_back(_last_complete(anchor, 1, fiscal), 12, 1, fiscal))

    if len(anchored) == 1 and not parts:
        s, e, k = anchored[0]
        assert k.start is not None and k.end is not None
        lo, hi = float(ymd(k.start)), ymd(k.end) + _DAY_TOP
        before = _OPEN_BEFORE.search(text[:s])
        after = _OPEN_AFTER.match(text[e:])
        word = (before.group("w") if before else after.group("w") if after else "").lower()
        word = re.sub(r"\s+", " ", word)
        if word.startswith(("since", "starting", "beginning", "onward")) or word in (
            "and later",
            "or later",
            "and beyond",
            "and since",
        ):
            return (lo, math.inf)
        if word in ("after", "later than", "and after", "or after"):
            return (float(ymd(k.end + _ONE_DAY)), math.inf)
        if word in ("before", "prior to", "earlier than", "and before", "or before"):
            return (-math.inf, ymd(k.start - _ONE_DAY) + _DAY_TOP)
        if word in ("until", "till", "through", "thru", "up to", "and earlier", "or earlier"):
            return (-math.inf, hi)
        return (lo, hi)

    for _s, _e, k in anchored:
        span = k.interval()
        assert span is not None
        parts.append(span)
    if not parts:
        return None
    return (min(p[0] for p in parts), max(p[1] for p in parts))
