"""The programs a question may mean over a *list table*: one row per entity (a player, a
season, a lake), columns of its attributes — WikiTableQuestions' tables, as opposed to the
report tables (line items x periods) of `candidates`.

The rows such a question names are named by a cell value, not a row label ("how many players
are from Canada?", "what year did X happen?"), so the operands come from the cell-value linker
(`link.link_cells`) and from positions (the first and last rows, the row after a named one),
and the column asked for is any column, text included. Every operator is one of `language`:

- `lookup` of the cell of a row a value names, in a column (shape `list:value`); of the first
  or last row (`list:first`, `list:last`); of the row after or before a named one
  (`list:next`, `list:prev`);
- `argmax` / `argmin` over every row of a numeric column, stating another column's cell of
  the picked row (`Program.report`; `list:rows`), over the rows one value names ("the last
  year the team played in league X"; `list:rowsof`), or over the rows two values name
  ("which is deeper, A or B?"; `list:pick`);
- `count` of the rows whose cell equals a named value (`where "=value"`), of the rows whose
  figure passes a bound (`where "<N"`), of every row (`list:count`);
- `difference` / `sum` of one column's cells in two named rows (`list:pair`); `sum` /
  `average` of a column over every row (`list:rows`);
- `mode`: the text a column shows most often ("which year had the most titles?"; `list:mode`);
- a column's cells in the rows whose cell in another column is a named value, or passes a
  bound (`each` with `where` and `test`: "which players played position X?"), and their
  `sum` ("the total medals of X"; `list:where`);
- a word the question says inside longer cells ("1944" in "12 March 1944", "Canada" in
  "Montreal, Canada"): the `count` of the rows holding it, and their other cells (`where
  "~word"`; `list:holds`);
- the rows whose figure passes a named row's ("more gold medals than X": `where ">N"` with N
  that row's figure; `list:than`); the first and last rows' figures apart (`list:ends`);
- yes or no: is one named row's figure larger than another's (`exceeds`, `list:pair`: "did
  A score more goals than B?"), or one of two alternatives the question offers ("more or
  less", `list:says`);
- the other rows that share a named row's cell in another column, counted or stated ("the
  same position as X": `where "=<X's cell>"` over every row but X's; `list:same`);
- `streak`: the longest run of consecutive rows whose cell is a named value, holds a word,
  or passes a bound ("the most consecutive wins"; `list:streak`);
- `first` / `last`: the first or last row, in table order, whose cell passes a bound or holds
  a word, stating another column of it ("the first year with more than 10 wins"; `list:end`);
- `rarest`: the text a column shows least often, `mode`'s counterpart (`list:mode`); and
  `distinct`: how many different texts it shows ("how many nations are listed?");
- `sum` / `average` of a column over the rows a condition keeps (`list:where`);
- two conditions on two columns at once (`and_where`: "how many games in 1990 were won?"):
  the rows passing both, counted, stated and summed (`list:both`);
- a span of figures or years ("between 1992 and 2011", "in the 1970s"; `lexicon.ranges`):
  the rows within it, counted and stated (`list:span`);
- bounds on years by their order in time ("before 1992", "since 2000": `lexicon.time_bounds`)
  over a year or date column, as the bounds on figures are applied (`list:count`,
  `list:where`).

As in `candidates`, enumeration is wide and the choice is the scorer's: the structural facts of
each candidate (`Candidate.features`: link qualities, the column's header match and role, the
question's opening words crossed with the answer column's role) are what it learns from. The
number of candidates is bounded by the caps below (a few hundred at most per table).
"""

from __future__ import annotations

import re
from itertools import combinations, permutations

from hyrag.answer.programs.candidates import Candidate
from hyrag.answer.programs.execute import Result, same_text
from hyrag.answer.programs.figures import PLAIN_NUMBER, figure_of
from hyrag.answer.programs.language import Cell, Program
from hyrag.answer.programs.lexicon import (
    STOP,
    ranges,
    stem,
    time_bounds,
    token_spans,
    tokens,
    written,
)
from hyrag.answer.programs.link import CellLink, Question, TableIndex, link_cells
from hyrag.answer.programs.relatedness import asked_words, header_relatedness
from ingest.timekeys import month_number

# caps that bound the candidates per table (latency): columns looked up, numeric columns
# compared, values whose rows are read, rows per value
MAX_COLUMNS = 8
MAX_NUMERIC = 4
MAX_VALUES = 4
MAX_ROWS_PER_VALUE = 2
# columns whose most frequent text is a candidate (`mode`); columns stated for the rows a
# condition keeps; words the question says inside longer cells (`where "~word"`)
MAX_MODE_COLUMNS = 5
MAX_WHERE_COLUMNS = 4
MAX_HELD = 4
# two one-word alternatives a question offers ("more or less", "above or below")
_ALTERNATIVES = re.compile(r"\b([a-z]+) or ([a-z]+)\b")
# the conditions paired into two-condition candidates (`list:both`); numeric columns summed
# or averaged over the rows a condition keeps
MAX_CONDITIONS = 5
MAX_FILTERED_NUMERIC = 2
# columns whose cell in a named row the other rows are matched on ("the same year as X")
MAX_SAME_COLUMNS = 3
# header words of a column crossed with the question's opening (`col_feats`)
MAX_HEAD_WORDS = 4
# a column is numeric when at least this share of its data rows show a figure
NUMERIC_SHARE = 0.6
# a kind prefix of every list candidate's `shape` (`score.op_key` keys operators by it)
PREFIX = "list:"


def enumerate_list_programs(q: Question, ti: TableIndex) -> list[Candidate]:
    """Every list-table candidate over the table (module docstring)."""
    model = ti.model
    # the entity rows, and per column how many of them have a cell or show a figure: facts of
    # the table, computed once in its index (`link.index`)
    data = list(ti.entity_rows)
    if len(data) < 2:
        return []
    have = ti.cell_pos
    a = model.arrays
    name = model.name
    place = {i: k for k, i in enumerate(data)}
    ncols = len(model.columns)
    filled, figures = ti.col_filled, ti.col_figures
    # per column, the header words the question says
    cover = []
    for j in range(ncols):
        words = ti.col_words[j]
        cover.append(ti.weight(words & q.words) / (ti.weight(words) or 1.0) if words else 0.0)
    order = sorted((j for j in range(ncols) if filled[j]), key=lambda j: (-cover[j], j))
    cols = order[:MAX_COLUMNS]
    numeric = [j for j in order if figures[j] >= max(2, NUMERIC_SHARE * filled[j])]
    nums = numeric[:MAX_NUMERIC]
    rank = {j: k for k, j in enumerate(order)}
    said = tokens(q.text)
    opening = "_".join(said[:2])
    # the question's own words that may name a column (`relatedness.asked_words`: unstemmed,
    # no stop word, none a cell holds — such a word names a row), crossed with the answer
    # column's header words and with the order of the rows (`col_feats`, `list:next`), and
    # compared with the headers by their relatedness
    asked = asked_words(q.text, lambda w: stem(w) in ti.value_words)
    heads = [sorted(set(tokens(" ".join(c.path))))[:MAX_HEAD_WORDS] for c in model.columns]
    values = [v for v in link_cells(q, ti) if any(i in place for i, _ in v.cells)]
    # the question's bounds on figures, and on years by their order in time ("before 1992":
    # a list's year or date column, `lexicon.time_bounds`)
    bounds = list(dict.fromkeys(q.bounds + time_bounds(q.text)))
    # the columns a bound tests: the numeric ones, and for a bound on years the columns whose
    # cells name a year ("12 March 1944"), first
    timed = set(bounds) - set(q.bounds)
    dated = [j for j in order if ti.col_dates[j] >= max(2, NUMERIC_SHARE * filled[j])]
    tested = {b: list(dict.fromkeys(dated + nums))[:3] if b in timed else nums[:3]
              for b in bounds}
    runs = ti.col_runs
    # the alternatives the question offers that are no cell's words ("more or less", "above or
    # below"), in both readings: which one means larger is the ranker's to learn
    offered = [pair for m in _ALTERNATIVES.finditer(q.text.lower())
               if not any(stem(w) in ti.value_words for w in m.groups())
               for pair in (m.groups(), m.groups()[::-1])]
    # the columns whose header the question names (most of its words)
    named_cols = [j for j in range(ncols) if cover[j] >= NAMED_COVER]
    # per column, how related its header is to the words of the question no cell holds
    # ("earns" and "Salary"; `relatedness.header_relatedness`): what the lexical cover
    # misses. Features, not an order: taking the columns by relatedness too kept fewer right
    # candidates than the columns' own order
    rels = header_relatedness(asked, [" ".join(c.path) for c in model.columns])
    best_rels = {name: max(vals, default=0.0) for name, vals in rels.items()}
    out: list[Candidate] = []

    def col_feats(j: int, prefix: str = "") -> dict[str, float]:
        role = model.columns[j].role
        out = {f"{prefix}col_cov": cover[j], f"{prefix}col_best": float(rank[j] == 0),
               f"{prefix}col_first": float(j == 0),
               f"{prefix}col_numeric": float(j in numeric),
               f"{prefix}role={role}": 1.0, f"{prefix}q={opening}:role={role}": 1.0,
               f"{prefix}q={opening}:numeric={j in numeric}": 1.0}
        for rel, vals in rels.items():  # the column's relatedness, and whether it is the best
            out[f"{prefix}{rel}"] = vals[j]
            out[f"{prefix}{rel}_best"] = float(best_rels[rel] > 0 and vals[j] == best_rels[rel])
        # the question's opening crossed with the column's header words: "who" asks a name
        # column, "when" a date one, "where" a venue; which header words answer which
        # opening is learned, not listed
        for w in heads[j]:
            out[f"{prefix}q={opening}:head={w}"] = 1.0
            out[f"{prefix}head={w}"] = 1.0
        # its place among the columns the question names best, and among the numeric ones
        # ("the most bronze": the numeric column the question names, not the first one)
        out[f"{prefix}rank={min(rank[j], 5)}"] = 1.0
        if j in nums:
            out[f"{prefix}numrank={nums.index(j)}"] = 1.0
        if not prefix:
            # each content word of the question crossed with the answer column's header words
            # ("born" with "birthplace", "coach" with "name"): the lexical pairs of a
            # floating parser (Pasupat & Liang 2015), learned, where the opening alone
            # leaves the rest of the question unread
            for w in asked:
                for h in heads[j]:
                    out[f"q~{w}:head={h}"] = 1.0
        return out

    def value_feats(v: CellLink) -> dict[str, float]:
        rows = {i for i, _ in v.cells if i in place}
        return {"val_cover": v.cover, "val_exact": float(v.exact), "val_fuzzy": v.fuzzy,
                "val_best": float(v.rank == 0), "val_rows_many": float(len(rows) > 1),
                "val_numeric": float(bool(PLAIN_NUMBER.fullmatch(v.text))),
                "val_len": min(len(v.text), 30) / 30.0}

    def add(op: str, cells: list[tuple[int, int]], shape: str, feats: dict[str, float],
            where: str = "", report: int = -1, test: int = -1,
            also: tuple[str, int] = ("", -1), says: str = "") -> None:
        if not cells or any(rc not in have for rc in cells):
            return
        args = tuple(Cell(name, i, j) for i, j in cells)
        feats = {**feats, "n_rows_in_table": min(len(data), 50) / 50.0,
                 **_unused(cells, (where, also[0]), (report, test, also[1]), values,
                           named_cols)}
        out.append(Candidate(Program(op, args, where, report, test=test, and_where=also[0],
                                     and_test=also[1], says=says), PREFIX + shape, feats))

    def column_cells(j: int) -> list[tuple[int, int]]:
        return [(i, j) for i in data if (i, j) in have]

    # a row a value names: its other cells (the first and the last such row)
    for v in values[:MAX_VALUES]:
        hits = list(dict.fromkeys(i for i, _ in v.cells if i in place))
        rows = list(dict.fromkeys(hits[:MAX_ROWS_PER_VALUE - 1] + hits[-1:]))
        vcols = {j for _, j in v.cells}
        for i in rows:
            for j in cols:
                if j not in vcols:
                    add("lookup", [(i, j)], "value", {**value_feats(v), **col_feats(j)})
            # the row after / before it; which one "after X" means depends on how the
            # named value's column runs down the table (years rising or falling, ranks), so
            # that direction is crossed with the question's words
            k = place[i]
            run = runs[v.cells[0][1]]
            turn = {f"order={run}": 1.0, **{f"order={run}:w={w}": 1.0 for w in asked}}
            for shape, step in (("next", 1), ("prev", -1)):
                if 0 <= k + step < len(data):
                    for j in cols[:5]:
                        add("lookup", [(data[k + step], j)], shape,
                            {**value_feats(v), **col_feats(j), **turn,
                             "same_column": float(j in vcols)})
    # the first and last rows
    for shape, i in (("first", data[0]), ("last", data[-1])):
        for j in cols:
            add("lookup", [(i, j)], shape, col_feats(j))
    # the row with the largest / smallest figure of a column, stating another column
    for x in nums:
        cells = column_cells(x)
        if len(cells) < 2:
            continue
        for y in cols[:5]:
            for op in ("argmax", "argmin"):
                add(op, cells, "rows", {**col_feats(x, "x_"), **col_feats(y),
                                        "report_self": float(x == y)}, report=y)
        for op in ("sum", "average"):
            add(op, cells, "rows", col_feats(x, "x_"))
    # among the rows one value names, the one with the largest / smallest figure ("the last
    # year the team played in league X")
    for v in values[:2]:
        hits = list(dict.fromkeys(i for i, _ in v.cells if i in place))
        if len(hits) < 2:
            continue
        for x in nums[:3]:
            cells = [(i, x) for i in hits if (i, x) in have]
            for y in cols[:4]:
                for op in ("argmax", "argmin"):
                    add(op, cells, "rowsof", {**value_feats(v), **col_feats(x, "x_"),
                                              **col_feats(y), "report_self": float(x == y)},
                        report=y)
    # the rows two values name, compared in a numeric column
    for v, w in combinations(values[:MAX_VALUES], 2):
        ri = next((i for i, _ in v.cells if i in place), None)
        rj = next((i for i, _ in w.cells if i in place and i != ri), None)
        if ri is None or rj is None or ri == rj:
            continue
        vcol = v.cells[0][1]
        both = {**_prefixed(value_feats(v), "a_"), **_prefixed(value_feats(w), "b_")}
        for x in nums[:3]:
            for op in ("argmax", "argmin"):
                add(op, [(ri, x), (rj, x)], "pick", {**both, **col_feats(x, "x_")},
                    report=vcol)
            first, second = (ri, rj) if v.position <= w.position else (rj, ri)
            for p, r in permutations((first, second)):
                order = {**both, **col_feats(x), "first_mentioned_first": float(p == first)}
                add("difference", [(p, x), (r, x)], "pair", order)
                # "did A score more than B?": yes or no (`CONVENTIONS["exceeds"]`); "did A
                # score more or less than B?": one of the alternatives the question offers,
                # which of them means larger learned from the words (`says`)
                add("exceeds", [(p, x), (r, x)], "pair", order)
                for larger, other in offered:
                    add("exceeds", [(p, x), (r, x)], "says",
                        {**order, f"says_larger={stem(larger)}": 1.0}, says=f"{larger}|{other}")
            add("sum", [(first, x), (second, x)], "pair", {**both, **col_feats(x)})
    # counts: rows whose cell is a named value, rows past a bound, every row
    for v in values[:MAX_VALUES]:
        for j in list(dict.fromkeys(j for _, j in v.cells))[:2]:
            add("count", column_cells(j), "count", {**value_feats(v), **col_feats(j)},
                where="=" + v.text)
    for b in bounds:
        for x in tested[b]:
            add("count", column_cells(x), "count", {**col_feats(x), "bounded": 1.0,
                                                    "time_bound": float(b in timed)}, where=b)
    # the longest run of consecutive rows whose cell is a named value, holds a word the
    # question says, or passes a bound ("the most consecutive wins", "how many consecutive
    # games were played at X?")
    for v in values[:MAX_VALUES]:
        for j in list(dict.fromkeys(j for _, j in v.cells))[:2]:
            add("streak", column_cells(j), "streak", {**value_feats(v), **col_feats(j)},
                where="=" + v.text)
    for b in bounds:
        for x in tested[b][:2]:
            add("streak", column_cells(x), "streak", {**col_feats(x), "bounded": 1.0}, where=b)
    full = max(range(ncols), key=lambda j: (filled[j], -j))
    add("count", column_cells(full), "count", {"all_rows": 1.0})
    # the text a column shows most often
    for j in cols[:MAX_MODE_COLUMNS]:
        add("mode", column_cells(j), "mode", col_feats(j))
    # another column's cells in the rows a named value or a bound keeps, and their sum
    for v in values[:MAX_VALUES]:
        for x in list(dict.fromkeys(j for _, j in v.cells))[:2]:
            keep = {**value_feats(v), **col_feats(x, "x_")}
            for y in cols[:MAX_WHERE_COLUMNS]:
                if y != x:
                    add("each", column_cells(y), "where", {**keep, **col_feats(y)},
                        where="=" + v.text, test=x)
            for y in nums[:3]:
                if y != x:
                    add("sum", column_cells(y), "where", {**keep, **col_feats(y)},
                        where="=" + v.text, test=x)
    for b in bounds:
        for x in tested[b][:2]:
            for y in cols[:MAX_WHERE_COLUMNS]:
                if y != x:
                    add("each", column_cells(y), "where",
                        {**col_feats(x, "x_"), **col_feats(y), "bounded": 1.0,
                         "time_bound": float(b in timed)}, where=b, test=x)
    # the rows whose figure passes a named row's ("which countries had more gold medals than
    # X?", "how many scored fewer than X?"): the bound is the named row's figure
    for v in values[:2]:
        ri = next((i for i, _ in v.cells if i in place), None)
        if ri is None:
            continue
        for x in nums[:2]:
            k = have.get((ri, x))
            figure = None if k is None else a.value[k]
            if figure is None:
                figure = figure_of(a.text[k]) if k is not None else None
            if figure is None:
                continue
            keep = {**value_feats(v), **col_feats(x, "x_"), "than_row": 1.0}
            for sign in (">", "<"):
                bound = f"{sign}{figure:g}"
                add("count", column_cells(x), "than", keep, where=bound)
                for y in cols[:3]:
                    if y != x:
                        add("each", column_cells(y), "than", {**keep, **col_feats(y)},
                            where=bound, test=x)
    # the other rows that share a named row's cell in another column ("the same year as X",
    # "how many attacks were of the same type as Y?"): counted, and another column of theirs
    # stated; the condition is the named row's cell, the operands every other row's
    for v in values[:2]:
        ri = next((i for i, _ in v.cells if i in place), None)
        if ri is None:
            continue
        vcols = {j for _, j in v.cells}
        for x in cols[:MAX_SAME_COLUMNS]:
            k = have.get((ri, x))
            if x in vcols or k is None or not a.text[k].strip():
                continue
            keep = {**value_feats(v), **col_feats(x, "x_"), "same_as_row": 1.0}
            same = "=" + a.text[k].strip()
            add("count", [c for c in column_cells(x) if c[0] != ri], "same", keep, where=same)
            for y in cols[:MAX_SAME_COLUMNS]:
                if y != x:
                    add("each", [c for c in column_cells(y) if c[0] != ri], "same",
                        {**keep, **col_feats(y), "same_column": float(y in vcols)},
                        where=same, test=x)
    # the first and the last rows' figures, apart ("the difference between the first and
    # the last team's points")
    for x in nums[:3]:
        first, last = (data[0], x), (data[-1], x)
        for pair in ((first, last), (last, first)):
            add("difference", list(pair), "ends", {**col_feats(x), "first_row_first": float(
                pair[0] == first)})
    # a word the question says inside longer cells: the rows holding it, counted and stated
    held = _held(q, ti, place)[:MAX_HELD]
    for word, x, share in held:
        keep = {**col_feats(x, "x_"), "held_share": share, "held_figure": float(
            word.isdigit()), "held_one": float(share * len(data) < 1.5)}
        add("count", column_cells(x), "holds", keep, where="~" + word)
        add("streak", column_cells(x), "streak", keep, where="~" + word)
        for y in cols[:MAX_WHERE_COLUMNS]:
            if y != x:
                add("each", column_cells(y), "holds", {**keep, **col_feats(y)},
                    where="~" + word, test=x)
    # the conditions the question sets on one column each: a named value, a bound, a word
    # inside longer cells — (condition, column tested, what it rests on)
    conds: list[tuple[str, int, dict[str, float]]] = []
    for v in values[:MAX_VALUES]:
        conds.append(("=" + v.text, v.cells[0][1], {**value_feats(v), "cond=value": 1.0}))
    for b in bounds:
        for x in tested[b][:2]:
            conds.append((b, x, {"cond=bound": 1.0, "time_bound": float(b in timed)}))
    for word, x, share in held[:2]:
        conds.append(("~" + word, x, {"held_share": share, "cond=held": 1.0}))
    # the first / last row (in table order) whose cell passes a bound or holds a word, and
    # another column of it ("the first year with more than 10 wins"; a named value's first
    # and last rows are `list:value`'s lookups)
    for where, x, kept in conds:
        if where[0] == "=":
            continue
        for y in cols[:MAX_WHERE_COLUMNS]:
            for op in ("first", "last"):
                add(op, column_cells(x), "end", {**_prefixed(kept, "x_"), **col_feats(x, "x_"),
                                                 **col_feats(y), "report_self": float(x == y)},
                    where=where, report=y)
    # the text a column shows least often (the counterpart of `mode`), and how many different
    # texts it shows
    for j in cols[:MAX_MODE_COLUMNS]:
        add("rarest", column_cells(j), "mode", col_feats(j))
        add("distinct", column_cells(j), "distinct", col_feats(j))
    # the sum and the average of a column over the rows a bound or a held word keeps, and the
    # average over the rows a named value keeps (its sum is `list:where`'s)
    for where, x, kept in conds:
        for y in nums[:MAX_FILTERED_NUMERIC]:
            if y == x:
                continue
            keep = {**_prefixed(kept, "x_"), **col_feats(x, "x_"), **col_feats(y)}
            for op in ("sum", "average") if where[0] != "=" else ("average",):
                add(op, column_cells(y), "where", keep, where=where, test=x)
    # two conditions on two columns at once ("how many games in 1990 were won?"): the rows
    # passing both, counted, stated in another column, and summed
    for (w1, x1, k1), (w2, x2, k2) in combinations(conds[:MAX_CONDITIONS], 2):
        if x1 == x2:
            continue
        both = {**_prefixed(k1, "a_"), **_prefixed(k2, "b_"), **col_feats(x1, "x_"),
                **col_feats(x2, "y_")}
        add("count", column_cells(x1), "both", both, where=w1, also=(w2, x2))
        for y in cols[:MAX_WHERE_COLUMNS]:
            if y not in (x1, x2):
                add("each", column_cells(y), "both", {**both, **col_feats(y)}, where=w1,
                    test=x1, also=(w2, x2))
        for y in nums[:MAX_FILTERED_NUMERIC]:
            if y not in (x1, x2):
                add("sum", column_cells(y), "both", {**both, **col_feats(y)}, where=w1,
                    test=x1, also=(w2, x2))
    # a span of figures or years ("between 1992 and 2011", "in the 1970s"): both ends on one
    # column, the rows within counted and stated; a span of years tests the year and date
    # columns first, as a bound on years does
    for lo, hi in ranges(q.text):
        timely = all(1000 <= float(e.lstrip("<>=")) <= 2100 for e in (lo, hi))
        for x in list(dict.fromkeys(dated + nums if timely else nums))[:2]:
            keep = {**col_feats(x, "x_"), "span": 1.0, "time_bound": float(timely)}
            add("count", column_cells(x), "span", keep, where=lo, also=(hi, x))
            for y in cols[:MAX_WHERE_COLUMNS]:
                if y != x:
                    add("each", column_cells(y), "span", {**keep, **col_feats(y)}, where=lo,
                        test=x, also=(hi, x))
    return out


def _held(q: Question, ti: TableIndex, place: dict[int, int]) -> list[tuple[str, int, float]]:
    """The words the question says that cells of a column hold among other words ("1944" in
    "12 March 1944"): (the word as the cells write it, the column, the share of the data rows
    holding it), the rarest first — a cell that *is* the word is `link_cells`' value."""
    found: dict[tuple[str, int], set[int]] = {}
    for raw in dict.fromkeys(written(q.text)):
        w = stem(raw)
        if w in STOP or len(raw) < 2 or not raw.isalnum():  # a grouped number is a value
            continue
        # a month the question writes out is held by cells that abbreviate it ("february" in
        # "17 Feb"), as the period grammar reads both (`ingest.timekeys`)
        keys = dict.fromkeys((w, raw.lower()[:3]) if month_number(raw) else (w,))
        for key in keys:
            for t in ti.value_words.get(key, ()):
                if same_text(t, raw):
                    continue
                shown = next((t[a:b] for a, b, x in token_spans(t) if x == key), None)
                if shown is None:
                    continue
                for i, j in ti.values[t]:
                    if i in place:
                        found.setdefault((shown, j), set()).add(i)
    n = max(len(place), 1)
    return sorted(((w, j, len(rows) / n) for (w, j), rows in found.items()),
                  key=lambda x: (x[2], x[0], x[1]))


def _unused(cells: list[tuple[int, int]], wheres: tuple[str, ...], columns: tuple[int, ...],
            values: list[CellLink], named: list[int]) -> dict[str, float]:
    """What the question names that a candidate leaves unread: cell values it neither tests
    (its conditions, `wheres`) nor reads a row of (a program over a few rows), and columns
    whose header the question names that it neither reads, tests nor reports (`columns`).
    "How many active employees are in the engineering department?" names a status and a
    department; a count of the active rows alone leaves the department unread — how much that
    costs each operator is learned."""
    rows = {i for i, _ in cells}
    few = len(rows) <= 2
    said = [w[1:] for w in wheres if w[:1] in ("=", "~")]
    left = sum(1 for v in values if not any(same_text(x, v.text) for x in said) and not (
        few and any(i in rows for i, _ in v.cells)))
    used = {j for _, j in cells} | set(columns)
    cols = sum(1 for j in named if j not in used)
    return {f"unused_values={min(left, 2)}": 1.0, f"unused_columns={min(cols, 2)}": 1.0}


# the share of a column's header words (idf-weighted) the question says for it to name it
NAMED_COVER = 0.5


def _prefixed(feats: dict[str, float], prefix: str) -> dict[str, float]:
    return {prefix + k: v for k, v in feats.items()}


def result_features(q: Question, c: Candidate, r: Result) -> dict[str, float]:
    """What a list-table candidate answers, beside what the question asks (operand features,
    crossed with the operator, `score.features`): whether its answer is a figure or a text,
    how many values it states, a figure that reads as a year or is zero — each crossed with
    the question's opening words ("how many" asks a figure, "which years" several) — and
    whether the answer is something the question itself says (a question rarely asks what it
    names: "what team did X play for before Y?" is not answered by Y)."""
    op = c.program.op
    said = tokens(q.text)
    opening = "_".join(said[:2])
    vals = r.answer
    figure = bool(vals) and all(isinstance(v, float) for v in vals)
    kind = "figure" if figure else "text"
    out = {f"res:{op}:q={opening}:type={kind}": 1.0,
           f"res:{op}:q={opening}:n={min(len(vals), 3)}": 1.0,
           f"res:{op}:type={kind}": 1.0}
    if not vals:
        out[f"res:{op}:empty"] = 1.0
    words = set(said)
    shown = [tokens(f"{v:g}" if isinstance(v, float) else str(v)) for v in vals]
    if shown and all(t and set(t) <= words for t in shown):
        out[f"res:{op}:in_question"] = 1.0
    if figure:
        v = float(vals[0])
        if v.is_integer() and 1000 <= v <= 2100:
            out[f"res:{op}:q={opening}:yearlike"] = 1.0
        if v == 0:
            out[f"res:{op}:zero"] = 1.0
    return out
