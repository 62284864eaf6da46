"""The rows of the knowledge base's tables as lines: the layer the layout readers share.

`tablespans` (a table's structure), `tablespans_items`, `tableqa_shares` and `tableqa_headsum`
all read a table the way a person scans it: row by row in file order, each row a label and its
figures by column and by year, a total being the contiguous rows above it that add up to it.
This module holds that reading and the one way those readers commit the cells they rest on
(`Builder`), so that each reader is its own question and none reaches into another's privates.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from hyrag.answer.execute.tools import Derivation, Operand, fmt
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.catalog import per_view
from hyrag.answer.parse.requirements import Requirement
from hyrag.answer.readers import tableqa_read as read
from hyrag.answer.readers import tableqa_rows as tr
from ingest.numbers import decimals_shown

NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                 "seven": "7", "eight": "8", "nine": "9", "ten": "10"}
GLUE = {"the", "of", "and", "in", "a", "an", "at", "as", "for", "on", "s"}


@dataclass
class Line:
    """One row of a table as the reader sees it: its label and its figures by year."""

    table: str
    row: int
    label: str
    by_year: dict[int, dict] = field(default_factory=dict)
    col_order: dict[int, int] = field(default_factory=dict)  # year -> column position
    by_col: dict[str, dict] = field(default_factory=dict)  # every figure, by its column
    col_pos: dict[str, int] = field(default_factory=dict)
    section: str = ""  # the heading the row sits under ("Non-current:"), `ingest.sections`


_LINES: dict[tuple, list[Line]] = {}


def table_lines(con) -> list[Line]:
    """`read_lines`, cached per database generation and reader view, as tableqa's cells."""
    return per_view(_LINES, con, read_lines)


def read_lines(con) -> list[Line]:
    """The rows of the knowledge base's tables in file order, from their numeric cell claims
    (the row and column each locator names): a row with no figure at all leaves a gap in the
    row numbers. A cell's year is its period, else the one year its column header names."""
    out: dict[tuple[str, int], Line] = {}
    for c in map(dict, tr.numeric_cells(con)):  # its own copies: `_year` is set below
        try:
            loc = json.loads(c["locator"] or "{}")
        except ValueError:
            continue
        row = loc.get("row")
        if not isinstance(row, int):
            continue
        # a row whose first cell is empty (an unlabelled subtotal) has no label of its own
        label = tr.label(c) if c["entity"] else ""  # melted: `tr.label` reads its column
        ln = out.setdefault((c["table_name"], row),
                            Line(c["table_name"], row, label, section=str(loc.get("section")
                                                                          or "")))
        col = str(loc.get("column") or c["attribute"] or "")
        pos = column_position(str(loc.get("cell") or ""))
        ln.by_col.setdefault(col, c)
        ln.col_pos.setdefault(col, pos)
        ys = set(read.years(c["time_key"] or "")) or set(read.years(c["attribute"] or ""))
        if len(ys) != 1:
            continue
        y = ys.pop()
        c["_year"] = y
        if y not in ln.by_year:  # a second column for the year ("%" beside it): the first
            ln.by_year[y] = c
            ln.col_order[y] = pos
    return sorted(out.values(), key=lambda ln: (ln.table, ln.row))


def column_position(cell: str) -> int:
    m = re.match(r"([A-Z]+)", cell)
    n = 0
    for ch in m.group(1) if m else "":
        n = n * 26 + ord(ch) - 64
    return n


def block(total: Line, lines: list[Line],
           unlabelled: bool = False) -> tuple[Line, list[Line]] | None:
    """The contiguous rows directly above `total` (no gap: a row without figures is a section
    header) whose figures sum to the total in every year it has; the shortest such block."""
    if not total.by_col or not (total.label or unlabelled):
        return None
    above = [ln for ln in lines if ln.table == total.table and total.row - MAX_PARTS - 1
             <= ln.row < total.row]
    block: list[Line] = []
    want = total.row - 1
    for ln in reversed(above):
        if ln.row != want or not ln.label or len(block) >= MAX_PARTS:
            break
        block.insert(0, ln)
        want -= 1
        if len(block) >= 2 and adds_up(block, total):
            return total, block
    return None


def unlabelled_totals(con) -> list[tuple[Line, list[Line]]]:
    """Each row without a label that adds up the labelled rows directly above it (`block`),
    with those rows: the total line a statement prints under its items without naming it."""
    lines = table_lines(con)
    return [blk for ln in lines if not ln.label
            and (blk := block(ln, lines, unlabelled=True)) is not None]


MAX_PARTS = 40  # the lines one total sums in a statement a person reads
MAX_LINES = 400
TOTAL_LABEL = re.compile(r"\s*(?:grand\s+)?(?:total|sum|overall)\b", re.I)
def adds_up(block: list[Line], total: Line) -> bool:
    """The block's figures sum to the total's in every amount column the total has a figure
    in (a "%" column is a share or a change, which does not add up)."""
    checked = exact = 0
    for col, tc in total.by_col.items():
        parts = [ln.by_col[col] for ln in block if col in ln.by_col]
        if any("%" in (c["value_text"] or "") for c in [*parts, tc]):
            continue
        if not parts:
            return False
        # rounded figures may miss their total by one unit of the last digit shown, but not
        # everywhere: at least one column adds up exactly
        unit = 10.0 ** -max(decimals_shown(c["value_text"]) for c in [*parts, tc])
        diff = abs(math.fsum(float(c["value_num"]) for c in parts) - float(tc["value_num"]))
        if diff > unit * 1.000001:
            return False
        checked += 1
        exact += diff < unit * 1e-6
    return checked > 0 and exact > 0


def tokens(s: str) -> list[str]:
    """Words and numbers as a header is matched: "Less than one year" -> less, than, 1, year."""
    ws = re.findall(r"[a-z]+|\d+(?:\.\d+)?", (s or "").lower().replace("’", "'"))
    return [tr.stem(NUMBER_WORDS.get(w, w)) for w in ws]


def at(seq: list[str], sub: list[str]) -> int | None:
    """Where `sub` occurs in `seq` as a run of consecutive words, or None."""
    n = len(sub)
    return next((i for i in range(len(seq) - n + 1) if seq[i:i + n] == sub), None)


def join(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


class Builder:
    """Commits cells as facts, one requirement each, in the engine's own types."""

    def __init__(self) -> None:
        self.store = CommitmentStore()
        self.reqs: list[Requirement] = []
        self.verdicts: list[Verdict] = []
        self.n: dict[str, int] = {}

    def commit(self, c: dict, why: str) -> int:
        if c["claim_id"] in self.n:
            return self.n[c["claim_id"]]
        rid = f"R{len(self.reqs) + 1}"
        label = tr.label(c)
        y = c.get("_year")
        req = Requirement(rid, label, c["attribute"] or label, period=str(y) if y else None,
                          scope=(c["table_name"],))
        self.store.commit(Fact(
            claim_id=c["claim_id"], requirement=rid, source=c["file"] or c["table_name"],
            locator=c["locator"], text=re.sub(r"^\[[^\]]*\]\s*", "", c["text"] or ""),
            entity=label, attribute=c["attribute"] or label, value=c["value_num"],
            value_text=c["value_text"] or "", value_base=c["value_base"], unit=c["unit"],
            scale=c["scale"], time_key=c["time_key"], kind="cell", table=c["table_name"],
            score=1.0, warrant_query=f"table layout: {why}",
            confidence=float(c["conf_base"] or 0.0)))
        self.reqs.append(req)
        self.verdicts.append(Verdict(req, "direct", (c["claim_id"],)))
        self.n[c["claim_id"]] = len(self.reqs)
        return len(self.reqs)

    def sum(self, cells: list[dict], year: int, why: str,
            values: list[float] | None = None) -> tuple[list[int], Derivation]:
        """Commit `cells` as figures of `year` and record their sum (of `values` when given:
        the sizes of bracketed parts), so that the verifier re-adds what the sentence states."""
        refs = []
        for c in cells:
            c["_year"] = year
            refs.append(self.commit(c, why))
        vals = values if values is not None else [float(c["value_num"]) for c in cells]
        ops = tuple(Operand(c["claim_id"], v, tr.label(c), r)
                    for c, v, r in zip(cells, vals, refs, strict=True))
        total = round(math.fsum(o.value for o in ops), 2)
        return refs, Derivation("sum", " + ".join(fmt(o.value) for o in ops), ops, total)

    def count(self, refs: list[int], names: list[str]) -> Derivation:
        """A count as a derivation over the counted cells, so the verifier re-counts it."""
        facts = self.store.facts
        ops = tuple(Operand(facts[r - 1].claim_id, float(facts[r - 1].value or 0.0), nm, r)
                    for r, nm in zip(refs, names, strict=True))
        return Derivation("count", f"count({', '.join(names)})", ops, float(len(ops)))

    def done(self, operation: str, answer: object, sentence: str,
             derivation: Derivation | None = None, *, scale: str = ""):
        """The reading as the engine takes it; `scale` is the answer's ("percent" for a
        computed percentage, else the cells' own "million" ...)."""
        from hyrag.answer.link.reading import TableResolved

        return TableResolved(self.reqs, self.verdicts, self.store,
                             [derivation] if derivation else [], operation, answer, scale, 1.0,
                             0, sentence)


