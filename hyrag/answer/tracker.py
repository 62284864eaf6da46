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

import datetime as dt
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # `suggestions` returns a frame (DuckDB builds it); nothing else needs pandas
    import pandas as pd

TABLE = "schema_evolution"


class SchemaEvolutionTracker:
    def __init__(self, store, threshold: int = 3) -> None:  # noqa: ANN001 - hyrag.store.Store
        self.store = store
        self.threshold = threshold

    def record(self, table: str, column: str, reason: str = "") -> int:
        """Add one failure for (table, column); returns the new count. A read-only store
        records nothing (returns the current count)."""
        con = self.store.con
        row = con.execute(f"SELECT failures FROM {TABLE} WHERE table_name = ? AND "
                          "column_name = ?", [table, column]).fetchone()
        if self.store.read_only:
            return int(row[0]) if row else 0
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

    def count(self, table: str, column: str) -> int:
        row = self.store.con.execute(f"SELECT failures FROM {TABLE} WHERE table_name = ? AND "
                                     "column_name = ?", [table, column]).fetchone()
        return int(row[0]) if row else 0

    def suggestions(self) -> pd.DataFrame:
        """Columns whose failure count reached the threshold, with the proposed change."""
        return self.store.con.cursor().execute(
            f"SELECT table_name, column_name, failures, proposal, last_reason, updated_at "
            f"FROM {TABLE} WHERE failures >= ? ORDER BY failures DESC, table_name, column_name",
            [self.threshold]).df()

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
