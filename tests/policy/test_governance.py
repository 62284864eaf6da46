"""Governed retrieval end to end: verdicts before retrieval, entitlement filters inside
candidate generation, per-subject SQL, context packs, tenants, prompt injection."""

from __future__ import annotations

import json

import pytest

from hyrag.errors import SqlRejected
from hyrag.policy import PolicyDenied, StepUpRequired
from tests.policy.conftest import INJECTION, sources_by


def subject(owner, policy, who, attest=None):
    return owner.as_subject(who, policy=policy, attestation=attest)


def denied_ids(owner, ana_sources: set[str]) -> set[str]:
    rows = owner.store.con.execute("SELECT claim_id, source_id FROM claims").fetchall()
    return {c for c, s in rows if s not in ana_sources}


def visible_sources(owner, *names: str, tenant: str = "acme") -> set[str]:
    src = sources_by(owner)
    return {src[(n, tenant)] for n in names}


ANA = ("orders.csv", "notes.md", "erp.csv")


# -- ALLOW / DENY / STEP_UP for every action ------------------------------------------------
@pytest.mark.parametrize("action", ["schema", "search", "ask", "sql", "audit.read", "ingest"])
def test_each_action_allow_deny_step_up(owner, policy, action, tmp_path) -> None:
    if action == "ingest":  # a knowledge base of its own: the shared one stays as built
        from hyrag.kb import KnowledgeBase

        owner = KnowledgeBase(tmp_path / "ingest_kb")
    allow_who = {"audit.read": "aud", "ingest": "lou"}.get(action, "ana")
    deny_who = {"audit.read": "ana", "ingest": "ana"}.get(action, "aud")
    first = owner.ask("What was the revenue of order SO-00007?")

    def call(kb):
        if action == "schema":
            return kb.schema()
        if action == "search":
            return kb.search("revenue of order SO-00007", k=3)
        if action == "ask":
            return kb.ask("What was the revenue of order SO-00007?")
        if action == "sql":
            return kb.sql("SELECT count(*) FROM orders")
        if action == "audit.read":
            return kb.audit(first.audit_id)
        f = tmp_path / f"new_{kb.pep.subject_id}.csv"
        f.write_text(f"k,v\n{kb.pep.subject_id},1\n")
        return kb.ingest(f)

    assert call(subject(owner, policy, allow_who)) is not None
    with pytest.raises(PolicyDenied) as e:
        call(subject(owner, policy, deny_who))
    assert e.value.rule_id in str(e.value) and e.value.rule_id == "default-deny"
    with pytest.raises(StepUpRequired) as s:
        call(subject(owner, policy, "tom"))
    assert s.value.rule_id == "contractors-attest" and "attest" in str(s.value)
    assert call(subject(owner, policy, "tom", attest="ticket CHG-1 approved")) is not None


def test_step_up_for_restricted_sources(owner, policy) -> None:
    q = "How many employees did Quokka Holdings have in 2024?"
    board = visible_sources(owner, "board.md")
    plain = subject(owner, policy, "cleo").search(q, k=10)
    assert not {c.source_id for c in plain.claims} & board  # not attested: not retrieved
    attested = subject(owner, policy, "cleo", attest="board secretary, case 7").search(q, k=10)
    assert {c.source_id for c in attested.claims} & board
    with pytest.raises(StepUpRequired) as e:
        subject(owner, policy, "cleo").sql("SELECT count(*) FROM payroll p, deals d")
    assert e.value.rule_id == "restricted-needs-attestation"
    assert subject(owner, policy, "cleo", attest="ok").sql(
        "SELECT count(*) FROM deals").rows == [(1,)]
    with pytest.raises(SqlRejected):  # ana is not entitled at all: the table does not exist
        subject(owner, policy, "ana").sql("SELECT * FROM deals")


# -- a confidential source is invisible ---------------------------------------------------------
def test_search_and_summaries_never_show_denied(owner, policy) -> None:
    ana = subject(owner, policy, "ana")
    allowed = visible_sources(owner, *ANA)
    for q in ("Zephyrine Quillfeather salary", "salary of Engineering employees in the North",
              "payroll summary cluster salary department", "revenue North 2023"):
        res = ana.search(q, k=20)
        assert {c.source_id for c in res.claims} <= allowed, q
        assert not any("Zephyrine" in (c.text or "") for c in res.claims)
    # a cluster summary built over payroll rows: the owner finds it by its own words, ana never
    pay = visible_sources(owner, "payroll.csv")
    texts = [m["text"] for m in owner.horizon.vectors.summaries.values()
             if m["source_id"] in pay]
    assert texts
    res = owner.search(texts[0], k=20, strategies=["row_vectors"])
    assert any(c.kind == "summary" and c.source_id in pay for c in res.claims)
    res = ana.search(texts[0], k=20, strategies=["row_vectors"])
    assert res.claims and not any(c.source_id in pay for c in res.claims)


def test_ask_and_context_pack_never_show_denied(owner, policy) -> None:
    ana = subject(owner, policy, "ana")
    bad = denied_ids(owner, visible_sources(owner, *ANA))
    for q in ("What is the salary of Zephyrine Quillfeather 3?", "What was the average salary?",
              "What was the revenue of the North region in 2023Q1?", INJECTION):
        a = ana.ask(q)
        assert not {e["claim_id"] for e in a.evidence} & bad, q
        assert "Zephyrine" not in a.text and "150,000" not in a.text
        events = owner.audit(a.audit_id)
        pack = next(e["payload"] for e in events if e["kind"] == "context_pack")
        assert pack["policy_version"] == "test-7" and pack["subject"] == "ana"
        assert not {c["claim_id"] for c in pack["claims"]} & bad
        blob = json.dumps([e["payload"] for e in events if e["kind"] != "policy.scope"])
        assert not any(b in blob for b in bad)


@pytest.mark.parametrize("query", [
    "SELECT * FROM payroll",
    "SELECT o.order_id FROM orders o JOIN payroll p ON p.region = o.region",
    "WITH p AS (SELECT * FROM payroll) SELECT count(*) FROM p",
    "SELECT count(*) FROM orders WHERE revenue < (SELECT max(salary) FROM payroll)",
])
def test_sql_denied_typed_table_is_unknown(owner, policy, query) -> None:
    with pytest.raises(SqlRejected) as e:
        subject(owner, policy, "ana").sql(query)
    assert "payroll" not in str(e.value).split("allowed tables:")[-1]


@pytest.mark.parametrize("query", [
    "SELECT count(*) FROM claims WHERE file = 'payroll.csv' OR text LIKE '%Zephyrine%'",
    "SELECT count(*) FROM claims c JOIN sources s USING (source_id) "
    "WHERE s.classification <> 'internal'",
    "WITH x AS (SELECT * FROM claims WHERE entity LIKE 'E9%') SELECT count(*) FROM x",
    "SELECT count(*) FROM items WHERE item_id IN (SELECT item_id FROM claims "
    "WHERE attribute = 'salary')",
    "SELECT count(*) FROM attributes WHERE attribute = 'salary'",
    "SELECT count(*) FROM schemas WHERE table_name IN ('payroll', 'deals', 'crm')",
    "SELECT count(*) FROM kb_tables WHERE table_name IN ('payroll', 'deals', 'crm')",
    "SELECT count(*) FROM relations r JOIN sources s USING (source_id) "
    "WHERE s.name = 'board.md'",
    "SELECT count(*) FROM sources WHERE tenant <> 'acme' OR classification <> 'internal'",
])
def test_sql_engine_tables_are_filtered(owner, policy, query) -> None:
    assert subject(owner, policy, "ana").sql(query).rows == [(0,)]
    assert owner.sql(query).rows != [(0,)], "the owner must see them (the test is meaningful)"


def test_sql_aggregates_over_allowed_rows_only(owner, policy) -> None:
    ana = subject(owner, policy, "ana")
    q = "SELECT count(*), count(DISTINCT source_id) FROM claims"
    n_ana, src_ana = ana.sql(q).rows[0]
    allowed = visible_sources(owner, *ANA)
    lit = ",".join(f"'{s}'" for s in sorted(allowed))
    assert (n_ana, src_ana) == owner.sql(
        f"SELECT count(*), count(DISTINCT source_id) FROM claims WHERE source_id IN ({lit})"
    ).rows[0]
    assert ana.sql("SELECT count(*) FROM sources").rows == [(3,)]


def test_contradiction_links_and_counters_do_not_leak(owner, policy) -> None:
    assert len(owner.conflicts()) >= 1  # erp (internal) vs crm (confidential): North 2023Q1
    ana = subject(owner, policy, "ana")
    assert ana.conflicts().empty
    erp = visible_sources(owner, "erp.csv").pop()
    q = (f"SELECT sum(support), sum(contradict) FROM claims WHERE source_id = '{erp}'")
    assert owner.sql(q).rows[0] != (0, 0)
    assert ana.sql(q).rows == [(0, 0)]
    assert ana.sql("SELECT count(*) FROM claim_links WHERE kind IN "
                   "('contradicts', 'supports')").rows == [(0,)]
    cl = ana.claims(attribute="revenue", table="erp")
    assert (cl["contradict"] == 0).all() and (cl["support"] == 0).all()


def test_schema_listing_hides_denied(owner, policy) -> None:
    ana = subject(owner, policy, "ana")
    assert set(ana.tables()["table_name"]) == {"orders", "erp"}
    assert set(ana.schema()["table_name"]) <= {"orders", "erp"}
    assert set(ana.sources()["name"]) == set(ANA)
    assert {"payroll", "crm"} <= set(owner.tables()["table_name"])


# -- audit before retrieval ---------------------------------------------------------------------
def test_verdict_written_before_first_retrieval(owner, policy, monkeypatch) -> None:
    ana = subject(owner, policy, "ana")
    seen: list[tuple] = []
    real = type(ana.horizon).search

    def spy(self, *a, **kw):
        g = ana._grant
        seen.append(owner.store.con.cursor().execute(
            "SELECT kind FROM audit WHERE request_id = ? ORDER BY event_id",
            [g.request_id]).fetchall())
        return real(self, *a, **kw)

    monkeypatch.setattr(type(ana.horizon), "search", spy)
    a = ana.ask("Which company is headquartered in Trondheim?")
    ana.search("Riverside Clinic beds", k=3)
    assert seen and all(s[:2] == [("policy.verdict",), ("policy.scope",)] for s in seen)
    events = ana.as_subject("aud").audit(a.audit_id)
    kinds = [e["kind"] for e in events]
    assert kinds[:2] == ["policy.verdict", "policy.scope"]
    assert kinds.index("horizon") > 1 and "context_pack" in kinds
    first = events[0]["created_at"]
    assert all(e["created_at"] >= first for e in events)
    assert events[0]["payload"]["rule_id"] == "analysts-query"


def test_no_policy_says_local_owner(owner) -> None:
    a = owner.ask("What was the revenue of order SO-00007?")
    v = owner.audit(a.audit_id)[0]
    assert v["kind"] == "policy.verdict" and v["payload"]["rule_id"] == "no-policy"
    assert "single local owner" in v["payload"]["note"] and v["subject"] == "owner"


def test_read_only_store_under_policy_fails_closed(gov_dir, policy) -> None:
    from hyrag.kb import KnowledgeBase

    # a read-only store records its verdicts in the read log beside it; when that cannot be
    # written either (here: a folder in its place), the request is refused
    log = gov_dir / "hyrag.readlog.jsonl"
    saved = log.read_bytes() if log.exists() else None
    log.unlink(missing_ok=True)
    log.mkdir()
    try:
        with KnowledgeBase(gov_dir, subject="ana", policy=policy, read_only=True) as kb, \
                pytest.raises(PolicyDenied, match="audit-unavailable"):
            kb.sql("SELECT 1")
    finally:
        log.rmdir()
        if saved is not None:
            log.write_bytes(saved)


# -- injection, tenants -------------------------------------------------------------------------
def test_prompt_injection_in_a_document_changes_nothing(owner, policy) -> None:
    ana = subject(owner, policy, "ana")
    notes = visible_sources(owner, "notes.md")
    res = ana.search(INJECTION, k=10)
    assert {c.source_id for c in res.claims} & notes  # the sentence itself is found ...
    assert {c.source_id for c in res.claims} <= visible_sources(owner, *ANA)  # ... nothing more
    g1 = ana.pep.plan("ask", detail={"question": INJECTION})
    g2 = ana.pep.plan("ask", detail={"question": "revenue"})
    assert g1.allowed_sources == g2.allowed_sources == frozenset(visible_sources(owner, *ANA))
    a = ana.ask(INJECTION + " for Quokka Holdings employees")
    bad = denied_ids(owner, visible_sources(owner, *ANA))
    assert not {e["claim_id"] for e in a.evidence} & bad and "940" not in a.text


def test_tenants_never_see_each_other(owner, policy) -> None:
    src = sources_by(owner)
    acme, globex = src[("orders.csv", "acme")], src[("orders.csv", "globex")]
    assert acme != globex  # the same file in two tenants is two sources
    gus = subject(owner, policy, "gus")
    assert gus.sql("SELECT source_id, tenant FROM sources").rows == [(globex, "globex")]
    res = gus.search("revenue of order SO-00007", k=10)
    assert res.claims and {c.source_id for c in res.claims} == {globex}
    for who in ("ana", "cleo"):
        kb = subject(owner, policy, who, attest="x")
        assert globex not in {r[0] for r in kb.sql("SELECT source_id FROM sources").rows}
        assert globex not in {c.source_id for c in kb.search("order SO-00007", k=10).claims}


def test_table_question_fallback_stays_inside_the_tenant(owner, policy) -> None:
    """The row-label table fallback (tableqa) once read the raw store: a globex subject got
    acme's CRM figure. Found by the property test; pinned here deterministically."""
    acme_ids = {r[0] for r in owner.sql(
        "SELECT c.claim_id FROM claims c JOIN sources s USING (source_id) "
        "WHERE s.tenant = 'acme'", row_cap=1_000_000).rows}
    gus = subject(owner, policy, "gus")
    a = gus.ask("What was the revenue of the North region in 2023Q1?")
    assert not {e["claim_id"] for e in a.evidence} & acme_ids
    assert "1,500" not in a.text and "1,000.0" not in a.text


def test_ingest_defaults_to_subject_tenant(policy, tmp_path) -> None:
    from hyrag.kb import KnowledgeBase

    owner = KnowledgeBase(tmp_path / "kb")
    f = tmp_path / "t.csv"
    f.write_text("k,v\nx,1\n")
    lou = subject(owner, policy, "lou")
    rep = lou.ingest(f)
    assert owner.store.con.execute("SELECT tenant FROM sources WHERE source_id = ?",
                                   [rep.source_id]).fetchone() == ("acme",)
    with pytest.raises(PolicyDenied, match="tenant-isolation"):
        lou.ingest(f, tenant="globex")


# -- the post-filter hard case ----------------------------------------------------------------
def test_denied_items_rank_highest_allowed_subject_still_gets_k(tmp_path, policy) -> None:
    import pandas as pd

    from hyrag.kb import KnowledgeBase

    kb = KnowledgeBase(tmp_path / "kb")
    hot = pd.DataFrame({"item": [f"Widget {i}" for i in range(30)],
                        "note": ["quarterly widget revenue forecast widget revenue"] * 30,
                        "revenue": [float(i) for i in range(30)]})
    cold = pd.DataFrame({"item": [f"Gadget {i}" for i in range(30)],
                         "note": [f"gadget shipment {i} widget revenue" for i in range(30)],
                         "revenue": [float(i) for i in range(30)]})
    kb.ingest(hot, name="hot", tenant="acme", classification="confidential")
    kb.ingest(cold, name="cold", tenant="acme", classification="internal")
    kb.index()
    src = {n: s for s, n in kb.store.con.execute("SELECT source_id, name FROM sources").fetchall()}
    q = "widget revenue forecast"
    k = 10
    everything = kb.search(q, k=k)
    assert [c.source_id for c in everything.claims[:k]].count(src["hot"]) >= k // 2
    ana = kb.as_subject("ana", policy=policy)
    res = ana.search(q, k=k)
    assert len(res.claims) == k and {c.source_id for c in res.claims} == {src["cold"]}
    for strategy in ("lexical", "row_vectors", "graph"):
        one = ana.search(q, k=k, strategies=[strategy])
        assert src["hot"] not in {c.source_id for c in one.claims}
    kb.close()


# -- nothing of the policy reaches a model ------------------------------------------------------
def test_policy_text_never_reaches_synthesis_or_embeddings(owner, policy, monkeypatch) -> None:
    import hyrag.answer.engine as eng

    captured: list[str] = []
    for name in ("draft", "brief"):
        real = getattr(eng, name)

        def wrap(*a, _real=real, **kw):
            captured.append(repr(a) + repr(kw))
            return _real(*a, **kw)
        monkeypatch.setattr(eng, name, wrap)
    ana = subject(owner, policy, "ana")
    emb = ana.horizon.embedder
    real_embed = type(emb).embed

    def spy(self, texts, *a, **kw):
        captured.extend(map(str, texts))
        return real_embed(self, texts, *a, **kw)
    monkeypatch.setattr(type(emb), "embed", spy)
    for q in ("What was the revenue of the North region in 2023Q1?",
              "Which company is headquartered in Trondheim?"):
        ana.ask(q)
    blob = "\n".join(captured)
    assert captured
    markers = ["analysts-query", "classified-needs-entitlement", "test-7", "entitlement",
               "analyst", "restricted-needs-attestation", "confidential"]
    for m in markers:
        assert m not in blob, m


# -- command line -------------------------------------------------------------------------------
def _cli_kb(tmp_path, payroll_classification: str) -> list[str]:
    """Orders and payroll ingested through the CLI; the --kb / --policy arguments to reuse."""
    from hyrag.cli import main
    from tests.policy.conftest import POLICY, write_files

    files = write_files(tmp_path / "files")
    kb = str(tmp_path / "kb")
    pol = tmp_path / "policy.toml"
    pol.write_text(POLICY)
    assert main(["ingest", str(files["orders"]), "--kb", kb, "--no-vectors", "--tenant", "acme"]) == 0
    assert main(["ingest", str(files["payroll"]), "--kb", kb, "--no-vectors", "--tenant", "acme",
                 "--classification", payroll_classification]) == 0
    return ["--kb", kb, "--policy", str(pol)]


def test_cli_as_policy_attest(tmp_path, capsys) -> None:
    from hyrag.cli import main

    base = _cli_kb(tmp_path, "confidential")
    capsys.readouterr()
    assert main(["sql", "SELECT count(*) AS n FROM sources", "--json", "--as", "ana", *base]) == 0
    assert '"n": 1' in capsys.readouterr().out
    assert main(["sql", "SELECT * FROM payroll", "--as", "ana", *base]) == 1
    err = capsys.readouterr().err
    assert "not allowed" in err and "payroll" not in err.split("allowed tables:")[-1]
    assert main(["ask", "What was the revenue of order SO-00007?", "--as", "ana", *base]) == 0
    audit_id = capsys.readouterr().out.rsplit("audit ", 1)[-1].strip(" )\n")
    assert main(["audit", "show", audit_id, "--as", "ana", *base]) == 1
    assert "audit.read" in capsys.readouterr().err
    assert main(["audit", "show", audit_id, "--as", "aud", *base]) == 0
    out = capsys.readouterr().out
    assert "policy.verdict" in out and "analysts-query" in out and "context_pack" in out
    assert main(["search", "orders", "--as", "tom", *base]) == 1
    assert "attest" in capsys.readouterr().err
    assert main(["search", "orders", "--as", "tom", "--attest", "CHG-9", *base]) == 0


def test_cli_plain_text_says_what_needs_an_attestation(tmp_path, capsys) -> None:
    """The plain-text search and ask say that restricted sources were left out and how to read
    them (--attest), without naming them — as the JSON and the brief already did."""
    from hyrag.cli import main

    base = [*_cli_kb(tmp_path, "restricted"), "--as", "cleo"]
    capsys.readouterr()
    assert main(["search", "salary by department", *base]) == 0
    out = capsys.readouterr().out
    assert "1 source not consulted" in out and "--attest" in out and "payroll" not in out
    assert main(["ask", "What was the total salary in Engineering?", *base]) == 0
    out = capsys.readouterr().out
    assert "gap: 1 source not consulted" in out and "payroll" not in out
    assert main(["search", "salary by department", *base, "--attest", "case 7"]) == 0
    assert "not consulted" not in capsys.readouterr().out
