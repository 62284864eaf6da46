"""The sum of the lines a section heading heads: "What was the sum of all Income tax net
operating loss carryforwards?".

A schedule often lists its items under headings and prints no total line ("Income tax net
operating loss carryforwards:" over "Domestic–state $57,299" and "Foreign $565,609"; "Tax
credit carryforwards:" over three more). A question asking for the sum of *all* of them names
the heading, not a line, so neither the line-item reader nor the grid reader finds a row; an
analyst adds up the lines beneath it. This reader does, only where that reading is the one
meant:

- the question asks for the sum or total *of all* (every) lines — a plain "total X" may name a
  line of its own, which is the line-item reader's;
- it names one heading in full (`tablespans_headings.heading_rows`: its every word, the most
  specific of those named, the same lines wherever it repeats), beneath which are two or more
  lines, a closing "Total ..." line aside;
- the amounts are read from the one column holding a figure on every one of those lines,
  years ("Last Fiscal Year of Expiration": 2039) and percentages aside — else from the column
  of the one year the question names; two such columns and nothing to choose between them,
  or lines of different scales, and it declines.

The sum is recorded as a derivation over the committed cells, so the ReverseVerifier
re-computes it.
"""

from __future__ import annotations

import math
import re

from hyrag.answer import tablelines
from hyrag.answer import tableqa_read as read
from hyrag.answer import tableqa_rows as tr
from hyrag.answer.tableqa_totals import plain_heading
from hyrag.answer.tablespans_headings import heading_rows
from hyrag.answer.tools import Derivation, Operand, fmt

_ALL = re.compile(r"\b(?:sum|total)\s+of\s+(?:all|every)\b", re.I)
_YEAR_CELL = re.compile(r"\s*(?:19|20)\d{2}\s*")


def resolve(question: str, con):  # a tableops.TableResolved or None
    """The sum of the lines under the heading the question names, or None (see the module)."""
    if not _ALL.search(question):
        return None
    found = heading_rows(tr.content(question), tablelines.table_lines(con))
    if found is None:
        return None
    head, rows = found
    cols = [col for col in rows[0].by_col if all(_amount(ln.by_col.get(col)) for ln in rows)]
    years = read.years(question)
    if len(cols) > 1 and len(years) == 1:
        cols = [col for col in cols if all(ln.by_col[col].get("_year") == years[0]
                                           for ln in rows)]
    if len(cols) != 1:
        return None
    cells = [ln.by_col[cols[0]] for ln in rows]
    if len({tr.scale(c) for c in cells}) != 1:
        return None
    b = tablelines.Builder()
    refs = [b.commit(c, f"line under {head}") for c in cells]
    ops = tuple(Operand(c["claim_id"], float(c["value_num"]), ln.label, r)
                for c, ln, r in zip(cells, rows, refs, strict=True))
    total = round(math.fsum(o.value for o in ops), 2)
    d = Derivation("sum", " + ".join(fmt(o.value) for o in ops), ops, total)
    return b.done("sum", total, f"The lines under {plain_heading(head)} add up to "
                  f"{fmt(total)} {''.join(f'[{r}]' for r in refs)}.", d, scale=tr.scale(cells[0]))


def _amount(c: dict | None) -> bool:
    """A cell holding an amount: a figure, not a year nor a percentage."""
    if c is None or c["value_num"] is None:
        return False
    text = c["value_text"] or ""
    return "%" not in text and not _YEAR_CELL.fullmatch(text)

