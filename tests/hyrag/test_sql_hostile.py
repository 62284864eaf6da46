"""Hostile SQL against the SQL route: names that DuckDB's binder resolves differently from the
guard (CTE shadowing of catalog relations, Unicode case folds), the plan check behind the guard,
and the limits every statement runs under (time, memory).

Each case reads something a caller may not read (`audit`, a system view, a denied table) or ran
past the time limit on c683b67."""

from __future__ import annotations

import time
from pathlib import Path

import duckdb
import pytest

import hyrag
from hyrag.errors import HyragError, SettingsError, SqlRejected, SqlTimeout
from hyrag.policy import parse_policy
from hyrag.sql import PlanScope, check_sql, run_query
from hyrag.sql.execute import (
    INTERRUPT_GRACE_S,
    SQL_MEMORY_LIMIT,
    SQL_TEMP_DIRECTORY_LIMIT,
)
from hyrag.sql.guard import REASON_CTE_NAME, REASON_IDENTIFIER, REASON_PLAN

SECRET = "zz-secret-audit-payload"


def _system_views() -> list[str]:
    con = duckdb.connect()
    try:
        return sorted({r[0] for r in con.execute(
            "SELECT view_name FROM duckdb_views() WHERE internal").fetchall()})
    finally:
        con.close()


# Relations a CTE must not shadow: the audit log under spellings DuckDB accepts (case, quotes),
# and every system view DuckDB has (sqlite_master, duckdb_databases, pg_settings, ...).
SHADOWED = ["audit", "AUDIT", '"Audit"', *_system_views()]

# Shapes in which DuckDB binds a CTE's inner name to the catalog relation, not the CTE.
SHAPES = [
    "WITH RECURSIVE {n} AS (SELECT * FROM {n}) SELECT * FROM {n}",
    "WITH RECURSIVE {n} AS (SELECT * FROM {n}) SELECT count(*) FROM {n}",
    "WITH RECURSIVE {n} AS (SELECT * FROM {n} UNION SELECT * FROM {n}) SELECT * FROM {n}",
    "WITH RECURSIVE {n} AS (SELECT * FROM (SELECT * FROM {n}) x) SELECT * FROM {n}",
    "WITH w AS (WITH RECURSIVE {n} AS (SELECT * FROM {n}) SELECT * FROM {n}) SELECT * FROM w",
    "SELECT * FROM (WITH RECURSIVE {n} AS (SELECT * FROM {n}) SELECT * FROM {n}) q",
    "WITH {n} AS (SELECT 1 AS x) SELECT * FROM {n}",
    "WITH RECURSIVE a AS (SELECT 1 AS x), {n} AS (SELECT * FROM {n}) SELECT * FROM {n}",
]


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / "kb_sales.csv").write_text("region,amount\nnorth,10\nsouth,20\n")
    with hyrag.open(root / "kb") as kb:
        kb.ingest(root / "kb_sales.csv")
        kb.store.con.execute(
            f"INSERT INTO audit VALUES ('e1', NULL, now(), 'secret', NULL, '{SECRET}')")
    return root / "kb"


@pytest.fixture()
def kb(kb_dir: Path):
    k = hyrag.open(kb_dir)
    yield k
    k.close()


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", SHADOWED)
def test_a_cte_named_after_a_catalog_relation_is_refused(kb, shape: str, name: str) -> None:
    with pytest.raises(SqlRejected) as e:
        kb.sql(shape.format(n=name))
    assert e.value.reason == REASON_CTE_NAME
    assert SECRET not in str(e.value)


def test_a_cte_named_after_an_allowed_table_is_refused(kb) -> None:
    with pytest.raises(SqlRejected) as e:
        kb.sql("WITH RECURSIVE kb_sales AS (SELECT 1 AS x) SELECT * FROM kb_sales")
    assert e.value.reason == REASON_CTE_NAME


@pytest.mark.parametrize("sql", [
    'WITH "\u212ab_sales" AS (SELECT 1 AS x) SELECT * FROM kb_sales',  # Kelvin sign
    'WITH RECURSIVE "\u212ab_sales" AS (SELECT 1 AS x) SELECT * FROM "kb_sales"',
    'WITH "audİt" AS (SELECT 1 AS x) SELECT * FROM audit',  # dotted capital I
    'SELECT * FROM "\u212ab_sales"',
    'WITH "Ä" AS (SELECT 1 AS x) SELECT * FROM "ä"',
])
def test_identifiers_python_and_duckdb_fold_differently_are_refused(kb, sql: str) -> None:
    with pytest.raises(SqlRejected) as e:
        kb.sql(sql)
    assert e.value.reason == REASON_IDENTIFIER


def test_ascii_case_still_matches(kb) -> None:
    assert kb.sql("SELECT count(*) FROM KB_SALES").rows == [(2,)]
    assert kb.sql('WITH T AS (SELECT * FROM "Kb_Sales") SELECT count(*) FROM t').rows == [(2,)]


@pytest.mark.parametrize("sql", [
    "WITH RECURSIVE audit AS (SELECT * FROM audit) SELECT * FROM audit",
    "WITH RECURSIVE sqlite_master AS (SELECT * FROM sqlite_master) SELECT * FROM sqlite_master",
    "WITH RECURSIVE duckdb_databases AS (SELECT * FROM duckdb_databases) "
    "SELECT * FROM duckdb_databases",
])
def test_the_plan_check_alone_refuses_what_the_binder_reads(kb, sql: str) -> None:
    """The second layer on its own: without the catalog's names the sqlglot guard takes the
    inner name for the CTE and accepts; DuckDB's plan shows the real relation, and the plan
    check refuses it."""
    readable = kb.store.readable_tables()
    guarded = check_sql(sql, readable)  # no reserved names: the guard is fooled
    db = kb.store.con.execute("SELECT current_database()").fetchone()[0]
    with pytest.raises(SqlRejected) as e:
        run_query(kb.store.con, guarded, row_cap=10, timeout_s=5,
                  scope=PlanScope.of(db, "main", readable))
    assert e.value.reason == REASON_PLAN
    assert SECRET not in str(e.value)


def test_an_endless_recursive_cte_read_plainly_is_bounded_in_time(kb) -> None:
    """Read plainly, an endless recursive CTE either stops at the row cap (DuckDB streams its
    first rows) or at the deadline — never past it (c683b67 returned after 59 s)."""
    t0 = time.perf_counter()
    try:
        r = kb.sql("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) "
                   "SELECT * FROM t", timeout_s=0.5)
    except SqlTimeout:
        pass
    else:
        assert r.truncated and len(r.rows) == 1000
    assert time.perf_counter() - t0 < 0.5 + INTERRUPT_GRACE_S + 1.5


def test_a_long_scalar_expression_returns_at_the_deadline(kb) -> None:
    """One scalar value DuckDB cannot interrupt mid-way: the caller still gets SqlTimeout on
    time (c683b67 waited until the value was built)."""
    t0 = time.perf_counter()
    with pytest.raises(SqlTimeout):
        kb.sql("SELECT length(repeat('x', 400000000)) AS n", timeout_s=0.2)
    assert time.perf_counter() - t0 < 0.2 + INTERRUPT_GRACE_S + 0.8


def test_memory_and_spill_limits_are_set_on_the_store(kb) -> None:
    ref = duckdb.connect()
    ref.execute(f"SET memory_limit = '{SQL_MEMORY_LIMIT}'")
    ref.execute(f"SET max_temp_directory_size = '{SQL_TEMP_DIRECTORY_LIMIT}'")
    q = "SELECT current_setting('memory_limit'), current_setting('max_temp_directory_size')"
    assert kb.store.con.execute(q).fetchone() == ref.execute(q).fetchone()
    ref.close()


@pytest.mark.parametrize("cap", [0, -1, True, 2.5])
def test_a_bad_row_cap_is_a_clear_error(kb, cap: object) -> None:
    with pytest.raises(SettingsError, match="row_cap"):
        kb.sql("SELECT 1", row_cap=cap)  # type: ignore[arg-type]


def test_row_cap_one_means_one(kb) -> None:
    r = kb.sql("SELECT * FROM range(5)", row_cap=1)
    assert len(r.rows) == 1 and r.truncated


# -- under a policy: denied typed tables ------------------------------------------------------

POLICY = """
version = "hostile-1"

[subjects.ana]
roles = ["analyst"]
tenant = "default"
entitlements = ["internal"]

[[rules]]
id = "analysts-query"
effect = "allow"
actions = ["schema", "search", "ask", "sql"]
roles = ["analyst"]

[[rules]]
id = "classified-needs-entitlement"
effect = "deny"
classifications = ["confidential"]
entitled = false
"""


@pytest.fixture(scope="module")
def governed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile_gov")
    (root / "orders.csv").write_text("region,amount\nnorth,10\nsouth,20\n")
    (root / "bank_keys.csv").write_text("owner,pin\nkim,4821\nkai,9377\n")
    with hyrag.open(root / "kb") as kb:
        kb.ingest(root / "orders.csv")
        kb.ingest(root / "bank_keys.csv", classification="confidential")
    return root / "kb"


@pytest.mark.parametrize("sql", [
    "WITH RECURSIVE bank_keys AS (SELECT * FROM bank_keys) SELECT * FROM bank_keys",
    "WITH RECURSIVE orders AS (SELECT * FROM bank_keys) SELECT * FROM orders",
    'WITH "ban\u212a_keys" AS (SELECT 1 AS x) SELECT * FROM bank_keys',
    "WITH RECURSIVE audit AS (SELECT * FROM audit) SELECT * FROM audit",
    "SELECT * FROM bank_keys",
])
def test_a_restricted_subject_never_reads_a_denied_table(governed_dir: Path, sql: str) -> None:
    kb = hyrag.open(governed_dir, subject="ana", policy=parse_policy(POLICY, origin="t"))
    try:
        with pytest.raises(HyragError) as e:
            kb.sql(sql)
        assert "4821" not in str(e.value)
        assert kb.sql("SELECT count(*) FROM orders").rows == [(2,)]
    finally:
        kb.close()
