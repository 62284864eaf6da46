"""The answer's audit trail (seed 000 F-8; DESIGN.md "audit"): one event per stage, per request.

Events are collected while the request runs (each with the time it happened) and appended to
the `audit` table in one batch when the answer is ready, so a request is recorded whole. A
read-only knowledge base appends the batch to its read log instead (`hyrag.readlog`: one write,
no lock on the store, merged into the table by the next read-write open); only when that log
cannot be written either do the events stay on the answer alone (`audit_id` empty). `replay`
reads the table and the log together for `hyrag audit show ID`.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid

from hyrag import readlog


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

    def write(self, store) -> bool:
        rows = [(eid, self.request_id, ts, kind, self.subject, payload)
                for eid, kind, ts, payload in self.events]
        return append(store, rows)


CHUNK = 200  # events per INSERT statement


def append(store, rows: list[tuple]) -> bool:  # Store or GovernedStore
    """Record audit rows: into the table on a read-write store (one statement per `CHUNK`
    rows, inside one transaction when there are more), into the read log on a read-only one.
    False when a read-only store's log cannot be written (the caller decides what that means:
    under a policy the request is refused)."""
    if getattr(store, "read_only", False):
        try:
            readlog.append(readlog.path_of(store), readlog.audit_records(rows))
        except readlog.ReadLogUnavailable:
            return False
        return True
    cur = store.con.cursor()
    if len(rows) <= CHUNK:  # one INSERT statement: written whole or not at all
        insert(cur, rows)
        return True
    cur.execute("BEGIN TRANSACTION")
    try:
        insert(cur, rows)
    except BaseException:
        cur.execute("ROLLBACK")
        raise
    cur.execute("COMMIT")
    return True


def insert(cur, rows: list[tuple]) -> None:
    """Append audit rows (event_id, request_id, created_at, kind, subject, payload) with one
    multi-row INSERT per `CHUNK` rows: DuckDB's `executemany` runs (and commits) one
    statement per row — ~3 ms each, 30-50 ms per answer of ~15 events."""
    for i in range(0, len(rows), CHUNK):
        part = rows[i:i + CHUNK]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(part))
        cur.execute("INSERT INTO audit (event_id, request_id, created_at, kind, subject, "
                    f"payload) VALUES {marks}", [x for r in part for x in r])


def replay(store, request_id: str) -> list[dict]:
    """One request's events in order, from the table and the read log (a read-only process's
    request not merged yet); an event in both is read from the table."""
    rows = store.con.cursor().execute(
        "SELECT event_id, created_at, kind, subject, payload FROM audit WHERE request_id = ? "
        "ORDER BY event_id", [request_id]).fetchall()
    seen = {r[0] for r in rows}
    pending = [r for r in readlog.audit_rows(readlog.path_of(store), request_id)
               if r[0] not in seen]
    if pending:
        rows = sorted([*rows, *pending], key=lambda r: str(r[0]))
    out = []
    for eid, ts, kind, subject, payload in rows:
        try:
            p = json.loads(payload) if payload else None
        except ValueError:
            p = payload
        out.append({"event_id": eid, "created_at": ts, "kind": kind, "subject": subject,
                    "payload": p})
    return out
