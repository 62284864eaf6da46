"""Layer (i) of the ReverseVerifier: numeric grounding (seed 003, section 4.2).

Every numeric token of a draft must be *grounded*:

- `verbatim` — it equals a number of the committed evidence (a value, its displayed text or a
  number in its sentence) at the token's written precision;
- `normalised` — it equals one after normalisation: scale words and suffixes ("4.4 billion" is
  4,400 million), currency symbols, parentheses for negatives, a percentage written for a
  fraction, or the magnitude of a signed value (prose says "fell by 12.6" for -12.6);
- `rounded` — it is the evidence value correctly rounded to the digits the draft writes
  (1,496.5 written as "1,497"; 17.984 as "17.98%"), never a different number;
- `derived` — it is the result of a recorded `Computation` that re-computes exactly (to the
  precision written) from its operands, and every operand is itself grounded in the evidence;
- `period` — a year or period code that the evidence's periods or sentences state, or that the
  question itself names (`context`: the question's periods and ranking limit).

Anything else is `ungrounded`, and the verifier names the token. `strict=True` keeps the seed's
rule (verbatim only: no rounding, no rescaling, no derivations) — the strict trust mode.
A derivation that does not re-compute ("derived and wrong") grounds nothing: its result is
reported as `derivation_mismatch`, and so is any token that only that result would explain.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from verify.tokens import SCALES, Token, codes, date_stated, numbers
from verify.types import Computation, Evidence


@dataclass(frozen=True)
class TokenCheck:
    token: str
    value: float | None  # None for a period code ("2024Q1")
    status: str  # verbatim | normalised | rounded | derived | period | ungrounded | derivation_mismatch
    ref: str = ""  # the evidence or computation that grounds it
    sentence: int = -1  # index of the draft sentence it is in

    @property
    def grounded(self) -> bool:
        return self.status not in ("ungrounded", "derivation_mismatch")

    def to_dict(self) -> dict[str, object]:
        return {"token": self.token, "value": self.value, "status": self.status,
                "ref": self.ref, "sentence": self.sentence}


@dataclass(frozen=True)
class _Num:
    value: float  # as displayed
    base: float  # times the scale multiplier
    decimals: int
    ref: str
    percent: bool = False
    year: bool = False  # a year in an evidence sentence: a period, never a rescaled amount


def recompute(c: Computation) -> float | None:
    """The result of a recorded computation from its operands, or None for an unknown operator
    or operands it cannot take (a zero denominator)."""
    ops = list(c.operands)
    name = c.name.lower().replace(" ", "_")
    try:
        if name in ("difference", "change", "minus") and len(ops) == 2:
            return ops[0] - ops[1]
        if name in ("sum", "total", "add") and ops:
            return math.fsum(ops)
        if name in ("growth", "change_ratio", "percentage_change", "pct_change") and len(ops) == 2:
            return (ops[1] - ops[0]) / abs(ops[0]) * 100
        if name == "ratio" and len(ops) >= 2:
            # the last operand is the whole; several before it are parts summed ("A and B as
            # a percentage of the total")
            r = math.fsum(ops[:-1]) / ops[-1]
            return r * 100 if c.unit == "%" else r
        if name == "share" and ops:
            return ops[0] / math.fsum(ops) * 100
        if name in ("mean", "average") and ops:
            return statistics.fmean(ops)
        if name == "median" and ops:
            return statistics.median(ops)
        if name == "stdev" and len(ops) >= 2:
            return statistics.stdev(ops)
        if name == "cagr" and len(ops) == 2:
            years = float(c.params.get("years", 0))
            if years <= 0 or ops[0] <= 0 or ops[1] <= 0:
                return None
            return ((ops[1] / ops[0]) ** (1 / years) - 1) * 100
        if name == "count":
            return float(len(ops))
    except (ZeroDivisionError, ValueError, statistics.StatisticsError):
        return None
    return None


def _decimals(x: float) -> int:
    s = repr(float(x))
    if "e" in s:
        return 6
    frac = s.split(".")[1] if "." in s else ""
    return 0 if frac == "0" else len(frac)


def computation_ok(c: Computation) -> bool:
    """The recorded result equals the re-computed one at the precision it is written with."""
    r = recompute(c)
    if r is None or not math.isfinite(r):
        return False
    d = min(_decimals(c.result), 6)
    return abs(round(r, d) - c.result) <= 0.5 * 10 ** -d + 1e-9 or \
        math.isclose(r, c.result, rel_tol=1e-9, abs_tol=1e-9)


def _evidence_numbers(evidence: Iterable[Evidence]) -> list[_Num]:
    out: list[_Num] = []
    for e in evidence:
        if e.role != "support":
            continue
        if e.value is not None:
            mult = SCALES.get(e.scale or "", 1.0)
            dec = max((t.decimals for t in numbers(e.value_text)), default=_decimals(e.value))
            out.append(_Num(float(e.value), float(e.value) * mult, dec, e.ref,
                            e.scale == "percent" or e.unit == "%"))
        for t in numbers(e.value_text) + numbers(e.text):
            scale = t.scale or (e.scale if t.text in (e.value_text or "") else "")
            mult = SCALES.get(scale, 1.0)
            out.append(_Num(t.value, t.value * mult, t.decimals, e.ref, scale == "percent",
                            t.year))
    return out


def _match(t: Token, nums: Sequence[_Num], *, strict: bool) -> tuple[str, str] | None:
    """(status, ref) of the first evidence number that grounds token t, else None."""
    tv, tb = t.value, t.base
    tol = 1e-9 + 1e-12 * abs(tv)
    for n in nums:  # verbatim: same number at the same written precision
        if abs(tv - n.value) <= tol and (t.decimals == n.decimals or strict is False
                                         or float(tv).is_integer()) and (
                not t.scale or t.scale == "percent" or abs(tb - n.base) <= 1e-6 * max(1, abs(tb))):
            return "verbatim", n.ref
    if strict:
        return None
    for n in nums:
        # sign written as a word ("fell by 12.6"); scale words; percent for a fraction
        for cand in (n.value, abs(n.value)):
            if t.scale and t.scale != "percent":
                same = abs(abs(tb) - abs(n.base)) <= 1e-9 + 1e-9 * abs(tb)
            else:
                same = abs(abs(tv) - abs(cand)) <= tol
            if same:
                return ("verbatim" if cand == n.value and tv == cand else "normalised"), n.ref
        unit = SCALES.get(t.scale, 1.0) * 10 ** -t.decimals  # one unit of the last digit
        if t.scale and t.scale != "percent" and abs(n.base) >= 10 * unit and not n.year and \
                abs(abs(tb) - abs(n.base)) <= SCALES[t.scale] * t.half_unit + 1e-9:
            return "rounded", n.ref  # "4.4 billion" for 4,396 million
        if t.scale == "percent" and not n.percent and abs(n.value) <= 1.5 and \
                abs(abs(tv) - abs(n.value * 100)) <= t.half_unit + 1e-9:
            return "normalised", n.ref  # 0.1798 written as 17.98%
        if (t.decimals < n.decimals or (t.decimals == 0 and not float(n.value).is_integer())) \
                and abs(abs(tv) - abs(n.value)) <= t.half_unit + 1e-9:
            return "rounded", n.ref
    return None


def check_numbers(draft_sentences: Sequence[str], evidence: Sequence[Evidence],
                  computations: Sequence[Computation] = (), *, context: Iterable[str] = (),
                  strict: bool = False) -> list[TokenCheck]:
    """A `TokenCheck` for every numeric token and period code of the draft's sentences."""
    ev = list(evidence)
    base = _evidence_numbers(ev)
    ctx_text = " ".join(context)
    period_texts = [e.period or "" for e in ev if e.role == "support"] + [
        e.text for e in ev if e.role == "support"] + [e.value_text for e in ev] + [ctx_text]
    period_blob = " ".join(period_texts).lower()
    period_blob += " " + " ".join(codes(" ".join(period_texts))).lower()  # dates written out
    ctx_nums = [_Num(t.value, t.base, t.decimals, "question") for t in numbers(ctx_text)]
    good: list[_Num] = []
    bad: list[_Num] = []
    support = {e.ref for e in ev if e.role == "support"}
    if not strict:
        for i, c in enumerate(computations):
            ref = f"derivation {i + 1} ({c.name})"
            if c.name == "count":
                # a count's operands are the items counted (rows, text cells), not figures:
                # each must be a committed claim, and the count is how many there are
                ops_ok = len(c.refs) == len(c.operands) > 0 and all(r in support
                                                                     for r in c.refs)
            else:
                ops_ok = all(_match(Token(_fmt(o), o, "", _decimals(o), 0, 0), base,
                                    strict=False) is not None for o in c.operands)
            target = good if ops_ok and computation_ok(c) else bad
            target.append(_Num(c.result, c.result * SCALES.get(c.scale, 1.0),
                               _decimals(c.result), ref, c.unit == "%"))
    out: list[TokenCheck] = []
    for si, s in enumerate(draft_sentences):
        for code in codes(s):
            ok = code.lower() in period_blob or date_stated(code, period_blob)
            out.append(TokenCheck(code, None, "period" if ok else "ungrounded",
                                  "" if not ok else "evidence period", si))
        for t in numbers(s):
            if t.year:
                years = {int(x.value) for x in (base + ctx_nums) if float(x.value).is_integer()}
                if int(t.value) in years or str(int(t.value)) in period_blob:
                    out.append(TokenCheck(t.text, t.value, "period", "evidence period", si))
                    continue
            hit = _match(t, base, strict=strict)
            if hit is None and ctx_nums:
                hit = _match(t, ctx_nums, strict=True)
                hit = ("period", "question") if hit else None
            if hit is None and good:
                h = _match(t, good, strict=False)
                hit = ("derived", h[1]) if h else None
            if hit is None and bad and _match(t, bad, strict=False):
                out.append(TokenCheck(t.text, t.value, "derivation_mismatch",
                                      _match(t, bad, strict=False)[1], si))  # type: ignore[index]
                continue
            if hit is None:
                out.append(TokenCheck(t.text, t.value, "ungrounded", "", si))
            else:
                out.append(TokenCheck(t.text, t.value, hit[0], hit[1], si))
    return out


def _fmt(x: float) -> str:
    return repr(float(x))
