"""`hyrag bench tables`: the table-model audit names what a reader of the table would not do."""

from __future__ import annotations

from pathlib import Path

from hyrag.bench.tables import audit, unnamed_rows
from hyrag.cli import main
from ingest.tablemodel import CellArrays, ModelColumn, ModelRow, TableModel


def _model(rows: list[ModelRow], columns: list[ModelColumn], cells: list[tuple]) -> TableModel:
    arrays = CellArrays(*(tuple(x) for x in zip(*cells, strict=True)))
    return TableModel(source="t.csv", name="t", sheet=None, page=None, title=None,
                      rows=tuple(rows), columns=tuple(columns), arrays=arrays)


def test_each_check_names_the_rows_and_columns_it_finds() -> None:
    cols = [ModelColumn(1, "A", ("Segment",), None, "categorical"),
            ModelColumn(2, "B", ("2019 ¥m",), None, "numeric"),
            ModelColumn(3, "C", ("Change",), None, "categorical")]
    rows = [ModelRow(2, ("Retail", "3.7%"), "data", None),
            ModelRow(3, (), "data", None)]
    cells = [(0, 0, "Retail", None, "", ""), (0, 1, "12", 12.0, "million", ""),
             (0, 2, "3.7%", None, "", ""), (1, 1, "40", 40.0, "million", "")]
    found = audit(_model(rows, cols, cells))
    assert found["unnamed_rows"] == ["row 3"]
    assert found["figures_in_row_paths"] == ["row 2: Retail > 3.7%"]
    assert found["unread_period_headers"] == ["columns ['2019 ¥m']"]
    assert found["figure_columns_as_text"][0].startswith("column Change")


def test_a_list_s_rows_may_be_named_by_years_and_ranks() -> None:
    cols = [ModelColumn(1, "A", ("Year",), None, "categorical"),
            ModelColumn(2, "B", ("Team",), None, "categorical"),
            ModelColumn(3, "C", ("Points",), None, "numeric")]
    rows = [ModelRow(2, ("1998", "Ajax"), "data", None)]
    cells = [(0, 0, "1998", None, "", ""), (0, 1, "Ajax", None, "", ""), (0, 2, "7", 7.0, "", "")]
    assert audit(_model(rows, cols, cells)) == {}


def test_a_well_read_table_has_no_findings() -> None:
    cols = [ModelColumn(1, "A", ("",), None, "categorical"),
            ModelColumn(2, "B", ("2019",), "2019", "numeric")]
    rows = [ModelRow(2, ("Revenue",), "data", "2019"), ModelRow(3, (), "total", "2019")]
    cells = [(0, 0, "Revenue", None, "", ""), (0, 1, "12", 12.0, "", ""),
             (1, 1, "12", 12.0, "", "")]
    assert audit(_model(rows, cols, cells)) == {}
    assert unnamed_rows(_model(rows, cols, cells)) == []  # a total needs no name


def test_the_command_audits_files_through_kb_ingest(tmp_path: Path, capsys) -> None:
    (tmp_path / "tax.csv").write_text(",2019,2018\nCurrent: Federal,1139,1294\n"
                                      "Current: State,428,423\n,1567,1717\n", encoding="utf-8")
    assert main(["bench", "tables", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "table model audit: 1 tables (1 report tables) from 1 files" in out
    assert "unnamed_rows                 0 tables" in out  # the unlabelled sum is a total
