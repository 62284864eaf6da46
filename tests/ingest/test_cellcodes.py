"""Columns coded by their distinct cells (`ingest.cellcodes`): what the table model and the
section headings read once per distinct cell must be what they read per cell."""

from __future__ import annotations

import datetime as dt

from ingest.cellcodes import code_column
from ingest.cells import cell_text
from ingest.types import RawTable


def test_cells_equal_in_python_but_of_other_types_stay_apart() -> None:
    """1, 1.0 and True compare equal, yet read "1", "1" and "TRUE"; None and NaN differ too."""
    cells = [1, True, 1.0, None, float("nan"), "1", 1, None]
    col = code_column(cells)
    decoded = [col.values[k] for k in col.codes]
    assert all(type(a) is type(b) and (a is b or a == b)
               for a, b in zip(decoded, cells, strict=True))
    assert col.texts.tolist() == [cell_text(c) for c in cells]
    assert col.empty.tolist() == [False, False, False, True, False, False, False, True]


def test_a_column_of_strings_reads_as_cell_by_cell() -> None:
    cells = ["North", None, "  spaced  out ", "North", "", dt.date(2024, 1, 2)]
    col = code_column(cells)
    assert col.texts.tolist() == [cell_text(c) for c in cells]
    assert col.read(lambda v: v is None, bool).tolist() == [c is None for c in cells]
    some = col.any_where(lambda v: v == "North", [True, True, True, False, True, True])
    assert some.tolist() == [True, False, False, False, False, False]


def test_a_table_is_coded_once() -> None:
    t = RawTable("a.csv", "a", ("x", "y"), (("1", None), ("2", "b")), (2, 3), (1, 2))
    assert t.coded is t.coded
    assert [c.texts.tolist() for c in t.coded] == [["1", "2"], ["", "b"]]
