"""`Answer`: what `kb.ask` returns (fields fixed by CONTRACT.md; `to_dict()` gives exactly them)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by the two frame methods only: an answer needs no pandas
    import pandas as pd

FIELDS = ("text", "brief", "decision", "route", "trust", "requirements", "evidence", "gaps",
          "conflicts", "derivations", "verification", "ecr", "audit_id", "latency_ms",
          "values", "scale", "program")


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
    # what is scored (`synthesize.values`): the value(s) a reader would quote — numbers as
    # numbers, or text spans — `()` unless the decision is `answer`; their scale ("" |
    # thousand | million | billion | percent); the program that produced them, when one did
    values: tuple[object, ...] = ()
    scale: str = ""
    program: dict | None = None
    question: str = field(default="", compare=False)
    parsed: Any = field(default=None, compare=False, repr=False)  # the ParsedQuestion

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for name in FIELDS:
            v = getattr(self, name)
            if name == "values":
                out[name] = list(v)
            else:
                out[name] = [dict(x) for x in v] if isinstance(v, tuple) else v
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2, default=str)

    def evidence_frame(self) -> pd.DataFrame:
        """The evidence as a DataFrame (n, claim_id, source, locator, text, score)."""
        import pandas as pd

        return pd.DataFrame(list(self.evidence),
                            columns=["n", "claim_id", "source", "locator", "text", "score"])

    def __str__(self) -> str:
        return self.text

    def gaps_frame(self) -> pd.DataFrame:
        """The Knowledge Gaps as a DataFrame (entity, attribute, period, reason)."""
        import pandas as pd

        return pd.DataFrame(list(self.gaps), columns=["entity", "attribute", "period", "reason"])

    def entropy_trace(self) -> list[float]:
        """H (bits) per step of the ECR run, starting with H0; empty when ECR did not run."""
        from hyrag.display import entropy_trace_of

        return entropy_trace_of(self.ecr)

    def plot_entropy(self, *, epsilon: float | None = None):  # a matplotlib Figure
        """The ECR entropy trajectory of this answer (seed 003 Figure 3 for one question) as a
        matplotlib Figure on the Agg canvas; needs the `plot` extra. Raises ValueError when ECR
        did not run for this answer."""
        from hyrag.display.plots import EPSILON, entropy_trace

        trace = self.entropy_trace()
        if not trace:
            raise ValueError("ECR did not run for this answer: no entropy trace to plot")
        sources = {e.get("claim_id"): e.get("source") for e in self.evidence}
        labels = [sources.get(s.get("claim_id"), s.get("claim_id"))
                  for s in (self.ecr or {}).get("trace", ())]
        return entropy_trace(trace, epsilon=EPSILON if epsilon is None else epsilon,
                             title=f"ECR: {self.ecr.get('stop_reason', '')}" if self.ecr else None,
                             labels=labels if len(labels) == len(trace) - 1 else None)

    def _repr_markdown_(self) -> str:  # notebooks
        from hyrag.display import answer_markdown

        return answer_markdown(self)

    def _repr_html_(self) -> str:  # notebooks: decision and verdict first, then the sections
        from hyrag.display import answer_html

        return answer_html(self)
