"""What a route commits for the engine to draft, verify, decide and audit: its requirements,
the Warrant gate's verdicts on them, the committed facts, the derivations the ReverseVerifier
recomputes, the operation, the answer and its scale.

One type for every route that reads a table or a sentence (the program route, `programs.route`,
and the reader chain it replaces), so that the engine's later stages depend on this contract
and not on any one route's module.
"""

from __future__ import annotations

from dataclasses import dataclass

from hyrag.answer.execute.tools import Derivation
from hyrag.answer.link.commitment import CommitmentStore
from hyrag.answer.link.warrant import Verdict
from hyrag.answer.parse.requirements import Requirement


@dataclass(frozen=True)
class Resolved:
    requirements: list[Requirement]
    verdicts: list[Verdict]
    store: CommitmentStore
    derivations: list[Derivation]
    operation: str
    answer: object  # the value (float), a year (str) or the looked-up cell's displayed text
    scale: str  # "" | thousand | million | billion | percent
    match: float = 1.0  # how well the row labels cover the question's words (0..1)
    residue: int = 0  # content words of the question no row label explains


@dataclass(frozen=True)
class TableResolved(Resolved):
    """A reading plus the sentence that states the answer in the question's words."""

    sentence: str = ""
