"""The programs a question may mean over one table: every operator of `language` applied to
the cells the linker found, each with the structural features the scorer weighs.

Enumeration is deliberately wide and dumb — the choice is the scorer's (`score`), whose
weights are fitted on training questions, not written here. What is fixed here is only what
an operator *can* take: one cell (lookup); one row across its periods or columns (difference,
change ratio, average, sum, each, argmax/argmin); one column across rows (difference, divide,
share, sum, each, argmax/argmin over rows).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, permutations

from hyrag.answer.programs.language import ARITHMETIC, Cell, Program
from hyrag.answer.programs.lexicon import year_of_text
from hyrag.answer.programs.link import (
    ColumnLink,
    Question,
    RowLink,
    TableIndex,
    link_columns,
    link_rows,
)

# at most this many cells of the best rows x columns become lookups
MAX_LOOKUPS = 24


@dataclass(frozen=True)
class Candidate:
    """A program with the structural facts the scorer reads (`features`)."""

    program: Program
    shape: str  # "cell" | "row" (operands share a row) | "column" (share a column)
    features: dict[str, float] = field(hash=False, compare=False)


def _cell_features(rl: RowLink, cl: ColumnLink, ti: TableIndex) -> dict[str, float]:
    kind = ti.model.rows[rl.index].kind
    return {"label_cov": rl.label_cov, "question_cov": rl.question_cov,
            "section_cov": rl.section_cov, "fuzzy": rl.fuzzy, "col_cov": cl.words_cov,
            "period_named": float(cl.period_named), "row_total": float(kind == "total"),
            "row_other": float(kind not in ("data", "total")),
            "row_best": float(rl.rank == 0), "row_gap": rl.gap,
            "col_best": float(cl.rank == 0)}


def _aggregate(per_cell: list[dict[str, float]], q: Question, years: list[int | None],
               n_rows: int) -> dict[str, float]:
    """Operand features: the weakest and the mean link of the operands, and how the operands'
    years cover the years the question names."""
    out: dict[str, float] = {}
    for k in per_cell[0]:
        vals = [f[k] for f in per_cell]
        out[f"min_{k}"] = min(vals)
        out[f"mean_{k}"] = sum(vals) / len(vals)
    named = set(q.years)
    ys = {y for y in years if y is not None}
    out["years_covered"] = len(named & ys) / len(named) if named else 0.0
    out["years_extra"] = float(len(ys - named)) if named else 0.0
    out["years_all_named"] = float(bool(named) and ys == named)
    dated = [y for y in years if y is not None]
    # two operands of one year ("December 31, 2018" beside "January 1, 2018"): the question
    # names the year once, so one of them is likely not asked for
    out["years_repeated"] = float(len(dated) - len(set(dated)))
    out["operands_as_years_named"] = float(bool(named) and len(per_cell) == len(named))
    # every year of the span the question's first and last years bound ("2017-2019",
    # "2017 to 2019"), and no other: an average or total over a range of years
    out["years_span"] = float(len(named) >= 2 and ys == set(range(min(named), max(named) + 1)))
    n = len(per_cell)
    out["n_operands"] = float(n)
    # the count of operands as categories, and beside the count of years named: how many
    # cells a question means is no linear function of how many there are
    out[f"n_operands={min(n, 4)}"] = 1.0
    out["operands_vs_years=" + ("none" if not named else "equal" if n == len(named)
                                else "more" if n > len(named) else "fewer")] = 1.0
    out["n_rows_in_table"] = min(n_rows, 50) / 50.0
    return out


def enumerate_programs(q: Question, ti: TableIndex) -> list[Candidate]:
    """Every candidate program over the table (see the module docstring)."""
    from hyrag.answer.programs.lists import enumerate_list_programs  # it builds Candidates

    rows = link_rows(q, ti)
    cols = link_columns(q, ti)
    out: list[Candidate] = enumerate_list_programs(q, ti)  # list tables (`lists`)
    if not cols:
        return out
    _structure(q, ti, rows, cols, out)

    def add(op: str, pairs: list[tuple[RowLink, ColumnLink]], shape: str,
            extra: dict[str, float]) -> None:
        _add(q, ti, out, op, pairs, shape, extra)

    # one cell
    scored = sorted(((r, c) for r in rows for c in cols), key=lambda rc: -(rc[0].prior
                                                                         + rc[1].prior))
    for r, c in scored[:MAX_LOOKUPS]:
        add("lookup", [(r, c)], "cell", {})
    # one row across columns
    for r in rows[:4]:
        dated = [c for c in cols if c.period_year is not None]
        for a, b in permutations(cols, 2):
            order = _order(a.period_year, b.period_year, a.position, b.position)
            for op in ("difference", "change_ratio", "divide", "percent_of"):
                add(op, [(r, a), (r, b)], "row", order)
        for a, b in combinations(cols, 2):
            order = _order(a.period_year, b.period_year, a.position, b.position)
            for op in ("sum", "average", "each", "multiply"):
                add(op, [(r, a), (r, b)], "row", order)
        if len(cols) >= 4:
            for three in combinations(cols, 3):
                for op in ("sum", "average"):
                    add(op, [(r, c) for c in three], "row", {"some_columns": 1.0})
        named = [c for c in cols if c.period_named]
        if len(named) >= 3:
            for op in ("sum", "average", "each"):
                add(op, [(r, c) for c in named], "row", {"named_only": 1.0})
        if len(dated) >= 2:
            for op in ("argmax", "argmin", "labels", "count"):
                add(op, [(r, c) for c in dated], "row", {})
            for b in q.bounds:
                for op in ("labels", "count"):
                    _add(q, ti, out, op, [(r, c) for c in dated], "row", {"bounded": 1.0}, b)
        if len(dated) >= 3:
            for op in ("sum", "average", "each"):
                add(op, [(r, c) for c in dated], "row", {"all_dated": 1.0})
    # one column across rows
    for c in cols[:3]:
        for a, b in permutations(rows[:4], 2):
            order = _order(None, None, a.position, b.position)
            for op in ("difference", "change_ratio", "divide", "percent_of"):
                add(op, [(a, c), (b, c)], "column", order)
        for a, b in combinations(rows[:4], 2):
            order = _order(None, None, a.position, b.position)
            for op in ("sum", "average", "each", "multiply"):
                add(op, [(a, c), (b, c)], "column", order)
        if len(rows) >= 4:
            for three in combinations(rows[:4], 3):
                for op in ("sum", "average"):
                    add(op, [(r, c) for r in three], "column", {"some_rows": 1.0})
        if len(rows) >= 3:
            for op in ("argmax", "argmin", "sum", "each", "labels"):
                add(op, [(r, c) for r in rows[:4]], "column", {})
    return out


def _add(q: Question, ti: TableIndex, out: list[Candidate], op: str,
         pairs: list[tuple[RowLink, ColumnLink]], shape: str, extra: dict[str, float],
         where: str = "") -> None:
    """One candidate: `op` over the cells at `pairs` (skipped when a cell is empty)."""
    have = ti.cell_pos
    if any((r.index, c.index) not in have for r, c in pairs):
        return
    per = [_cell_features(r, c, ti) for r, c in pairs]
    feats = _aggregate(per, q, [c.period_year for _, c in pairs], len(ti.model.rows))
    feats.update(extra)
    args = tuple(Cell(ti.model.name, r.index, c.index) for r, c in pairs)
    out.append(Candidate(Program(op, args if op != "lookup" else args[:1], where), shape, feats))
    if op in ("argmax", "argmin", "labels") and shape == "row" and any(
            not _names_bare_year(ti.col_period_label[c.index]) for _, c in pairs):
        # the same answer by the periods' years alone (`CONVENTIONS["as year"]`): which one a
        # question asks for ("in which year", "which period") is the scorer's to learn
        out.append(Candidate(Program(op, args, where, year=True), shape, {**feats, "year": 1.0}))
    values = ti.model.arrays.value
    if op in ARITHMETIC and any((values[have[r.index, c.index]] or 0.0) < 0 for r, c in pairs):
        # the same operands read as sizes (`CONVENTIONS["magnitude"]`): which reading a
        # question means is the scorer's to learn
        out.append(Candidate(Program(op, args, where, magnitude=True), shape,
                             {**feats, "magnitude": 1.0}))


def _names_bare_year(label: str) -> bool:
    """Whether a column's header names its period by the year alone ("2019", not "April 28,
    2018" or "Fiscal 2019"; `TableIndex.col_period_label`): its year and its label are then
    the same answer."""
    return bool(label) and label.strip() == str(year_of_text(label))


def proposed(q: Question, ti: TableIndex, program: Program) -> Candidate:
    """A program proposed from outside the enumeration (the LLM route, `propose`) as a
    candidate over `ti`: its operands featured by how the question links their rows and
    columns, as an enumerated candidate's are, and marked `proposed`."""
    rows = {r.index: r for r in link_rows(q, ti)}
    cols = {c.index: c for c in link_columns(q, ti)}
    pairs = [(rows.get(c.row, RowLink(c.row, 0.0, 0.0, 0.0, 0.0, 99)),
              cols.get(c.col, ColumnLink(c.col, 0.0, ti.col_year[c.col], False, 99)))
             for c in program.cells()]
    per = [_cell_features(r, c, ti) for r, c in pairs]
    feats = _aggregate(per, q, [c.period_year for _, c in pairs], len(ti.model.rows))
    feats["proposed"] = 1.0
    if program.magnitude:
        feats["magnitude"] = 1.0
    shape = ("cell" if len(pairs) == 1 else "row" if len({c.row for c in program.cells()}) == 1
             else "column" if len({c.col for c in program.cells()}) == 1 else "table")
    return Candidate(program, shape, feats)


def _structure(q: Question, ti: TableIndex, rows: list[RowLink], cols: list[ColumnLink],
               out: list[Candidate]) -> None:
    """Questions about the table's structure: its periods (the dated columns of a row that
    has them all), the items of a section or of the block a total closes, every item."""
    model = ti.model
    dated = [c for c in cols if c.period_year is not None]
    none = ColumnLink(-1, 0.0, None, False, 0)
    if len(dated) >= 2:
        full = next((i for i, r in enumerate(model.rows) if r.kind == "data"
                     and all((i, c.index) in ti.cell_pos for c in dated)), None)
        if full is not None:
            rl = next((r for r in rows if r.index == full), RowLink(full, 0, 0, 0, 0, 0))
            _add(q, ti, out, "labels", [(rl, c) for c in dated], "table", {"periods": 1.0})
    col = next((c for c in cols), none)
    if col.index < 0:
        return
    linked = {r.index: r for r in rows}

    def link(i: int) -> RowLink:
        return linked.get(i, RowLink(i, 0.0, 0.0, 0.0, 0.0, 99))

    def items(idx: list[int], feature: str, strength: float) -> None:
        idx = [i for i in idx if (i, col.index) in ti.cell_pos]
        if len(idx) >= 2:
            for op in ("labels", "count"):
                _add(q, ti, out, op, [(link(i), col) for i in idx], "column",
                     {feature: 1.0, "block_link": strength})

    # the block of lines a linked total closes
    for r in rows[:3]:
        if model.rows[r.index].kind != "total":
            continue
        block = []
        for i in range(r.index - 1, -1, -1):
            if model.rows[i].kind in ("total", "heading"):
                break
            if model.rows[i].kind == "data":
                block.append(i)
        items(block[::-1], "total_block", r.label_cov)
    # the lines of a section whose heading the question names
    sections: dict[tuple[str, ...], list[int]] = {}
    for i, r in enumerate(model.rows):
        if r.kind == "data" and len(r.path) > 1:
            sections.setdefault(r.path[:-1], []).append(i)
    for idx in sections.values():
        words = ti.row_section[idx[0]]
        hit = words & q.words
        if hit:
            items(idx, "section_items", ti.weight(hit) / (ti.weight(words) or 1.0))
    items([i for i, r in enumerate(model.rows) if r.kind == "data"], "all_items", 0.0)


def _order(ya: int | None, yb: int | None, pa: int, pb: int) -> dict[str, float]:
    """Order facts of a two-operand program: is the first operand the later period, and is it
    the one the question names first."""
    return {"first_later": float(ya is not None and yb is not None and ya > yb),
            "first_earlier": float(ya is not None and yb is not None and ya < yb),
            "first_mentioned_first": float(pa < pb), "first_mentioned_last": float(pa > pb)}
