"""Pure functions of ECR's mathematics (seed 003, section 3): no state, no I/O, numpy only.

Distributions are 1-d float arrays over the hypotheses in a fixed order; a claim's partition of
the hypotheses (A+(c) of eq. 4) is a boolean mask in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ecr.settings import ECRSettings

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


def uniform(k: int) -> FloatArray:
    """The uniform prior P(a) = 1/|A| of section 3.1."""
    if k < 1:
        raise ValueError("a hypothesis space needs at least one hypothesis")
    return np.full(k, 1.0 / k)


def entropy(p: ArrayLike) -> float:
    """Shannon entropy in bits, H(A|X_eval) = -sum_a P(a) log2 P(a) (eq. 1); 0 log 0 = 0."""
    q = np.asarray(p, dtype=float)
    nz = q[q > 0]
    return float(max(0.0, -np.sum(nz * np.log2(nz))))


def effective_hypotheses(h: float) -> float:
    """2^H: the number of equally likely hypotheses with the same entropy (Table 2)."""
    return float(2.0**h)


def is_trivial(mask: BoolArray) -> bool:
    """A claim that supports every hypothesis or none cannot discriminate between them."""
    return bool(mask.all() or not mask.any())


def eer_proxy(p: FloatArray, mask: BoolArray, conf: float, *, literal: bool = False) -> float:
    """EER^(c) = |p+ - p-| / (p+ + p-) * H(A|X_eval) * conf(c)   (eq. 4).

    With `literal=False` (ours) a trivial partition scores 0: under eq. 7 such a claim has the
    same likelihood under every hypothesis, so its true EER (eq. 3) is exactly 0, which is what
    section 3.3 says of "a claim supporting all hypotheses". Eq. 4 read literally gives it the
    maximum |1 - 0| = 1 instead; `literal=True` keeps that for the seed-rule comparison.
    """
    if not literal and is_trivial(mask):
        return 0.0
    p_plus = float(p[mask].sum())
    p_minus = float(p[~mask].sum())
    total = p_plus + p_minus
    if total <= 0:
        return 0.0
    return abs(p_plus - p_minus) / total * entropy(p) * conf


def likelihood(mask: BoolArray, x: float, settings: ECRSettings) -> FloatArray:
    """P(X_c = x | a) for every a (CONTRACT.md likelihood model used by eq. 7).

    P(X_c=1|a) = p_support if c supports a else p_other; P(X_c=0|a) is the complement. A
    fractional x is Jeffrey's rule: x P(X=1|a) + (1-x) P(X=0|a).
    """
    p1 = np.where(mask, settings.p_support, settings.p_other)
    return x * p1 + (1.0 - x) * (1.0 - p1)


def bayes_update(p: FloatArray, lik: FloatArray) -> FloatArray:
    """P(A|X_eval u {X_c}) = P(X_c|A) P(A|X_eval) / sum_a~ P(X_c|a~) P(a~|X_eval)   (eq. 7)."""
    unnorm = np.asarray(p, dtype=float) * np.asarray(lik, dtype=float)
    z = float(unnorm.sum())
    if not z > 0 or not math.isfinite(z):
        raise ValueError("Bayes update has zero evidence: the likelihood vanishes everywhere")
    return unnorm / z


def exact_eer(p: FloatArray, mask: BoolArray, settings: ECRSettings) -> float:
    """EER(c) = H(A|X_eval) - E_{X_c}[H(A|X_eval u {X_c})]   (eq. 3), exactly.

    X_c's predictive law is P(X_c=1) = sum_a P(X_c=1|a) P(a) under the likelihood model, so the
    expectation has two terms. Non-negative by concavity of entropy (up to rounding).
    """
    p1 = float(np.sum(likelihood(mask, 1.0, settings) * p))
    h = entropy(p)
    expected = 0.0
    for x, px in ((1.0, p1), (0.0, 1.0 - p1)):
        if px > 0:
            expected += px * entropy(bayes_update(p, likelihood(mask, x, settings)))
    return max(0.0, h - expected)


def conflict_potential(negates: frozenset[str], negated_by: frozenset[str],
                       evaluated: set[str] | frozenset[str]) -> int:
    """ConflictPotential(c) = 1 if some evaluated c' has c = not c', else 0   (eq. 5).

    Links are symmetric in effect: c completes a pair whether c names c' or c' names c.
    """
    return int(bool((negates | negated_by) & evaluated))


def selection_score(eer: float, cp: int, lam: float) -> float:
    """score(c) = EER^(c) + lambda * ConflictPotential(c)   (eq. 6)."""
    return eer + lam * cp


def verification_probability(support: int, contradiction: int, prior_conf: float) -> float:
    """P(X_c=1) = (S+1)/(S+C+2) if S+C > 0, else the extraction-time prior   (eq. 8)."""
    if support < 0 or contradiction < 0:
        raise ValueError("support and contradiction counts must be >= 0")
    if support + contradiction > 0:
        return (support + 1.0) / (support + contradiction + 2.0)
    return float(prior_conf)


def micro_learn(conf_base: float, support: int, contradiction: int,
                settings: ECRSettings | None = None) -> float:
    """conf_new = clip_[0,1](conf_base + 0.15 log(1 + S) - 0.25 C)   (eq. 10).

    Asymmetric on purpose (the seed): support helps with diminishing returns, each
    contradiction costs a fixed amount, so contradicted claims fall fast. Natural log.
    """
    s = settings or ECRSettings()
    if support < 0 or contradiction < 0:
        raise ValueError("support and contradiction counts must be >= 0")
    raw = (conf_base + s.learn_support_gain * math.log1p(support)
           - s.learn_contradiction_penalty * contradiction)
    return float(min(1.0, max(0.0, raw)))


def confidence_variance(confidences: Sequence[float]) -> float:
    """Population variance sigma^2 of claim confidences (section 4.1 trigger 3); 0 if < 2."""
    if len(confidences) < 2:
        return 0.0
    return float(np.var(np.asarray(confidences, dtype=float)))


def trace_variance(trace: Sequence[float]) -> float:
    """Population variance of the entropy trace H_0..H_t (Table 3 "TraceVar").

    Checked against the seed: the trace of five confirmations from log2 3 gives 0.262859.
    """
    return float(np.var(np.asarray(trace, dtype=float))) if len(trace) else 0.0
