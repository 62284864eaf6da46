"""`Answer._repr_html_` / `_repr_markdown_`, `kb._repr_html_`, `QueryResult` display and frames.

The HTML is parsed as XML (it is written well-formed), so a test sees exactly what a browser
would treat as elements: an injected `<script>` would be an element, escaped text is text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from hyrag.display import format_locator
from hyrag.display.html import answer_html, table_html
from tests.display.conftest import HOSTILE

GAP_Q = "Compare the graduate employment rates of Crestwood College and Northgate University."
CONFLICT_Q = "What was the revenue of the North region in 2023Q4?"
GROWTH_Q = "What was the growth of Northwind Traders revenue from FY2023 to FY2024?"
LOOKUP_Q = "What was the graduate employment rate of Crestwood College?"
SQL_Q = "Compare total sales revenue in 2023 and 2024."


def parse(markup: str) -> ET.Element:
    return ET.fromstring(f"<root>{markup}</root>")


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


def section(root: ET.Element, cls: str) -> ET.Element:
    found = [el for el in find_class(root, cls) if el.tag == "section"]
    assert len(found) == 1, f"expected one <section class={cls}>, found {len(found)}"
    return found[0]


def text(el: ET.Element) -> str:
    return "".join(el.itertext())


def tags(root: ET.Element) -> set[str]:
    return {el.tag.split("}")[-1].lower() for el in root.iter()}


@pytest.fixture(scope="module")
def answers(dkb):
    return {q: dkb.ask(q) for q in (GAP_Q, CONFLICT_Q, GROWTH_Q, LOOKUP_Q, SQL_Q)}


def test_decision_and_verdict_come_first(answers):
    for a in answers.values():
        root = parse(a._repr_html_())
        body = find_class(root, "hyrag-answer")[0]
        header = find_class(body, "hyrag-header")[0]
        badges = [text(b) for b in find_class(header, "badge")]
        assert badges[0] == a.decision
        assert badges[1] == f"verification: {a.verification['verdict']}"
        order = [c for el in body for c in classes(el)]
        assert order.index("hyrag-header") < order.index("answer-text")
        assert text(find_class(body, "answer-text")[0]) == a.text


def test_gap_section_declares_northgate(answers):
    a = answers[GAP_Q]
    assert a.gaps and a.gaps[0]["entity"] == "Northgate University"
    root = parse(a._repr_html_())
    gaps = section(root, "hyrag-gaps")
    assert "Knowledge Gaps" in text(gaps)
    rows = [[text(td) for td in tr.findall("td")] for tr in gaps.iter("tr") if tr.findall("td")]
    assert rows == [[g["entity"], g["attribute"], g["period"] or "", g["reason"]] for g in a.gaps]
    # the gap is its own section, not buried in the evidence
    assert "Northgate" not in text(section(root, "hyrag-evidence"))
    assert not find_class(root, "hyrag-conflicts")


@pytest.mark.parametrize("q", [GAP_Q, CONFLICT_Q, GROWTH_Q, LOOKUP_Q, SQL_Q])
def test_evidence_rows_match_answer_evidence(answers, q):
    a = answers[q]
    assert a.evidence, q
    ev = section(parse(a._repr_html_()), "hyrag-evidence")
    rows = [tr for tr in ev.iter("tr") if tr.get("data-n") is not None]
    assert len(rows) == len(a.evidence)
    for tr, e in zip(rows, a.evidence, strict=True):
        cells = [text(td) for td in tr.findall("td")]
        assert tr.get("data-n") == str(e["n"]) and tr.get("data-claim-id") == e["claim_id"]
        assert cells[0] == str(e["n"])
        assert cells[1] == e["source"]
        assert cells[2] == format_locator(e["locator"])
        assert cells[3] == e["text"]
        assert float(cells[4].replace(",", "")) == pytest.approx(e["score"], rel=1e-3)
    frame = a.evidence_frame()
    assert list(frame["claim_id"]) == [tr.get("data-claim-id") for tr in rows]


def test_conflict_shows_both_values_side_by_side(answers):
    a = answers[CONFLICT_Q]
    root = parse(a._repr_html_())
    conf = section(root, "hyrag-conflicts")
    cells = find_class(conf, "hyrag-conflict-claim")
    got = {(text(find_class(c, "value")[0]), c.get("data-claim-id")) for c in cells}
    want = {(x["value"], x["claim_id"]) for x in a.conflicts[0]["claims"]}
    assert got == want
    assert {x for x, _ in got} == {"65554.53", "59595.03"}
    # side by side: one table row holding one cell per competing claim
    (tr,) = list(conf.iter("tr"))
    assert len(tr.findall("td")) == 2
    assert "crm_revenue.csv" in text(conf) and "erp_revenue.csv" in text(conf)


def test_ecr_trace_is_an_inline_chart(answers):
    a = answers[CONFLICT_Q]
    assert a.ecr and a.entropy_trace() == pytest.approx(a.ecr["entropy_trace"])
    ecr = section(parse(a._repr_html_()), "hyrag-ecr")
    svg = [el for el in ecr.iter() if el.tag.endswith("svg")]
    assert len(svg) == 1
    poly = [el for el in svg[0].iter() if el.tag.endswith("polyline")]
    assert len(poly[0].get("points").split()) == len(a.entropy_trace())
    assert "unresolved_conflict" in text(ecr)
    assert not find_class(parse(answers[LOOKUP_Q]._repr_html_()), "hyrag-ecr")


def test_derivation_is_a_formula_over_cited_operands(answers):
    a = answers[GROWTH_Q]
    assert a.derivations, a.text
    der = section(parse(a._repr_html_()), "hyrag-derivations")
    d = a.derivations[0]
    t = text(der)
    assert d["expression"] in t
    for o in d["operands"]:
        assert f"[{o['n']}]" in t
    cited = {e["claim_id"] for e in a.evidence}
    assert {o["ref"] for o in d["operands"]} <= cited


def test_hostile_cell_text_is_shown_as_text(dkb):
    a = dkb.ask(f"What was the revenue of {HOSTILE}?")
    assert HOSTILE in a.text  # the engine answered about the hostile entity
    markup = a._repr_html_()
    root = parse(markup)
    assert "script" not in tags(root) and "img" not in tags(root)
    assert "<script" not in markup.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in markup
    assert HOSTILE in text(find_class(root, "answer-text")[0])
    assert HOSTILE in text(section(root, "hyrag-evidence"))
    md = a._repr_markdown_()
    assert "<script" not in md and "&lt;script>" in md
    # the other hostile cell: a quote that would end an attribute, an <img> with onerror
    r = dkb.sql("SELECT product, region, revenue FROM hostile ORDER BY revenue")
    qmarkup = r._repr_html_()
    qroot = parse(qmarkup)
    assert "img" not in tags(qroot) and "script" not in tags(qroot)
    assert [text(td) for td in list(qroot.iter("tr"))[2].findall("td")][0] == (
        'Widget & Co "><img src=x onerror=alert(2)>')
    # attributes: a data-* attribute carrying hostile text stays one attribute
    t = parse(table_html(["a"], [["x"]], row_attrs=[{"claim-id": '"><script>x</script>'}]))
    tr = list(t.iter("tr"))[1]
    assert tr.get("data-claim-id") == '"><script>x</script>' and "script" not in tags(t)


def test_kb_html_sections(dkb):
    markup = dkb._repr_html_()
    root = parse(markup)
    assert "script" not in tags(root)
    sources = text(section(root, "hyrag-sources"))
    for name in ("sales.csv", "crm_revenue.csv", "erp_revenue.csv",
                 "crestwood_employment_outcomes_2024.pdf", "hostile.csv"):
        assert name in sources
    tables = section(root, "hyrag-tables")
    rows = {text(tr.findall("td")[0]): [text(td) for td in tr.findall("td")]
            for tr in tables.iter("tr") if tr.findall("td")}
    t = dkb.tables().set_index("table_name")
    assert set(rows) == set(t.index)
    assert rows["sales"][3] == f"{int(t.loc['sales', 'claims']):,}"
    assert "(measure)" in rows["sales"][4] or "(" in rows["sales"][4]
    meta = text(find_class(root, "meta")[0])
    assert "claims" in meta and "embedding model" in meta


def test_frames(answers, dkb):
    g = answers[GAP_Q].gaps_frame()
    assert list(g.columns) == ["entity", "attribute", "period", "reason"]
    assert g.loc[0, "entity"] == "Northgate University"
    assert answers[LOOKUP_Q].gaps_frame().empty
    r = dkb.sql("SELECT region, sum(revenue) AS revenue FROM sales GROUP BY region ORDER BY 1")
    f = r.to_frame()
    assert isinstance(f, pd.DataFrame) and list(f.columns) == r.columns
    assert [tuple(x) for x in f.itertuples(index=False)] == r.rows
    assert r.df().equals(f)
    dup = dkb.sql("SELECT 1 AS a, 2 AS a")
    assert list(dup.to_frame().columns) == ["a", "a_1"]
    assert isinstance(dkb.claims(entity="North"), pd.DataFrame)
    assert r.truncated is False and r.rows  # the plain-object API is unchanged


def test_answer_html_with_every_section_empty_and_odd_values():
    from hyrag.answer.answer import Answer

    a = Answer(text="x", brief="", decision="weird", route="R", trust="t",
               verification={}, ecr={"trace": [{"entropy": 1.0}], "stop_reason": None})
    root = parse(answer_html(a))
    assert text(find_class(root, "badge")[1]) == "verification: unverified"
    assert a._repr_markdown_() == "x"


# A conflict answer as the engine produced it for CONFLICT_Q (shapes per CONTRACT.md), so the
# rendering is tested on its own, independent of the engine's current routing.
_CONFLICT_CLAIMS = (
    {"n": 1, "claim_id": "544d01129f5e73d2", "value": "65554.53", "source": "crm_revenue.csv",
     "locator": '{"file":"crm_revenue.csv","row":30,"column":"revenue","cell":"C30"}'},
    {"n": 2, "claim_id": "b424a450ab54b309", "value": "59595.03", "source": "erp_revenue.csv",
     "locator": '{"file":"erp_revenue.csv","row":9,"column":"revenue","cell":"C9"}'},
)


def _synthetic_conflict():
    from hyrag.answer.answer import Answer

    ev = tuple({"n": c["n"], "claim_id": c["claim_id"], "source": c["source"],
                "locator": c["locator"], "score": 1.0,
                "text": f"{c['source'][:-4]} North: revenue in 2023Q4 was {c['value']}."}
               for c in _CONFLICT_CLAIMS)
    return Answer(
        text="Sources disagree on North, revenue, 2023Q4: 65,554.53 in crm_revenue.csv [1] "
             "versus 59,595.03 in erp_revenue.csv [2].",
        brief="", decision="needs_verification", route="LOOKUP", trust="balanced",
        evidence=ev,
        conflicts=({"requirement": "R1", "entity": "North", "attribute": "revenue",
                    "period": "2023Q4", "claims": list(_CONFLICT_CLAIMS)},),
        verification={"verdict": "pass", "score": 1.0, "failures": []},
        ecr={"triggered": True, "stop_reason": "unresolved_conflict", "entropy": 1.0,
             "dominant": None, "entropy_trace": [1.0, 0.8813, 1.0],
             "distribution": [{"id": "h0", "label": "North = 65,554.53", "p": 0.5},
                              {"id": "h1", "label": "North = 59,595.03", "p": 0.5}],
             "trace": [{"t": 1, "claim_id": "544d01129f5e73d2", "entropy": 0.8813},
                       {"t": 2, "claim_id": "b424a450ab54b309", "entropy": 1.0}]},
    )


def test_conflict_rendering_side_by_side_synthetic():
    a = _synthetic_conflict()
    root = parse(a._repr_html_())
    conf = section(root, "hyrag-conflicts")
    (tr,) = list(conf.iter("tr"))
    cells = tr.findall("td")
    assert [text(find_class(c, "value")[0]) for c in cells] == ["65554.53", "59595.03"]
    sources = [text(c.findall("div")[1]) for c in cells]
    assert sources == ["crm_revenue.csv [1]", "erp_revenue.csv [2]"]
    assert "row 30, column revenue, cell C30" in text(cells[0])
    ecr = section(root, "hyrag-ecr")
    poly = [el for el in ecr.iter() if el.tag.endswith("polyline")]
    assert len(poly[0].get("points").split()) == 3
    assert a.entropy_trace() == [1.0, 0.8813, 1.0]
