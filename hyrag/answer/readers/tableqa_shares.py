"""Shares of a total read off a table's grid: "the percentage of the purchase obligations of
more than 5 years in the total purchase obligations", "warranty reserve among the total accrued
liabilities in 2019", "Taiwan and Japan over total revenue in 2019".

The line-item reader (`tableqa.py`) computes a share of two line items of one period. Many
shares are not of that shape: the part is one cell — a row the question names, in a column it
names ("more than 5 years", "less than one year", a year) — and the whole is the *total* of
that cell's row (the table's "Total" column) or of its column (the "Total" line, or the
unlabelled line under the figures). An analyst reads them off the grid, and so does this
module:

- the question is split at the word that introduces the whole: "as a percentage of", "among",
  "out of", "over", "divided by", "the ratio of A to B", or "in / of / to" before "(the)
  total"; or, whole first, "what percentage of the total X is made up of / generated from Y";
- the part is the one row the part's words name (every content word of its label), in the one
  column they (or the question's one year) name — or the sum of the rows they list ("Taiwan
  and Japan over total revenue in 2019", "deferred revenue and accrued warranty over gross
  deferred tax assets"), over a named line or a total line they all add up into;
- the whole is, in that order: another row the whole's words name (a ratio of two lines in one
  column, "total financing obligations as a percentage of total purchase obligations": the
  "Total" column when no other column is named); another column of the part's own row the
  whole's words or year name ("Workforce reduction as a percentage of Facility costs", "X in
  fiscal 2019 to fiscal 2018" — a comparison, which may exceed 100 %); the part's own row in
  its "Total" column ("... of more than 5 years in the total purchase obligations"); or the
  total line below the part in its column ("... among the total cost").

A total is only taken for one when it is one: the row's other columns, or the lines above the
total line, must add up to it (within the rounding of the figures shown), and the part must be
one of them. Anything else — two rows or columns the words could mean, a total that does not
add up, a part larger than its whole, a part and whole of opposite signs, words neither the
rows nor the columns explain — is not guessed at: the reader returns None.

A percentage ("what percentage of", "as a percentage of") is the part over the whole times 100,
with a percent scale; a ratio or a proportion (without "percent") is the fraction, unscaled
(`tableqa_read.operation` reads which). Every answer commits the cells it rests on and a
derivation the verifier recomputes (several parts are summed over the last operand, the
whole). The reader runs after the line-item and list-table readers (`readers.py`), so a share
they answer stays theirs. Nothing here knows any benchmark.
"""

from __future__ import annotations

import math
import re

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.readers import tablelines
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr
from ingest.numbers import decimals_shown

# the word that introduces the whole, after the part: a strong one anywhere, a weak one ("in",
# "of", "to", "within") only before "(the / its) total"
_STRONG = re.compile(r"\b(?:as an? (?:percentage|percent|proportion|share|ratio|fraction) of|"
                     r"among|out of|over|divided by|relative to)\b", re.I)
_WEAK = re.compile(r"\b(?:in|of|to|within)\s+(?=(?:the\s+|its\s+|their\s+)?(?:group\s+)?"
                   r"total\b)", re.I)
# whole first: "what percentage of the total X is made up of Y"
_WHOLE_FIRST = re.compile(
    r"\b(?:percentage|percent|proportion|share|fraction)\s+of\s+(?P<whole>.+?)\s+"
    r"(?:is|was|are|were)\s+(?:made up of|generated (?:from|by)|attributable to|accounted "
    r"for by|represented by|contributed by|comprised of|from)\s+(?P<part>.+)$", re.I)
_LEAD = re.compile(r"^.*?\b(?:percentage|percent|proportion|share|ratio|fraction)\b"
                   r"(?:\s+(?:of\s+)?constitution)?(?:\s*\([^)]*\))?\s+(?:of\s+)?", re.I)
# "the ratio of A to B", "the ratio (in percentage) of A to B"
_RATIO_TO = re.compile(r"\bratio\s+(?:\([^)]*\)\s+)?of\s+(?P<part>.+?)\s+to\s+(?P<whole>.+)$",
                       re.I)
_TOTAL = re.compile(r"\btotal\b", re.I)
_AND = re.compile(r"\band\b|&|,", re.I)  # "A and B", "A, B and C": a list of parts
_TOTAL_LABEL = re.compile(r"\s*(?:grand\s+|group\s+)?total\b", re.I)
# words a share question uses beyond its rows and columns
_SHARE_WORDS = {"constitution", "constitute", "made", "up", "generated", "portion", "share",
                "out", "represent", "represented", "account", "accounted", "contribute",
                "contributed", "value", "due", "fraction", "expressed", "total", "net", "among",
                "divided", "relative"}
_UNIT_TOKENS = {"m", "bn", "k", "000", "million", "thousand", "thousands", "in", "s"}
_MAX_RESIDUE = 2


def resolve(question: str, con) -> object | None:
    """The share as a `TableResolved`, or None (not a share of a grid, or not unambiguous)."""
    op = read.operation(question, "", 2)
    if op not in ("ratio", "percent_of"):
        return None
    halves = split(question)
    if halves is None:
        return None
    try:
        lines = tablelines.table_lines(con)
    except Exception:  # a layout this reader cannot read is no answer
        return None
    found = _pair(question, *halves, lines)
    if found is None:
        return None
    parts, (whole, wcell), share = found
    vals = tr.share_sizes([c for _, c in parts], wcell)
    if vals is None or any(c is wcell for _, c in parts):
        return None  # no whole, or a part of the other sign
    a, b = math.fsum(vals), float(wcell["value_num"])
    bld = tablelines.Builder()
    ops = [Operand(c["claim_id"], v, nm, bld.commit(c, f"the part: {nm}"))
           for (nm, c), v in zip(parts, vals, strict=True)]
    rb = bld.commit(wcell, f"the whole: {whole}")
    ob = Operand(wcell["claim_id"], b, whole, rb)
    num = " + ".join(fmt(o.value) for o in ops)
    num = f"({num})" if len(ops) > 1 else num
    part = " and ".join(f"{o.label} [{o.n}]" for o in ops)
    if op == "ratio":
        r = round(a / b, 2)
        if read.proportion(question) and r > 1 and share:
            return None  # a proportion above 1: the part and the whole were swapped
        d = Derivation("ratio", f"{num} / {fmt(b)}", (*ops, ob), r)
        scale, sent = "", f"{part} over {whole} [{rb}] is {fmt(r)}."
    else:
        r = round(a / b * 100, 2)
        if r > 100 and share:
            return None  # a part cannot exceed its whole: the pair was read the wrong way
        d = Derivation("ratio", f"{num} / {fmt(b)} x 100", (*ops, ob), r, "%")
        scale, sent = "percent", f"{part} is {fmt(r)}% of {whole} [{rb}]."
    return bld.done(op, r, sent, d, scale=scale)


def split(question: str) -> tuple[str, str] | None:
    """(the words naming the part, the words naming the whole), or None when the question
    names no whole this reader can find."""
    q = question.strip().rstrip("?").strip()
    m = _WHOLE_FIRST.search(q)
    if m:
        return m.group("part"), m.group("whole")
    lead = _LEAD.match(q)
    strong = list(_STRONG.finditer(q))
    if strong:
        if len(strong) != 1:
            return None  # two places the whole could start
        s = strong[0]
        part = q[:s.start()]
        if lead and lead.end() <= s.start():
            part = q[lead.end():s.start()]  # "what is the percentage of" is no part's word
        return part, q[s.end():]
    m = _RATIO_TO.search(q)
    if m:
        return m.group("part"), m.group("whole")
    start = lead.end() if lead else 0
    weak = list(_WEAK.finditer(q, start))
    if len(weak) != 1:
        return None
    return q[start:weak[0].start()], q[weak[0].end():]


def _head(col: str) -> list[str]:
    """A column header's words as the question would say them ("More Than 5 Years" -> more,
    than, 5, year; "Total £m" -> total): glue words and units aside."""
    return [w for w in tablelines.tokens(col) if w not in tablelines.GLUE
            and w not in _UNIT_TOKENS]


def _says(text: str, col: str) -> bool:
    h = _head(col)
    toks = [w for w in tablelines.tokens(text) if w not in tablelines.GLUE]
    return bool(h) and tablelines.at(toks, h) is not None


def _is_total_col(col: str) -> bool:
    return _head(col)[:1] == ["total"]


def _words(s: str) -> set[str]:
    """Content words, a negated compound kept whole: "non-vested" is not "vested", and
    "non-current" not "current"."""
    return tr.content(re.sub(r"\bnon-(?=[a-z])", "non", s or "", flags=re.I))


def _rows(text: str, lines: list) -> list:
    """The lines whose every label word (and every year) the text uses, the most specific of
    nested labels; a bare "Total" line is not named by the word "total" (the share's own)."""
    q, ys = _words(text), set(read.years(text))
    rows = [ln for ln in lines if ln.label and (own := _words(ln.label)) and own <= q
            and own - {"total"} and set(read.years(ln.label)) <= ys]
    return [ln for ln in rows if not any(_words(ln.label) < _words(o.label) for o in rows)]


def _year_col(ln, y: int | None) -> str | None:
    c = ln.by_year.get(y) if y is not None else None
    return next((k for k, v in ln.by_col.items() if v is c), None) if c else None


def _pair(question: str, ptext: str, wtext: str, lines: list):
    """([(part name, part cell)...], (whole name, whole cell), whether it is a part of a whole)
    in one table, or None. Several parts are lines the part's words list ("A and B"), summed."""
    prows = _rows(ptext, lines)
    if not prows or any(_TOTAL_LABEL.match(ln.label) for ln in prows) or len(prows) > 1 and (
            len(prows) > len(_AND.findall(ptext)) + 1 or len({ln.table for ln in prows}) > 1
            or len({ln.label for ln in prows}) < len(prows)):
        return None  # no line, or several the words do not list as "A and B"
    part = prows[0]
    table = [ln for ln in lines if ln.table == part.table]
    wrows = [ln for ln in _rows(wtext, lines) if ln not in prows]
    if len(wrows) > 1 or any(ln.table != part.table for ln in wrows):
        return None
    # the years: those a row label states name the row; the others name columns — the part's
    # its own ("X in 2019 as a percentage of X in 2018"), else the question's one year
    in_rows = {y for ln in (*prows, *wrows) for y in read.years(ln.label)}
    yq, yp, yw = ([y for y in read.years(t) if y not in in_rows]
                  for t in (question, ptext, wtext))
    if len(yp) > 1 or len(yw) > 1 or len(yq) > 2 or (len(yq) == 2 and not (yp and yw)):
        return None
    py = yp[0] if yp else (yq[0] if len(yq) == 1 else None)
    wy = yw[0] if yw else py
    ycols = {k for ln in table for k, c in ln.by_col.items() if c is ln.by_year.get(
        c.get("_year"))}
    pcols = [k for k in part.by_col if k not in ycols and not _is_total_col(k)
             and _says(ptext, k)]
    wcols = [k for k in part.by_col if k not in ycols and not _is_total_col(k)
             and _says(wtext, k)]
    tcols = [k for k in part.by_col if _is_total_col(k)]
    if len(pcols) > 1 or len(wcols) > 1:
        return None
    pyc = _year_col(part, py)
    if py is not None and pyc is None:
        return None  # a year the part's row has no figure for
    if pcols and pyc:
        return None  # a column and a year: two columns named for one cell
    pcol = pcols[0] if pcols else pyc
    says_total = bool(_TOTAL.search(wtext))
    share = True  # a part of its whole (not above 100 %), unless two columns are compared
    wcol = wcols[0] if wcols and wcols != pcols else (_year_col(part, wy) if wy != py else None)
    if wrows and not _TOTAL_LABEL.match(wrows[0].label):
        # two line items in one column: the one named, else "total X" of both is the Total
        col = pcol or (wcols[0] if wcols else _year_col(wrows[0], wy))
        if col is None and len(tcols) == 1 and _TOTAL.search(ptext) and says_total:
            col = tcols[0]
        if col is None or col not in wrows[0].by_col or (wy != py and yw and yp):
            return None
        used, cols, whole = (*prows, wrows[0]), {col}, wrows[0]
    elif len(prows) > 1:
        if wrows or wcol or not says_total:
            return None  # a sum of lines over another column of them: not read here
        col = pcol or (tcols[0] if len(tcols) == 1 else None)
        totals = [ln for ln in table if ln.row > part.row and (
            not tr.content(ln.label) or _TOTAL_LABEL.match(ln.label)) and col in ln.by_col
            and _col_adds_up(ln, col, prows, table)] if col else []
        if len(totals) != 1:
            return None
        used, cols, whole = (*prows, totals[0]), {col}, totals[0]
    elif not wrows and pcol and wcol and wcol != pcol:
        # two columns of the part's own line: "Workforce reduction as a percentage of
        # Facility costs" of one balance, "X in fiscal 2019 to fiscal 2018"
        used, cols, share = (part,), {pcol, wcol}, False  # a comparison: may pass 100 %
        return _checked(question, [(_name(part, pcol), part.by_col[pcol])],
                        (_name(part, wcol), part.by_col[wcol]), used, cols, share)
    elif not wrows and part in _rows(wtext, [part]):
        # the part's own row, in its Total column: "... of more than 5 years in the total
        # purchase obligations" — and only there, once the whole names the part's own line
        if not (pcol and says_total and len(tcols) == 1 and _row_adds_up(
                part, pcol, tcols[0])):
            return None
        return _checked(question, [(_name(part, pcol), part.by_col[pcol])],
                        (_name(part, tcols[0]), part.by_col[tcols[0]]), (part,),
                        {pcol, tcols[0]}, share)
    else:
        # the total line below the part, in the part's column (or its Total column when the
        # question names no column: "capital leases in the total liabilities")
        if not says_total and not wrows or wcol:
            return None
        col = pcol or (tcols[0] if len(tcols) == 1 else None)
        if col is None and len(part.by_col) == 1:
            col = next(iter(part.by_col))
        if col is None:
            return None
        cands = wrows or [ln for ln in table if ln.row > part.row and (
            not tr.content(ln.label) or _TOTAL_LABEL.match(ln.label))]
        totals = [ln for ln in cands if col in ln.by_col and _col_adds_up(
            ln, col, [part], table)]
        if len(totals) != 1:
            return None
        used, cols, whole = (part, totals[0]), {col}, totals[0]
    if any(col not in ln.by_col for ln in prows):
        return None  # a line listed without a figure in the column
    return _checked(question, [(_name(ln, col), ln.by_col[col]) for ln in prows],
                    (_name(whole, col, "the total"), whole.by_col[col]), used, {col}, share)


def _checked(question: str, parts: list, whole: tuple, used: tuple, cols: set[str],
             share: bool):
    """The reading, unless a cell is a percent (a share of shares) or the question says more
    than the lines and columns used explain."""
    if any("%" in (c["value_text"] or "") for _, c in [*parts, whole]):
        return None  # a share of shares: not a part of a whole
    if _residue(question, used, cols) > _MAX_RESIDUE:
        return None
    return parts, whole, share


def _name(ln, col: str, default: str = "") -> str:
    """"Purchase obligations More Than 5 Years"; an unlabelled total line is "the total"."""
    return f"{ln.label if tr.content(ln.label) else default} {col}".strip()


def _close(total: float, parts: list[dict], tcell: dict) -> bool:
    unit = 10.0 ** -max(decimals_shown(c["value_text"]) for c in [*parts, tcell])
    return abs(total - float(tcell["value_num"])) <= unit * 1.000001


def _row_adds_up(ln, col: str, tcol: str) -> bool:
    """The row's columns other than its Total (and any percent column) sum to its Total."""
    parts = [c for k, c in ln.by_col.items() if k != tcol and not _is_total_col(k)
             and "%" not in (c["value_text"] or "")]
    return col in ln.by_col and len(parts) >= 2 and _close(
        math.fsum(float(c["value_num"]) for c in parts), parts, ln.by_col[tcol])


def _col_adds_up(total, col: str, parts: list, table: list) -> bool:
    """The lines right above `total` that have a figure in `col` (a section header without
    one is skipped) sum to it, the parts among them: the shortest such run of two or more."""
    above = sorted((ln for ln in table if ln.row < total.row and col in ln.by_col),
                   key=lambda ln: -ln.row)[:40]
    run: list[dict] = []
    seen: set[int] = set()
    for ln in above:
        if _TOTAL_LABEL.match(ln.label or "") or not tr.content(ln.label):
            return False  # reached another total first: a subtotal, not this one's part
        run.append(ln.by_col[col])
        seen |= {id(ln)} & {id(x) for x in parts}
        if len(seen) == len(parts) and len(run) >= 2 and _close(math.fsum(float(c["value_num"]) for c in run),
                                             run, total.by_col[col]):
            return True
    return False


def _residue(question: str, used: tuple, cols: set[str]) -> int:
    """The question's content words no used row label, column header or share word explains."""
    words = set().union(*(_words(ln.label) for ln in used),
                        *({tr.stem(w) for w in tablelines.tokens(k)} for k in cols))
    left = _words(question) - words - _SHARE_WORDS - tr.OPWORDS - {
        tr.stem(w) for w in _SHARE_WORDS}
    return len({w for w in left if tablelines.NUMBER_WORDS.get(w) not in words})
