"""The LLM route proposes programs (issue 19): the model reads the question and the tables'
rows and columns, and answers with programs in the language's own JSON form
(`Program.to_dict`). Each proposal is validated by `Program.from_dict` and executed by the one
interpreter (`execute.run`) beside the enumerated candidates, ranked by the same scorer and
committed through the same Warrant gate and ReverseVerifier. The model never computes a number:
it names an operator and cells; every figure in the answer is the interpreter's, over cells that
cite their claims. A proposal that does not parse or names no cell of the tables is rejected
with its reason, and the route goes on without it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from hyrag.answer.programs.language import CONVENTIONS, OPERATORS, Cell, Program

if TYPE_CHECKING:
    from hyrag.answer.programs.link import TableIndex
    from hyrag.llm.client import LLMClient

# what the prompt shows of a table: the first rows and columns (a report table fits whole)
PROMPT_MAX_ROWS = 40
PROMPT_MAX_COLUMNS = 12
# at most this many proposals are read from one reply
MAX_PROPOSALS = 3


def describe(tabs: Iterable[TableIndex]) -> str:
    """The tables as the model sees them: each row's index and label, each column's index,
    header and period — the coordinates a proposal names cells by."""
    out = []
    for ti in tabs:
        m = ti.model
        cols = [f"{c.column}={' / '.join(c.path) or '?'}"
                + (f" (period {c.period})" if c.period else "")
                for c in m.columns if c.column in ti.numeric_cols][:PROMPT_MAX_COLUMNS]
        rows = [f"{i}={label}" for i, label in enumerate(ti.row_labels)
                if m.rows[i].kind != "heading"][:PROMPT_MAX_ROWS]
        out.append(f"table {m.name!r}\n  columns: {'; '.join(cols)}\n  rows: {'; '.join(rows)}")
    return "\n".join(out)


def messages(question: str, tabs: Iterable[TableIndex]) -> list[dict]:
    """The request: the operators and conventions, the JSON form, the tables, the question."""
    ops = ", ".join(f"{k} ({n or 'any number of'} operands)" for k, (n, _) in OPERATORS.items())
    rules = "; ".join(f"{k}: {v}" for k, v in CONVENTIONS.items())
    system = (
        "You choose how to compute the answer to a question over tables; you never compute it "
        "yourself. Reply with JSON only: {\"programs\": [{\"op\": str, \"args\": [{\"table\": "
        "str, \"row\": int, \"col\": int}], \"magnitude\": bool}]} — at most "
        f"{MAX_PROPOSALS} programs, likeliest first. An argument may itself be a program "
        f"(same form). Operators: {ops}. Conventions: {rules}. Name cells only by the row and "
        "column numbers listed.")
    user = f"{describe(tabs)}\n\nquestion: {question}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def parse(data: object, tabs: Mapping[str, TableIndex]) -> tuple[list[Program], list[str]]:
    """(programs, rejections) of a reply: each proposal that is a well-formed program over
    cells the tables hold, and for every other one the reason it was rejected."""
    items = data.get("programs") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return [], [f"the reply is not a list of programs: {json.dumps(data)[:120]}"]
    programs: list[Program] = []
    rejected: list[str] = []
    for item in items[:MAX_PROPOSALS]:
        try:
            p = Program.from_dict(item)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            rejected.append(f"not a program ({e}): {json.dumps(item)[:120]}")
            continue
        missing = [c for c in p.cells() if not _holds(tabs, c)]
        if missing:
            rejected.append(f"{p}: no cell {missing[0].table}[{missing[0].row},"
                            f"{missing[0].col}]")
            continue
        if p not in programs:
            programs.append(p)
    return programs, rejected


def _holds(tabs: Mapping[str, TableIndex], c: Cell) -> bool:
    ti = tabs.get(c.table)
    return ti is not None and (c.row, c.col) in ti.cell_pos


def propose_llm(client: LLMClient, question: str, tabs: Mapping[str, TableIndex]
                ) -> tuple[list[Program], list[str]]:
    """The model's proposals for `question` over `tabs` (`parse`); an unreachable endpoint or
    an unreadable reply raises the client's `LLMError`, which the caller degrades on."""
    data = client.chat_json(messages(question, tabs.values()), step="programs")
    return parse(data, tabs)
