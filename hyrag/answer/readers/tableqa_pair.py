"""Two cells of a grid, picked by their row and column words, and the arithmetic between them.

`tableqa_grid.py` reads one cell where the row and the column a question names meet. Many
questions about such a table compare two of its cells instead — and name them the same way:

- one row, two of its columns: "the difference between the high and low price in the first
  quarter" (row "First Quarter", columns "Low" / "High"), "the difference between total net
  receivables and current net receivables" (row "Net receivables", columns "Total" /
  "Current"), "the difference between the domestic and international discount rates as at
  September 30, 2019" (columns "Domestic September 30, 2019" / "International September 30,
  2019");
- one column, two of its rows: "the difference in low and medium country risk due for 1-90
  days past due" (rows "Country risk: Low" / "Country risk: Medium", column "1-90"), "the
  difference of ground leases between the periods 2020 - 2024 and 2025 - 2029" (rows labelled
  by their years), "the change in average price paid per share between the first to second
  month period" (the first and second of lines that are all dated periods) — or two rows of a
  table with a single column of figures.

An analyst finds each operand as a cell every part of which the question names, so does this
module:

- a row is named when the question uses every content word of its label (and every year it
  states; a label that is only a span of years is named by those years), the most specific of
  nested labels;
- a column is named when the question uses every word of its header — numbers as a run ("1-90",
  "0 to 30 days"), units, dates and parenthesised notes aside — and names the year its header
  or its period states; a header that is only a period ("2019", "September 30, 2018") is never
  named here: two periods of one line are the line-item reader's (`tableqa.py`);
- one table must hold exactly one reading: one named row and two named columns of it, or two
  named rows and one named column (or the table's only column) that is no period — two lines
  in one period ("West" and "East" under "Revenue 2024") are the line-item readers' and the
  engine's own; the words of a column may not
  be all words of a row used (which of the two they name would be a guess), every year of the
  question must be a used row's or column's, and no more than a couple of the question's
  content words may be left unexplained.

The operation is `tableqa_read.operation`'s, with the used labels' own operation words set
aside ("Total", "Average Price Paid per Share"): a sum adds the two ("the total number of
ground leases and building leases"); a difference is the second named minus the first
when the question says "from A to B" / "A to B"; "the difference between A and B" is A - B
only where that is also how far apart they are (A the larger) — for a smaller A, A - B (the
engine's reading of two named items) and the distance (the line-item reader's of two
periods) disagree, and readers write either, so this reader leaves it — unless B is the
total A is part of ("between the current and the total": the rest of it, B - A); a percentage change
needs a direction too ((B - A) / A). Two cells of different scales, a percent against an
amount, a percentage change of percentages or over a non-positive base — and anything else
ambiguous — are not guessed at: the reader returns None and the engine abstains. The answer commits both
cells and records the derivation, so the verifier recomputes it.
"""

from __future__ import annotations

import re

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.parse.catalog import per_view
from hyrag.answer.readers import tablelines
from hyrag.answer.readers import tableqa_layout as layout
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr
from hyrag.answer.readers import tablespans as spans
from hyrag.answer.readers.tableqa_scale import per_unit
from hyrag.answer.readers.tableqa_shares import _TOTAL_LABEL, _UNIT_TOKENS, split
from hyrag.answer.readers.tableqa_shares import _words as label_words
from ingest.numbers import decimals_shown

_DATE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
                   r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?,?", re.I)
_NOTE = re.compile(r"\([^)]*\)|\$\s*'?0{3}|[$€£]")
_PERIOD = layout.PERIOD_WORDS | {"as", "at", "of", "ended", "week", "weeks"}
# words a comparison question uses beyond the cells it names
_ASK_WORDS = {"number", "figure", "between", "compared", "period", "periods", "respectively",
              "there", "value", "amount", "one", "other", "month", "quarter", "week"}
_MAX_RESIDUE = 2
_CORNERS: dict[tuple, dict[str, str]] = {}


def resolve(question: str, con) -> object | None:
    """The difference or percentage change of two cells as a `TableResolved`, or None."""
    if not (read._DIFF.search(question) or read.CHANGE_RATIO.search(question)
            or read._SUM.search(question) or re.search(r"\btotal\b", question, re.I)
            or read._RATIO.search(question) or read._PCT_OF.search(question)):
        return None  # a first look; the operation is read with the labels' own words aside
    try:
        lines = tablelines.table_lines(con)
    except Exception:  # a layout this reader cannot read is no answer
        return None
    qtok = [w for w in tablelines.tokens(question) if w not in tablelines.GLUE]
    tables: dict[str, list] = {}
    for ln in lines:
        tables.setdefault(ln.table, []).append(ln)
    corner = corners(con)
    found = [got for t, ls in tables.items()
             if (got := _reading(question, qtok, ls, corner.get(t, "")))]
    if len(found) != 1:
        adopted = [got for ls in tables.values() if (got := _adoption(question, ls))] or [
            got for ls in tables.values() if (got := _around(question, ls))]
        return adopted[0] if len(adopted) == 1 else None
    return _compute(question, *found[0])


def header(col: str) -> tuple[list[str], set[int]]:
    """A column header's words as a question names them, and the years it states: "Domestic
    September 30, 2019" -> [domestic], {2019}; "1–90" -> [1, 90]; "Current $'000" ->
    [current]; "Weighted-Average Useful Lives (in years)" -> [weighted, average, useful, live]."""
    ys = set(read.years(col))
    s = read.YEAR.sub(" ", _DATE.sub(" ", _NOTE.sub(" ", col or "")))
    toks = [w for w in tablelines.tokens(s) if w not in tablelines.GLUE
            and w not in _UNIT_TOKENS and w not in _PERIOD]
    return toks, ys


# a column of balances at a point of the period ("Balance at End of Period" beside "Balance at
# Beginning of Period" and "Increase / (Decrease)"): "as of end of period" names it by the
# point alone — every figure of such a column is a balance, so the word goes without saying
_POINT = re.compile(r"\b(?:end|beginning|start|opening|closing)\b", re.I)
_IMPLIED = {"balance"}


def _col_named(col: str, cell: dict, qtok: list[str], qset: set[str], qys: set[int]) -> bool:
    toks, ys = header(col)
    ys |= set(read.years(cell.get("time_key") or ""))
    words = [w for w in toks if not w[0].isdigit()]
    if not toks:
        return False  # a period alone ("2019", "September 30, 2018"): tableqa's
    point = {w.lower() for w in _POINT.findall(col)}
    if point and point <= qset and set(words) - qset <= _IMPLIED:
        words = [w for w in words if w not in _IMPLIED]  # "end of period": the closing balance
    if not set(words) <= qset or not ys <= qys:
        return False
    nums = [w for w in toks if w[0].isdigit()]
    return not nums or tablelines.at(qtok, toks) is not None


def _rows(question: str, table: list) -> list:
    """The lines the question names by every word (and year) of their label, or by the span of
    years a label is made of ("2020 – 2024"); the most specific of nested labels."""
    q, ys = label_words(question), set(read.years(question))
    out = []
    for ln in table:
        own, lys = label_words(ln.label), set(read.years(ln.label))
        if not ln.label or not (own or lys) or not own <= q or not lys <= ys:
            continue
        if own and not own - {"total"}:
            continue  # a bare "Total" line is not named by the operation's word "total"
        out.append(ln)
    return [ln for ln in out if not any(
        label_words(ln.label) < label_words(o.label)
        or (label_words(ln.label) == label_words(o.label)
            and set(read.years(ln.label)) < set(read.years(o.label))) for o in out)]


def corners(con) -> dict[str, str]:
    """table -> the header of its label column ("Days past due", "Fiscal Year", "Period"):
    what its rows (or all its columns) are of, so a question may say it without naming a cell."""
    return per_view(_CORNERS, con, _read_corners)


def _read_corners(con) -> dict[str, str]:
    try:
        rows = con.cursor().execute(
            "SELECT table_name, header FROM schemas WHERE position = 0").fetchall()
    except Exception:  # a governed view without schemas: no corner known
        return {}
    return {t: h or "" for t, h in rows}


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}
_ORDINAL = re.compile(rf"\b({'|'.join(_ORDINALS)})\b", re.I)
_NTH = re.compile(rf"\b(?:{'|'.join(_ORDINALS)})\s+(?:month|period|quarter|week)s?\b", re.I)


def _by_order(question: str, table: list) -> list:
    """(line, ordinal word) of "the first to second month period" in a table whose lines are
    dated periods ("January 26, 2019 - February 22, 2019", a monthly repurchase schedule): the
    n-th such line, in the table's order; nothing when a line is not dated or there are fewer."""
    if not _NTH.search(question):
        return []
    body = [ln for ln in table if ln.label and not _TOTAL_LABEL.match(ln.label)]
    if not body or not all(_DATE.search(ln.label) and read.years(ln.label) for ln in body):
        return []
    out = []
    for m in _ORDINAL.finditer(question):
        n = _ORDINALS[m.group(1).lower()]
        if n > len(body):
            return []
        out.append((body[n - 1], m.group(1).lower()))
    return out if len({id(ln) for ln, _ in out}) == len(out) else []


_SPAN_OF = re.compile(r"\b(\w+)[\s-]+(month|quarter|week)s?\s+period\b", re.I)


def _span_total(question: str, table: list) -> tuple | None:
    """(the total line, the words naming it, the lines it adds up) of "the total shares
    purchased in the three month period" in a table of dated period lines ("January 26, 2019
    - February 22, 2019", ...) closed by one "Total" line: the span covering every period
    line is what the total is of, when their number is the one the question says."""
    m = _SPAN_OF.search(question)
    if not m:
        return None
    n = tablelines.NUMBER_WORDS.get(m.group(1).lower(), m.group(1))
    body = [ln for ln in table if ln.label and not _TOTAL_LABEL.match(ln.label)]
    totals = [ln for ln in table if ln.label and _TOTAL_LABEL.match(ln.label)]
    if not body or len(totals) != 1 or str(len(body)) != n or \
            totals[0].row < max(ln.row for ln in body):
        return None
    if not all(_DATE.search(ln.label) and read.years(ln.label) for ln in body):
        return None
    return totals[0], {m.group(1).lower(), m.group(2).lower(), "period"}, body


def _sums(total, body: list, col: str) -> bool:
    """Whether the total line's figure in `col` is the sum of the body lines' (to the last
    digit shown)."""
    parts = [ln.by_col.get(col) for ln in body]
    if col not in total.by_col or any(c is None for c in parts):
        return False
    return tablelines.adds_up([_Only(c) for c in parts], _Only(total.by_col[col]))


class _Only:  # a line of one figure, as `tablelines.adds_up` reads lines
    def __init__(self, c: dict) -> None:
        self.by_col = {"": c}


def _reading(question: str, qtok: list[str], table: list, corner: str):
    """(the two cells with their names, in the question's order, used rows, used columns) of
    one table, or None when it holds no single reading. `corner`: the label column's header."""
    qset, qys = set(qtok), set(read.years(question))
    sp = read.span(question)
    if sp and not any(set(read.years(ln.label)) == {sp[0], sp[-1]} for ln in table):
        return None  # "from 2020 to 2024": every year between, unless a line is that span
    cols: dict[str, dict] = {}
    for ln in table:
        for k, c in ln.by_col.items():
            cols.setdefault(k, c)
    named = [k for k, c in cols.items() if _col_named(k, c, qtok, qset, qys)]
    hw = {k: set(header(k)[0]) for k in named}
    named = [k for k in named if not any(hw[k] < hw[o] for o in named)]
    buckets = _buckets(list(cols), question)
    if buckets and not named:
        named, hw = list(buckets), buckets  # "from 2020 to 2021-2022": two bucket columns
    rows = _rows(question, table)
    by = {id(ln): label_words(ln.label) | set(map(str, read.years(ln.label))) for ln in rows}
    summed = None  # the total line the question names by the span of the dated lines
    if not rows:
        for ln, w in _by_order(question, table):
            rows.append(ln)
            by[id(ln)] = {w}
        whole = _span_total(question, table) if len(rows) == 1 else None
        if whole is not None:
            summed = whole
            rows.append(whole[0])
            by[id(whole[0])] = whole[1]
    if len(rows) == 1 and len(named) == 2:
        ln = rows[0]
        if any(k not in ln.by_col for k in named):
            return None
        pairs = [(_name(ln, k), ln.by_col[k], hw[k] - hw[o]) for k, o in (named, named[::-1])]
        used_rows, used_cols = rows, named
    elif len(rows) == 2 and len(named) <= 1:
        col = named[0] if named else (next(iter(cols)) if len(cols) == 1 else None)
        if col is None or any(col not in ln.by_col for ln in rows):
            return None
        if read.years(col) or any(ln.by_col[col].get("time_key") for ln in rows):
            return None  # two lines in one period ("Revenue 2024"): the line-item readers'
        if summed is not None and not _sums(summed[0], summed[2], col):
            return None  # the "Total" line does not add up the periods in this column
        own = [by[id(ln)] for ln in rows]
        pairs = [(_name(ln, col), ln.by_col[col], own[i] - own[1 - i])
                 for i, ln in enumerate(rows)]
        used_rows, used_cols = rows, [col]
    else:
        return None
    if any(set(header(k)[0]) <= label_words(ln.label) for k in used_cols for ln in used_rows
           if k not in buckets):
        return None  # a column's words are all a row's: which one they name is a guess
    if not all(d for _, _, d in pairs):
        return None
    explained = set().union(*(set(read.years(ln.label)) for ln in used_rows),
                            *(set(read.years(k)) | set(read.years(
                                ln.by_col[k].get("time_key") or ""))
                              for k in used_cols for ln in used_rows if k in ln.by_col))
    if not qys <= explained:
        return None  # a year the cells do not have
    words = set().union(label_words(corner), *(by[id(ln)] for ln in used_rows),
                        *({tr.stem(w) for w in header(k)[0]} for k in used_cols))
    left = label_words(question) - words - tr.OPWORDS - _ASK_WORDS - spans.STRUCT_WORDS
    if len(left) > _MAX_RESIDUE:
        return None
    order = sorted(pairs, key=lambda p: _first(qtok, p[2]))
    if _first(qtok, order[0][2]) == _first(qtok, order[1][2]):
        return None
    return order, used_rows, used_cols, summed is not None


_SPAN_HEAD = re.compile(r"^\s*((?:19|20)\d{2})\s*[-–—]\s*((?:19|20)\d{2})\s*$")
_YEAR_HEAD = re.compile(r"^\s*((?:19|20)\d{2})\s*$")


def _buckets(cols: list[str], question: str) -> dict[str, set[str]]:
    """{header: its years} of the period-bucket columns the question quotes, in a table whose
    columns are periods of unequal length ("2020" | "2021-2022" | "2023-2024", a maturity
    schedule): the line-item reader reads a column per year, so a span column is no period
    of its; the question names such a column by writing it ("from 2020 to 2021-2022"). Empty
    unless the question quotes a span column."""
    qn = re.sub(r"\s*[-–—]\s*", "-", question)
    out: dict[str, set[str]] = {}
    span = False
    for k in cols:
        m = _SPAN_HEAD.match(k) or _YEAR_HEAD.match(k)
        if not m:
            continue
        ys = [g for g in m.groups() if g]
        if re.search(rf"(?<![\d-]){'-'.join(ys)}(?![\d-])", qn):
            out[k] = set(ys)
            span = span or len(ys) == 2
    return out if span else {}


def _name(ln, col: str) -> str:
    """"Discount rate Domestic 2019": the row and the column, a date's day aside (the draft's
    sentence states no number the evidence does not — a period's year is one it does)."""
    return re.sub(r"\s+", " ", f"{ln.label} {_DATE.sub(' ', col)}").strip()


def _first(qtok: list[str], words: set[str]) -> int:
    """Where the question first says one of an operand's own words."""
    return min((i for i, w in enumerate(qtok) if w in words or tr.stem(w) in words),
               default=10 ** 6)


def _directed(question: str, a: set[str], b: set[str]) -> bool:
    """"From A to B", "between A to B", "A to B": B is the later of the two."""
    toks = [tr.stem(w) for w in re.findall(r"[a-z]+|\d+", question.lower())]
    ia = next((i for i, w in enumerate(toks) if w in a), None)
    ib = next((i for i, w in enumerate(toks) if w in b), None)
    if ia is None or ib is None or ia >= ib:
        return False
    between = toks[ia + 1:ib]
    # "A as compared to B", "A relative to B": A against B, not a move from A to B
    return "to" in between and not {"and", "compared", "relative", "versus", "vs"} & set(between)


# "the percentage difference between A and B" (A relative to B, as the "between" orders them)
_PCT_DIFF = re.compile(r"\bpercent(?:age)?\s+difference\b", re.I)
_IN_UNITS = re.compile(r"\(\s*in\s+(?:years|months|days|weeks|hours|units|shares)\s*\)", re.I)


def _scale(c: dict, cols: list[str]) -> str:
    """The cell's scale (`tableqa_rows.scale`), except that a column of an amount per unit
    ("Average Price Paid per Share") or of a count stated in its own unit ("Useful Lives (in
    years)") has none, whatever the table's caption says of its money columns."""
    col = c["attribute"] or ""
    if any(k == col for k in cols) and (per_unit(col) or _IN_UNITS.search(col)):
        return ""
    return tr.scale(c)


def _compute(question: str, order: list, used_rows: list, used_cols: list,
             summed: bool = False):
    labels = " ".join([ln.label for ln in used_rows] + list(used_cols))
    op = read.operation(question, labels, 2)
    if op in ("ratio", "percent_of"):
        return _ratio(question, op, order, used_cols, summed)
    if op not in ("difference", "change_ratio", "sum"):
        return None
    (na, ca, wa), (nb, cb, wb) = order
    pct = ["%" in (c["value_text"] or "") for c in (ca, cb)]
    sc = _scale(ca, used_cols)
    if pct[0] != pct[1] or sc != _scale(cb, used_cols):
        return None  # a percent against an amount, or two scales
    directed = _directed(question, wa, wb)
    a, b = float(ca["value_num"]), float(cb["value_num"])
    bld = tablelines.Builder()
    oa = Operand(ca["claim_id"], a, na, bld.commit(ca, f"the first operand: {na}"))
    ob = Operand(cb["claim_id"], b, nb, bld.commit(cb, f"the second operand: {nb}"))
    if op == "sum":
        if pct[0]:
            return None  # shares of different wholes do not add up
        r = round(a + b, 2)
        d = Derivation("sum", f"{fmt(a)} + {fmt(b)}", (oa, ob), r)
        return bld.done(op, r, f"{na} [{oa.n}] plus {nb} [{ob.n}] is {fmt(r)}.", d,
                        scale=sc)
    if op == "difference" and _PCT_DIFF.search(question) and not pct[0]:
        if not re.search(r"\bbetween\b", question, re.I) or directed or b <= 0 or a <= 0:
            return None
        # "the percentage difference between A and B": how much A differs, relative to B
        r = round((a - b) / b * 100, 2)
        d = Derivation("growth", f"({fmt(a)} - {fmt(b)}) / {fmt(b)} x 100", (ob, oa), r, "%")
        sent = f"{na} [{oa.n}] differs from {nb} [{ob.n}] by {fmt(r)}%."
        return bld.done("change_ratio", r, sent, d, scale="percent")
    if op == "difference":
        if re.search(r"\bpercent|%", question, re.I) and sc != "percent":
            return None  # "the percentage difference": a ratio, or points?
        if read.distance(question) and not directed:
            # "the difference between A and B": A - B, or how far apart they are — the same
            # figure unless A is the smaller, where readers differ (the engine's own reading
            # of two named items is A - B, the line-item reader's of two periods a distance);
            # from a part to its total ("between the current and the total") it is the rest
            apart = tr.label(cb) if ca["attribute"] == cb["attribute"] else cb["attribute"]
            if a < b and not _TOTAL_LABEL.match(apart or ""):
                return None
            new, old = (oa, ob) if a >= b else (ob, oa)
        elif directed:
            new, old = ob, oa  # "from A to B": B against A
        else:
            return None
        r = round(new.value - old.value, 2)
        d = Derivation("difference", f"{fmt(new.value)} - {fmt(old.value)}", (new, old), r)
        sent = f"{new.label} [{new.n}] minus {old.label} [{old.n}] is {fmt(r)}."
        return bld.done(op, r, sent, d, scale=sc)
    if not directed or sc == "percent" or pct[0] or a <= 0:
        return None  # no direction, a change of percentages, or no positive base
    r = round((b - a) / a * 100, 2)
    d = Derivation("growth", f"({fmt(b)} - {fmt(a)}) / {fmt(a)} x 100", (oa, ob), r, "%")
    sent = f"From {na} [{oa.n}] to {nb} [{ob.n}] is a change of {fmt(r)}%."
    return bld.done(op, r, sent, d, scale="percent")


def _half(text: str, words: set[str]) -> bool:
    """Whether `text` (one half of a share question) says every one of an operand's words."""
    whole = re.sub(r"\bnon-(?=[a-z])", "non", text, flags=re.I)  # "non-vested" is no "vested"
    said = set(tablelines.tokens(whole)) | label_words(text) | set(map(str, read.years(text)))
    return all(w in said or tr.stem(w) in said for w in words)


def _ratio(question: str, op: str, order: list, used_cols: list,
           summed: bool = False):
    """A over B, "A as a percentage of B", "the proportion of B that is A", "the ratio of A to
    B": the part is the operand the part's half of the question (`tableqa_shares.split`) names
    and the whole's half does not, and the other way round — else which is over which is a
    guess. A deduction shown in brackets is a part by its size (`tableqa_rows.share_sizes`);
    a part above its whole is no "proportion"; a share of a "Total" line or column is the
    shares reader's, which first checks that the total adds up (a comparison of two cells,
    "A as a percentage of B", may pass 100 %)."""
    halves = split(question)
    if halves is None:
        return None
    (na, ca, wa), (nb, cb, wb) = order
    sides = [(_half(halves[0], w), _half(halves[1], w)) for w in (wa, wb)]
    if sides == [(True, False), (False, True)]:
        (np_, cp, _), (nw, cw, _) = order
    elif sides == [(False, True), (True, False)]:
        (nw, cw, _), (np_, cp, _) = order
    else:
        return None
    sc = _scale(cp, used_cols)
    if ("%" in (cp["value_text"] or "")) != ("%" in (cw["value_text"] or "")) or \
            sc != _scale(cw, used_cols):
        return None  # a percent against an amount, or two scales
    vals = tr.share_sizes([cp], cw)
    if vals is None:
        return None
    a, b = vals[0], float(cw["value_num"])
    if not summed and (_TOTAL_LABEL.match(nw) or _TOTAL_LABEL.match(cw["attribute"] or "")):
        return None  # a share of a total: `tableqa_shares`', which checks that it adds up
    bld = tablelines.Builder()
    oa = Operand(cp["claim_id"], a, np_, bld.commit(cp, f"the part: {np_}"))
    ob = Operand(cw["claim_id"], b, nw, bld.commit(cw, f"the whole: {nw}"))
    if op == "ratio":
        r = round(a / b, 2)
        if r > 1 and a > 0 and b > 0 and read.proportion(question):
            return None  # a proportion above 1: the part and the whole were swapped
        d = Derivation("ratio", f"{fmt(a)} / {fmt(b)}", (oa, ob), r)
        return bld.done(op, r, f"{np_} [{oa.n}] over {nw} [{ob.n}] is {fmt(r)}.", d)
    r = round(a / b * 100, 2)
    d = Derivation("ratio", f"{fmt(a)} / {fmt(b)} x 100", (oa, ob), r, "%")
    return bld.done(op, r, f"{np_} [{oa.n}] is {fmt(r)}% of {nw} [{ob.n}].", d,
                    scale="percent")


_AFTER = re.compile(r"\bafter\s+(?:the\s+)?(?P<what>[^?]+)", re.I)
_WITHOUT = re.compile(r"\bwithout\b(?P<what>.*)$", re.I)
_REPORTED = re.compile(r"^\s*as\s+reported\b", re.I)


def _adoption(question: str, table: list):
    """"The percentage increase in X after adoption of the new standard" of a table that shows
    each line "As Reported" beside its "Balances Without Adoption of New Standard" (the usual
    disclosure of a new accounting standard's effect): the reported figure against the one
    without it, (reported - without) / without x 100. Only when the question asks a percentage
    change of one named line "after" what exactly one column is "without", and exactly one
    column is "As Reported"; anything else is not read."""
    m = _AFTER.search(question)
    if not m or not read.CHANGE_RATIO.search(question) or read.years(question):
        return None
    what = label_words(m.group("what"))
    cols: dict[str, None] = {}
    for ln in table:
        cols.update(dict.fromkeys(ln.by_col))
    without = [k for k in cols if (w := _WITHOUT.search(_DATE.sub(" ", k)))
               and (ww := label_words(w.group("what"))) and ww == what]
    reported = [k for k in cols if _REPORTED.match(k)]
    rows = [ln for ln in _rows(question[:m.start()], table)
            if all(k in ln.by_col for k in without + reported)]
    if len(without) != 1 or len(reported) != 1 or len(rows) != 1:
        return None
    ln = rows[0]
    cw, cr = ln.by_col[without[0]], ln.by_col[reported[0]]
    if any("%" in (c["value_text"] or "") for c in (cw, cr)) or tr.scale(cw) != tr.scale(cr):
        return None
    a, b = float(cw["value_num"]), float(cr["value_num"])
    if a <= 0:
        return None  # no positive base
    nw, nr = _name(ln, without[0]), _name(ln, reported[0])
    bld = tablelines.Builder()
    oa = Operand(cw["claim_id"], a, nw, bld.commit(cw, f"the base: {nw}"))
    ob = Operand(cr["claim_id"], b, nr, bld.commit(cr, f"the figure after: {nr}"))
    r = round((b - a) / a * 100, 2)
    d = Derivation("growth", f"({fmt(b)} - {fmt(a)}) / {fmt(a)} x 100", (oa, ob), r, "%")
    sent = f"From {nw} [{oa.n}] to {nr} [{ob.n}] is a change of {fmt(r)}%."
    return bld.done("change_ratio", r, sent, d, scale="percent")


_BEFORE = re.compile(r"\bbefore\s+(?:the\s+)?(?P<what>[a-z]+)", re.I)
_AFTER_WORD = re.compile(r"\bafter\s+(?:the\s+)?(?P<what>[a-z]+)", re.I)


def _around(question: str, table: list):
    """"The percentage difference of total liabilities when comparing after adjustment to
    before adjustment" of a table laid out "<figure> | Adjustments | <figure>" (a purchase
    price allocation's measurement-period adjustments, a restatement): the column before the
    one the question's "before"/"after" word names is the figure before it, the column after
    it the figure after — when the line's three cells reconcile (before + adjustment = after).
    (after - before) / before x 100, for one named line; anything else is not read."""
    mb, ma = _BEFORE.search(question), _AFTER_WORD.search(question)
    if not mb or not ma or not (_PCT_DIFF.search(question) or read.CHANGE_RATIO.search(
            question)):
        return None
    what = tr.stem(mb.group("what").lower())
    if what != tr.stem(ma.group("what").lower()) or what in tablelines.GLUE:
        return None
    rows = _rows(question, table)
    if len(rows) != 1:
        return None
    ln = rows[0]
    pos = sorted(ln.col_pos, key=ln.col_pos.get)
    mids = [k for k in pos if what in {tr.stem(w) for w in header(k)[0]}]
    if len(mids) != 1 or not 0 < pos.index(mids[0]) < len(pos) - 1:
        return None
    i = pos.index(mids[0])
    cb, cm, ca = (ln.by_col.get(k) for k in pos[i - 1:i + 2])
    if cb is None or cm is None or ca is None:
        return None
    if any("%" in (c["value_text"] or "") for c in (cb, cm, ca)) or \
            len({tr.scale(c) for c in (cb, cm, ca)}) != 1:
        return None
    b, m, a = (float(c["value_num"]) for c in (cb, cm, ca))
    # rounded figures may miss by one unit of the last digit shown (`tablelines.adds_up`)
    unit = 10.0 ** -max(decimals_shown(c["value_text"]) for c in (cb, cm, ca))
    if abs(b + m - a) > unit * 1.000001 or b <= 0:
        return None  # the three do not reconcile: no "before | adjustment | after" layout
    nb, na = _name(ln, pos[i - 1]), _name(ln, pos[i + 1])
    bld = tablelines.Builder()
    ob = Operand(cb["claim_id"], b, nb, bld.commit(cb, f"before {what}: {nb}"))
    oa = Operand(ca["claim_id"], a, na, bld.commit(ca, f"after {what}: {na}"))
    bld.commit(cm, f"the {what} between them: {_name(ln, mids[0])}")
    r = round((a - b) / b * 100, 2)
    d = Derivation("growth", f"({fmt(a)} - {fmt(b)}) / {fmt(b)} x 100", (ob, oa), r, "%")
    sent = f"From {nb} [{ob.n}] to {na} [{oa.n}] is a change of {fmt(r)}%."
    return bld.done("change_ratio", r, sent, d, scale="percent")
