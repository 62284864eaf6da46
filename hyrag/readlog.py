"""What a read-only process must record, kept where it needs no write lock on the store.

DuckDB lets many processes open one database file read-only, or one process open it read-write,
never both. A command that only reads (`hyrag ask`, `sql`, `search`, `schema`, `audit show`, a
notebook's `hyrag.open(path, read_only=True)`) still has things to write: the request's audit
events (the policy verdicts and, for an answer, its whole trail) and the schema-evolution
tracker's failure counts. Taking the write lock for them would lock every other reader out, so
a read-only process appends them to this log beside the database file instead:

- one JSON object per line (`type` "audit" or "schema_evolution"), UTF-8;
- a request's records are written by one `write` on a descriptor opened with `O_APPEND`, under
  an exclusive `flock` and followed by `fsync`: concurrent processes interleave whole requests,
  never parts of lines, and a record that was acknowledged survives a crash;
- the next read-write open merges the log into the store (`merge`: audit rows inserted, tracker
  failures counted) in one transaction, then empties it; until then `kb.audit(id)` and
  `hyrag audit show` read the table and the log together, so a read-only answer's audit id is
  replayable at once.

The log is append-only like the `audit` table: nothing but `merge` removes a line, and it
removes only lines it committed to the store. It lives inside the knowledge-base folder, which
the SQL route cannot read (the connection has no file access).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

READLOG_FILE = "hyrag.readlog.jsonl"
# `meta` key holding "<bytes>:<sha256>" of the log prefix the last merge committed: a merge that
# committed but crashed before emptying the log skips that prefix next time, so no tracker
# failure is counted twice (audit rows are keyed by event id and would be ignored anyway).
META_MERGED = "readlog_merged"
AUDIT = "audit"
TRACKER = "schema_evolution"


class ReadLogUnavailable(OSError):
    """The log cannot be written (a folder the process may not write, a full disk)."""


def path_of(store: object) -> Path:
    """The log of a store (a `Store` or a subject's `GovernedStore`, which wraps one)."""
    base = getattr(store, "_store", store)
    return Path(base.folder) / READLOG_FILE  # type: ignore[attr-defined]


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat()


def audit_records(rows: Iterable[tuple]) -> list[dict]:
    """Audit rows (event_id, request_id, created_at, kind, subject, payload) as log records."""
    return [{"type": AUDIT, "event_id": eid, "request_id": rid,
             "created_at": ts.isoformat() if hasattr(ts, "isoformat") else str(ts),
             "kind": kind, "subject": subject, "payload": payload}
            for eid, rid, ts, kind, subject, payload in rows]


def tracker_record(table: str, column: str, reason: str, threshold: int) -> dict:
    """One verification failure of (table, column); `threshold` is the reader's setting, so
    the merge proposes a reclassification at the count this process would have."""
    return {"type": TRACKER, "table": table, "column": column, "reason": reason,
            "threshold": threshold, "created_at": _now()}


@contextlib.contextmanager
def _locked(path: Path, flags: int, lock: int) -> Iterator[int]:
    fd = os.open(path, flags | os.O_CLOEXEC, 0o666)
    try:
        fcntl.flock(fd, lock)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def append(path: Path, records: list[dict]) -> None:
    """Append records, all in one write: whole or (on an error) nothing acknowledged."""
    if not records:
        return
    data = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"
                   for r in records).encode("utf-8")
    try:
        with _locked(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, fcntl.LOCK_EX) as fd:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data  # a line a crash cut short stays a line of its own
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError:
                os.ftruncate(fd, size)  # no part of a request that was not recorded whole
                raise
    except OSError as e:
        raise ReadLogUnavailable(e.errno or errno.EIO,
                                 f"cannot append to {path}: {e.strerror or e}") from e


def _parse(data: bytes) -> Iterator[dict]:
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue  # a line a crash cut short: never acknowledged, so nothing is lost
        if isinstance(rec, dict):
            yield rec


def read(path: Path, *, contains: str | None = None) -> list[dict]:
    """Every record of the log (those whose line holds `contains`, when given)."""
    try:
        with _locked(path, os.O_RDONLY, fcntl.LOCK_SH) as fd:
            data = _read_all(fd)
    except FileNotFoundError:
        return []
    if contains is not None:
        needle = contains.encode("utf-8")
        data = b"\n".join(ln for ln in data.split(b"\n") if needle in ln)
    return list(_parse(data))


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _when(rec: dict) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(rec.get("created_at")))
    except ValueError:
        return None


def audit_rows(path: Path, request_id: str) -> list[tuple]:
    """One request's audit events from the log, as rows of the `audit` table."""
    out = []
    for r in read(path, contains=request_id):
        if r.get("type") != AUDIT or r.get("request_id") != request_id:
            continue
        out.append((r.get("event_id"), _when(r), r.get("kind"), r.get("subject"),
                    r.get("payload")))
    return out


def tracker_failures(path: Path) -> dict[tuple[str, str], tuple[int, str]]:
    """Failures per (table, column) the log holds: (count, last reason)."""
    out: dict[tuple[str, str], tuple[int, str]] = {}
    for r in read(path, contains=f'"type":"{TRACKER}"'):
        if r.get("type") != TRACKER:
            continue
        key = (str(r.get("table")), str(r.get("column")))
        out[key] = (out.get(key, (0, ""))[0] + 1, str(r.get("reason") or ""))
    return out


def merge(store) -> int:  # hyrag.store.Store, open read-write
    """Move the log into the store: audit rows inserted (an event id already there is kept
    as it is), tracker failures counted; one transaction, then the log is emptied. Returns how
    many records were merged. Runs under the log's exclusive lock, so a record appended
    meanwhile is either merged or left for the next merge, never lost."""
    path = path_of(store)
    if not path.exists():
        return 0
    with _locked(path, os.O_RDWR, fcntl.LOCK_EX) as fd:
        data = whole = _read_all(fd)
        if not data:
            return 0
        done = store.meta(META_MERGED)
        if done:
            n, _, digest = done.partition(":")
            if len(data) >= int(n) and hashlib.sha256(data[:int(n)]).hexdigest() == digest:
                data = data[int(n):]
        records = list(_parse(data))
        audit = [(r.get("event_id"), r.get("request_id"), _when(r), r.get("kind"),
                  r.get("subject"), r.get("payload"))
                 for r in records if r.get("type") == AUDIT and r.get("event_id")]
        failures = [r for r in records if r.get("type") == TRACKER]
        con = store.con
        con.execute("BEGIN TRANSACTION")
        try:
            _insert_new(con, audit)
            if failures:
                from hyrag.answer.verify.tracker import SchemaEvolutionTracker

                for r in failures:
                    SchemaEvolutionTracker(store, int(r.get("threshold") or 3)).apply(
                        str(r.get("table")), str(r.get("column")), str(r.get("reason") or ""))
            store.set_meta(META_MERGED, f"{len(whole)}:{hashlib.sha256(whole).hexdigest()}")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
        os.ftruncate(fd, 0)
        os.fsync(fd)
    return len(records)



CHUNK = 200  # rows per INSERT statement (as `hyrag.answer.audit.insert`)


def _insert_new(con, rows: list[tuple]) -> None:
    """Insert audit rows whose event id the table does not hold yet."""
    for i in range(0, len(rows), CHUNK):
        part = [(eid, rid, ts or dt.datetime.now(dt.UTC).replace(tzinfo=None), kind, subj, p)
                for eid, rid, ts, kind, subj, p in rows[i:i + CHUNK]]
        marks = ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(part))
        con.execute("INSERT OR IGNORE INTO audit (event_id, request_id, created_at, kind, "
                    f"subject, payload) VALUES {marks}", [x for r in part for x in r])
