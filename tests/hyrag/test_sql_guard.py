"""The SQL route's guard and executor: hostile statements refused with the right reason, analyst
statements accepted and actually runnable, row cap, timeout, typed errors, and a hardened
connection that refuses file access even for SQL that never went through the guard.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from hyrag.errors import SqlExecutionError, SqlRejected, SqlTimeout
from hyrag.settings import Settings
from hyrag.sql import QueryResult, check_sql, harden_connection, run_query

ALLOWED = ("sales", "regions", "claims")

# (id, statement, expected reason code)
HOSTILE: list[tuple[str, str, str]] = [
    # empty and stacked
    ("empty", "", "empty"),
    ("whitespace", "   \n\t ", "empty"),
    ("only-semicolons", " ; ; ", "empty"),
    ("only-comment", "-- SELECT 1", "empty"),
    ("stacked-drop", "SELECT 1; DROP TABLE sales", "multiple_statements"),
    ("stacked-after-line-comment", "SELECT 1; -- \n DROP TABLE sales", "multiple_statements"),
    ("stacked-two-selects", "SELECT 1; SELECT 2", "multiple_statements"),
    ("stacked-empty-middle", "SELECT 1;; DELETE FROM sales", "multiple_statements"),
    (
        "stacked-block-comment",
        "SELECT 1 /* ; */ ; /* x */ UPDATE sales SET amount = 0",
        "multiple_statements",
    ),
    ("stacked-string-then-drop", "SELECT 'a;b'; DROP TABLE regions", "multiple_statements"),
    # DDL / DML, with case and whitespace tricks
    ("drop", "DROP TABLE sales", "statement"),
    ("drop-mixed-case", "dRoP\n\tTaBlE   sales", "statement"),
    ("create-table-as", "CREATE TABLE x AS SELECT * FROM sales", "statement"),
    ("create-macro", "CREATE MACRO m() AS 1", "statement"),
    ("create-view", "create or replace view v as select 1", "statement"),
    ("alter", "ALTER TABLE sales ADD COLUMN x INT", "statement"),
    ("insert", "INSERT INTO sales SELECT * FROM sales", "statement"),
    ("update", "UPDATE sales SET amount = 0", "statement"),
    ("delete", "DELETE FROM sales", "statement"),
    ("delete-comment-prefix", "/* report */ DELETE FROM sales WHERE 1=1", "statement"),
    ("merge", "MERGE INTO sales USING regions ON true WHEN MATCHED THEN DELETE", "statement"),
    ("truncate", "TRUNCATE sales", "statement"),
    ("cte-delete", "WITH x AS (DELETE FROM sales RETURNING *) SELECT * FROM x", "statement"),
    (
        "cte-insert",
        "WITH x AS (INSERT INTO regions VALUES ('z','z') RETURNING *) SELECT 1",
        "statement",
    ),
    (
        "cte-update",
        "WITH x AS (UPDATE sales SET amount = 0 RETURNING id) SELECT * FROM x",
        "statement",
    ),
    ("select-into", "SELECT * INTO stolen FROM sales", "select_into"),
    ("for-update", "SELECT * FROM sales FOR UPDATE", "locking_clause"),
    # session, file and system statements
    ("copy-to", "COPY sales TO '/tmp/out.csv'", "statement"),
    ("copy-from", "COPY sales FROM '/etc/passwd'", "statement"),
    ("attach", "ATTACH '/tmp/other.db' AS other", "statement"),
    ("detach", "DETACH other", "statement"),
    ("install", "INSTALL httpfs", "statement"),
    ("load", "LOAD httpfs", "statement"),
    ("pragma", "PRAGMA database_list", "statement"),
    ("pragma-assign", "PRAGMA threads=1", "statement"),
    ("set", "SET enable_external_access = true", "statement"),
    ("set-lowercase-spaces", "set   lock_configuration=false", "statement"),
    ("reset", "RESET threads", "statement"),
    ("call", "CALL pragma_version()", "statement"),
    ("use", "USE memory", "statement"),
    ("vacuum", "VACUUM", "statement"),
    ("begin", "BEGIN TRANSACTION", "statement"),
    ("commit", "COMMIT", "statement"),
    ("describe", "DESCRIBE sales", "statement"),
    ("summarize", "SUMMARIZE SELECT * FROM read_csv('/etc/passwd')", "statement"),
    ("show", "SHOW TABLES", "statement"),
    ("describe-in-from", "SELECT * FROM (DESCRIBE sales)", "statement"),
    ("checkpoint", "CHECKPOINT", "not_a_query"),
    ("checkpoint-in-subquery", "SELECT * FROM (CHECKPOINT) AS s", "not_a_query"),
    ("pivot-statement", "PIVOT sales ON region USING sum(amount)", "not_a_query"),
    ("export", "EXPORT DATABASE '/tmp/dump'", "parse_error"),
    ("import", "IMPORT DATABASE '/tmp/dump'", "parse_error"),
    ("comment-inside-keyword", "SEL/**/ECT * FROM sales", "parse_error"),
    ("garbage", "SELECT FROM WHERE", "parse_error"),
    # table functions, in every position
    ("read-csv", "SELECT * FROM read_csv('/etc/passwd')", "table_function"),
    ("read-csv-auto-upper", "SELECT * FROM READ_CSV_AUTO('/etc/passwd')", "table_function"),
    ("read-parquet", "SELECT * FROM read_parquet('/tmp/x.parquet')", "table_function"),
    ("parquet-scan", "SELECT * FROM parquet_scan('/tmp/x.parquet')", "table_function"),
    ("read-json", "SELECT * FROM read_json_auto('/tmp/x.json')", "table_function"),
    ("read-text", "SELECT * FROM read_text('/etc/hostname')", "table_function"),
    ("read-blob", "SELECT * FROM read_blob('/etc/hostname')", "table_function"),
    ("glob", "SELECT * FROM glob('/etc/*')", "table_function"),
    ("sniff-csv", "SELECT * FROM sniff_csv('/etc/passwd')", "table_function"),
    ("iceberg", "SELECT * FROM iceberg_scan('s3://b/t')", "table_function"),
    ("delta", "SELECT * FROM delta_scan('/tmp/t')", "table_function"),
    ("sqlite", "SELECT * FROM sqlite_scan('/tmp/x.db', 't')", "table_function"),
    ("postgres", "SELECT * FROM postgres_scan('host=x', 'public', 't')", "table_function"),
    ("query", "SELECT * FROM query('SELECT 1')", "table_function"),
    ("query-table", "SELECT * FROM query_table('sales')", "table_function"),
    ("duckdb-settings", "SELECT * FROM duckdb_settings()", "table_function"),
    ("duckdb-tables", "SELECT * FROM duckdb_tables()", "table_function"),
    ("pragma-table-info", "SELECT * FROM pragma_table_info('sales')", "table_function"),
    (
        "read-csv-subquery",
        "SELECT * FROM sales WHERE id IN (SELECT * FROM read_csv('/etc/passwd'))",
        "table_function",
    ),
    ("read-csv-lateral", "SELECT * FROM sales, LATERAL read_csv('/etc/passwd')", "table_function"),
    (
        "read-csv-join",
        "SELECT * FROM sales s JOIN read_csv('/etc/passwd') r ON true",
        "table_function",
    ),
    (
        "read-csv-cte",
        "WITH f AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM f",
        "table_function",
    ),
    (
        "read-csv-union",
        "SELECT region FROM sales UNION ALL SELECT * FROM read_csv('/etc/passwd')",
        "table_function",
    ),
    (
        "read-csv-scalar-subquery",
        "SELECT (SELECT count(*) FROM read_csv('/etc/passwd'))",
        "table_function",
    ),
    (
        "qualified-table-function",
        "SELECT * FROM system.main.read_csv('/etc/passwd')",
        "qualified_table",
    ),
    # string literals and paths as tables
    ("string-table", "SELECT * FROM 'file.csv'", "file_reference"),
    ("string-table-abs", "SELECT * FROM '/etc/passwd.csv'", "file_reference"),
    ("quoted-path-table", 'SELECT * FROM "/tmp/data.parquet"', "file_reference"),
    ("url-table", "SELECT * FROM 'https://host.invalid/x.parquet'", "file_reference"),
    ("s3-table", "FROM 's3://bucket/key.csv'", "file_reference"),
    ("string-table-in-join", "SELECT * FROM sales JOIN 'x.csv' USING (id)", "file_reference"),
    # other tables, schemas and catalogs
    ("unknown-table", "SELECT * FROM audit", "table_not_allowed"),
    (
        "unknown-table-subquery",
        "SELECT * FROM sales WHERE id IN (SELECT id FROM audit)",
        "table_not_allowed",
    ),
    (
        "cte-out-of-scope",
        "SELECT * FROM (WITH q AS (SELECT 1) SELECT * FROM q) s, q",
        "table_not_allowed",
    ),
    (
        "cte-forward-reference",
        "WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a",
        "table_not_allowed",
    ),
    ("other-catalog", "SELECT * FROM other.main.sales", "qualified_table"),
    ("main-schema", "SELECT * FROM main.sales", "qualified_table"),
    ("information-schema", "SELECT * FROM information_schema.tables", "qualified_table"),
    ("pg-catalog", "SELECT * FROM pg_catalog.pg_class", "qualified_table"),
    ("system-catalog", "SELECT * FROM system.main.duckdb_settings", "qualified_table"),
    # scalar functions with side effects or system reach
    ("getenv", "SELECT getenv('HOME')", "function_not_allowed"),
    ("current-setting", "SELECT current_setting('home_directory')", "function_not_allowed"),
    ("nextval", "SELECT nextval('seq')", "function_not_allowed"),
    ("read-text-scalar", "SELECT length(read_text('/etc/hostname'))", "function_not_allowed"),
    ("write-log", "SELECT write_log('x')", "function_not_allowed"),
    ("unknown-function", "SELECT frobnicate(amount) FROM sales", "function_not_allowed"),
    ("schema-qualified-function", "SELECT main.lower(region) FROM sales", "function_not_allowed"),
    (
        "json-serialize-plan",
        "SELECT json_serialize_plan('SELECT * FROM read_csv(''/etc/passwd'')')",
        "function_not_allowed",
    ),
    ("getvariable", "SELECT getvariable('x')", "function_not_allowed"),
]

BENIGN: list[tuple[str, str]] = [
    ("simple", "SELECT * FROM sales"),
    ("from-first", "FROM sales"),
    ("upper-case-table", 'SELECT region FROM "SALES"'),
    ("trailing-semicolon", "SELECT count(*) FROM sales;"),
    ("trailing-comment", "SELECT count(*) FROM sales; -- that is all"),
    ("join", "SELECT s.id, r.manager FROM sales s JOIN regions r ON s.region = r.region"),
    ("left-join-using", "SELECT * FROM sales LEFT JOIN regions USING (region)"),
    (
        "group-by-having",
        "SELECT region, sum(amount) AS total FROM sales GROUP BY region HAVING sum(amount) > 10 ORDER BY total DESC",
    ),
    (
        "cte",
        "WITH t AS (SELECT region, amount FROM sales) SELECT region, avg(amount) FROM t GROUP BY ALL",
    ),
    (
        "cte-chain",
        "WITH a AS (SELECT * FROM sales), b AS (SELECT * FROM a WHERE amount > 5) SELECT count(*) FROM b",
    ),
    (
        "recursive-cte",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r",
    ),
    (
        "window",
        "SELECT id, amount, sum(amount) OVER (PARTITION BY region ORDER BY sold_on) AS running, row_number() OVER (ORDER BY amount DESC) AS rn FROM sales",
    ),
    (
        "qualify",
        "SELECT * FROM sales QUALIFY rank() OVER (PARTITION BY region ORDER BY amount DESC) = 1",
    ),
    ("union", "SELECT region FROM sales UNION SELECT region FROM regions"),
    (
        "intersect-except",
        "(SELECT region FROM sales INTERSECT SELECT region FROM regions) EXCEPT SELECT 'nowhere'",
    ),
    ("values", "VALUES (1, 'a'), (2, 'b')"),
    ("parenthesised", "(SELECT max(amount) FROM sales)"),
    (
        "date-functions",
        "SELECT date_trunc('month', sold_on) AS m, extract(year FROM sold_on) AS y, date_part('quarter', sold_on) AS q, strftime(sold_on, '%Y-%m') AS ym, sold_on + INTERVAL 1 DAY AS next_day FROM sales",
    ),
    ("date-diff", "SELECT date_diff('day', min(sold_on), max(sold_on)) FROM sales"),
    ("like-drop-table", "SELECT * FROM sales WHERE note LIKE '%DROP TABLE%'"),
    (
        "string-with-semicolons",
        "SELECT 'a; DROP TABLE sales; --' AS s, note FROM sales WHERE note <> ';'",
    ),
    ("string-read-csv", "SELECT 'read_csv(''/etc/passwd'')' AS not_a_call"),
    (
        "case-when",
        "SELECT CASE WHEN amount > 10 THEN 'big' ELSE 'small' END AS size, count(*) FROM sales GROUP BY 1",
    ),
    (
        "subquery-in-where",
        "SELECT * FROM sales WHERE region IN (SELECT region FROM regions WHERE manager LIKE 'A%')",
    ),
    (
        "exists",
        "SELECT * FROM regions r WHERE EXISTS (SELECT 1 FROM sales s WHERE s.region = r.region)",
    ),
    (
        "string-agg-list",
        "SELECT region, string_agg(product, ', ' ORDER BY product) AS products, list(id) AS ids FROM sales GROUP BY region",
    ),
    ("range-generator", "SELECT r.range AS n FROM range(3) r"),
    ("unnest", "SELECT unnest([1, 2, 3]) AS x"),
    ("quantiles", "SELECT median(amount), quantile_cont(amount, 0.9), stddev(amount) FROM sales"),
    ("mixed-case-keywords", "sElEcT ReGiOn, CoUnT(*) fRoM SaLeS gRoUp By ReGiOn"),
    ("comments-everywhere", "/* head */ SELECT /* cols */ id -- line\n FROM /* t */ sales"),
    ("cte-named-like-a-function", "WITH read_csv AS (SELECT 1 AS x) SELECT * FROM read_csv"),
    ("claims-text", "SELECT claim_id, text FROM claims WHERE text ILIKE '%revenue%'"),
    (
        "coalesce-cast",
        "SELECT coalesce(note, '-') AS note, CAST(amount AS DOUBLE) AS a, try_cast(note AS INTEGER) FROM sales",
    ),
]


@pytest.mark.parametrize(
    ("query", "reason"), [(q, r) for _, q, r in HOSTILE], ids=[i for i, _, _ in HOSTILE]
)
def test_hostile_statement_is_rejected_with_reason(query: str, reason: str) -> None:
    with pytest.raises(SqlRejected) as info:
        check_sql(query, ALLOWED)
    assert info.value.reason == reason, info.value.message
    assert info.value.message


def test_there_are_enough_cases() -> None:
    assert len(HOSTILE) >= 40
    assert len(BENIGN) >= 15
    assert len({i for i, _, _ in HOSTILE}) == len(HOSTILE)
    assert len({i for i, _ in BENIGN}) == len(BENIGN)


@pytest.mark.parametrize(
    ("query", "culprit"),
    [
        ("DROP TABLE sales", "DROP"),
        ("SELECT * FROM read_csv('/etc/passwd')", "read_csv"),
        ("SELECT * FROM audit", "audit"),
        ("SELECT getenv('HOME')", "getenv"),
        ("SELECT * FROM 'secret.csv'", "secret.csv"),
        ("SELECT * FROM other.main.sales", "other.main.sales"),
        ("WITH x AS (DELETE FROM sales RETURNING *) SELECT * FROM x", "DELETE"),
        ("SELECT 1; PRAGMA database_list", "PRAGMA"),
    ],
)
def test_rejection_message_names_the_culprit(query: str, culprit: str) -> None:
    with pytest.raises(SqlRejected) as info:
        check_sql(query, ALLOWED)
    assert culprit in info.value.message


def test_parse_error_carries_parser_message() -> None:
    with pytest.raises(SqlRejected) as info:
        check_sql("SELECT (1", ALLOWED)
    assert info.value.reason == "parse_error"
    assert "does not parse" in info.value.message
    assert "line 1" in info.value.message


@pytest.mark.parametrize("query", [q for _, q in BENIGN], ids=[i for i, _ in BENIGN])
def test_benign_statement_is_accepted_and_runs(query: str, kb: duckdb.DuckDBPyConnection) -> None:
    guarded = check_sql(query, ALLOWED)
    assert guarded.tables <= set(ALLOWED)
    # The regenerated SQL is what runs, so it must be valid DuckDB for every benign case.
    result = run_query(kb, guarded, row_cap=100, timeout_s=10.0)
    assert result.columns
    json.dumps(result.to_dict())


def test_guarded_query_reports_tables_and_normalised_sql() -> None:
    g = check_sql(
        "/* c */ with t as (select * from Sales) select * from t join REGIONS using (region);",
        ALLOWED,
    )
    assert g.tables == {"sales", "regions"}
    assert "/*" not in g.sql and ";" not in g.sql
    assert g.sql.startswith("WITH t AS")


def test_allowed_tables_compare_case_insensitively() -> None:
    assert check_sql("SELECT * FROM sales", ["SALES"]).tables == {"sales"}
    with pytest.raises(SqlRejected) as info:
        check_sql("SELECT * FROM sales", [])
    assert info.value.reason == "table_not_allowed"


# --------------------------------------------------------------------------- execution


@pytest.fixture
def kb(tmp_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(tmp_path / "hyrag.duckdb"))
    build_kb(con)
    harden_connection(con)
    yield con
    con.close()


def build_kb(con: duckdb.DuckDBPyConnection) -> None:
    """A small knowledge-base-like schema: a typed table, a lookup table and claims."""
    con.execute(
        "CREATE TABLE sales (id INTEGER, region VARCHAR, product VARCHAR, amount DECIMAL(12,2),"
        " sold_on DATE, note VARCHAR)"
    )
    con.execute(
        "INSERT INTO sales VALUES"
        " (1, 'north', 'widget', 12.50, DATE '2024-01-15', 'first sale'),"
        " (2, 'north', 'gadget', 7.25, DATE '2024-02-03', NULL),"
        " (3, 'south', 'widget', 30.00, DATE '2024-02-20', 'DROP TABLE sales; -- joke'),"
        " (4, 'east', 'gizmo', 4.00, DATE '2024-03-01', 'ok')"
    )
    con.execute("CREATE TABLE regions (region VARCHAR, manager VARCHAR)")
    con.execute("INSERT INTO regions VALUES ('north', 'Ada'), ('south', 'Bo'), ('west', 'Al')")
    con.execute("CREATE TABLE claims (claim_id VARCHAR, text VARCHAR, conf_base DOUBLE)")
    con.execute(
        "INSERT INTO claims VALUES ('c1', 'Northwind revenue in 2024Q1 was 1,250,000 USD', 0.95)"
    )


def test_row_cap_truncates(kb: duckdb.DuckDBPyConnection) -> None:
    g = check_sql("SELECT range AS n FROM range(50) ORDER BY n", ALLOWED)
    r = run_query(kb, g, row_cap=10, timeout_s=5.0)
    assert r.truncated is True
    assert len(r.rows) == 10
    assert [row[0] for row in r.rows] == list(range(10))
    exact = run_query(kb, check_sql("SELECT * FROM range(10)", ALLOWED), row_cap=10, timeout_s=5)
    assert exact.truncated is False and len(exact.rows) == 10


def test_settings_defaults_drive_the_route(kb: duckdb.DuckDBPyConnection) -> None:
    s = Settings()
    g = check_sql("SELECT * FROM range(2000)", ALLOWED)
    r = run_query(kb, g, row_cap=s.sql_row_cap, timeout_s=s.sql_timeout_s)
    assert len(r.rows) == s.sql_row_cap == 1000 and r.truncated


def test_timeout_interrupts_heavy_query(kb: duckdb.DuckDBPyConnection) -> None:
    g = check_sql(
        "SELECT count(*) FROM range(100000000) a, range(100000000) b WHERE a.range + b.range = -1",
        ALLOWED,
    )
    start = time.perf_counter()
    with pytest.raises(SqlTimeout):
        run_query(kb, g, row_cap=10, timeout_s=0.2)
    assert time.perf_counter() - start < 2.0
    # The connection is still usable afterwards: the interrupt hit only that cursor.
    ok = run_query(kb, check_sql("SELECT count(*) FROM sales", ALLOWED), row_cap=1, timeout_s=5)
    assert ok.rows == [(4,)]


@pytest.mark.parametrize(
    "query",
    [
        "SELECT no_such_column FROM sales",
        "SELECT CAST('abc' AS INTEGER)",
        "SELECT * FROM sales AT (VERSION => 1)",
        "SELECT error('boom')",
    ],
)
def test_execution_errors_are_typed(kb: duckdb.DuckDBPyConnection, query: str) -> None:
    with pytest.raises(SqlExecutionError) as info:
        run_query(kb, check_sql(query, ALLOWED), row_cap=10, timeout_s=5)
    assert "DuckDB" in info.value.message


def test_to_dict_is_json_safe(kb: duckdb.DuckDBPyConnection) -> None:
    g = check_sql(
        "SELECT DATE '2024-01-02' AS d, TIMESTAMP '2024-01-02 03:04:05' AS ts,"
        " CAST(1.50 AS DECIMAL(5,2)) AS dec, 'nan'::DOUBLE AS nan, INTERVAL 90 SECOND AS iv,"
        " [1, 2] AS l, {'k': DATE '2024-05-06'} AS st, 1 AS a, 2 AS a",
        ALLOWED,
    )
    r = run_query(kb, g, row_cap=5, timeout_s=5)
    assert isinstance(r, QueryResult) and r.elapsed_ms >= 0
    d = r.to_dict()
    assert set(d) == {"columns", "rows", "truncated"}
    assert d["columns"] == ["d", "ts", "dec", "nan", "iv", "l", "st", "a", "a_1"]
    row = d["rows"][0]
    assert row["d"] == "2024-01-02"
    assert row["ts"] == dt.datetime(2024, 1, 2, 3, 4, 5).isoformat()
    assert row["dec"] == 1.5 and isinstance(row["dec"], float)
    assert row["nan"] is None
    assert row["iv"] == 90.0
    assert row["l"] == [1, 2]
    assert row["st"] == {"k": "2024-05-06"}
    assert (row["a"], row["a_1"]) == (1, 2)
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert r.rows[0][2] == Decimal("1.50")


# --------------------------------------------------------------------------- defence in depth

RAW_ATTACKS = [
    "SELECT * FROM read_csv('{canary}')",
    "SELECT * FROM '{canary}'",
    "SELECT * FROM read_text('{canary}')",
    "SELECT * FROM glob('{dir}/*')",
    "ATTACH '{dir}/other.db' AS other",
    "COPY sales TO '{dir}/out.csv'",
    "EXPORT DATABASE '{dir}/dump'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "SET GLOBAL enable_external_access = true",
    "RESET enable_external_access",
    "SET lock_configuration = false",
    "SET python_enable_replacements = true",
]


@pytest.mark.parametrize("template", RAW_ATTACKS)
@pytest.mark.parametrize("on", ["connection", "cursor"])
def test_hardened_connection_refuses_raw_attacks(
    kb: duckdb.DuckDBPyConnection, tmp_path: Path, template: str, on: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    canary = outside / "canary.csv"
    canary.write_text("secret\n42\n")
    sql = template.format(canary=canary, dir=outside)
    target = kb if on == "connection" else kb.cursor()
    with pytest.raises(duckdb.Error):
        target.execute(sql).fetchall()
    assert sorted(p.name for p in outside.iterdir()) == ["canary.csv"]
    assert kb.execute("SELECT current_setting('enable_external_access')").fetchone() == (False,)


def test_hardened_connection_ignores_python_dataframes(kb: duckdb.DuckDBPyConnection) -> None:
    pd = pytest.importorskip("pandas")
    secret_frame = pd.DataFrame({"x": [1]})  # noqa: F841 - the replacement scan would find it
    with pytest.raises(duckdb.Error):
        kb.execute("SELECT * FROM secret_frame").fetchall()
