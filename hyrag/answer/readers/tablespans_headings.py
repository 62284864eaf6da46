"""The rows a section heading heads, for `tablespans.py`'s components questions.

"What financial items does amounts falling due within one year consist of?", "What were the
components making up current assets?": the question names a heading ("Amounts falling due
within one year", "Current assets"), not a total line, and an analyst answers with the line
items listed beneath it. Ingestion records each row's heading (`ingest.sections`, the
locator's "section"); this module finds the heading the question names — every word of it, the
most specific of those it names, one only — and its rows, a closing "Total ..." line aside.
"""

from __future__ import annotations

import re
from typing import Protocol

from hyrag.answer.readers import tableqa_rows as tr


class _Line(Protocol):
    table: str
    row: int
    label: str
    section: str


def heading_rows(q: set[str], lines: list[_Line]) -> tuple[str, list] | None:
    """(the heading, its line items in table order) for the one heading whose every word is
    among the question's content words `q` (the longest, when one heading's words hold
    another's), or None: no heading named, two named alike, fewer than two lines beneath, or
    more than `tr.MAX_RESIDUE` of the question's words left over. A heading repeated in the
    table (once per period) counts when it heads the same lines each time."""
    heads = {(ln.table, ln.section) for ln in lines if ln.section}
    full = [(len(ws), t, h) for t, h in heads if (ws := tr.content(h)) and ws <= q]
    if not full:
        return None
    full.sort(reverse=True)
    if len(full) > 1 and full[1][0] == full[0][0]:
        return None  # two headings named equally fully: which one is meant?
    _, table, head = full[0]
    if len(q - tr.content(head) - tr.OPWORDS) > tr.MAX_RESIDUE:
        return None
    runs: list[list] = []  # one per time the heading heads rows ("June 30, 2019" / "2018")
    prev = False
    for ln in sorted((x for x in lines if x.table == table), key=lambda x: x.row):
        mine = ln.section == head
        if mine and not prev:
            runs.append([])
        if mine and tr.content(ln.label) and not re.match(r"\s*total\b", ln.label, re.I):
            runs[-1].append(ln)  # a line item: not its total, nor an unlabelled subtotal
        prev = mine
    if not runs or len({tuple(ln.label for ln in run) for run in runs}) > 1:
        return None  # the heading heads different lines in two places: which ones?
    return (head, runs[0]) if len(runs[0]) >= 2 else None


def sole_lines(q: set[str], lines: list[_Line]) -> dict[int, str]:
    """{id(line): its heading} for the lines a heading the question names heads alone ("Sales:"
    over the one line "Product and equipment sales to affiliates"): an analyst asked for "the
    sales" reads that line, the heading being its name in the table. A heading over two or
    more lines names none of them (which one?), nor does a heading the question names only in
    part."""
    out: dict[int, str] = {}
    for table, head in {(ln.table, ln.section) for ln in lines if ln.section}:
        words = tr.content(head)
        under = [ln for ln in lines if ln.table == table and ln.section == head and ln.label]
        if words and words <= q and len(under) == 1:
            out[id(under[0])] = head
    return out
