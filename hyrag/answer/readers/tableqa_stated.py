"""A percentage change the table states: the cell of its "% Change" column on the line asked.

Reports print a line's periods side by side and, beside them, the change between them as a
percentage ("30 June 2019 | 30 June 2018 | Change %"; "2019 | Actual | Constant | 2018" under
"Percent Change"; "2019 over 2018 | $ | %"). Asked "the percentage change in underlying EBITDA
between 2018 and 2019", an analyst quotes the figure the report states — rounded as the report
rounds it, and in the report's own terms ("constant currency") — rather than recomputing it
from the amounts. This module does only that:

- the question asks for a percentage change in so many words ("percentage change",
  "% increase", "change (%)"), not for a change in a percentage ("the change in percentage
  of sales");
- the line: the row the question names (`tableqa_rows.rank_rows`, ranked first alone), with
  period cells in its row;
- the column: a cell of that row without a period whose header says change, increase or
  "over", and which is a percentage (a "%" in the cell or in its header);
- its periods: those the change column's amount neighbour names ("2019 over 2018"), or else
  the row's two periods — a question naming years must name exactly those;
- two such columns ("Actual" and "Constant") are both answered only when the question names
  both; one of them when it names that one alone; otherwise the reader declines.

A cell showing "%" is quoted as displayed ("36%"); a bare figure under a "(%)" header is a
percentage (13.2 percent).
"""

from __future__ import annotations

import re

from hyrag.answer.readers import tablelines
from hyrag.answer.readers import tableqa_layout as layout
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr

ASKS = re.compile(r"\b(?:percent(?:age)?|%)\s+(?:change|increase|decrease|growth)\b|"
                  r"\bchange\s*\(\s*%\s*\)", re.I)
_CHANGE_COL = re.compile(r"\bchange|\bincrease|\bdecrease|\binc\b|\bdec\b|\bover\b", re.I)
_PCT_COL = re.compile(r"%|\bpercent", re.I)
# words of a change column's header that say what it is, not which of two it is
_COL_WORDS = {"change", "increase", "decrease", "inc", "dec", "over", "percent", "percentage"}


def _header(c: dict, base: str) -> str:
    """The column header of a cell: its attribute, the line's label taken off the front for a
    melted table's cell ("Order intake1 Change (%)")."""
    att = c["attribute"] or ""
    if base and att.startswith(base):
        att = att[len(base):]
    return att.strip()


def _left(c: dict, row: list[dict]) -> dict | None:
    n, letter = layout.col(c)
    if len(letter) != 1 or letter <= "A":
        return None
    prev = (n, chr(ord(letter) - 1))
    got = [x for x in row if layout.col(x) == prev]
    return got[0] if len(got) == 1 else None


def _between(c: dict, periods: list[dict], question: str, head: str) -> bool:
    """A percentage between the row's two period columns ("2019 | Actual | Constant | 2018",
    a "Percent Change" heading above the middle two lost in reading) compares them — read so
    only when the question names the column ("the actual and constant percentage change")."""
    cols = sorted(layout.col(p) for p in periods)
    words = tr.content(head) - _COL_WORDS
    return (len(cols) == 2 and cols[0] < layout.col(c) < cols[1] and "%" in (
        c["value_text"] or "") and bool(words) and words <= tr.content(question))


def _years(c: dict, row: list[dict]) -> set[int] | None:
    """The two years the change cell compares, or None when the table does not say."""
    left = _left(c, row)
    if left is not None and left["time_key"] and _CHANGE_COL.search(left["attribute"] or ""):
        ys = {tr.year_of(left), *read.years(left["attribute"] or "")} - {None}
        if len(ys) == 2:
            return ys  # type: ignore[return-value]
    ys = {tr.year_of(x) for x in row if x["time_key"]} - {None}
    return ys if len(ys) == 2 else None  # type: ignore[return-value]


def _periods_named(ys: set[int], compared: set[int] | None) -> bool:
    """Whether the question's years are the change's: none named, both named, or the later
    one alone ("the percentage change in revenues in 2019": over the year before)."""
    if compared is None:
        return False
    return not ys or ys == compared or ys == {max(compared)}


def resolve(question: str, con):
    """A `link.reading.Resolved` lookup of the stated percentage change(s), or None."""
    from hyrag.answer.link.reading import Resolved

    if not ASKS.search(question):
        return None
    rows: dict[tuple, list[dict]] = {}
    for c in map(dict, tr.numeric_cells(con)):
        r = layout.row(c)
        if isinstance(r, int):
            rows.setdefault((c["table_name"], r), []).append(c)
    lines: list[dict] = []   # one period cell per row, for ranking the rows by label
    stated: dict[str, list[tuple[dict, str, list[dict]]]] = {}
    for row in rows.values():
        periods = [c for c in row if c["time_key"]]
        if not periods:
            continue
        base = tr.label(periods[0])
        for c in row:
            if c["time_key"]:
                continue
            head = _header(c, base)
            if not (_PCT_COL.search(head) or "%" in (c["value_text"] or "")):
                continue
            if not _CHANGE_COL.search(head) and not _CHANGE_COL.search(
                    c["attribute"] or "") and not _between(c, periods, question, head):
                continue
            stated.setdefault(base, []).append((c, head, row))
        if base in stated:
            lines.append(periods[0])
    if not lines:
        return None
    q = tr.content(question)
    ranked = tr.rank_rows(lines, q, question)
    if not ranked or len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None
    lab = ranked[0][1]
    if len({(c["table_name"], layout.row(c)) for c in lines if tr.label(c) == lab}) != 1:
        return None  # two rows of that name
    ys = set(read.years(question))
    cands = [(c, h) for c, h, row in stated[lab] if _periods_named(ys, _years(c, row))]
    rest = q - tr.content(lab) - tr.OPWORDS - _COL_WORDS - {"growth", "between", "from"}
    rest -= set().union(*(tr.content(h) for _, h in cands)) if cands else set()
    rest -= tr.content(" ".join({c["table_subject"] or "" for c in lines}))
    if len({w for w in rest if not re.fullmatch(r"\d+|[qh]\d|f\d+|fy\d*", w)}) > \
            tr.MAX_RESIDUE:
        return None  # the question qualifies the line in words the table does not state
    if len(cands) > 1:  # "Actual" and "Constant": the ones the question names
        named = [(c, h) for c, h in cands if tr.content(h) - _COL_WORDS and
                 tr.content(h) - _COL_WORDS <= q]
        cands = named if named else cands
    if not cands or len(cands) > 1 and not all(
            tr.content(h) - _COL_WORDS for _, h in cands):
        return None
    if len(cands) > 1 and len({h for _, h in cands}) != len(cands):
        return None
    bld = tablelines.Builder()  # the cells committed as facts, as the layout readers do
    answers = []
    for c, h in cands:
        bld.commit(c, f"row {lab!r} column {h!r}")
        text = (c["value_text"] or "").strip()
        answers.append(text if "%" in text else c["value_num"])
    pct = all(isinstance(a, str) for a in answers)
    if not pct and len(answers) > 1:
        return None
    answer = answers if len(answers) > 1 else answers[0]
    return Resolved(bld.reqs, bld.verdicts, bld.store, [], "lookup", answer,
                    "" if pct else "percent", 1.0, 0)


# "the percentage of sales represented by gross profit", "gross profit as a percentage of sales"
_OF_BASE = re.compile(r"\b(?:the\s+)?(?:percent(?:age)?|%)\s+of\s+(?:total\s+|net\s+)*"
                      r"(?P<base>[a-z][a-z ]*?)\s+represented\s+by\s+", re.I)


def common_size(question: str, con):
    """A line of a common-size table — every line a percentage of one line, which reads 100 in
    every period ("Sales 100.0 %") — asked as "the percentage of sales represented by gross
    profit": the line's own figures are those percentages, so the question is the line-item
    question about "gross profit" (`tableqa.read_line_item`), its answer in percent."""
    import dataclasses

    from hyrag.answer.readers import tableqa

    m = _OF_BASE.search(question)
    if m is None:
        return None
    cells = [dict(c) for c in tr.numeric_cells(con) if c["time_key"]]
    base = tr.content(m.group("base"))
    ranked = tr.rank_rows(cells, base, m.group("base"))
    if not ranked or len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None
    line = [c for c in cells if tr.label(c) == ranked[0][1]]
    if not line or tr.content(ranked[0][1]) != base or any(
            c["value_num"] != 100.0 for c in line):
        return None  # no line of that name reads 100 in every period
    tables = {c["table_name"] for c in line}
    if len(tables) != 1 or any(c["unit"] not in ("", "%", None) for c in cells
                               if c["table_name"] in tables):
        return None  # a table of amounts beside its percentages: not a common-size table
    got, _ = tableqa.read_line_item(question[:m.start()] + question[m.end():], con)
    if got is None or got.scale not in ("", "percent") or any(
            f.table not in tables for f in got.store.facts):
        return None
    return dataclasses.replace(got, scale="percent")
