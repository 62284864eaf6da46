"""The verifier's own input types: the engine maps its committed facts and derivations onto them.

`Evidence` is one committed (or counter) claim: its sentence, its value as ingestion parsed it
(so the verifier never re-parses a spreadsheet cell), its scale and unit, and what it is about
(entity, attribute, period). `Computation` is one recorded derivation: the operator's name, the
operand values in order, extra parameters (years for a CAGR) and the result as the engine
rounded it. `role` says whether evidence supports the draft ("support", what was committed) or
was retrieved as a possible counter-example ("counter": the same entity, attribute and period
from another source).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Evidence:
    ref: str  # claim id (or any stable reference)
    text: str = ""  # the claim's sentence
    value: float | None = None  # the value as displayed, signed (1410.2, -620.0, 13.1)
    value_text: str = ""  # "1,410.2", "(620.0)", "13.1%"
    scale: str = ""  # "" | thousand | million | billion | percent
    unit: str = ""  # "USD", "%", "days"
    entity: str | None = None
    attribute: str | None = None
    period: str | None = None  # canonical period key ("2024", "2024Q1")
    role: str = "support"  # support | counter
    n: int | None = None  # the citation number [n] the draft uses for it


@dataclass(frozen=True)
class Computation:
    name: str  # difference, sum, growth, change_ratio, ratio, share, mean, median, stdev, cagr
    operands: tuple[float, ...]
    result: float
    unit: str = ""  # "%" when the result is in percent
    params: dict = field(default_factory=dict)  # {"years": 2.0} for a CAGR
    refs: tuple[str, ...] = ()  # the evidence each operand came from (same order), if known
    expression: str = ""
    # the magnitude ("thousand", "million", ...) the operands and the result are stated in: the
    # answer writes "10,300 thousand" for a difference of figures displayed in thousands
    scale: str = ""
