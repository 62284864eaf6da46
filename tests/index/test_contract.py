"""One contract, both vector backends (LanceDB and NumPy): the pre-filter is applied before
ranking, deletes are complete, and two models never share an index."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hyrag.embed import EmbeddingError, EmbedInfo
from hyrag.index import VectorBatch, VectorFilter, open_index
from hyrag.index.ann import AnnSettings
from hyrag.index.lance import LanceIndex

DIM = 8
INFO = EmbedInfo("hashed", "test-model", DIM)


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=-1, keepdims=True)).astype(np.float32)


class TrainedLance(LanceIndex):
    """LanceDB with its approximate index retrained after every write, probing one partition
    of four: the contract must hold on the ANN path too (a narrow pre-filter still yields k)."""

    def _add(self, batch: VectorBatch) -> None:
        super()._add(batch)
        assert self.maintain() in ("built", "rebuilt")


@pytest.fixture(params=["numpy", "lance", "lance-ann"])
def index(request, tmp_path):
    if request.param == "lance-ann":
        ann = AnnSettings(
            min_vectors=1, nprobes=1, partitions=4, refine_factor=0, rebuild_growth=0.01
        )
        return TrainedLance(tmp_path / "lance", "rows", ann)
    return open_index(tmp_path, "rows", request.param)


def fill(ix, n_denied: int = 30, n_allowed: int = 12) -> np.ndarray:
    """Denied vectors sit right on the query; allowed ones are further away (the hard case for
    a post-filter: a top-k followed by filtering would return nothing allowed)."""
    rng = np.random.default_rng(0)
    q = unit(np.ones(DIM))
    denied = unit(q + rng.normal(0, 0.01, (n_denied, DIM)))
    allowed = unit(q + rng.normal(0, 0.8, (n_allowed, DIM)))
    ids = [f"d{i}" for i in range(n_denied)] + [f"a{i}" for i in range(n_allowed)]
    src = ["denied"] * n_denied + ["ok"] * n_allowed
    ok = [20240115.0 + i for i in range(n_denied)] + [20230301.0 + i for i in range(n_allowed)]
    kinds = ["row"] * (n_denied + n_allowed - 2) + ["summary", "summary"]
    ix.add(VectorBatch(ids, np.vstack([denied, allowed]), src, kinds, ok_lo=ok, ok_hi=ok), INFO)
    return q


def test_prefilter_by_source_still_returns_k(index) -> None:
    q = fill(index)
    assert all(h.source_id == "denied" for h in index.search(q, 5))
    hits = index.search(q, 5, VectorFilter(allowed_sources=frozenset({"ok"})))
    assert len(hits) == 5 and all(h.source_id == "ok" for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_empty_allow_list_admits_nothing(index) -> None:
    q = fill(index)
    assert index.search(q, 5, VectorFilter(allowed_sources=frozenset())) == []
    assert index.search(q, 5, VectorFilter(allowed_sources=frozenset({"nobody"}))) == []


def test_interval_kind_and_id_filters(index) -> None:
    q = fill(index)
    hits = index.search(q, 50, VectorFilter(interval=(20230101.0, 20231231.999)))
    assert hits and all(h.id.startswith("a") for h in hits)
    hits = index.search(q, 50, VectorFilter(kinds=frozenset({"summary"})))
    assert sorted(h.id for h in hits) == ["a10", "a11"]
    hits = index.search(q, 50, VectorFilter(ids=frozenset({"a3", "d4"})))
    assert sorted(h.id for h in hits) == ["a3", "d4"]


def test_untimed_vectors_never_pass_a_time_filter(index) -> None:
    index.add(VectorBatch(["u"], unit(np.ones((1, DIM))), ["ok"], ["row"]), INFO)
    assert [h.id for h in index.search(unit(np.ones(DIM)), 5)] == ["u"]
    assert index.search(unit(np.ones(DIM)), 5, VectorFilter(interval=(-math.inf, math.inf))) == []


def test_open_intervals(index) -> None:
    q = fill(index)
    hits = index.search(q, 50, VectorFilter(interval=(20240101.0, math.inf)))
    assert hits and all(h.id.startswith("d") for h in hits)


def test_delete_sources(index) -> None:
    q = fill(index)
    assert index.delete_sources(["denied"]) == 30
    assert index.count() == 12 and index.sources() == {"ok"}
    assert all(h.source_id == "ok" for h in index.search(q, 50))


def test_refuses_a_second_model(index) -> None:
    fill(index)
    other = EmbedInfo("local", "all-MiniLM-L6-v2-onnx-int8", DIM)
    with pytest.raises(EmbeddingError, match="test-model.*all-MiniLM"):
        index.add(VectorBatch(["x"], unit(np.ones((1, DIM))), ["ok"], ["row"]), other)


def test_persisted_and_reopened(index, tmp_path) -> None:
    q = fill(index)
    backend = "lance" if isinstance(index, LanceIndex) else "numpy"
    again = open_index(tmp_path, "rows", backend, getattr(index, "ann", None))
    assert again.count() == index.count() and again.info == INFO
    assert [h.id for h in again.search(q, 3)] == [h.id for h in index.search(q, 3)]
