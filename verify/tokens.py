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
    """Period codes and dates written in `text` ("2024Q1", "FY24", "2024-03-31")."""
    return [m.group(0) for m in _CODE.finditer(_CITE.sub(" ", text or ""))]


def sentences(text: str) -> list[str]:
    """Sentences of a draft (a full stop followed by a space and a capital or a bracket)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z(\[\"'])", (text or "").strip())
    return [p.strip() for p in parts if p.strip()]
