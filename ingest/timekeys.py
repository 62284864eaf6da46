"""Periods: the many ways files and people write a time period, mapped onto one canonical key.

Every claim carries a `time_key` so that "Q1 2024", "1Q24" and "2024-Q1" in three files are one
period, and an `order_key` so that periods sort and a question's "in 2024" can be answered by a
numeric range filter in SQL instead of string matching.

The order key
-------------
``order_key = YYYYMMDD(period_end) + days_covered / 1000``

where ``YYYYMMDD(d) = d.year * 10000 + d.month * 100 + d.day`` and ``days_covered =
(end - start).days + 1`` (1 for a date, ~30 for a month, ~91 for a quarter, 365/366 for a year
or an LTM). The integer part is readable in a SQL result (20240331.091 is 2024Q1) and is monotone
in the end date; the fraction is below 0.367, so it never reaches the next day. For periods that
end on the same day the longer one sorts *last* ("2024-12-31" < "2024-12" < "2024Q4" < "2024H2" <
"2024"), so "the latest value" over a year's rows picks the full year when there is one.

An interval of order keys for a span of days ``[a, b]`` is ``(YYYYMMDD(a), YYYYMMDD(b) + 0.999)``:
it holds exactly the periods that *end* inside the span, so the interval of "2024" contains
2024Q1, 2024-03 and 2024-03-31 (see `TimeKey.interval`; a question's period phrase:
`ingest.intervals.parse_interval`).

Fiscal years
------------
With ``fiscal_year_start_month = m`` (m != 1), FY2024 is the twelve months that END in calendar
year 2024: it starts on the 1st of month m of 2023 (m = 7: 2023-07-01 .. 2024-06-30). This is the
US / UK convention ("fiscal 2024" is named for the year it ends in). Quarters and halves are
counted from the fiscal start (m = 7: 2024Q1 is 2023-07-01 .. 2023-09-30) and keep the key
"2024Q1". Months and dates are always calendar. "CY2024" forces the calendar year; when the
fiscal year is not the calendar year its key is "CY2024" so it never collides with fiscal "2024".

Two-digit years ("FY24", "1Q24", "Mar-24") follow the POSIX ``%y`` pivot: 00-68 -> 2000s,
69-99 -> 1900s. Years outside 1900-2100 are not periods. Nothing is guessed: an ambiguous
"03/04/2024" is not a period (it is one only when the day is > 12 or both parts are equal), and
forecast markers such as "2024E" are not accepted (they would silently merge estimates with
actuals).
"""

from __future__ import annotations

import datetime as dt
import math
import re

from ingest.errors import TimeKeyError

__all__ = [
    "GRAINS",
    "TimeKey",
    "date_key",
    "find_time_expressions",
    "half_key",
    "looks_like_time_key",
    "ltm_key",
    "month_key",
    "order_key_for",
    "parse_time_key",
    "parse_time_key_strict",
    "quarter_key",
    "year_key",
    "ymd",
]

from ingest.periods import (
    _UNANCHORED_LTM,
    GRAINS,
    MAX_YEAR,
    MIN_YEAR,
    TimeKey,
    _check_fiscal,
    _label_ok,
    _unit_containing,
    date_key,
    half_key,
    ltm_key,
    month_key,
    order_key_for,
    quarter_key,
    year_key,
    ymd,
)

# --------------------------------------------------------------------------------------------
# Parsing one value

_TRANS = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "`": "'",
        "\u00b4": "'",
        "\u2013": "-",
        "\u2014": "-",
        "\u2012": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
    }
)
# footnote markers on headers ("2023*", "2024¹") say nothing about the period
_FOOTNOTE = re.compile(r"(?<=[\w)])\s*[*\u2020\u2021\u00b9\u00b2\u00b3\u2070-\u2079]+$")

_MON = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_FYP = r"(?P<fy>fy|cy|fiscal(?:\s+year)?|financial\s+year|calendar\s+year)"
_YT = rf"(?:{_FYP}[\s\-']*)?'?(?P<y>\d{{4}}|\d{{2}})"
_SEP = r"[\s\-/_.:']*"
_QT = r"(?:q(?P<q>[1-4])|(?P<qa>[1-4])q)"
_HT = r"(?:h(?P<h>[12])|(?P<ha>[12])h)"
_TIME = r"(?:[t\s]+\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:z|[+-]\d{2}:?\d{2})?)?"


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"^{pattern}$")


_P_LTM_BARE = _c(r"(?:ltm|ttm|l12m|(?:last|trailing)\s+(?:twelve|12)\s+months)")
_P_LTM_PRE = _c(r"(?:ltm|ttm|l12m)[\s\-_:/]*(?:(?:ended|ending|to)\s+)?(?P<rest>.+)")
_P_LTM_POST = _c(r"(?P<rest>.+?)[\s\-_]*(?:ltm|ttm)")
# "year ended", "year-ended", and a retailer's "52 weeks ended" / "53 weeks ended" (its fiscal
# year, of 52 or 53 weeks, read as the twelve months ending that day)
_P_ENDED = _c(
    r"(?:the\s+)?(?P<kind>(?:(?:fiscal|financial)\s+)?(?:year|quarter|half(?:[\s\-]year)?)"
    r"|(?:twelve|12|three|3|six|6)\s+months|5[23]\s+weeks)[\s\-]+end(?:ed|ing)\s+(?:on\s+)?"
    r"(?P<rest>.+)"
)
_P_ISO_DATE = _c(rf"(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){_TIME}")
_P_NUM_DATE = _c(r"(?P<a>\d{1,2})(?P<s>[-/.])(?P<b>\d{1,2})(?P=s)(?P<y>\d{4})")
_P_MDY = _c(rf"{_MON}\s*(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s*,\s*|\s+)(?P<y>\d{{4}})")
_P_DMY = _c(
    rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?[\s\-/.]*{_MON}[\s\-/.,]*'?(?P<y>\d{{4}}|\d{{2}})"
)
_P_MON_Y4 = _c(rf"{_MON}[\s,\-/']*(?:of\s+)?(?P<y>\d{{4}})")
_P_MON_Y2 = _c(rf"{_MON}(?:[\-/']|\s+')(?P<y>\d{{2}})")
_P_Y_MON = _c(rf"(?P<y>\d{{4}})[\s\-/]*{_MON}")
_P_Y_M = _c(r"(?P<y>\d{4})(?:[-/]|m)(?P<m>\d{1,2})")
_P_M_Y = _c(r"(?P<m>\d{1,2})[-/](?P<y>\d{4})")
_P_Q_Y = _c(rf"{_QT}(?:\s+of)?{_SEP}{_YT}")
_P_Y_Q = _c(rf"{_YT}{_SEP}{_QT}")
_P_Q_ORD = _c(
    r"(?:the\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter"
    rf"(?:\s+of)?(?:\s+the)?[\s,]+{_YT}"
)
_P_H_Y = _c(rf"{_HT}(?:\s+of)?{_SEP}{_YT}")
_P_Y_H = _c(rf"{_YT}{_SEP}{_HT}")
_P_H_ORD = _c(
    r"(?:the\s+)?(?P<ord>first|second|1st|2nd)\s+half(?:\s+of)?(?:\s+the)?(?:\s+(?:fiscal\s+)?year)?"
    rf"[\s,]+{_YT}"
)
_P_YEAR4 = _c(rf"(?:(?:the\s+)?(?:{_FYP}|year)[\s\-']*)?(?P<y>\d{{4}})")
_P_YEAR2 = _c(rf"{_FYP}[\s\-']*'?(?P<y>\d{{2}})")


def _year(text: str, *, two_digit: bool = True) -> int | None:
    t = text.lstrip("'")
    if len(t) == 2 and two_digit:
        yy = int(t)
        return 2000 + yy if yy < 69 else 1900 + yy
    if len(t) == 4:
        y = int(t)
        return y if _label_ok(y) else None
    return None


def _mon(text: str) -> int:
    return _MONTHS[text[:3]]


def month_number(word: str) -> int | None:
    """The month a word names, written out or abbreviated ("February", "feb", "Sept."): 1-12,
    or None for any other word."""
    w = word.lower()
    return _MONTHS[w[:3]] if re.fullmatch(_MON, w) else None


def _date(y: int | None, m: int, d: int) -> TimeKey | str:
    if y is None:
        return "the year is outside 1900-2100"
    try:
        return date_key(dt.date(y, m, d))
    except ValueError:
        return f"there is no day {y:04d}-{m:02d}-{d:02d}"


def _month(y: int | None, m: int) -> TimeKey | str:
    if y is None:
        return "the year is outside 1900-2100"
    if not 1 <= m <= 12:
        return f"there is no month {m}"
    return month_key(y, m)


def _labelled(
    m: re.Match[str], grain: str, index: int, fiscal: int, *, two_digit: bool = True
) -> TimeKey | str:
    """A year / half / quarter from a match with groups `y` and optionally `fy`."""
    y = _year(m.group("y"), two_digit=two_digit)
    if y is None:
        return "the year is outside 1900-2100"
    fy = m.groupdict().get("fy") or ""
    calendar = fy.startswith("c")
    if grain == "year":
        return year_key(y, fiscal_year_start_month=fiscal, calendar=calendar)
    if grain == "half":
        return half_key(y, index, fiscal_year_start_month=fiscal, calendar=calendar)
    return quarter_key(y, index, fiscal_year_start_month=fiscal, calendar=calendar)


def _ended(kind: str, rest: str, fiscal: int) -> TimeKey | str:
    """ "year ended December 31, 2024": the period of that length that ends on that day."""
    anchor = _parse_str(rest, fiscal)
    if isinstance(anchor, str) or anchor.grain not in ("date", "month") or anchor.end is None:
        return f"{rest!r} is not a day a period can end on"
    end = anchor.end
    words = kind.replace("-", " ").split()
    if "half" in words or words[0] in ("six", "6"):
        months = 6
    elif "quarter" in words or words[0] in ("three", "3"):
        months = 3
    else:
        months = 12
    unit = _unit_containing(end, months, fiscal)
    if unit.end == end:
        return unit
    if months != 12:
        return f"no {'quarter' if months == 3 else 'half'} of the fiscal calendar ends on {end}"
    # twelve months that are not a fiscal year: the LTM ending there (same interval)
    return ltm_key(date_key(end), fiscal_year_start_month=fiscal)


def _parse_str(s: str, fiscal: int) -> TimeKey | str:
    """Parse normalised (lower-case) text; a str result is the reason it is not a period."""
    if not s:
        return "it is empty"
    if _P_LTM_BARE.match(s):
        return _UNANCHORED_LTM
    for pat in (_P_LTM_PRE, _P_LTM_POST):
        m = pat.match(s)
        if m:
            anchor = _parse_str(m.group("rest").strip(), fiscal)
            if isinstance(anchor, str):
                return f"the LTM anchor {m.group('rest')!r} is not a period: {anchor}"
            if anchor.grain == "ltm":
                return "LTM of an LTM is not a period"
            return ltm_key(anchor, fiscal_year_start_month=fiscal)
    m = _P_ENDED.match(s)
    if m:
        return _ended(m.group("kind"), m.group("rest").strip(), fiscal)
    if not any(ch.isdigit() for ch in s):
        return "it has no year"

    if m := _P_ISO_DATE.match(s):
        return _date(_year(m["y"], two_digit=False), int(m["m"]), int(m["d"]))
    if m := _P_NUM_DATE.match(s):
        a, b = int(m["a"]), int(m["b"])
        y = _year(m["y"], two_digit=False)
        if a > 12 >= b:
            return _date(y, b, a)  # day first: 31/03/2024
        if b > 12 >= a or a == b:
            return _date(y, a, b)  # month first: 03/31/2024 (or both readings agree)
        if a > 12 and b > 12:
            return f"neither {a} nor {b} is a month"
        return f"day and month are ambiguous ({a} and {b} could each be the month)"
    if m := _P_MDY.match(s):
        return _date(_year(m["y"], two_digit=False), _mon(m["mon"]), int(m["d"]))
    if m := _P_DMY.match(s):
        return _date(_year(m["y"]), _mon(m["mon"]), int(m["d"]))

    if m := _P_MON_Y4.match(s):
        return _month(_year(m["y"], two_digit=False), _mon(m["mon"]))
    if m := _P_MON_Y2.match(s):
        return _month(_year(m["y"]), _mon(m["mon"]))
    if m := _P_Y_MON.match(s):
        return _month(_year(m["y"], two_digit=False), _mon(m["mon"]))
    if m := _P_Y_M.match(s):
        return _month(_year(m["y"], two_digit=False), int(m["m"]))
    if m := _P_M_Y.match(s):
        return _month(_year(m["y"], two_digit=False), int(m["m"]))

    for pat in (_P_Q_Y, _P_Y_Q):
        if m := pat.match(s):
            return _labelled(m, "quarter", int(m["q"] or m["qa"]), fiscal)
    if m := _P_Q_ORD.match(s):
        return _labelled(m, "quarter", _ORD[m["ord"]], fiscal)
    for pat in (_P_H_Y, _P_Y_H):
        if m := pat.match(s):
            return _labelled(m, "half", int(m["h"] or m["ha"]), fiscal)
    if m := _P_H_ORD.match(s):
        return _labelled(m, "half", _ORD[m["ord"]], fiscal)

    if m := _P_YEAR4.match(s):
        return _labelled(m, "year", 0, fiscal, two_digit=False)
    if m := _P_YEAR2.match(s):
        return _labelled(m, "year", 0, fiscal)
    return "it matches no known period form"


# a letter-spaced year, as typeset report headers print it ("2 0 1 8"): PDF and HTML
# extraction keep the spaces, and a reader still sees the year
_SPACED_YEAR = re.compile(r"(?:19|20|1 9|2 0)(?: \d){2}")


def _normalise(text: str) -> str:
    s = re.sub(r"\s+", " ", text.translate(_TRANS)).strip()
    s = _FOOTNOTE.sub("", s).strip()
    if _SPACED_YEAR.fullmatch(s):
        s = s.replace(" ", "")
    return s.lower()


def _parse_value(value: object, fiscal: int) -> TimeKey | str:
    """Dispatch on the value's type; a str result is the reason it is not a period."""
    if value is None:
        return "it is empty"
    if isinstance(value, bool):
        return "a boolean is not a period"
    if isinstance(value, TimeKey):
        return value
    if isinstance(value, dt.datetime):  # also pandas.Timestamp; NaT fails the year check
        try:
            if value != value:  # NaT
                return "it is empty (NaT)"
            return date_key(value.date())
        except (ValueError, TypeError):
            return "it is empty (NaT)"
    if isinstance(value, dt.date):
        return date_key(value)
    type_name = type(value).__module__
    if type_name == "numpy" and hasattr(value, "item"):
        kind = getattr(getattr(value, "dtype", None), "kind", "")
        if kind == "M":  # numpy.datetime64
            item = value.astype("datetime64[D]").item()
            return date_key(item) if isinstance(item, dt.date) else "it is empty (NaT)"
        return _parse_value(value.item(), fiscal)
    if isinstance(value, int):
        return (
            year_key(value, fiscal_year_start_month=fiscal)
            if _label_ok(value)
            else (f"{value} is not a year between {MIN_YEAR} and {MAX_YEAR}")
        )
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return _parse_value(int(value), fiscal)
        return "a fractional number is not a period"
    if isinstance(value, str):
        if _year_span(value) is not None:
            return (f"{value.strip()!r} is a year running across two calendar years: its own "
                    "label, neither year (and no month)")
        return _parse_str(_normalise(value), fiscal)
    return f"a {type(value).__name__} is not a period"


# "2006–07", "2019/20", "2006-2007": a year that runs across two calendar years (a financial
# or academic year). It is no period key: "2019" may be either year of "2018/19", so a question
# naming one must not be answered from it; and "2006–07" is not July 2006. The second year must
# follow the first. A hyphen with two digits ("2006-07") stays the ISO month it is.
_P_YEAR_SPAN = re.compile(r"^\s*(?:fy\s*)?((?:19|20)\d{2})\s*(?:[\u2013\u2014/]\s*(\d{2})|"
                          r"[-\u2013\u2014/]\s*((?:19|20)\d{2}))\s*$", re.I)


def _year_span(text: str) -> int | None:
    """The year a year span ends in, or None when `text` is no year span."""
    m = _P_YEAR_SPAN.match(text)
    if not m:
        return None
    first = int(m.group(1))
    if m.group(2) is not None:
        return first + 1 if int(m.group(2)) == (first + 1) % 100 else None
    return first + 1 if int(m.group(3)) == first + 1 else None


def parse_time_key(text: object, *, fiscal_year_start_month: int = 1) -> TimeKey | None:
    """The period `text` names, or None when it names none (never a guess).

    Accepts strings in the forms listed in the module docstring, ints (2024), integral floats
    (2024.0, as spreadsheets store year headers), dates, datetimes, pandas Timestamps and numpy
    datetime64 (all date grain: a timestamp cannot say it meant a whole month).
    """
    result = _parse_value(text, _check_fiscal(fiscal_year_start_month))
    return None if isinstance(result, str) else result


def parse_time_key_strict(
    text: object, *, fiscal_year_start_month: int = 1, source: str | None = None
) -> TimeKey:
    """Like `parse_time_key`, but a value that is not a period raises `TimeKeyError` naming it,
    so a time column that fails to parse tells the user which cell and why."""
    result = _parse_value(text, _check_fiscal(fiscal_year_start_month))
    if isinstance(result, str):
        raise TimeKeyError(f"{text!r} is not a period: {result}", source=source)
    return result


def looks_like_time_key(text: object) -> bool:
    """Whether a header cell names a period (wide-table detection runs this on every header)."""
    if isinstance(text, str):
        low = text.lower()
        if not any(ch.isdigit() for ch in text) and "ltm" not in low and "ttm" not in low:
            return False
        if len(text) > 60:
            return False
    return parse_time_key(text) is not None


# --------------------------------------------------------------------------------------------
# Periods inside prose

_B_L = r"(?<![\w$\u20ac\u00a3\u00a5])(?<!\d[.,])"
_B_R = r"(?![\w%])(?![.,]\d)"
_PY4 = r"(?:19\d\d|20\d\d|2100)"
_PFY = r"(?:(?:fiscal(?:\s+year)?|financial\s+year|fy|cy)[\s\-']*)"
_PYT = rf"(?:{_PFY}'?\d{{2}}|{_PFY}?{_PY4}|'\d{{2}})"
_PMON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_PDATE = (
    rf"(?:{_PMON}\s*\d{{1,2}}(?:st|nd|rd|th)?(?:\s*,\s*|\s+){_PY4}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?[\s\-]*{_PMON}[\s\-,]*{_PY4}"
    rf"|{_PY4}-\d{{2}}-\d{{2}}"
    rf"|\d{{1,2}}/\d{{1,2}}/{_PY4})"
)
_PANCHOR = (
    rf"(?:{_PDATE}|[1-4]q(?:{_PY4}|\d{{2}})|q[1-4][\s\-/']*{_PYT}|{_PY4}[\s\-]?q[1-4]"
    rf"|{_PMON}[\s\-']*(?:{_PY4}|\d{{2}})|{_PYT})"
)
_PROSE = re.compile(
    _B_L
    + r"(?:"
    + r"|".join(
        [
            rf"(?:(?:fiscal|financial)\s+)?(?:year|quarter|half[\s\-]year|(?:twelve|12|three|3|six|6)\s+months)\s+end(?:ed|ing)\s+(?:on\s+)?{_PDATE}",
            rf"(?:ltm|ttm)[\s\-]+(?:ended\s+|ending\s+)?{_PANCHOR}",
            r"(?:ltm|ttm|(?:last|trailing)\s+(?:twelve|12)\s+months)",
            _PDATE,
            rf"(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter(?:\s+of)?(?:\s+the)?[\s,]+{_PYT}",
            rf"(?:first|second|1st|2nd)\s+half(?:\s+of)?(?:\s+the)?(?:\s+(?:fiscal\s+)?year)?[\s,]+{_PYT}",
            rf"[qh][1-4](?:\s+of)?(?:[\s\-/]*{_PFY}?{_PY4}|[\s\-/]*{_PFY}'?\d{{2}}|\s*'\d{{2}})",
            rf"[1-4][qh](?:{_PY4}|\d{{2}}|\s+{_PFY}?{_PY4}|\s*'\d{{2}})",
            rf"{_PFY}?{_PY4}[\s\-]?[qh][1-4]",
            rf"{_PFY}'?\d{{2}}[\s\-]?[qh][1-4]",
            rf"{_PMON}(?:\s+|-|\s*,\s*)(?:of\s+)?{_PY4}",
            rf"{_PMON}(?:-|\s*')\d{{2}}",
            rf"{_PY4}-(?:0[1-9]|1[0-2])(?!-?\d)",
            rf"{_PFY}'?\d{{2}}",
            rf"{_PFY}?{_PY4}",
        ]
    )
    + r")"
    + _B_R,
    re.IGNORECASE,
)
_LEAD_MAY = re.compile(r"^may\b")


def find_time_expressions(
    text: str, *, fiscal_year_start_month: int = 1
) -> list[tuple[int, int, TimeKey]]:
    """Every period named in a sentence, as (start, end, TimeKey) in reading order.

    Spans cover the period phrase itself ("third quarter of 2024", "fiscal 2023", "December 31,
    2019"), not the words around it ("in", "as of", "the"): a claim extractor that removes the
    period from a sentence keeps its grammar words. A lower-case "may" is the verb, not the month.
    A bare "LTM"/"TTM" is returned unanchored (its start, end and order key are None).
    """
    fiscal = _check_fiscal(fiscal_year_start_month)
    out: list[tuple[int, int, TimeKey]] = []
    pos = 0
    while pos < len(text):
        m = _PROSE.search(text, pos)
        if m is None:
            break
        phrase = m.group(0)
        if _LEAD_MAY.match(phrase):
            pos = m.start() + 1
            continue
        result = _parse_str(_normalise(phrase), fiscal)
        if isinstance(result, str):
            pos = m.start() + 1
            continue
        out.append((m.start(), m.end(), result))
        pos = m.end()
    return out
