"""Ingestion as a user relies on it: transactional, idempotent, versioned, traceable."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import hyrag
from hyrag.errors import IngestFailed, StoreError
from tests.conftest import SAMPLE


def test_every_sample_table_becomes_a_typed_table(business_kb):
    tables = set(business_kb.tables()["table_name"])
    for name in ("sales", "customers", "expenses", "inventory", "hr", "marketing",
                 "financials_wide", "erp_revenue", "crm_revenue"):
        assert name in tables
    rows = business_kb.sql("SELECT count(*) AS n FROM sales").rows
    src = pd.read_csv(SAMPLE / "sales.csv")
    assert rows[0][0] == len(src)
    total = business_kb.sql("SELECT round(sum(revenue), 2) FROM sales").rows[0][0]
    assert total == pytest.approx(round(src["revenue"].sum(), 2))


def test_cell_claim_traces_to_file_row_column_and_address(business_kb):
    src = pd.read_csv(SAMPLE / "sales.csv")
    first = src.iloc[0]
    got = business_kb.sql(
        "SELECT text, value_num, locator, cell, row_num FROM claims "
        f"WHERE kind = 'cell' AND entity = '{first['order_id']}' AND attribute = 'revenue'"
    ).rows
    assert len(got) == 1
    text, value, locator, cell, row = got[0]
    assert value == pytest.approx(first["revenue"])
    loc = json.loads(locator)
    assert loc["file"] == "sales.csv" and loc["row"] == 2 and loc["column"] == "revenue"
    col_index = list(src.columns).index("revenue")
    assert cell == f"{chr(65 + col_index)}2" and row == 2
    assert first["order_id"] in text and "revenue" in text


def test_claim_ids_are_content_hashes_identical_across_knowledge_bases(tmp_path):
    ids = []
    for name in ("a", "b"):
        with hyrag.open(tmp_path / name) as kb:
            kb.ingest(SAMPLE / "marketing.csv")
            ids.append(
                [r[0] for r in kb.sql("SELECT claim_id FROM claims ORDER BY claim_id",
                                      row_cap=100000).rows]
            )
    assert ids[0] == ids[1]
    assert len(set(ids[0])) == len(ids[0])
    assert all(len(i) == 16 for i in ids[0])


def test_wide_financial_statement_is_melted_with_scale_and_sign(business_kb):
    rows = business_kb.sql(
        "SELECT entity, attribute, time_key, value_text, value_num, scale, unit, value_base, "
        "cell FROM claims WHERE table_name = 'financials_wide' AND attribute = 'Revenue' "
        "AND time_key = '2024Q1'"
    ).rows
    assert len(rows) == 1
    entity, attribute, tk, vt, vn, scale, unit, base, cell = rows[0]
    assert entity == "Northwind Traders"
    assert vt == "1,410.2" and vn == pytest.approx(1410.2)
    assert scale == "thousand" and unit == "USD" and base == pytest.approx(1_410_200)
    assert cell is not None and cell.endswith("4")
    periods = {r[0] for r in business_kb.sql(
        "SELECT DISTINCT period FROM financials_wide").rows}
    assert {"2023Q1", "2024Q4", "2023", "2024"} <= periods
    neg = business_kb.sql(
        "SELECT value_text, value_num FROM claims WHERE table_name = 'financials_wide' "
        "AND value_text LIKE '(%' LIMIT 1").rows
    assert neg and neg[0][1] < 0


def test_conflicting_sources_are_linked_not_merged(business_kb):
    c = business_kb.conflicts()
    got = {(r.entity, r.time_key, r.value_a, r.value_b) for r in c.itertuples()}
    # sample_data/README.md documents exactly these three disagreements
    assert len(got) == 3
    assert {(e, t) for e, t, _, _ in got} == {
        ("North", "2023Q4"), ("East", "2024Q2"), ("West", "2024Q4")}
    counts = business_kb.sql(
        "SELECT kind, count(*) FROM claim_links WHERE kind IN ('supports', 'contradicts') "
        "GROUP BY kind ORDER BY kind").rows
    assert dict(counts) == {"contradicts": 3, "supports": 45}
    flagged = business_kb.sql(
        "SELECT count(*) FROM claims WHERE contradict > 0").rows[0][0]
    assert flagged == 6


def test_aggregates_cite_their_component_cells(business_kb):
    src = pd.read_csv(SAMPLE / "sales.csv", parse_dates=["order_date"])
    q = src[(src.order_date.dt.year == 2024) & (src.order_date.dt.quarter == 1)
            & (src.region == "North")]
    row = business_kb.sql(
        "SELECT claim_id, value_num FROM claims WHERE kind = 'aggregate' "
        "AND table_name = 'sales' AND entity = 'North' AND attribute = 'total revenue' "
        "AND time_key = '2024Q1'").rows
    assert len(row) == 1
    cid, value = row[0]
    assert value == pytest.approx(q["revenue"].sum())
    comps = business_kb.sql(
        "SELECT c.entity FROM claim_links l JOIN claims c ON c.claim_id = l.dst "
        f"WHERE l.src = '{cid}' AND l.kind = 'derived_from'", row_cap=10000).rows
    assert sorted(r[0] for r in comps) == sorted(q["order_id"])


def test_a_total_over_cells_of_different_units_states_its_first_rows(tmp_path):
    """"4th" and "2nd" sum to 6 in 2009; the total is stated in the first row's unit, the
    same whichever order the store adds the rows in."""
    path = tmp_path / "places.csv"
    path.write_text("Year,Event,Position\n2009,A,4th\n2009,B,2nd\n2010,C,1st\n2010,D,3rd\n",
                    encoding="utf-8")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(path)
        rows = kb.sql("SELECT time_key, value_text, unit FROM claims WHERE kind = 'aggregate' "
                      "AND attribute = 'total Position' AND entity = 'places' "
                      "ORDER BY time_key").rows
    assert rows == [("2009", "6", "th"), ("2010", "4", "st")]


def test_reingesting_identical_file_changes_nothing(kb_copy):
    before = kb_copy.store.logical_state()
    report = kb_copy.ingest(SAMPLE / "sales.csv")
    assert report.status == "unchanged"
    assert kb_copy.store.logical_state() == before


def test_changed_file_supersedes_previous_version(tmp_path):
    f = tmp_path / "prices.csv"
    f.write_text("sku,price\nA-1,10\nA-2,20\n")
    with hyrag.open(tmp_path / "kb") as kb:
        r1 = kb.ingest(f)
        f.write_text("sku,price\nA-1,11\nA-2,20\n")
        r2 = kb.ingest(f)
        assert (r1.status, r2.status) == ("ingested", "new_version")
        assert r2.tables == r1.tables
        assert kb.sql("SELECT price FROM prices ORDER BY sku").rows == [(11.0,), (20.0,)]
        cur = kb.sql("SELECT value_num FROM claims WHERE entity = 'A-1' AND NOT superseded").rows
        old = kb.sql("SELECT value_num FROM claims WHERE entity = 'A-1' AND superseded").rows
        assert cur == [(11.0,)] and old == [(10.0,)]
        st = kb.sql("SELECT version, status FROM sources ORDER BY version").rows
        assert st == [(1, "superseded"), (2, "current")]
        links = kb.sql("SELECT count(*) FROM claim_links WHERE kind = 'supersedes'").rows
        assert links[0][0] == 2


@pytest.mark.parametrize(
    "step", ["supersede", "cells", "table:sales_copy", "text", "links"]
)
def test_failure_mid_file_leaves_store_unchanged(kb_copy, tmp_path, step):
    f = tmp_path / "sales_copy.csv"
    lines = (SAMPLE / "sales.csv").read_text().splitlines()
    first = lines[-1].split(",")[0]
    lines.append(lines[-1].replace(first, first + "X"))  # new bytes: not a duplicate source
    f.write_text("\n".join(lines) + "\n")
    before = kb_copy.store.logical_state()

    def boom(name: str) -> None:
        if name == step:
            raise RuntimeError(f"injected failure at {name}")

    kb_copy._ingestor.step_hook = boom
    with pytest.raises(IngestFailed) as err:
        kb_copy.ingest(f)
    assert "sales_copy.csv" in str(err.value)
    assert kb_copy.store.logical_state() == before
    kb_copy._ingestor.step_hook = None
    assert kb_copy.ingest(f).status == "ingested"


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("empty.csv", b"", "empty"),
        ("blank.csv", b"\n\n  \n", "empty"),
        ("corrupt.xlsx", b"this is not a zip file at all" * 10, "corrupt.xlsx"),
        ("locked.xlsx", bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 600, "password"),
        ("binary.csv", b"\x00\x01\x02garbage\x00" * 50, "binary.csv"),
        ("notes.docx", b"PK\x03\x04", "no reader"),
    ],
)
def test_bad_files_raise_named_errors_and_change_nothing(kb_copy, tmp_path, name, content, needle):
    f = tmp_path / name
    f.write_bytes(content)
    before = kb_copy.store.logical_state()
    with pytest.raises(IngestFailed) as err:
        kb_copy.ingest(f)
    assert name in str(err.value)
    assert needle.lower() in str(err.value).lower()
    assert kb_copy.store.logical_state() == before


def test_broken_sample_row_is_reported_with_its_line(kb_copy):
    before = kb_copy.store.logical_state()
    with pytest.raises(IngestFailed) as err:
        kb_copy.ingest(SAMPLE / "broken" / "orders_broken.csv")
    assert err.value.row == 9
    assert "orders_broken.csv" in str(err.value) and "row 9" in str(err.value)
    assert kb_copy.store.logical_state() == before


def test_dataframe_ingestion_and_identity(tmp_path):
    df = pd.DataFrame(
        {"store": ["S1", "S2", "S3"], "month": ["2024-01", "2024-01", "2024-02"],
         "sales": [100.5, 200.0, 150.25]}
    )
    with hyrag.open(tmp_path / "kb") as kb:
        r = kb.ingest(df, name="Store Sales")
        assert r.tables == ("store_sales",)
        assert kb.ingest(df.copy(), name="Store Sales").status == "unchanged"
        assert kb.sql("SELECT sum(sales) FROM store_sales").rows[0][0] == pytest.approx(450.75)
        with pytest.raises(IngestFailed, match="name="):
            kb.ingest(df)


def test_table_name_collision_gets_suffix_not_overwrite(tmp_path):
    a = tmp_path / "a" / "data.csv"
    b = tmp_path / "b" / "data.csv"
    a.parent.mkdir()
    b.parent.mkdir()
    a.write_text("k,v\nx,1\n")
    b.write_text("k,v\ny,2\n")
    with hyrag.open(tmp_path / "kb") as kb:
        assert kb.ingest(a).tables == ("data",)
        assert kb.ingest(b).tables == ("data_2",)
        assert kb.sql("SELECT v FROM data").rows == [(1.0,)]


def test_reserved_names_are_not_shadowed(tmp_path):
    f = tmp_path / "claims.csv"
    f.write_text("id,amount\nA,1\n")
    with hyrag.open(tmp_path / "kb") as kb:
        assert kb.ingest(f).tables == ("t_claims",)


def test_newer_schema_version_is_refused(tmp_path):
    with hyrag.open(tmp_path / "kb") as kb:
        kb.store.con.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match="upgrade HyRAG"):
        hyrag.open(tmp_path / "kb")


def test_read_only_open_of_missing_kb_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="no knowledge base"):
        hyrag.open(tmp_path / "nothing", read_only=True)


def test_schema_feedback_loop_records_reclassification(tmp_path):
    rows = ["code,score"] + [f"R{i},{i}" for i in range(150)] + [f"R{i},n/a-{i}" for i in range(150, 400)]
    f = tmp_path / "scores.csv"
    f.write_text("\n".join(rows) + "\n")
    s = hyrag.Settings(dry_run_rows=400)
    with hyrag.open(tmp_path / "kb", settings=s) as kb:
        kb.ingest(f)
        adj = kb.adjustments()
        assert list(adj["column_name"]) == ["score"]
        assert adj.iloc[0]["from_role"] == "numeric"
        assert "parse as numbers" in adj.iloc[0]["reason"]


def test_logical_state_sees_a_single_changed_value(kb_copy):
    # `claims` is a view: a plain table's cell claim is stored narrow, in `cell_claims`
    before = kb_copy.store.logical_state()
    kb_copy.store.con.execute(
        "UPDATE cell_claims SET value_num = value_num + 1 WHERE claim_id = "
        "(SELECT min(claim_id) FROM cell_claims WHERE value_num IS NOT NULL)"
    )
    after = kb_copy.store.logical_state()
    assert after["cell_claims"][0] == before["cell_claims"][0]
    assert after["cell_claims"][1] != before["cell_claims"][1]
    assert {k: v for k, v in after.items() if k != "cell_claims"} == {
        k: v for k, v in before.items() if k != "cell_claims"}


def test_statement_with_change_column_dashes_and_blank_label_ingests(tmp_path):
    """A financial table with an 'Increase / (Decrease)' column holding dashes and a row with
    an empty label once aborted the transaction (NULL claim text); every cell must land."""
    df = pd.DataFrame(
        {"item": ["Selling, general and administrative", "", "Loss from operations"],
         "2019": ["$24.9", "0.1", "$(25.0)"], "2018": ["$33.5", "0.1", "$(33.6)"],
         "Increase / (Decrease)": ["$(8.6)", "\u2014", "$8.6"]})
    with hyrag.open(tmp_path / "kb") as kb:
        report = kb.ingest(df, name="sga")
        texts = [r[0] for r in kb.sql("SELECT text FROM claims WHERE kind = 'cell'").rows]
        assert report.claims == len(texts) == 8
        assert "sga sga: Selling, general and administrative Increase / (Decrease) was $(8.6) USD." in texts
        blank = kb.sql("SELECT attribute FROM claims WHERE time_key = '2019' "
                       "AND value_num = 0.1").rows
        assert blank == [("2019",)]  # the empty label falls back to the column header
