"""How a line-item table lays out its cells, as `tableqa.py` reads them: the row and column a
cell came from, the section a repeated label sits in, what a column measures beside its period,
and the accounting brackets of a cost.

Split from `tableqa.py` to keep that module readable; the word helpers (`content`, `label`)
are `tableqa_rows.py`'s, so every table reader compares the same words.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from hyrag.answer import tableqa_rows as tr


def by_section(cs: list[dict], words: set[str], cells: list[dict],
               explained: set[str]) -> list[dict]:
    """The cells of the one row, among several a label names, whose section the question
    names. A statement's section ends in its subtotal ("Revenue: ... Total revenue", "Cost of
    revenue: ... Total cost of revenue"), so the section of a row is the first "Total ..." line
    below it; the question's words beyond the label pick the section they cover best ("cost
    of revenue of client services"), and a tie or no named section returns nothing."""

    if not words:
        return []
    rows: dict[tuple[str, int], str] = {}
    for c in cells:
        r = row(c)
        if isinstance(r, int):
            rows.setdefault((c["table_name"], r), tr.label(c))
    scored: dict[object, tuple[float, set[str]]] = {}
    for c in cs:
        r = row(c)
        if not isinstance(r, int) or r in scored:
            continue
        below = sorted(k[1] for k in rows if k[0] == c["table_name"] and k[1] > r
                       and re.match(r"\s*total\b", rows[k], re.I))
        sec = tr.content(re.sub(r"(?i)^\s*total\b", "", rows[(c["table_name"], below[0])])
                          ) if below else set()
        scored[r] = (len(sec & words) - 0.5 * len(sec - words), sec & words)
    ranked = sorted(scored.items(), key=lambda kv: -kv[1][0])
    if not ranked or ranked[0][1][0] <= 0 or (
            len(ranked) > 1 and ranked[1][1][0] == ranked[0][1][0]):
        return []
    explained |= ranked[0][1][1]
    return [c for c in cs if row(c) == ranked[0][0]]


def section_words(c: dict, cells: list[dict]) -> set[str]:
    """The words of the section a cell's row sits in — the label of the first "Total ..." line
    below it, "total" aside ("Inventory" above "Total deferred tax assets"): a question naming
    the section ("the deferred tax assets for inventory") names the row's context, not more."""

    r = row(c)
    if not isinstance(r, int):
        return set()
    below = sorted((row(x), tr.label(x)) for x in cells if x["table_name"] == c["table_name"]
                   and isinstance(row(x), int) and row(x) > r
                   and re.match(r"\s*total\b", tr.label(x), re.I))
    return tr.content(re.sub(r"(?i)^\s*total\b", "", below[0][1])) if below else set()


PERIOD_WORDS = {"ended", "ending", "end", "fiscal", "quarter", "period", "month", "week",
                "january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december", "jan", "feb", "mar", "apr",
                "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "thousand",
                "million", "billion", "usd", "eur", "gbp", "dollar", "u", "us", "nt", "restated",
                "reported", "actual", "audited", "unaudited", "full"}


def measure(c: dict, core: bool = False) -> str:
    """What a cell's column measures beyond its period: "" for a period column ("Year Ended
    December 31, 2019 (In millions)", "2 0 1 8", "July 27, 2019 (1)"), else its words ("% of
    total", "variation vs", "employees"), so a table of amounts with a variance column beside
    them is still read as a line item per row."""

    if c.get("header_period"):
        return ""
    a = c["attribute"] or ""
    if tr.content(a) == tr.content(tr.label(c)):
        return ""  # a melted wide table: the attribute repeats the line item
    return _measure(a, core)


@lru_cache(maxsize=1 << 14)
def _measure(a: str, core: bool) -> str:  # asked of every cell per question: a few columns
    notes = r"\([^)]*\)" if core else r"\(\s*[\d,\s]*\)"  # core: "(losses)" left out
    ws = {w for w in tr.content(re.sub(notes, " ", a)) if w not in PERIOD_WORDS
          and len(w) > 1}
    return " ".join(sorted(ws))


def col(c: dict) -> tuple[int, str]:
    """The source column of a cell, comparable left to right ("B" < "D" < "AA")."""
    return _col(c["locator"] or "{}")


@lru_cache(maxsize=1 << 16)
def _col(locator: str) -> tuple[int, str]:  # cells are compared many times per question
    try:
        cell = str(json.loads(locator).get("cell", ""))
    except (ValueError, AttributeError):
        return (0, "")
    letters = re.match(r"[A-Z]*", cell).group(0)
    return (len(letters), letters)


def row(c: dict) -> object:
    """The source row of a cell (its locator's "row"), so two rows one label names are told
    apart from two columns of one row."""
    return _row(c["locator"])


@lru_cache(maxsize=1 << 16)
def _row(locator: str | None) -> object:  # a locator's JSON, parsed once
    try:
        return json.loads(locator or "{}").get("row", locator)
    except (ValueError, AttributeError):
        return locator


def bracketed(c: dict) -> bool:
    """A negative amount displayed in accounting brackets, "(1,234)" or "$(1,234)"."""
    return (c["value_num"] or 0) < 0 and bool(re.match(r"^\W*\(", c["value_text"] or ""))


COST = re.compile(r"\b(?:costs?|expenses?|expenditures?|loss(?:es)?|charges?|used in|"
                  r"outflows?|allowances?|impairments?|depreciation|amortization|"
                  r"amortisation)\b", re.I)
