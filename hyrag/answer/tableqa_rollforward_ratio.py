"""A movement of a roll-forward table over one of its balances: "the proportion of granted
shares between 2017 and 2018 over outstanding shares at September 30, 2017".

`tableqa_rollforward.py` reads one line of a roll-forward table (balances "at" dates in rows,
the movements between them) across periods. A ratio question names two of its cells, each by
a line and a period, one in each half of the question (`tableqa_shares.split`: the part before
"over" / "as a proportion of", the whole after it):

- each half names its line the way the roll-forward reader reads one (`_read`: the movement
  it names beside the table's subject, else the balance) and one period (`_periods`); a
  movement "between 2017 and 2018", in a table with one balance in each of those years, is the
  movement between those two balances — the period they bound, as the schedule lays it out;
- both cells are read from the column the question names, else the table's count column
  when the halves speak of a count ("shares", a "Number of Shares" column: a count needs no
  "number" said), else its only column;
- a bracketed movement (a deduction: its size or its signed figure?), a non-positive whole,
  two tables or two readings, or a half naming no cell is not answered (None).

The ratio is a fraction ("the proportion ... over ..."), times 100 only when the question says
percent; the derivation records both cells so the verifier recomputes it.
"""

from __future__ import annotations

import re

from hyrag.answer import tablelines
from hyrag.answer import tableqa_layout as layout
from hyrag.answer import tableqa_read as read
from hyrag.answer import tableqa_rollforward as rf
from hyrag.answer import tableqa_rows as tr
from hyrag.answer.tableqa_shares import split
from hyrag.answer.tools import Derivation, Operand, fmt

_BETWEEN_YEARS = re.compile(r"\bbetween\s+((?:19|20)\d{2})\s+and\s+((?:19|20)\d{2})\b", re.I)
_ASKS = re.compile(r"\b(?:proportion|ratio|percent(?:age)? of)\b", re.I)


def resolve(question: str, con):  # a `TableResolved` or None
    if not _ASKS.search(question):
        return None
    halves = split(question)
    if halves is None:
        return None
    found = []
    for t in rf.tables(con):
        a, b = _cell(halves[0], t), _cell(halves[1], t)
        if a is not None and b is not None and a[1] == b[1]:
            found.append((t, a, b))
    if len(found) != 1:
        return None
    t, (na, _, ca), (nb, _, cb) = found[0]
    if layout.bracketed(ca) or layout.bracketed(cb) or float(cb["value_num"]) <= 0:
        return None
    if "%" in (ca["value_text"] or "") + (cb["value_text"] or ""):
        return None
    a, b = float(ca["value_num"]), float(cb["value_num"])
    pct = bool(re.search(r"\bpercent", question, re.I))
    bld = tablelines.Builder()
    oa = Operand(ca["claim_id"], a, na, bld.commit(ca, f"the part: {na}"))
    ob = Operand(cb["claim_id"], b, nb, bld.commit(cb, f"the whole: {nb}"))
    r = round(a / b * (100 if pct else 1), 2)
    if not pct and r > 1 and read.proportion(question):
        return None  # a proportion above 1: the part and the whole were swapped
    d = Derivation("ratio", f"{fmt(a)} / {fmt(b)}{' x 100' if pct else ''}", (oa, ob), r,
                   "%" if pct else "")
    sent = f"{na} [{oa.n}] over {nb} [{ob.n}] is {fmt(r)}{'%' if pct else ''}."
    return bld.done("percent_of" if pct else "ratio", r, sent, d,
                    scale="percent" if pct else "")


def _cell(text: str, t: rf.Table) -> tuple[str, str, dict] | None:
    """(the cell's name, its column, the cell) one half of the question names, or None."""
    q = tr.content(text)
    got = rf.read_line(text, q, t) or rf.read_line(text, q | {"number"}, t)
    if got is None:
        return None
    col, rows, movement = got
    period = _between(text, t) if movement else None
    said: set[str] = set()
    if period is None:
        ask = rf.asked_periods(text, t, movement)
        if ask is None or len(ask.periods) != 1:
            return None
        period, said = ask.periods[0], {tr.stem(w) for w in ask.words}
    left = q - tr.content(t.labels[rows[0]] if movement else t.name) - tr.content(col) - said \
        - layout.PERIOD_WORDS - tr.OPWORDS
    if len(left) > tr.MAX_RESIDUE:
        return None
    r = rf.period_row(t, rows, movement, *period)
    if r is None or r not in t.cols[col]:
        return None
    # the row's own label: a movement's period is the rows around it, no date the draft may
    # state that no cell does
    return t.labels[r], col, t.cols[col][r]


def _between(text: str, t: rf.Table) -> tuple[int, int] | None:
    """The movement period "between 2017 and 2018" names: the one between the table's only
    balance dated in 2017 and its only balance dated in 2018, when they are neighbours."""
    m = _BETWEEN_YEARS.search(text)
    if not m:
        return None
    y0, y1 = int(m.group(1)), int(m.group(2))
    i0 = [i for i, (_, d) in enumerate(t.balances) if d.year == y0]
    i1 = [i for i, (_, d) in enumerate(t.balances) if d.year == y1]
    if len(i0) != 1 or len(i1) != 1 or i1[0] != i0[0] + 1:
        return None
    return i0[0], i1[0]
