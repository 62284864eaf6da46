"""The schema-aware parser and text-to-SQL with value grounding."""

from __future__ import annotations

import pytest

from hyrag.answer.execute.text2sql import UnknownValue, compile_query, ground_literals
from hyrag.answer.parse.catalog import load_catalog, osa
from hyrag.answer.parse.parser import parse
from hyrag.answer.parse.router import Route, choose_route, parse_route, parse_trust
from hyrag.errors import HyragError


@pytest.fixture(scope="module")
def cat(akb):
    return load_catalog(akb.store)


def test_typos_plurals_and_case_are_mapped_to_the_vocabulary(cat):
    p = parse("What was the totl sales revenu in the Wset region in 2024?", cat)
    assert dict(p.corrections) == {"totl": "total", "revenu": "revenue", "wset": "west"}
    assert [e.name for e in p.entities] == ["West"] and p.scope == ("sales",)
    assert p.measure.name == "revenue" and p.operation == "total"
    assert [x.key for x in p.periods] == ["2024"]
    p = parse("HOW MANY PHYSICIAN DID RIVERSIDE CLINIC EMPLOY IN 2024?", cat)
    assert [e.name for e in p.entities] == ["Riverside Clinic"] and p.measure.name == "physician"
    assert osa("regoin", "region") == 1


def test_ids_periods_ranking_and_grouping(cat):
    p = parse("what is the salary of employee e1005", cat)
    assert [(e.name, e.kind) for e in p.entities] == [("E1005", "id")]
    assert p.measure.name == "salary" and choose_route(p) == Route.LOOKUP
    p = parse("What were the top 3 products by sales revenue in 2024?", cat)
    assert p.group_by == "product" and p.ranking == ("desc", 3) and choose_route(p) == Route.SQL
    p = parse("Compare Northwind Traders net income in FY2023 and FY2024.", cat)
    assert [x.key for x in p.periods] == ["2023", "2024"] and p.comparison
    assert choose_route(p) == Route.CSGR_PLUS
    p = parse("What was the CAGR of total sales revenue from 2022 to 2024?", cat)
    assert p.operation == "cagr" and choose_route(p) == Route.TOOL


def test_multiword_measures_win_over_values_inside_them(cat):
    p = parse("How many full-time faculty members did Crestwood College employ in 2024?", cat)
    assert [e.name for e in p.entities] == ["Crestwood College"]
    assert p.measure.name == "full time faculty member"
    p = parse("What is the median starting salary of Northgate University graduates?", cat)
    assert p.measure.name == "median starting salary" and p.operation is None


def test_underspecified_questions_say_why(cat):
    assert parse("What was the revenue?", cat).clarify
    assert parse("What is the total?", cat).clarify
    assert "needs a period" in parse("How much was spent?", cat).clarify[0]
    assert not parse("What was the total sales revenue in 2024?", cat).clarify


def test_unknown_measure_is_kept_for_the_gap(cat):
    p = parse("What was the charter income of Fjordline Logistics AS in 2024?", cat)
    assert p.measure.name == "charter income" and not p.measure.known


def test_text2sql_builds_sql_and_grounds_literals(cat, akb):
    c = compile_query(cat, "sales", agg="total", measure="revenue",
                      filters=[("region", "west")], period=(20240101.0, 20241231.999))
    assert c.rewrites == (("west", "West"),)
    assert "'West'" in c.sql and "SUM" in c.sql.upper()
    assert akb.sql(c.sql).rows[0][0] == pytest.approx(210596.0)
    sql, rw = ground_literals("SELECT sum(revenue) FROM sales WHERE region = 'Wset'", cat, "sales")
    assert rw == [("Wset", "West")] and "'West'" in sql
    with pytest.raises(UnknownValue, match="closest"):
        ground_literals("SELECT sum(revenue) FROM sales WHERE region = 'Atlantis'", cat, "sales")
    q = compile_query(cat, "erp_revenue", agg="total", measure="revenue", filters=[],
                      period=(20230101.0, 20231231.999))
    assert "IN" in q.sql and "2023Q1" in q.sql and "2022Q4" not in q.sql


def test_route_and_trust_errors_list_valid_values():
    assert parse_route("sql") == Route.SQL and parse_trust("STRICT").value == "strict"
    with pytest.raises(HyragError, match="LOOKUP, RELATIONAL, SEMANTIC, TOOL, SQL, CSGR_PLUS"):
        parse_route("magic")
    with pytest.raises(HyragError, match="strict, balanced, exploratory"):
        parse_trust("paranoid")
