"""Audit replay under the reader's own rules: what another request was shown, only as far as the
reader may see it.

An audit record holds what a request retrieved, committed and answered, and its context pack
holds the claims (text and values) that entered synthesis. A subject allowed `audit.read` is
therefore shown a request's data only where the reader's classification and source rules allow
the sources it came from:

* the decision events (`policy.*`) and the request's own words (`parse`, `route`) are shown;
* the context pack keeps the claims of sources the reader may read; every other claim becomes
  `{"claim_id", "withheld"}`;
* every other event (candidates, commitments, warrants, the answer text, ...) is shown whole
  only when every source the request could draw from (its recorded `policy.scope`) is readable
  by the reader; otherwise its payload is replaced by `{"withheld": reason}`. An event does not
  say which source each of its values came from, so it is shown whole or not at all.
"""

from __future__ import annotations

from typing import Any

# Events that carry the decision and the request's own text, never a source's content.
METADATA_EVENTS = frozenset({"policy.verdict", "policy.scope", "policy.step_up", "parse", "route"})


def redact_replay(events: list[dict], grant: Any) -> list[dict]:  # Grant
    """`events` as `hyrag.answer.audit.replay` returns them, for the reader of `grant`."""
    if grant.unrestricted:
        return events
    visible = frozenset(grant.allowed_sources)
    scope: set[str] | None = None
    for ev in events:
        p = ev.get("payload")
        if ev.get("kind") == "policy.scope" and isinstance(p, dict):
            scope = (scope or set()) | set(p.get("allowed_sources") or ())
    whole = scope is not None and scope <= visible
    reason = (f"withheld from subject {grant.subject.id!r}: drawn from sources its "
              f"classification and source rules do not allow (policy {grant.policy_version})")
    out: list[dict] = []
    for ev in events:
        kind = ev.get("kind")
        if whole or kind in METADATA_EVENTS:
            out.append(ev)
        elif kind == "context_pack" and isinstance(ev.get("payload"), dict):
            p = dict(ev["payload"])
            p["claims"] = [c if isinstance(c, dict) and c.get("source_id") in visible
                           else {"claim_id": c.get("claim_id") if isinstance(c, dict) else None,
                                 "withheld": reason}
                           for c in p.get("claims") or []]
            out.append({**ev, "payload": p})
        else:
            out.append({**ev, "payload": {"withheld": reason}})
    return out
