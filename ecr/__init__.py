"""Entropic Claim Resolution (seed 003, section 3): numpy only, no I/O, no store.

`resolve` runs Box 1 over candidate claims and hypotheses; the pure functions of `ecr.core`
are the equations (entropy eq. 1, EER eq. 3/4, ConflictPotential eq. 5, selection eq. 6, Bayes
eq. 7, verification eq. 8, micro-learning eq. 10); `should_trigger` is section 4.1.
"""

from ecr.core import (
    bayes_update,
    confidence_variance,
    conflict_potential,
    eer_proxy,
    effective_hypotheses,
    entropy,
    exact_eer,
    likelihood,
    micro_learn,
    selection_score,
    trace_variance,
    uniform,
    verification_probability,
)
from ecr.hypotheses import CompetingValueGenerator, HypothesisGenerator, HypothesisSpace, Reading
from ecr.records import Candidate, Hypothesis, Resolution, StopReason, TraceStep, TriggerDecision
from ecr.resolver import Verifier, default_verifier, replay, resolve
from ecr.settings import ECRSettings
from ecr.triggers import should_trigger, uncertainty_hits

__all__ = [
    "Candidate",
    "CompetingValueGenerator",
    "ECRSettings",
    "Hypothesis",
    "HypothesisGenerator",
    "HypothesisSpace",
    "Reading",
    "Resolution",
    "StopReason",
    "TraceStep",
    "TriggerDecision",
    "Verifier",
    "bayes_update",
    "confidence_variance",
    "conflict_potential",
    "default_verifier",
    "eer_proxy",
    "effective_hypotheses",
    "entropy",
    "exact_eer",
    "likelihood",
    "micro_learn",
    "replay",
    "resolve",
    "selection_score",
    "should_trigger",
    "trace_variance",
    "uncertainty_hits",
    "uniform",
    "verification_probability",
]
