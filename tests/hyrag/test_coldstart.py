"""A fresh process starts fast (issue 20): `import hyrag` and `hyrag sql` load only what they
use, and what depends only on a knowledge base's contents (the answer engine's schema catalog,
BM25 postings, the name graph) is built once, saved in its folder, and rebuilt after an ingest.

Each "fresh process" here is a real subprocess: the in-memory caches of this one prove
nothing about the next."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hyrag
from hyrag.kbcache import CACHE_DIR
from hyrag.retrieve.horizon import RETRIEVAL_CACHE

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pandas", "onnxruntime", "tokenizers", "lancedb", "hyrag.answer", "hyrag.ingestion")


def _run(code: str, *args: str) -> dict:
    """Run `code` in a new interpreter with this checkout first on the path; its last stdout
    line is JSON."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HYRAG_EMBED_TIER": "hashed"}
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _loaded(names: tuple[str, ...]) -> str:
    return f"[m for m in {list(names)!r} if m in sys.modules]"


def test_import_hyrag_loads_no_heavy_module():
    got = _run(f"""
        import json, sys
        import hyrag
        print(json.dumps({_loaded(HEAVY + ("duckdb", "sqlglot", "numpy"))}))
    """)
    assert got == []


def test_hyrag_sql_loads_neither_answer_engine_nor_embedding_runtime(tmp_path):
    with hyrag.open(tmp_path / "kb") as kb:
        (tmp_path / "t.csv").write_text("name,score\nada,3\nbob,4\n")
        kb.ingest(tmp_path / "t.csv")
    got = _run(f"""
        import json, sys
        from hyrag.cli import main
        rc = main(["sql", "--kb", sys.argv[1], "SELECT sum(score) AS s FROM t"])
        print(json.dumps({{"rc": rc, "loaded": {_loaded(HEAVY + ("hyrag.bench",))}}}))
    """, str(tmp_path / "kb"))
    assert got == {"rc": 0, "loaded": []}


# what a question answered from the claims (no vector search, no SQL) must not import
STRUCTURAL_UNUSED = ("lancedb", "pyarrow", "onnxruntime", "tokenizers", "pandas", "sqlglot",
                     "numpy", "hyrag.retrieve.horizon", "hyrag.index.builder", "ecr")


def test_a_structural_hyrag_ask_imports_no_vector_backend_sql_guard_or_numpy(tmp_path):
    """`hyrag ask` answered from the claims in a fresh process: LanceDB (1.5-3 s to import),
    the embedding runtime, sqlglot and NumPy stay unimported, though the knowledge base has
    vectors written (so the CLI opens it read-only and checks for pending ones)."""
    folder = _kb(tmp_path)
    with hyrag.open(folder) as kb:
        assert kb.index().indexed  # vectors written: nothing pending
    got = _run(f"""
        import json, sys
        from hyrag.cli import main
        rc = main(["ask", "--kb", sys.argv[1], "--json",
                   "What was the headcount of Lakeside Depot in 2024?"])
        print()
        print(json.dumps({{"rc": rc, "loaded": {_loaded(STRUCTURAL_UNUSED)}}}))
    """, str(folder))
    assert got == {"rc": 0, "loaded": []}


_SEARCH = """
    import json, sys
    import hyrag
    from hyrag.settings import Settings
    settings = Settings(ann_mirror_max_vectors=int(sys.argv[2]))
    with hyrag.open(sys.argv[1], read_only=True, settings=settings) as kb:
        pending = kb.pending_vectors()
        vs = kb.horizon.vectors
        before = [vs.opened, "lancedb" in sys.modules]
        hits = kb.search("Lakeside Depot headcount", k=5)
        print(json.dumps({"pending": pending, "before": before, "opened": vs.opened,
                          "lancedb": "lancedb" in sys.modules,
                          "hits": [(c.claim_id, c.ranks, {k: round(v, 5)
                                   for k, v in c.scores.items()}) for c in hits.claims]}))
"""


def test_a_fresh_search_reads_the_vector_mirror_without_importing_lancedb(tmp_path):
    """`kb.index()` writes a NumPy mirror of each small vector table; a fresh process's
    search ranks from it and never imports LanceDB (1.5-3 s), with the same results as the
    LanceDB path (`ann_mirror_max_vectors=0`), which opens the index at the first search."""
    folder = _kb(tmp_path)
    with hyrag.open(folder) as kb:
        kb.index()
    mirrored = _run(_SEARCH, str(folder), "250000")
    assert mirrored["pending"] == [] and mirrored["before"] == [False, False]
    assert not mirrored["opened"] and not mirrored["lancedb"]
    lance = _run(_SEARCH, str(folder), "0")
    assert lance["before"] == [False, False] and lance["opened"] and lance["lancedb"]
    assert mirrored["hits"] == lance["hits"]
    assert any("row_vectors" in ranks for _, ranks, _ in mirrored["hits"])


_ASK = """
    import json, sys
    import hyrag
    from hyrag.answer.parse import catalog
    from hyrag.retrieve import bm25
    built = []
    real_build, real_init = catalog._build, bm25.BM25Index.__init__
    def build(con):
        built.append("catalog")
        return real_build(con)
    def init(self, *a, **kw):
        built.append("bm25")
        real_init(self, *a, **kw)
    catalog._build, bm25.BM25Index.__init__ = build, init
    with hyrag.open(sys.argv[1]) as kb:
        if len(sys.argv) > 2:
            kb.ingest(sys.argv[2])
        answer = kb.ask("What was the headcount of Lakeside Depot in 2024?")
        hits = kb.search("Lakeside Depot headcount", k=3)
        print(json.dumps({"built": built, "text": answer.text, "decision": answer.decision,
                          "top": hits.claims[0].text if hits.claims else None,
                          "generation": kb.store.generation()}))
"""


def _kb(tmp_path: Path) -> Path:
    (tmp_path / "staff.csv").write_text(
        "site,year,headcount\nLakeside Depot,2023,41\nLakeside Depot,2024,57\n"
        "Hillcrest Works,2024,23\n")
    (tmp_path / "more.csv").write_text(
        "site,year,headcount\nRiverbend Yard,2024,88\n")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(tmp_path / "staff.csv")
    return tmp_path / "kb"


def test_a_fresh_process_reuses_the_saved_indexes_until_an_ingest(tmp_path):
    folder = _kb(tmp_path)
    first = _run(_ASK, str(folder))
    assert first["built"] == ["catalog", "bm25"]  # nothing saved yet: built, then saved
    assert "57" in first["text"] and first["decision"] == "answer"
    saved = {p.name: p.stat().st_mtime_ns for p in (folder / CACHE_DIR).iterdir()}
    assert "answer_catalog.json" in saved
    assert [n for n in saved if n.startswith(RETRIEVAL_CACHE + ".")]  # catalog, BM25, graph

    second = _run(_ASK, str(folder))
    assert second["built"] == []  # read back, not rebuilt
    assert (second["text"], second["top"]) == (first["text"], first["top"])
    assert {p.name: p.stat().st_mtime_ns for p in (folder / CACHE_DIR).iterdir()} == saved

    third = _run(_ASK, str(folder), str(tmp_path / "more.csv"))  # an ingest, then ask
    assert third["generation"] == first["generation"] + 1
    assert third["built"] == ["catalog", "bm25"]  # the saved ones no longer match
    assert "57" in third["text"]
    fourth = _run(_ASK, str(folder))
    assert fourth["built"] == []


def test_a_damaged_cache_file_is_rebuilt_not_trusted(tmp_path):
    folder = _kb(tmp_path)
    _run(_ASK, str(folder))
    (folder / CACHE_DIR / "answer_catalog.json").write_text('{"key": "x", "data": [1, 2')
    (saved,) = (folder / CACHE_DIR).glob(RETRIEVAL_CACHE + ".*")
    (saved / "bm25.post_doc.npy").write_bytes(b"\x93NUMPY cut short")
    got = _run(_ASK, str(folder))
    assert got["built"] == ["catalog", "bm25"]
    assert "57" in got["text"]


def test_the_generation_advances_with_each_committed_ingest_only(tmp_path):
    with hyrag.open(tmp_path / "kb") as kb:
        g0 = kb.store.generation()
        (tmp_path / "a.csv").write_text("name,x\nada,1\n")
        kb.ingest(tmp_path / "a.csv")
        assert kb.store.generation() == g0 + 1
        assert kb.ingest(tmp_path / "a.csv").status == "unchanged"
        assert kb.store.generation() == g0 + 1
        (tmp_path / "bad.csv").write_bytes(b"")
        with pytest.raises(hyrag.HyragError):  # refused: nothing committed
            kb.ingest(tmp_path / "bad.csv")
        assert kb.store.generation() == g0 + 1


def test_bench_coldstart_times_each_command_beside_the_references(tmp_path, capsys,
                                                                  monkeypatch):
    import argparse

    from hyrag.bench import coldstart

    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the children import this checkout
    folder = _kb(tmp_path)
    p = argparse.ArgumentParser()
    coldstart.add_arguments(p)
    args = p.parse_args(["--kb", str(folder), "--repeat", "2", "--out", str(tmp_path / "o.json"),
                         "--question", "What was the headcount of Lakeside Depot in 2024?"])
    assert coldstart.run(args) == 0
    got = json.loads((tmp_path / "o.json").read_text())
    assert set(got["summary"]) == {"python -c pass", "python -c 'import duckdb'",
                                   "hyrag sql 'SELECT 1'", "hyrag ask"}
    assert all(len(ts) == 2 for ts in got["times_s"].values())
    duck = got["summary"]["python -c 'import duckdb'"]
    assert duck["x_import_duckdb"] == 1.0 and duck["min_s"] <= duck["median_s"] <= duck["max_s"]
    out = capsys.readouterr().out
    assert f"rerun: hyrag bench coldstart --repeat 2 --kb {folder}" in out


def test_the_saved_catalog_keeps_one_copy_of_each_entitys_attribute_set(tmp_path):
    """Entities of one table carry the same attributes: the saved catalog lists each distinct
    set once (100,000 order ids made 14 of its 16 MB at 1.1 M claims), and reads back equal."""
    from hyrag.answer.parse import catalog

    rows = "\n".join(f"ORD-{i:05d},{2020 + i % 4},{i * 3}" for i in range(400))
    (tmp_path / "orders.csv").write_text("order_id,year,revenue\n" + rows + "\n")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(tmp_path / "orders.csv")
        cat = catalog._build(kb.store.con)
    doc = json.loads(json.dumps(catalog.encode_catalog(cat)))
    shared = doc["entity_attrs"]
    assert len(shared["index"]) == len(cat.entity_attrs) >= 400
    assert len(shared["sets"]) < 5
    back = catalog.decode_catalog(doc)
    assert back is not None and back.entity_attrs == cat.entity_attrs
    assert back.entities == cat.entities and back.ids == cat.ids
