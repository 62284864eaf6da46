"""The Policy Enforcement Point inside the engine.

For one request (`ingest`, `schema`, `search`, `ask`, `sql`, `audit.read`) the PEP

1. asks the PDP for the action-level verdict and, for actions that read data, one verdict per
   source version (tenant, classification, name, tables): the allowed sources, the sources that
   need an attestation and the typed tables of each become the request's `Grant`;
2. writes the request's verdict events to `audit` in ONE batch (one transaction) — before the
   caller runs any retrieval, SQL statement or tool call of that request;
3. stops a DENY with `PolicyDenied` naming the rule, a STEP_UP with `StepUpRequired`.

Every retrieval path then takes the grant's allowed sources as its pre-filter (vector indices,
BM25, graph, the structural claim fetch) and user SQL runs over the grant's views
(`hyrag.policy.views`): a denied source never enters a candidate list.

With no policy file there is one subject, the local owner, and every verdict is ALLOW under rule
`no-policy`; an answer's audit record says so (plain reads and ingests then write nothing).
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass, field

from hyrag.errors import HyragError
from hyrag.policy.model import (
    DATA_ACTIONS,
    OWNER,
    Context,
    Effect,
    Policy,
    Request,
    Resource,
    Subject,
    Verdict,
)
from hyrag.policy.pdp import decide

# Without a policy file only an answer's audit record carries the verdict (rule `no-policy`,
# "single local owner"); under a policy every request's verdicts are written.
RECORDED_WITHOUT_POLICY = frozenset({"ask"})
# Actions whose grant carries per-source verdicts: the data actions, and `audit.read`, since a
# replay shows the claims and values another request was shown, which the reader's own
# classification and source rules must then allow (`hyrag.kb.KnowledgeBase.audit`).
SCOPED_ACTIONS = frozenset({*DATA_ACTIONS, "audit.read"})


class PolicyDenied(HyragError):
    """The PDP said DENY; `rule_id` names the rule (the message names it too)."""

    def __init__(self, message: str, *, verdict: Verdict, request_id: str = "") -> None:
        super().__init__(message)
        self.verdict = verdict
        self.rule_id = verdict.rule_id
        self.request_id = request_id


class StepUpRequired(HyragError):
    """The PDP said STEP_UP: run again with an attestation (`attestation=` / `--attest TEXT`).
    A typed result as well as an exception: `.verdict`, `.action`, `.request_id`."""

    def __init__(self, message: str, *, verdict: Verdict, action: str,
                 request_id: str = "") -> None:
        super().__init__(message)
        self.verdict = verdict
        self.rule_id = verdict.rule_id
        self.action = action
        self.request_id = request_id


@dataclass
class Grant:
    """What one request may do and see, and the verdicts that say so."""

    request_id: str
    subject: Subject
    action: str
    verdict: Verdict
    governed: bool  # a policy applies (False: no policy file, the local owner)
    all_sources: frozenset[str] = frozenset()
    allowed_sources: frozenset[str] = frozenset()
    step_up_sources: frozenset[str] = frozenset()
    source_verdicts: dict[str, Verdict] = field(default_factory=dict)
    allowed_tables: frozenset[str] = frozenset()
    step_up_tables: frozenset[str] = frozenset()
    attestation: str | None = None
    detail: dict = field(default_factory=dict)
    n_events: int = 0  # audit events written for this request so far

    @property
    def policy_version(self) -> str:
        return self.verdict.policy_version

    @property
    def unrestricted(self) -> bool:
        """Every source is visible (no policy, or a subject entitled to everything)."""
        return not self.governed or self.allowed_sources >= self.all_sources

    def step_up_notice(self) -> dict | None:
        """Sources this request did not read because they need an attestation (STEP_UP), as
        {"sources": count, "rules": [rule ids], "notice": text}; None when there are none.
        Only the count and the rules: no name, table or content of those sources."""
        if not self.governed or not self.step_up_sources or self.action not in DATA_ACTIONS:
            return None
        rules = sorted({v.rule_id for sid, v in self.source_verdicts.items()
                        if sid in self.step_up_sources})
        n = len(self.step_up_sources)
        return {"sources": n, "rules": rules, "notice": (
            f"{n} source{'s' if n != 1 else ''} not consulted: "
            f"{'they need' if n != 1 else 'it needs'} an attestation (rule "
            f"{', '.join(rules)}); ask again with attestation= or --attest TEXT")}

    def step_up_gap(self) -> dict | None:
        """The notice as a Knowledge Gap (CONTRACT.md: entity, attribute, period, reason)."""
        n = self.step_up_notice()
        return None if n is None else {"entity": None, "attribute": None, "period": None,
                                       "reason": n["notice"]}

    def chain(self) -> list[dict]:
        """The verdict chain for the context pack and the audit record."""
        out = [{"resource": "kb", **self.verdict.to_dict()}]
        groups: dict[tuple[str, str], list[str]] = {}
        for sid, v in sorted(self.source_verdicts.items()):
            groups.setdefault((v.effect.value, v.rule_id), []).append(sid)
        for (eff, rule), sids in sorted(groups.items()):
            out.append({"resource": "sources", "effect": eff, "rule_id": rule,
                        "policy_version": self.policy_version, "sources": sids})
        return out


class Enforcer:
    def __init__(self, store, policy: Policy | None, subject: str | None = None,
                 attestation: str | None = None) -> None:
        self.store = store
        self.policy = policy
        self.subject_id = subject
        self.attestation = attestation
        self._memo: dict[tuple, dict[str, Verdict]] = {}

    @property
    def subject(self) -> Subject:
        if self.policy is None:
            return Subject(self.subject_id or OWNER)
        return self.policy.subject(self.subject_id)

    @property
    def governed(self) -> bool:
        return self.policy is not None

    # -- deciding ----------------------------------------------------------------------------
    def _request(self, action: str, resource: Resource) -> Request:
        return Request(self.policy, self.subject, action, resource, Context(self.attestation))

    def plan(self, action: str, *, resource: Resource | None = None,
             detail: dict | None = None) -> Grant:
        """All verdicts of one request; pure apart from reading the `sources` table."""
        verdict = decide(self._request(action, Resource("kb", str(self.store.folder.name))))
        if resource is not None and verdict.effect is not Effect.DENY:
            rv = decide(self._request(action, resource))
            if _rank(rv) > _rank(verdict):
                verdict = rv
        g = Grant(uuid.uuid4().hex[:16], self.subject, action, verdict, self.governed,
                  attestation=self.attestation, detail=dict(detail or {}))
        if action not in SCOPED_ACTIONS:
            return g
        cur = self.store.con.cursor()  # two plain reads: cheaper than a join on every request
        tables_of: dict[str, list[str]] = {}
        for sid, table in cur.execute("SELECT source_id, table_name FROM kb_tables").fetchall():
            if table:
                tables_of.setdefault(sid, []).append(table)
        by_src = {sid: (name, tenant, cls, tuple(sorted(tables_of.get(sid, ()))))
                  for sid, name, tenant, cls in cur.execute(
                      "SELECT source_id, name, tenant, classification FROM sources").fetchall()}
        rows = [(sid, *by_src[sid]) for sid in sorted(by_src)]
        g.all_sources = frozenset(by_src)
        if verdict.effect is Effect.DENY:
            return g
        allowed, step, tables, step_tables = set(), set(), set(), set()
        memo_key = (action, self.subject_id, self.attestation, tuple(rows))
        memo = self._memo.get(memo_key) if self.policy is not None else None
        for sid, name, tenant, cls, tbls in rows:
            if self.policy is None:
                v = verdict
            elif memo is not None:
                v = memo[sid]
            else:
                v = decide(self._request(action, Resource("source", name, tenant, cls, tbls)))
            if self.policy is not None:
                g.source_verdicts[sid] = v
            if v.effect is Effect.ALLOW:
                allowed.add(sid)
                tables.update(tbls)
            elif v.effect is Effect.STEP_UP:
                step.add(sid)
                step_tables.update(tbls)
        if self.policy is not None and memo is None:  # decisions are pure: same inputs,
            self._memo.clear()  # same verdicts (the PDP is still what decided them)
            self._memo[memo_key] = dict(g.source_verdicts)
        g.allowed_sources, g.step_up_sources = frozenset(allowed), frozenset(step)
        g.allowed_tables, g.step_up_tables = frozenset(tables), frozenset(step_tables)
        return g

    # -- recording ---------------------------------------------------------------------------
    def events(self, g: Grant) -> list[tuple[str, dict]]:
        base = {"action": g.action, "subject": g.subject.id,
                "policy_version": g.policy_version, "governed": g.governed}
        ev = [("policy.verdict", {**base, **g.verdict.to_dict(), "resource": "kb",
                                  "attestation": g.attestation, "detail": g.detail})]
        if not g.governed:
            ev[0][1]["note"] = ("no policy file: the engine runs as a single local owner with "
                                "everything allowed")
        if g.action in DATA_ACTIONS and g.verdict.effect is not Effect.DENY:
            ev.append(("policy.scope", {**base, "chain": g.chain()[1:],
                                        "allowed_sources": sorted(g.allowed_sources),
                                        "step_up_sources": sorted(g.step_up_sources),
                                        "allowed_tables": sorted(g.allowed_tables)}))
            notice = g.step_up_notice()
            if notice is not None:  # in the same batch, before anything is retrieved
                ev.append(("policy.step_up", {**base, **notice,
                                              "step_up_sources": sorted(g.step_up_sources)}))
        return ev

    def record(self, g: Grant) -> bool:
        """Write the request's verdict events in one batch (a read-only store: to its read log,
        `hyrag.readlog`). When neither can be written: without a policy that is tolerated
        (nothing is restricted); under a policy the request is refused, since a decision that
        cannot be recorded must not take effect."""
        if not self.governed and g.action not in RECORDED_WITHOUT_POLICY:
            return False  # nothing is restricted; reads and ingests stay free of audit writes
        events = self.events(g)
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        rows = [(f"{g.request_id}-{g.n_events + i:03d}", g.request_id, now, kind, g.subject.id,
                 json.dumps(payload, ensure_ascii=False, default=str))
                for i, (kind, payload) in enumerate(events)]
        from hyrag.answer.audit import append

        if not append(self.store, rows):
            if self.governed:
                raise PolicyDenied(
                    "refused by rule audit-unavailable: the knowledge base is open read-only "
                    "and its read log cannot be written, so the policy verdict cannot be "
                    "recorded", verdict=Verdict(Effect.DENY, "audit-unavailable",
                                                g.policy_version, "read log unwritable"),
                    request_id=g.request_id)
            return False
        g.n_events += len(rows)
        return True

    @staticmethod
    def enforce(g: Grant) -> Grant:
        v = g.verdict
        if v.effect is Effect.DENY:
            raise PolicyDenied(f"{g.action} denied for subject {g.subject.id!r} by rule "
                               f"{v.rule_id} (policy {v.policy_version}): {v.reason}",
                               verdict=v, request_id=g.request_id)
        if v.effect is Effect.STEP_UP:
            raise StepUpRequired(f"{g.action} needs an attestation (rule {v.rule_id}, policy "
                                 f"{v.policy_version}): pass attestation= or --attest TEXT",
                                 verdict=v, action=g.action, request_id=g.request_id)
        return g

    def authorize(self, action: str, *, resource: Resource | None = None,
                  detail: dict | None = None) -> Grant:
        g = self.plan(action, resource=resource, detail=detail)
        self.record(g)
        return self.enforce(g)


def _rank(v: Verdict) -> int:
    return {Effect.ALLOW: 0, Effect.STEP_UP: 1, Effect.DENY: 2}[v.effect]
