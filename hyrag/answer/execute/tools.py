"""Deterministic operators for the TOOL route; each returns its `Derivation`.

A derivation records the expression with the operand values written out, the operands as claim
references (the evidence numbers `[n]` they came from), and the result — so every computed
number in an answer can be recomputed from cited evidence (DESIGN.md, ReverseVerifier).
Percent results are in percent (17.98 means 17.98 %), rounded to two decimals.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from hyrag.errors import HyragError
from ingest.units import MAGNITUDES


class ToolError(HyragError):
    """An operator cannot be applied (too few operands, division by zero, sign change)."""


@dataclass(frozen=True)
class Operand:
    ref: str  # claim id or "sql:<hash>"
    value: float
    label: str = ""  # "2022", "West 2024"
    n: int | None = None  # evidence number in the answer


@dataclass(frozen=True)
class Derivation:
    name: str  # growth, cagr, difference, ratio, share, mean, median, stdev
    expression: str
    operands: tuple[Operand, ...]
    result: float
    unit: str = ""  # "%" for percent results

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["operands"] = [asdict(o) for o in self.operands]
        return d


# derivations whose result is a figure in its operands' own terms: a sum, mean or difference of
# figures stated "in thousands" is in thousands too; a ratio, growth, share or count is not
SAME_TERMS = frozenset({"sum", "mean", "median", "difference", "stdev"})


def derived_scale(d: Derivation, facts: Mapping[str, object]) -> str:
    """The magnitude ("thousand", "million", "billion") a derivation's result is stated in, or
    "": its operands' one magnitude where each operand is its committed fact's figure as
    displayed (`facts`: claim id -> fact with `value` and `scale`). The answer's text states
    it beside the result and the ReverseVerifier reads the result at it, so the two agree.
    Where an operand was computed in base units (its value is not its figure as displayed),
    the operands' magnitudes differ, or the result is not in its operands' terms (`SAME_TERMS`),
    none is stated: the number alone is then what it is."""
    if d.name not in SAME_TERMS or d.unit or not d.operands:
        return ""
    scales = set()
    for o in d.operands:
        f = facts.get(o.ref)
        value = getattr(f, "value", None)
        if value is None or abs(abs(float(value)) - abs(o.value)) > 1e-9:
            return ""
        scales.add(getattr(f, "scale", "") or "")
    scale = scales.pop() if len(scales) == 1 else ""
    return scale if scale in MAGNITUDES else ""


def fmt(v: float) -> str:
    if float(v).is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    return f"{v:,.2f}"


def _need(ops: Sequence[Operand], n: int, name: str) -> None:
    if len(ops) < n:
        raise ToolError(f"{name} needs at least {n} values, got {len(ops)}")


def growth(a: Operand, b: Operand) -> Derivation:
    if a.value == 0:
        raise ToolError("growth from zero is undefined")
    r = round((b.value - a.value) / abs(a.value) * 100, 2)
    return Derivation("growth", f"({fmt(b.value)} - {fmt(a.value)}) / {fmt(abs(a.value))} x 100",
                      (a, b), r, "%")


def cagr(a: Operand, b: Operand, years: float) -> Derivation:
    if a.value <= 0 or b.value <= 0 or years <= 0:
        raise ToolError("CAGR needs two positive values and a positive number of years")
    r = round(((b.value / a.value) ** (1 / years) - 1) * 100, 2)
    return Derivation("cagr", f"(({fmt(b.value)} / {fmt(a.value)}) ^ (1 / {fmt(years)}) - 1) "
                      "x 100", (a, b), r, "%")


def difference(a: Operand, b: Operand) -> Derivation:
    r = round(a.value - b.value, 2)
    return Derivation("difference", f"{fmt(a.value)} - {fmt(b.value)}", (a, b), r)


def ratio(a: Operand, b: Operand) -> Derivation:
    if b.value == 0:
        raise ToolError("ratio with a zero denominator")
    r = round(a.value / b.value, 4)
    return Derivation("ratio", f"{fmt(a.value)} / {fmt(b.value)}", (a, b), r)


def share(part: Operand, ops: Sequence[Operand]) -> Derivation:
    total = sum(o.value for o in ops)
    if total == 0:
        raise ToolError("share of a zero total")
    r = round(part.value / total * 100, 2)
    return Derivation("share", f"{fmt(part.value)} / ({' + '.join(fmt(o.value) for o in ops)})"
                      " x 100", (part, *[o for o in ops if o is not part]), r, "%")


def mean(ops: Sequence[Operand]) -> Derivation:
    _need(ops, 1, "mean")
    r = round(statistics.fmean(o.value for o in ops), 2)
    return Derivation("mean", f"({' + '.join(fmt(o.value) for o in ops)}) / {len(ops)}",
                      tuple(ops), r)


def median(ops: Sequence[Operand]) -> Derivation:
    _need(ops, 1, "median")
    r = round(statistics.median(o.value for o in ops), 2)
    return Derivation("median", f"median({', '.join(fmt(o.value) for o in ops)})", tuple(ops), r)


def stdev(ops: Sequence[Operand]) -> Derivation:
    _need(ops, 2, "standard deviation")
    r = round(statistics.stdev(o.value for o in ops), 2)
    return Derivation("stdev", f"stdev({', '.join(fmt(o.value) for o in ops)})", tuple(ops), r)


def years_between(key_a: str, key_b: str) -> float:
    """Whole years between two period keys ("2022" -> "2024" is 2; quarters count quarter/4)."""
    def pos(k: str) -> float:
        y = float(k[:4])
        if "Q" in k:
            return y + (int(k[-1]) - 1) / 4
        return y
    d = pos(key_b) - pos(key_a)
    if not math.isfinite(d) or d <= 0:
        raise ToolError(f"no positive span between {key_a} and {key_b}")
    return d
