"""Non-interference (issue 8): what a restricted subject sees must not depend on the sources they
may not see. BM25 statistics, the graph's names, the latest period and the support /
contradiction counters are computed over the visible sources only, so a subject's search in a
knowledge base that also holds denied sources equals the owner's search in a knowledge base that
holds only the subject's sources: same claims, ranks, similarities and confidences. Also: STEP_UP
sources are announced (count and rule, never content), and per-subject views are cached.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from hyrag.kb import KnowledgeBase
from tests.policy.conftest import CLASSES, write_files

ALLOWED = ("orders", "notes", "erp")  # internal: what ana may see
DENIED = ("payroll", "crm", "forecast")  # confidential: ana may not
RESTRICTED = ("board", "deals")  # cleo may, with an attestation (STEP_UP)


def _forecast(path: Path) -> Path:
    """A denied source with a later period than any allowed one ("latest" must not see it) and
    the allowed sources' words (so it would move their document frequencies)."""
    pd.DataFrame({"region": ["North", "South", "East"], "quarter": ["2026Q4"] * 3,
                  "revenue": [9100.0, 9200.0, 9300.0],
                  "note": ["Riverside Clinic revenue forecast North"] * 3}).to_csv(path,
                                                                               index=False)
    return path


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory):
    """(everything, only ana's sources): two knowledge bases built from the same files."""
    import os

    old = os.environ.get("HYRAG_EMBED_TIER")
    os.environ["HYRAG_EMBED_TIER"] = "hashed"
    root = tmp_path_factory.mktemp("scope")
    files = write_files(root / "files")
    files["forecast"] = _forecast(root / "files" / "forecast.csv")
    classes = {**CLASSES, "forecast": "confidential"}
    kbs = []
    try:
        for name, keys in (("all", ALLOWED + DENIED + RESTRICTED), ("allowed", ALLOWED)):
            kb = KnowledgeBase(root / name)
            for key in ("orders", "payroll", "board", "notes", "erp", "crm", "deals",
                        "forecast"):
                if key in keys:
                    kb.ingest(files[key], tenant="acme", classification=classes[key])
            kb.index()
            kbs.append(kb)
    finally:
        if old is None:
            os.environ.pop("HYRAG_EMBED_TIER", None)
        else:
            os.environ["HYRAG_EMBED_TIER"] = old
    yield kbs
    for kb in kbs:
        kb.close()


QUESTIONS = (
    "revenue North 2023Q1",  # erp's words, also in crm and the forecast (df, avgdl)
    "Zephyrine Quillfeather 3 revenue North",  # an exact denied name would take these words
    "Zephyrine Quilfeather revenue",  # ... and a fuzzy one
    "Riverside Clinic revenue",
    "What was the latest revenue of the North region?",  # the latest period ana can see
    "Which company is headquartered in Trondheim?",
)


def _view(res) -> list[tuple]:
    return [(c.claim_id, c.rank, round(c.fused_score, 9), c.ranks,
             {k: round(v, 5) for k, v in c.scores.items()},
             None if c.confidence is None else round(c.confidence, 9)) for c in res.claims]


@pytest.mark.parametrize("strategy", ["lexical", "graph", None])
def test_restricted_search_equals_a_kb_without_the_denied_sources(pair, policy,
                                                                  strategy) -> None:
    everything, alone = pair
    ana = everything.as_subject("ana", policy=policy)
    strategies = [strategy] if strategy else None  # None: all four, fused
    for q in QUESTIONS:
        mine = ana.search(q, k=15, strategies=strategies)
        ref = alone.search(q, k=15, strategies=strategies)
        assert mine.interval == ref.interval, q
        assert _view(mine) == _view(ref), q
        assert mine.best_strategy == ref.best_strategy, q
        # the owner of the full knowledge base does see the denied sources differently
    owner = everything.search(QUESTIONS[4], k=15, strategies=strategies)
    assert owner.interval != ana.search(QUESTIONS[4], k=15, strategies=strategies).interval


SQL_VIEWS = (
    "SELECT claim_id, kind, entity, attribute, value_text, support, contradict FROM claims "
    "ORDER BY claim_id",
    "SELECT src, dst, kind FROM claim_links ORDER BY ALL",
    "SELECT kind, table_name, attribute, count(*), round(sum(value_num), 4) FROM claims "
    "WHERE kind = 'aggregate' GROUP BY ALL ORDER BY ALL",
    "SELECT table_name, column_name, role, dtype FROM schemas ORDER BY ALL",
    "SELECT table_name, n_rows FROM kb_tables ORDER BY ALL",
    "SELECT name, kind, classification FROM sources ORDER BY ALL",
    "SELECT count(*), count(DISTINCT entity), sum(support), sum(contradict) FROM claims",
    "SELECT head, relation, tail FROM relations ORDER BY ALL",
)


def test_sql_and_listings_equal_a_kb_without_the_denied_sources(pair, policy) -> None:
    """Schema listings, contradiction links and counters, aggregates: ana's view of the full
    store is exactly the owner's view of a store without the denied sources."""
    everything, alone = pair
    ana = everything.as_subject("ana", policy=policy)
    for q in SQL_VIEWS:
        assert ana.sql(q, row_cap=100_000).rows == alone.sql(q, row_cap=100_000).rows, q
    assert everything.sql(SQL_VIEWS[1], row_cap=100_000).rows != alone.sql(
        SQL_VIEWS[1], row_cap=100_000).rows  # the denied sources do link to ana's
    for listing in ("tables", "schema", "adjustments", "conflicts"):
        a, b = getattr(ana, listing)(), getattr(alone, listing)()
        assert a.to_dict("records") == b.to_dict("records"), listing
    cols = ["claim_id", "entity", "attribute", "value_text", "support", "contradict"]
    mine, ref = (kb.claims(table="erp")[cols].sort_values("claim_id").to_dict("records")
                 for kb in (ana, alone))
    assert mine == ref


def test_scope_statistics_are_over_visible_claims(pair, policy) -> None:
    everything, alone = pair
    src = {n: s for s, n in everything.store.con.execute(
        "SELECT source_id, name FROM sources").fetchall()}
    allowed = frozenset(src[f] for f in ("orders.csv", "notes.md", "erp.csv"))
    r, ref = everything.horizon.retriever(), alone.horizon.retriever()
    sc = r.scope(allowed)
    assert r.scope(set(allowed)) is sc  # cached per visible set, not rebuilt per query
    assert r.scope(frozenset(src.values())) is r.scope(None)  # everything visible: unrestricted
    bm = next(s.bm25 for s in sc.strategies if getattr(s, "bm25", None) is not None)
    bref = next(s.bm25 for s in ref.strategies if getattr(s, "bm25", None) is not None)
    assert bm.avgdl == bref.avgdl and int(bm.visible.sum()) == bref.n_docs
    for term in ("revenue", "north", "2023q1", "riverside"):
        assert bm.idf[bm.vocab[term]] == bref.idf[bref.vocab[term]], term
    full = next(s.bm25 for s in r.strategies if getattr(s, "bm25", None) is not None)
    assert full.idf[full.vocab["revenue"]] != bm.idf[bm.vocab["revenue"]]
    # names: no denied name, exact or fuzzy; relations only from visible sources
    assert "zephyrine quillfeather 3" in r.graph.keys
    assert not any("zephyrine" in k for k in sc.graph.keys)
    assert sc.graph.keys == ref.graph.keys
    assert not sc.graph.mentions("Zephyrine Quilfeather")
    # confidences: erp's North 2023Q1 is contradicted by crm in the full store, not for ana
    i = r.cat.index[next(c for c, e, a, t in everything.store.con.execute(
        "SELECT claim_id, entity, attribute, time_key FROM claims WHERE file = 'erp.csv' "
        "AND contradict > 0").fetchall())]
    assert sc.conf[i] > r.cat.conf[i]
    assert sc.conf[i] == ref.cat.conf[ref.cat.index[r.cat.ids[i]]]


def test_step_up_sources_are_announced_not_shown(pair, policy) -> None:
    owner = pair[0]
    cleo = owner.as_subject("cleo", policy=policy)
    res = cleo.search("How many employees did Quokka Holdings have in 2024?", k=10)
    assert res.step_up and res.step_up["sources"] == 2  # board.md, deals.csv: restricted
    assert res.step_up["rules"] == ["restricted-needs-attestation"]
    blob = repr(res.step_up)
    for secret in ("board", "deals", "Quokka", "Wombat"):
        assert secret not in blob
    assert res.to_dict()["step_up"] == res.step_up
    a = cleo.ask("How many employees did Quokka Holdings have in 2024?")
    notes = [g for g in a.gaps if "attestation" in g["reason"]]
    assert len(notes) == 1 and set(notes[0]) == {"entity", "attribute", "period", "reason"}
    assert "940" not in a.text and "board" not in notes[0]["reason"]
    events = owner.audit(a.audit_id)
    step = [e for e in events if e["kind"] == "policy.step_up"]
    assert len(step) == 1 and step[0]["payload"]["rules"] == ["restricted-needs-attestation"]
    kinds = [e["kind"] for e in events]
    assert kinds.index("policy.step_up") < kinds.index("parse")  # in the verdict batch
    # attested: nothing withheld, no notice; ana (denied, not step-up): no notice either
    attested = owner.as_subject("cleo", policy=policy, attestation="case 7")
    assert attested.search("Quokka Holdings employees", k=5).step_up is None
    assert owner.as_subject("ana", policy=policy).search("Quokka", k=5).step_up is None
    assert owner.search("Quokka", k=5).step_up is None


def test_subject_views_are_cached_per_signature_and_version(policy, tmp_path) -> None:
    from hyrag.policy.views import governed_store

    files = write_files(tmp_path / "files")
    kb = KnowledgeBase(tmp_path / "kb")
    for key in ("orders", "payroll", "erp", "crm"):
        kb.ingest(files[key], tenant="acme", classification=CLASSES[key])
    ana = kb.as_subject("ana", policy=policy)
    g = ana.pep.plan("ask")
    first = governed_store(kb.store, g.allowed_sources, g.allowed_tables)
    for q in ("What was the revenue of order SO-00007?", "revenue of the North region 2023Q1"):
        ana.ask(q)
    again = governed_store(kb.store, g.allowed_sources, g.allowed_tables)
    assert again is first and first.con.created <= 4  # pooled cursors, views built once each
    assert first.con.execute("SELECT count(*) FROM sources").fetchone()[0] == 2
    f = tmp_path / "extra.csv"
    f.write_text("k,v\nx,1\n")
    kb.ingest(f, tenant="acme", classification="internal")
    g2 = ana.pep.plan("ask")
    fresh = governed_store(kb.store, g2.allowed_sources, g2.allowed_tables)
    assert fresh is not first  # a new store version: new views, never stale ones
    assert fresh.con.execute("SELECT count(*) FROM sources").fetchone()[0] == 3
    kb.close()


def test_pooled_cursor_is_not_shared_while_a_result_is_pending(pair, policy) -> None:
    from hyrag.policy.views import governed_store

    owner = pair[0]
    g = owner.as_subject("ana", policy=policy).pep.plan("ask")
    con = governed_store(owner.store, g.allowed_sources, g.allowed_tables).con
    a = con.cursor().execute("SELECT count(*) FROM claims")
    b = con.cursor().execute("SELECT count(*) FROM sources")
    assert a is not b and a._raw is not b._raw
    assert a.fetchone()[0] > b.fetchone()[0] == 3
    rel = con.sql("SELECT 1")  # a lazy relation: its cursor never goes back to the pool
    assert rel.fetchall() == [(1,)]


def test_table_reader_caches_are_per_view(pair, policy) -> None:
    """The table readers cache cell contents in process; a subject must never be served what
    was read through another's view: the key holds the visible sources, and what the cache
    returns through ana's view is what a store without the denied sources holds."""
    from hyrag.answer.parse.catalog import view_key
    from hyrag.answer.readers import tableqa_rows

    everything, alone = pair
    ana = everything.as_subject("ana", policy=policy)
    full = tableqa_rows.cells(everything.reader.con)  # fills the cache through the owner's view
    with ana._request("ask"):  # the reader a request of ana's gets (kb.ask does the same)
        mine = tableqa_rows.cells(ana.reader.con)
        assert view_key(ana.reader.con) != view_key(everything.reader.con)
    cells = tableqa_rows.cells(alone.reader.con)
    assert {(c["entity"], c["attribute"], c["value_text"]) for c in mine} == {
        (c["entity"], c["attribute"], c["value_text"]) for c in cells}
    assert len(full) > len(mine)
