"""Structured synthesis (seed 003 "StructuredSynthesizer"): deterministic templates offline.

Reads only the CommitmentStore (facts and gaps), the derivations computed over its facts, the
verdicts and the decision. The `text` is plain sentences with citation markers `[n]`; the
`brief` (Markdown) adds the evidence bullets with their locators, every derivation, the
Knowledge Gaps stated plainly, conflicts side by side with their sources, and the decision.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from hyrag.answer.execute.tools import Derivation, derived_scale, fmt
from hyrag.answer.link.commitment import CommitmentStore, Fact
from hyrag.answer.synthesize.phrasing import statement
from ingest.units import MAGNITUDES


@dataclass(frozen=True)
class Draft:
    sentences: tuple[str, ...]
    evidence: tuple[dict, ...]
    conflicts: tuple[dict, ...]
    numbers: dict[str, int]  # claim id -> evidence number
    # the question, when a sentence restates it (`phrasing.statement`): the words and figures
    # it carries are the user's, which the verifier reads as the question's, not as claims
    restates: str = ""


def display(f: Fact) -> str:
    """A fact's value as a reader would quote it, with its scale and unit."""
    v = f.value_text or (fmt(f.value) if f.value is not None else "")
    # "210596" -> "210,596" (decimals kept) for a figure; a period ("1985") or a code a
    # claim quotes as text keeps the form the file gives it
    if f.value is not None and re.fullmatch(r"-?\d{4,}(\.\d+)?", v):
        whole, _, dec = v.partition(".")
        v = f"{int(whole):,}" + (f".{dec}" if dec else "")
    low = v.lower()
    if f.scale in MAGNITUDES and f.scale not in low and not low.rstrip().endswith(("m", "bn", "k")):
        v += f" {f.scale}"
    if f.scale == "percent" or f.unit == "%":
        if "%" not in v and "percent" not in low:
            v += "%"
    elif f.unit and f.unit not in v and "$" not in v and f.kind != "sql":
        v += f" {f.unit}"
    return v


def number_facts(store: CommitmentStore) -> tuple[tuple[dict, ...], dict[str, int]]:
    evidence: list[dict] = []
    numbers: dict[str, int] = {}
    for f in store.facts:
        if f.claim_id in numbers:
            continue
        numbers[f.claim_id] = len(evidence) + 1
        evidence.append({"n": numbers[f.claim_id], "claim_id": f.claim_id, "source": f.source,
                         "locator": f.locator, "text": f.text, "score": round(f.score, 4)})
    return tuple(evidence), numbers


def _derived(d: Derivation, facts: dict[str, Fact]) -> str:
    """A derivation's result as the answer states it: with its unit ("%") and the magnitude its
    operands are stated in (`tools.derived_scale`: "-59,050 thousand", as the figures it rests
    on read "(60,100) thousand"; a bare -59,050 reads as dollars)."""
    scale = derived_scale(d, facts)
    return f"{fmt(d.result)}{d.unit}" + (f" {scale}" if scale else "")


def _subject(f: Fact, req) -> str:
    who = f.entity or req.entity or ""
    what = f.attribute or req.attribute
    if who and what and who.strip().lower() == what.strip().lower():
        who = ""  # a line item's row label read as both ("Interest cost Interest cost in 2019")
    when = f" in {f.time_key}" if f.time_key else (f" in {req.period}" if req.period else "")
    if f.time_key and len(f.time_key) == 10:  # a day: the date the row or sentence states
        day = _day(f.time_key)
        # not beside the row's date cell itself: "X Date was January 4, 1994"
        when = "" if f.value_text in (day, f.time_key) else f" (as of {day})"
    return f"{who + ' ' if who else ''}{what}{when}".strip()


def _day(key: str) -> str:
    """A day's period key ("1994-01-04") as a reader writes it ("January 4, 1994")."""
    import datetime as dt

    try:
        d = dt.date.fromisoformat(key)
    except ValueError:
        return key
    return f"{d:%B} {d.day}, {d.year}"


def _names_itself(f: Fact) -> bool:
    """Is the fact a row's own label cell ("Final" in the Event column of the row "Final")?
    Stated as "Final Event was Final" it says nothing."""
    return bool(f.entity) and (f.value_text or "").strip().lower() == str(
        f.entity).strip().lower()


def draft(verdicts: list, store: CommitmentStore, derivations: list[Derivation],
          *, clarify_reason: str = "", ranking: bool = False, question: str = "") -> Draft:
    """The answer's sentences. With the `question`, an answer of one value — one fact, or one
    derivation over the facts — is stated first in the question's own words
    (`phrasing.statement`), the facts it rests on after it."""
    evidence, numbers = number_facts(store)
    sentences: list[str] = []
    conflicts: list[dict] = []
    # (index in `sentences`, value as displayed, citation markers) of a one-value answer
    single: tuple[int, str, str] | None = None
    top: tuple[str, str] | None = None  # a ranking's first row and its citation
    if clarify_reason:
        sentences.append(f"The question needs more detail before evidence can be chosen: "
                         f"{clarify_reason}.")
    for v in verdicts:
        req = v.requirement
        facts = [f for f in store.facts_for(req.rid) if f.claim_id in v.evidence]
        if v.support == "direct" and facts and facts[0].kind == "sql":
            if len(facts) > 1 or ranking:
                parts = [f"{f.entity} {f.value_text} [{numbers[f.claim_id]}]" for f in facts]
                head = facts[0].text.split(" for ")[0].split(" was ")[0]
                head = head.replace(f"{facts[0].entity}", "").strip()
                sentences.append(f"Ranked by {_strip_the(head)}: {', '.join(parts)}.")
                if facts[0].entity and len(verdicts) == 1:
                    top = (str(facts[0].entity), f"[{numbers[facts[0].claim_id]}]")
            else:
                f = facts[0]
                if len(verdicts) == 1 and display(f):
                    single = (len(sentences), display(f), f"[{numbers[f.claim_id]}]")
                sentences.append(f"{f.text[:-1]} [{numbers[f.claim_id]}].")
        elif v.support == "direct" and facts:
            f = facts[0]
            cites = "".join(f"[{numbers[x.claim_id]}]" for x in facts)
            if not display(f) and f.kind == "text" and f.text:
                # a sentence that states no figure ("In 2018, IMFT discontinued production
                # of NAND"): the answer is the sentence itself, quoted, not "X was ."
                sentences.append(f"{f.text.strip().rstrip('.')} {cites}.")
                continue
            if len(verdicts) == 1:
                single = (len(sentences), display(f), cites)
            if _names_itself(f):  # a row's label cell: the row it names, in its column
                sentences.append(f"{f.attribute or req.attribute}: {display(f)} {cites}.")
                continue
            sentences.append(f"{_subject(f, req)[:1].upper()}{_subject(f, req)[1:]} was "
                             f"{display(f)} {cites}.")
        elif v.support == "conflicting":
            sides = " versus ".join(
                f"{display(f)} in {f.source} [{numbers[f.claim_id]}]" for f in facts)
            sentences.append(f"Sources disagree on {req.label()}: {sides}.")
            conflicts.append({"requirement": req.rid, "entity": req.entity,
                              "attribute": req.attribute, "period": req.period,
                              "claims": [{"n": numbers[f.claim_id], "claim_id": f.claim_id,
                                          "value": f.value_text, "source": f.source,
                                          "locator": f.locator} for f in facts]})
        elif v.support == "absent":
            gap = next((g for g in store.gaps if g.requirement == req.rid), None)
            if gap is not None:
                s = gap.sentence()
                if "not disclosed" in gap.reason:
                    s = s[:-1] + f" ({gap.reason.split(':')[0]})."
                sentences.append(s)
        elif v.support == "partial" and not clarify_reason:
            if req.period:
                sentences.append(f"The knowledge base has no {req.attribute}"
                                 f"{' for ' + req.entity if req.entity else ''} in {req.period}"
                                 f" (it has {', '.join(v.periods_available)}).")
            else:
                sentences.append(f"{req.label()} is available for several periods "
                                 f"({', '.join(v.periods_available)}); name one.")
    if derivations:
        single = None
    facts_by_id = {f.claim_id: f for f in store.facts}
    for d in derivations:
        # cited in reading order: a change "from 2018 to 2019" computes 2019 - 2018, but its
        # evidence is numbered as the facts are ([1] 2018, [2] 2019) and read that way
        cites = "".join(f"[{n}]" for n in sorted({o.n for o in d.operands if o.n}))
        labels = [o.label for o in d.operands]
        if d.name in ("growth", "cagr"):
            name = "Growth" if d.name == "growth" else "CAGR"
            value = f"{d.result:.2f}%"
            sentences.append(f"{name} from {labels[0]} to {labels[1]} was {value} {cites}.")
        elif d.name == "difference":
            value = _derived(d, facts_by_id)
            sentences.append(f"The difference ({labels[0]} minus {labels[1]}) is "
                             f"{value} {cites}.")
        else:
            value = _derived(d, facts_by_id)
            sentences.append(f"The {d.name} is {value} {cites}.")
        if len(derivations) == 1:
            single = (len(sentences) - 1, value, cites)
    restates = ""
    if question and single is not None and not clarify_reason:
        blob = " ".join(f"{f.entity or ''} {f.attribute} {f.text} {f.locator}"
                        for f in store.facts)
        stated = statement(question, single[1], single[2], evidence=blob)
        if stated:
            # the answer first, in the question's words; what it rests on after it
            sentences = [stated, *(x for i, x in enumerate(sentences) if i != single[0])]
            restates = question
    if question and top is not None and not clarify_reason:
        # "Which region had the highest revenue in 2024?" -> "West had the highest revenue in
        # 2024 [1].", the ranking it rests on after it; a request to rank keeps the ranking
        stated = statement(question, *top)
        if stated:
            sentences.insert(0, stated)
            restates = question
    return Draft(tuple(sentences), evidence, tuple(conflicts), numbers, restates)


def _strip_the(s: str) -> str:
    return s[4:] if s.lower().startswith("the ") else s


def brief(question: str, dr: Draft, verdicts: list, store: CommitmentStore,
          derivations: list[Derivation], decision: str, reason: str, route: str,
          verification: dict, ecr: dict | None) -> str:
    out = [f"**Question:** {question}", "", "## Answer", " ".join(dr.sentences) or "(none)", ""]
    if verdicts:
        out += ["## Requirements", "| id | entity | attribute | period | support | limit |",
                "|---|---|---|---|---|---|"]
        for v in verdicts:
            r = v.requirement
            out.append(f"| {r.rid} | {r.entity or '-'} | {r.attribute} | {r.period or '-'} | "
                       f"{v.support} | {v.limit or ''} |")
        out.append("")
    if dr.evidence:
        out.append("## Evidence")
        for e in dr.evidence:
            out.append(f"- [{e['n']}] {e['text']} — {e['source']} {_loc(e['locator'])} "
                       f"(claim {e['claim_id']})")
        out.append("")
    if derivations:
        out.append("## Derivations")
        for d in derivations:
            ops = ", ".join(f"{o.label} = {fmt(o.value)} [{o.n}]" for o in d.operands)
            out.append(f"- {d.name}: {d.expression} = {fmt(d.result)}{d.unit} (operands: {ops})")
        out.append("")
    if store.gaps:
        out.append("## Knowledge gaps")
        for g in store.gaps:
            out.append(f"- {g.sentence()} Reason: {g.reason}")
        out.append("")
    if dr.conflicts:
        out.append("## Conflicts")
        for c in dr.conflicts:
            out += [f"{c['entity'] or ''} {c['attribute']} {c['period'] or ''}".strip(), "",
                    "| value | source | locator |", "|---|---|---|"]
            out += [f"| {x['value']} | {x['source']} | {_loc(x['locator'])} |"
                    for x in c["claims"]]
            out.append("")
    if ecr:
        out += ["## Entropic Claim Resolution",
                f"stop: {ecr.get('stop_reason')}, final entropy {ecr.get('entropy', 0):.3f} bits",
                ""]
    out += ["## Decision", f"**{decision}** ({route}): {reason}.",
            f"Verification: {verification.get('verdict')} — {verification.get('checker', '')}"]
    return "\n".join(out)


def _loc(locator: str) -> str:
    try:
        d = json.loads(locator)
    except (TypeError, ValueError):
        return str(locator)
    if "sql" in d:
        return f"`{d['sql']}`"
    return ", ".join(f"{k} {v}" for k, v in d.items() if k not in ("file", "span"))
