"""The NumPy mirror of a Lance table (issue 20): the same top k as LanceDB under every
pre-filter a policy or a question sets, rewritten when a sync changes the vectors, and not used
for a table larger than `ann_mirror_max_vectors`."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hyrag.embed import EmbedInfo
from hyrag.index import VectorBatch, VectorFilter
from hyrag.index.lance import LanceIndex
from hyrag.index.mirror import VectorMirror
from hyrag.kb import KnowledgeBase
from hyrag.settings import Settings

DIM = 16
INFO = EmbedInfo("hashed", "test-model", DIM)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(LanceDB table, its mirror): 600 vectors over 6 sources, 3 kinds, periods with gaps."""
    rng = np.random.default_rng(7)
    n = 600
    vecs = rng.normal(size=(n, DIM)).astype(np.float32)
    vecs[::7] *= 3.0  # not all unit length: the mirror must compute cosine, not a dot product
    ids = [f"id{i:04d}" for i in range(n)]
    sources = [f"s{i % 6}" for i in range(n)]
    kinds = [("row", "summary", "text")[i % 3] for i in range(n)]
    ok = [math.nan if i % 5 == 0 else 20200101.0 + (i % 48) * 100 for i in range(n)]
    ix = LanceIndex(tmp_path_factory.mktemp("mirror") / "lance", "rows")
    ix.add(VectorBatch(ids, vecs, sources, kinds, [f"t{i % 2}" for i in range(n)], ok, ok),
           INFO)
    return ix, VectorMirror.from_arrow(ix._tbl.to_arrow())


FILTERS = [
    None,
    VectorFilter(allowed_sources=frozenset({"s1", "s4"})),
    VectorFilter(kinds=frozenset({"row", "summary"})),
    VectorFilter(allowed_sources=frozenset({"s2"}), kinds=frozenset({"text"})),
    VectorFilter(interval=(20210101.0, 20211231.0)),
    VectorFilter(interval=(-math.inf, 20200601.0)),
    VectorFilter(interval=(20230101.0, math.inf)),
    VectorFilter(ids=frozenset({"id0003", "id0100", "id0599", "nope"})),
    VectorFilter(allowed_sources=frozenset({"s0", "s3"}), kinds=frozenset({"row"}),
                 interval=(20200101.0, 20221231.0)),
    VectorFilter(allowed_sources=frozenset()),
    VectorFilter(allowed_sources=frozenset({"nobody"})),
]


@pytest.mark.parametrize("flt", FILTERS, ids=[str(i) for i in range(len(FILTERS))])
def test_the_mirror_ranks_as_lancedb_under_each_prefilter(pair, flt) -> None:
    lance, mirror = pair
    rng = np.random.default_rng(11)
    for _ in range(5):
        q = rng.normal(size=DIM).astype(np.float32)
        want = lance.search(q, 10, flt, exact=True)
        got = mirror.search(q, 10, flt)
        assert [h.id for h in got] == [h.id for h in want]
        assert [(h.source_id, h.kind, h.table_name) for h in got] == [
            (h.source_id, h.kind, h.table_name) for h in want]
        assert np.allclose([h.score for h in got], [h.score for h in want], atol=1e-5)


def test_denied_vectors_nearest_the_query_never_crowd_out_allowed_ones(pair) -> None:
    """The hard case for a post-filter: the k nearest vectors are all denied; an allowed
    subject still gets k results, none denied."""
    _, mirror = pair
    q = np.asarray(mirror.vectors[np.flatnonzero(mirror.source_ids.isin({"s5"}))[0]])
    allowed = frozenset({"s0", "s1"})
    assert mirror.search(q, 1)[0].source_id == "s5"
    hits = mirror.search(q, 10, VectorFilter(allowed_sources=allowed))
    assert len(hits) == 10 and {h.source_id for h in hits} <= allowed


def test_untimed_vectors_never_pass_a_time_filter(pair) -> None:
    _, mirror = pair
    q = np.ones(DIM, dtype=np.float32)
    hits = mirror.search(q, 600, VectorFilter(interval=(-math.inf, math.inf)))
    untimed = {f"id{i:04d}" for i in range(0, 600, 5)}
    assert hits and not {h.id for h in hits} & untimed


def _orders(path, first: int, n: int):
    rows = "\n".join(f"SO-{i:05d},{('North', 'South')[i % 2]},202{i % 4}-03-01,{i * 7}"
                     for i in range(first, first + n))
    path.write_text("order_id,region,order_date,revenue\n" + rows + "\n")
    return path


def test_a_sync_rewrites_the_mirror_and_a_search_finds_the_new_vectors(tmp_path, monkeypatch):
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    with KnowledgeBase(tmp_path / "kb") as kb:
        kb.ingest(_orders(tmp_path / "a.csv", 0, 30))
        kb.index()
        side = kb.horizon.vectors.side / "mirror"
        first = sorted(p.name for p in side.iterdir() if not p.name.startswith("."))
        assert [n.split(".")[0] for n in first] == ["claims", "rows"]
        kb.ingest(_orders(tmp_path / "b.csv", 500, 30))
        kb.index()
        second = sorted(p.name for p in side.iterdir() if not p.name.startswith("."))
        assert len(second) == 2 and not set(first) & set(second)  # new keys, old ones gone
        vs = kb.horizon.vectors
        m = vs.mirror("rows")
        assert m is not None and len(m) == vs.rows.count()
        hits = kb.search("orders order_id SO-00510 region South", k=10,
                         strategies=["row_vectors"])
        assert any("SO-00510" in c.text for c in hits.claims)


def test_a_table_larger_than_the_setting_is_searched_by_lancedb(tmp_path, monkeypatch):
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    settings = Settings(ann_mirror_max_vectors=5)
    with KnowledgeBase(tmp_path / "kb", settings=settings) as kb:
        kb.ingest(_orders(tmp_path / "a.csv", 0, 30))
        kb.index()
        vs = kb.horizon.vectors
        assert vs.rows.count() > 5 and vs.mirror("rows") is None
        assert not (vs.side / "mirror").exists() or not any(
            p.name.startswith("rows.") for p in (vs.side / "mirror").iterdir())
        hits = kb.search("orders order_id SO-00010", k=5, strategies=["row_vectors"])
        assert hits.claims  # through LanceDB
