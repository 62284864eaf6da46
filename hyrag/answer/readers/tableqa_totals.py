"""Names for the total rows a statement prints without a label.

A statement often closes a block of lines with a row of figures and no label: the sum of the
lines above it ("United States | Europe | ... | (blank) $1,059,077" under "Long-lived
assets:"; "Final dividend ... | Interim dividend ... | (blank) 28,128"). An analyst reads that
row as the block's total and names it so — "the total long-lived assets", "the total
dividends" — and a question asks for it by that name. Melted into cell claims the row has no
label at all, so no question can name it. This module names it, only where the name is the
analyst's and nothing is guessed:

- the row must add up the labelled rows directly above it in every column it has a figure in
  (`tablelines.unlabelled_totals`, within a unit of rounding) — a row that does not is a
  subtraction, a memo line or a second measure, and stays nameless;
- under a section heading ("Long-lived assets:", "Amounts falling due within one year:") it
  is the total of that heading: "Total long-lived assets";
- without one, it is the total of what every line it adds up names alike ("Final dividend for
  the year ended ..." and "Interim dividend for the half year ended ...": "Total dividend");
  lines sharing no word ("Cash", "Receivables") give it no name.
"""

from __future__ import annotations

import re

from hyrag.answer.readers import tablelines
from hyrag.answer.readers import tableqa_rows as tr


def names(con) -> dict[tuple[str, object], str]:
    """(table, row) -> the name of each unlabelled total row of the view (see the module)."""
    out: dict[tuple[str, object], str] = {}
    for total, block in tablelines.unlabelled_totals(con):
        name = _name(total.section, [ln.label for ln in block],
                     {ln.section for ln in block})
        if name:
            out[(total.table, total.row)] = name
    return out


def plain_heading(section: str) -> str:
    """A section heading as a name: without its closing colon and its footnote marks ("(1,2)"
    is no part of the name, and a drafted answer quoting it would state figures no cell
    holds)."""
    head = re.sub(r"[\s:]+$", "", re.sub(r"\(\s*[\d,\s]+\)", " ", section or "")).strip()
    return re.sub(r"\s+", " ", head)


def _name(section: str, labels: list[str], sections: set[str]) -> str:
    """"Total <the heading>" when the total and its lines sit under one heading, else "Total
    <the words every line's own name shares>", else "" (no name an analyst would give)."""
    head = plain_heading(section)
    if head and sections == {section}:
        return f"Total {head[:1].lower() + head[1:] if head[1:2].islower() else head}"
    if not labels:
        return ""
    shared = set.intersection(*(tr.content(tr.core_name(lab)) for lab in labels))
    common = [w for w in tr.words(tr.core_name(labels[0])) if tr.stem(w) in shared]
    return f"Total {' '.join(dict.fromkeys(common))}" if common else ""
