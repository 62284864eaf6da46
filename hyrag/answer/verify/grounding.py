"""The engine's side of the ReverseVerifier: map committed facts and derivations onto `verify/`.

`verify/` owns the checks (numeric grounding with normalisation and derivation re-computation,
claim-by-claim checking, the combined score and verdict); this module only translates the
engine's `Fact` and `Derivation` into `verify.Evidence` and `verify.Computation`, looks up
counter evidence (current claims on the same entity, attribute and period that were *not*
committed) and returns the report as the dict `Answer.verification` carries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import verify
from hyrag.answer.execute.tools import derived_scale
from verify.report import CHECKER

_YEARS = re.compile(r"\(1 / ([\d.,]+)\)")


def evidence_of(facts: Iterable, numbers: dict[str, int] | None = None) -> list[verify.Evidence]:
    out = []
    for f in facts:
        out.append(verify.Evidence(
            ref=f.claim_id, text=f.text or "", value=f.value, value_text=f.value_text or "",
            scale=f.scale or "", unit=f.unit or "", entity=f.entity, attribute=f.attribute,
            period=f.time_key, n=(numbers or {}).get(f.claim_id)))
    return out


def computations_of(derivations: Iterable, facts: Iterable = ()) -> list[verify.Computation]:
    """The derivations as the verifier re-computes them, each read at the magnitude the
    answer states its result in (`tools.derived_scale` over the committed `facts`)."""
    by_id = {f.claim_id: f for f in facts}
    out = []
    for d in derivations:
        params = {}
        if d.name == "cagr":
            m = _YEARS.search(d.expression)
            if m:
                params["years"] = float(m.group(1).replace(",", ""))
        out.append(verify.Computation(d.name, tuple(float(o.value) for o in d.operands),
                                      float(d.result), d.unit, params,
                                      tuple(o.ref for o in d.operands), d.expression,
                                      derived_scale(d, by_id)))
    return out


def counter_evidence(con, facts: Iterable, limit: int = 20) -> list[verify.Evidence]:
    """Current claims on a committed fact's entity, attribute and period that were not
    committed (another source, another row): the counter evidence of claim-by-claim checking."""
    facts = [f for f in facts if f.kind != "sql" and f.entity and f.attribute]
    if con is None or not facts:
        return []
    ids = {f.claim_id for f in facts}
    out: list[verify.Evidence] = []
    cur = con.cursor()
    for f in facts[:10]:
        rows = cur.execute(
            "SELECT claim_id, text, value_num, value_text, coalesce(scale, ''), "
            "coalesce(unit, ''), entity, attribute, time_key FROM claims WHERE NOT superseded "
            "AND lower(entity) = lower(?) AND lower(attribute) = lower(?) "
            "AND coalesce(time_key, '') = coalesce(?, '') LIMIT ?",
            [f.entity, f.attribute, f.time_key, limit]).fetchall()
        for r in rows:
            if r[0] in ids or r[2] is None:
                continue
            out.append(verify.Evidence(r[0], r[1] or "", float(r[2]), r[3] or "", r[4], r[5],
                                       r[6], r[7], r[8], role="counter"))
    return out


def check(draft: str, facts: Iterable, derivations: Iterable, periods: Iterable[str],
          extra: Iterable[float] = (), *, numbers: dict[str, int] | None = None,
          con=None, strict: bool = False) -> dict[str, object]:
    """The verifier's report on a draft as a dict: verdict, score, failures (each failing token
    and sentence named), plus the per-token and per-sentence checks."""
    facts = list(facts)
    ev = evidence_of(facts, numbers) + counter_evidence(con, facts)
    context = [p for p in periods if p] + [f"{x:g}" for x in extra]
    report = verify.verify(draft, ev, computations_of(derivations, facts), context=context,
                           strict=strict)
    return report.to_dict()


def failing_columns(report: dict, facts: Iterable) -> list[tuple[str, str, str]]:
    """(table, column, reason) for each committed fact a failing token or sentence rests on:
    what the schema-evolution tracker counts."""
    by_id = {f.claim_id: f for f in facts}
    refs: dict[str, str] = {}
    for t in report.get("tokens", []):
        if t["status"] in ("ungrounded", "derivation_mismatch"):
            sent = next((s for s in report.get("sentences", []) if s["index"] == t["sentence"]),
                        None)
            for ref in (sent or {}).get("support", []):
                refs.setdefault(ref, f"number {t['token']} {t['status']}")
    for s in report.get("sentences", []):
        if s["status"] in ("unsupported", "contradicted"):
            for ref in s.get("support", []):
                refs.setdefault(ref, f"sentence {s['status']}")
    out = []
    for ref, why in refs.items():
        f = by_id.get(ref)
        if f is None or f.kind == "sql" or not f.table:
            continue
        try:
            col = json.loads(f.locator).get("column") or f.attribute
        except (TypeError, ValueError):
            col = f.attribute
        out.append((f.table, str(col), why))
    return out


__all__ = ["CHECKER", "check", "computations_of", "counter_evidence", "evidence_of",
           "failing_columns"]
