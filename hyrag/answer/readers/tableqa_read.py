"""Reading a line-item table question: which operation, which periods, in which order.

`tableqa.py` finds the line item (the row) a question names; this module reads the rest of the
question the way an analyst does, independent of any table:

- the operation: lookup; change / difference / increase; percentage change; average; sum /
  total; ratio; "what percentage of Y is X"; the year a line item was largest or smallest; the
  years it was above or below a threshold, or how many they were. A word the line item's own
  label uses ("Weighted average shares", "Net change in cash", "Total revenue") is not read as
  an operation, and a question that asks for two operations at once ("the change in the
  average ...") is not guessed at: it returns None, and the engine abstains;
- the periods: four-digit years, two-digit fiscal years ("FY19", "F18") and spans ("2017-2019",
  "from 2017 to 2019"), in the order the question writes them;
- the direction of a change is not read from the wording: "the increase from 2019 to 2018"
  in annual reports still means the later year against the earlier one (`tableqa.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ingest.units import SCALE_WORDS, SCALES

_Y = r"((?:19|20)\d{2})"
YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_FY2 = re.compile(r"\b(?:fy|f|fiscal(?:\s+year)?)\s?'?(\d{2})\b(?![\d,.%])", re.I)
CHANGE_RATIO = re.compile(r"percent(?:age)?\s+(?:change|increase|decrease|growth|decline)|"
                          r"%\s*change|growth rate|rate of (?:change|growth)|"
                          r"change in percent(?:age)?\b(?! of)", re.I)
_DIFF = re.compile(r"\b(change|changed|difference|increased?|decreased?|grow|grew|decline|"
                   r"declined|rise|rose|fell|fall|differ|more|less)\b", re.I)
_AVG = re.compile(r"\b(average|mean|avg)\b", re.I)
_SUM = re.compile(r"\b(sum|combined|altogether|in total|total\s+(?:\w+\s+){0,6}?(?:in|for|of)\s+"
                  r"(?:19|20)\d{2}\s+and\s+(?:19|20)\d{2})\b", re.I)
_RATIO = re.compile(r"\b(ratio|proportion)\b", re.I)
_PCT_OF = re.compile(r"\bwhat (?:is the )?(?:percentage|percent|share|proportion) of\b|"
                     r"\bas a (?:percentage|percent|proportion|share) of\b|\bpercentage of\b|"
                     r"\bpercentage constitution\b|\bconstitut", re.I)
_RANGE = re.compile(rf"\b(?:from\s+|between\s+|for\s+|in\s+)?{_Y}\s*(?:to|and|through|-|–)\s*"
                    rf"{_Y}\b", re.I)
WHICH_YEAR = _WHICH_YEAR = re.compile(
    r"\b(?:which|what) (?:of the )?(?:year|fy|fiscal year|period)s?\b", re.I)
_MAX = re.compile(r"\b(largest|highest|larger|higher|greater|most|maximum|bigger|biggest)\b",
                  re.I)
_MIN = re.compile(r"\b(smallest|lowest|smaller|lower|least|minimum|fewer)\b", re.I)
# "less than 800 million", "exceed $50,000 thousand", "greater than 2.0%"
_THRESHOLD = re.compile(
    r"\b(?P<cmp>less than|lower than|below|under|fewer than|smaller than|greater than|more than|"
    r"higher than|larger than|above|over|exceed(?:ed|s)?|at least|at most)\s*[$€£]?\s*"
    r"(?P<num>[-−]?\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%)?\s*(?P<scale>thousands?|millions?|billions?)?",
    re.I)
# words an operation may borrow from a line item's label
OP_WORDS = _OP_WORDS = ("average", "mean", "change", "total", "growth", "ratio", "percentage", "percent",
             "increase", "decrease", "difference", "sum", "rate", "more", "less", "net")


@dataclass(frozen=True)
class Threshold:
    above: bool  # True: greater than / exceeds; False: less than / below
    value: float  # in the unit of the scale word, if any
    scale: str  # "" | thousand | million | billion | percent
    inclusive: bool


def years(question: str) -> list[int]:
    """The years a question names, in its own order: "2019", "FY19", "fiscal 18"."""
    found: list[tuple[int, int]] = [(m.start(), int(m.group(1))) for m in YEAR.finditer(question)]
    for m in _FY2.finditer(question):
        found.append((m.start(), 2000 + int(m.group(1))))
    return list(dict.fromkeys(y for _, y in sorted(found)))


def span(question: str) -> list[int] | None:
    """Every year of a span the question names ("2017-2019", "from 2017 to 2019"), in the
    question's order, or None when it names no span of more than two years."""
    m = _RANGE.search(question)
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    if not 1 < abs(b - a) <= 30:
        return None
    step = 1 if b > a else -1
    return list(range(a, b + step, step))


def distance(question: str) -> bool:
    """"The difference between X in 2018 and 2019" asks how far apart the two are (a size);
    "the change", "the increase / (decrease)" or a difference "from 2018 to 2019" asks for
    the later minus the earlier — as does "the net difference", whose "net" keeps the sign of
    what is left after the earlier is taken from the later."""
    return bool(re.search(r"\bdifferen(?:ce|t)\b", question, re.I)) and not re.search(
        r"\b(change|increase|decrease|grow|grew|growth|decline|declined|rise|rose|fell|fall)\b|"
        r"\bnet\s+difference\b|"
        r"\b(?:compared (?:to|with)|versus|vs)\b|"  # "X in 2019 as compared to X in 2017"
        rf"\bfrom\s+(?:fy\s*)?{_Y}\s+to\b", question, re.I)  # "from 2018 to 2019": a direction


def decrease_by(question: str) -> bool:
    """"How much did X decrease by from 2017 to 2019?" asks for the size of the fall (earlier
    minus later), unlike "the increase / (decrease)" or "the change", which is later minus
    earlier."""
    return bool(re.search(r"\b(?:decrease[ds]?|declined?|fell|fall|dropp?(?:ed)?)\s+by\b",
                          question, re.I)) and not re.search(r"\bincrease", question, re.I)


def proportion(question: str) -> bool:
    """"What proportion of B is A" / "A over B" asks for a fraction (0.87); only a question
    that also says percent ("the proportion, in percentage, of ...") wants it times 100."""
    return bool(re.search(r"\bproportion\b", question, re.I)) and not re.search(
        r"percent|%", question, re.I)


def neutral(question: str, label: str) -> str:
    """The question with the operation words its line item's label accounts for blanked: in
    "the change in Net change in cash" one "change" is the label's, one the operation's."""
    low = question.lower()
    lab = label.lower()
    for w in _OP_WORDS:
        k = len(re.findall(rf"\b{w}\b", lab))
        for _ in range(k):
            m = re.search(rf"\b{w}\b", low)
            if not m:
                break
            low = low[:m.start()] + "_" * len(w) + low[m.end():]
    return low


def operation(question: str, label: str, n_labels: int) -> str | None:
    """The operation the question asks of the line item `label`, or None when it asks for two
    at once (the change in an average, the ratio of averages) — a guess would be wrong."""
    q = neutral(question, label)
    if re.search(r"\bwhy\b|\breasons? (?:for|why|behind)\b", q):
        return None  # it asks for an explanation, which no figure of the line gives
    if re.search(r"\bweighted[- ]average\b", q):
        return None  # a weighted mean needs weights the line item does not give
    avg = bool(_AVG.search(q))
    if re.search(r"\brespective(?:ly)?\b", q):
        return "each"
    th = threshold(q)
    if th is not None and re.search(r"\bhow many (?:of the )?(?:years|periods|times|quarters)\b",
                                    q):
        return "count_years"
    if th is not None and _WHICH_YEAR.search(q):
        return "years_where"
    if _WHICH_YEAR.search(q) and (_MAX.search(q) or _MIN.search(q)):
        return "argmax" if _MAX.search(q) else "argmin"
    if re.search(r"\babsolute percentage change\b|\bpercentage points?\b", q):
        return None if avg else "difference"  # a change in points, not a relative change
    if CHANGE_RATIO.search(q):
        return None if avg else "change_ratio"
    if (_PCT_OF.search(q) or _RATIO.search(q)) and n_labels < 2:
        return None  # a share or a ratio of one line item: its whole is not a row named here
    pct_of = bool(_PCT_OF.search(q))
    ratio = bool(_RATIO.search(q))
    if pct_of and proportion(q):
        pct_of, ratio = False, True  # "A as a proportion of B": a fraction, not a percent
    elif ratio and re.search(r"\bin percent(?:age)?\b", q):
        pct_of, ratio = True, False  # "the proportion, in percentage, of A over B"
    diff = bool(_DIFF.search(q))
    if avg:
        return None if (pct_of or ratio or diff) else "average"
    if pct_of:
        return "percent_of"
    if ratio:
        return "ratio"
    if diff:
        return "difference"
    if _SUM.search(q) or (re.search(r"\btotal\b", q) and len(years(q)) >= 2):
        return "sum"
    return "lookup"


def threshold(question: str) -> Threshold | None:
    """The comparison a "which years ... less than 800 million" question names."""
    m = _THRESHOLD.search(question)
    if not m:
        sign = re.search(r"\b(negative|positive)\b", question, re.I)
        if sign and _WHICH_YEAR.search(question):  # "in which year was X negative?": X < 0
            return Threshold(sign.group(1).lower() == "positive", 0.0, "", False)
        return None
    cmp = m.group("cmp").lower()
    above = not cmp.startswith(("less", "lower", "below", "under", "fewer", "smaller",
                                "at most"))
    scale = "percent" if m.group("pct") else SCALE_WORDS.get((m.group("scale") or "").lower(), "")
    return Threshold(above, float(m.group("num").replace(",", "").replace("−", "-")), scale,
                     cmp in ("at least", "at most"))


def order_pair(question: str, a: str, b: str, pos) -> tuple[str, str]:
    """(numerator, denominator) of a share or ratio of two line items: the item named after
    "as a percentage of", "among", "in the total", "over", "to", "divided by" is the
    denominator; else a "Total ..." line beside a part is the whole; else in "what percentage
    of Y is X" the first named; else the first named is the numerator ("the ratio of X to Y")."""
    low = question.lower()
    first, second = (a, b) if pos(a) <= pos(b) else (b, a)
    m = re.search(r"\bas an? (?:percentage|percent|proportion|share|ratio) of\b|\bamong\b|"
                  r"\b(?:in|of|within) (?:the )?total\b|\bover\b|\bdivided by\b|"
                  r"\bto\b(?! \d)", low)
    if m and pos(first) < m.start() <= pos(second):
        return first, second
    ta, tb = (bool(re.match(r"\s*total\b", x, re.I)) for x in (a, b))
    if ta != tb:
        return (b, a) if ta else (a, b)
    if re.search(r"\b(?:percentage|proportion) of\b.*\b(?:is|was|were|are|represented by|accounted for|"
                 r"forms?|constitutes?|comes? from|came from)\b", low):
        return second, first
    return first, second


def where(cs: list[tuple[dict, int]], th: Threshold | None,
          scale_of: Callable[[dict], str]) -> list[int] | None:
    """The years whose value meets the threshold, compared in the threshold's own scale
    ("less than 800 million" against a table in thousands compares base values); `scale_of`
    reads a cell's scale (`tableqa_rows.scale`)."""
    if th is None:
        return None
    out = []
    for c, y in cs:
        sc = scale_of(c)
        if th.scale == "percent" or not th.scale:
            if th.scale == "percent" and sc != "percent":
                return None
            v, t = float(c["value_num"]), th.value
        else:
            if sc == "percent":
                return None
            v, t = float(c["value_num"]) * SCALES.get(sc, 1.0), th.value * SCALES[th.scale]
        ok = (v > t or (th.inclusive and v == t)) if th.above else (
            v < t or (th.inclusive and v == t))
        if ok:
            out.append(y)
    return out
