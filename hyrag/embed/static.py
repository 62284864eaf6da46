"""The static tier: one vector per word piece, distilled from the local MiniLM, averaged per text.

A text's vector is the mean of its tokens' vectors (no transformer pass), so embedding is a
tokenizer call and a table lookup: thousands of row texts a second on one core where the
local MiniLM does ~50-100, which is what makes `hyrag ingest` of a folder with vectors fast.
Word order and context are lost; what remains is MiniLM's sense of each word piece (nearby
meanings stay nearby), on top of the exact-word matching BM25 already gives retrieval.

The model (hyrag/embed/models/minilm-static, ~8 MB: int8 vectors, per-token scales, the
tokenizer and config.json) ships inside the package and is produced by `python -m
hyrag.embed.distill` from the installed MiniLM; nothing is downloaded. Needs NumPy and
tokenizers only (both dependencies).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from hyrag.embed import Embedder, EmbeddingError, EmbedInfo

MODEL_DIR = Path(__file__).resolve().parent / "models" / "minilm-static"
FILES = ("vectors.npy", "scales.npy", "tokenizer.json", "config.json")
# Word pieces read per text: MiniLM's own limit is 256; a mean over more pieces still means
# something, and a cap keeps one huge cell from costing more than a row.
MAX_TOKENS = 512


def model_available(folder: Path = MODEL_DIR) -> bool:
    return all((folder / f).is_file() for f in FILES)


@lru_cache(maxsize=2)
def _load(folder: str) -> tuple[np.ndarray, object, dict]:
    """(float32 token vectors, tokenizer, config) of one model folder, read once a process."""
    from tokenizers import Tokenizer

    root = Path(folder)
    try:
        config = json.loads((root / "config.json").read_text())
        codes = np.load(root / "vectors.npy", allow_pickle=False)
        scales = np.load(root / "scales.npy", allow_pickle=False)
        tok = Tokenizer.from_file(str(root / "tokenizer.json"))
    except (OSError, ValueError) as e:
        raise EmbeddingError(f"static embedding model in {root} is unreadable: {e}") from e
    if codes.ndim != 2 or scales.shape != (codes.shape[0],) or codes.shape[1] != config.get(
            "dim"):
        raise EmbeddingError(f"static embedding model in {root}: vectors {codes.shape}, scales "
                             f"{scales.shape} and config dim {config.get('dim')} disagree")
    if tok.get_vocab_size() != codes.shape[0]:
        raise EmbeddingError(f"static embedding model in {root}: tokenizer has "
                             f"{tok.get_vocab_size()} tokens, vectors {codes.shape[0]}")
    tok.no_padding()
    tok.enable_truncation(MAX_TOKENS)
    return codes.astype(np.float32) * scales[:, None], tok, config


class StaticEmbedder(Embedder):
    """Mean of the distilled token vectors; `info.model` names the distillation (its digest)."""

    def __init__(self, folder: Path = MODEL_DIR) -> None:
        if not model_available(folder):
            raise EmbeddingError(
                f"static embedding model missing in {folder} (expected {', '.join(FILES)}); "
                "reinstall hyrag, or rebuild it with `python -m hyrag.embed.distill`")
        self._folder = str(folder)
        config = json.loads((folder / "config.json").read_text())
        self.info = EmbedInfo("static", str(config["model_id"]), int(config["dim"]))

    def embed(self, texts: Sequence[str], batch_size: int = 256) -> np.ndarray:
        """Batches of 256: large enough to amortise the tokenizer call, small enough that the
        batch's gathered token vectors (tokens x dim floats) stay a few tens of MB."""
        return super().embed(texts, batch_size)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        """Sum of token vectors as (texts x distinct tokens counts) @ (their vectors): a batch
        repeats the same headers and words, so this reads each token's vector once instead of
        gathering one float row per token (236 MB for the sample rows at once)."""
        vectors, tok, _ = _load(self._folder)
        encs = tok.encode_batch_fast(list(texts), add_special_tokens=False)  # type: ignore[attr-defined]
        lists = [e.ids for e in encs]
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        if not lengths.sum():
            return np.zeros((len(lists), vectors.shape[1]), dtype=np.float32)
        ids = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists])
        uniq, col = np.unique(ids, return_inverse=True)
        row = np.repeat(np.arange(len(lists)), lengths)
        counts = np.bincount(row * len(uniq) + col, minlength=len(lists) * len(uniq))
        counts = counts.reshape(len(lists), len(uniq)).astype(np.float32)
        # a text of no word piece stays a zero row (`normalise` leaves it so)
        return (counts @ vectors[uniq]) / np.maximum(lengths, 1)[:, None]
