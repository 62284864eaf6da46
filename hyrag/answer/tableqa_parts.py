"""The total of a line a table shows only in its current and non-current parts: "What was the
total USD denominated monetary assets as at 31 December 2019?".

A balance sheet note often splits an item by when it falls due — "Monetary assets, current"
and "Monetary assets, non-current" — and prints no line for the item as a whole. A question
asking for the *total* of the item names neither part; an analyst adds the two, since current
and non-current are by definition the whole of it. This reader does, only where that reading
is the one meant:

- the question says "total", names one year and asks for a figure (no change, average or
  ratio); it names the item's every word and neither part ("current", "non-current");
- the table has the two lines "<item>, current" and "<item>, non-current" (or "Current
  <item>" and "Non-current <item>"), and no line of the item's own (nor "Total <item>"),
  which would be the line-item reader's;
- the figures are those of the year the question names (a period column, or the period
  heading the lines sit under: "As at 31 December 2019"), in the one column that holds both
  parts — or, with several ("USD denominated | Non-USD denominated"), the one the question
  names most fully; any doubt left, it declines;
- a liability or a cost shown in brackets in both parts ("(14,732)", "(5,739)") is an amount
  the statement deducts: its total is the size, 20,471, as the analyst states it. Other lines
  bracketed in both parts are not guessed at.

The sum is recorded as a derivation over the committed cells, so the ReverseVerifier
re-computes it.
"""

from __future__ import annotations

import re

from hyrag.answer import tablelines
from hyrag.answer import tableqa_layout as layout
from hyrag.answer import tableqa_read as read
from hyrag.answer import tableqa_rows as tr
from hyrag.answer.tools import fmt

_PART = r"(?P<part>non[- ]?current|current)"
_SUFFIX = re.compile(rf"^(?P<base>.+?)\s*[,–—-]\s*{_PART}\s*$", re.I)
_PREFIX = re.compile(rf"^{_PART}\s+(?P<base>.+)$", re.I)
_ASKS_PART = re.compile(r"\b(?:non[- ]?)?current\b", re.I)
_DEDUCTED = re.compile(rf"{layout.COST.pattern}|\bliabilit(?:y|ies)\b", re.I)
# words of a column header that state its unit, not what it measures ("RMB'Million")
_UNIT_WORDS = {"rmb", "usd", "million", "thousand", "billion", "m", "000", "rmbmillion"}


def _split(label: str) -> tuple[str, bool] | None:
    """(the item, is it the non-current part) of a part's label, or None."""
    m = _SUFFIX.match(label) or _PREFIX.match(label)
    if not m:
        return None
    return m.group("base").strip(), m.group("part").lower().startswith("non")


def resolve(question: str, con):  # a tableops.TableResolved or None
    """The current and non-current parts of the item the question totals, added up, or None
    (see the module)."""
    years = read.years(question)
    if len(years) != 1 or not re.search(r"\btotal\b", question, re.I) or \
            _ASKS_PART.search(question) or read.operation(question, "", 1) != "lookup":
        return None
    q = tr.content(question)
    cells = [c for c in tr.read_cells(con) if tr.year_of(c) == years[0]]
    labels = {tr.label(c) for c in cells}
    items: dict[tuple[str, str], dict[bool, str]] = {}
    for c in cells:
        lab = tr.label(c)
        sp = _split(lab)
        if sp and tr.content(sp[0]) and tr.content(sp[0]) <= q:
            items.setdefault((c["table_name"], sp[0].lower()), {})[sp[1]] = lab
    items = {k: v for k, v in items.items() if len(v) == 2}
    if len(items) != 1:
        return None
    (table, base), parts = next(iter(items.items()))
    whole = tr.content(base)
    if any(tr.content(lab) in (whole, whole | {"total"}) for lab in labels):
        return None  # the item has a line of its own
    by_col: dict[str, dict[bool, dict]] = {}
    for c in cells:
        if c["table_name"] != table:
            continue
        col = tr.column_header(c)
        for nc, lab in parts.items():
            if tr.label(c) == lab and nc not in by_col.setdefault(col, {}):
                by_col[col][nc] = c
    cols = [col for col, pc in by_col.items() if len(pc) == 2]
    col = _named_column(cols, q)
    if col is None:
        return None
    pair = [by_col[col][False], by_col[col][True]]
    if tr.scale(pair[0]) != tr.scale(pair[1]):
        return None
    size = all(c["value_num"] < 0 for c in pair)
    if size and not (all(layout.bracketed(c) for c in pair) and _DEDUCTED.search(base)):
        return None  # a negative item that is no deduction: its total's sign is not known
    b = tablelines.Builder()
    refs, d = b.sum(pair, years[0], f"part of {base}", [
        abs(float(c["value_num"])) if size else float(c["value_num"]) for c in pair])
    total = d.result
    return b.done("sum", total, f"The current and non-current parts of {base} add up to "
                  f"{fmt(total)} {''.join(f'[{r}]' for r in refs)}.", d, scale=tr.scale(pair[0]))


def _named_column(cols: list[str], q: set[str]) -> str | None:
    """The one column holding both parts, or among several the one whose every word (its
    unit aside) the question names and which names the most of them; None when in doubt."""
    if len(cols) == 1:
        return cols[0]
    named = [(len(w), col) for col in cols
             if (w := tr.content(col) - _UNIT_WORDS) and w <= q]
    named.sort(reverse=True)
    if not named or len(named) > 1 and named[0][0] == named[1][0]:
        return None
    return named[0][1]
