"""Tables without periods: a line per row, a category per column, one figure where they meet.

An ageing schedule or a breakdown as at one date ("Gross carrying amount" x "Current",
"0 to 30 days past due", "Total") has no period in its columns, so its cells carry none and
the line-item reader (`tableqa.py`), which reads a line across periods, never sees them. An
analyst reads "the gross carrying amount for current receivables" as the cell where the row
the question names meets the column it names. This module does only that:

- the row: the line whose label the question names (`tableqa_rows.rank_rows`, the column's
  words aside), one row of its table, ranked first alone — or, of lines ranked alike (a label
  repeated under two section headings), the one whose heading the question names in full;
- the column: the one whose every word, units aside ("Current $'000"), the question uses —
  the most specific of several; a table's only column needs no naming when its header has
  no words of its own ("Amount");
- the question names no year, date or operation (a period would be a column this table does
  not have; a change or a sum is more than one cell), and no more than a couple of words the
  row and the column leave unexplained.

A roll-forward table (balances at dates in rows) is `tableqa_rollforward`'s: a movement label
repeats there under each period, so it is never read here.
"""

from __future__ import annotations

import re

from hyrag.answer import tableqa_layout as layout
from hyrag.answer import tableqa_read as read
from hyrag.answer import tableqa_rollforward as rolled
from hyrag.answer import tableqa_rows as tr
from hyrag.answer.catalog import per_view
from hyrag.answer.commitment import CommitmentStore, Fact
from hyrag.answer.requirements import Requirement
from hyrag.answer.warrant import Verdict

CACHE: dict[tuple, dict[str, list[dict]]] = {}


def grids(con) -> dict[str, list[dict]]:
    """table -> its numeric cells without a period (no key, and no year in the column)."""
    return per_view(CACHE, con, _read)


def _read(con) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for c in map(dict, tr.numeric_cells(con)):
        if c["time_key"] not in (None, ""):
            continue  # a cell with a period
        if read.years(c["attribute"] or "") or not isinstance(layout.row(c), int):
            continue
        out.setdefault(c["table_name"], []).append(c)
    return out


# currency units a column header states ("RMB'Million") beside those of `layout.PERIOD_WORDS`
_CURRENCIES = {"rmb", "cny", "hkd", "jpy", "aud", "cad", "chf", "inr", "sgd", "krw", "sek",
               "nok", "dkk", "nzd", "zar", "brl"}


def _core(col: str) -> set[str]:
    return {w for w in tr.content(col) if w not in layout.PERIOD_WORDS | _CURRENCIES}


# a header that says only that its figures are amounts ("Amount", "Value ($ in thousands)")
_GENERIC = {"amount", "amounts", "value", "values", "in", "thousands", "millions", "billions",
            "usd", "eur", "gbp", "dollars"} | _CURRENCIES


def _wordless(col: str) -> bool:
    """Whether a column header has no words a question could name it by: "Amount", "$'000"
    — unlike "Growth %", whose word a question about the growth would use."""
    return all(w in _GENERIC for w in re.findall(r"[a-z]+", col.lower()))


_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)


def _dated(question: str, cells: list[dict]) -> list[dict] | None:
    """The cells under the section heading that dates them as the question does ("As at 31
    December 2019" above the rows, "as at 31 December 2019" in the question): a balance
    table repeated per date under dated headings has its period in the heading, not in its
    columns. None when the question names a year no heading of the table states alone (every
    year, every month and every day number of the heading must be the question's)."""
    ys = set(read.years(question))
    low = question.lower()
    keep = []
    for h in {layout.heading(c) for c in cells} - {""}:
        hy = set(read.years(h))
        if not hy or hy != ys:
            continue
        if any(m.group(0).lower()[:3] not in low for m in _MONTH.finditer(h)):
            continue
        if any(not re.search(rf"\b{d}\b", low) for d in re.findall(r"\b\d{1,2}\b", h)):
            continue
        keep.append(h)
    if len(keep) != 1:
        return None
    return [c for c in cells if layout.heading(c) == keep[0]]


_SUM_SQL = re.compile(r"\s*SELECT\s+SUM\(", re.I)


def unasked_sum(parsed, facts) -> bool:
    """Whether the parser's only direct evidence is a sum of rows the question asked no sum
    of: "the amount of domestic-state income tax net operating loss carryforwards" matched
    the label "Domestic-state" of two rows (one per section) and added them up. An analyst
    reads one cell there, so the grid reader may still look for it (a single row's SUM is
    that row's cell: the same figure)."""
    return parsed is not None and parsed.operation is None and bool(facts) and all(
        f.kind == "sql" and _SUM_SQL.match(getattr(f, "warrant_query", "") or "")
        for f in facts)


def resolve(question: str, con):
    """A `tableqa.Resolved` lookup of one cell of a table without periods, or None."""
    from hyrag.answer.tableqa import Resolved

    dated = bool(read.years(question) or re.search(r"\b(?:19|20)\d{2}\b", question))
    q = tr.content(question) - (_dates_words(question) if dated else set())
    rf_tables = {c["table_name"] for t in rolled.tables(con) for cs in t.cols.values()
                 for c in cs.values()}
    found = []
    for name, cells in grids(con).items():
        if name in rf_tables:
            continue
        if dated and (got := _span_cell(question, q, cells)) is not None:
            found.append(got)  # "between fiscal year 2020 - 2024": the row so labelled
            continue
        if dated and (cells := _dated(question, cells)) is None:  # type: ignore[assignment]
            continue  # a period: only a dated heading of the table can state it
        got = _cell(question, q, cells, full=dated) or (
            None if dated else _nth_cell(question, q, cells))
        if got is not None:
            found.append(got)
    if len(found) != 1:
        return None
    c, lab, col, residue = found[0]
    if read.operation(question, f"{lab} {col}", 1) != "lookup":
        return None
    req = Requirement("R1", lab, col, period=None)
    store = CommitmentStore()
    store.commit(Fact(
        claim_id=c["claim_id"], requirement="R1", source=c["file"] or c["table_name"],
        locator=c["locator"], text=re.sub(r"^\[[^\]]*\]\s*", "", c["text"] or ""),
        entity=lab, attribute=col, value=c["value_num"], value_text=c["value_text"] or "",
        value_base=c["value_base"], unit=c["unit"], scale=c["scale"], time_key=None,
        kind="cell", table=c["table_name"], score=1.0,
        warrant_query=f"row {lab!r} column {col!r}", confidence=float(c["conf_base"] or 0.0)))
    verdicts = [Verdict(req, "direct", (c["claim_id"],))]
    if "%" in (c["value_text"] or ""):
        answer, scale = c["value_text"].strip(), ""
    else:
        answer, scale = c["value_num"], tr.scale(c)
    return Resolved([req], verdicts, store, [], "lookup", answer, scale, 1.0, residue)


# a row labelled by a span of years ("2020 – 2024" of a maturity schedule), and one written
_YEAR_SPAN = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*(?:[-–—]|to|through)\s*((?:19|20)\d{2})(?!\d)")


def _span_cell(question: str, q: set[str], cells: list[dict]) -> tuple | None:
    """(cell, row label, column, residue) where the row is labelled by the span of years the
    question writes ("the ground leases expiring between fiscal year 2020 - 2024" against the
    row "2020 – 2024"): those years name the row, not a period of the table, when they are the
    only years the question writes and exactly one row has that span for its label. The
    column is named as in `_cell`; the span's own words ("fiscal year") need no explaining."""
    spans = {(m.group(1), m.group(2)) for m in _YEAR_SPAN.finditer(question)}
    if len(spans) != 1 or set(read.years(question)) - {int(y) for y in next(iter(spans))}:
        return None
    rows = {tr.label(c) for c in cells
            if (m := _YEAR_SPAN.fullmatch(tr.label(c).strip())) and (m.group(1), m.group(2))
            in spans}
    if len(rows) != 1:
        return None
    lab = rows.pop()
    if len({layout.row(c) for c in cells if tr.label(c) == lab}) != 1:
        return None
    return _at(lab, _column(cells, q), cells, q, {"year"})


def _nth_cell(question: str, q: set[str], cells: list[dict]) -> tuple | None:
    """(cell, row label, column, residue) of "the shares purchased ... during the second
    month" in a table whose lines are all dated periods ("January 26, 2019 - February 22,
    2019", a monthly repurchase schedule; a "Total" line aside): the n-th such line in the
    table's order, as `tableqa_pair` reads "the first to second month period". One ordinal
    only; the column is the most specific one whose words, a "Total" aside, the question
    uses ("Total Number of Shares Purchased as Part of Publicly Announced Program")."""
    from hyrag.answer.tableqa_pair import _DATE, _NTH, _ORDINALS, _TOTAL_LABEL

    ms = list(_NTH.finditer(question))
    if len(ms) != 1:
        return None
    n = _ORDINALS[ms[0].group(0).split()[0].lower()]
    order: dict[str, int] = {}
    for c in sorted(cells, key=lambda c: layout.row(c)):
        order.setdefault(tr.label(c), layout.row(c))
    body = [lab for lab in order if not _TOTAL_LABEL.match(lab)]
    if n > len(body) or not all(_DATE.search(lab) and read.years(lab) for lab in body):
        return None
    lab = body[n - 1]
    return _at(lab, _column(cells, q, loose=True), cells, q, set(_ORDINALS))


def _column(cells: list[dict], q: set[str], loose: bool = False) -> str | None:
    """The one column whose words the question uses, the most specific of several (`loose`:
    its "Total" need not be said, "the number of shares purchased" of "Total Number of Shares
    Purchased"), or None."""
    def words(c: str) -> set[str]:
        return _core(c) - tr.OPWORDS if loose else _core(c)

    named = [c for c in {c["attribute"] or "" for c in cells} if words(c) and words(c) <= q]
    top = max((len(_core(c) - tr.OPWORDS) for c in named), default=0)
    named = [c for c in named if len(_core(c) - tr.OPWORDS) == top]
    return named[0] if len(named) == 1 else None


def _at(lab: str, col: str | None, cells: list[dict], q: set[str], said: set[str]) -> tuple | None:
    """(cell, lab, col, residue) where row `lab` meets column `col`, when there is one cell
    and the question's words beyond the column's (and `said`, the row's own) are few."""
    if col is None:
        return None
    hit = [c for c in cells if tr.label(c) == lab and (c["attribute"] or "") == col]
    residue = len(q - _core(col) - tr.OPWORDS - layout.PERIOD_WORDS - said)
    if len(hit) != 1 or residue > tr.MAX_RESIDUE:
        return None
    return hit[0], lab, col, residue


def _dates_words(question: str) -> set[str]:
    """The words of the question's dates ("as at 31 December 2019"): the heading's, not the
    row's or the column's."""
    return {tr.stem(w.lower()) for w in _MONTH.findall(question)} | {"as", "at"}


def _cell(question: str, q: set[str], cells: list[dict], full: bool = False) -> tuple | None:
    """(cell, row label, column, residue) the question names in one table, or None. `full`:
    every word of the row's label must be the question's (a dated section's rows are
    siblings — "Monetary assets, current" and "non-current" — which a partial name does not
    tell apart: "the total monetary assets" is their sum, not the current ones)."""
    cols = {c["attribute"] or "" for c in cells}
    named = [c for c in cols if _core(c) and _core(c) <= q]
    if not named and len(cols) == 1 and _wordless(next(iter(cols))):
        named = list(cols)  # the table's one column, with no words to name ("Amount", "$")
    if not named:
        return None
    top = max(len(_core(c) - tr.OPWORDS) for c in named)
    named = [c for c in named if len(_core(c) - tr.OPWORDS) == top]
    if len(named) != 1:
        return None
    col = named[0]
    rest = q - _core(col)
    got = _line(cells, rest, question)
    if got is None:
        return None
    lab, line, section = got
    if full and not tr.content(lab) <= rest:
        return None
    hit = [c for c in line if (c["attribute"] or "") == col]
    if len(hit) != 1 or len({layout.row(c) for c in line}) != 1:
        return None  # the label names no cell of that column, or two rows
    residue = len(rest - tr.content(lab) - section - tr.OPWORDS)
    if residue > (0 if _wordless(col) else tr.MAX_RESIDUE):
        return None  # a column without words explains none: every word is the line's
    return hit[0], lab, col, residue


def _line(cells: list[dict], rest: set[str], question: str) -> tuple | None:
    """(label, its cells, the section words that chose it) of the one line the question
    names: the best-ranked label (`tableqa_rows.rank_rows`), or — where several lines rank
    alike ("Domestic-state" under "Income tax net operating loss carryforwards" and again
    under "Tax credit carryforwards") — the one whose section heading the question also
    names, every word of it ("the domestic-state income tax net operating loss
    carryforwards"). None when no heading, or more than one, tells them apart."""
    ranked = tr.rank_rows(cells, rest, question)
    if not ranked:
        return None
    top = {lab for sc, lab in ranked if sc == ranked[0][0]}
    lines: dict[tuple, list[dict]] = {}
    for c in cells:
        if tr.label(c) in top:
            key = (tr.label(c), frozenset(layout.section_words(c, cells)))
            lines.setdefault(key, []).append(c)
    if len(lines) == 1:
        (lab, _), line = next(iter(lines.items()))
        return lab, line, set()
    named = [(k, v) for k, v in lines.items() if k[1] and k[1] <= rest]
    if len(named) != 1:
        return None
    (lab, words), line = named[0]
    return lab, line, set(words)
