"""The approximate index: trained when a table gets large, retrained when it grows, and still
honouring pre-filters and k (a narrow policy filter must not starve the result list)."""

from __future__ import annotations

import numpy as np
import pytest

from hyrag.embed import EmbedInfo
from hyrag.errors import SettingsError
from hyrag.index import VectorBatch, VectorFilter
from hyrag.index.ann import AnnIndexType, AnnSettings
from hyrag.index.lance import LanceIndex
from hyrag.index.numpy_index import NumpyIndex
from hyrag.settings import Settings

DIM = 16
INFO = EmbedInfo("hashed", "test-model", DIM)


def clustered(n: int, seed: int = 0) -> np.ndarray:
    """Unit vectors around 40 centres: neighbourhoods like real claims sharing an entity."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, DIM))
    v = centres[rng.integers(0, 40, n)] + rng.normal(0, 0.35, (n, DIM))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def batch(v: np.ndarray, start: int = 0, n_src: int = 20) -> VectorBatch:
    n = len(v)
    ids = [f"c{start + i:06d}" for i in range(n)]
    return VectorBatch(ids, v, [f"s{(start + i) % n_src:02d}" for i in range(n)], ["claim"] * n)


def vector_indexes(ix: LanceIndex) -> dict[str, str]:
    return {list(i.columns)[0]: i.index_type for i in ix._tbl.list_indices()}


def test_trained_once_large_and_again_after_growth(tmp_path) -> None:
    ix = LanceIndex(tmp_path, "claims", AnnSettings(min_vectors=500, rebuild_growth=0.25))
    v = clustered(1000)
    ix.add(batch(v[:400]), INFO)
    assert ix.maintain() is None and ix.ann_stats() is None  # small: exact scan
    ix.add(batch(v[400:600], 400), INFO)
    assert ix.maintain() == "built"
    assert vector_indexes(ix) == {"vector": "IvfSq", "source_id": "Bitmap", "kind": "Bitmap"}
    assert ix.ann_stats() == (600, 0)
    ix.add(batch(v[600:700], 700), INFO)  # 100 unindexed <= 25% of 600: searched exactly
    assert ix.maintain() is None and ix.ann_stats() == (600, 100)
    ix.add(batch(v[700:], 800), INFO)
    assert ix.maintain() == "rebuilt" and ix.ann_stats() == (1000, 0)


def test_unindexed_rows_are_still_found(tmp_path) -> None:
    ix = LanceIndex(tmp_path, "claims", AnnSettings(min_vectors=100))
    v = clustered(600)
    ix.add(batch(v[:500]), INFO)
    assert ix.maintain() == "built"
    ix.add(batch(v[500:], 500), INFO)  # below the growth share: not retrained
    assert ix.ann_stats() == (500, 100)
    assert ix.search(v[550], 1)[0].id == "c000550"


def test_recall_against_the_exact_scan_with_prefilter(tmp_path) -> None:
    v = clustered(5000)
    ann = LanceIndex(tmp_path, "claims", AnnSettings(min_vectors=1000))
    exact = NumpyIndex(None, "claims", persist=False)
    for ix in (ann, exact):
        ix.add(batch(v), INFO)
    assert ann.maintain() == "built"
    queries = clustered(40, seed=9)
    half = VectorFilter(allowed_sources=frozenset(f"s{i:02d}" for i in range(10)))
    recalls, leaks = [], 0
    for i, q in enumerate(queries):
        flt = half if i % 2 else None
        truth = {h.id for h in exact.search(q, 10, flt)}
        got = ann.search(q, 10, flt)
        recalls.append(len(truth & {h.id for h in got}) / 10)
        leaks += sum(flt is not None and h.source_id not in flt.allowed_sources for h in got)
    assert leaks == 0
    assert np.mean(recalls) >= 0.9


def test_narrow_filter_still_gets_k_when_probing_one_partition(tmp_path) -> None:
    ix = LanceIndex(
        tmp_path, "claims", AnnSettings(min_vectors=1, nprobes=1, partitions=16, refine_factor=0)
    )
    v = clustered(3000)
    ix.add(batch(v, n_src=300), INFO)  # 10 vectors per source, scattered over partitions
    assert ix.maintain() == "built"
    only = VectorFilter(allowed_sources=frozenset({"s07"}))
    hits = ix.search(v[0], 10, only)
    assert len(hits) == 10 and {h.source_id for h in hits} == {"s07"}


def test_settings_are_validated_with_named_messages() -> None:
    assert AnnSettings.from_settings(Settings()) == AnnSettings()
    assert AnnSettings(index_type="ivf_pq").index_type is AnnIndexType.IVF_PQ
    with pytest.raises(SettingsError, match="valid: IVF_SQ, IVF_PQ, IVF_RQ, IVF_FLAT"):
        Settings(ann_index_type="HNSW")
    with pytest.raises(SettingsError, match="ann_nprobes must be a positive integer"):
        Settings(ann_nprobes=0)
    with pytest.raises(SettingsError, match="ann_rebuild_growth must be > 0"):
        Settings(ann_rebuild_growth=0)
    s = AnnSettings(min_vectors=100)
    assert not s.needs_build(0, 99) and s.needs_build(0, 100)
    assert not s.needs_build(1000, 250) and s.needs_build(1000, 251)
    assert s.num_partitions(1_000_000) == 244 and s.num_partitions(1000) == 1
