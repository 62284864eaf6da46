"""Tables of changes: columns that each state a line's change between two years.

A report may print only the year-on-year changes of its lines ("Change between fiscal
2019 and 2018 | 2018 and 2017"). Such a column's cells carry one year (the loader keeps the
last one its header names) though they compare two, so a reader of a line across periods
sees "2018" and "2017" where the question asks about 2017 to 2019. An analyst reads them as
consecutive steps:

- the change over a span is the sum of the steps that chain across it ("the total change
  in G&A expenses from 2017 to 2019": 2,682 + 34,874);
- the average annual change over the span is their mean;
- "the difference in the increase in 2019 and 2018 as compared to 2018 and 2017" is the later
  step less the earlier one.

The reader answers only where every figure of the line asked is such a step, the steps
chain over exactly the years the question names, and the line is the one the question names
(ranked first alone).
"""

from __future__ import annotations

import re

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.readers import tablelines
from hyrag.answer.readers import tableqa_layout as layout
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr

# a column header naming the first year of a comparison, its cell keyed by the second:
# "2019 and" / "2019 over" / "2019 vs" above "2018"
_STEP = re.compile(r"\b((?:19|20)\d{2})\s+(?:and|over|vs\.?|versus|compared\s+(?:to|with))\s*$",
                   re.I)
_AVERAGE = re.compile(r"\baverage\b|\bmean\b", re.I)
_COMPARED = re.compile(r"\bas\s+compared\s+to\b|\bcompared\s+(?:to|with)\b|\bversus\b", re.I)
_CHANGE = re.compile(r"\bchange|\bincrease|\bdecrease|\bgrowth\b", re.I)


def _step(c: dict) -> tuple[int, int] | None:
    """(earlier, later) year of a change column's cell, or None."""
    m = _STEP.search(c["attribute"] or "")
    y = tr.year_of(c)
    if m is None or y is None or int(m.group(1)) == y:
        return None
    a, b = sorted((int(m.group(1)), y))
    return (a, b) if b - a == 1 else None


def resolve(question: str, con):
    """A `link.reading.Resolved`-shaped sum, mean or difference of a line's stated changes."""
    if not _CHANGE.search(question):
        return None
    ys = sorted(set(read.years(question)))
    if len(ys) < 2:
        return None
    rows: dict[tuple, list[dict]] = {}
    for c in map(dict, tr.numeric_cells(con)):
        if c["time_key"] and isinstance(layout.row(c), int):
            rows.setdefault((c["table_name"], layout.row(c)), []).append(c)
    lines = [cs for cs in rows.values() if all(_step(c) for c in cs)]
    if not lines:
        return None
    cells = [c for cs in lines for c in cs]
    q = tr.content(question)
    ranked = tr.rank_rows(cells, q, question)
    if not ranked or len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None
    mine = [cs for cs in lines if tr.label(cs[0]) == ranked[0][1]]
    if len(mine) != 1:
        return None
    steps = {_step(c): c for c in mine[0]}
    if len(steps) != len(mine[0]):
        return None
    lo, hi = ys[0], ys[-1]
    chain = [steps.get((y, y + 1)) for y in range(lo, hi)]
    if any(c is None for c in chain) or len(chain) < 2 or set(ys) not in (
            {lo, hi}, set(range(lo, hi + 1))):
        return None  # the steps do not chain over the years named, or it names some between
    return _compute(question, chain, ranked[0][1])


def _compute(question: str, chain: list[dict], label: str):
    bld = tablelines.Builder()
    ops = []
    for c in chain:
        a, b = _step(c)  # type: ignore[misc]
        name = f"{label} change {a} to {b}"
        ops.append(Operand(c["claim_id"], float(c["value_num"]), name,
                           bld.commit(c, f"the change from {a} to {b}")))
    sc = tr.scale(chain[0])
    if any(tr.scale(c) != sc for c in chain):
        return None
    vals = [o.value for o in ops]
    refs = " ".join(f"[{o.n}]" for o in ops)
    if _AVERAGE.search(question):
        r = round(sum(vals) / len(vals), 2)
        d = Derivation("mean", f"({' + '.join(fmt(v) for v in vals)}) / {len(vals)}",
                       tuple(ops), r)
        sent = f"The mean of the annual changes {refs} is {fmt(r)}."
        return bld.done("average", r, sent, d, scale=sc)
    if _COMPARED.search(question) and re.search(r"\bdifference\b", question, re.I):
        if len(ops) != 2:
            return None
        new, old = ops[1], ops[0]
        r = round(new.value - old.value, 2)
        d = Derivation("difference", f"{fmt(new.value)} - {fmt(old.value)}", (new, old), r)
        sent = f"{new.label} [{new.n}] minus {old.label} [{old.n}] is {fmt(r)}."
        return bld.done("difference", r, sent, d, scale=sc)
    if re.search(r"\b(?:difference|ratio|percent(?:age)?|proportion|average)\b", question,
                 re.I):
        return None  # another operation than the change over the span
    r = round(sum(vals), 2)
    d = Derivation("sum", " + ".join(fmt(v) for v in vals), tuple(ops), r)
    sent = f"The changes {refs} add up to {fmt(r)} over the span."
    return bld.done("sum", r, sent, d, scale=sc)

