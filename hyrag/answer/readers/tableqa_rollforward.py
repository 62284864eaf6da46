"""Roll-forward tables: periods stated in rows, not in columns.

A movement schedule (share awards, options, goodwill, a provision) is laid out down the page:

    Non-vested at December 31, 2018 | 1,187,586
    Granted                         |   473,550
    Vested                          |  (365,223)
    Non-vested at December 31, 2019 | 1,283,281

Its columns are measures ("Shares", "Weighted-average fair value") or segments, never periods,
so ingestion gives its cells no period and the line-item reader (`tableqa.py`) cannot see
them. An analyst reads such a table this way, and so does this module:

- the balance rows: one line name ("Non-vested", "Balances", "Outstanding") stated "at" /
  "as of" / "on" a date, at least twice, opening and closing the table, the dates rising;
- the movement rows between two balances belong to the period those balances bound: the
  year of the closing date ("Granted" between the 2018 and 2019 balances is 2019's grant) —
  a close in the first week of January ("January 1, 2018") ends the year before, as a
  52/53-week fiscal year does;
- the question: its years or dates pick periods ("in 2019"; "between December 30, 2018 and
  December 29, 2019" is the period those balances bound; a lone date of a balance with
  movements on one side only is that period); the line name of the balances it writes
  ("non-vested shares") is the table's subject, so the movement it also names ("vested") is
  the row asked — or, naming no movement, the balance itself, at the date or the year's last
  balance;
- the column: the one whose every word the question uses (the most specific of several),
  else the table's only column;
- the operation (`tableqa_read.operation`): a lookup, each of several periods, a change, a
  percentage change, an average, a sum.

A movement shown in brackets ("(365,223)" vested) is a count the schedule deducts: asked for
"the number of shares vested", readers give either its size or its signed figure, so such a
cell is not answered from — except quoted as the table shows it ("(43)"), among the figures of
several periods a question asks for "respectively". A period the rows do not bound, two columns or rows the question
names equally, or words no row, column or period explains leave the question to the other
readers (None).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.catalog import per_view
from hyrag.answer.parse.requirements import Requirement
from hyrag.answer.readers import tableqa_layout as layout
from hyrag.answer.readers import tableqa_periods as periods
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr

# a balance row: a line name, a connector and one date ("Balance payable as at June 30, 2019")
_BALANCE = re.compile(r"^(?P<name>.*?\S)\s*(?:,|\b(?:as\s+at|as\s+of|at|on))\s+(?P<date>.+)$",
                      re.I)


@dataclass(frozen=True)
class Table:
    name: str  # the balance rows' line name
    cols: dict[str, dict[int, dict]]  # column -> row -> cell
    labels: dict[int, str]  # row -> label
    balances: list[tuple[int, dt.date]]  # (row, date), rising
    movements: list[tuple[int, int, int]]  # (row, first balance index, closing index)


CACHE: dict[tuple, list[Table]] = {}


def tables(con) -> list[Table]:
    return per_view(CACHE, con, _read_tables)


def _read_tables(con) -> list[Table]:
    by_table: dict[str, list[dict]] = {}
    for c in map(dict, tr.untimed_numeric_cells(con)):
        if c["time_key"] not in (None, ""):
            continue  # a cell with a period is no roll-forward's
        if isinstance(layout.row(c), int):
            by_table.setdefault(c["table_name"], []).append(c)
    out = []
    for cs in by_table.values():
        t = _table(cs)
        if t is not None:
            out.append(t)
    return out


def _balance(label: str) -> tuple[str, dt.date] | None:
    """(line name, date) of a label stating a balance at one date, else None."""
    m = _BALANCE.match(label.strip())
    if not m:
        return None
    keys = [n.key for n in periods.named(m.group("date")) if re.fullmatch(
        r"\d{4}-\d{2}-\d{2}", n.key)]
    if len(keys) != 1 or len(re.findall(r"(?<!\d)(?:19|20)\d{2}(?!\d)", m.group("date"))) != 1:
        return None
    if not tr.content(m.group("name")):
        return None
    return m.group("name").strip(), dt.date.fromisoformat(keys[0])


def _table(cs: list[dict]) -> Table | None:
    labels: dict[int, str] = {}
    cols: dict[str, dict[int, dict]] = {}
    for c in cs:
        r = layout.row(c)
        labels.setdefault(r, tr.label(c) if c["entity"] else "")
        cols.setdefault(c["attribute"] or "", {})[r] = c
    rows = sorted(labels)
    if len(rows) < 3:
        return None
    first, last = _balance(labels[rows[0]]), _balance(labels[rows[-1]])
    if not first or not last or tr.content(first[0]) != tr.content(last[0]):
        return None  # a roll-forward opens and closes with the balance
    name = first[0]
    bal = []
    for r in rows:
        b = _balance(labels[r])
        if b and tr.content(b[0]) == tr.content(name):
            bal.append((r, b[1]))
    if any(b[1] >= a[1] for a, b in zip(bal[1:], bal, strict=False)):
        return None  # the balances' dates must rise down the table
    moves = []
    for i, ((r0, _), (r1, _)) in enumerate(zip(bal, bal[1:], strict=False)):
        inside = [r for r in rows if r0 < r < r1]
        if not inside:
            return None  # two balances with no movement between: not a roll-forward
        moves += [(r, i, i + 1) for r in inside]
    return Table(name, cols, labels, bal, moves)


def _year(d: dt.date) -> int:
    """The year a closing balance date ends: its own, or the year before for a close in the
    first week of January (a 52/53-week year ending "January 1, 2018" is 2017)."""
    return d.year - 1 if d.month == 1 and d.day <= 7 else d.year


@dataclass(frozen=True)
class _Ask:
    periods: list[tuple[int, int]]  # (opening, closing) balance indices, or (-1, balance)
    words: set[str]  # the question's words the periods explain


def asked_periods(question: str, t: Table, movement: bool) -> _Ask | None:
    """The periods the question names, as pairs of balance indices: a movement's period is
    (opening, closing); a balance is (-1, its index)."""
    dates = {d.isoformat(): i for i, (_, d) in enumerate(t.balances)}
    named = periods.named(question)
    taken: list[tuple[int, int]] = []
    used = [False] * len(named)
    words: set[str] = set(periods.words(question))
    for k, n in enumerate(named):
        if used[k] or n.key not in dates:
            continue
        i = dates[n.key]
        nxt = named[k + 1] if k + 1 < len(named) else None
        between = re.search(r"\bbetween\s*$", question[:n.start], re.I)
        if movement and between and nxt and dates.get(nxt.key) == i + 1:
            taken.append((i, i + 1))  # "between <opening> and <closing>"
            used[k] = used[k + 1] = True
        elif movement:
            sides = [(a, b) for a, b in ((i - 1, i), (i, i + 1)) if a >= 0 and b < len(dates)]
            if len(sides) != 1:
                return None  # the movements before or after that balance?
            taken.append(sides[0])
            used[k] = True
        else:
            taken.append((-1, i))
            used[k] = True
    if any(not u for u in used):
        return None  # a date or quarter no balance states
    spans = [(n.start, n.end) for n in named] + [(n.year_at, n.year_at + 4) for n in named
                                                  if n.year_at >= 0]
    for m in re.finditer(r"(?<!\d)(?:19|20)\d{2}(?!\d)", question):
        if any(s <= m.start() < e for s, e in spans):
            continue
        y = int(m.group(0))
        if movement:
            ps = [(i, i + 1) for i in range(len(t.balances) - 1)
                  if _year(t.balances[i + 1][1]) == y]
        else:
            ps = [(-1, max(i for i, (_, d) in enumerate(t.balances) if d.year == y))] if any(
                d.year == y for _, d in t.balances) else []
        if len(ps) != 1:
            return None  # no period, or two, of that year
        taken.append(ps[0])
    if re.search(r"\b(?:fy|f|fiscal(?:\s+year)?)\s?'?\d{2}\b", question, re.I):
        return None  # "FY19": a fiscal year these rows may not bound as the question means
    return _Ask(list(dict.fromkeys(taken)), words | {"between", "on", "as", "at", "of"})


def resolve(question: str, con):
    """A `link.reading.Resolved` answer from a roll-forward table, or None."""
    from hyrag.answer.link.reading import Resolved

    q_all = tr.content(question)
    found = []
    for t in tables(con):
        got = read_line(question, q_all, t)
        if got is not None:
            found.append((t, *got))
    if len(found) != 1:
        return None  # no roll-forward line named, or one in each of two tables
    t, col, rows, movement = found[0]
    label = t.labels[rows[0]] if movement else t.name
    op = read.operation(question, f"{label} {col}", 1)  # their words are no operation
    if op not in ("lookup", "each", "difference", "change_ratio", "average", "sum"):
        return None
    ask = asked_periods(question, t, movement)
    if ask is None or not ask.periods:
        return None
    if op == "lookup" and len(ask.periods) > 1:
        return None  # two periods and no operation: each, their sum or their change?
    if op != "lookup" and len(ask.periods) < 2:
        return None
    cells = []
    for a, b in ask.periods:
        r = period_row(t, rows, movement, a, b)
        if r is None or r not in t.cols[col]:
            return None
        cells.append(t.cols[col][r])
    if any(layout.bracketed(c) for c in cells) and op != "each":
        # a deduction in brackets: its size or its signed figure? Figures asked for
        # "respectively" are read off the table and quoted as it shows them ("(43)")
        return None
    explained = (tr.content(label) | tr.content(col) | tr.content(t.name)
                 | {tr.stem(w) for w in ask.words} | tr.OPWORDS | layout.PERIOD_WORDS)
    residue = len(q_all - explained)
    if residue > tr.MAX_RESIDUE:
        return None
    store, reqs, verdicts = CommitmentStore(), [], []
    ops = []
    for (_, b), c in zip(ask.periods, cells, strict=True):
        rid = f"R{len(reqs) + 1}"
        when = str(_year(t.balances[b][1])) if movement else t.balances[b][1].isoformat()
        req = Requirement(rid, label, c["attribute"] or label, period=when)
        store.commit(Fact(
            claim_id=c["claim_id"], requirement=rid, source=c["file"] or c["table_name"],
            locator=c["locator"], text=re.sub(r"^\[[^\]]*\]\s*", "", c["text"] or ""),
            entity=label, attribute=c["attribute"] or label, value=c["value_num"],
            value_text=c["value_text"] or "", value_base=c["value_base"], unit=c["unit"],
            scale=c["scale"], time_key=when, kind="cell", table=c["table_name"], score=1.0,
            warrant_query=f"roll-forward row {t.labels[layout.row(c)]!r} column {col!r}",
            confidence=float(c["conf_base"] or 0.0)))
        reqs.append(req)
        verdicts.append(Verdict(req, "direct", (c["claim_id"],)))
        ops.append(Operand(c["claim_id"], float(c["value_num"]), f"{label} {when}", len(reqs)))
    sc = tr.scale(cells[0])

    def done(derivs: list, answer: object, scale: str) -> Resolved:
        return Resolved(reqs, verdicts, store, derivs, op, answer, scale, 1.0, residue)

    if op == "lookup":
        c = cells[0]
        if "%" in (c["value_text"] or ""):
            return done([], c["value_text"].strip(), "")
        return done([], c["value_num"], sc)
    if op == "each":
        if any(layout.bracketed(c) for c in cells):
            return done([], [c["value_text"].strip() for c in cells], sc)
        return done([], [c["value_num"] for c in cells], sc)
    if op == "average":
        r = round(math.fsum(o.value for o in ops) / len(ops), 2)
        return done([Derivation("mean", f"({' + '.join(fmt(o.value) for o in ops)}) / "
                                f"{len(ops)}", tuple(ops), r)], r, sc)
    if op == "sum":
        if sc == "percent":
            return None
        r = round(math.fsum(o.value for o in ops), 2)
        return done([Derivation("sum", " + ".join(fmt(o.value) for o in ops), tuple(ops), r)],
                    r, sc)
    if len(ops) != 2:
        return None
    (_, old), (_, new) = sorted(zip((b for _, b in ask.periods), ops, strict=True),
                                key=lambda x: x[0])  # the earlier, the later
    if op == "difference":
        if read.distance(question) and new.value < old.value or read.decrease_by(question):
            new, old = old, new
        r = round(new.value - old.value, 2)
        return done([Derivation("difference", f"{fmt(new.value)} - {fmt(old.value)}",
                                (new, old), r)], r, sc)
    if old.value <= 0 or sc == "percent":
        return None
    r = round((new.value - old.value) / old.value * 100, 2)
    return done([Derivation("growth", f"({fmt(new.value)} - {fmt(old.value)}) / "
                            f"{fmt(old.value)} x 100", (old, new), r, "%")], r, "percent")


def read_line(question: str, q: set[str], t: Table) -> tuple[str, list[int], bool] | None:
    """(column, candidate rows, whether a movement is asked) of a question about table `t`,
    or None when it names none of its lines, or two equally."""
    # the column: every word named (the most specific), else the only column
    named = [c for c in t.cols if tr.content(c) and tr.content(c) <= q]
    if named:
        top = max(len(tr.content(c) - tr.OPWORDS) for c in named)
        named = [c for c in named if len(tr.content(c) - tr.OPWORDS) == top]
    elif len(t.cols) == 1:
        named = list(t.cols)
    if len(named) != 1:
        return None
    col = named[0]
    # the balance line's words are the table's subject; what else the question names is the
    # movement ("non-vested shares vested": "non-vested" the subject, "vested" the movement)
    low = f" {tr.phrase(question)} "
    subject = tr.phrase(t.name)
    names_subject = f" {subject} " in low or tr.content(t.name) <= q
    rest = low.replace(f" {subject} ", " ", 1)
    rq = tr.content(rest) - tr.content(col)
    moving = sorted({t.labels[r] for r, _, _ in t.movements})
    pseudo = [{"entity": lab, "attribute": "", "table_name": ""} for lab in moving]
    ranked = tr.rank_rows(pseudo, rq, rest)
    if ranked:
        if len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
            return None
        lab = ranked[0][1]
        return col, [r for r, _, _ in t.movements if t.labels[r] == lab], True
    if names_subject:
        return col, [r for r, _ in t.balances], False
    return None


def period_row(t: Table, rows: list[int], movement: bool, a: int, b: int) -> int | None:
    """The row holding the period between balances `a` and `b`: the movement among `rows`
    between them, or the balance `b` itself; None when none, or two, are."""
    if movement:
        rs = [r for r, i, j in t.movements if (i, j) == (a, b) and r in rows]
    else:
        rs = [t.balances[b][0]]
    return rs[0] if len(rs) == 1 else None
