"""Governed retrieval (seed 002): policy model, TOML loader, PDP, PEP and per-subject views."""

from hyrag.policy.load import POLICY_FILE, PolicyError, find_policy, load_policy, parse_policy
from hyrag.policy.model import (
    ACTIONS,
    CLASSIFICATIONS,
    Context,
    Effect,
    Policy,
    Request,
    Resource,
    Rule,
    Subject,
    Verdict,
)
from hyrag.policy.pdp import decide
from hyrag.policy.pep import Enforcer, Grant, PolicyDenied, StepUpRequired

__all__ = [
    "ACTIONS", "CLASSIFICATIONS", "POLICY_FILE", "Context", "Effect", "Enforcer", "Grant",
    "Policy", "PolicyDenied", "PolicyError", "Request", "Resource", "Rule", "StepUpRequired",
    "Subject", "Verdict", "decide", "find_policy", "load_policy", "parse_policy",
]
