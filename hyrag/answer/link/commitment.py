"""The CommitmentStore (seed 000, section IV.D): the only context synthesis may read.

Committed facts carry the claim, its source and locator, the warrant query that found it, its
score and a timestamp; Knowledge Gaps carry the entity, attribute, period, reason and a
timestamp. Nothing else reaches the brief: a number that is not in a fact or in a derivation
over facts cannot be written (`hyrag.answer.verify.grounding` checks it).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class Fact:
    claim_id: str  # a claim id, or "sql:<hash>" for a result computed by the SQL route
    requirement: str  # "R1"
    source: str  # file name, or "sql"
    locator: str  # JSON locator of the claim, or the SQL statement
    text: str  # the claim's sentence (or the SQL result stated as one)
    entity: str | None
    attribute: str
    value: float | None  # value_num as displayed (signed)
    value_text: str
    value_base: float | None
    unit: str
    scale: str
    time_key: str | None
    kind: str  # cell | aggregate | text | sql
    table: str | None
    score: float  # 1.0 for an exact structural match, else the retrieval similarity
    warrant_query: str
    confidence: float = 1.0
    operands: tuple[str, ...] = ()  # for sql facts: the cell claims it read (first few)
    rows_read: int | None = None
    timestamp: str = field(default_factory=now)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Gap:
    entity: str | None
    attribute: str
    period: str | None
    reason: str
    requirement: str = ""
    timestamp: str = field(default_factory=now)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def sentence(self) -> str:
        who = f" for {self.entity}" if self.entity else ""
        when = f" in {self.period}" if self.period else ""
        return f"The knowledge base has no {self.attribute}{who}{when}."


class CommitmentStore:
    """Facts and gaps accumulated by the Warrant stage, in the order they were committed."""

    def __init__(self) -> None:
        self._facts: list[Fact] = []
        self._gaps: list[Gap] = []

    def commit(self, fact: Fact) -> Fact:
        if any(f.claim_id == fact.claim_id and f.requirement == fact.requirement
               for f in self._facts):
            return fact
        self._facts.append(fact)
        return fact

    def declare_gap(self, gap: Gap) -> Gap:
        self._gaps.append(gap)
        return gap

    @property
    def facts(self) -> tuple[Fact, ...]:
        return tuple(self._facts)

    @property
    def gaps(self) -> tuple[Gap, ...]:
        return tuple(self._gaps)

    def facts_for(self, rid: str) -> list[Fact]:
        return [f for f in self._facts if f.requirement == rid]

    def as_context(self) -> str:
        """The committed context as text (what an LLM synthesiser would be given)."""
        lines = [f"FACT [{f.claim_id}] {f.text} ({f.source} {f.locator})" for f in self._facts]
        lines += [f"GAP {g.sentence()} Reason: {g.reason}" for g in self._gaps]
        return "\n".join(lines)

    def summary(self) -> dict[str, object]:
        return {"facts": [f.to_dict() for f in self._facts],
                "gaps": [g.to_dict() for g in self._gaps]}
