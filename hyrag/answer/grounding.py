"""Numeric grounding of a draft (a placeholder for issue 7's ReverseVerifier, clearly labelled).

Every number written in the draft must appear in the committed evidence (a fact's value, its
displayed text or its sentence), in a recorded derivation (operands and result), or in a period
the requirements name. One ungrounded number fails the check and caps the score (seed 003,
section 4.2: "a single unsupported numeric token caps downstream verification scores"). This is
the deterministic first layer only; claim-by-claim checking comes with `verify/`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

CHECKER = "numeric-grounding (placeholder until the verify/ ReverseVerifier exists)"
_NUM = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?")
_CITE = re.compile(r"\[\d+\]")


def numbers(text: str) -> list[float]:
    out = []
    for m in _NUM.finditer(_CITE.sub(" ", text or "")):
        s = m.group(0).replace(",", "").replace("−", "-")
        try:
            out.append(float(s))
        except ValueError:
            continue
    return out


def check(draft: str, facts: Iterable, derivations: Iterable, periods: Iterable[str],
          extra: Iterable[float] = ()) -> dict[str, object]:  # noqa: ANN001
    allowed: set[float] = set(extra)
    for f in facts:
        for v in (f.value, f.value_base):
            if v is not None:
                allowed.add(float(v))
                allowed.add(abs(float(v)))
        allowed.update(numbers(f.value_text))
        allowed.update(abs(x) for x in numbers(f.value_text))
        allowed.update(numbers(f.text))
        allowed.update(numbers(f.time_key or ""))
    for d in derivations:
        allowed.add(float(d.result))
        for o in d.operands:
            allowed.add(float(o.value))
    for p in periods:
        allowed.update(numbers(p or ""))
        allowed.update(float(x) for x in re.findall(r"\d+", p or ""))
    failures = []
    for x in numbers(draft):
        if not any(abs(x - a) < 0.006 or abs(abs(x) - abs(a)) < 0.006 for a in allowed):
            failures.append(f"number {x:g} is in no committed fact or derivation")
    n = len(numbers(draft))
    score = 1.0 if not failures else min(0.5, 1 - len(failures) / max(n, 1))
    return {"verdict": "pass" if not failures else "fail", "score": round(score, 3),
            "failures": failures, "checker": CHECKER}
