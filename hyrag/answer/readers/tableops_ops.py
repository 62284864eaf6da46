"""The operators of `tableops`: one question, one table -> a `Result`, or None (abstain).

The question is read once (`Reading`, in `tableops_read`): the rows its cell values and
numeric conditions select (a "not" excluding them), the columns it names, the column it asks
for. Operators are tried from the most specific cue to the least: previous / next row, "A or
B", difference, count, superlative or most frequent value, first / last, average / total,
lookup; a question about consecutive rows goes to the run operator alone. An operator returns
None when its cue is absent or it cannot resolve it (no anchor row, a tie, a column the
question does not name, a cue word it would ignore); the next operator then reads the
question, and when none resolves it the engine abstains.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import replace

from hyrag.answer.readers.tableops import Grid, Result
from hyrag.answer.readers.tableops_parse import (
    COMPARATIVES,
    MAXWORDS,
    MINWORDS,
    RANKWORDS,
    TOPWORDS,
    Match,
    cell_number,
    column_mentions,
    column_numeric,
    header_tokens,
    singular,
    time_columns,
    year_column,
    year_of,
)
from hyrag.answer.readers.tableops_read import (
    MAX_ROWS_LISTED,
    WH,
    Reading,
    answer_column,
    direction,
    header_after,
    lookup_rows,
    measure_column,
    named_column,
    named_year_rows,
    read,
    select,
    vals,
)

__all__ = ["OPERATORS", "Reading", "answer", "read", "select"]

# -- operators --------------------------------------------------------------------------------
_NEIGHBOUR = re.compile(
    r"\b(?:right |immediately |just |directly )?(after|following|behind|below|under|next to|"
    r"before|previous to|prior to|preceding|ahead of|above|previous|next)\b")


def op_neighbour(r: Reading, g: Grid) -> Result | None:
    """The row before or after the row a named value is in ("who came after X"); with "A or
    B" ("was the next game home or away?") the one of the two that row holds."""
    if "how long" in r.text or "how many" in r.text:
        return None  # a span of time or a count, not the next row's cell
    choice = _pair(r)
    for m in _NEIGHBOUR.finditer(r.text):
        k = len(r.text[:m.end()].split())
        target = next((x for x in r.matches if k <= x.start <= k + 2), None)
        if target is None or choice and target in choice:
            continue
        if set(r.q) & (MAXWORDS | MINWORDS) - {"top"}:
            return None  # "the best position after the 1996 games": a filter, not a neighbour
        word = m.group(1)
        step = 1 if word in ("after", "following", "behind", "below", "under", "next") else -1
        if "next" in r.q[:k] and word not in ("before", "previous to", "prior to", "above"):
            step = 1
        joined = [target]  # "after A and B": the later of the two
        for x in r.matches:
            if x.start == joined[-1].end + 1 and r.q[joined[-1].end] == "and" \
                    and set(x.cols) & set(target.cols):
                joined.append(x)
        others = [x for x in r.matches if x not in joined and not (choice and x in choice)
                  and not set(x.cols) & set(target.cols)]  # "what property comes before X"
        pool = select(g, others, r.conds) if (others or r.conds) else g.body()
        anchor_rows = sorted(set().union(*(x.rows for x in joined))) if len(joined) > 1 \
            else sorted(target.rows)
        if len(joined) > 1:
            anchor_rows = [anchor_rows[-1]] if step > 0 else [anchor_rows[0]]
        anchor = anchor_rows[-1] if step > 0 else anchor_rows[0]
        if len(anchor_rows) > 1 and not (others or r.conds):
            return None
        ordered = sorted(set(pool) | {anchor})
        if word in ("previous", "previous to", "prior to", "preceding", "before", "after",
                    "following", "next") and _chronological(r, g, ordered) != ordered:
            step = -step  # the table runs backwards in time: "previous" is the row below
        pos = ordered.index(anchor) + step
        if not 0 <= pos < len(ordered):
            return None
        row = ordered[pos]
        if choice is not None:
            a, b = choice
            hit = [x for x in (a, b) if row in x.rows and set(x.cols) == set(a.cols)]
            if len(hit) != 1:
                return None  # the row holds neither (or both): not one of the two
            col = hit[0].cols[0]
            return Result("neighbour", [g.text[row][col]], [(row, col), (anchor, target.cols[0])])
        col = answer_column(r, g, set()) if named_column(r, g) is not None else None
        if col is None or r.q[0] in ("who", "which") and col not in target.cols and not (
                r.mentions.get(col)):
            col = target.cols[0]  # "what came after X": X's own column, the next row's value
        if "next" in r.q and col in r.used_cols and col not in target.cols:
            col = target.cols[0]
        return Result("neighbour", [g.text[row][col]], [(row, col), (anchor, target.cols[0])])
    return None


def op_either(r: Reading, g: Grid) -> Result | None:
    """"Which is deeper, A or B?" / "did A win more or less medals than B?"."""
    if " or " not in f" {r.text} " or len(r.matches) < 2:
        return None
    pair = _pair(r)
    if pair is None:
        return None
    a, b = pair
    if len(a.rows) != 1 or len(b.rows) != 1:
        return None
    ia, ib = next(iter(a.rows)), next(iter(b.rows))
    more_or_less = "more or less" in r.text or "less or more" in r.text
    mcol = measure_column(r, g, set(a.cols) | set(b.cols))
    if mcol is None:
        totals = [j for j in range(len(g.cols)) if header_tokens(g, j) & {"total", "point",
                                                                          "score"}
                  and column_numeric(g, j)]
        mcol = totals[0] if totals and set(r.q) & set(COMPARATIVES) else None
    if mcol is None:
        return _either_by_filter(r, g, a, b)
    va, vb = cell_number(g, ia, mcol), cell_number(g, ib, mcol)
    if va is None or vb is None or va == vb:
        return None
    if more_or_less:
        return Result("compare", ["more" if va > vb else "less"], [(ia, mcol), (ib, mcol)])
    d = direction(r, g, mcol) or "desc"
    win = (ia, a) if (va > vb) == (d == "desc") else (ib, b)
    col = win[1].cols[0]
    return Result("compare", [g.text[win[0]][col]], [(win[0], col), (ia, mcol), (ib, mcol)])


def _pair(r: Reading) -> tuple[Match, Match] | None:
    """The two values an "A or B" question chooses between: "or" within three words of
    both, or "A won more or less medals than B" (the "or" is the question's, between them)."""
    more_or_less = re.search(r"\b(?:more or less|less or more)\b", r.text) is not None
    for x in r.matches:
        for y in r.matches:
            if x.start < y.start and set(x.cols) & set(y.cols):
                between = r.q[x.end:y.start]
                if "or" in between and (len(between) <= 3 or more_or_less and
                                        len(between) <= 7 and "than" in between):
                    return x, y
    return None


def _either_by_filter(r: Reading, g: Grid, a: Match, b: Match) -> Result | None:
    others = [m for m in r.matches if m is not a and m is not b]
    if not others and not r.conds:
        return None
    rows = set(select(g, others, r.conds))
    hits = [(m, next(iter(m.rows))) for m in (a, b) if next(iter(m.rows)) in rows]
    if len(hits) != 1:
        return None
    m, i = hits[0]
    return Result("compare", [g.text[i][m.cols[0]]], [(i, m.cols[0])])


_DIFF = re.compile(r"\bdifference\b|\bhow (?:many|much) (?:more|less|fewer|higher|lower|"
                   r"longer|bigger|larger)\b|\bdiffer\b")


def op_difference(r: Reading, g: Grid) -> Result | None:
    if not _DIFF.search(r.text):
        return None
    ents = [m for m in r.matches if len(m.rows) == 1]
    if len(ents) < 2:
        return _count_difference(r, g)
    a, b = ents[0], ents[1]
    mcol = measure_column(r, g, set(a.cols) | set(b.cols))
    if mcol is None:
        nums = [j for j in range(len(g.cols)) if column_numeric(g, j) and j not in r.used_cols]
        if len(nums) != 1:
            return None
        mcol = nums[0]
    ia, ib = next(iter(a.rows)), next(iter(b.rows))
    va, vb = cell_number(g, ia, mcol), cell_number(g, ib, mcol)
    if va is None or vb is None:
        return None
    if va < vb:
        (ia, va), (ib, vb) = (ib, vb), (ia, va)
    d = round(va - vb, 6)
    return Result("difference", [d], [], ("difference", f"{va:g} - {vb:g}"),
                  [(ia, mcol), (ib, mcol)])


def _count_difference(r: Reading, g: Grid) -> Result | None:
    """"The difference in the number of temples between A and B": rows holding A minus rows
    holding B, when the two values share a column and no numeric column is named."""
    pair = next(((x, y) for x in r.matches for y in r.matches
                 if x.start < y.start and x.cols == y.cols), None)
    if pair is None or measure_column(r, g, set(pair[0].cols)) is not None:
        return None
    a, b = sorted(pair, key=lambda m: -len(m.rows))
    if len(a.rows) == len(b.rows) == 1:
        return None
    ia, ib = min(a.rows), min(b.rows)
    cells = [(i, a.cols[0]) for i in sorted(a.rows)] + [(i, b.cols[0]) for i in sorted(b.rows)]
    return Result("difference", [float(len(a.rows) - len(b.rows))], cells,
                  ("difference", f"{len(a.rows)} rows - {len(b.rows)} rows"),
                  [(ia, a.cols[0]), (ib, b.cols[0])], [float(len(a.rows)), float(len(b.rows))])


_COUNT = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b|\bhow often\b")
_ALL = re.compile(r"\b(?:listed|in the (?:table|list|chart)|on the (?:table|list|chart)|"
                  r"are there|total number|in total|in all|altogether)\b")


# "the change in the total number of X", "X as a percentage of the total number": a change or
# a share asked of a column's total
_OF_A_TOTAL = re.compile(r"\b(?:change|difference|increase|decrease|growth|proportion|ratio)\b|"
                         r"\bas an? (?:percentage|percent|share|proportion) of\b", re.I)


def op_count(r: Reading, g: Grid) -> Result | None:
    m = _COUNT.search(r.text)
    if not m:
        return None
    if r.says(MAXWORDS | MINWORDS) and "how many" not in r.text:
        return None  # "the least number of caps": a superlative, not a count
    if r.says(_RUN):
        return None  # "how many consecutive games": a run of rows, not every row
    k = len(r.text[:m.end()].split())
    noun = header_after(r, g, k, set())
    if noun is not None and column_numeric(g, noun) and not year_column(g, noun) \
            and noun not in {c.col for c in r.conds} and "times" not in r.q[k:k + 2]:
        if _OF_A_TOTAL.search(r.text):
            return None  # the total is one operand of what is asked, not the answer
        if r.matches or r.conds:
            return _sum(g, r.rows, noun, "sum")
        if re.search(r"\btotal\b|\ball\b|\bawarded\b|\bwon\b", r.text):
            return _sum(g, g.body(), noun, "sum")
        return None
    cond_cols = {c.col for c in r.conds}
    spans = {x for m in r.matches for x in range(m.start, m.end)}
    near = set() if "times" in r.q[k:k + 2] else {
        singular(w) for x, w in enumerate(r.q[k:k + 4], start=k) if x not in spans}
    if any(column_numeric(g, j) and not year_column(g, j) and j not in cond_cols
           and header_tokens(g, j) & near for j in range(len(g.cols))):
        return None  # "the number of nonvested shares": a figure of the column "Shares"
    if not r.matches and not r.conds and not _ALL.search(r.text):
        return None
    rows = r.rows
    if not rows and not (r.matches or r.conds):
        return None
    if len(rows) == 1 and r.matches and not r.conds and not r.negated and all(
            _names_rows(g, m.cols[0]) for m in r.matches):
        return None  # "the number of days of the Denver Open": a figure of that one row
    prefer = sorted(r.used_cols) + [j for j in range(len(g.cols)) if j not in r.used_cols]
    cells = [(i, _counted_cell(g, i, prefer)) for i in rows]
    return Result("count", [float(len(rows))], [], ("count", f"count of {len(rows)} rows"),
                  cells)


def _counted_cell(g: Grid, i: int, prefer: list[int]) -> int:
    """The cell that stands for a counted row in the count's derivation: one stating a number
    (so the verifier can ground the operand), the condition's own column first."""
    for j in prefer:
        if g.cites[i][j] is not None and g.cites[i][j]["value_num"] is not None:
            return j
    return prefer[0] if prefer else 0


def _sum(g: Grid, rows: list[int], col: int, name: str) -> Result | None:
    xs = [(i, cell_number(g, i, col)) for i in rows]
    xs = [(i, x) for i, x in xs if x is not None]
    if not xs:
        return None
    if len(xs) == 1:
        return Result("lookup", [g.text[xs[0][0]][col]], [(xs[0][0], col)])
    if name == "mean":
        v = round(math.fsum(x for _, x in xs) / len(xs), 6)
        return Result("average", [v], [], ("mean", " + ".join(f"{x:g}" for _, x in xs)),
                      [(i, col) for i, _ in xs])
    v = round(math.fsum(x for _, x in xs), 6)
    return Result("sum", [v], [], ("sum", " + ".join(f"{x:g}" for _, x in xs)),
                  [(i, col) for i, _ in xs])


def op_superlative(r: Reading, g: Grid) -> Result | None:
    ws = set(r.free)  # "Best Actress in a Play" names a row; "at most 80" is a bound
    cue = ws & (MAXWORDS | MINWORDS | {w for w in COMPARATIVES if w.endswith("est")})
    if not cue or ws & {"first", "last"} and not ws & (MAXWORDS - {"top"}) - {"latest"}:
        return None
    if "top" in ws and not ws & (MAXWORDS - {"top"}) and re.search(
            r"\btop of\b|\bat the top\b|\btop (?:place|one|entry)\b", r.text):
        return None  # "at the top of the chart": the first row
    rows = r.rows if (r.matches or r.conds) else g.body()
    wh = next((k for k, w in enumerate(r.q) if w in WH), None)
    asked = header_after(r, g, wh + 1, set()) if wh is not None else None
    at = min(k for k, w in enumerate(r.q) if w in cue)
    named = header_after(r, g, at + 1, {asked} if asked is not None else set())
    if named is not None and (not column_numeric(g, named) or year_column(g, named)) \
            and ws & {"most", "least", "fewest"}:
        return _mode(r, g, rows, asked if asked is not None else answer_column(
            r, g, {named}))  # "the year with the most titles": count rows per year
    if named is not None and column_numeric(g, named):
        mcol: int | None = named
    else:
        mcol = measure_column(r, g, {asked} if asked is not None else set())
    acol = asked if asked is not None and asked != mcol else answer_column(
        r, g, {mcol} if mcol is not None else set())
    if mcol is None:
        ranks = [j for j in range(len(g.cols)) if header_tokens(g, j) & RANKWORDS
                 and column_numeric(g, j)]
        if ranks and ws & TOPWORDS and not ws & {"most", "least"}:
            mcol = ranks[0]
    if mcol is None:
        return _mode(r, g, rows, acol) if ws & {"most", "least", "fewest"} else None
    if year_column(g, mcol) and not ws & _AGE_WORDS:
        return None  # "the most albums released in one year" does not rank the years
    d = direction(r, g, mcol)
    xs = [(i, _rank_value(g, i, mcol)) for i in rows]
    xs = [(i, x) for i, x in xs if x is not None]
    if d is None or not xs:
        return None
    best = (max if d == "desc" else min)(x for _, x in xs)
    win = [i for i, x in xs if x == best]
    if acol is None or acol == mcol or _asks_value(r, g, mcol):
        shown = _BRACKET_NOTE.sub("", g.text[win[0]][mcol]) or g.text[win[0]][mcol]
        return Result("max" if d == "desc" else "min", [shown], [(win[0], mcol)])
    if len(win) > MAX_ROWS_LISTED or _ASKS_QUANTITY.search(r.text):
        return None  # "what is the proportion of the largest ..." is not answered by a name
    return Result("row_max" if d == "desc" else "row_min", vals(g, win, acol),
                  [(i, acol) for i in win] + [(i, mcol) for i in win])


# a question asking for a quantity (a proportion, a percentage, a rate of something), which
# the name of the row ranked first does not answer
_ASKS_QUANTITY = re.compile(r"^\s*(?:what|how much)\s+(?:is|was|are|were)\s+(?:the\s+)?"
                            r"(?:proportion|percentage|percent|share|ratio|rate)\b", re.I)


def _rank_value(g: Grid, i: int, j: int) -> float | None:
    """The number a superlative ranks a cell by; a date by its day ("1983-03" before
    "1983-08"), which its leading year alone would tie."""
    v = g.values[i][j]
    if hasattr(v, "toordinal"):
        return float(v.toordinal())
    m = re.fullmatch(r"\s*(\d{4})-(\d{1,2})(?:-(\d{1,2}))?\s*", g.text[i][j] or "")
    if m:
        return int(m.group(1)) * 400.0 + int(m.group(2)) * 32 + int(m.group(3) or 0)
    return cell_number(g, i, j)


_AGE_WORDS = frozenset({"oldest", "newest", "earliest", "latest", "recent", "older", "newer",
                        "youngest", "younger", "first", "last"})


# "10 (4+3+3)": the value ranked is the number; the bracket after it is its breakdown
_BRACKET_NOTE = re.compile(r"\s*\([^()]*\)\s*$")


def _asks_value(r: Reading, g: Grid, mcol: int) -> bool:
    """"What is the largest penalty?" / "what is the most wins?": the value itself."""
    m = re.match(r"^(?:what|how many|how much) (?:is|was|were|are) (?:the )?(\w+)", r.text)
    return bool(m) and m.group(1) in MAXWORDS | MINWORDS


def _mode(r: Reading, g: Grid, rows: list[int], col: int | None) -> Result | None:
    """"Which driver appears the most?": the value the most rows hold."""
    if col is None or not rows or "recent" in r.q:
        return None  # "the most recent source": a time, not a frequency
    if col in time_columns(g) and not r.says(frozenset(("when", "year", "years", "date",
                                                          "season", "seasons"))):
        return None  # "which team did they play the most" is not counted per date
    cnt = Counter(g.text[i][col] for i in rows if g.text[i][col])
    if len(cnt) < 2:
        return None
    most = "least" not in r.q and "fewest" not in r.q
    best = (max if most else min)(cnt.values())
    win = [v for v, c in cnt.items() if c == best]
    if len(win) > 1 or (most and best == 1):
        return None  # a tie or no repeat: no single most frequent value
    return Result("mode", win, [(i, col) for i in rows if g.text[i][col] in win][:20])


_FIRST = re.compile(r"\b(first|last|earliest|latest|final|top|bottom|most recent|"
                    r"beginning|end)\b")


def op_first_last(r: Reading, g: Grid) -> Result | None:
    m = _FIRST.search(r.text)
    if m and not r.says({m.group(1).split()[0]}):
        return None  # "First Division", "Top 30": a cell value, not the first row
    if not m or re.search(rf"\b{m.group(1)}-\w", r.raw):
        return None  # "first-year retention": a compound, not the first row
    word = m.group(1)
    if any(word in h.lower().split() and _quoted(h, r.text) for h in g.headers):
        return None  # "the last fiscal year of expiration": the column "Last Fiscal Year of
        # Expiration" the question quotes, not the last of its rows
    if word == "top" and not re.search(r"\btop of\b|\bat the top\b|\bis at the top\b|"
                                       r"\btop (?:place|one|entry|listed|name)\b", r.text):
        return None
    if word in ("end", "beginning") and not re.search(r"\b(?:at|in) the (?:end|beginning)\b",
                                                      r.text):
        return None
    last = word in ("last", "latest", "final", "bottom", "most recent", "end")
    rows = r.rows if (r.matches or r.conds) else g.body()
    if len(rows) < 2 and not r.conds:
        return None  # one row named: the first or last of something it does not list
    cue = len(r.text[:m.start()].split())  # "the first computer" does not name "First flight"
    held = {cue} | {k for x in r.matches for k in range(x.start, x.end)} | {
        k for c in r.conds for k in range(*c.span)}
    acol = answer_column(replace(r, mentions=column_mentions(r.q, g, held)), g, r.used_cols)
    if acol is None:
        return None
    if re.search(r"\balphabetic", r.text):
        order = sorted(rows, key=lambda i: g.text[i][acol].lower())
    else:
        order = _by_time(r, g, rows)
    if not order:
        return None  # a condition no row passes: no first or last of them
    row = order[-1] if last else order[0]
    return Result("last" if last else "first", [g.text[row][acol]], [(row, acol)])


def _quoted(header: str, text: str) -> bool:
    """Whether the question's (lowered) text quotes a column header whole, word for word."""
    words = re.findall(r"\w+", header.lower())
    return len(words) > 1 and bool(re.search(r"\b" + r"\W+".join(words) + r"\b", text))


def _by_time(r: Reading, g: Grid, rows: list[int]) -> list[int]:
    """The rows in time order when the question is about time ("the first venue of the Asian
    Games" is the earliest, wherever the file lists it): by the first period column that
    dates every row, ties in file order; in file order for "listed" / "on the chart"."""
    if re.search(r"\b(?:listed|list|chart|table|on the|top|bottom)\b", r.text):
        return rows
    for j in time_columns(g):
        keys = [_rank_value(g, i, j) if year_of(g.text[i][j]) is not None else None
                for i in rows]
        if all(k is not None for k in keys):
            return [i for _, i in sorted(zip(keys, rows, strict=True), key=lambda x: x[0])]
    return _chronological(r, g, rows)


def _chronological(r: Reading, g: Grid, rows: list[int]) -> list[int]:
    """File order, unless the question is about time and a year column runs backwards."""
    if re.search(r"\b(?:listed|list|chart|table|on the|top|bottom)\b", r.text):
        return rows
    for j in time_columns(g):
        ys = [year_of(g.text[i][j]) for i in range(g.n_rows)]
        ys = [y for y in ys if y is not None]
        if len(ys) >= 3 and ys == sorted(ys, reverse=True) and ys[0] != ys[-1]:
            return list(reversed(rows))
    return rows


def op_aggregate(r: Reading, g: Grid) -> Result | None:
    m = re.search(r"\b(average|mean|total|sum|combined)\b", r.text)
    if m is None:
        return None
    if _OF_A_TOTAL.search(r.text):
        return None  # the total (or average) is one operand of what is asked, not the answer
    name = "mean" if m.group(1) in ("average", "mean") else "sum"
    k = len(r.text[:m.end()].split())
    mcol = header_after(r, g, k, r.used_cols)  # "the total X", "the average number of X"
    if mcol is None or not column_numeric(g, mcol):
        return None
    rows = r.rows if (r.matches or r.conds) else named_year_rows(r.raw, g)
    if rows is None:
        return None
    return _sum(g, rows, mcol, name)


def op_lookup(r: Reading, g: Grid) -> Result | None:
    same = re.search(r"\bsame (\w+(?: \w+)?) as\b", r.text)
    if same and r.matches:
        k = len(r.text[:same.start()].split()) + 1
        scol = header_after(r, g, k, set())
        anchor = r.matches[-1]
        if scol is None or len(anchor.rows) != 1:
            return None
        i0 = next(iter(anchor.rows))
        rows = [i for i in range(g.n_rows) if i != i0 and g.text[i][scol] == g.text[i0][scol]]
        acol = anchor.cols[0]
        return lookup_rows(g, rows, acol, "same") if rows else None
    if not r.matches and not r.conds:
        return None
    excl = re.search(r"\b(?:other than|besides|except|apart from|aside from)\b", r.text)
    rows = r.rows
    if excl:
        k = len(r.text[:excl.end()].split())
        ex = next((m for m in r.matches if k <= m.start <= k + 1 or m.end == len(r.q)), None)
        if ex is not None:
            rr = read(r.text, g, exclude=ex)
            rows = [i for i in rr.rows if i not in ex.rows] if (rr.matches or rr.conds) else []
    if not rows or _unread_cue(r, g):
        return None
    acol = answer_column(r, g, r.used_cols, named=True)
    if acol is None:
        return None
    if _COUNT.search(r.text) and (not column_numeric(g, acol) or len(vals(g, rows, acol)) > 1):
        return None  # "how many ..." is answered with one number, not a name or a list
    if "how long" in r.text and not _duration_like(g, rows, acol):
        return None  # "how long did he serve?" is not answered with "1981–2007"
    return lookup_rows(g, rows, acol, "lookup")


_CUES = (MAXWORDS | MINWORDS | frozenset(COMPARATIVES) | frozenset(
    {"first", "last", "before", "after", "previous", "next", "following", "preceding",
     "earliest", "latest", "final", "consecutive", "straight", "row"})) - {"top"}


def _unread_cue(r: Reading, g: Grid) -> bool:
    """A word asking for a ranking, an order or a comparison that the lookup would ignore:
    "which ship in Auckland had the fastest speed" is not every ship in Auckland, and "the
    award won just before X" is not X's own row. Words inside a cell value or a condition
    ("First Division", "more than 4") do not count, nor do those of a column header the
    question quotes whole ("the last fiscal year of expiration": the column so named)."""
    quoted = {w for h in g.headers if _quoted(h, r.text) for w in h.lower().split()}
    return r.says(_CUES - quoted)


def _duration_like(g: Grid, rows: list[int], col: int) -> bool:
    """Cells that state a length of time ("2:23:08", "7 years", "26 days"), not a date."""
    out = [g.text[i][col] for i in rows]
    return bool(out) and all(re.fullmatch(
        r"\s*(?:\d+:\d{2}(?::\d{2})?(?:\.\d+)?|\d+(?:\.\d+)?\s*(?:years?|yrs?|months?|weeks?|"
        r"days?|hours?|hrs?|minutes?|mins?|seconds?|secs?|h|m|s))\s*", t, re.I) for t in out)


def _names_rows(g: Grid, j: int) -> bool:
    """The column that names the rows (the first text column: "Event", "Nation") or a period
    column: one row of it named in a count question is the row whose figure is asked for. A
    value of another column ("Winner: Sergio Garcia") may well be held by one row only."""
    first = next((k for k in range(len(g.cols)) if not column_numeric(g, k)), None)
    return j == first or j in time_columns(g)


_RUN = frozenset({"consecutive", "straight", "successive", "running"})


def op_run(r: Reading, g: Grid) -> Result | None:
    """"How many consecutive games did she score in?": the longest run of adjacent rows, in
    the table's order, that the named values select. Conditions and a named period ("during
    the 2013 season") choose the rows the run is counted among, so a row outside them breaks
    no run. Only the length is answered; "which ... consecutive" declines."""
    if not (_COUNT.search(r.text) or r.says(frozenset({"longest", "most", "largest"}))) or (
            r.q and r.q[0] in ("which", "who", "what") and not r.says(frozenset({"number"}))):
        return None
    periods = set(time_columns(g))
    subject = [m for m in r.matches if not set(m.cols) & periods]
    if not subject:
        return None
    pool = select(g, [m for m in r.matches if m not in subject], r.conds, r.negated)
    hits = set(select(g, subject, [], r.negated))
    best: list[int] = []
    run: list[int] = []
    for i in pool:
        run = [*run, i] if i in hits else []
        if len(run) > len(best):
            best = run
    if len(best) < 2:
        return None  # one row is no run of consecutive ones
    cols = sorted({j for m in subject for j in m.cols})
    prefer = cols + [j for j in range(len(g.cols)) if j not in cols]
    cells = [(i, _counted_cell(g, i, prefer)) for i in best]
    return Result("count", [float(len(best))], [], ("count", f"count of {len(best)} rows"),
                  cells)


OPERATORS = (op_neighbour, op_either, op_difference, op_count, op_superlative, op_first_last,
             op_aggregate, op_lookup)


def answer(question: str, g: Grid) -> tuple[Result, float, Reading] | None:
    """The first operator's result and how strongly the question reads onto this table (the
    words its cell values and column names explain), to choose among several tables."""
    r = read(question, g)
    if r.loose_negation:
        return None  # a "not" it cannot apply: every operator would ignore it
    for op in (op_run,) if r.says(_RUN) else OPERATORS:
        if r.negated and op in (op_neighbour, op_either, op_difference):
            continue  # these read the named rows themselves, which the negation excludes
        res = op(r, g)
        if res is not None:
            if not res.answer or any(v in ("", None) for v in res.answer):
                return None
            if any("\n" in v for v in res.answer if isinstance(v, str)):
                return None  # a cell listing several values: which one is asked is unclear
            strength = sum((m.end - m.start) * (1.0 if m.full else 0.5) for m in r.matches)
            return res, strength + sum(r.mentions.values()) + 0.5 * len(r.conds), r
    return None
