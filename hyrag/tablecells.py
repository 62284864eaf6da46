"""The table model in the store: `table_rows`, `table_columns` and `table_cells`.

A table's rows (path, kind, period) and columns (header levels, period, role) are stored once
each and its non-empty cells as (row, column, text, value, scale, unit) — a million cells are a
million narrow rows, not a million copies of their paths. Written in the ingest transaction
with the table's claims (`Ingestor._write_table`), deleted with the table when its source is
superseded, and read back as `ingest.tablemodel.TableModel`. Governed subjects read the three
tables through views filtered by their sources (`hyrag.policy.views.FILTERED_BY_SOURCE`).
"""

from __future__ import annotations

import duckdb
import pandas as pd

from ingest.tablemodel import CellArrays, ModelColumn, ModelRow, TableModel

MODEL_TABLES = ("table_rows", "table_columns", "table_cells")


def insert(con: duckdb.DuckDBPyConnection, table_name: str, source_id: str,
           model: TableModel | None) -> int:
    """Write a table's model; returns the number of cells written (0 without a model)."""
    if model is None:
        return 0
    rows = pd.DataFrame({
        "table_name": table_name, "source_id": source_id,
        "row_idx": range(len(model.rows)), "row_no": [r.row for r in model.rows],
        "row_path": [list(r.path) for r in model.rows],
        "row_kind": [r.kind for r in model.rows],
        "period": pd.Series([r.period for r in model.rows], dtype=object),
        "headings": [r.headings for r in model.rows]})
    cols = pd.DataFrame({
        "table_name": table_name, "source_id": source_id,
        "col_idx": range(len(model.columns)), "col_no": [c.column for c in model.columns],
        "letter": pd.Series([c.letter for c in model.columns], dtype=object),
        "col_path": [list(c.path) for c in model.columns],
        "period": pd.Series([c.period for c in model.columns], dtype=object),
        "role": [c.role for c in model.columns]})
    a = model.arrays
    cells = pd.DataFrame({
        "table_name": table_name, "source_id": source_id, "row_idx": a.row, "col_idx": a.column,
        "text": a.text, "value": pd.Series(a.value, dtype="Float64"), "scale": a.scale,
        "unit": a.unit})
    for name, frame in zip(MODEL_TABLES, (rows, cols, cells), strict=True):
        if frame.empty:
            continue
        view = f"hyrag_{name}_frame"
        con.register(view, frame)
        try:
            con.execute(f"INSERT INTO {name} SELECT * FROM {view}")
        finally:
            con.unregister(view)
    return len(cells)


def delete(con: duckdb.DuckDBPyConnection, table_name: str) -> None:
    """Remove a table's model (its source was superseded)."""
    for name in MODEL_TABLES:
        con.execute(f"DELETE FROM {name} WHERE table_name = ?", [table_name])


def load(con: duckdb.DuckDBPyConnection, table_name: str) -> TableModel | None:
    """The model of one typed table as stored (None when the table has none)."""
    meta = con.execute(
        "SELECT s.uri, k.sheet, k.page, k.title FROM kb_tables k JOIN sources s "
        "USING (source_id) WHERE k.table_name = ?", [table_name]).fetchone()
    if meta is None:
        return None
    rows = tuple(ModelRow(row=r[0], path=tuple(r[1]), kind=r[2], period=r[3],
                          headings=r[4] or 0)
                 for r in con.execute(
                     "SELECT row_no, row_path, row_kind, period, headings FROM table_rows "
                     "WHERE table_name = ? ORDER BY row_idx", [table_name]).fetchall())
    cols = tuple(ModelColumn(column=c[0], letter=c[1], path=tuple(c[2]), period=c[3], role=c[4])
                 for c in con.execute(
                     "SELECT col_no, letter, col_path, period, role FROM table_columns "
                     "WHERE table_name = ? ORDER BY col_idx", [table_name]).fetchall())
    cells = con.execute(
        "SELECT row_idx, col_idx, text, value, scale, unit FROM table_cells "
        "WHERE table_name = ? ORDER BY row_idx, col_idx", [table_name]).fetchall()
    arrays = CellArrays(*(tuple(x) for x in zip(*cells, strict=True))) if cells else \
        CellArrays((), (), (), (), (), ())
    return TableModel(source=meta[0], name=table_name, sheet=meta[1], page=meta[2],
                      title=meta[3], rows=rows, columns=cols, arrays=arrays)
