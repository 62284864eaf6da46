"""ECR's settings: every threshold of seed 003 named, documented and validated once.

Defaults are the seed's (section cited beside each) or, for the likelihood model the seed does
not state, the one in CONTRACT.md ("ECR's likelihood model"): P(X_c=1 | a) = 0.7 when c supports
a and 0.3 otherwise, which reproduces the seed's Table 2 figure H_final = 0.2129 exactly.

Validation raises `ValueError` with a message naming the field, so a caller (or a test) can match
on the name instead of the wording.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

EERMode = Literal["proxy", "seed_proxy", "exact"]
ConflictRule = Literal["in_play", "seed"]
Observation = Literal["hard", "soft"]

#: Uncertainty keywords of section 4.1 (matched as word prefixes, case-insensitive, so
#: "conflicting" and "conflicts" both hit "conflict").
DEFAULT_UNCERTAINTY_WORDS: tuple[str, ...] = (
    "uncertain",
    "conflict",
    "disagree",
    "multiple",
    "various",
)


@dataclass(frozen=True)
class ECRSettings:
    """Thresholds of the ECR loop (Box 1), its triggers (4.1) and micro-learning (eq. 10)."""

    # --- stopping (eq. 11') and budget (Box 1, Theorem 1) ---
    epsilon: float = 0.3  # bits; epistemic sufficiency is H <= epsilon
    budget: int = 10  # T: at most this many claims evaluated
    # --- selection (eq. 6) ---
    lambda_conflict: float = 0.05  # weight of ConflictPotential (eq. 5); 0 = entropy-only
    eer_mode: EERMode = "proxy"
    # "proxy": eq. 4 with the trivial-partition fix (a claim that supports every hypothesis or
    #   none cannot change the posterior under eq. 7, so its EER is 0, as section 3.3 says);
    #   conf(c) is the claim's confidence times its relevance to the question.
    # "seed_proxy": eq. 4 literally (|p+ - p-| = 1 for a claim supporting none), conf(c) is the
    #   claim's confidence alone: the seed's offline behaviour, kept for the comparison tables.
    # "exact": eq. 3 under the likelihood model, predictive P(X_c) from the posterior.
    # --- likelihood model (CONTRACT.md; eq. 7) ---
    p_support: float = 0.7  # P(X_c=1 | a) when c supports a
    p_other: float = 0.3  # P(X_c=1 | a) when c does not support a
    observation: Observation = "hard"
    # "hard": X_c = 1 iff the verification probability (eq. 8) >= verify_threshold, and eq. 7 is
    #   applied to that outcome (the seed's offline mode; five hard confirmations give 0.2129).
    # "soft": Jeffrey's rule, L(a) = q P(X=1|a) + (1-q) P(X=0|a) with q from eq. 8.
    verify_threshold: float = 0.5
    verify_relevance: bool = True
    # True: P(X_c=1) is eq. 8 times the claim's relevance to the question (its scope agreement),
    #   because a true claim about another entity or period is true but is no evidence for this
    #   question's answer. False: eq. 8 alone (the seed's provenance-only offline verifier).
    # --- conflicts (eq. 11') ---
    conflict_rule: ConflictRule = "in_play"
    # "seed": any evaluated explicit contradiction pair blocks sufficiency, whatever it is about,
    #   and the loop runs on to budget or exhaustion (Box 1 read literally).
    # "in_play": a pair is an unresolved conflict only if it touches a hypothesis whose posterior
    #   is still >= in_play_mass; the loop stops once H <= epsilon and reports the conflict.
    in_play_mass: float = 0.05
    # --- triggers (section 4.1) ---
    trigger_candidates: int = 15  # trigger when MORE than this many candidate claims
    trigger_variance: float = 0.15  # trigger when confidence variance exceeds this
    uncertainty_words: tuple[str, ...] = DEFAULT_UNCERTAINTY_WORDS
    # --- confidence micro-learning (eq. 10) ---
    learn_support_gain: float = 0.15  # coefficient of log(1 + S(c))
    learn_contradiction_penalty: float = 0.25  # coefficient of C(c)

    def __post_init__(self) -> None:
        for name in ("p_support", "p_other", "verify_threshold", "in_play_mass"):
            v = getattr(self, name)
            if not _is_number(v) or not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be a number in [0, 1], got {v!r}")
        if not 0.0 < self.p_other < self.p_support < 1.0:
            raise ValueError(
                "p_support must exceed p_other and both lie strictly inside (0, 1), got "
                f"p_support={self.p_support!r}, p_other={self.p_other!r}"
            )
        for name in ("epsilon", "lambda_conflict", "trigger_variance"):
            v = getattr(self, name)
            if not _is_number(v) or v < 0:
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        for name in ("budget", "trigger_candidates"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        for name in ("learn_support_gain", "learn_contradiction_penalty"):
            v = getattr(self, name)
            if not _is_number(v) or v < 0:
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        choices: dict[str, tuple[str, ...]] = {
            "eer_mode": ("proxy", "seed_proxy", "exact"),
            "conflict_rule": ("in_play", "seed"),
            "observation": ("hard", "soft"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        if not isinstance(self.verify_relevance, bool):
            raise ValueError(f"verify_relevance must be a bool, got {self.verify_relevance!r}")
        if not isinstance(self.uncertainty_words, tuple) or not all(
            isinstance(w, str) and w.strip() for w in self.uncertainty_words
        ):
            raise ValueError("uncertainty_words must be a tuple of non-empty strings")

    def with_(self, **changes: object) -> ECRSettings:
        """A copy with some fields changed (unknown names are an error, not silently ignored)."""
        names = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise ValueError(f"unknown ECR setting(s) {unknown}")
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def seed_rule(cls, **changes: object) -> ECRSettings:
        """The seed's offline behaviour: literal eq. 4, any contradiction blocks sufficiency."""
        base = {"eer_mode": "seed_proxy", "conflict_rule": "seed", "verify_relevance": False}
        return cls().with_(**{**base, **changes})


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)
