"""Numbers as people display them, turned into the number a reader would quote.

A claim keeps the displayed number with its sign (`value`: "(1,234)" -> -1234.0, "12.5%" ->
12.5, "$4.4 billion" -> 4.4), the scale the display used (`scale`) and the currency or unit
(`unit`); `base` multiplies the scale out for arithmetic across tables. The scale and unit of a
bare cell usually live in its column header or the table title ("Revenue (USD m)", "NOK
thousands"): `scale_hint` reads those and `ParsedNumber.with_hint` applies them.

Conventions (each a choice that avoids guessing):

- One cell alone: the decimal separator is "." and "," groups thousands ("1,234" is 1234). A
  European decimal comma is read only where no English reading exists: "1.234,56", "1 234,56",
  "12,5" (a comma followed by 1-2 or 4+ digits cannot group thousands); "1.234.567" (two dot
  groups) is 1234567. "1,234" stays 1234 and "1.234" stays 1.234.
- A column of cells: `column_decimal_mark` decides the column's decimal mark from the evidence
  of its own cells ("3,5" and "1.234,56" say ","; "1.5" and "1,234.56" say "."), and
  `parse_number(text, decimal=",")` then reads "1.613" as 1613 and "1,613" as 1.613.
- Thousands may also be grouped by spaces (plain, non-breaking, narrow) or apostrophes in a
  cell; in prose only commas and non-breaking spaces group, because "in 12 345 cases" is rare
  and "in 2023 412 nurses" is not.
- "k" / "m" / "mn" / "bn" / "b" after a number are scales ("1.2m" is 1.2 million): in a finance
  table "m" is million far more often than metre. "mm"/"MM" is million only next to a currency
  ("$5mm"), since "5 mm" is a length. "2024M03" is a month, not a number.
- "$" is USD, "€" EUR, "£" GBP, "¥" JPY (CN¥/RMB are CNY); "kr" stays "kr" because it is NOK,
  SEK, DKK or ISK and the cell does not say which.
- A trailing minus ("1,234-", SAP exports) is a negative: no other reading of that text exists.
- Parentheses make a cell negative ("(1,234)", "(12.5%)", "($1,234)"). In prose they do so only
  when the number looks like an amount (grouping, decimals, currency, scale or percent): a
  bare "(3)" in a sentence is a list or footnote marker.
- Dates, months and quarters ("2024-03-01", "03/2024", "2024Q1") are not numbers; a bare year
  ("2024") is, and `ParsedNumber.is_year` flags it.
- A footnote reference after an amount in a cell ("$130,000 (1)", "6,320,000 (a)", "1,234*")
  is not part of it: the cell is the amount. Only a one-character mark, and only after a
  figure that is unmistakably an amount (thousands grouped, or a currency) — "2019 (1)" is a
  footnoted year heading, and "12 (3)" or "1,234 (12)" could be two figures (an amount and
  its change, merged by a PDF extraction), so those are not read.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal

from ingest.timekeys import find_time_expressions, parse_time_key
from ingest.units import CURRENCY_CODES, SCALES
from ingest.units import HEADER_SCALE_WORDS as _HINT_SCALES
from ingest.units import MONTH_WORDS as _MONTH_WORDS
from ingest.units import NULLS as _NULLS
from ingest.units import PERCENT_UNITS as _PERCENT_UNITS
from ingest.units import SCALE_WORDS as _SCALE_WORDS
from ingest.units import STOP_WORDS as _STOP_WORDS
from ingest.units import SYMBOLS as _SYMBOLS
from ingest.units import UNITS as _UNITS

__all__ = [
    "CURRENCY_CODES",
    "SCALES",
    "DecimalMark",
    "ParsedNumber",
    "find_numbers",
    "column_decimal_mark",
    "decimal_vote",
    "parse_number",
    "scale_hint",
]

_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " ", "\u2007": " "})
_MINUS = str.maketrans({"\u2212": "-", "\ufe63": "-", "\uff0d": "-"})

_YEAR_TEXT = re.compile(r"\s*(?:19\d\d|20\d\d|2100)\s*")


@dataclass(frozen=True)
class ParsedNumber:
    """A displayed number: value with sign, its scale and unit, and the text it came from."""

    value: float
    scale: str
    unit: str
    text: str

    @property
    def base(self) -> float:
        """The value with its scale multiplied out (percent stays as displayed: 12.5)."""
        return self.value * SCALES[self.scale]

    @property
    def is_year(self) -> bool:
        """A bare 1900-2100 integer ("2024"): a number, but in prose more likely a period."""
        return self.scale == "" and self.unit == "" and bool(_YEAR_TEXT.fullmatch(self.text))

    @property
    def is_percent(self) -> bool:
        return self.scale == "percent"

    def with_hint(self, scale: str = "", unit: str = "") -> ParsedNumber:
        """Fill scale and unit from a header or title hint where the cell itself says nothing.

        What the cell says wins: "12%" under "Revenue (USD m)" stays a percentage.
        """
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}")
        new_scale = self.scale or scale
        new_unit = self.unit or unit
        if self.scale == "percent" or self.unit in _PERCENT_UNITS:
            new_scale, new_unit = "percent", "%"
        elif scale == "percent" and not self.scale:
            new_unit = self.unit or "%"
        return replace(self, scale=new_scale, unit=new_unit)


# --------------------------------------------------------------------------------------------
# One cell

_CUR_SYM = r"(?:us\$|a\$|au\$|c\$|ca\$|nz\$|hk\$|s\$|sg\$|r\$|cn¥|rmb|rs\.?|fr\.|kr\.?|[$€£¥₹₩₽₺])"
_CUR_CODE = r"(?:[a-z]{3})"
_NUM_CELL = (
    r"(?P<num>"
    r"(?P<g_comma>\d{1,3}(?:,\d{3})+(?:\.\d+)?)"
    r"|(?P<g_eu>\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}|\d{1,3}(?: \d{3})+,\d{1,2})"
    r"|(?P<g_space>\d{1,3}(?:[ ']\d{3})+(?:\.\d+)?)"
    r"|(?P<dec_comma>\d+,(?:\d{1,2}|\d{4,}))"
    r"|(?P<plain>\d+\.?\d*(?:e[+-]?\d+)?|\.\d+)"
    r")"
)
_SCALE_CELL = (
    r"(?P<scale>thousands?|thous\.?|millions?|mill\.?|mill|mio|mln|mil|mn|mm|billions?|bln|bn|k|m|b)"
    r"(?![a-z])"
)
_UNIT_CELL = (
    r"(?P<unit>%|per\s+cent|percent|pct|basis\s+points?|percentage\s+points?|"
    r"[a-z]+(?:/[a-z]+)?|" + _CUR_SYM + r")"
)
_CELL = re.compile(
    r"^(?P<sign0>[+-])?\s*(?P<pre0>" + _CUR_SYM + r"|" + _CUR_CODE + r")?\s*"
    r"(?P<open>\()?\s*(?P<sign1>[+-])?\s*"
    r"(?P<pre>"
    + _CUR_SYM
    + r"|"
    + _CUR_CODE
    + r")?\s*(?P<sign2>[+-])?\s*"
    + _NUM_CELL
    + r"\s*(?:"
    + _SCALE_CELL
    + r")?\s*(?:"
    + _UNIT_CELL
    + r")?\s*(?P<close>\))?\s*(?P<trail>-)?$",
    re.IGNORECASE,
)


def _currency(token: str | None) -> str | None:
    """ISO code for a currency symbol or code; None when the token is not a currency."""
    if not token:
        return None
    low = token.lower()
    if low in _SYMBOLS:
        return _SYMBOLS[low]
    up = token.upper()
    return up if up in CURRENCY_CODES else None


def _number_value(m: re.Match[str]) -> float:
    num = m.group("num")
    if m.group("g_comma"):
        return float(num.replace(",", ""))
    if m.group("g_eu"):
        return float(num.replace(".", "").replace(" ", "").replace(",", "."))
    if m.group("g_space"):
        return float(num.replace(" ", "").replace("'", ""))
    if m.group("dec_comma"):
        return float(num.replace(",", "."))
    return float(num)


def _unit_of(token: str, *, generic: bool) -> str | None:
    """Canonical unit for a word after a number; None when it cannot be one."""
    low = re.sub(r"\s+", " ", token.lower())
    if low in _UNITS:
        return _UNITS[low]
    cur = _currency(token)
    if cur:
        return cur
    if not generic:
        return None
    if len(low) < 2 or low in _MONTH_WORDS or low in _STOP_WORDS or len(low) > 20:
        return None
    return low


def _typed(value: object) -> ParsedNumber | None:
    """Numbers that arrive typed (XLSX, DataFrames): no cleaning, just range checks."""
    if isinstance(value, bool):
        return None
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        kind = getattr(getattr(value, "dtype", None), "kind", "")
        if kind not in ("i", "u", "f"):
            return None
        value = value.item()
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        value = float(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return ParsedNumber(float(value), "", "", str(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        text = str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
        return ParsedNumber(value + 0.0, "", "", text)
    return None


def decimals_shown(text: object) -> int:
    """How many decimals a figure is displayed with ("1,234.50" -> 2, "$ 27" -> 0): the unit of
    its last digit, within which a rounded line may miss the total its lines add up to."""
    m = re.search(r"\.(\d+)", str(text) if text is not None else "")
    return len(m.group(1)) if m else 0


_BETWEEN_DIGITS = re.compile(r"(?<=\d)[.,](?=\d)")


def _repeated(s: str, original: str) -> ParsedNumber | None:
    """A figure followed by itself in brackets, as some extracted report tables print a cell:
    "1.51% ( 1.51 % )", "$ 5735 ( 5735 )". The bracketed copy is the same figure again (the
    same magnitude and scale), not a negative or a second figure; anything else stays unread
    ("1,234 (12)" may be an amount and its change)."""
    if not s.endswith(")"):
        return None
    depth = 0
    for i in range(len(s) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(s[i], 0)
        if depth == 0:
            break
    else:
        return None
    head, inner = s[:i].strip(), s[i + 1 : -1].strip()
    if not head or not inner or "(" in head and ")" not in head:
        return None
    a = parse_number(head)
    b = parse_number(inner)
    if a is None or b is None or abs(a.value) != abs(b.value) or a.scale != b.scale:
        return None
    return replace(a, text=original)


# a bracketed amount with its unit after the bracket ("(35)%", "(0.5) %", "(55) bps"), as
# statements print a negative change: read as the unit inside the bracket ("(35%)"); only a
# known unit (`_UNITS`), so "(2019) Note" stays text
_UNIT_AFTER_BRACKET = re.compile(r"(?P<head>[^()]*\([^()]*\d[^()]*?)\s*\)\s*(?P<unit>%|[a-z]{1,4})",
                                 re.I)
# an amount (thousands grouped, or after a currency sign) followed by a footnote reference
_FOOTNOTED = re.compile(r"(\(?[$€£¥]?\s?\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?|\(?[$€£¥]\s?\(?\d+"
                        r"(?:\.\d+)?\)?)\s*(?:\((?:\d|[a-z])\)|\*{1,3})", re.I)


def parse_number(text: object, *, decimal: str = ".") -> ParsedNumber | None:
    """The number a cell displays, or None when the cell is not a number.

    None for blanks and placeholders ("", "-", "N/A", "n.a.", "#DIV/0!"), words, dates, months
    and quarters ("2024-03-01", "03/2024", "2024M03", "Q1 2024"), and booleans. See the module
    docstring for separators, scales, currencies and negatives.

    `decimal` is the decimal mark of the cell's column (`column_decimal_mark`): with ",",
    "1.613" is 1613, "1,5" is 1.5 and "1.234,56" is 1234.56.
    """
    if text is None:
        return None
    if not isinstance(text, str):
        return _typed(text)
    if decimal not in (".", ","):
        raise ValueError(f"decimal mark must be '.' or ',', got {decimal!r}")
    original = text
    s = re.sub(r"\s+", " ", text.translate(_SPACES).translate(_MINUS)).strip()
    if not s or s.lower() in _NULLS or not any(ch.isdigit() for ch in s):
        return None
    if decimal == "," and ("." in s or "," in s):
        # the column writes 1.234,56: swap the marks between digits and read it the one way
        s = _BETWEEN_DIGITS.sub(lambda g: "," if g.group() == "." else ".", s)
    m = _CELL.match(s)
    if m is None and (ub := _UNIT_AFTER_BRACKET.fullmatch(s)) and (
            ub.group("unit") == "%" or _unit_of(ub.group("unit"), generic=False)):
        m = _CELL.match(f"{ub.group('head')} {ub.group('unit')})")
    if m is None and (fn := _FOOTNOTED.fullmatch(s)):
        m = _CELL.match(fn.group(1))
        original = fn.group(1)  # the amount as displayed, without its footnote mark
    if m is None:
        return _repeated(s, original)  # `s` is in the one-way form already: no second swap
    signs = [g for g in (m.group("sign0"), m.group("sign1"), m.group("sign2")) if g]
    parens = bool(m.group("open")), bool(m.group("close"))
    if parens[0] != parens[1] or len(signs) > 1:
        return None
    if m.group("trail") and (signs or parens[0]):
        return None
    if m.group("pre0") and m.group("pre"):
        return None
    if m.group("sign0") and parens[0]:
        return None
    prefix = m.group("pre0") or m.group("pre")
    currency = _currency(prefix)
    if prefix and currency is None:
        return None  # "FY2024", "Q1 2024", "abc 12"

    scale_token = (m.group("scale") or "").lower()
    unit_token = m.group("unit")
    unit = ""
    if unit_token:
        u = _unit_of(unit_token, generic=True)
        if u is None:
            return None
        if u in CURRENCY_CODES or u == "kr":
            if currency and currency != u:
                return None
            currency = u
        else:
            unit = u
    if scale_token == "mm" and not currency:
        if unit_token:
            return None
        scale_token, unit = "", "mm"  # "5 mm" is a length
    if scale_token and unit and unit not in _PERCENT_UNITS and scale_token in ("m", "b"):
        # "3 m days" is not a thing people write; refuse rather than guess
        return None
    scale = _SCALE_WORDS[scale_token] if scale_token else ""
    if unit == "%":
        if scale:
            return None
        scale = "percent"
    if currency and unit:
        if unit == "%":
            return None
        # "$12 units" -> keep the currency; units after money are rare and ambiguous
        return None

    # dates and periods written with digits are not numbers ("2024.03" is a decimal though)
    if not prefix and not scale and not unit_token:
        tk = parse_time_key(s)
        if tk is not None and tk.grain != "year":
            return None

    value = _number_value(m)
    negative = bool(signs and signs[0] == "-") or parens[0] or bool(m.group("trail"))
    value = -value if negative else value
    value = value + 0.0  # -0.0 -> 0.0
    return ParsedNumber(value, scale, currency or unit, original)


# --------------------------------------------------------------------------------------------
# A column's decimal mark

# digits with "." or "," between them: the part of a cell whose separators need reading
_SEPARATED = re.compile(r"\d+(?:[.,]\d+)+")
_ONE_DOT = re.compile(r"[+-]?(\d+)\.(\d+)")


def decimal_vote(text: object) -> str | None:
    """The decimal mark one cell proves ("." or ","), or None when it reads both ways or is
    no number. See `column_decimal_mark` for the rule."""
    if not isinstance(text, str):
        return None
    if (m := _ONE_DOT.fullmatch(text)) is not None:  # "1234.56", the common case, cheaply
        head, tail = m.groups()
        return None if len(tail) == 3 and len(head) <= 3 and head[0] != "0" else "."
    for run in _SEPARATED.findall(text):
        dots, commas = run.count("."), run.count(",")
        if dots and commas:
            return "." if run.rfind(".") > run.rfind(",") else ","
        sep = "." if dots else ","
        other = "," if sep == "." else "."
        head, *groups = run.split(sep)
        if len(groups) > 1:
            if 1 <= len(head) <= 3 and all(len(g) == 3 for g in groups):
                return other  # "1.234.567": the repeated mark groups thousands
            continue  # "2024.03.01", "1.2.3": a date or a version, not a number
        if len(groups[0]) != 3 or head.startswith("0") or len(head) > 3:
            return sep  # "3,5", "2.25", "0.125", "12047.5": no thousands group reads so
    return None


@dataclass(frozen=True)
class DecimalMark:
    """The decimal mark a column's numbers are read with, and what decided it."""

    mark: str  # "." or ","
    decided: bool  # True when the column's own cells proved it; False: the fallback
    example: str | None = None  # a cell that proved it ("1.234,56")


def column_decimal_mark(values: Iterable[object], fallback: str = ".") -> DecimalMark:
    """The decimal mark of one column, from the evidence of its own cells.

    Evidence rule: a cell proves a mark only where its separators have a single reading —
    both marks in one number, the last is the decimal ("1.234,56", "1,234.56"); one mark
    repeated between 3-digit groups groups thousands, so the other is the decimal
    ("1.234.567"); one mark once, not followed by exactly three digits, or after a leading 0
    or more than three digits, is the decimal ("3,5", "2.25", "0.125", "12047,5"). A cell like
    "1.613" or "1,613" proves nothing: it reads both ways. The column takes the mark most of
    its proving cells name; with no proof (or a tie) it takes `fallback`, which the caller
    derives from the rest of the table or the file (`ingest.typed`), never from one global
    guess. Pure: the same cells always give the same mark.
    """
    cells = values if isinstance(values, list | tuple) else list(values)
    votes: Counter[str] = Counter()
    example: dict[str, str] = {}
    for i, v in enumerate(cells):
        mark = decimal_vote(v)
        if mark is not None:
            votes[mark] += 1
            example.setdefault(mark, str(v).strip())
            if abs(votes["."] - votes[","]) > len(cells) - i - 1:
                break  # the cells left cannot change the majority: the same answer, sooner
    if votes["."] != votes[","]:
        mark = "." if votes["."] > votes[","] else ","
        return DecimalMark(mark, True, example[mark])
    return DecimalMark(fallback, False)


# --------------------------------------------------------------------------------------------
# Column headers and table titles

_HINT_TOKEN = re.compile(
    r"'?000s?|[a-z]+\$|cn¥|[$€£¥₹₩₽₺%]|[a-z]+\.?|\d+",
    re.IGNORECASE,
)
_WORD_UNITS = {
    "dollars": "USD",
    "dollar": "USD",
    "euros": "EUR",
    "euro": "EUR",
    "yen": "JPY",
    "kroner": "kr",
    "kronor": "kr",
    "krone": "kr",
    "sterling": "GBP",
}
# letters glued to a currency code: "USDm", "NOKbn", "kNOK", "MNOK", "TNOK" (Norwegian "tusen")
_GLUED = re.compile(
    r"^(?P<pre>k|t|m|mn|b|bn)?(?P<code>[a-z]{3})(?P<post>k|m|mn|mm|bn|b|000)?$", re.IGNORECASE
)
# the scale letters glued to a code are a header's, and "t" is the Norwegian "tusen"
_GLUED_SCALE = _HINT_SCALES | {"t": "thousand"}
_SINGLE_LETTER_SCALES = frozenset({"k", "m", "b"})


def scale_hint(text: str | None) -> tuple[str, str]:
    """(scale, unit) that a column header or table title gives its cells.

    "Revenue (USD m)" -> ("million", "USD"); "NOK thousands" -> ("thousand", "NOK"); "in $
    millions" -> ("million", "USD"); "Amount ('000)" -> ("thousand", ""); "Margin %" ->
    ("percent", "%"); "Lead time (days)" -> ("", "days"); "Headcount" -> ("", "").
    A lone "k"/"m"/"b" counts as a scale only beside a currency ("(USD m)", "$m"); without
    one, "Height (m)" is metres and gives ("", "m").
    """
    if not text:
        return ("", "")
    s = str(text).translate(_SPACES)
    tokens = _HINT_TOKEN.findall(s)
    scale = ""
    currency = ""
    unit = ""
    single_letter = ""
    for tok in tokens:
        low = tok.lower()
        if low == "%" or low in ("percent", "pct", "percentage"):
            return ("percent", "%")
        cur = _currency(tok) if (tok.isupper() or not tok.isalpha() or low in _SYMBOLS) else None
        if low in ("us", "u.s.", "u.s"):
            continue
        if cur is None and low in _WORD_UNITS:
            cur = _WORD_UNITS[low]
        if cur:
            currency = currency or cur
            continue
        glued = _GLUED.match(tok) if tok.isalnum() and len(tok) > 3 else None
        if (
            glued
            and glued.group("code").isupper()
            and glued.group("code") in CURRENCY_CODES
            and (glued.group("pre") or glued.group("post"))
        ):
            if glued.group("pre") and glued.group("post"):
                continue
            scale = scale or _GLUED_SCALE[(glued.group("pre") or glued.group("post")).lower()]
            currency = currency or glued.group("code").upper()
            continue
        if tok.endswith("$") and tok.lower() in _SYMBOLS:
            currency = currency or _SYMBOLS[tok.lower()]
            continue
        if low in _SINGLE_LETTER_SCALES:
            single_letter = single_letter or low
            continue
        if low in _HINT_SCALES and not scale:
            scale = _HINT_SCALES[low]
            continue
        if (
            not unit
            and low in _UNITS
            and low not in ("s", "h", "t", "g", "l", "x", "year", "month")
            # a unit names the column's last word ("lead_time_days", "Weight (kg)"), not a
            # qualifier in front of another noun ("unit_price", "hours_budget")
            and tok == tokens[-1]
            # a count of it is a span the column covers, not its cells' unit: "1 to 3
            # years" and "More than 5 years" head amounts due in that time
            and not (len(tokens) > 1 and tokens[-2].isdigit())
            # an upper-case abbreviation standing alone is the column's name, not a unit
            # ("HR" in a batting table is home runs, "MIN" minutes played or a minimum)
            and not (len(tokens) == 1 and tok.isupper() and len(tok) > 1)
        ):
            unit = _UNITS[low]
    if single_letter:
        if currency or single_letter == "k":
            scale = scale or _HINT_SCALES[single_letter]
        elif single_letter == "m" and not unit:
            unit = "m"
    return (scale, currency or unit)


# --------------------------------------------------------------------------------------------
# Numbers in prose

_P_CUR = r"(?:us\$|a\$|c\$|nz\$|hk\$|s\$|r\$|[$€£¥₹₩₽₺])"
# ISO codes and "RMB" (renminbi, as Chinese reports write CNY); a code may be glued to its
# amount as reports print it ("INR19 billion", "RMB77 million")
_P_CODE = r"(?:" + "|".join(sorted(CURRENCY_CODES | {"RMB"})) + r")"
_P_UNIT_WORDS = sorted((u for u in _UNITS if len(u) > 1 or u in ("%", "x")), key=len, reverse=True)
_PROSE = re.compile(
    r"(?<![\w.,$€£¥])(?<![a-z]-)(?P<open>\()?"
    r"(?:(?P<sign0>[-+])(?=[\d.$€£¥]|" + _P_CODE + r"))?"
    r"(?:(?P<cur>" + _P_CUR + r")\s?|(?P<code>" + _P_CODE + r")\s?)?"
    r"(?P<open1>\()?"  # "£(8.1m)": the currency before the bracketed (negative) amount
    r"(?P<sign1>[-+])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[\u00a0\u202f]\d{3})+(?:\.\d+)?"
    r"|\d+(?:\.\d+)?|\.\d+)"
    r"(?:(?P<scale>k|m|b|mm)(?![a-z])|\s?(?P<scalew>thousand|million|billion|mn|bn|mln)(?![a-z]))?"
    r"(?:\s?(?P<unit>%|per\s+cent|percent|pct|"
    + "|".join(re.escape(u) for u in _P_UNIT_WORDS if u != "%")
    + r")(?![a-z])"
    r"|\s(?P<code2>" + _P_CODE + r")(?![a-z]))?"
    r"(?P<close>\))?"
    # "$(1.2) million": the scale word after the bracket of a currency's negative amount
    r"(?(open1)(?:\s?(?P<scalew2>thousand|million|billion|mn|bn|mln)(?![a-z]))?)"
    r"(?![\w%])(?![.,]\d)",
    re.IGNORECASE,
)


def find_numbers(text: str, *, include_years: bool = True) -> list[tuple[int, int, ParsedNumber]]:
    """Numeric tokens in a sentence, as (start, end, ParsedNumber) in reading order.

    Digits that are part of a period ("Q3 2024", "March 31, 2019", "FY24", "fiscal 2023") are
    not numbers; a year standing alone ("in 2024") is returned with `is_year` set, or dropped
    with `include_years=False`.
    """
    if not text:
        return []
    norm = text.translate(_MINUS)
    periods = [
        (s, e)
        for s, e, tk in find_time_expressions(norm)
        if not (tk.grain == "year" and norm[s:e].strip().isdigit())
    ]
    out: list[tuple[int, int, ParsedNumber]] = []
    for m in _PROSE.finditer(norm):
        start, end = m.start(), m.end()
        if any(start < pe and ps < end for ps, pe in periods):
            continue
        if m.group("open") and m.group("open1"):
            continue  # "((8.1))": not an amount's brackets
        open_ = bool(m.group("open") or m.group("open1"))
        close = bool(m.group("close"))
        if m.group("open1") and not close:
            continue  # "$(see note" — a bracket after a currency that never closes
        if open_ and not close:
            start += 1
        if close and not open_:
            end -= 1
        raw = m.group("num")
        value = float(raw.replace(",", "").replace("\u00a0", "").replace("\u202f", ""))
        currency = _currency(m.group("cur")) or _currency(m.group("code"))
        code2 = _currency(m.group("code2"))
        if currency and code2 and currency != code2:
            continue
        currency = currency or code2
        scale_token = (m.group("scale") or m.group("scalew") or m.group("scalew2") or ""
                       ).lower()
        if scale_token == "mm" and not currency:
            continue
        scale = _SCALE_WORDS.get(scale_token, "")
        unit = _UNITS[re.sub(r"\s+", " ", m.group("unit").lower())] if m.group("unit") else ""
        if unit == "%":
            if scale:
                continue
            scale = "percent"
        looks_amount = bool(
            currency or scale or unit == "%" or "," in raw or "." in raw or "\u00a0" in raw
        )
        negative = (m.group("sign0") or m.group("sign1") or "") == "-"
        if open_ and close:
            if looks_amount:
                negative = True
            else:  # "(3)" in prose: a marker, not a negative; the span drops the brackets
                start, end = start + 1, end - 1
        value = -value if negative else value
        number = ParsedNumber(value + 0.0, scale, currency or unit, text[start:end])
        if number.is_year and not include_years:
            continue
        out.append((start, end, number))
    return out
