"""AutoAdaptAgent + SchemaFeedbackLoop: golden schemas for every sample table, and the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ingest.schema import Role, SchemaOptions, infer_schema, safe_identifier, unique_identifiers
from ingest.typed import prepare_table
from ingest.types import RawTable
from tests.data.make_golden_schemas import golden

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden_schemas.json"


def _raw(header, rows, name="t", title=None):
    return RawTable(
        source=f"{name}.csv", name=name, header=tuple(header), rows=tuple(map(tuple, rows)),
        row_locs=tuple(range(2, len(rows) + 2)), col_locs=tuple(range(1, len(header) + 1)),
        title=title,
    )


def test_inferred_schemas_match_the_reviewed_golden_file():
    expected = json.loads(GOLDEN.read_text())
    got = golden()
    assert sorted(got) == sorted(expected)
    for key in expected:
        assert got[key] == expected[key], key


def test_roles_from_values_and_header_cues():
    rows = [[f"C{i:03d}", f"2024-0{1 + i % 9}-1{i % 9}", ["North", "South"][i % 2],
             f"{1000 + i * 7.5:,.2f}", f"Customer number {i} in the records"]
            for i in range(60)]
    s = infer_schema(_raw(["customer_id", "order_date", "region", "amount", "comment"], rows))
    roles = {c.name: c.role for c in s.columns}
    assert roles == {"customer_id": Role.ID, "order_date": Role.TIME, "region": Role.CATEGORICAL,
                     "amount": Role.NUMERIC, "comment": Role.TEXT}
    assert s.id_column == "customer_id" and s.time_column == "order_date"


def test_foreign_key_column_is_categorical_not_id():
    rows = [[f"O{i}", f"C{i % 7}", i] for i in range(40)]
    s = infer_schema(_raw(["order_id", "customer_id", "units"], rows))
    assert s.column("order_id").role is Role.ID
    assert s.column("customer_id").role is Role.CATEGORICAL


def test_year_column_with_time_name_is_time_but_plain_integers_are_numbers():
    rows = [[2020 + i % 5, 2000 + i] for i in range(30)]
    s = infer_schema(_raw(["fiscal_year", "units"], rows))
    assert s.column("fiscal_year").role is Role.TIME
    assert s.column("units").role is Role.NUMERIC


def test_feedback_loop_demotes_a_numeric_column_that_stops_parsing():
    rows = [[f"R{i}", str(i)] for i in range(60)] + [[f"R{i}", f"see note {i}"] for i in range(60, 200)]
    s = infer_schema(_raw(["row_id", "score"], rows), SchemaOptions(infer_rows=50, dry_run_rows=200))
    assert s.column("score").role is not Role.NUMERIC
    [adj] = s.adjustments
    assert (adj.column, adj.from_role, adj.to_role) == ("score", Role.NUMERIC, Role.TEXT)
    assert "30%" in adj.reason


def test_id_must_be_unique_over_the_whole_table_not_just_the_dry_run():
    rows = [[f"K{i}", i] for i in range(300)] + [["K5", 1]]
    s = infer_schema(_raw(["key", "v"], rows), SchemaOptions(infer_rows=50, dry_run_rows=100))
    assert s.column("key").role is Role.CATEGORICAL
    assert any(a.reason == "values repeat in the table" for a in s.adjustments)


def test_entity_without_id_is_the_smallest_distinguishing_label_set():
    rows = [[r, p, q, 1.0] for r in ("North", "South") for p in ("A", "B") for q in ("2024Q1", "2024Q2")]
    s = infer_schema(_raw(["region", "product", "quarter", "revenue"], rows))
    assert s.id_column is None
    assert s.entity_columns == ("region", "product")


def test_number_cleaning_in_typed_columns():
    rows = [["A", "$1,234.50"], ["B", "(2,500)"], ["C", "12.5%"], ["D", "N/A"], ["E", "3.4m"],
            ["F", "€980"], ["G", "1 250"], ["H", "-7"]]
    t = prepare_table(_raw(["deal", "value"], rows))
    f = t.frame
    assert list(f["value__num"].astype(object).where(f["value__num"].notna(), None)) == [
        1234.5, -2500.0, 12.5, None, 3.4, 980.0, 1250.0, -7.0]
    assert list(f["value__text"])[:3] == ["$1,234.50", "(2,500)", "12.5%"]
    assert f["value__scale"][4] == "million" and f["value__base"][4] == pytest.approx(3.4e6)
    assert f["value__unit"][0] == "USD" and f["value__unit"][5] == "EUR"
    assert any("mixed scales" in n for n in t.notes)


def test_unparseable_period_is_reported_never_guessed():
    rows = [[f"R{i}", f"2024Q{1 + i % 4}", i] for i in range(20)] + [["R99", "sometime", 5]]
    t = prepare_table(_raw(["row_id", "quarter", "v"], rows))
    assert pd.isna(t.frame["quarter"].iloc[-1])
    assert any("'sometime'" in n and "row 22" in n for n in t.notes)


def test_wide_table_with_period_headers_is_melted_with_cell_addresses():
    raw = _raw(["Line item", "Q1 2024", "Q2 2024", "FY2024"],
               [["Revenue", "1,000", "1,100", "4,300"], ["Net income", "(50)", "20", "(10)"]],
               name="pl", title="Acme Corp - P&L (USD thousands)")
    t = prepare_table(raw)
    assert t.melted
    f = t.frame
    assert list(f["period"]) == ["2024Q1", "2024Q2", "2024"] * 2
    assert list(f["__cell"]) == ["B2", "C2", "D2", "B3", "C3", "D3"]
    assert list(f["__attribute"])[:1] == ["Revenue"]
    assert set(f["__entity"]) == {"Acme Corp"}
    assert f["value__num"][3] == -50 and f["value__scale"][0] == "thousand"
    assert f["value__unit"][0] == "USD"


def test_measure_and_period_in_one_header_are_split():
    raw = _raw(["Region", "Revenue 2023", "Revenue 2024", "Units 2024", "Growth %"],
               [["North", 10, 12, 100, 0.2], ["South", 8, 9, 80, 0.125]])
    t = prepare_table(raw)
    assert t.melted
    f = t.frame
    north = f[f["region"] == "North"]
    pairs = [(a, None if pd.isna(p) else p)
             for a, p in zip(north["__attribute"], north["period"], strict=True)]
    assert pairs == [("Revenue", "2023"), ("Revenue", "2024"), ("Units", "2024"), ("Growth %", None)]


def test_a_date_column_does_not_make_a_table_wide():
    raw = _raw(["order_id", "order_date", "amount"], [["A", "2024-01-01", 3], ["B", "2024-02-01", 4]])
    assert not prepare_table(raw).melted


@pytest.mark.parametrize(("text", "ident"), [
    ("Revenue (USD m)", "revenue_usd_m"), ("2023", "c_2023"), ("  ", "column"),
    ("Société Générale", "soci_t_g_n_rale"), ("a--b", "a_b"),
])
def test_safe_identifiers(text, ident):
    assert safe_identifier(text) == ident


def test_duplicate_headers_become_unique():
    assert unique_identifiers(["Revenue", "revenue", "", ""]) == [
        "revenue", "revenue_2", "column_3", "column_4"]


def test_a_dash_under_a_currency_sign_is_a_nil_amount():
    # "$—" in a statement is nil, as a bare "—" is: the column of amounts stays numeric
    from ingest.cells import is_empty

    assert is_empty("$—") and is_empty("$ -") and is_empty("€–")
    assert not is_empty("$") and not is_empty("$5") and not is_empty("-5")
    rows = [["Bonds", "$—"], ["Notes", "$14,234"], ["Bills", "416"], ["Total", "$14,650"],
            ["Other", "$—"]]
    s = infer_schema(_raw(["item", "unrealized_gains"], rows))
    assert s.column("unrealized_gains").role is Role.NUMERIC
