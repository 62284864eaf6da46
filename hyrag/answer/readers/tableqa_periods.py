"""Periods a line-item question names that are not plain years: dates and quarters.

`tableqa.py` reads the years a question names ("2019", "FY19") and finds each year's column.
A quarterly or dated table has several columns per year ("July 27, 2019 | April 27, 2019",
"Q4 2019 | Q3 2019"), so a year does not pick one, and a question that names two dates of one
year ("at June 30 and December 31, 2019") names only one year. Ingestion already keys such
columns by the exact period (`ingest/periods.py`: "2019-07-27", "2019Q4"); this module reads
the same keys out of the question, the way an analyst matches "the quarter ended July 27,
2019" or "the fourth quarter of 2019" to a column header:

- dates: "July 27, 2019", "27 July 2019", "Jul. 27 2019"; a date written without its year
  takes the year written next ("June 30 and December 31, 2019", "the quarters ended July 27
  and April 27 in 2019");
- quarters: "Q4 2019", "4Q19", "the fourth quarter of 2019", "fiscal 2019 third quarter",
  "2019 Q4";
- an elided period: "Q4 2019 and 2018", "December 31, 2019 and 2018" repeat the quarter or the
  day for the bare year after "and".

It returns keys only; whether the table holds them (and one cell each) is `tableqa.py`'s
check, and a key the table lacks leaves the question to the year reader or to abstention.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
_MON = (r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
        r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_YR = r"(?P<yr>(?:19|20)\d{2})"
_DATE = re.compile(
    rf"\b(?:{_MON}\s+(?P<d1>\d{{1,2}})(?!\d)(?:st|nd|rd|th)?(?:\s*,\s*|\s+)?(?:{_YR}(?!\d))?|"
    rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MON.replace('mon', 'mon2')}"
    rf"(?:\s*,?\s*(?P<yr2>(?:19|20)\d{{2}})(?!\d))?)", re.I)
_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
        "4th": 4}
_ORDW = r"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)"
_QUARTER = re.compile(
    rf"\bq(?P<q1>[1-4])\s*(?:fy|fiscal)?\s*'?(?P<y1>(?:19|20)\d{{2}}|\d{{2}})\b|"
    rf"\b(?P<q2>[1-4])q\s*'?(?P<y2>(?:19|20)\d{{2}}|\d{{2}})\b|"
    rf"\b(?:fiscal\s+|fy\s*)?(?P<y3>(?:19|20)\d{{2}})\s+(?:fiscal\s+)?(?:q(?P<q3>[1-4])\b|"
    rf"(?P<o3>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\b)|"
    rf"\b{_ORDW}\s+(?:fiscal\s+)?quarter\s+(?:of\s+|in\s+)?(?:the\s+)?"
    rf"(?:fiscal\s+(?:year\s+)?|fy\s*)?(?P<y4>(?:19|20)\d{{2}})\b", re.I)
# a bare year right after a period and "and" / ",": the same period of that year
_ELIDED = re.compile(r"^\s*(?:,\s*)?(?:and|,|&)\s+(?:fiscal\s+)?(?P<yr>(?:19|20)\d{2})(?![\d,])"
                     r"(?!\s*(?:q[1-4]\b|first|second|third|fourth))", re.I)


@dataclass(frozen=True)
class Named:
    """A period the question names: its ingestion key and where the question writes it."""

    key: str  # "2019-07-27" | "2019Q4"
    start: int
    end: int
    year_at: int = -1  # where the year it borrows is written, when outside its own span


# a fiscal year written across its two calendar years: "2018/2019", "2018/19", "FY2018-19"
_FSPAN = re.compile(r"(?<![\d/])(?:fy\s*|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\s*[/–-]\s*"
                    r"((?:19|20)?\d{2})(?![\d/])", re.I)


def span_key(header: str) -> str | None:
    """"2018/2019" for a column header that names one fiscal year by its two calendar years
    ("2018/2019", "2018/19", "FY 2018-19 £m"), else None; two years apart ("2017-2019") are a
    range, not one period, and a header naming another year too is not one period."""
    ms = list(_FSPAN.finditer(header))
    if len(ms) != 1 or len(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", header)) > 2:
        return None
    return _fspan(ms[0])


def _fspan(m: re.Match) -> str | None:
    a, b = int(m.group(1)), m.group(2)
    end = int(b) if len(b) == 4 else a // 100 * 100 + int(b)
    return f"{a}/{end}" if end == a + 1 else None


def _year(s: str) -> int:
    y = int(s)
    return y if y >= 100 else 2000 + y


def _dates(question: str) -> list[tuple[int, int, int | None, int, int]]:
    """(month, day, year or None, start, end) of each date the question writes."""
    out = []
    for m in _DATE.finditer(question):
        mon = (m.group("mon") or m.group("mon2") or "").lower()[:3]
        day = int(m.group("d1") or m.group("d2"))
        yr = m.group("yr") or m.group("yr2")
        if mon not in _MONTHS or not 1 <= day <= 31:
            continue
        out.append((_MONTHS[mon], day, int(yr) if yr else None, m.start(), m.end()))
    return out


def named(question: str) -> list[Named]:
    """The dates and quarters the question names, in its order (elided years expanded). A
    date whose year the question never writes, or that is no calendar day, is left out."""
    found: list[Named] = []
    ds = _dates(question)
    for mon, day, yr, s, e in ds:
        if yr is None:  # "June 30 and December 31, 2019": the next written year
            m = re.match(r"[^.?;]*?(?<!\d)((?:19|20)\d{2})(?!\d)", question[e:])
            if m is None:
                continue
            yr, at = int(m.group(1)), e + m.start(1)
        else:
            at = -1
        try:
            found.append(Named(dt.date(yr, mon, day).isoformat(), s, e, at))
        except ValueError:
            continue
    for m in _QUARTER.finditer(question):
        q = m.group("q1") or m.group("q2") or m.group("q3") or _ORD.get(
            (m.group("o3") or m.group("ord") or "").lower())
        y = m.group("y1") or m.group("y2") or m.group("y3") or m.group("y4")
        if q and y:
            found.append(Named(f"{_year(y)}Q{int(q)}", m.start(), m.end()))
    for m in _FSPAN.finditer(question):
        k = _fspan(m)
        if k:
            found.append(Named(k, m.start(), m.end()))
    found.sort(key=lambda n: n.start)
    out: list[Named] = []
    for n in found:
        out.append(n)
        el = _ELIDED.match(question[n.end:]) if "/" not in n.key else None
        if el:
            yr = el.group("yr")
            key = (f"{yr}{n.key[4:]}" if "Q" in n.key else f"{yr}{n.key[4:]}")
            try:
                if "Q" not in key:
                    dt.date.fromisoformat(key)
            except ValueError:
                continue
            out.append(Named(key, n.end + el.start("yr"), n.end + el.end("yr")))
    return out


def same_kind(key: str, other: str) -> bool:
    """Whether two period keys are of one kind: both quarters ("2019Q4") or both days."""
    for rx in (_QKEY, _DKEY, _SKEY):
        if rx.fullmatch(key):
            return bool(rx.fullmatch(other))
    return False


_QKEY = re.compile(r"(?:19|20)\d{2}Q[1-4]")
_SKEY = re.compile(r"(?:19|20)\d{2}/(?:19|20)\d{2}")
_DKEY = re.compile(r"(?:19|20)\d{2}-\d{2}-\d{2}")


def keys(question: str) -> list[str]:
    """The distinct period keys the question names, in its order."""
    return list(dict.fromkeys(n.key for n in named(question)))


def accounts_for_years(question: str) -> bool:
    """Whether every year the question writes belongs to a date or quarter it names: only
    then do the named periods replace the years ("Q4 2019 and 2018" names two quarters, but
    "Q4 2019 against the 2018 total" still names a plain year)."""
    ns = named(question)
    spans = [(n.start, n.end) for n in ns]
    borrowed = {n.year_at for n in ns}
    for m in re.finditer(r"(?<!\d)(?:19|20)\d{2}(?!\d)", question):
        if m.start() not in borrowed and not any(s <= m.start() < e for s, e in spans):
            return False
    return bool(ns)


def words(question: str) -> set[str]:
    """The lower-case words of the period phrases ("july", "q4", "fourth", "quarter"), which
    the period explains and no line item needs to."""
    out: set[str] = set()
    for n in named(question):
        out |= set(re.findall(r"[a-z0-9]+", question[n.start:n.end].lower()))
    return out | {"quarter", "ended", "ending", "at", "as"}


# a fiscal year named by the calendar year it ends in: "FY2019", "fiscal 2019", "FY19"
_FY = re.compile(r"\b(?:fy|fiscal(?:\s+year)?)\s*'?((?:19|20)?\d{2})\b", re.I)


def fiscal_spans(question: str, by_period: dict) -> list[str]:
    """The span columns ("2018/2019") a question names as fiscal years by the year they end
    in ("the income taxes in FY2019"): a fiscal year is named by its closing calendar year, so
    where a line's columns are such spans only, "FY2019" is the "2018/2019" column. Every year
    the question writes must carry the fiscal marker (a bare "2019" could be either span), and
    a span must be the line's own; else [] (the plain reading stands)."""
    if not by_period or not all("/" in k for k in by_period):
        return []
    ms = list(_FY.finditer(question))
    years = re.findall(r"(?<![\d/])(?:19|20)\d{2}(?![\d/])", question)
    if not ms or len(years) > sum(len(m.group(1)) == 4 for m in ms):
        return []
    out = []
    for m in ms:
        end = _year(m.group(1))
        key = f"{end - 1}/{end}"
        if key not in by_period:
            return []
        out.append(key)
    return list(dict.fromkeys(out))


def for_line(question: str, op: str, by_period: dict) -> list[str] | None:
    """The dates or quarters the question names, when the line's cells are keyed by exactly
    those periods and every year the question writes belongs to one of them; [] when the
    line's columns are years (a year-end date names its year's column, as before); None when
    the line has columns of the named kind but not the one named (the year's other quarter
    or date would be a wrong answer), or lacks a quarter the question names. A ranking over periods ("which quarter was largest") is
    left to the year reader: it answers with a year, not a column."""
    ks = keys(question)
    if not ks and (fy := fiscal_spans(question, by_period)):
        return fy if op not in ("argmax", "argmin", "years_where", "count_years") else []
    if not ks and op not in ("argmax", "argmin", "years_where") and (
            qs := year_quarters(question, by_period)):
        return qs
    if not ks or not accounts_for_years(question):
        return []
    missing = [k for k in ks if k not in by_period]
    # a date beside a plain year column ("December 31, 2019" against "2019 | December 31,
    # 2018") is read as that year, as before; a quarter never is
    strict = [k for k in missing if not (_DKEY.fullmatch(k) and k[:4] in by_period)]
    if any(same_kind(k, have) for k in strict for have in by_period) or any(
            _QKEY.fullmatch(k) for k in missing):
        return None  # nor is a quarter its year's column: the table lacks it
    if missing or op in ("argmax", "argmin", "years_where", "count_years"):
        return []
    return ks


# "each quarter", "quarterly", "how many quarters": the quarters of the year named
_EACH_QUARTER = re.compile(r"\b(?:each|every|all|the four|per)\s+(?:of\s+the\s+)?quarters?\b|"
                           r"\bquarterly\b|\bhow many quarters\b", re.I)


def year_quarters(question: str, by_period: dict) -> list[str]:
    """The four quarters of the one year a question names when it asks over its quarters
    ("the average quarterly low price in 2018", "for each quarter in 2018", "how many
    quarters in 2018 ..."), where the line holds exactly those four quarters of it and no
    figure of the year itself; else []."""
    ys = set(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", question))
    if len(ys) != 1 or not _EACH_QUARTER.search(question):
        return []
    y = ys.pop()
    want = [f"{y}Q{q}" for q in range(1, 5)]
    have = [k for k in by_period if str(k).startswith(y)]
    return want if sorted(have) == want else []


_QUARTER_HEADER = re.compile(rf"\s*(?:{_ORDW}\s+(?:fiscal\s+)?quarter|q(?P<n>[1-4]))\s*", re.I)


def quarter(header: str) -> int:
    """The quarter a header that is nothing but a quarter names ("Second Quarter", "Q2"), or
    0: under a year ("Fiscal 2019" above the columns, a table titled "... 2018") it is that
    year's quarter."""
    m = _QUARTER_HEADER.fullmatch(header or "")
    if not m:
        return 0
    return int(m.group("n")) if m.group("n") else _ORD[m.group("ord").lower()]
