"""The table model in the store: `table_cells`, one row per non-empty cell of a table.

Written in the ingest transaction with the table's claims (`Ingestor._write_table`), deleted
with the table when its source is superseded, and read back as the `ingest.tablemodel`
dataclasses. Governed subjects read it through a view filtered by their sources
(`hyrag.policy.views.FILTERED_BY_SOURCE`), like every other engine table keyed by source.
"""

from __future__ import annotations

import duckdb
import pandas as pd

from ingest.tablemodel import ModelCell, TableModel

COLUMNS = ("table_name", "source_id", "row_no", "col_no", "address", "text", "value",
           "row_path", "col_path", "period", "scale", "unit", "row_kind", "role")


def insert(con: duckdb.DuckDBPyConnection, table_name: str, source_id: str,
           model: TableModel | None) -> int:
    """Write a table's model; returns the number of cells written (0 without a model)."""
    if model is None or not model.cells:
        return 0
    frame = pd.DataFrame({
        "table_name": table_name, "source_id": source_id,
        "row_no": [c.row for c in model.cells], "col_no": [c.column for c in model.cells],
        "address": [c.address for c in model.cells], "text": [c.text for c in model.cells],
        "value": [c.value for c in model.cells],
        "row_path": [list(c.row_path) for c in model.cells],
        "col_path": [list(c.col_path) for c in model.cells],
        "period": [c.period for c in model.cells], "scale": [c.scale for c in model.cells],
        "unit": [c.unit for c in model.cells], "row_kind": [c.row_kind for c in model.cells],
        "role": [c.role for c in model.cells]})
    con.register("hyrag_table_cells_frame", frame)
    try:
        con.execute(f"INSERT INTO table_cells SELECT {', '.join(COLUMNS)} "
                    "FROM hyrag_table_cells_frame")
    finally:
        con.unregister("hyrag_table_cells_frame")
    return len(frame)


def load(con: duckdb.DuckDBPyConnection, table_name: str) -> TableModel | None:
    """The model of one typed table as stored (None when the table has none), in file order."""
    meta = con.execute(
        "SELECT s.uri, k.sheet, k.page, k.title FROM kb_tables k JOIN sources s "
        "USING (source_id) WHERE k.table_name = ?", [table_name]).fetchone()
    if meta is None:
        return None
    rows = con.execute(
        "SELECT row_no, col_no, address, text, value, row_path, col_path, period, scale, unit, "
        "row_kind, role FROM table_cells WHERE table_name = ? ORDER BY row_no, col_no",
        [table_name]).fetchall()
    cells = tuple(ModelCell(row=r[0], column=r[1], address=r[2], text=r[3], value=r[4],
                            row_path=tuple(r[5]), col_path=tuple(r[6]), period=r[7],
                            scale=r[8], unit=r[9], row_kind=r[10], role=r[11]) for r in rows)
    return TableModel(source=meta[0], name=table_name, sheet=meta[1], page=meta[2],
                      title=meta[3], cells=cells)
