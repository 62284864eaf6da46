"""`kb.search` end to end on small knowledge bases in tmp_path (hashed vectors: fast, offline)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from hyrag.kb import KnowledgeBase
from hyrag.retrieve.summaries import RowCells, describe, is_summary, kmeans


@pytest.fixture(autouse=True)
def hashed(monkeypatch):
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")


def orders(n: int = 48, seed: int = 1, bump: float = 0.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "order_id": [f"SO-{i:05d}" for i in range(n)],
            "order_date": [f"{2022 + i % 3}-{1 + i % 12:02d}-15" for i in range(n)],
            "region": [["North", "South", "East", "West"][i % 4] for i in range(n)],
            "product": [["Ergonomic Chair", "Laptop Pro 14", "Desk Lamp"][i % 3] for i in range(n)],
            "revenue": np.round(rng.uniform(100, 900, n) + bump, 2),
        }
    )


@pytest.fixture
def kb(tmp_path):
    a = tmp_path / "orders.csv"
    orders().to_csv(a, index=False)
    b = tmp_path / "notes.md"
    b.write_text(
        "Harbor Health Partners owns Riverside Clinic.\n\n"
        "Riverside Clinic had 310 licensed beds in 2024.\n\n"
        "Nordic Foods AS is headquartered in Trondheim, Norway.\n"
    )
    k = KnowledgeBase(tmp_path / "kb")
    k.ingest(a)
    k.ingest(b)
    yield k
    k.close()


def test_results_explain_themselves(kb) -> None:
    res = kb.search("What was the revenue of order SO-00007?", k=5)
    assert 1 <= len(res.claims) <= 5 and res.best_strategy in {s.name for s in res.strategies}
    top = res.claims[0]
    assert "SO-00007" in top.text and top.attribute == "revenue"
    assert top.ranks and set(top.ranks) == set(top.scores)
    assert top.fused_score == pytest.approx(sum(1 / (60 + r) for r in top.ranks.values()))
    assert [c.rank for c in res.claims] == list(range(1, len(res.claims) + 1))
    d = res.to_dict()
    assert d["claims"][0]["claim_id"] == top.claim_id and "strategies" in d


def test_typo_found_by_graph(kb) -> None:
    res = kb.search("revenue of the Nroth region in 2023", k=10)
    assert any(c.entity == "North" or "region North" in c.text for c in res.claims[:5])


def test_allowed_sources_prefilter_keeps_k(kb) -> None:
    src = dict(kb.store.con.execute("SELECT name, source_id FROM sources").fetchall())
    q = "revenue of order SO-00007 at Riverside Clinic"
    res = kb.search(q, k=3, allowed_sources={src["notes.md"]})
    assert res.claims and all(c.source_id == src["notes.md"] for c in res.claims)
    assert kb.search(q, k=3, allowed_sources=set()).claims == []


def test_temporal_interval_hard_filters(kb) -> None:
    res = kb.search("total revenue of the South region in 2023", k=10)
    assert res.interval is not None and res.claims
    for c in res.claims:
        i = kb.horizon.retriever().cat.index[c.claim_id]
        assert 20230101 <= kb.horizon.retriever().cat.order_keys[i] < 20240101


def test_superseded_vectors_never_returned(tmp_path) -> None:
    f = tmp_path / "orders.csv"
    orders().to_csv(f, index=False)
    with KnowledgeBase(tmp_path / "kb") as kb:
        kb.ingest(f)
        kb.index()
        old = kb.store.con.execute("SELECT source_id FROM sources").fetchall()[0][0]
        orders(bump=1000.0).to_csv(f, index=False)
        kb.ingest(f)
        h = kb.horizon
        assert old in h.vectors.rows.sources()  # not yet synced ...
        r = h.retriever().search(
            "revenue of order SO-00003",
            h.embedder.embed_one("revenue of order SO-00003"),
            allowed_sources=h.current_sources(),
        )
        assert r.claims and all(c.source_id != old for c in r.claims)  # ... yet never returned
        kb.index()
        assert old not in h.vectors.rows.sources() and old not in h.vectors.indexed()


def test_vector_failure_leaves_source_pending_then_retried(kb) -> None:
    kb.index()
    vs = kb.horizon.vectors
    assert vs.indexed() and not vs.pending()
    vs_n = vs.rows.count()
    extra = kb.path.parent / "more.csv"
    orders(12, seed=3).assign(order_id=[f"SO-9{i:04d}" for i in range(12)]).to_csv(
        extra, index=False
    )

    def boom(step: str) -> None:
        if step == "summaries":
            raise OSError("disk full")

    vs.fail_hook = boom
    kb.ingest(extra)
    rep = kb.index()
    assert rep.failed and vs.pending()
    assert vs.rows.count() > vs_n  # partial rows were written before the failure
    # search retries the pending source (failing again here) and still finds it lexically
    res = kb.search("revenue of order SO-90003", k=5, strategies=["lexical"])
    assert "SO-90003" in res.claims[0].text and vs.pending()
    vs.fail_hook = None
    rep = kb.index()
    assert not vs.pending()
    ids = vs.rows.search(kb.horizon.embedder.embed_one("order"), 10_000)
    assert len({h.id for h in ids}) == len(ids)  # the retry replaced, never duplicated


def test_summaries_are_nodes_with_reserved_prefix(kb) -> None:
    kb.index()
    s = kb.horizon.vectors.summaries
    assert s and all(is_summary(k) for k in s)
    res = kb.search("Summary of orders cluster mostly North", k=20, strategies=["row_vectors"])
    nodes = [c for c in res.claims if c.kind == "summary"]
    assert nodes and all(c.claim_id.startswith("summary:") and c.text for c in nodes)


def test_kmeans_and_summaries_are_deterministic() -> None:
    rng = np.random.default_rng(0)
    x = np.vstack([rng.normal(m, 0.05, (20, 4)) for m in (0.0, 1.0, 2.0)]).astype(np.float32)
    l1, c1 = kmeans(x, 3)
    l2, c2 = kmeans(x, 3)
    assert np.array_equal(l1, l2) and np.allclose(c1, c2) and len(set(l1.tolist())) == 3
    rows = [
        RowCells(
            "i1",
            (("region", "North", None, "categorical"), ("revenue", "10", 10.0, "numeric")),
            None,
            "2024Q1",
        ),
        RowCells(
            "i2",
            (("region", "North", None, "categorical"), ("revenue", "30", 30.0, "numeric")),
            None,
            "2024Q2",
        ),
    ]
    text = describe("orders", rows, 0, 2)
    assert text == describe("orders", rows, 0, 2)
    assert "region mostly North (100%)" in text and "revenue from 10 to 30" in text


def test_relation_expansion_for_analytical_questions(kb) -> None:
    res = kb.search("Which clinic does Harbor Health Partners own?", k=10, expand=True)
    # the note's "owns" sentence must yield a relation: without it there is nothing to expand
    assert kb.store.count("SELECT count(*) FROM relations") > 0
    assert res.analytical
    texts = " ".join(c.text for c in res.claims)
    assert "Riverside Clinic" in texts
