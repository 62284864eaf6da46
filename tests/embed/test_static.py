"""The static tier (hyrag.embed.static, distilled by hyrag.embed.distill): shipped in the package,
deterministic, meaningful, and kept apart from other tiers' vectors in a knowledge base."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import hyrag
from hyrag.cli import main
from hyrag.embed import EmbeddingError, choose_tier, make_embedder
from hyrag.embed.distill import quantise, reduce
from hyrag.embed.static import FILES, MODEL_DIR, StaticEmbedder
from hyrag.errors import SettingsError
from hyrag.settings import Settings


def test_shipped_model_is_the_default_without_configuration(monkeypatch, no_network) -> None:
    monkeypatch.delenv("HYRAG_EMBED_TIER", raising=False)
    monkeypatch.delenv("HYRAG_EMBED_BASE_URL", raising=False)
    assert choose_tier() == "static"
    e = make_embedder("static")
    config = json.loads((MODEL_DIR / "config.json").read_text())
    assert e.info.tier == "static" and e.info.dim == config["dim"] == 256
    assert e.info.model == config["model_id"]


def test_model_id_names_the_shipped_arrays() -> None:
    """A knowledge base records the model id; the id must change whenever the vectors do, or a
    re-distilled model would be mixed with the old one's vectors unnoticed."""
    config = json.loads((MODEL_DIR / "config.json").read_text())
    codes = np.load(MODEL_DIR / "vectors.npy", allow_pickle=False)
    scales = np.load(MODEL_DIR / "scales.npy", allow_pickle=False)
    digest = hashlib.sha256(codes.tobytes() + scales.tobytes()).hexdigest()
    assert config["sha256"] == digest and config["model_id"].endswith(digest[:8])
    assert codes.dtype == np.int8 and codes.shape == (config["vocab_size"], config["dim"])


def test_static_vectors_are_deterministic_unit_and_order_free(no_network) -> None:
    texts = ["total revenue of the North region in 2024", "Riverside Clinic registered nurses",
             "", "sales order_id SO-10001: region North; revenue 1200.5"]
    a = make_embedder("static").embed(texts)
    b = StaticEmbedder().embed(list(reversed(texts)))[::-1]  # another instance, another order
    assert a.shape == (4, 256) and a.dtype == np.float32
    assert np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    one = make_embedder("static").embed_one(texts[0])
    assert np.array_equal(one, a[0])  # a batch of one is the same vector


def test_static_model_ranks_paraphrases_above_unrelated(no_network) -> None:
    """What the static tier adds over hashed vectors: related meanings with few shared words."""
    e = make_embedder("static")
    h = make_embedder("hashed")
    pairs = [
        ("How much revenue did we make last year?", "What were total sales in the previous year?"),
        ("How many people work at the company?", "What is the number of employees?"),
        ("Where is the firm headquartered?", "In which city is the company based?"),
    ]
    unrelated = "The cat slept on a warm windowsill all afternoon."
    gains = []
    for a, b in pairs:
        v = e.embed([a, b, unrelated])
        assert v[0] @ v[1] > v[0] @ v[2] + 0.2, (a, b)
        w = h.embed([a, b, unrelated])
        gains.append(float(v[0] @ v[1] - w[0] @ w[1]))
    assert min(gains) > 0  # closer than hashing's word overlap puts them


def test_distillation_steps_are_layout_stable_and_quantise_within_half_a_step() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(500, 12)) @ rng.normal(size=(12, 12))
    r1 = reduce(x, 4, 1e-4)
    r2 = reduce(np.asfortranarray(x), 4, 1e-4)  # another memory layout, another LAPACK path
    assert r1.shape == (500, 4) and np.allclose(r1, r2, rtol=1e-6, atol=1e-12)  # no sign flip
    codes, scales = quantise(r1)
    assert codes.dtype == np.int8 and np.abs(codes).max() <= 127
    assert np.all(np.abs(codes * scales[:, None] - r1) <= scales[:, None] / 2 + 1e-9)
    with pytest.raises(ValueError, match="dims"):
        reduce(x, 13, 1e-4)


def test_a_missing_or_inconsistent_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="missing in .*vectors.npy"):
        StaticEmbedder(tmp_path)
    for f in FILES:
        shutil.copyfile(MODEL_DIR / f, tmp_path / f)
    config = json.loads((tmp_path / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "dim": 128}))
    with pytest.raises(EmbeddingError, match="disagree"):
        StaticEmbedder(tmp_path).embed(["revenue"])


@pytest.fixture
def csv_dir(tmp_path: Path) -> Path:
    (tmp_path / "beds.csv").write_text("city,beds\nOslo,310\nBergen,120\nTromso,80\n")
    (tmp_path / "notes.md").write_text(
        "Oslo Clinic had 310 beds in 2024, up from 290 beds in 2023.\n")
    return tmp_path


def test_static_tier_round_trips_through_a_knowledge_base(csv_dir: Path, monkeypatch) -> None:
    monkeypatch.delenv("HYRAG_EMBED_TIER", raising=False)
    folder = csv_dir / "kb"
    with hyrag.open(folder, settings=Settings(embed_tier="static")) as kb:
        kb.ingest_many([csv_dir / "beds.csv", csv_dir / "notes.md"])
        rep = kb.index()
        assert len(rep.indexed) == 2 and rep.vectors >= 4
        assert kb.store.meta("embed_tier") == "static"
        assert kb.store.meta("embed_dim") == "256"
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")  # a new KB's choice: not this one's
    with hyrag.open(folder, read_only=True) as kb:
        assert kb.horizon.embedder.info.tier == "static"  # the recorded tier is kept
        res = kb.search("hospital beds in Bergen", k=5, strategies=["row_vectors"])
        assert any("Bergen" in c.text for c in res.claims)
        res = kb.search("How many beds did the Oslo Clinic have?", k=3,
                        strategies=["claim_vectors"])
        assert any("Oslo Clinic had 310 beds" in c.text for c in res.claims)


def test_another_tier_on_a_static_knowledge_base_is_refused_by_name(
        csv_dir: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("HYRAG_EMBED_TIER", raising=False)
    folder = csv_dir / "kb"
    assert main(["ingest", str(csv_dir / "beds.csv"), "--kb", str(folder), "--tier",
                 "static"]) == 0
    capsys.readouterr()
    with pytest.raises(EmbeddingError, match=r"static:minilm-l6-static-256.*hashed tier"), \
            hyrag.open(folder, settings=Settings(embed_tier="hashed"), read_only=True) as kb:
        kb.search("beds in Bergen", k=3)
    # the CLI says so and ingests nothing: the store is unchanged
    assert main(["ingest", str(csv_dir / "notes.md"), "--kb", str(folder), "--tier",
                 "hashed"]) != 0
    err = capsys.readouterr().err
    assert "static:minilm-l6-static-256" in err and "hashed tier" in err
    assert main(["index", "--kb", str(folder), "--tier", "local"]) != 0
    assert "local tier" in capsys.readouterr().err
    with hyrag.open(folder, read_only=True) as kb:
        names = [r[0] for r in kb.store.con.execute("SELECT name FROM sources").fetchall()]
    assert names == ["beds.csv"]


def test_embed_tier_setting_is_validated() -> None:
    with pytest.raises(SettingsError, match="embed_tier"):
        Settings(embed_tier="minilm")


def test_no_vectors_then_index_keeps_the_tier_asked_at_ingest(
        csv_dir: Path, monkeypatch, capsys) -> None:
    """`hyrag ingest --no-vectors --tier T` records T; `hyrag index` later embeds with it."""
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")  # what a new KB would otherwise get
    folder = csv_dir / "kb"
    assert main(["ingest", str(csv_dir / "beds.csv"), str(csv_dir / "notes.md"), "--kb",
                 str(folder), "--no-vectors", "--tier", "static"]) == 0
    with hyrag.open(folder, read_only=True) as kb:
        assert len(kb.pending_vectors()) == 2
    capsys.readouterr()
    assert main(["index", "--kb", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "written for 2 source(s)" in out and "static:minilm-l6-static-256" in out


def test_a_knowledge_base_of_another_distillation_is_refused(csv_dir: Path, monkeypatch) -> None:
    """A re-distilled model has another id: vectors of the old one are not searched with it."""
    monkeypatch.delenv("HYRAG_EMBED_TIER", raising=False)
    folder = csv_dir / "kb"
    with hyrag.open(folder, settings=Settings(embed_tier="static")) as kb:
        kb.ingest(csv_dir / "beds.csv")
        kb.index()
        kb.store.set_meta("embed_model", "minilm-l6-static-256-int8-00000000")
    with pytest.raises(EmbeddingError, match="00000000.*refusing.*static:minilm"), \
            hyrag.open(folder, read_only=True) as kb:
        kb.search("beds in Bergen", k=3)
