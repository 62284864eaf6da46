"""When to run ECR at all (seed 003, section 4.1): three cheap heuristics plus an explicit flag.

ECR costs verification calls, so it runs only when the retrieved evidence looks uncertain:
many candidates, uncertainty words in the question, or widely spread claim confidences. An
explicit contradiction among the candidates (known from the store's links) always triggers it,
since that is exactly the case the coherence term exists for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ecr.core import confidence_variance
from ecr.records import TriggerDecision
from ecr.settings import ECRSettings


def uncertainty_hits(question: str, words: Sequence[str]) -> tuple[str, ...]:
    """The uncertainty keywords found in the question, as word prefixes, case-insensitively."""
    found: list[str] = []
    for w in words:
        if re.search(rf"\b{re.escape(w.lower())}\w*", question.lower()):
            found.append(w)
    return tuple(found)


def should_trigger(
    question: str,
    confidences: Sequence[float],
    explicit_contradiction: bool,
    settings: ECRSettings | None = None,
) -> TriggerDecision:
    """Decide whether ECR runs, listing every reason that fired (empty when it does not)."""
    s = settings or ECRSettings()
    reasons: list[str] = []
    n = len(confidences)
    if n > s.trigger_candidates:  # "more than 15 claims"
        reasons.append("candidate_volume")
    hits = uncertainty_hits(question, s.uncertainty_words)
    if hits:
        reasons.append("uncertainty_words")
    var = confidence_variance(confidences)  # sigma^2 across the k retrieved claims
    if var > s.trigger_variance:
        reasons.append("confidence_variance")
    if explicit_contradiction:
        reasons.append("explicit_contradiction")
    return TriggerDecision(bool(reasons), tuple(reasons), n, var, hits)
