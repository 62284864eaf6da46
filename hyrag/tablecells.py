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

from ingest.tablemodel import CellArrays, ModelColumn, ModelRow, TableModel

MODEL_TABLES = ("table_rows", "table_columns", "table_cells")


def insert(con: duckdb.DuckDBPyConnection, table_name: str, source_id: str,
           model: TableModel | None) -> int:
    """Write a table's model; returns the number of cells written (0 without a model).

    Arrow columns are built straight from the model's tuples: a pandas frame of a million
    Python objects took seconds to build and to scan, Arrow converts each tuple in one native
    pass and DuckDB reads it without a copy. The table's name and source, the same on every
    row, are bound as parameters of the INSERT rather than sent as columns: two arrays of a
    million copies of one string cost ~0.5 s to build on a 100,000 x 12 table."""
    if model is None:
        return 0
    import pyarrow as pa  # ingest only: reading a model back needs none

    text, texts = pa.string(), pa.list_(pa.string())

    rows, cols, a = model.rows, model.columns, model.arrays
    frames = (
        pa.table(dict(row_idx=pa.array(range(len(rows)), pa.int32()),
                      row_no=pa.array([r.row for r in rows], pa.int32()),
                      row_path=pa.array([r.path for r in rows], texts),
                      row_kind=pa.array([r.kind for r in rows], text),
                      period=pa.array([r.period for r in rows], text),
                      headings=pa.array([r.headings for r in rows], pa.int32()))),
        pa.table(dict(col_idx=pa.array(range(len(cols)), pa.int32()),
                      col_no=pa.array([c.column for c in cols], pa.int32()),
                      letter=pa.array([c.letter for c in cols], text),
                      col_path=pa.array([c.path for c in cols], texts),
                      period=pa.array([c.period for c in cols], text),
                      role=pa.array([c.role for c in cols], text))),
        pa.table(dict(row_idx=pa.array(a.row, pa.int32()),
                      col_idx=pa.array(a.column, pa.int32()), text=pa.array(a.text, text),
                      value=pa.array(a.value, pa.float64()), scale=pa.array(a.scale, text),
                      unit=pa.array(a.unit, text))),
    )
    for name, data in zip(MODEL_TABLES, frames, strict=True):
        if data.num_rows == 0:
            continue
        view = f"hyrag_{name}_frame"
        con.register(view, data)
        try:
            con.execute(f"INSERT INTO {name} SELECT CAST($1 AS VARCHAR), CAST($2 AS VARCHAR), * "
                        f"FROM {view}", [table_name, source_id])
        finally:
            con.unregister(view)
    return len(a.row)


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


def load_all(con: duckdb.DuckDBPyConnection, *, max_cells: int | None = None
             ) -> dict[str, TableModel]:
    """Every table's model as stored, in four queries rather than three per table (a knowledge
    base of hundreds of report tables loads in one pass). `max_cells`: tables with more
    non-empty cells are left out (a list of 100,000 rows is the SQL route's, not a reader's)."""
    sizes = dict(con.execute(
        "SELECT table_name, count(*) FROM table_cells GROUP BY table_name").fetchall())
    keep = {t for t, n in sizes.items() if max_cells is None or n <= max_cells}
    meta = {r[0]: r[1:] for r in con.execute(
        "SELECT k.table_name, s.uri, k.sheet, k.page, k.title FROM kb_tables k JOIN sources s "
        "USING (source_id)").fetchall() if r[0] in keep}
    rows: dict[str, list[ModelRow]] = {t: [] for t in meta}
    for r in con.execute("SELECT table_name, row_no, row_path, row_kind, period, headings "
                         "FROM table_rows ORDER BY table_name, row_idx").fetchall():
        if r[0] in rows:
            rows[r[0]].append(ModelRow(row=r[1], path=tuple(r[2]), kind=r[3], period=r[4],
                                       headings=r[5] or 0))
    cols: dict[str, list[ModelColumn]] = {t: [] for t in meta}
    for c in con.execute("SELECT table_name, col_no, letter, col_path, period, role "
                         "FROM table_columns ORDER BY table_name, col_idx").fetchall():
        if c[0] in cols:
            cols[c[0]].append(ModelColumn(column=c[1], letter=c[2], path=tuple(c[3]),
                                          period=c[4], role=c[5]))
    cells: dict[str, list[tuple]] = {t: [] for t in meta}
    names = sorted(meta)
    if names:
        for c in con.execute("SELECT table_name, row_idx, col_idx, text, value, scale, unit "
                             "FROM table_cells WHERE list_contains(?, table_name) "
                             "ORDER BY table_name, row_idx, col_idx", [names]).fetchall():
            cells[c[0]].append(c[1:])
    out = {}
    for t, (uri, sheet, page, title) in meta.items():
        cs = cells[t]
        arrays = CellArrays(*(tuple(x) for x in zip(*cs, strict=True))) if cs else \
            CellArrays((), (), (), (), (), ())
        out[t] = TableModel(source=uri, name=t, sheet=sheet, page=page, title=title,
                            rows=tuple(rows[t]), columns=tuple(cols[t]), arrays=arrays)
    return out
