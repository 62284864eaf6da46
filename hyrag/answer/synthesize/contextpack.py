"""The context pack (seed 002): the exact claims that entered synthesis, with their sources,
scores, the policy version and the verdict chain — an audit artifact, not a prompt convenience.

The CommitmentStore is the only context synthesis may read, so its facts *are* what the engine
saw. The pack stores each claim's text and value as they were, not just ids, so `hyrag audit
show ID` reproduces what the engine saw on that date even after a source is superseded.

`GovernedTrail` is the answer's audit trail continuing the request the PEP opened: same request
id, event numbers after the verdict events the PEP already wrote (so they sort first).
"""

from __future__ import annotations

import datetime as dt
import json

from hyrag.answer.audit import AuditTrail


class GovernedTrail(AuditTrail):
    def __init__(self, grant) -> None:  # hyrag.policy.Grant
        super().__init__(grant.subject.id)
        self.request_id = grant.request_id
        self.offset = grant.n_events
        self.grant = grant

    def add(self, kind: str, payload: object) -> None:
        seq = self.offset + len(self.events)
        self.events.append((f"{self.request_id}-{seq:03d}", kind,
                            dt.datetime.now(dt.UTC).replace(tzinfo=None),
                            json.dumps(payload, ensure_ascii=False, default=str)))


    def write(self, store) -> bool:
        ok = super().write(store)
        if ok:  # a CRAG retry's trail numbers its events after these
            self.grant.n_events = self.offset + len(self.events)
        return ok


def context_pack(facts, grant, reader=None) -> dict:
    """facts: the committed facts; grant: the request's `Grant` (None: ungoverned call);
    reader: the store as the subject sees it, to name each claim's source version."""
    ids = [f.claim_id for f in facts if not str(f.claim_id).startswith("sql:")]
    source_of: dict[str, str] = {}
    if ids and reader is not None:
        cur = reader.con.cursor().execute(
            f"SELECT claim_id, source_id FROM claims WHERE claim_id IN "
            f"({','.join('?' * len(ids))})", ids)
        source_of = dict(cur.fetchall())
    claims = []
    for f in facts:
        claims.append({
            "claim_id": f.claim_id, "requirement": f.requirement, "kind": f.kind,
            "source": f.source, "source_id": source_of.get(f.claim_id), "locator": f.locator,
            "text": f.text, "entity": f.entity, "attribute": f.attribute,
            "value_text": f.value_text, "unit": f.unit, "time_key": f.time_key,
            "score": f.score, "confidence": f.confidence, "warrant_query": f.warrant_query,
            "operands": list(f.operands),
        })
    return {
        "subject": grant.subject.id if grant else None,
        "policy_version": grant.policy_version if grant else None,
        "verdicts": grant.chain() if grant else [],
        "claims": claims,
    }
