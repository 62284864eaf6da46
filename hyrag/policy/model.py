"""The policy's data model (seed 002, DESIGN.md "Policy"): frozen values, no I/O.

A `Policy` has a version, named subjects (roles, tenant, entitlements) and ordered rules. A
`Rule` maps (subject, action, resource) to ALLOW, DENY or STEP_UP:

* subject conditions: `subjects` (ids), `roles` (any of);
* action condition: `actions` (the engine's real operations, `ACTIONS`);
* resource conditions: `classifications`, `sources` and `tables` (shell-style patterns), and
  `entitled` (true: the resource's classification is among the subject's entitlements; false:
  it is not). A rule without resource conditions is an *action rule*; one with them is a
  *source rule*. An empty or missing condition matches anything.

How rules combine and what is built in (tenant isolation, deny by default) lives in `pdp.py`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

ACTIONS = ("ingest", "schema", "search", "ask", "sql", "audit.read")
DATA_ACTIONS = ("schema", "search", "ask", "sql")  # actions that read sources
CLASSIFICATIONS = ("public", "internal", "confidential", "restricted")
OWNER = "owner"  # the single local owner when no policy file exists
NO_POLICY_VERSION = "none"


class Effect(enum.StrEnum):
    ALLOW = "ALLOW"
    DENY = "DENY"
    STEP_UP = "STEP_UP"


@dataclass(frozen=True)
class Subject:
    id: str
    roles: frozenset[str] = frozenset()
    tenant: str = "default"
    entitlements: frozenset[str] = frozenset()
    known: bool = True  # False: named by the caller but absent from the policy


@dataclass(frozen=True)
class Resource:
    """What a request touches. `kind` "kb" is the knowledge base as a whole (the action-level
    decision); "source" is one ingested source version with its tables."""

    kind: str = "kb"
    name: str = ""
    tenant: str | None = None
    classification: str | None = None
    tables: tuple[str, ...] = ()


@dataclass(frozen=True)
class Context:
    """Runtime conditions of a request. Only the attestation changes a verdict; the query text
    is recorded, never interpreted (a sentence inside a document or a question cannot change a
    decision)."""

    attestation: str | None = None


@dataclass(frozen=True)
class Rule:
    id: str
    effect: Effect
    actions: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()
    classifications: frozenset[str] = frozenset()
    sources: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    entitled: bool | None = None
    description: str = ""

    @property
    def scoped(self) -> bool:
        """A source rule: it names a property of the resource."""
        return bool(self.classifications or self.sources or self.tables
                    or self.entitled is not None)


@dataclass(frozen=True)
class Policy:
    version: str
    subjects: dict[str, Subject] = field(default_factory=dict, hash=False, compare=True)
    rules: tuple[Rule, ...] = ()
    origin: str = ""  # the file it was read from, for messages

    def subject(self, sid: str | None) -> Subject:
        sid = sid or "anonymous"
        s = self.subjects.get(sid)
        return s if s is not None else Subject(sid, known=False)


@dataclass(frozen=True)
class Request:
    """One proposal for the PDP: (subject, action, resource, context) under a policy (None: no
    policy file, the single local owner)."""

    policy: Policy | None
    subject: Subject
    action: str
    resource: Resource = Resource()
    context: Context = Context()


@dataclass(frozen=True)
class Verdict:
    effect: Effect
    rule_id: str
    policy_version: str
    reason: str

    @property
    def allowed(self) -> bool:
        return self.effect is Effect.ALLOW

    def to_dict(self) -> dict[str, str]:
        return {"effect": self.effect.value, "rule_id": self.rule_id,
                "policy_version": self.policy_version, "reason": self.reason}
