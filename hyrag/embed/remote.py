"""An OpenAI-compatible embeddings endpoint (`HYRAG_EMBED_BASE_URL`, `HYRAG_EMBED_MODEL`).

Separate from the LLM's settings (CONTRACT.md), because a deployment often serves chat and
embeddings from different places. The key is `HYRAG_EMBED_API_KEY`, else `OPENAI_API_KEY`, else
a placeholder (local servers ignore it). The dimension is learned from the first response.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from hyrag.embed import Embedder, EmbeddingError, EmbedInfo


class RemoteEmbedder(Embedder):
    def __init__(self, model: str | None = None, base_url: str | None = None) -> None:
        self.base_url = base_url or os.environ.get("HYRAG_EMBED_BASE_URL")
        self.model = model or os.environ.get("HYRAG_EMBED_MODEL") or "text-embedding-3-small"
        if not self.base_url:
            raise EmbeddingError("remote embeddings need HYRAG_EMBED_BASE_URL")
        try:
            from openai import OpenAI
        except ImportError as e:  # pragma: no cover - openai is a declared dependency
            raise EmbeddingError(f"the openai package is needed for remote embeddings: {e}") from e
        key = os.environ.get("HYRAG_EMBED_API_KEY") or os.environ.get("OPENAI_API_KEY") or "none"
        self._client = OpenAI(base_url=self.base_url, api_key=key)
        dim = int(os.environ.get("HYRAG_EMBED_DIM", "0")) or len(self._call(["dimension probe"])[0])
        self.info = EmbedInfo("remote", self.model, dim)

    def _call(self, texts: Sequence[str]) -> np.ndarray:
        try:
            resp = self._client.embeddings.create(model=self.model, input=list(texts))
        except Exception as e:  # network, auth, server: one error type for the caller
            raise EmbeddingError(f"embedding endpoint {self.base_url} failed: {e}") from e
        rows = sorted(resp.data, key=lambda d: d.index)
        return np.asarray([r.embedding for r in rows], dtype=np.float32)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._call(texts)
