"""The decision (seed 001's DECISION RULE, CONTRACT.md's five values).

- clarify: the question lacks a scope or period needed to choose evidence (the parser says why,
  or the evidence spans several periods and none was named);
- answer: every load-bearing requirement has direct support and the draft is grounded;
- needs_verification: evidence conflicts, is partial, or a load-bearing requirement has none
  while others do (the answer states what was found and what was not), or grounding failed;
- retrieve_again: a named missing requirement has a safe next search — never the same
  entity-attribute pair (KGRR), only a requirement not yet searched;
- abstain: nothing the question needs is in the knowledge base (every requirement absent).
"""

from __future__ import annotations

DECISIONS = ("answer", "retrieve_again", "clarify", "needs_verification", "abstain")


def decide(verdicts: list, clarify: tuple[str, ...], verification: dict,
           trust: str, unsearched: list | None = None) -> tuple[str, str]:
    """(decision, reason)."""
    if clarify:
        return "clarify", "; ".join(clarify)
    if not verdicts:
        return "abstain", "the question maps onto nothing the knowledge base holds"
    several = [v for v in verdicts if v.support == "partial" and not v.requirement.period
               and "several periods" in v.limit]
    if several:
        return "clarify", f"{several[0].requirement.label()}: {several[0].limit}"
    load = [v for v in verdicts if v.requirement.load_bearing]
    if unsearched:
        return "retrieve_again", f"not yet searched: {', '.join(r.label() for r in unsearched)}"
    if all(v.support == "absent" for v in load):
        return "abstain", "no evidence for " + "; ".join(v.requirement.label() for v in load)
    if any(v.support == "conflicting" for v in load):
        return "needs_verification", "sources conflict on " + "; ".join(
            v.requirement.label() for v in load if v.support == "conflicting")
    if any(v.support in ("absent", "partial") for v in load):
        return "needs_verification", "no direct evidence for " + "; ".join(
            v.requirement.label() for v in load if v.support != "direct")
    if verification.get("verdict") != "pass":
        return "needs_verification", "the draft failed numeric grounding"
    return "answer", "every requirement has direct support"
