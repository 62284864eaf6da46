"""Named financial ratios whose textbook formula is standard: "What is the current ratio in 2019?".

A balance sheet prints its totals ("Total current assets", "Total current liabilities") but not
the ratios an analyst reads off them. A question naming such a ratio names no line of the
table, so no other reader finds it. The formulas below are the textbook ones, the same in
every accounting text, with no choice left to the reader:

- current ratio = total current assets / total current liabilities;
- debt ratio (debt-to-asset(s) ratio, liabilities-to-assets ratio) = total liabilities /
  total assets;
- equity ratio = total equity / total assets.

Ratios whose definition varies between texts (debt-to-equity: total liabilities or interest-
bearing debt? quick ratio: which assets are quick?) are left out: the engine abstains on them.
Each operand must be one line of one table, labelled exactly as the formula's total ("Total
current assets"; "Total stockholders' equity" for total equity), with a figure for the one
period the question names; two such lines, none, or no single period named, and the reader
declines. The ratio is a plain ratio rounded to two decimals ("0.78"), recorded as a derivation
over the two committed cells, so the ReverseVerifier re-computes it.
"""

from __future__ import annotations

import re

from hyrag.answer import tablelines
from hyrag.answer import tableqa_read as read
from hyrag.answer import tableqa_rows as tr
from hyrag.answer.tools import Derivation, Operand, fmt

# name in the question -> (numerator line, denominator line), each a pattern of the full label
_EQUITY = r"total (?:stockholders |shareholders |share holders )?equity"
REGISTRY: tuple[tuple[re.Pattern, str, str], ...] = (
    (re.compile(r"\bcurrent ratio\b", re.I), r"total current assets", r"total current liabilities"),
    (re.compile(r"\b(?:debt|liabilit(?:y|ies))[- ]to[- ](?:total[- ])?assets?(?: ratio)\b|"
                r"\bdebt ratio\b", re.I), r"total liabilities", r"total assets"),
    # not the "debt-to-equity ratio", whose formula varies
    (re.compile(r"(?<!to[- ])\bequity ratio\b", re.I), _EQUITY, r"total assets"),
)


def resolve(question: str, con):  # a tableops.TableResolved or None
    """The named ratio of the one period the question names, or None (see the module)."""
    hits = [(num, den) for pat, num, den in REGISTRY if pat.search(question)]
    years = read.years(question)
    if len(hits) != 1 or len(years) != 1:
        return None
    num, den = hits[0]
    a, b = _line(con, num, years[0]), _line(con, den, years[0])
    if a is None or b is None or a["table_name"] != b["table_name"] or not b["value_num"]:
        return None
    if tr.scale(a) != tr.scale(b) or float(a["value_num"]) < 0 or float(b["value_num"]) < 0:
        return None
    bld = tablelines.Builder()
    ra, rb = bld.commit(a, "ratio numerator"), bld.commit(b, "ratio denominator")
    oa = Operand(a["claim_id"], float(a["value_num"]), tr.label(a), ra)
    ob = Operand(b["claim_id"], float(b["value_num"]), tr.label(b), rb)
    r = round(oa.value / ob.value, 2)
    d = Derivation("ratio", f"{fmt(oa.value)} / {fmt(ob.value)}", (oa, ob), r)
    return bld.done("ratio", r, f"{tr.label(a)} [{ra}] over {tr.label(b)} [{rb}] is "
                    f"{fmt(r)}.", d)


def _line(con, pattern: str, year: int) -> dict | None:
    """The one cell of the year on the one line labelled exactly `pattern`, else None."""
    full = re.compile(rf"\s*{pattern}\s*", re.I)
    cs = [c for c in tr.cells(con) if tr.year_of(c) == year and full.fullmatch(
        tr.phrase(tr.label(c)))]
    if len(cs) != 1:
        return None  # no such line, or two (two tables, two columns of the year)
    return {**cs[0], "_year": year}
