"""One interpreter for every operator of `language`, over the table model.

`run(program, tables, sentences)` evaluates a program against the knowledge base's table models
(and, for `span`, its prose sentences) and returns a `Result`: the value(s) it answers with,
their scale, and the cells it read — the operands the ReverseVerifier re-checks and the
citations of the answer — or the sentences it quoted (`Result.quotes`). Nothing here guesses:
an operand that is not a number where a number is needed, a division by zero, or figures of
different scales added together raise `ExecutionError`, which the route reads as "this program
is not an answer", never as an abstention of the whole engine.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from hyrag.answer.programs.figures import figure_of, is_duration
from hyrag.answer.programs.language import OPERATORS, Cell, Program, Span
from hyrag.answer.programs.lexicon import year_of_text
from hyrag.answer.programs.link import TableIndex
from hyrag.errors import HyragError
from ingest.cells import is_empty


class ExecutionError(HyragError):
    """A program that cannot be evaluated over the cells it names."""


@dataclass(frozen=True)
class CellValue:
    """A cell as the interpreter reads it: its number (signed, as displayed) or text, its
    scale, and the labels a person would name it by (row label, column label)."""

    cell: Cell
    text: str
    value: float | None
    scale: str
    unit: str
    row_label: str
    col_label: str
    period: str | None
    # how the column's header names its period ("2019" over "Amount" and "%"; "April 28,
    # 2018"), the label of a column answered for its period (`CONVENTIONS["argmax"]`)
    period_label: str = ""


@dataclass(frozen=True)
class Sentence:
    """A prose sentence of the knowledge base as a `Span` reads it: the claim stating it, the
    sentence as quoted (without ingestion's carried-subject and negation marks), and where it
    is (source file and locator), for the citation."""

    claim_id: str
    text: str
    source: str
    locator: str
    confidence: float = 0.0


@dataclass(frozen=True)
class Quote:
    """A span the executor read: the clause, and the sentence it is quoted from."""

    span: Span
    text: str
    sentence: Sentence


@dataclass(frozen=True)
class Result:
    """What a program computed: `values` (one, or several for `each`), their `scale`
    ("" | thousand | million | billion | percent), and the cells read, in operand order."""

    values: tuple[object, ...]
    scale: str
    cells: tuple[CellValue, ...]
    expression: str
    op: str = ""
    quotes: tuple[Quote, ...] = ()

    @property
    def answer(self) -> tuple[object, ...]:
        """The values as an answer states them: a cell looked up is quoted as displayed when
        it shows a percent sign ("13.0%"), a number otherwise; computed values are numbers."""
        if self.op in ("lookup", "each") and len(self.cells) == len(self.values):
            return tuple(c.text.strip() if isinstance(v, float) and shown_as_text(c.text) else v
                         for v, c in zip(self.values, self.cells, strict=True))
        return self.values


def shown_as_text(text: str) -> bool:
    """Is a cell with a figure stated as displayed rather than as its number: a percent
    ("13.0%"), a figure with words beside it ("1,450 tonnes", "33 years", "2nd"), whose
    words are part of what the cell says, or a duration ("3:45", not its 225 seconds)."""
    return "%" in text or bool(_LETTER.search(text)) or is_duration(text)


_LETTER = re.compile(r"[^\W\d_]")


def read_cell(cell: Cell, tables: Mapping[str, TableIndex]) -> CellValue:
    """The cell at `cell` in its table model (its text, number, scale and labels)."""
    ti = tables.get(cell.table)
    if ti is None:
        raise ExecutionError(f"no table {cell.table!r} in the knowledge base")
    model = ti.model
    k = ti.cell_pos.get((cell.row, cell.col))
    if k is None:
        raise ExecutionError(f"{cell.table}: no cell at row {cell.row}, column {cell.col}")
    a = model.arrays
    row, col = model.rows[cell.row], model.columns[cell.col]
    text = a.text[k]
    scale = a.scale[k] or ("percent" if "%" in text else "")
    col_label = next((lvl for lvl in reversed(col.path) if lvl and lvl != "None"), "")
    value = a.value[k]
    if value is None:
        # a figure the schema read as a period or a name ("2004" in a year column), or a
        # figure with a unit in a text column ("1,450 tonnes", "33 years", "2nd"), or a
        # duration ("3:45"), is still the number it shows, for a difference of years or the
        # largest one (`figures`)
        value = figure_of(text)
    period_label = ti.col_period_label[cell.col] or col_label
    return CellValue(cell, text, value, scale, a.unit[k], ti.row_labels[cell.row],
                     col_label, col.period or row.period, period_label)


def quote(span: Span, sentences: Mapping[str, Sentence]) -> Quote:
    """The clause a span names, with its sentence; the clause is trimmed of the spaces and
    the punctuation that close a sentence or open a clause (", and", ";"), never cut inside."""
    s = sentences.get(span.claim)
    if s is None:
        raise ExecutionError(f"no sentence claim {span.claim!r} in the knowledge base")
    if span.end > len(s.text):
        raise ExecutionError(f"{span.claim}: span {span.start}:{span.end} is past the sentence's "
                             f"end ({len(s.text)})")
    text = s.text[span.start:span.end].strip().strip(",;:").strip()
    text = text[:-1] if text.endswith(".") and not _ABBREVIATION.search(text) else text
    if not text:
        raise ExecutionError(f"{span.claim}: span {span.start}:{span.end} quotes nothing")
    return Quote(span, text, s)


# a final period that belongs to the last word ("U.S.", "Inc.", "etc."): kept
_ABBREVIATION = re.compile(r"(?:\b[A-Z]\.|\b(?:Inc|Ltd|Corp|Co|etc|No)\.)$")


def run(program: Program, tables: Mapping[str, TableIndex],
        sentences: Mapping[str, Sentence] | None = None, *,
        memo: dict[Cell, tuple] | None = None) -> Result:
    """Evaluate `program` (see the module docstring); `sentences` (claim id -> sentence) are
    what `span` quotes. `memo`: the cells read so far, shared by the caller across the
    programs of one question (a ranking executes hundreds of candidates over the same few
    hundred cells)."""
    if program.op == "span":
        q = quote(program.args[0], sentences or {})  # type: ignore[arg-type]
        return Result((q.text,), "", (), repr(q.text), "span", (q,))
    value, scale, cells, expr = _eval(program, tables, {} if memo is None else memo)
    values = tuple(value) if isinstance(value, list) else (value,)
    return Result(values, scale, tuple(cells), expr, program.op)


def states_nothing(r: Result) -> bool:
    """Whether a result's every value is a nil mark ("—", "$ -", "N/A": `cells.is_empty`): a
    statement's way of saying there is no amount, which answers no "what was X" — the answer
    is then in the prose ("we had no investing activities"), or nowhere. The program still
    executes and is ranked as it was fitted; the route does not commit it (`route.answer`)."""
    return bool(r.values) and all(isinstance(v, str) and is_empty(v) for v in r.values)


def _num(cv: CellValue) -> float:
    if cv.value is None:
        raise ExecutionError(f"{cv.row_label} / {cv.col_label} is not a number: {cv.text!r}")
    return float(cv.value)


def _fmt(v: float) -> str:
    return f"{v:g}" if abs(v) < 1e15 else f"{v:.6g}"


def _eval(p: Program | Cell | Span, tables: Mapping[str, TableIndex], memo: dict[Cell, tuple]
          ) -> tuple[object, str, list[CellValue], str]:
    if isinstance(p, Span):
        raise ExecutionError("a span is quoted by `span` alone, not computed with")
    if isinstance(p, Cell):
        got = memo.get(p)
        if got is None:
            cv = read_cell(p, tables)
            got = memo[p] = ((cv.value if cv.value is not None else cv.text), cv.scale, [cv],
                             _fmt(cv.value) if cv.value is not None else repr(cv.text))
        return got[0], got[1], list(got[2]), got[3]
    if p.op == "lookup":
        return _eval(p.args[0], tables, memo)
    parts = [_eval(a, tables, memo) for a in p.args]
    if p.op == "streak":
        return _streak(p, parts, tables, memo)
    if p.where:
        parts = [x for x in parts if _passes(_tested(x, p.test, tables, memo), p.where) and (
            not p.and_where or _passes(_tested(x, p.and_test, tables, memo), p.and_where))]
        if not parts and p.op not in ("count", "sum"):
            raise ExecutionError(f"{p.op}: no operand passes {p.where}")
    cells = [c for part in parts for c in part[2]]
    if p.op == "each":
        return [x[0] for x in parts], _common_scale(parts, strict=False), cells, \
            "; ".join(x[3] for x in parts)
    if p.op == "count":
        return float(len(parts)), "", cells, f"count({', '.join(x[3] for x in parts)})"
    if p.op in ("argmax", "argmin"):
        return _arg(p, parts, cells, tables)
    if p.op == "mode":
        return _mode(parts), "", cells, f"mode({', '.join(x[3] for x in parts)})"
    if p.op == "rarest":
        return _rarest(parts), "", cells, f"rarest({', '.join(x[3] for x in parts)})"
    if p.op == "distinct":
        # the first operand showing each text: the items counted, as a count cites them
        firsts = list(_shown(parts)[2].values())
        return float(len(firsts)), "", firsts, \
            f"distinct({', '.join(x[3] for x in parts)})"
    if p.op in ("first", "last"):
        return _end(p, parts, tables)
    if p.op == "labels":
        one_row = len({(c.cell.table, c.cell.row) for c in cells}) == 1
        labels = list(dict.fromkeys(_label(c, one_row, p.year) for c in cells))
        return labels, "", cells, f"labels({', '.join(x[3] for x in parts)})"
    nums = []
    for v, _, cs, _ in parts:
        if not isinstance(v, int | float) or isinstance(v, bool):
            raise ExecutionError(f"{p.op} needs numbers; {cs[0].text!r} is not one")
        nums.append(abs(float(v)) if p.magnitude else float(v))
    exprs = [x[3] for x in parts]
    if p.magnitude:  # a cell's size as a figure, a computed operand's as |...|
        exprs = [f"|{e}|" if isinstance(a, Program) else _fmt(n)
                 for e, a, n in zip(exprs, p.args, nums, strict=True)]
    kind = OPERATORS[p.op][1]
    if p.op == "sum":
        return math.fsum(nums), _common_scale(parts), cells, " + ".join(exprs)
    if p.op == "average":
        return math.fsum(nums) / len(nums), _common_scale(parts), cells, \
            f"({' + '.join(exprs)}) / {len(nums)}"
    a, b = nums
    ea, eb = (f"({e})" if any(ch in e for ch in "+-*/") else e for e in exprs)
    if p.op == "difference":
        return a - b, _common_scale(parts), cells, f"{ea} - {eb}"
    if p.op == "exceeds":
        _common_scale(parts)
        larger, other = p.says.split("|") if p.says else ("yes", "no")
        return (larger if a > b else other), "", cells, f"{ea} > {eb}"
    if p.op == "multiply":
        return a * b, _common_scale(parts, strict=False), cells, f"{ea} * {eb}"
    if b == 0:
        raise ExecutionError(f"{p.op}: division by zero ({eb})")
    if p.op == "change_ratio":
        _common_scale(parts)
        return (a - b) / b * 100, kind, cells, f"({ea} - {eb}) / {eb} * 100"
    if p.op == "percent_of":
        _common_scale(parts)
        return a / b * 100, kind, cells, f"{ea} / {eb} * 100"
    if p.op == "divide":
        return a / b, "", cells, f"{ea} / {eb}"
    raise ExecutionError(f"no evaluation for operator {p.op!r}")


def _streak(p: Program, parts: list, tables: Mapping[str, TableIndex],
            memo: dict[Cell, tuple]) -> tuple[object, str, list[CellValue], str]:
    """The length of the longest run of consecutive operands passing `p.where`, and that
    run's cells (`CONVENTIONS["streak"]`); no operand passing is no run (an error)."""
    best = (0, 0)  # (start, length)
    start = None
    for k, x in enumerate([*parts, None]):
        ok = x is not None and _passes(_tested(x, p.test, tables, memo), p.where)
        if ok and start is None:
            start = k
        elif not ok and start is not None:
            if k - start > best[1]:
                best = (start, k - start)
            start = None
    if not best[1]:
        raise ExecutionError(f"streak: no operand passes {p.where}")
    run = parts[best[0]:best[0] + best[1]]
    return float(best[1]), "", [c for x in run for c in x[2]], \
        f"streak({', '.join(x[3] for x in run)})"


def _tested(part: tuple, test: int, tables: Mapping[str, TableIndex],
            memo: dict[Cell, tuple]) -> tuple:
    """What a condition tests of an operand (`Program.test`): the operand itself, or the
    cell of column `test` in its row (an operand whose row has no such cell passes nothing:
    an empty text)."""
    if test < 0:
        return part
    cell = part[2][0].cell
    try:
        return _eval(Cell(cell.table, cell.row, test), tables, memo)
    except ExecutionError:
        return ("", "", [], "''")


def _passes(part: tuple, where: str) -> bool:
    """Does an operand's figure meet a condition ("<150", ">5000"), its text equal the value
    of an "=" condition, or hold the value of a "~" one as whole words?"""
    if where[0] == "=":
        return any(same_text(cv.text, where[1:]) for cv in part[2])
    if where[0] == "~":
        said = f" {_plain(where[1:])} "
        return said.strip() != "" and any(said in f" {_plain(cv.text)} " for cv in part[2])
    v = part[0]
    if not isinstance(v, float) and len(part[2]) == 1:
        # a date's figure, for a bound, is its year (`CONVENTIONS["year"]`)
        year = year_of_text(part[2][0].text)
        v = float(year) if year is not None else v
    if not isinstance(v, float):
        raise ExecutionError(f"a condition ({where}) needs figures; {part[3]} is none")
    if where[1:2] == "=":  # an inclusive bound ("at least 6": ">=6")
        bound = float(where[2:])
        return v <= bound if where[0] == "<" else v >= bound
    bound = float(where[1:])
    return v < bound if where[0] == "<" else v > bound


def _common_scale(parts: list, *, strict: bool = True) -> str:
    """The one scale of several operands; figures of different scales are not added up."""
    scales = {x[1] for x in parts}
    if len(scales) == 1:
        return scales.pop()
    if strict:
        raise ExecutionError(f"operands of different scales: {', '.join(sorted(scales))}")
    return ""


def _arg(p: Program, parts: list, cells: list[CellValue], tables: Mapping[str, TableIndex]
         ) -> tuple[object, str, list, str]:
    """The label of the largest (smallest) operand: its period (column) when all operands sit
    in one row, else its row label; or, with `report`, that column's cell in its row (the
    first such operand on a tie, in operand order)."""
    op = p.op
    if any(len(x[2]) != 1 or x[2][0].value is None for x in parts):
        raise ExecutionError(f"{op} compares single figures")
    pick = (max if op == "argmax" else min)(range(len(parts)), key=lambda i: parts[i][0])
    cv = parts[pick][2][0]
    expr = f"{op}({', '.join(x[3] for x in parts)})"
    if p.report >= 0:
        # every tied row's cell (`CONVENTIONS["ties"]`), each row once
        rows = dict.fromkeys(x[2][0].cell.row for x in parts if x[0] == parts[pick][0])
        got = [read_cell(Cell(cv.cell.table, r, p.report), tables) for r in rows]
        values = [g.value if g.value is not None and not shown_as_text(g.text) else
                  g.text.strip() for g in got]
        return (values[0] if len(values) == 1 else values), got[0].scale, [*cells, *got], \
            f"{expr} -> {got[0].col_label}"
    one_row = len({(x[2][0].cell.table, x[2][0].cell.row) for x in parts}) == 1
    return _label(cv, one_row, p.year), "", cells, expr


def _end(p: Program, parts: list, tables: Mapping[str, TableIndex]
         ) -> tuple[object, str, list, str]:
    """The first (last) operand passing the condition, in operand order, or with `report` that
    column's cell in its row (`CONVENTIONS["first"]`)."""
    pick = parts[0] if p.op == "first" else parts[-1]
    expr = f"{p.op}({', '.join(x[3] for x in parts)})"
    if p.report < 0:
        return pick[0], pick[1], list(pick[2]), expr
    cv = pick[2][0]
    got = read_cell(Cell(cv.cell.table, cv.cell.row, p.report), tables)
    value = got.value if got.value is not None and not shown_as_text(got.text) else \
        got.text.strip()
    return value, got.scale, [*pick[2], got], f"{expr} -> {got.col_label}"


def _label(cv: CellValue, one_row: bool, year: bool) -> str:
    """How an answer names an operand (`CONVENTIONS["argmax"]`, `["as year"]`): its row's label,
    or, when the operands share a row, its column's period as the header names it — or that
    period's year alone (`year`)."""
    if not one_row:
        return cv.row_label
    if year:
        y = year_of_text(cv.period_label)
        if y is None:
            raise ExecutionError(f"{cv.period_label!r} names no one year")
        return str(y)
    return cv.period_label


def _mode(parts: list) -> str:
    """The text most operands show (`CONVENTIONS["ties"]`: the first of the most frequent),
    as its first operand displays it; texts are compared by `same_text`."""
    counts, shown, _ = _shown(parts)
    if not counts:
        raise ExecutionError("mode: no operand shows a text")
    top = max(counts.values())
    if top < 2:
        raise ExecutionError("mode: no text is shown more than once")
    return shown[next(k for k, n in counts.items() if n == top)]


def _shown(parts: list) -> tuple[dict[str, int], dict[str, str], dict[str, CellValue]]:
    """How many operands show each text (compared by `same_text`), how the first of them
    displays it, and that first cell, in operand order."""
    counts: dict[str, int] = {}
    shown: dict[str, str] = {}
    first: dict[str, CellValue] = {}
    for x in parts:
        for cv in x[2]:
            key = _plain(cv.text)
            if key:
                counts[key] = counts.get(key, 0) + 1
                shown.setdefault(key, cv.text.strip())
                first.setdefault(key, cv)
    return counts, shown, first


def _rarest(parts: list) -> str | list[str]:
    """The texts the fewest operands show (`CONVENTIONS["rarest"]`)."""
    counts, shown, _ = _shown(parts)
    low = min(counts.values(), default=0)
    rare = [shown[k] for k, n in counts.items() if n == low]
    if len(rare) == len(counts):
        raise ExecutionError("rarest: no text is shown fewer times than another")
    return rare[0] if len(rare) == 1 else rare


def same_text(a: str, b: str) -> bool:
    """Do two texts say the same value: case, accents, punctuation and articles aside (the
    equality of an "=" condition)."""
    return _plain(a) == _plain(b)


def _plain(s: str) -> str:
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = re.sub(r"\b(?:a|an|the)\b", " ", re.sub(r"[^\w\s]", " ", s))
    return " ".join(s.split())
