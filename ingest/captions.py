"""Scale declarations in captions: "(in thousands)", "(dollars in millions, except per share
data)", "amounts are presented in thousands of euros", "(€m)", "($'000)".

A report states the scale of a table once, in the sentence that introduces it ("Other assets
consist of the following (in thousands):") or in a title above it; the cells themselves show
"5,687". Without that scale every amount is off by a factor of a thousand or a million, and a
sum across tables with different scales is meaningless. `scale_hint` (numbers.py) reads a
column header, where every token is about the column; a caption is prose and may also quote an
amount ("net sales of $1.2 billion ... (in thousands)") or a percentage, so this reader accepts
only a *declaration*: a scale word after "in" inside parentheses, after "amounts / figures /
dollars ... in", or a bare currency-scale marker in parentheses. Anything else gives "".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ingest.units import MAGNITUDES, SCALE_WORDS, SCALES

_CUR = (r"(?:[$€£¥]|us\s?\$|a\$|c\$|hk\$|s\$|nt\$|r\$|usd|eur|gbp|jpy|cad|aud|chf|cny|rmb|"
        r"inr|sek|nok|dkk|(?:u\.?s\.?\s+)?dollars?|euros?|pounds?|sterling|yen|yuan|francs?|"
        r"kronor|krona|rupees?)")
# "(in thousands)", "(dollars in millions, except per share data)", "(In thousands of USD)"
_PAREN = re.compile(rf"\(\s*(?:[^()]{{0,40}}?\s)?in\s+(?:{_CUR}\s*)?"
                    r"(thousands?|millions?|billions?)\b[^()]{0,80}\)", re.I)
# "amounts are presented in thousands", "all figures in millions of euros", "dollars in
# thousands" — a noun of amounts before "in" keeps "growth in millions of users" out
_PHRASE = re.compile(rf"\b(?:amounts?|figures|values|numbers|dollars|euros|data|{_CUR})\s+"
                     r"(?:(?:are|is|were|have been|has been)\s+)?(?:(?:expressed|presented|"
                     r"stated|shown|reported|given|denominated)\s+)?in\s+(?:[$€£]\s*)?"
                     r"(thousands|millions|billions)\b", re.I)
_OF = re.compile(rf"\bin\s+(thousands|millions|billions)\s+of\s+{_CUR}", re.I)
# "($'000)", "(RMB'000)", "(in $000s)", "(in 000's)", "(€m)", "($ in m)", "(US$ million)"
_MARK = re.compile(rf"\(\s*(?:in\s+)?{_CUR}?\s*(?:in\s+)?(?:(?P<k>[’']?000[’']?s?)|"
                   rf"(?P<m>m|mn|mm|million)|(?P<b>bn|billion))\s*\)", re.I)
# "Expressed in US $000's", "amounts in $'000"
_IN_K = re.compile(rf"\b(?:expressed|presented|stated|shown|reported|amounts?|figures)\s+in\s+"
                   rf"(?:{_CUR}\s*)+[’']?000[’']?s?(?![\d,])", re.I)


def scale_declaration(text: str | None) -> tuple[str, str]:
    """(scale, the declaring phrase) of a caption: ("thousand", "(in thousands)"), or ("", "")
    when the text declares none. The phrase alone can title a table whose caption is a whole
    sentence, so the sentence's other words do not become the table's subject."""
    if not text:
        return ("", "")
    s = str(text).replace("\u00a0", " ")
    for rx in (_PAREN, _PHRASE, _OF):
        m = rx.search(s)
        if m:
            return (SCALE_WORDS[m.group(1).lower()], m.group(0).strip())
    if _IN_K.search(s):
        return ("thousand", _IN_K.search(s).group(0).strip())  # type: ignore[union-attr]
    m = _MARK.search(s)
    if m:
        return ("thousand" if m.group("k") else "million" if m.group("m") else "billion",
                m.group(0).strip())
    return ("", "")


def caption_scale(text: str | None) -> str:
    """The scale a caption or title declares for its table's amounts: "" | thousand | million
    | billion. Amounts quoted in the prose ("revenue of $1.2 billion") are not declarations."""
    return scale_declaration(text)[0]


# -- a scale the report's own prose implies ---------------------------------------------------
# the scales a table's cells may be in, none first
_MULT = {s: SCALES[s] for s in ("", *MAGNITUDES)}
# "$24.2 million", "€1.3bn", "RMB77 million", "S$118 m": a currency, an amount, a scale word
_QUOTED = re.compile(rf"{_CUR}\s?(\d[\d,]*(?:\.\d+)?)\s?(thousand|million|billion|bn|mn|m)\b",
                     re.I)
_YEARLIKE = re.compile(r"(?:19|20)\d\d")
# A cell below this is too small to identify a scale by rounding: "4" matches "$4 million"
# under millions and "$4.0 billion" under... anything. A prose amount needs 2+ significant digits.
MIN_CELL = 100.0


def _quoted_amounts(texts: Iterable[str]) -> list[tuple[float, int, str]]:
    out = []
    for t in texts:
        for m in _QUOTED.finditer(str(t or "").replace("\u00a0", " ")):
            num = m.group(1).replace(",", "")
            if _YEARLIKE.fullmatch(num):
                continue
            word = m.group(2).lower()
            scale = SCALE_WORDS[word]
            dec = len(num.split(".")[1]) if "." in num else 0
            digits = num.replace(".", "").lstrip("0")
            if len(digits) >= 2:
                out.append((float(num), dec, scale))
    return out


def scale_from_prose(cells: Iterable[float], texts: Iterable[str]) -> str | None:
    """The scale a table's amounts must carry for the report's prose to quote them: "net
    income of $24.2 million" beside a cell 24,193 says the table is in thousands, as a reader
    infers when the caption states no scale. Each quoted amount ("$24.2 million": 24.2 at one
    decimal, millions) votes for every scale under which some cell, rounded as the prose
    rounds it, equals it; the scale with the most distinct quoted amounts wins, "" (units)
    included. No vote, or a tie, gives None — the table keeps no scale rather than a guess.
    Only amounts with a scale word vote ("$1,234" alone says nothing about a table in
    thousands), and only cells >= MIN_CELL (small figures match by chance)."""
    vals = sorted({abs(float(v)) for v in cells if v is not None and abs(float(v)) >= MIN_CELL})
    if not vals:
        return None
    votes: dict[str, set[float]] = {}
    for amount, dec, word in _quoted_amounts(texts):
        for scale, mult in _MULT.items():
            if any(round(v * mult / _MULT[word], dec) == amount for v in vals):
                votes.setdefault(scale, set()).add(amount)
    ranked = sorted(((len(a), sc) for sc, a in votes.items()), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


def prose_scale(paragraphs: Iterable[str], cells: Iterable[float]) -> tuple[str, str]:
    """(scale, how it was found) that a report's prose gives its table: the one scale its
    paragraphs declare ("Other assets consist of the following (in thousands):"); paragraphs
    declaring different scales leave the table without one (which one is the table's is not
    knowable). With no declaration, the scale under which the prose quotes the table's own
    cells (`scale_from_prose`). ("", "") when the prose says nothing."""
    texts = [str(p) for p in paragraphs]
    found = {scale_declaration(p)[0] for p in texts} - {""}
    if len(found) == 1:
        return found.pop(), "declared in the prose"
    if found:
        return "", ""
    inferred = scale_from_prose(cells, texts)
    return (inferred, "inferred from the prose, which quotes this table's amounts at that "
            "scale") if inferred else ("", "")


def subject_from_title(title: str | None) -> str | None:
    """'Northwind Traders — Income statement (USD thousands)' -> 'Northwind Traders'. A scale
    declaration is not part of the subject: "Results (in thousands, except per share data)"
    names none (its comma is the declaration's)."""
    if not title:
        return None
    phrase = scale_declaration(title)[1]
    title = title.replace(phrase, " ").strip() if phrase else title
    for sep in (" — ", " – ", " - ", ":", ","):
        if sep in title:
            head = title.split(sep, 1)[0].strip()
            if head:
                return head
    return None


_TITLE_YEAR = re.compile(r"(?<![\d/-])((?:19|20)\d{2})(?![\d/-])")


def title_year(title: str) -> str:
    """The one year a table's title ends with ("Common Stock Price Range 2018", "As of March
    29, 2019 (in millions)"), or "": a year inside a name ("Fiscal 2017 Restructuring Plan")
    names the thing, not the period of its figures, and a title naming two years, or a span
    ("2018/19", "2017-2019"), dates no cell. Scale notes and currency marks aside."""
    t = re.sub(r"\([^)]*\)|[$€£¥]\S*|\b(?:in\s+)?(?:thousands?|millions?|billions?)\b", " ",
               title or "", flags=re.I).strip(" ,:")
    ys = set(_TITLE_YEAR.findall(t))
    if len(ys) != 1 or re.search(r"(?:19|20)\d{2}\s*[/–-]", t) or not t.endswith(next(iter(ys))):
        return ""
    return ys.pop()
