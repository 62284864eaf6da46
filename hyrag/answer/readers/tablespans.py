"""Questions about a table's structure, answered from the layout of its cells.

Some questions do not ask for a figure but for what the table *shows*: "Which years does the
table cover?", "In which years was total equity calculated?", "What are the components of
total revenue?", "How many items had values in 2019 but not in 2018?". An analyst answers them
by looking at the table, not by reading one cell, and the line-item reader (`tableqa.py`)
would either find nothing or answer with a number. This module reads them the same way:

- the periods: the years the table's columns hold — for a line item the question names, the
  years that line has a figure for; with no line item, the years of the table, but only when
  the question says "the table" and the knowledge base has one table with periods;
- the components of a line: the rows directly above a total whose figures add up to it in
  every period the total has. The sum is the evidence an analyst checks — a layout that does
  not add up (a section header, a subtraction, an unlabelled subtotal) is not guessed at;
- how many components, and how many line items have a figure in one year and none in another;
- the largest or smallest part of a whole ("which segment had the largest revenue in 2018?"):
  the parts are the rows that add up to a total, compared in the column the question names;
- several cells at once ("the respective values of A and B due in 1 to 3 years"): where the
  rows and the column (or the row and the columns) the question names cross, in its order.

Every answer commits the cells it rests on (the total and its components, the line's cells in
each year), so provenance, grounding and the audit record are those of every other answer. A
question recognised here but not answerable unambiguously is declined *as owned*: the engine
then abstains rather than let a figure-reader answer a structure question with a number.
Nothing here knows any benchmark; the same code reads a user's workbook.
"""

from __future__ import annotations

import re

from hyrag.answer.parse.catalog import per_view
from hyrag.answer.readers import tablelines as tl
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr
from hyrag.answer.readers import tablespans_items
from hyrag.answer.readers.tablelines import Line
from hyrag.answer.readers.tablespans_headings import heading_rows, sole_lines
from ingest.textclaims import NEGATED_PREFIX

_PERIOD_Q = re.compile(r"\b(?:which|what)\s+(?:(?:are|were)\s+the\s+)?(?:(?:financial|fiscal|"
                       r"calendar|reporting)\s+)?"
                       r"(?:years|periods|fiscal years|financial years|years?\(s\))(?:'|’)?"
                       r"(?!\w)", re.I)
_TABLE = re.compile(r"\btable\b", re.I)
_SHOWN = re.compile(r"\b(?:calculated|computed|recorded|reported|provided|shown|included|"
                    r"listed|presented|given|disclosed|covered|stated|available|highlighted)\b", re.I)
# words that turn "which years" into a comparison or a condition: tableqa's question
_NOT_STRUCTURE = re.compile(
    r"\b(?:larg|high(?!light)|great|small|low|exceed|negative|positive|increas|decreas|chang|differ|"
    r"growth|grew|rose|fell|declin|average|ratio|percent|most|least|top|bottom|than)\w*",
    re.I)
# "amounts falling due after more than one year": a maturity bucket's name, not a comparison
_BUCKET = re.compile(r"\b(?:more|less|greater|fewer)\s+than\s+(?:one|two|three|four|five|\d+)\s+"
                     r"(?:years?|months?|days?)\b", re.I)
_COMPONENT = re.compile(r"\b(?:components?|items?|elements?|constituents?|categories|category|"
                        r"types?|kinds?|parts?)\b", re.I)
_CONSIST = re.compile(r"\b(?:consists? of|comprised? of|comprises?|made up of|mak(?:e|es|ing) "
                      r"up|considered|under|of)\b", re.I)
# "which segment / in which currency / what is the component that ..." — a row, not a period
_NOT_PART = (r"(?!(?:years?|periods?|fy|fiscal|quarters?|months?|dates?|days?|times?|is|was|"
             r"are|were|did|does|do|has|had|the|amount|value|percentage)\b)")
_WHICH_PART = re.compile(
    r"^\s*(?:(?:in|for|from|of|at)\s+)?(?:(?:19|20)\d{2}\s*,\s*)?(?:"
    rf"which\s+(?:of the\s+)?{_NOT_PART}[a-z][\w-]*|"  # which segment / of the segments
    rf"what\s+{_NOT_PART}[a-z][\w-]*|"  # what currency
    rf"what\s+(?:is|was)\s+the\s+{_NOT_PART}[a-z][\w-]*\s+(?:that|which|with)\b)", re.I)
_SUPERLATIVE = re.compile(r"\b(?:largest|highest|greatest|biggest|most|maximum|smallest|lowest|"
                          r"least|minimum)\b", re.I)
_SUPER_MIN = re.compile(r"\b(?:smallest|lowest|least|minimum)\b", re.I)
_COMPARE = re.compile(r"\b(?:larg|high(?!light)|great|small|low|exceed|negative|positive|most|least|"
                      r"top|bottom|than)\w*", re.I)
# a computed quantity: "the respective percentage of revenue" still names cells
_CALC = re.compile(r"\b(?:change|increase|decrease|growth|difference|ratio|average|sum|total "
                   r"of)\b", re.I)
_ARITH = re.compile(r"\b(?:change|increase|decrease|growth|difference|ratio|average|percentage|"
                    r"proportion|share)\b|%", re.I)
_RESPECTIVE = re.compile(r"\brespective(?:ly)?\b", re.I)
_COUNT = re.compile(r"^\s*how many\b", re.I)
_WHAT = re.compile(r"^\s*(?:what|which|list|name)\b", re.I)
_BUT_NOT = re.compile(r"\b(?:in|for)\s+((?:19|20)\d{2})\s+but\s+not\s+(?:in\s+|for\s+)?"
                      r"((?:19|20)\d{2})\b", re.I)
# the question's own structure words: they say what is asked, not which line it is about
STRUCT_WORDS = {"table", "provide", "provided", "information", "calculated", "computed",
                 "recorded", "reported", "shown", "show", "included", "include", "listed",
                 "presented", "given", "disclosed", "covered", "stated", "available", "period",
                 "financial", "fiscal", "component", "item", "element", "constituent",
                 "category", "categorie", "type", "kind", "part", "consist", "comprise",
                 "comprised", "made", "make", "making", "up", "considered", "calculating",
                 "under", "list", "name", "value", "values", "figure", "figures", "data",
                 "line", "major", "main", "different", "various"}


def resolve(question: str, con) -> tuple[object | None, bool]:
    """(the answer as a `TableResolved`, or None; whether the question is a structure question
    at all). A structure question declined on purpose stays declined (the engine abstains)."""
    kind = _kind(question)
    if kind is None:
        return None, False
    try:
        lines = tl.table_lines(con)
    except Exception:  # a layout this reader cannot read is no answer
        lines = []
    if not lines:
        return None, owns(question)
    if kind == "periods":
        return _periods(question, lines, con), True
    if kind == "cells":
        return _cells(question, lines)
    if kind == "part_extreme":  # declined, the schema parser's ranking may still read it
        res = _part_extreme(question, lines)
        return res, res is not None
    if kind == "new_items":
        return _new_items(question, lines), True
    if kind == "count_periods":
        return tablespans_items.row_periods(lines, count=True), True
    if kind in ("table_items", "table_dates"):
        return (tablespans_items.table_items(lines) if kind == "table_items" else
                tablespans_items.table_dates(question, lines)), True
    return _components(question, lines, count=kind == "count_components"), True


def owns(question: str) -> bool:
    """Whether the question is one this module reads (the engine then does not rewrite it
    into a figure lookup: the answer to that would be an answer to another question)."""
    return _kind(question) not in (None, "part_extreme")


def _kind(question: str) -> str | None:
    """Which structure question this is, or None when it asks for a figure."""
    if _BUT_NOT.search(question) and _COUNT.search(question) and re.search(
            r"\b(?:items?|lines?|rows?|components?|categories)\b", question, re.I):
        return "new_items"
    if read.threshold(question) is not None:
        return None
    if _RESPECTIVE.search(question) and not _CALC.search(question):
        return "cells"
    if _WHICH_PART.search(question) and _SUPERLATIVE.search(question) and not _ARITH.search(
            question):
        return "part_extreme"
    if _PERIOD_Q.search(question) and (_TABLE.search(question) or _SHOWN.search(question)) \
            and not read.years(question) and not _COMPARE.search(question):
        return "periods"  # a change or a ratio may be the line's name; a comparison is not
    if tablespans_items.asks_period_count(question):
        return "count_periods"
    if _NOT_STRUCTURE.search(_BUCKET.sub(" ", question)):
        return None
    if _COMPONENT.search(question) and _CONSIST.search(question):
        if _COUNT.search(question):
            return "count_components"
        if _WHAT.search(question) and not re.search(r"\b(?:what|which)\s+(?:is|was)\b",
                                                   question, re.I):
            return "components"
    if tablespans_items.asks_items(question):
        return "table_items"
    return "table_dates" if tablespans_items.asks_dates(question) else None




def _content(question: str) -> set[str]:
    """The question's content words that could name a line (its structure words removed)."""
    return tr.content(question) - STRUCT_WORDS


_TOTAL_WORDS = {"total", "gross"}  # "the components of revenue" are those of "Total revenue"


def _named(question: str, lines: list[Line], totals: bool = False) -> list[Line] | None:
    """The lines the question names (every line holding the best-covered label), [] when it
    names none, None when its words name a line only partly (a guess would be wrong). For a
    total (`totals`) every word of its label but "total" / "gross" must be the question's."""
    q = tr.content(question)
    # a line's figures by year; a table whose columns are no one year ("2018/2019") by column
    cells = [c for ln in lines if ln.label for c in (ln.by_year or ln.by_col).values()]
    ranked = tr.rank_rows(cells, q | _TOTAL_WORDS if totals else q, question)
    if totals:
        ranked = [(sc, lab) for sc, lab in ranked
                  if (own := tr.content(lab) - _TOTAL_WORDS) and own <= q]
    if not ranked:
        return []
    best_score, best = ranked[0]
    if len(ranked) > 1 and ranked[1][0] == best_score and ranked[1][1] != best:
        return None  # two labels read the question equally well
    named = _under_named_heading([ln for ln in lines if ln.label == best], q)
    # the words of the rows' heading are their context, not more than the question asks
    secs = {ln.section for ln in named}
    heads = tr.content(secs.pop()) if len(secs) == 1 else set()
    residue = _content(question) - tr.content(best) - tr.OPWORDS - heads
    if len(residue) > tr.MAX_RESIDUE:
        return None
    return named


def _under_named_heading(named: list[Line], q: set[str]) -> list[Line]:
    """Of the rows one label names under two headings ("Loans" under "Current:" and under
    "Non-current:"), those under the heading the question names most words of; naming
    neither (or both alike) leaves them all."""
    if len({ln.section for ln in named}) < 2:
        return named
    hit = {ln.section: len(tr.content(ln.section) & q) for ln in named}
    top = max(hit.values())
    if not top or sum(1 for v in hit.values() if v == top) > 1:
        return named
    return [ln for ln in named if hit[ln.section] == top]


def _periods(question: str, lines: list[Line], con=None):
    """The years the table, or the line the question names, holds figures for."""
    named = _named(question, lines) or _named(question, lines, totals=True)
    if not named:
        # no line named cleanly: "the table" itself, when there is only one to mean, or
        # the subject the text introduces the only table with (`_introduced`)
        if len({ln.table for ln in lines}) != 1 or not (
                _TABLE.search(question) or _introduced(question, con)):
            return None
        named = lines
    years: dict[int, tuple[int, dict]] = {}
    for ln in named:
        for y, c in ln.by_year.items():
            years.setdefault(y, (ln.col_order.get(y, 0), c))
    if not years:  # no column is a year: the rows may be ("2020", ..., "Thereafter")
        return tablespans_items.row_periods(lines) if named is lines else None
    order = sorted(years, key=lambda y: (years[y][0], -y))
    b = tl.Builder()
    refs = [b.commit(years[y][1], f"period {y}") for y in order]
    names = [str(y) for y in order]
    what = f"{named[0].label}" if named is not lines else "The table"
    sent = f"{what} has figures for {tl.join(names)} {''.join(f'[{r}]' for r in refs)}."
    return b.done("periods", names, sent)


# a sentence that introduces a table: "Deferred charges and other assets consisted of the
# following (in thousands):", "Net sales by segment were as follows:", "The following table
# represents a disaggregation of revenue ..."
_INTRODUCES = re.compile(r":\s*$|\b(?:the\s+following|as\s+follows|following\s+table|table\s+"
                         r"below)\b", re.I)
# the subject text ingestion carries onto a sentence from the heading above it, in brackets
# before the sentence ("[Current Liabilities] Amounts due to ..."), with its period if any
_CARRIED = re.compile(r"^\[([^\]]+)\]\s*")


def _introduced(question: str, con) -> bool:
    """Whether the question's subject ("In which years was the current liabilities recorded
    for?") is what the report's text introduces the table with: a sentence that announces it
    ("Current liabilities consisted of the following:"), or the subject a heading gives the
    sentences beneath it ("Current Liabilities", carried onto them by text ingestion). Every
    word the question names, bar its structure words, must be that sentence's or subject's —
    the table is then the subject's, and its years are the years the subject was recorded
    for. A sentence that only mentions the subject, announcing nothing, names no table."""
    subject = _content(question) - tr.OPWORDS
    if not subject or con is None:
        return False
    return any(subject <= words for words in per_view(_INTROS, con, _introductions))


_INTROS: dict[tuple, list[set[str]]] = {}


def _introductions(con) -> list[set[str]]:
    """The words of every subject a sentence of the view announces a table with, or that a
    heading carries onto sentences (see `_introduced`), read once per view from the prose
    sentences the prose readers scan (`prose_spans.sentences`)."""
    from hyrag.answer.readers.prose_spans import sentences

    out = []
    for row in sentences(con):
        carried = _CARRIED.match((row["text"] or "").removeprefix(NEGATED_PREFIX))
        if carried:
            # the carried subject, less the period it may end with ("Revenue, 2019")
            out.append(tr.content(carried.group(1).split(",")[0]))
        if _INTRODUCES.search(row["sentence"].strip()):
            out.append(tr.content(row["sentence"]))
    return [ws for ws in out if ws]


def _components(question: str, lines: list[Line], *, count: bool):
    """The rows above a total that add up to it (every period the total has), or their count."""
    named = _named(question, lines, totals=True)
    if not named:
        return _under_heading(question, lines, count=count)
    found = [blk for ln in named if (blk := tl.block(ln, lines)) is not None]
    if len(found) != 1:
        return None  # none adds up, or two lines of that name do: not guessed at
    total, block = found[0]
    if _KINDS.search(question):
        # a deduction ("Allowance for doubtful accounts" under receivables, opposite in sign
        # to the total in every year) is part of the sum but not a kind of the total
        block = [ln for ln in block if not _deduction(ln, total)]
        if len(block) < 2:
            return None
    b = tl.Builder()
    col = min(total.by_col, key=lambda k: total.col_pos.get(k, 0))  # the first column shown
    refs = [b.commit(ln.by_col[col], f"component of {total.label}") for ln in block
            if col in ln.by_col]
    tref = b.commit(total.by_col[col], "total")
    names = [ln.label for ln in block]
    cites = "".join(f"[{r}]" for r in refs)
    if count:
        sent = (f"{total.label} [{tref}] is the sum of {len(names)} lines: {tl.join(names)} "
                f"{cites}.")
        return b.done("count_components", float(len(names)), sent, b.count(refs, names))
    sent = f"{total.label} [{tref}] is the sum of {tl.join(names)} {cites}."
    return b.done("components", names, sent)


_KINDS = re.compile(r"\b(?:types?|kinds?|sorts?)\b", re.I)


def _deduction(ln: Line, total: Line) -> bool:
    signs = [(float(c["value_num"]) < 0) != (float(total.by_year[y]["value_num"]) < 0)
             for y, c in ln.by_year.items() if y in total.by_year and c["value_num"]
             and total.by_year[y]["value_num"]]
    return bool(signs) and all(signs)


def _cells(question: str, lines: list[Line]) -> tuple[object | None, bool]:
    """"The respective values of A and B that are due in 1 to 3 years": the cells where the
    rows and the columns the question names cross, in the order it names them — one row and
    several columns, or several rows and one column. A row is named when every word of its
    label is the question's (and every year its label states); a column when its header's
    words and numbers stand in the question as they stand in the header ("1 to 3 years"). Anything else — two rows and two columns, a row label held by
    two rows, an empty cell — is declined, and owned (abstained on) once a row is named; one
    line's years are left to the line-item reader."""
    qt = [w for w in tl.tokens(question) if w not in tl.GLUE]
    qyears = set(read.years(question))
    rows = [ln for ln in lines if ln.label and (own := tr.content(ln.label))
            and own <= tr.content(question) and set(read.years(ln.label)) <= qyears]
    rows = [ln for ln in rows if not any(  # the more specific of two nested labels
        tr.content(ln.label) < tr.content(o.label) for o in rows)]
    sole = sole_lines(tr.content(question), lines) if not rows else {}
    rows = rows or [ln for ln in lines if id(ln) in sole]  # lines named by their own heading
    if not rows:
        return None, False
    rows = [ln for lab in dict.fromkeys(ln.label for ln in rows) for ln in _under_named_heading(
        [x for x in rows if x.label == lab], tr.content(question))]
    if len({ln.label for ln in rows}) != len(rows) or len({ln.table for ln in rows}) != 1:
        return None, True  # a label two rows hold, or rows of two tables
    named = {w for ln in rows for w in tl.tokens(sole.get(id(ln), ln.label))}  # names no column
    pos = {k: tl.at(qt, h) for k in rows[0].by_col
           if (h := [w for w in tl.tokens(k) if w not in tl.GLUE]) and not set(h) <= named}
    cols = [k for k, i in pos.items() if i is not None]
    if not cols or len(rows) == 1 and all(read.years(k) for k in cols):
        return None, False  # no column named, or one line's years: tableqa's "each"
    if len(rows) * len(cols) < 2 or min(len(rows), len(cols)) > 1:
        return None, False  # not one line of cells: another reader's question
    if len(rows) > 1:
        order = sorted(rows, key=lambda ln: tr.position(
            question, sole.get(id(ln), ln.label)))
        cs = [ln.by_col.get(cols[0]) for ln in order]
    else:
        cs = [rows[0].by_col.get(k) for k in sorted(cols, key=lambda k: pos[k] or 0)]
    if any(c is None for c in cs):
        return None, True  # an empty cell: no figure to give
    b = tl.Builder()
    refs = [b.commit(c, "respective cell") for c in cs]  # type: ignore[arg-type]
    pct = any("%" in (c["value_text"] or "") for c in cs)  # type: ignore[index]
    vals = [c["value_text"].strip() if pct else c["value_num"] for c in cs]  # type: ignore[index]
    sent = "Respectively: " + ", ".join(
        f"{c['value_text'].strip()} [{r}]" for c, r in zip(cs, refs, strict=True)) + "."  # type: ignore[index]
    res = b.done("cells", vals, sent)
    from dataclasses import replace

    return replace(res, scale="" if pct else tr.scale(cs[0])), True  # type: ignore[arg-type]


def _under_heading(question: str, lines: list[Line], *, count: bool):
    """The line items under the section heading the question names (`tablespans_headings`)."""
    found = heading_rows(_content(question), lines)
    if found is None:
        return None
    head, rows = found
    b = tl.Builder()
    refs = [b.commit(tablespans_items.first_cell(ln), f"line under {head}") for ln in rows]
    names = [re.sub(r"(?<=[a-z]{3})\d{1,2}$", "", ln.label) for ln in rows]  # footnote 1
    sent = f"Under {head.rstrip(':')}: {tl.join(names)} {''.join(f'[{r}]' for r in refs)}."
    if count:
        return b.done("count_components", float(len(names)), sent, b.count(refs, names))
    return b.done("components", names, sent)


def _part_extreme(question: str, lines: list[Line]):
    """The part of a whole with the largest (smallest) figure: "which segment had the largest
    revenue in 2018?". The candidates are the rows that add up to a total — the parts of one
    whole, compared in one column (the year the question names, else the column it names);
    a table without such a total, two wholes the question could mean, a tie or a negative
    figure (a cost shown in brackets: largest by size or by sign?) are not guessed at."""
    per_table: dict[str, int] = {}
    for ln in lines:
        per_table[ln.table] = per_table.get(ln.table, 0) + 1
    # a statement's totals: a "Total ..." line or an unlabelled one, in a table a reader
    # takes in at a glance (a long list table is the row operators' question, tableops.py)
    groups = []
    for ln in lines:
        if per_table[ln.table] > tl.MAX_LINES or ln.label and not tl.TOTAL_LABEL.match(ln.label):
            continue
        blk = tl.block(ln, lines, unlabelled=True)
        if blk is not None:
            groups.append(blk)
    named = _named(question, [t for t, _ in groups if t.label], totals=True) or []
    if named:
        groups = [(t, blk) for t, blk in groups if t in named]
    tables = {t.table for t, _ in groups}
    if len(groups) != 1 or len(tables) != 1:
        return None
    total, block = groups[0]
    col = _column(question, total)
    if col is None:
        return None
    vals = [(float(ln.by_col[col]["value_num"]), ln) for ln in block if col in ln.by_col]
    if len(vals) < 2 or any(v < 0 for v, _ in vals):
        return None
    pick = min(vals, key=lambda x: x[0]) if _SUPER_MIN.search(question) else max(
        vals, key=lambda x: x[0])
    if sum(1 for v, _ in vals if v == pick[0]) > 1:
        return None
    b = tl.Builder()
    refs = [b.commit(ln.by_col[col], f"part of {total.label or 'the total'}") for _, ln in vals]
    tref = b.commit(total.by_col[col], "the whole")
    word = "smallest" if _SUPER_MIN.search(question) else "largest"
    win = refs[vals.index(pick)]
    sent = (f"Of the lines that add up to {total.label or 'the total'} [{tref}], "
            f"{pick[1].label} is the {word} [{win}].")
    return b.done("part_max" if word == "largest" else "part_min", pick[1].label, sent)


def _column(question: str, total: Line) -> str | None:
    """The column a superlative compares: the one year the question names, else the one
    column whose header words the question uses, else the total's only column."""
    ys = read.years(question)
    if len(ys) > 1:
        return None
    if ys:
        c = total.by_year.get(ys[0])
        return next((k for k, v in total.by_col.items() if v is c), None) if c else None
    q = tr.content(question)
    hits = [k for k in total.by_col if (w := tr.content(k)) and w <= q]
    if len(hits) == 1:
        return hits[0]
    return next(iter(total.by_col)) if len(total.by_col) == 1 else None


def _new_items(question: str, lines: list[Line]):
    """How many lines have a figure in one year and none in the other (both years shown)."""
    m = _BUT_NOT.search(question)
    if m is None:
        return None
    a, b_ = int(m.group(1)), int(m.group(2))
    tables = {ln.table for ln in lines if a in ln.by_year} & {
        ln.table for ln in lines if b_ in ln.by_year}
    if len(tables) != 1:
        return None
    rows = [ln for ln in lines if ln.table in tables and ln.label and not re.match(
        r"\s*total\b", ln.label, re.I)]
    hits = [ln for ln in rows if a in ln.by_year and b_ not in ln.by_year]
    if not hits:
        return None
    both = next((ln for ln in rows if a in ln.by_year and b_ in ln.by_year), None)
    if both is None:
        return None  # no line shows the other year: the table may not cover it at all
    b = tl.Builder()
    refs = [b.commit(ln.by_year[a], f"{ln.label} {a}, none in {b_}") for ln in hits]
    shown = b.commit(both.by_year[b_], f"the table shows {b_}")
    sent = (f"{len(hits)} lines have a figure for {a} but none for {b_} [{shown}]: "
            f"{tl.join([ln.label for ln in hits])} {''.join(f'[{r}]' for r in refs)}.")
    return b.done("count_new", float(len(hits)), sent,
                  b.count(refs, [ln.label for ln in hits]))


