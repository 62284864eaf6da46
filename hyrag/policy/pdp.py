"""The Policy Decision Point: a pure function from a `Request` to a `Verdict`.

Order of evaluation (each step returns as soon as it decides):

1. no policy -> ALLOW, rule `no-policy` (the single local owner, everything allowed);
2. an action the engine does not have -> DENY `unknown-action`;
3. a subject the policy does not name -> DENY `unknown-subject`;
4. a resource of another tenant -> DENY `tenant-isolation` (built in: no rule can override it);
5. the matching rules, deny-overrides: any DENY rule wins; else a STEP_UP rule asks for an
   attestation (with a non-empty attestation in the context it becomes ALLOW under that rule);
   else an ALLOW rule allows;
6. nothing matched -> DENY `default-deny`.

For the knowledge base as a whole (`Resource.kind == "kb"`, the action-level decision) only
action rules (no resource condition) take part; when none matches but an ALLOW source rule
names this action for this subject, the action is allowed (`scoped:<rule>`) and the per-source
verdicts decide what it may read. Nothing here does I/O or reads the query text.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from hyrag.policy.model import (
    ACTIONS,
    NO_POLICY_VERSION,
    Effect,
    Request,
    Rule,
    Verdict,
)


def _subject_matches(rule: Rule, req: Request) -> bool:
    s = req.subject
    if rule.subjects and s.id not in rule.subjects:
        return False
    if rule.roles and not (rule.roles & s.roles):
        return False
    return not rule.actions or req.action in rule.actions


def _resource_matches(rule: Rule, req: Request) -> bool:
    r = req.resource
    if rule.classifications and r.classification not in rule.classifications:
        return False
    if rule.sources and not any(fnmatchcase(r.name, p) for p in rule.sources):
        return False
    if rule.tables and not any(fnmatchcase(t, p) for p in rule.tables for t in r.tables):
        return False
    if rule.entitled is not None:
        entitled = r.classification is not None and r.classification in req.subject.entitlements
        if entitled != rule.entitled:
            return False
    return True


def matching_rules(req: Request) -> list[Rule]:
    assert req.policy is not None
    if req.resource.kind == "kb":
        return [r for r in req.policy.rules if not r.scoped and _subject_matches(r, req)]
    return [r for r in req.policy.rules
            if _subject_matches(r, req) and _resource_matches(r, req)]


def decide(req: Request) -> Verdict:
    pol = req.policy
    if pol is None:
        return Verdict(Effect.ALLOW, "no-policy", NO_POLICY_VERSION,
                       "no policy file: single local owner, everything allowed")
    v = pol.version
    if req.action not in ACTIONS:
        return Verdict(Effect.DENY, "unknown-action", v, f"unknown action {req.action!r}")
    if not req.subject.known:
        return Verdict(Effect.DENY, "unknown-subject", v,
                       f"subject {req.subject.id!r} is not in the policy")
    if req.resource.tenant is not None and req.resource.tenant != req.subject.tenant:
        return Verdict(Effect.DENY, "tenant-isolation", v,
                       "the resource belongs to another tenant")
    rules = matching_rules(req)
    for r in rules:
        if r.effect is Effect.DENY:
            return Verdict(Effect.DENY, r.id, v, r.description or "denied by rule")
    for r in rules:
        if r.effect is Effect.STEP_UP:
            if req.context.attestation and req.context.attestation.strip():
                return Verdict(Effect.ALLOW, r.id, v, "step-up satisfied by an attestation")
            return Verdict(Effect.STEP_UP, r.id, v,
                           r.description or "an attestation is required (--attest TEXT)")
    for r in rules:
        if r.effect is Effect.ALLOW:
            return Verdict(Effect.ALLOW, r.id, v, r.description or "allowed by rule")
    if req.resource.kind == "kb":
        for r in pol.rules:
            if (r.scoped and r.effect is Effect.ALLOW and req.action in r.actions
                    and _subject_matches(r, req)):
                return Verdict(Effect.ALLOW, f"scoped:{r.id}", v,
                               "allowed for the sources that source rules grant")
    return Verdict(Effect.DENY, "default-deny", v, "no rule allows this request")
