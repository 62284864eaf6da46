"""The schema-evolution tracker (seed 003, section 4.3): verification failures per column,
persisted in the knowledge base (`schema_evolution`, migration 2), so that signals survive
across queries and sessions.

Each failed verification increments the failure count of every (table, column) the failing
evidence came from. Once a column's count reaches the threshold (`tracker_threshold`, 3) the
tracker proposes a reclassification, deterministically from the column's inferred schema:

- a numeric column whose values keep failing grounding: "numeric -> check scale/unit" (its
  displayed values and their scale disagree with what answers quote — declare the scale or
  re-type it as text);
- a categorical or text column: "-> id" when it is mostly distinct, else "-> text";
- a time column: "time -> categorical" (its periods do not match the periods asked about).

`hyrag schema --suggestions` lists the proposals; nothing is changed until a person accepts one
(an LLM could propose instead, seed 003; the count and the threshold stay in code).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `suggestions` returns a frame (DuckDB builds it); nothing else needs pandas
    import pandas as pd

TABLE = "schema_evolution"


class SchemaEvolutionTracker:
    def __init__(self, store, threshold: int = 3) -> None:  # hyrag.store.Store
        self.store = store
        self.threshold = threshold

    def record(self, table: str, column: str, reason: str = "") -> int:
        """Add one failure for (table, column); returns the new count. A read-only store
        appends the failure to its read log (`hyrag.readlog`), counted into the table by the
        next read-write open; a log that cannot be written records nothing."""
        if not self.store.read_only:
            return self.apply(table, column, reason)
        from hyrag import readlog

        with contextlib.suppress(readlog.ReadLogUnavailable):
            readlog.append(readlog.path_of(self.store),
                           [readlog.tracker_record(table, column, reason, self.threshold)])
        return self.count(table, column)

    def apply(self, table: str, column: str, reason: str = "") -> int:
        """`record` on a store open read-write: the row updated (or made) at once."""
        con = self.store.con
        row = con.execute(f"SELECT failures FROM {TABLE} WHERE table_name = ? AND "
                          "column_name = ?", [table, column]).fetchone()
        n = (int(row[0]) if row else 0) + 1
        proposal = self._proposal(table, column) if n >= self.threshold else None
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        if row:
            con.execute(f"UPDATE {TABLE} SET failures = ?, last_reason = ?, proposal = ?, "
                        "updated_at = ? WHERE table_name = ? AND column_name = ?",
                        [n, reason[:500], proposal, now, table, column])
        else:
            con.execute(f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [table, column, n, reason[:500], proposal, now, now])
        return n

    def _pending(self) -> dict[tuple[str, str], tuple[int, str]]:
        """Failures a read-only process logged and no read-write open has merged yet."""
        from hyrag import readlog

        return readlog.tracker_failures(readlog.path_of(self.store))

    def count(self, table: str, column: str) -> int:
        row = self.store.con.execute(f"SELECT failures FROM {TABLE} WHERE table_name = ? AND "
                                     "column_name = ?", [table, column]).fetchone()
        return (int(row[0]) if row else 0) + self._pending().get((table, column), (0, ""))[0]

    def suggestions(self) -> pd.DataFrame:
        """Columns whose failure count reached the threshold, with the proposed change (the
        read log's failures counted in, as the next merge will count them)."""
        sql = (f"SELECT table_name, column_name, failures, proposal, last_reason, updated_at "
               f"FROM {TABLE} WHERE failures >= ? ORDER BY failures DESC, table_name, "
               "column_name")
        pending = self._pending()
        if not pending:
            return self.store.con.cursor().execute(sql, [self.threshold]).df()
        cols = ["table_name", "column_name", "failures", "proposal", "last_reason", "updated_at"]
        rows = {(r[0], r[1]): list(r) for r in self.store.con.cursor().execute(
            sql.replace("WHERE failures >= ?", ""), []).fetchall()}
        for key, (n, reason) in pending.items():
            row = rows.setdefault(key, [*key, 0, None, "", None])
            row[2] += n
            row[4] = reason[:500]
            if row[2] >= self.threshold and row[3] is None:
                row[3] = self._proposal(*key)
        out = sorted((r for r in rows.values() if r[2] >= self.threshold),
                     key=lambda r: (-r[2], r[0], r[1]))
        from pandas import DataFrame

        return DataFrame(out, columns=cols)

    def _proposal(self, table: str, column: str) -> str:
        row = self.store.con.execute(
            "SELECT role, distinct_values, scale FROM schemas WHERE table_name = ? AND "
            "column_name = ? ORDER BY schema_version DESC LIMIT 1", [table, column]).fetchone()
        n_rows = self.store.con.execute("SELECT max(n_rows) FROM kb_tables WHERE table_name = ?",
                                        [table]).fetchone()
        role = row[0] if row else None
        if role is None:
            return "review: the column's values keep failing verification (no schema row: a " \
                   "melted line item — check its scale and unit)"
        if role == "numeric":
            return f"numeric -> check scale/unit (scale now '{row[2] or ''}'), or re-type as text"
        if role == "time":
            return "time -> categorical"
        if role in ("categorical", "text"):
            distinct, total = row[1] or 0, (n_rows[0] if n_rows and n_rows[0] else 0)
            if total and distinct >= 0.95 * total:
                return f"{role} -> id"
            return f"{role} -> text" if role == "categorical" else f"{role} -> categorical"
        return f"{role} -> review"
