"""The answer's audit trail (seed 000 F-8; DESIGN.md "audit"): one event per stage, per request.

Events are collected while the request runs (each with the time it happened) and appended to
the `audit` table in one batch when the answer is ready, so a request is recorded whole. A
read-only knowledge base cannot be written: the events stay on the answer (`audit_id` empty).
`replay` reads them back for `hyrag audit show ID`.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid


class AuditTrail:
    def __init__(self, subject: str = "default") -> None:
        self.request_id = uuid.uuid4().hex[:16]
        self.subject = subject
        self.events: list[tuple[str, str, dt.datetime, str]] = []

    def add(self, kind: str, payload: object) -> None:
        seq = len(self.events)
        self.events.append((f"{self.request_id}-{seq:03d}", kind,
                            dt.datetime.now(dt.UTC).replace(tzinfo=None),
                            json.dumps(payload, ensure_ascii=False, default=str)))

    def write(self, store) -> bool:  # noqa: ANN001
        if getattr(store, "read_only", False):
            return False
        rows = [(eid, self.request_id, ts, kind, self.subject, payload)
                for eid, kind, ts, payload in self.events]
        insert(store.con.cursor(), rows)
        return True


CHUNK = 200  # events per INSERT statement


def insert(cur, rows: list[tuple]) -> None:  # noqa: ANN001
    """Append audit rows (event_id, request_id, created_at, kind, subject, payload) with one
    multi-row INSERT per `CHUNK` rows: DuckDB's `executemany` runs (and commits) one
    statement per row — ~3 ms each, 30-50 ms per answer of ~15 events."""
    for i in range(0, len(rows), CHUNK):
        part = rows[i:i + CHUNK]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(part))
        cur.execute("INSERT INTO audit (event_id, request_id, created_at, kind, subject, "
                    f"payload) VALUES {marks}", [x for r in part for x in r])


def replay(store, request_id: str) -> list[dict]:  # noqa: ANN001
    cur = store.con.cursor().execute(
        "SELECT event_id, created_at, kind, subject, payload FROM audit WHERE request_id = ? "
        "ORDER BY event_id", [request_id])
    out = []
    for eid, ts, kind, subject, payload in cur.fetchall():
        try:
            p = json.loads(payload) if payload else None
        except ValueError:
            p = payload
        out.append({"event_id": eid, "created_at": ts, "kind": kind, "subject": subject,
                    "payload": p})
    return out
