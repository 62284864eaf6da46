"""`claims` as a view (schema version 5): a plain table's cell claims are stored narrow and their
sentence, locator and address are written on read. What users see must not change: the same
ids (CONTRACT.md's recipe), the same text and locators, queryable through the SQL route, stable
across re-ingest; a store written before the change is migrated, never read wrongly."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest

import hyrag
from hyrag.errors import SqlRejected, StoreError
from hyrag.ingestion import file_sha256
from hyrag.store import DB_FILE, claim_id
from tests.conftest import SAMPLE

PRICES = "sku,region,price\nA-1,North,10\nA-2,South,20.5\n"


def _claims(kb) -> dict[str, tuple]:
    rows = kb.store.con.execute(
        "SELECT claim_id, text, locator, cell, value_num, kind FROM claims").fetchall()
    return {r[0]: r[1:] for r in rows}


def test_csv_cell_claims_are_queryable_with_text_locator_and_contract_ids(tmp_path):
    f = tmp_path / "prices.csv"
    f.write_text(PRICES)
    sha, _ = file_sha256(f)
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(f)
        res = kb.sql("SELECT claim_id, text, locator, cell, row_num, column_name FROM claims "
                     "WHERE kind = 'cell' AND entity = 'A-2' ORDER BY cell")
        # stored narrow, not as whole rows
        assert kb.store.count("SELECT count(*) FROM cell_claims") == 4
        assert kb.store.count("SELECT count(*) FROM claim_rows WHERE kind = 'cell'") == 0
    by_cell = {r[3]: r for r in res.rows}
    assert set(by_cell) == {"B3", "C3"}
    cid, text, locator, _, row, column = by_cell["C3"]
    assert text == "prices A-2 (region South): price was 20.5."
    assert locator == '{"file":"prices.csv","row":3,"column":"price","cell":"C3"}'
    assert (row, column) == (3, "price")
    # CONTRACT.md: first 16 hex digits of sha256 over (source sha256, kind, locator)
    assert cid == claim_id(sha, "cell", json.loads(locator))


def test_cell_claim_ids_are_stable_across_knowledge_bases(tmp_path):
    path = SAMPLE / "sales.csv"
    with hyrag.open(tmp_path / "a") as a, hyrag.open(tmp_path / "b") as b:
        b.ingest(SAMPLE / "hr.csv")  # another file first: ids depend on content only
        a.ingest(path)
        b.ingest(path)
        got_a = {k: v for k, v in _claims(a).items() if v[0].startswith("sales ")}
        got_b = {k: v for k, v in _claims(b).items() if v[0].startswith("sales ")}
    assert got_a and got_a == got_b


def test_claim_storage_is_not_readable_by_sql(tmp_path):
    f = tmp_path / "prices.csv"
    f.write_text(PRICES)
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(f)
        assert kb.sql("SELECT count(*) FROM claims").rows == [(4,)]
        assert kb.sql("SELECT count(*) FROM attributes").rows == [(4,)]
        for name in ("cell_claims", "cell_rows", "cell_columns", "claim_rows"):
            with pytest.raises(SqlRejected):
                kb.sql(f"SELECT * FROM {name}")


def test_new_version_supersedes_narrow_cells(tmp_path):
    f = tmp_path / "prices.csv"
    f.write_text(PRICES)
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(f)
        f.write_text(PRICES.replace("20.5", "21"))
        kb.ingest(f)
        old = kb.sql("SELECT value_text FROM claims WHERE cell = 'C3' AND superseded").rows
        new = kb.sql("SELECT value_text FROM claims WHERE cell = 'C3' AND NOT superseded").rows
        assert (old, new) == ([("20.5",)], [("21",)])
        links = kb.sql("SELECT count(*) FROM claim_links WHERE kind = 'supersedes'").rows
        assert links == [(4,)]


def test_agreement_and_conflict_counters_of_narrow_cells(tmp_path):
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(SAMPLE / "conflicts" / "erp_revenue.csv")
        kb.ingest(SAMPLE / "conflicts" / "crm_revenue.csv")
        counted = kb.sql(
            "SELECT count(*) FILTER (WHERE contradict > 0), count(*) FILTER (WHERE support > 0) "
            "FROM claims WHERE kind = 'cell'").rows[0]
        links = kb.sql("SELECT count(*) FILTER (WHERE kind = 'contradicts'), "
                       "count(*) FILTER (WHERE kind = 'supports') FROM claim_links").rows[0]
    assert counted[0] > 0 and counted[1] > 0
    assert links[0] > 0 and links[1] > 0


def _as_version_4(folder) -> None:
    """Rewrite a store as HyRAG wrote it before claims became a view: one `claims` table."""
    con = duckdb.connect(str(folder / DB_FILE))
    try:
        con.execute("CREATE TABLE claims_v4 AS SELECT * FROM claims")
        con.execute("DROP VIEW attributes")
        con.execute("DROP VIEW claims")
        for t in ("claim_rows", "cell_claims", "cell_rows", "cell_columns"):
            con.execute(f"DROP TABLE {t}")
        con.execute("ALTER TABLE claims_v4 RENAME TO claims")
        con.execute("""CREATE VIEW attributes AS
            SELECT item_id, attribute, value_text, value_num, unit, scale, value_base,
                   time_key, order_key, claim_id, superseded
            FROM claims WHERE kind = 'cell'""")
        con.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    finally:
        con.close()


def test_a_store_written_before_the_view_is_refused_read_only_then_migrated(tmp_path):
    f = tmp_path / "prices.csv"
    f.write_text(PRICES)
    kb_dir = tmp_path / "kb"
    with hyrag.open(kb_dir) as kb:
        kb.ingest(SAMPLE / "marketing.csv")
        kb.ingest(f)
        before = _claims(kb)
    _as_version_4(kb_dir)
    with pytest.raises(StoreError, match=r"schema version 4.*open it read-write once"):
        hyrag.open(kb_dir, read_only=True)
    with hyrag.open(kb_dir) as kb:  # migrates: every old claim kept whole, as it was
        assert _claims(kb) == before
        assert kb.store.count("SELECT count(*) FROM cell_claims") == 0
        f.write_text(PRICES.replace("20.5", "21"))
        kb.ingest(f)  # the new version's cells are narrow; the old rows are superseded
        assert kb.store.count("SELECT count(*) FROM cell_claims") == 4
        old = kb.sql("SELECT value_text FROM claims WHERE cell = 'C3' AND superseded").rows
        assert old == [("20.5",)]
        links = kb.sql("SELECT count(*) FROM claim_links WHERE kind = 'supersedes'").rows
        assert links == [(4,)]
    shutil.rmtree(kb_dir)


def test_a_negated_sentence_negates_a_narrow_cell_claim(tmp_path):
    f = tmp_path / "staff.csv"
    f.write_text("university,headcount,year\nNorthgate University,2310,2024\n"
                 "Crestwood College,1200,2024\n")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(f)
        rep = kb.ingest_text(["Northgate University does not disclose its headcount."],
                             source="overview")
        rows = kb.sql(
            "SELECT a.text, b.kind, b.entity, b.attribute, b.value_num, b.cell "
            "FROM claim_links l JOIN claims a ON a.claim_id = l.src "
            "JOIN claims b ON b.claim_id = l.dst WHERE l.kind = 'negates'").rows
    assert rep.links == 1
    assert rows == [("[negated] Northgate University does not disclose its headcount.", "cell",
                     "Northgate University", "headcount", 2310.0, "B2")]
