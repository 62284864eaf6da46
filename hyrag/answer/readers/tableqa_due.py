"""The total of the instruments a debt table lists as falling due by a date: "What is the total
carrying amount of Senior Notes due by December 2024 as of December 31, 2019?".

A debt note lists one line per instrument, each named with its maturity ("4.875% Senior Notes
due December 2022", "5.125% Senior Notes due December 2024", "5.50% Senior Notes due September
2025"), and prints no subtotal per maturity. A question asking for the total of the kind of
instrument due by a date selects the lines by that date, as an analyst reads the names: every
line of that kind whose stated maturity is on or before it. This reader adds them up, only
where nothing is guessed:

- the question says "total", names the cut-off as "due by / on or before <month> <year>" and
  one other year, the date the amounts are "as of";
- the lines selected are those whose name states "due <month> <year>" (or "due <year>") no
  later than the cut-off and whose name, the rate and the maturity aside ("Senior Notes"), the
  question names in full; lines of another kind ("Term Loan A Facility due July 2022") are not
  selected; two or more lines with a figure are needed (a line whose cell is a dash, an
  instrument already repaid, has none and adds nothing);
- the column is the one of the other year whose every word the question names ("December 31,
  2019 | Carrying Amount" against "Fair Value"), the most fully named; in doubt it declines.

The same holds for a horizon instead of a date (`within`): "the total purchase obligations
due within 5 years" of a contractual-obligations table whose columns are maturity buckets
("Up to 1 year | 1 to 3 years | 3 to 5 years | More than 5 years | Total") is the sum of the
buckets that tile the horizon from now — 1, 1-3 and 3-5 years. Buckets that end past it, or a
gap between them, leave it unread: the horizon would be cut through a bucket.

The sum is recorded as a derivation over the committed cells, so the ReverseVerifier
re-computes it.
"""

from __future__ import annotations

import re

from hyrag.answer.execute.tools import fmt
from hyrag.answer.readers import tablelines
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_M = r"(?:(?P<month>(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\.?\s+)?"
_BY = re.compile(rf"\b(?:due|maturing|matures?)\s+(?:by|on or before|no later than)\s+{_M}"
                 r"(?P<year>(?:19|20)\d{2})\b", re.I)
_DUE = re.compile(rf"\b(?:due|matur(?:ing|es|ity))\s+(?:in\s+)?{_M}(?P<year>(?:19|20)\d{{2}})"
                  r"(?!\d)", re.I)
_RATE = re.compile(r"\d+(?:\.\d+)?\s*%")


def _when(m: re.Match) -> tuple[int, int]:
    """(year, month) of a maturity; a year alone is its last month."""
    mon = (m.group("month") or "dec")[:3].lower()
    return int(m.group("year")), _MONTHS.index(mon) + 1


def resolve(question: str, con):  # a tableops.TableResolved or None
    """The lines of the kind the question names due by its cut-off, added up, or None (see
    the module)."""
    by = _BY.search(question)
    if by is None:
        return within(question, con)
    if not re.search(r"\btotal\b", question, re.I):
        return None
    cutoff = _when(by)
    rest = question[:by.start()] + " " + question[by.end():]
    as_of = read.years(rest)
    if len(as_of) != 1:
        return None
    q = tr.content(rest)
    picked = []
    for ln in tablelines.table_lines(con):
        m = _DUE.search(ln.label)
        if m is None or _when(m) > cutoff:
            continue
        kind = tr.content(_RATE.sub(" ", ln.label[:m.start()]))
        if kind and kind <= q:
            picked.append(ln)
    if len({ln.table for ln in picked}) != 1:
        return None
    cols = {col for ln in picked for col in ln.by_col
            if read.years(col) == as_of and (tr.content(col) <= q)}
    best = sorted(cols, key=lambda c: -len(tr.content(c)))
    if not best or len(best) > 1 and len(tr.content(best[0])) == len(tr.content(best[1])):
        return None
    cells = [ln.by_col[best[0]] for ln in picked if best[0] in ln.by_col]
    if len(cells) < 2 or len({tr.scale(c) for c in cells}) != 1:
        return None
    b = tablelines.Builder()
    refs, d = b.sum(cells, as_of[0], f"due by {by.group(0)[4:].strip()}")
    total = d.result
    return b.done("sum", total, f"The lines {by.group(0).lower()} add up to {fmt(total)} "
                  f"{''.join(f'[{r}]' for r in refs)}.", d, scale=tr.scale(cells[0]))


_NUM = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
# "due within 5 years", "payable in the next three years" ("due in 3 years" may mean the
# third year's bucket alone: not read)
_WITHIN = re.compile(rf"\b(?:due|payable|maturing|falling\s+due)\s+(?:within|in\s+the\s+next)\s+"
                     rf"{_NUM}\s+years?\b", re.I)
_INF = float("inf")
_OTHER_OP = re.compile(r"%|\b(?:percent\w*|proportion|share|ratio|average|mean|change|"
                       r"increase|decrease|difference|growth)\b", re.I)
# a maturity bucket's header, as (from, to) in years from the balance-sheet date
_BUCKETS = (
    (re.compile(rf"^(?:up\s+to|less\s+than|within|under|<)\s*{_NUM}\s+years?$"), "to"),
    (re.compile(rf"^{_NUM}\s+years?\s+or\s+less$"), "to"),
    (re.compile(rf"^(?:between\s+)?{_NUM}\s*(?:-|–|to|and)\s*{_NUM}\s+years?$"), "span"),
    (re.compile(rf"^(?:more\s+than|after|over|beyond|>)\s*{_NUM}\s+years?$"), "from"),
    (re.compile(rf"^{_NUM}\s+years?\s+(?:and\s+(?:over|after|beyond)|or\s+more)$"), "from"),
)


def _n(w: str) -> int:
    return int(tablelines.NUMBER_WORDS.get(w.lower(), w))


def bucket(header: str) -> tuple[float, float] | None:
    """The span of years a maturity column covers ("1 to 3 years" -> (1, 3), "Up to 1 year"
    -> (0, 1), "More than 5 years" -> (5, inf)), or None for any other header."""
    h = " ".join(header.lower().replace("’", "'").split())
    for rx, kind in _BUCKETS:
        m = rx.match(h)
        if m is None:
            continue
        if kind == "to":
            return 0.0, float(_n(m.group(1)))
        if kind == "span":
            return float(_n(m.group(1))), float(_n(m.group(2)))
        return float(_n(m.group(1))), _INF
    return None


def within(question: str, con):  # a tableops.TableResolved or None
    """The amounts of the line the question names due within its horizon: the maturity
    buckets from now to the horizon, added up (see the module)."""
    m = _WITHIN.search(question)
    if m is None or read.years(question):
        return None
    horizon = float(_n(m.group(1)))
    rest = question[:m.start()] + " " + question[m.end():]
    q = tr.content(rest)
    named: dict[str, list] = {}
    for ln in tablelines.table_lines(con):
        own = tr.content(ln.label)
        if own and own <= q:
            named.setdefault(ln.label, []).append(ln)
    if not named:
        return None
    best = max(len(tr.content(lab)) for lab in named)
    labels = [lab for lab in named if len(tr.content(lab)) == best]
    if len(labels) != 1 or len(named[labels[0]]) != 1:
        return None  # two lines named alike, or one label in two tables: not guessed at
    if any(not tr.content(lab) - tr.OPWORDS <= tr.content(labels[0]) for lab in named):
        return None  # another line named in full too ("A and B due within 3 years")
    ln = named[labels[0]][0]
    if _OTHER_OP.search(rest):
        return None  # a percentage, change or average of the sum: another question
    if q - tr.content(ln.label) - tr.OPWORDS:
        return None  # a word the line does not explain ("the interest on ..."): not its amount
    spans = sorted((sp, col) for col in ln.by_col if (sp := bucket(col)) is not None)
    picked, reach = [], 0.0
    for (lo, hi), col in spans:
        if hi > horizon:
            break
        if lo != reach:
            return None  # a gap, or buckets that overlap: no tiling of the horizon
        picked.append(col)
        reach = hi
    if reach != horizon or len(picked) < 2:
        return None  # the horizon cuts through a bucket; one bucket is a lookup
    cells = [ln.by_col[col] for col in picked]
    if len({tr.scale(c) for c in cells}) != 1:
        return None
    b = tablelines.Builder()
    refs, d = b.sum(cells, 0, f"due within the horizon ({', '.join(picked)})")
    return b.done("sum", d.result, f"{ln.label} due within the horizon asked adds up the "
                  f"buckets {tablelines.join(picked)} to {fmt(d.result)} "
                  f"{''.join(f'[{r}]' for r in refs)}.", d, scale=tr.scale(cells[0]))
