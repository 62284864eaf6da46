"""One tokenizer, one stemmer and the periods a question names.

Every stage of the program route reads text through these functions: the question, a row's
path, a column's header levels. Matching a question to a table is then a matter of comparing
two bags of the same tokens, and the scorer's lexical features (`score`) are these tokens too.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

_TOKEN = re.compile(r"[a-z]+|\d+(?:\.\d+)?")
# the named vocabularies, in one data file beside this module
VOCABULARY = json.loads(Path(__file__).with_name("vocabulary.json").read_text(encoding="utf-8"))
STOP = frozenset(VOCABULARY["stop"])
DETERMINERS = frozenset(VOCABULARY["determiners"])
PREPOSITIONS = frozenset(VOCABULARY["prepositions"])
_SUFFIXES = ("ies", "es", "s", "ing", "ed")
_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})(?![\d.])")
_FY_SHORT = re.compile(r"\b(?:fy|f|fiscal\s*)'?(\d{2})\b", re.I)
# a bound the question sets on figures: "less than 150 million", "exceed $5,000", "above 10%"
_BOUND = re.compile(r"\b(less than|lower than|below|under|fewer than|more than|greater than|"
                    r"higher than|above|over|exceed(?:s|ed)?)\s*\$?\s*(\d[\d,]*(?:\.\d+)?)",
                    re.I)
_BELOW = ("less", "lower", "below", "under", "fewer")
# a bound that includes its figure: "at least 6", "at most 80", "no more than 3", "6 or more"
_BOUND_INCLUSIVE = re.compile(r"\b(?:(at least|at most|no more than|no less than|no fewer than)"
                              r"\s*,?\s*\$?\s*(\d[\d,]*(?:\.\d+)?)|\$?(\d[\d,]*(?:\.\d+)?)\s+or\s+"
                              r"(more|greater|higher|above|less|fewer|lower|below)\b)", re.I)
_AT_MOST = ("at most", "no more than")


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light suffix stemmer: plural and verb endings, so that "costs" meets "cost" and
    "liabilities" meets "liability"; numbers are left as they are. A word ending in "e" and its
    inflections stay apart ("expense" -> "expense", "expenses" -> "expens"): the linker's fuzzy
    match bridges them, and a stemmer that joined them ranked no better on the held-out halves
    of TAT-QA dev (top-1 0.633 -> 0.636 odd, 0.665 -> 0.657 even)."""
    if word.isdigit() or len(word) <= 3:
        return word
    for suf in _SUFFIXES:
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            base = word[: -len(suf)]
            if suf == "ies":
                return base + "y"
            if suf == "ed" and base.endswith("e"):
                return base
            return base
    return word


@functools.lru_cache(maxsize=1 << 16)
def singular(word: str) -> str:
    """A plural as its singular, and nothing else: "liabilities" -> "liability", "taxes" ->
    "tax", "expenses" -> "expense", "revenues" -> "revenue"; "loss", "status" and "basis" are
    left alone. The readers compare a question's words with a label's as sets, with no fuzzy
    match behind them, so their fold must keep "expense" and "expenses" one word and "notes"
    apart from "not", which `stem` does not. `stem` keeps its own endings because the shipped
    ranker was fitted on its tokens: rebuilt as this fold plus -ing/-ed, it left TAT-QA dev's
    EM and precision as they were but cost WikiTableQuestions dev 3 of 2,831 (0.369 -> 0.368)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[:-2].endswith(("x", "ch", "sh", "ss", "zz")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=1 << 16)
def tokens(text: str) -> tuple[str, ...]:
    """The stemmed tokens of a text, in order (words and numbers; case and punctuation go)."""
    return tuple(stem(t) for t in _TOKEN.findall(text.lower()))


@functools.lru_cache(maxsize=1 << 12)
def token_spans(text: str) -> tuple[tuple[int, int, str], ...]:
    """The tokens of `tokens(text)` with their character offsets in `text` (start, end,
    stemmed token): what a span of a sentence is cut along (`spans`)."""
    low = text.lower()
    if len(low) != len(text):  # a character whose lower case is longer ("İ"): offsets kept
        low = "".join(ch.lower()[:1] or ch for ch in text)
    return tuple((m.start(), m.end(), stem(m.group(0))) for m in _TOKEN.finditer(low))


# a word or a number as a text writes it ("85,269" is one number, not "85" and "269")
_WRITTEN = re.compile(r"[a-z]+|\d+(?:[,.]\d+)*")


def written(text: str) -> tuple[str, ...]:
    """The words and numbers of a text as it writes them, lower-cased and not stemmed, a
    grouped number as one: what a question says, to be found inside cells (`lists`)."""
    return tuple(_WRITTEN.findall(text.lower()))


def content(text: str) -> tuple[str, ...]:
    """Tokens that can name something in a table: no function words, no bare years."""
    return tuple(t for t in tokens(text) if t not in STOP and not _YEAR.fullmatch(t))


def years(text: str) -> tuple[int, ...]:
    """The calendar or fiscal years a text names, in order of mention, each once ("2019",
    "FY19", "fiscal 2018")."""
    found: list[tuple[int, int]] = [(m.start(), int(m.group(1))) for m in _YEAR.finditer(text)]
    found += [(m.start(), 2000 + int(m.group(1))) for m in _FY_SHORT.finditer(text)]
    out: list[int] = []
    for _, y in sorted(found):
        if y not in out:
            out.append(y)
    return tuple(out)


def bounds(text: str) -> tuple[str, ...]:
    """The conditions a question sets on figures, as `language.Program.where` writes them
    ("less than 150 million" -> "<150", "at least 6" -> ">=6"); the number as written, without
    its scale word."""
    out = []
    for m in _BOUND.finditer(text):
        if text[max(m.start() - 3, 0):m.start()].lower().strip() == "no":
            continue  # "no more than 3": an inclusive bound (`_BOUND_INCLUSIVE`)
        sign = "<" if m.group(1).split()[0].lower() in _BELOW else ">"
        out.append(sign + m.group(2).replace(",", ""))
    for m in _BOUND_INCLUSIVE.finditer(text):
        if m.group(1):
            below = m.group(1).lower() in _AT_MOST
            figure = m.group(2)
        else:
            below = m.group(4).lower() in _BELOW
            figure = m.group(3)
        out.append(("<=" if below else ">=") + figure.replace(",", ""))
    return tuple(dict.fromkeys(out))


# a bound a question sets on a year by its order in time: "before 1992", "after the year 2010",
# "since 2000" (that year included), "prior to 1850", "until 1975" (included)
_TIME_BOUND = re.compile(r"\b(before|after|since|prior to|until|till|earlier than|later than)"
                         r"\s+(?:the\s+year\s+|year\s+|the\s+)?((?:1[5-9]|20)\d{2})('?s\b)?"
                         r"(?![\d,.]*\d)", re.I)
_TIME_SIGN = {"before": "<", "prior to": "<", "earlier than": "<", "after": ">",
              "later than": ">", "since": ">=", "until": "<=", "till": "<="}


def time_bounds(text: str) -> tuple[str, ...]:
    """The conditions a question sets on years by their order in time ("before 1992" ->
    "<1992", "since 2000" -> ">=2000", "before the 1970s" -> "<1970", "after the 1980s" ->
    ">=1990"), as `bounds` writes its conditions: a list table's
    year or date column is filtered by them (`lists`; a date's figure is its year,
    `execute.CONVENTIONS["year"]`)."""
    out = []
    for m in _TIME_BOUND.finditer(text):
        sign = _TIME_SIGN[" ".join(m.group(1).lower().split())]
        year = int(m.group(2))
        if m.group(3) and year % 10 == 0:
            # a decade ("before the 1970s", "after the 1980s"): after it is from its end on,
            # until it is to its last year
            sign, year = {">": (">=", year + 10), "<=": ("<=", year + 9)}.get(sign, (sign, year))
        out.append(f"{sign}{year}")
    return tuple(dict.fromkeys(out))


# a span of figures or years a question names: "between 1992 and 2011", "from 10 to 20"
# (both ends included), a decade ("the 1970s", "the 70's", "the '90s")
_RANGE = re.compile(r"\b(?:between|from)\s+(-?\d[\d,]*(?:\.\d+)?)\s+(?:and|to|-|through)\s+"
                    r"(-?\d[\d,]*(?:\.\d+)?)(?![\d,.]*\d)", re.I)
_DECADE = re.compile(r"(?<![\w'])(?:((?:1[5-9]|20)\d)0|'?(\d)0)'?s\b", re.I)


def ranges(text: str) -> tuple[tuple[str, str], ...]:
    """The spans of figures or years a question names, each as the two conditions
    (`language.Program.where` and `and_where` over one column) its ends set: "between 1992 and
    2011" -> (">=1992", "<=2011"); a decade, "the 1970s" or "the 70's", -> (">=1970",
    "<=1979"), a two-digit decade read in the 1900s from "20s" on and in the 2000s below."""
    out = []
    for m in _RANGE.finditer(text):
        a, b = (float(g.replace(",", "")) for g in m.groups())
        lo, hi = min(a, b), max(a, b)
        if lo < hi:
            out.append((f">={lo:g}", f"<={hi:g}"))
    for m in _DECADE.finditer(text):
        if m.group(1):
            start = int(m.group(1)) * 10
        else:
            d = int(m.group(2)) * 10
            start = (1900 if d >= 20 else 2000) + d
        out.append((f">={start}", f"<={start + 9}"))
    return tuple(dict.fromkeys(out))


def year_of_period(period: str | None) -> int | None:
    """The year a canonical period key (`ingest.timekeys`) falls in: "2019", "2019-Q3",
    "2019-09-30" -> 2019."""
    if not period or len(period) < 4 or not period[:4].isdigit():
        return None
    return int(period[:4])


def year_of_text(text: str) -> int | None:
    """The one year a label names, if exactly one ("Fiscal 2019", "December 31, 2018")."""
    ys = years(text)
    return ys[0] if len(ys) == 1 else None
