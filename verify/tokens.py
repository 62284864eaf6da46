"""Numeric tokens of a text: the small tokenizer the ReverseVerifier owns.

`verify/` imports neither `hyrag` nor `ingest` (DESIGN.md, "Layout"), so it carries its own
tokenizer instead of `ingest.numbers` — deliberately small: the verifier reads *drafts* (text the
engine wrote) and evidence sentences, not messy spreadsheets. Evidence values that ingestion
already parsed are passed in as numbers (`Evidence.value`, `Evidence.scale`) and are not
re-parsed. Recognised: integers, decimals, thousands separators, a sign or parentheses for
negatives ("(620.0)"), currency symbols and codes before or after ($, €, £, NOK, USD),
percentages ("13.1%", "13.1 percent"), scale words and suffixes ("4.4 billion", "$3m", "2bn",
"12k"), and years (a four-digit integer 1900-2100 written without separators). Citation markers
("[3]") and digits inside identifiers or period codes ("Q1", "E1005", "2024Q1", "FY24") are not
numbers; period codes are reported as `codes`, checked verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SCALES = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
          "percent": 1.0}
_SUFFIX = {"k": "thousand", "thousand": "thousand", "thousands": "thousand", "m": "million",
           "mn": "million", "mm": "million", "million": "million", "millions": "million",
           "b": "billion", "bn": "billion", "billion": "billion", "billions": "billion",
           "trillion": "trillion", "tn": "trillion"}
_CITE = re.compile(r"\[\d+\]")
_CODE = re.compile(r"(?<![\w.])(?:\d{4}(?:Q[1-4]|H[12])|(?:Q[1-4]|H[12]|FY)\s?'?\d{2,4}|"
                   r"\d{4}-\d{2}(?:-\d{2})?)(?![\w])", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = (r"(?P<{g}>(?:january|february|march|april|may|june|july|august|september|october|"
          r"november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?)")
# a date written out ("January 31, 2018", "31 December 2019", "Sept. 30, 2019"): its day is
# part of the date, not a quantity — checked as the period it names (2018-01-31)
_DATE = re.compile(
    r"(?<![\w.])(?:" + _MONTH.format(g="m1") + r"\s+(?P<d1>[0-3]?\d),?\s+(?P<y1>(?:19|20)\d{2})"
    r"|(?P<d2>[0-3]?\d)\s+" + _MONTH.format(g="m2") + r",?\s+(?P<y2>(?:19|20)\d{2}))(?![\w])",
    re.I)
_NUM = re.compile(
    r"(?<![\w.\-])(?P<open>\()?(?P<sign>[-−–+])?\s?(?P<cur>[$€£¥]|(?:USD|EUR|GBP|NOK|SEK|DKK)\s?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<close>\))?"
    r"(?:\s?(?P<pct>%|percent\b|per cent\b|pct\b))?"
    r"(?:\s?(?P<scale>thousands?|millions?|billions?|trillion|bn|mn|mm|tn|[kmb])(?![a-z]))?",
    re.I)


@dataclass(frozen=True)
class Token:
    text: str  # as written ("$4.4 billion", "(620.0)", "13.1%")
    value: float  # signed number as written, without scale (4.4, -620.0, 13.1)
    scale: str  # "" | thousand | million | billion | trillion | percent
    decimals: int  # digits after the decimal point as written
    start: int
    end: int
    year: bool = False  # a four-digit integer that reads as a year
    currency: str = ""

    @property
    def base(self) -> float:
        """The value times its scale's multiplier (percent stays as is)."""
        return self.value * SCALES.get(self.scale, 1.0)

    @property
    def half_unit(self) -> float:
        """Half a unit of the last written digit: the rounding a reader allows."""
        return 0.5 * 10 ** -self.decimals


def numbers(text: str) -> list[Token]:
    """Every numeric token of `text`, in order (citation markers and period codes skipped)."""
    text = text or ""
    blank = _CITE.sub(lambda m: " " * len(m.group(0)), text)
    blank = _CODE.sub(lambda m: " " * len(m.group(0)), blank)
    blank = _DATE.sub(lambda m: " " * len(m.group(0)) if _iso(m) else m.group(0), blank)
    out: list[Token] = []
    for m in _NUM.finditer(blank):
        raw = m.group("num")
        nxt = blank[m.end("num"):m.end("num") + 1]
        if nxt and (nxt.isalpha() and not m.group("scale") and not m.group("pct")):
            continue  # "3rd", "10x", "5G": not a quantity
        v = float(raw.replace(",", ""))
        neg = bool(m.group("sign") and m.group("sign") in "-−–") or bool(
            m.group("open") and m.group("close"))
        scale = ""
        if m.group("pct"):
            scale = "percent"
        elif m.group("scale"):
            scale = _SUFFIX.get(m.group("scale").lower(), "")
        dec = len(raw.split(".")[1]) if "." in raw else 0
        year = (not scale and "," not in raw and dec == 0 and len(raw) == 4
                and 1900 <= v <= 2100 and not m.group("cur") and not neg)
        s, e = m.start(), m.end()
        if m.group("open") and not m.group("close"):
            s += 1
        if m.group("close") and not m.group("open"):
            e = m.end("close") - 1 if not (m.group("pct") or m.group("scale")) else e
        out.append(Token(text[s:e].strip(), -v if neg else v, scale, dec, s, e, year,
                         (m.group("cur") or "").strip()))
    return out


def codes(text: str) -> list[str]:
    """Period codes and dates written in `text` ("2024Q1", "FY24", "2024-03-31"); a date written
    out ("January 31, 2018") is reported as the ISO date it names ("2018-01-31")."""
    t = _CITE.sub(" ", text or "")
    return [m.group(0) for m in _CODE.finditer(t)] + [
        iso for m in _DATE.finditer(t) if (iso := _iso(m))]


def date_stated(iso: str, blob: str) -> bool:
    """Whether the evidence text `blob` (lower case) states the ISO date a draft wrote out: the
    date itself, or its year together with its day and month as a label says them ("Outstanding
    at 1 April" in the column 2019: the draft's "1 April 2019")."""
    if iso in blob:
        return True
    if not re.fullmatch(r"(?:19|20)\d{2}-[01]\d-[0-3]\d", iso) or not 1 <= int(iso[5:7]) <= 12:
        return False
    y, mo, d = iso.split("-")
    month = _MONTHS[int(mo) - 1]
    day = str(int(d))
    return y in blob and bool(re.search(
        rf"(?<!\d){day}(?:st|nd|rd|th)?\s+{month}|{month}[a-z]*\.?\s+{day}(?!\d)", blob))


def _iso(m: re.Match) -> str:
    """The ISO date a written-out date names, or "" when it names none ("May 40, 2018")."""
    month = (m.group("m1") or m.group("m2") or "")[:3].lower()
    day, year = int(m.group("d1") or m.group("d2")), m.group("y1") or m.group("y2")
    if month not in _MONTHS or not 1 <= day <= 31:
        return ""
    return f"{year}-{_MONTHS.index(month) + 1:02d}-{day:02d}"


def sentences(text: str) -> list[str]:
    """Sentences of a draft (a full stop followed by a space and a capital or a bracket)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z(\[\"'])", (text or "").strip())
    return [p.strip() for p in parts if p.strip()]
