"""Benches run in-process by the smoke tests must leave the embedding tier as they found it."""

from __future__ import annotations

import os

import pytest

from hyrag.bench import embed_tier


@pytest.mark.parametrize("before", [None, "local"])
def test_embed_tier_is_restored(monkeypatch, before) -> None:
    if before is None:
        monkeypatch.delenv("HYRAG_EMBED_TIER", raising=False)
    else:
        monkeypatch.setenv("HYRAG_EMBED_TIER", before)
    with pytest.raises(RuntimeError), embed_tier("hashed"):
        assert os.environ["HYRAG_EMBED_TIER"] == "hashed"
        raise RuntimeError("a bench that fails half-way restores the tier too")
    assert os.environ.get("HYRAG_EMBED_TIER") == before


def test_caller_tier_wins_without_force(monkeypatch) -> None:
    monkeypatch.setenv("HYRAG_EMBED_TIER", "local")
    with embed_tier("hashed", force=False):
        assert os.environ["HYRAG_EMBED_TIER"] == "local"
    monkeypatch.delenv("HYRAG_EMBED_TIER")
    with embed_tier("hashed", force=False):
        assert os.environ["HYRAG_EMBED_TIER"] == "hashed"
    assert "HYRAG_EMBED_TIER" not in os.environ
