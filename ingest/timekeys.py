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
2024Q1, 2024-03 and 2024-03-31 (see `TimeKey.interval`, `parse_interval`).

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
    "parse_interval",
    "parse_time_key",
    "parse_time_key_strict",
    "quarter_key",
    "year_key",
    "ymd",
]

from ingest.periods import (
    _DAY_TOP,
    _ONE_DAY,
    _UNANCHORED_LTM,
    GRAINS,
    MAX_YEAR,
    MIN_YEAR,
    TimeKey,
    _add_months,
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
_P_ENDED = _c(
    r"(?:the\s+)?(?P<kind>(?:(?:fiscal|financial)\s+)?(?:year|quarter|half(?:[\s\-]year)?)"
    r"|(?:twelve|12|three|3|six|6)\s+months)\s+end(?:ed|ing)\s+(?:on\s+)?(?P<rest>.+)"
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
        return _parse_str(_normalise(value), fiscal)
    return f"a {type(value).__name__} is not a period"


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


# --------------------------------------------------------------------------------------------
# Time constraints in questions

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
