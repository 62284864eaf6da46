"""Row-and-column table questions: the operators a reader applies to one relational table.

The schema parser (`parser.py`) maps a question onto measures, entities and periods; the wide
line-item resolver (`tableqa.py`) reads financial statements. Neither reads a plain list table
the way a person does: "who came after Crettyard?", "which club had the most losses?", "how
many games did at least 1,500 people attend?", "what was the venue when he placed first?".
This module holds those operators, for any typed table a user ingests:

- the grid: the typed table's rows in file order, each cell with its displayed text (the cell
  claim's `value_text`, so "5,000 m" stays "5,000 m") and the claim that cites it;
- the reading of the question (`tableops_parse`, `tableops_read`): cell values it names (row
  filters, dates, negated values), columns it names (the answer column, the measure), numeric
  conditions ("more than 4", "before 1950");
- the operators (`tableops_ops`): lookup, count, sum, average, difference, superlatives and
  the most frequent value, first / last, previous / next row, "A or B" comparisons, runs of
  consecutive rows.

A statement cut into periods (section rows, dated balances) is not a list: it is left to the
line-item reader.

Every answer is computed over cells and commits the cells it read as facts, so drafting, the
ReverseVerifier, the decision and the audit record are those of every other answer. When the
question cannot be resolved unambiguously the resolver returns None and the engine abstains.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.reading import TableResolved
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.catalog import per_view
from hyrag.answer.parse.requirements import Requirement


@dataclass
class Grid:
    """One typed table as a reader sees it: columns, rows in file order, displayed cells."""

    table: str
    source: str
    cols: list[str]  # column names in the typed table
    headers: list[str]  # the headers as the file wrote them
    roles: list[str]  # id | time | categorical | numeric | text
    values: list[list[object]]  # typed values, row-major
    text: list[list[str]]  # displayed text, row-major
    cites: list[list[dict | None]]  # the cell claim (dict of claim columns) or None
    row_claims: list[list[dict]] = field(default_factory=list)  # every claim of each row
    memo: dict = field(default_factory=dict)  # per-table indexes, built once

    @property
    def n_rows(self) -> int:
        return len(self.values)

    def numeric(self, j: int) -> bool:
        return self.roles[j] == "numeric"

    def body(self) -> list[int]:
        """The rows that are not a total line ("Total", "Totals", "Overall"): counts, sums and
        superlatives range over these unless the question names the total line itself."""
        if "body" in self.memo:
            return self.memo["body"]
        out = []
        for i in range(self.n_rows):
            lead = [t.strip().lower() for t in self.text[i][:3] if t and t.strip()]
            if any(re.fullmatch(r"(?:grand )?totals?:?|sum|overall|all", t) for t in lead):
                continue
            if sum(t.strip() == h.strip() for t, h in zip(self.text[i], self.headers,
                                                           strict=True)) * 2 > len(self.cols):
                continue  # the header repeated inside the table
            out.append(i)
        if len(out) > 2 and self._sums_above(out[-1], out[:-1]):
            out.pop()  # an unlabelled last line holding the column sums
        self.memo["body"] = out
        return out

    def period_sections(self) -> bool:
        """Whether the table is cut into sections by period: a row holding nothing but a date
        or year in its label column ("June 30, 2018", "As at 31 December 2018", "2018:"),
        or a label column headed by one ("Year Ended December 31, 2019"). Each section
        repeats the same line items for another period — a statement the line-item reader
        reads; a row operator here would mix the periods ("the total accumulated
        amortization for June 30, 2017" summed over every section). A roll-forward, whose
        balance rows are dated ("Nonvested at January 1, 2017" ... "Granted" ...), is one too."""
        if "sections" in self.memo:
            return self.memo["sections"]
        year = re.compile(r"\b(?:19|20)\d{2}\b")
        label = next((j for j in range(len(self.cols)) if self.roles[j] != "numeric"), None)
        found = label is not None and bool(year.search(self.headers[label] or "")) and any(
            self.roles[j] == "numeric" for j in range(len(self.cols)))
        balances = 0  # "Nonvested at January 1, 2017", "Balance as of December 31, 2018"
        for i in range(self.n_rows if label is not None and not found else 0):
            cells = [t for t in self.text[i] if t and t.strip()]
            if len(cells) == 1 and self.text[i][label] == cells[0] and year.search(cells[0]) \
                    and len(cells[0].split()) <= 6:
                found = True
                break
            balances += bool(_BALANCE.search(self.text[i][label] or ""))
        self.memo["sections"] = found or balances >= 2
        return self.memo["sections"]

    def _sums_above(self, i: int, rows: list[int]) -> bool:
        """Row i's numbers are the sums of `rows` in at least two numeric columns, and none of
        its text cells names anything."""
        if any(self.text[i][j] for j in range(len(self.cols)) if self.roles[j] != "numeric"):
            return False
        hits = 0
        for j in range(len(self.cols)):
            v = self.values[i][j]
            if self.roles[j] != "numeric" or not isinstance(v, (int, float)):
                continue
            xs = [self.values[k][j] for k in rows]
            if any(not isinstance(x, (int, float)) for x in xs):
                continue
            if abs(sum(xs) - v) > 1e-6 * max(1.0, abs(v)):
                return False
            hits += 1
        return hits >= 2


_BALANCE = re.compile(r"\b(?:as of|as at|at|balance|beginning of|end of)\b.*\b(?:19|20)\d{2}\b",
                      re.I)
_CLAIM_COLS = ("claim_id, entity, attribute, value_num, value_text, coalesce(scale, '') AS scale, "
               "coalesce(unit, '') AS unit, time_key, text, locator, coalesce(file, '') AS file, "
               "coalesce(table_name, '') AS table_name, conf_base, value_base")


def _show(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return fmt(v).replace(",", "") if v.is_integer() else repr(v)
    return str(v)


def _periods_shown(cur, table: str, meta: list) -> dict[tuple[int, int], str]:
    """(file row, grid column) -> a period cell as the file writes it ("June 24, 1968"), from
    the table model: the typed column holds its ISO date or period key, which is what the
    reader compares, not what an answer quotes. Only where the model's columns are the typed
    table's, one for one, and its period columns carry the same headers (a plain list, even
    one whose other headers the typed table had to rename apart, "Score" twice; a melted
    table's periods are its columns)."""
    timed = [j for j, m in enumerate(meta) if m[2] == "time"]
    if not timed:
        return {}
    paths = [tuple(r[0]) for r in cur.execute(
        "SELECT col_path FROM table_columns WHERE table_name = ? ORDER BY col_idx",
        [table]).fetchall()]
    if len(paths) != len(meta) or any(" ".join(paths[j]) != (meta[j][1] or meta[j][0])
                                      for j in timed):
        return {}
    return {(row, col): text for row, col, text in cur.execute(
        "SELECT r.row_no, c.col_idx, c.text FROM table_cells c JOIN table_rows r "
        "USING (table_name, row_idx) WHERE c.table_name = ? AND list_contains(?, c.col_idx)",
        [table, timed]).fetchall()}


def load_grids(con, limit_rows: int = 5000, only: set[str] | None = None) -> list[Grid]:
    """Every typed table (or those in `only`) with its cell claims. A row is tied to its claims
    by the file row the claims' locators name (the k-th distinct row is the k-th typed row); a
    table whose claims do not line up with its rows is skipped rather than cited wrongly."""
    cur = con.cursor()
    grids: list[Grid] = []
    tables = [r[0] for r in cur.execute(
        "SELECT table_name FROM kb_tables WHERE coalesce(n_rows, 0) <= ? ORDER BY table_name",
        [limit_rows]).fetchall()]  # a larger table is the SQL route's, not a reader's list
    if only is not None:
        tables = [t for t in tables if t in only]
    for t in tables:
        meta = cur.execute(
            "SELECT s.column_name, s.header, s.role FROM schemas s JOIN kb_tables k "
            "USING (table_name, source_id) WHERE s.table_name = ? ORDER BY s.position",
            [t]).fetchall()
        if not meta:
            continue
        res = cur.execute(f'SELECT * FROM "{t}" LIMIT {int(limit_rows)}')
        names = [d[0] for d in res.description]
        rows = res.fetchall()
        idx = {n: i for i, n in enumerate(names)}
        meta = [m for m in meta if m[0] in idx]
        cols = [m[0] for m in meta]
        values = [[r[idx[c]] for c in cols] for r in rows]
        ccur = cur.execute(f"SELECT {_CLAIM_COLS} FROM claims WHERE NOT superseded AND "
                           "kind = 'cell' AND table_name = ?", [t])
        cn = [d[0] for d in ccur.description]
        claims = [dict(zip(cn, r, strict=True)) for r in ccur.fetchall()]
        by_row: dict[int, list[dict]] = {}
        for c in claims:
            try:
                loc = json.loads(c["locator"] or "{}")
            except ValueError:
                continue
            if isinstance(loc.get("row"), int):
                c["_col"] = str(loc.get("column") or "")
                by_row.setdefault(loc["row"], []).append(c)
        if not rows:
            continue
        headers = [m[1] or m[0] for m in meta]
        hpos = {h: j for j, h in enumerate(headers)}
        roles = [m[2] for m in meta]
        order = sorted(by_row)
        text: list[list[str]] = []
        cites: list[list[dict | None]] = []
        row_claims: list[list[dict]] = []
        periods = _periods_shown(cur, t, meta)
        k = 0
        for i in range(len(rows)):  # claims and rows in file order; a row without claims
            cells: list[dict | None] = [None] * len(cols)  # (every cell empty) gets none
            file_row = None
            if k < len(order) and _agrees(by_row[order[k]], values[i], hpos, roles):
                file_row = order[k]
                for c in by_row[order[k]]:
                    j = hpos.get(c["_col"])
                    if j is not None and cells[j] is None:
                        cells[j] = c
                row_claims.append(by_row[order[k]])
                k += 1
            else:
                row_claims.append([])
            text.append([(c["value_text"] if c is not None and c["value_text"] is not None
                          else periods.get((file_row, j)) or _show(values[i][j]))
                         for j, c in enumerate(cells)])
            cites.append(cells)
        if k != len(order):
            continue  # the claims do not line up with the rows: no citations, no answers
        source = next((c["file"] for c in claims if c["file"]), t)
        grids.append(Grid(t, source, cols, headers, roles, values, text, cites,
                          row_claims))
    return grids


_GRIDS: dict[tuple, dict[str, Grid | None]] = {}


def candidate_tables(question: str, con) -> set[str]:
    """The tables a question can be about (never a melted one): one whose header words it uses,
    or one holding a cell value it names (one to four words). Every operator needs one of the two, so the other
    tables' grids are never laid out: loading all of them cost ~1.4 s per process on the
    sample knowledge base, paid by every `hyrag ask`."""
    from hyrag.answer.readers.tableops_parse import singular, tokens
    from hyrag.retrieve.text import STOPWORDS

    tables, headers, values = per_view(_HEADERS, con, _read_headers)
    if len(tables) <= 1:
        return set(tables)
    words = tokens(question)
    content = {singular(w) for w in words if len(w) > 2 and w not in STOPWORDS}
    out = {t for t, ws in headers if t in tables and content & ws}
    grams = {" ".join(words[i:i + n]) for n in range(1, 5) for i in range(len(words) - n + 1)}
    grams = sorted(g for g in grams if g not in STOPWORDS and len(g) > 1)
    if grams and values is not None:
        out |= {t for g in grams for t in values.get(g, ())}
    elif grams:  # too many distinct cell texts to keep: the store is asked
        marks = ", ".join("?" * len(grams))
        out |= {r[0] for r in con.cursor().execute(
            f"SELECT DISTINCT table_name FROM claims WHERE {_TEXT_CELL} "
            f"AND lower(trim(value_text)) IN ({marks})", grams).fetchall()}
    return out & tables


# cells holding text (no number): the values a question names to pick a list table's rows
_TEXT_CELL = "kind = 'cell' AND NOT superseded AND value_num IS NULL"
_MAX_VALUES = 200_000  # distinct cell texts kept per view; beyond, each question asks the store
_HEADERS: dict[tuple, tuple] = {}


def _read_headers(con) -> tuple:
    """What `candidate_tables` reads of a view, once per view rather than per question: the
    tables that are not melted; (table, the singular words of a column's header and name) of
    every column; and each text cell's lower-cased, trimmed text -> the tables holding it (None
    when a view holds more than `_MAX_VALUES` of them)."""
    from hyrag.answer.readers.tableops_parse import singular, tokens

    cur = con.cursor()
    # A table melted from periods-across-the-top (a financial statement) is the line-item
    # reader's (tableqa.py): its grid is (item, period, value) rows, not a list a person reads
    # row by row, and reading it here answered line-item questions wrongly (TAT-QA dev).
    tables = frozenset(r[0] for r in cur.execute(
        "SELECT table_name FROM kb_tables WHERE NOT coalesce(melted, false)").fetchall())
    if len(tables) <= 1:
        return tables, [], None
    headers = [(t, frozenset(singular(w) for w in tokens(f"{header or ''} {col}")))
               for t, col, header in cur.execute(
                   "SELECT table_name, column_name, header FROM schemas").fetchall()]
    rows = cur.execute(f"SELECT DISTINCT lower(trim(value_text)), table_name FROM claims "
                       f"WHERE {_TEXT_CELL} LIMIT {_MAX_VALUES + 1}").fetchall()
    values: dict[str, set[str]] | None = None
    if len(rows) <= _MAX_VALUES:
        values = {}
        for v, t in rows:
            values.setdefault(v, set()).add(t)
    return tables, headers, values


def _cached_grids(con, question: str) -> list[Grid]:
    """The grids of the candidate tables, per knowledge base generation (sources and their
    versions, as the catalog keys its cache) and the tables this reader may see; each table is
    laid out the first time a question is about it."""
    from hyrag.answer.readers.tableops_parse import tokens


    done = per_view(_GRIDS, con, lambda _con: {})  # filled table by table below
    want = candidate_tables(question, con)
    missing = want - set(done)
    if missing:
        loaded = {g.table: g for g in load_grids(con, only=missing)}
        for t in missing:
            g = loaded.get(t)
            if g is not None:
                g.memo["cells"] = [tokens(x) for row in g.text for x in row if x]
            done[t] = g
    return [done[t] for t in sorted(want) if done.get(t) is not None]


def _agrees(claims: list[dict], row: list[object], hpos: dict[str, int],
            roles: list[str]) -> bool:
    """Every claim of a file row states what the typed row holds in its column: the same
    figure, the same text, or (a period, which the claim quotes as the file writes it and the
    typed row holds as a date or key) a value where the row has one."""
    for c in claims:
        j = hpos.get(c["_col"])
        if j is None:
            continue
        v = row[j]
        if v is None and (c["value_text"] or "").strip():
            return False  # the claim states a value where this row's cell is empty
        if roles[j] == "numeric" and isinstance(v, (int, float)) and c["value_num"] is not None:
            if abs(float(v) - float(c["value_num"])) > 1e-6 * max(1.0, abs(float(v))):
                return False
        elif v is not None and roles[j] not in ("numeric", "time") and str(v).strip() != str(
                c["value_text"] or "").strip():
            return False
    return True


@dataclass
class Result:
    """What an operator computed: the answer values and the cells (row, column) it read."""

    operation: str
    answer: list[object]
    cells: list[tuple[int, int]]  # cells whose values are the answer or its operands
    derivation: tuple[str, str] | None = None  # (name, expression) for a computed number
    operand_cells: list[tuple[int, int]] = field(default_factory=list)
    operand_values: list[float] | None = None  # the operands when not the cells' own numbers


def resolve(question: str, con, *, parsed=None, direct: bool = False):
    """The table answer to a row-and-column question (a `TableResolved`), or None when it
    cannot be resolved. `parsed` is the schema parser's reading: a table that does not hold an
    entity the parser found elsewhere in the knowledge base cannot answer. With `direct` (the
    parser already has direct evidence) only a reading the parser lacks overrides it."""
    from hyrag.answer.readers import tableops_ops

    try:
        grids = _cached_grids(con, question)
    except Exception:  # a table this reader cannot lay out is no answer
        return None
    found = []
    for g in grids:
        if g.period_sections():
            continue  # a statement cut into periods: the line-item reader's, not a list
        out = tableops_ops.answer(question, g)
        if out is not None and _holds_entities(parsed, out[2], g):
            found.append((out[1], g, out[0], out[2]))
    if not found:
        return None
    found.sort(key=lambda x: -x[0])
    if len(found) > 1 and found[1][0] >= found[0][0] * 0.8:
        return None  # two tables read the question about as well: ambiguous, abstain
    _, g, res, reading = found[0]
    if direct and not _overrides(question, parsed, g, res, reading):
        return None
    if res.operation in _READS and _ARITHMETIC.search(question):
        return None  # the question asks for a computed quantity; a cell read is not it
    if res.operation in _OVER_ROWS and _unread_year(reading, g, res):
        return None  # "from fiscal year 2025 - 2029, the total ...": the year picks rows
    return _commit(g, res)


def _holds_entities(parsed, reading, g: Grid) -> bool:
    """Every entity the parser found in the question is among the cell values this table's
    reading matched, or a cell of the table under its stored spelling (the parser corrects
    typos): "Riverside Clinic" in a report is not a row of the HR table."""
    from hyrag.answer.readers.tableops_parse import tokens

    if parsed is None:
        return True
    spans = [set(m.text.split()) for m in reading.matches]
    for e in parsed.entities:
        ws = set(tokens(e.matched or e.name))
        if ws and not any(ws <= sp for sp in spans) and tokens(e.name) not in g.memo.get(
                "cells", ()):
            return False
    return True


# Aggregates over a set of rows, and the years a question names outside every cell value and
# condition it matched: an aggregate that runs over rows of other periods answers another
# question ("from fiscal year 2025 - 2029, the total ...": the sum over every period span). A
# year the table's headers state ("Common Stock Price Range 2018") is the whole table's.
_OVER_ROWS = ("sum", "average")
_YEAR = re.compile(r"(?:19|20)\d{2}")


def _unread_year(reading, g: Grid, res: Result) -> bool:
    """Whether the question names years the aggregate did not keep to: some row it ran over
    states a year outside the span the question's own years make ("2020" ... "2024")."""
    stated = set(_YEAR.findall(" ".join(h or "" for h in g.headers)))
    named = sorted(int(w) for w in reading.free if _YEAR.fullmatch(w) and w not in stated)
    if not named:
        return False
    lo, hi = named[0], named[-1]
    rows = {i for i, _ in (res.operand_cells or res.cells)}
    return any(not lo <= int(y) <= hi for i in rows for cell in g.text[i]
               for y in _YEAR.findall(cell or ""))


_STRUCTURAL = ("neighbour", "compare", "mode", "same", "first", "last")
# Operators that read cells as they stand, and the words of a question that wants a number
# computed from them: "the ratio of current to non-current deferred revenue" answered with the
# two cells (TAT-QA dev: ~40 such answers, none right) is a wrong answer, not a partial one.
_READS = ("lookup", "first", "last", "neighbour", "same")
_ARITHMETIC = re.compile(
    r"\b(?:ratio|proportion|percentage|per ?cent|change[ds]?|increase[ds]?|decrease[ds]?|"
    r"difference|average|mean|growth|grew|rate of)\b|%", re.I)


def _overrides(question: str, parsed, g: Grid, res: Result, reading) -> bool:
    """Whether this table reading replaces the schema parser's direct answer: the parser
    mapped nothing (semantic route) or named no measure it holds, or the question needs an
    operator the parser does not have — a neighbour row, "A or B", the most frequent value,
    first / last, a numeric condition ("more than 4"), a row count of "how many times", the
    row that holds a superlative (not the superlative's value), or a sum or count over a table
    with a totals line the SQL aggregate would count twice."""
    from hyrag.answer.parse.router import Route, choose_route

    if parsed is None:
        return True
    if choose_route(parsed) in (Route.SEMANTIC, Route.RELATIONAL):
        return True
    if parsed.measure is None or not parsed.measure.known:
        return not parsed.count_table
    if res.operation in _STRUCTURAL and not parsed.comparison:
        return True
    if reading.conds:
        return True
    if res.operation == "count" and re.search(r"\b(?:how many|number of) times\b", question,
                                              re.I):
        return True
    if res.operation in ("row_max", "row_min") and not parsed.group_by:
        return True
    return res.operation in ("sum", "count", "average") and len(g.body()) < g.n_rows


def _fact_for(g: Grid, i: int, j: int, rid: str) -> Fact | None:
    c = g.cites[i][j]
    if c is None:  # a key or period column: cite the row's claim that names it
        c = next((x for x in g.row_claims[i] if g.text[i][j] and g.text[i][j] in (x["text"] or "")),
                 g.row_claims[i][0] if g.row_claims[i] else None)
        if c is None:
            return None
        val, vt = None, g.text[i][j]
    else:
        val, vt = c["value_num"], c["value_text"] or g.text[i][j]
    return Fact(
        claim_id=c["claim_id"], requirement=rid, source=c["file"] or g.source,
        locator=c["locator"], text=re.sub(r"^\[[^\]]*\]\s*", "", c["text"] or ""),
        entity=c["entity"], attribute=g.headers[j], value=val, value_text=vt,
        value_base=c["value_base"] if val is not None else None, unit=c["unit"] if val is not
        None else "", scale=c["scale"] if val is not None else "", time_key=c["time_key"],
        kind="cell", table=g.table, score=1.0, confidence=float(c["conf_base"] or 1.0),
        warrant_query=f"table {g.table} row {i + 1} column {g.headers[j]!r}")


def _commit(g: Grid, res: Result):
    store = CommitmentStore()
    reqs: list[Requirement] = []
    verdicts: list[Verdict] = []
    operands: list[Operand] = []
    answer_refs: list[int] = []
    seen: dict[tuple[int, int], int] = {}
    cap = 400 if res.derivation and res.derivation[0] == "count" else 60
    for k, (i, j) in enumerate([*res.operand_cells, *res.cells][:cap]):
        is_operand = k < len(res.operand_cells)
        n = seen.get((i, j))
        if n is None:
            rid = f"R{len(reqs) + 1}"
            f = _fact_for(g, i, j, rid)
            if f is None:
                return None
            store.commit(f)
            reqs.append(Requirement(rid, f.entity, g.headers[j], scope=(g.table,),
                                    sql_table=g.table))
            verdicts.append(Verdict(reqs[-1], "direct", (f.claim_id,)))
            n = seen[(i, j)] = len(reqs)
        if not is_operand:
            answer_refs.append(n)
            continue
        f = store.facts[n - 1]
        if res.operand_values is not None:
            val: float | None = res.operand_values[k]
        elif res.derivation and res.derivation[0] == "count":
            val = _stated(f)  # a count re-counts its operands: one per counted row
        else:
            val = _number(g, i, j)
        if val is None:
            return None
        operands.append(Operand(f.claim_id, val, g.text[i][j], n))
    if not reqs:
        return None
    derivs: list[Derivation] = []
    if res.derivation is not None:
        name, expr = res.derivation
        derivs.append(Derivation(name, expr, tuple(operands), float(res.answer[0])))  # type: ignore[arg-type]
    answer: object = res.answer[0] if len(res.answer) == 1 else list(res.answer)
    shown = ", ".join(fmt(v) if isinstance(v, float) else str(v) for v in res.answer)
    cites = "".join(f"[{n}]" for n in dict.fromkeys(answer_refs[:10]))
    sentence = "" if derivs else f"The answer is {shown} {cites}.".replace(" .", ".")
    return TableResolved(reqs, verdicts, store, derivs, res.operation, answer,
                         _answer_scale(res, [o.ref for o in operands],
                                       [store.facts[n - 1] for n in answer_refs], store),
                         1.0, 0, sentence)


def _answer_scale(res: Result, operand_ids: list[str], answer_facts: list[Fact],
                  store: CommitmentStore) -> str:
    """The scale the answer carries: that of the amounts it reads or computes from, when they
    share one ("$708" in a table "(In millions)" is 708 million); none for a count of rows, a
    name, or amounts of mixed scales."""
    if res.derivation is not None:
        name, expr = res.derivation
        if name == "count" or " rows" in expr:
            return ""
        facts = [f for f in store.facts if f.claim_id in set(operand_ids)]
    else:
        facts = answer_facts
    if not facts or any(f.value is None for f in facts):
        return ""
    scales = {f.scale or "" for f in facts}
    return scales.pop() if len(scales) == 1 else ""


def _stated(f: Fact) -> float:
    """A number the counted row's cited claim states (its value, else the first number of its
    value or sentence), so the verifier can ground each operand of a count; 1 when none."""
    from verify.tokens import numbers

    if f.value is not None:
        return float(f.value)
    found = numbers(f.value_text or "") or numbers(f.text or "")
    return float(found[0].value) if found else 1.0


def _number(g: Grid, i: int, j: int) -> float | None:
    from hyrag.answer.readers.tableops_parse import cell_number

    return cell_number(g, i, j)
