"""`Answer`: what `kb.ask` returns (fields fixed by CONTRACT.md; `to_dict()` gives exactly them)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

FIELDS = ("text", "brief", "decision", "route", "trust", "requirements", "evidence", "gaps",
          "conflicts", "derivations", "verification", "ecr", "audit_id", "latency_ms")


@dataclass(frozen=True)
class Answer:
    text: str
    brief: str
    decision: str
    route: str
    trust: str
    requirements: tuple[dict, ...] = ()
    evidence: tuple[dict, ...] = ()  # n, claim_id, source, locator, text, score
    gaps: tuple[dict, ...] = ()  # entity, attribute, period, reason
    conflicts: tuple[dict, ...] = ()
    derivations: tuple[dict, ...] = ()  # expression, operands (claim refs), result
    verification: dict = field(default_factory=dict)  # verdict, score, failures
    ecr: dict | None = None
    audit_id: str = ""
    latency_ms: float = 0.0
    question: str = field(default="", compare=False)
    parsed: Any = field(default=None, compare=False, repr=False)  # the ParsedQuestion

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for name in FIELDS:
            v = getattr(self, name)
            out[name] = [dict(x) for x in v] if isinstance(v, tuple) else v
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2, default=str)

    def evidence_frame(self) -> pd.DataFrame:
        """The evidence as a DataFrame (n, claim_id, source, locator, text, score)."""
        return pd.DataFrame(list(self.evidence),
                            columns=["n", "claim_id", "source", "locator", "text", "score"])

    def __str__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:  # notebooks
        return self.brief
