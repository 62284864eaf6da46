"""Reading one question against one table for the operators of `tableops_ops`.

A `Reading` is what the question says about the table: the cell values it names (row
filters), its numeric conditions, the columns it mentions and the rows all of them select.
The helpers here choose the column a question asks for and the numeric column it ranks by;
they are shared by every operator, so they live apart from the operators themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hyrag.answer.readers.tableops import Grid, Result
from hyrag.answer.readers.tableops_parse import (
    COMPARATIVES,
    MAXWORDS,
    MINWORDS,
    RANKWORDS,
    STOP,
    TOPWORDS,
    Condition,
    Match,
    cell_number,
    column_mentions,
    column_numeric,
    header_tokens,
    key_column,
    kind_columns,
    match_values,
    numeric_conditions,
    singular,
    time_columns,
    tokens,
    year_of,
)

WH = ("which", "what", "who", "whom", "when", "where", "whose", "name")
MAX_ROWS_LISTED = 10


@dataclass
class Reading:
    raw: str  # the question as asked (lower case)
    q: list[str]
    text: str
    matches: list[Match]
    conds: list[Condition]
    mentions: dict[int, float]
    used_cols: set[int]
    rows: list[int]  # rows every match and condition selects, in file order
    negated: frozenset[tuple[int, ...]] = frozenset()  # columns whose named values it excludes
    loose_negation: bool = False  # a "not" / "never" that excludes nothing the table names
    free: frozenset[str] = frozenset()  # words outside every cell value and condition span

    def says(self, words: set[str] | frozenset[str]) -> bool:
        """Whether the question uses one of `words` outside the cell values and conditions it
        names: "first" in "First Division" names a row, not the first row."""
        return bool(self.free & words)


_NEGATION = frozenset({"not", "never", "without"})
_NEGATION_REACH = 6  # "did not play the position of mf": the words a "not" reaches over


def _negations(q: list[str], matches: list[Match]) -> tuple[set[tuple[int, ...]], bool]:
    """The columns whose named values a negation excludes ("did not play mf or fw": rows
    holding neither), and whether some negation excludes no named value — a condition this
    reader cannot apply ("how many athletes are not ranked"), so no operator may ignore it."""
    negated: set[tuple[int, ...]] = set()
    loose = False
    inside = {k for m in matches for k in range(m.start, m.end)}  # "It Wasn't God ..."
    for k, w in enumerate(q):
        if k in inside or not (w in _NEGATION or w == "t" and k and q[k - 1].endswith("n")):
            continue
        after = [m for m in matches if k < m.start <= k + _NEGATION_REACH]
        if not after:
            loose = True
            continue
        first = min(after, key=lambda m: m.start)
        negated.add(first.cols)
    return negated, loose


def read(question: str, g: Grid, *, exclude: Match | None = None) -> Reading:
    q = tokens(question)
    text = " ".join(q)
    conds = numeric_conditions(text, q, g)
    blocked = {k for c in conds for k in range(*c.span)}
    matches = match_values(q, g, blocked)
    wh = next((k for k, w in enumerate(q) if w in WH), None)
    if wh is not None:  # "which locomotive", "which is the first city": the rows' noun
        lead = wh + 1
        while lead < len(q) and q[lead] in STOP:
            lead += 1
        matches = [m for m in matches if m.full or m.start != lead]
    if exclude is not None:
        matches = [m for m in matches if m != exclude]
    spans = blocked | {k for m in matches for k in range(m.start, m.end)}
    mentions = column_mentions(q, g, spans)
    used = {j for m in matches for j in m.cols} | {c.col for c in conds}
    negated, loose = _negations(q, matches)
    held = blocked | {k for m in matches for k in range(m.start, m.end)}
    free = frozenset(w for k, w in enumerate(q) if k not in held and not (
        w in ("most", "least") and k and q[k - 1] == "at"))  # "at most 80": a bound
    return Reading(question.lower(), q, text, matches, conds, mentions, used,
                   select(g, matches, conds, frozenset(negated)), frozenset(negated), loose,
                   free)


def cond_value(g: Grid, i: int, c: Condition) -> float | None:
    if 1000 <= c.value <= 2100 and c.col in time_columns(g):
        return year_of(g.text[i][c.col])
    return cell_number(g, i, c.col)


def select(g: Grid, matches: list[Match], conds: list[Condition],
           negated: frozenset[tuple[int, ...]] = frozenset()) -> list[int]:
    """Rows satisfying every condition and, per column, any of the values named in it — or,
    for a column a negation reaches, none of them."""
    under = [u for m in matches if (u := _under(g, m)) is not None]
    if under:  # a section heading named: its rows, whatever else the question names in them
        heads = [m for m in matches if _under(g, m) is not None]
        matches = [m for m in matches if m not in heads]
        if not matches:
            return []  # a heading alone picks no row of its own
    rows = set(g.body()) | {i for m in matches for i in m.rows}
    for u in under:
        rows &= u
    by_cols: dict[tuple[int, ...], set[int]] = {}
    prev: Match | None = None
    for m in sorted(matches, key=lambda m: m.start):
        if prev is not None and prev.cols == m.cols and prev.end == m.start and not (
                prev.full or m.full) and prev.rows & m.rows:
            # two runs of one cell's words, side by side ("as of December 31, 2019"): one
            # value named in two pieces, so both must hold
            by_cols[m.cols] = (by_cols[m.cols] - prev.rows) | (prev.rows & m.rows)
        else:
            by_cols.setdefault(m.cols, set()).update(m.rows)
        prev = m
    for cols, rs in by_cols.items():
        if cols in negated:
            rows -= rs
        else:
            rows &= rs
    for c in conds:
        rows = {i for i in rows if c.test(cond_value(g, i, c))}
    return sorted(rows)


def _under(g: Grid, m: Match) -> set[int] | None:
    """The rows under the section headings a match names ("Tax credit carryforwards:" alone
    on its row, nothing in the other cells), down to the next heading — or None when it
    names no heading. "The domestic-state tax credit carryforwards" is the "Domestic-state"
    row of that section (the label repeats in another), not the heading row, which holds no
    figure: the heading narrows the rows the other named values pick."""
    if not m.full or not m.rows or not all(_heading(g, i) for i in m.rows):
        return None
    out: set[int] = set()
    for i in m.rows:
        k = i + 1
        while k < g.n_rows and not _heading(g, k):
            out.add(k)
            k += 1
    return out or None


def _heading(g: Grid, i: int) -> bool:
    """Row i is a section heading, by ingestion's one rule (`ingest.sections.heading_label`):
    a worded label and nothing else — no figure, no nil mark."""
    from ingest.sections import heading_label

    return heading_label(g.text[i]) is not None


_ORDER_WORDS = frozenset({"first", "last", "next", "previous", "top", "bottom", "final"})


def header_after(r: Reading, g: Grid, start: int, avoid: set[int]) -> int | None:
    """The column a noun right after position `start` names ("which team", "what year")."""
    for k in range(start, min(start + 5, len(r.q))):
        w = singular(r.q[k])
        if any(m.start <= k < m.end for m in r.matches):
            return None
        if w in _ORDER_WORDS:
            continue  # "the first computer": an order, not the header "First operational"
        cands = [j for j in range(len(g.cols)) if w in header_tokens(g, j) and j not in avoid]
        if cands:
            return max(cands, key=lambda j: (r.mentions.get(j, 0), -j))
        if w not in STOP or w in MAXWORDS or w in MINWORDS:
            return None  # the noun after "largest" is what is ranked, not what is asked
    return None


def answer_column(r: Reading, g: Grid, avoid: set[int], *, named: bool = False) -> int | None:
    """The column the question asks for: the header after its question word, else the kind of
    column the question word asks for, else a column it names, else the row's key column —
    unless `named` (a "what was ..." lookup must name what it asks for)."""
    wh = next((k for k, w in enumerate(r.q) if w in WH), None)
    if wh is not None:
        j = header_after(r, g, wh + 1, avoid)
        if j is not None:
            return j
        if named and header_after(r, g, wh + 1, set()) in avoid:
            return None  # "which team ... riverton hawks": it asks for the column it filters
        w = r.q[wh]
        nxt = r.q[wh + 1] if wh + 1 < len(r.q) else ""
        kind = ("person" if w in ("who", "whom", "whose") else "time" if w == "when" or (
            nxt in ("year", "season", "date")) else "place" if w == "where" else
            "team" if nxt in ("team", "club", "side") else None)
        if kind:
            cols = [j for j in (time_columns(g) if kind == "time" else kind_columns(g, kind))
                    if j not in avoid]
            if cols:
                return cols[0]
    if "how long" in r.text:
        cols = [j for j in kind_columns(g, "duration") if j not in avoid]
        if cols:
            return cols[0]
    cands = sorted((s, -j) for j, s in r.mentions.items() if j not in avoid)
    if cands:
        return -cands[-1][1]
    if named and not (wh is not None and r.q[wh] in ("who", "whom", "which", "name")):
        return None
    return key_column(g, avoid)


def named_column(r: Reading, g: Grid) -> int | None:
    """The column the question itself names as what it asks for — the header after its
    question word, the kind of column "who" / "when" / "where" asks for, or a header whose
    every word it uses ("the finishing place" names "Place") — or None: "what film was
    released before X" names no column ("Release date" is the order, not the answer)."""
    if r.q and r.q[0] in ("who", "whom", "when", "where"):
        return answer_column(r, g, set())
    wh = next((k for k, w in enumerate(r.q) if w in WH), None)
    j = header_after(r, g, wh + 1, set()) if wh is not None else None
    if j is not None:
        return j
    whole = sorted((s, -j) for j, s in r.mentions.items() if s >= 1.0)  # every header word
    return -whole[-1][1] if whole else None


def measure_column(r: Reading, g: Grid, avoid: set[int]) -> int | None:
    """The numeric column a superlative, comparison or sum is over: one the question names
    (the nearest after the cue word first), else the one its comparative word measures."""
    nums = [j for j in range(len(g.cols)) if j not in avoid and column_numeric(g, j)]
    named = [j for j in nums if j in r.mentions]
    if named:
        return max(named, key=lambda j: (r.mentions[j], -j))
    for w in r.q:
        spec = COMPARATIVES.get(w)
        if spec and spec[0]:
            hit = [j for j in nums if header_tokens(g, j) & spec[0]]
            if hit:
                return hit[0]
    if r.says(_AGE):  # "the oldest locomotive": the table's one column of dates
        times = [j for j in time_columns(g) if j not in avoid]
        if len(times) == 1:
            return times[0]
    return None


_AGE = frozenset({"oldest", "newest", "earliest", "latest", "youngest"})


def direction(r: Reading, g: Grid, col: int) -> str | None:
    ws = set(r.q)
    asc = bool(ws & MINWORDS) or any(COMPARATIVES.get(w, ("", ""))[1] == "asc" for w in ws
                                     if w not in MAXWORDS)
    desc = bool(ws & MAXWORDS) or any(COMPARATIVES.get(w, ("", ""))[1] == "desc" for w in ws)
    if header_tokens(g, col) & RANKWORDS and ws & TOPWORDS:
        return "asc"  # rank 1 is the top
    if ws & {"oldest", "earliest", "older"} and col in time_columns(g):
        return "asc"
    if ws & {"newest", "latest", "youngest"} and col in time_columns(g):
        return "desc"
    if asc == desc:
        return None
    return "asc" if asc else "desc"


def vals(g: Grid, rows: list[int], col: int) -> list[str]:
    out: list[str] = []
    for i in rows:
        t = g.text[i][col]
        if t and t not in out:
            out.append(t)
    return out


def lookup_rows(g: Grid, rows: list[int], col: int, op: str) -> Result | None:
    found = vals(g, rows, col)
    if not found or len(found) > MAX_ROWS_LISTED:
        return None
    return Result(op, found, [(i, col) for i in rows if g.text[i][col]][:MAX_ROWS_LISTED])


def named_year_rows(question: str, g: Grid) -> list[int] | None:
    """The rows an aggregate without a named row runs over: every row, unless the question
    names years ("the sum of finance leases from 2020 to 2024"). Then they are the rows
    those years label — a schedule whose rows are periods — and with no such rows the years
    restrict something this reader cannot see: it abstains rather than add up every line
    (the later years, a total and its deductions included)."""
    from hyrag.answer.readers import tableqa_read

    named = tableqa_read.span(question) or tableqa_read.years(question)
    if not named:
        return g.body()
    at: dict[int, list[int]] = {}
    for i in g.body():
        m = re.fullmatch(r"\s*((?:19|20)\d{2})\s*", g.text[i][0] or "")
        if m:
            at.setdefault(int(m.group(1)), []).append(i)
    if any(len(at.get(y, ())) != 1 for y in named):
        return None
    return sorted(at[y][0] for y in named)
