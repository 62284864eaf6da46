"""How a line-item table lays out its cells, as `tableqa.py` reads them: the row and column a
cell came from, the section a repeated label sits in, what a column measures beside its period,
the column groups a question names, the lines it names alike, and the accounting brackets of a
cost.

Split from `tableqa.py` to keep that module readable; the word helpers (`content`, `label`)
are `tableqa_rows.py`'s, so every table reader compares the same words.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from hyrag.answer.readers import tableqa_rows as tr


def by_section(cs: list[dict], words: set[str], cells: list[dict],
               explained: set[str]) -> list[dict]:
    """The cells of the one row, among several a label names, whose section the question
    names (`section_words`: the heading the row sits under, else the subtotal that closes
    it); the question's words beyond the label pick the section they cover best ("cost of
    revenue of client services"), and a tie or no named section returns nothing."""

    if not words:
        return []
    scored: dict[object, tuple[float, set[str]]] = {}
    for c in cs:
        r = row(c)
        if not isinstance(r, int) or r in scored:
            continue
        sec = section_words(c, cells)
        scored[r] = (len(sec & words) - 0.5 * len(sec - words), sec & words)
    ranked = sorted(scored.items(), key=lambda kv: -kv[1][0])
    if not ranked:
        return []
    if ranked[0][1][0] <= 0 or (len(ranked) > 1 and ranked[1][1][0] == ranked[0][1][0]):
        # no section the words cover best: still, when every row sits under a recorded
        # heading and the words name one heading only ("the global number of Hindi films":
        # "Global (India and International)" beside "India Only"), that is the one meant — a
        # subtotal below a row is no heading it sits under, and does not count here
        named = [kv for kv in ranked if kv[1][1]]
        if len(named) != 1 or not all(heading(c) for c in cs):
            return []
        ranked = named
    explained |= ranked[0][1][1]
    return [c for c in cs if row(c) == ranked[0][0]]


heading = tr.heading  # the recorded section heading of a cell's row


def section_words(c: dict, cells: list[dict]) -> set[str]:
    """The words of the section a cell's row sits under: the heading above it that
    ingestion recorded ("Amounts falling due within one year", `ingest.sections`), else the
    label of the first "Total ..." line below it, "total" aside ("Inventory" above "Total
    deferred tax assets"): a question naming the section ("the deferred tax assets for
    inventory") names the row's context, not more."""

    if heading(c):
        return tr.content(heading(c))
    r = row(c)
    if not isinstance(r, int):
        return set()
    below = sorted((row(x), tr.label(x)) for x in cells if x["table_name"] == c["table_name"]
                   and isinstance(row(x), int) and row(x) > r
                   and re.match(r"\s*total\b", tr.label(x), re.I))
    return tr.content(re.sub(r"(?i)^\s*total\b", "", below[0][1])) if below else set()


def other_section(used: list[dict], q: set[str], cells: list[dict]) -> bool:
    """Whether the question names a sibling of the heading the read rows sit under: another
    recorded heading of their table, every word of it in the question, that shares a word
    with the rows' own heading and says more than it and their labels ("non-current loans"
    read from the "Loans" line under "Current:"; "deferred costs falling due within one year"
    from the line under "falling due after one year"). It asks for the other section's line,
    which the table does not hold under that label. A heading sharing no word with the rows'
    own may be one they are nested in ("Revenue:" above "Services:"), and is no objection."""

    own = {w for c in used for w in tr.content(heading(c))}
    said = own | {w for c in used for w in tr.content(tr.label(c))}
    tables = {c["table_name"] for c in used}
    for h in {heading(x) for x in cells if x["table_name"] in tables} - {""}:
        ws = tr.content(h)
        if ws and ws <= q and ws & own and ws - said:
            return True
    return False


def heading_as_line(used: list[dict]) -> bool:
    """Whether one read line is named only by words that are the heading another read line
    sits under, while it sits under a heading of its own: "continuing operations in diluted
    earnings per share" reads "Continuing operations" under the heading "Diluted earnings per
    share", and a "Diluted earnings per share" line elsewhere in the table (under "Weighted
    average number of shares") is not what those words name — the heading's own total may be.
    Which figure is meant is not clear; the reader does not guess."""

    for a in used:
        ha = heading(a)
        if not ha:
            continue
        for b in used:
            hb, lb = heading(b), tr.content(tr.label(b))
            if hb and hb != ha and lb and lb <= tr.content(ha):
                return True
    return False


def under_named_heading(ranked: list[tuple[float, str]], cells: list[dict],
                        q: set[str]) -> list[tuple[float, str]]:
    """The labels a question names, best first, with a line the question quotes *under its
    heading* put before the line whose name is that heading: "continuing operations in diluted
    earnings per share" is the "Continuing operations" line under "Diluted earnings per share
    (cents)", not the "Diluted earnings per share" line with "continuing operations" left
    over — the reading that explains every word the question uses."""

    if len(ranked) < 2:
        return ranked
    named = {lab for _, lab in ranked}
    heads: dict[str, set[str]] = {}  # label -> the headings its rows sit under
    for c in cells:
        if (lab := tr.label(c)) in named and heading(c):
            heads.setdefault(lab, set()).add(heading(c))
    tied = [lab for sc, lab in ranked if sc == ranked[0][0]]
    if len(tied) > 1:
        # labels the question names equally well (one line written two ways, "Other" and
        # "Other (1)", under two headings): the one whose heading the question names
        hits = {lab: max((len(tr.content(h) & q) for h in heads.get(lab, ())), default=0)
                for lab in tied}
        best = max(hits.values())
        if best and sum(1 for v in hits.values() if v == best) == 1:
            win = next(lab for lab in tied if hits[lab] == best)
            ranked = sorted(ranked, key=lambda x: x[1] != win)
    top = tr.content(ranked[0][1])
    for i, (sc, lab) in enumerate(ranked[1:], 1):
        if sc < 2.0 or tr.content(lab) == top:
            continue  # only a line the question quotes in full; one named as the top line
            # is that line written another way, which the headings above already decided
        if any(top <= tr.content(x) for x in heads.get(lab, ())):
            return [ranked[i], *ranked[:i], *ranked[i + 1:]]
    return ranked


PERIOD_WORDS = {"ended", "ending", "end", "fiscal", "quarter", "period", "month", "week",
                "january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december", "jan", "feb", "mar", "apr",
                "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "thousand",
                "million", "billion", "usd", "eur", "gbp", "rmb", "cny", "hkd", "aud", "cad", "sgd",
                "jpy", "chf", "inr", "dollar", "u", "us", "nt", "restated",
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


def other_group(used: list[dict], groups: set[frozenset], q: set[str],
                cells: list[dict]) -> bool:
    """Whether the question names a column group of the read cells' table other than the one
    they were read under: of the groups whose words the question uses, beyond the words of
    the read lines' labels, the one it names most fully ("non-USD denominated" over "USD
    denominated") must be theirs. A line with a figure in one group only ("Monetary assets,
    non-current": 373 under "USD denominated", "–" under "Non-USD denominated") otherwise
    answers a question about the other group with it."""
    tables = {c["table_name"] for c in used}
    said = {w for c in used for w in tr.content(tr.label(c))}
    named = {frozenset(g) for x in cells if x["table_name"] in tables
             if (g := set(measure(x, core=True).split())) and g <= q and g - said}
    if not named:
        return False
    most = {g for g in named if not any(g < o for o in named)}
    return not groups <= most


def named_column(c: dict) -> bool:
    """Whether a cell's column header names something beyond its period and notes: "Amount"
    under "2018" does ("2018 Amount | 2018 % of total revenue"), "(1)" or the bare period of
    a melted column does not. Only a column naming nothing of its own can belong to the group
    heading to its left ("Net additions (losses) Aug 31, 2019 | Aug 31, 2018 (1)")."""
    if c.get("header_period"):
        return False
    a = c["attribute"] or ""
    if tr.content(a) == tr.content(tr.label(c)):
        return False
    return any(w not in PERIOD_WORDS and not w.isdigit() for w in tr.words(a))


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


def tied_lines(ranked: list[tuple[float, str]], q: set[str]) -> bool:
    """Whether the two lines the question names best are named equally well and neither in
    full ("the IFRS9 opening balance" of "Opening balance – IAS 39" and "Opening balance –
    IFRS 9"): which one is meant is not said."""
    return len(ranked) >= 2 and ranked[0][0] == ranked[1][0] and not any(
        tr.content(lab) <= q for _, lab in ranked[:2])


def group_words(groups: frozenset, q: set[str], question: str) -> set[str]:
    """The words, each said once, of the one column group (`layout.measure`) the question
    names most fully: of "USD denominated" and "Non-USD denominated", "non-USD denominated
    current monetary assets" names the second in full; its "non" is then the column's."""
    named = [g for g in groups if g <= q]
    most = [g for g in named if not any(g < o for o in named)]
    if len(most) != 1:
        return set()
    said = [tr.stem(w) for w in tr.words(question)]
    return {w for w in most[0] if said.count(w) == 1}


def split_line(label: str, q: set[str], cells: list[dict]) -> bool:
    """Whether a total the question asks for ("the total monetary assets") names a line only
    in part ("Monetary assets, current") while another line of its table holds the same
    words ("Monetary assets, non-current"): the total is theirs together, which no one
    line states."""
    own = tr.content(label)
    hit = own & q
    if not hit or own <= q:
        return False
    tables = {c["table_name"] for c in cells if tr.label(c) == label}
    return any(tr.label(c) != label and hit <= tr.content(tr.label(c)) for c in cells
               if c["table_name"] in tables)


def share_column(attribute: str, value_text: str = "") -> bool:
    """A percentage column ("% of total revenue", or its cells "45%"): named by the question
    only when it asks for a percentage or says a word of the column the line's label does not
    ("the average total cost of revenue" is the line's amount, not its share of revenue)."""
    a = attribute or ""
    return "%" in a or "percent" in a.lower() or "%" in (value_text or "")


def word_said_once_for_two(read: list[tuple[dict, str]], question: str,
                           cells: list[dict]) -> bool:
    """Whether a word said once serves both a read cell's line and its column group, while
    without it the line would be another line of the table: "non-USD denominated monetary
    liabilities" read from "Monetary liabilities, non-current" under "Non-USD denominated"
    ("Monetary liabilities, current" is the line without that "non"). Which one it names is
    not said. A line whose words the group repeats ("Cash dividends" under "Cash dividend per
    share") is no other line without them."""
    said = [tr.stem(w) for w in tr.words(question)]
    for c, group in read:
        own = tr.content(tr.label(c))
        both = {w for w in own & set(group.split()) if said.count(w) < 2}
        if both and any(tr.content(tr.label(x)) == own - both for x in cells
                        if x["table_name"] == c["table_name"]):
            return True
    return False
