"""Opening a knowledge base never runs code its files hold: vectors are read without unpickling.

A `.npz` whose arrays are pickled objects (here one whose unpickling writes a marker file) is
what a crafted knowledge-base folder would carry; c683b67 loaded it with `allow_pickle=True` and
ran it."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import hyrag
from hyrag.embed import EmbedInfo
from hyrag.index import VectorBatch
from hyrag.index.numpy_index import NumpyIndex


class _Payload:
    """Unpickling this calls os.system, which creates the marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _crafted(folder: Path, marker: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    evil = np.empty(1, dtype=object)
    evil[0] = _Payload(marker)
    np.savez(folder / f"{name}.npz", ids=evil, vectors=np.zeros((1, 4), np.float32),
             source_ids=evil, kinds=evil, tables=evil, ok_lo=np.zeros(1), ok_hi=np.zeros(1))


def test_the_crafted_file_would_run_code_when_unpickled(tmp_path: Path) -> None:
    """The check below means something: loading the file with pickling allowed runs it."""
    marker = tmp_path / "ran"
    _crafted(tmp_path / "vectors", marker, "claims")
    with np.load(tmp_path / "vectors" / "claims.npz", allow_pickle=True) as z:
        z["ids"]
    assert marker.exists()


def test_opening_a_crafted_index_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    _crafted(tmp_path / "vectors", marker, "claims")
    ix = NumpyIndex(tmp_path / "vectors", "claims")
    assert not marker.exists()
    assert ix.stale and ix.count() == 0


def test_a_crafted_knowledge_base_folder_runs_nothing_and_reindexes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    (tmp_path / "t.csv").write_text("city,beds\nOslo,310\nBergen,120\n")
    kb_dir = tmp_path / "kb"
    with hyrag.open(kb_dir) as kb:
        kb.ingest(tmp_path / "t.csv")
    marker = tmp_path / "ran"
    for name in ("rows", "claims"):
        _crafted(kb_dir / "vectors", marker, name)
    from hyrag.retrieve import Horizon  # noqa: I001 - before builder (import cycle)
    from hyrag.index.builder import INDEXED_FILE

    with hyrag.open(kb_dir) as kb:
        sid = kb.store.con.execute("SELECT source_id FROM sources").fetchone()[0]
        (kb_dir / "vectors" / INDEXED_FILE).write_text(f'["{sid}"]')  # looks indexed
        vs = Horizon(kb.store, kb_dir, kb.settings, backend="numpy").vectors
        assert not marker.exists()
        assert vs.indexed() == set()  # the unreadable vectors are rebuilt from the store
        rep = vs.sync()
        assert rep.indexed and vs.rows.count() > 0
    assert not marker.exists()


def test_vectors_round_trip_without_pickle(tmp_path: Path) -> None:
    ix = NumpyIndex(tmp_path, "rows")
    ix.add(VectorBatch(ids=["a", "b"], vectors=np.eye(2, 4, dtype=np.float32),
                       source_ids=["s1", "s2"], kinds=["row", "text"], tables=["t", None],
                       ok_lo=[1.0, float("nan")], ok_hi=[2.0, float("nan")]),
           EmbedInfo("hashed", "test", 4))
    with np.load(tmp_path / "rows.npz", allow_pickle=False) as z:  # would raise on objects
        assert all(z[k].dtype != object for k in z.files)
    back = NumpyIndex(tmp_path, "rows")
    assert not back.stale and back.count() == 2
    hits = back.search(np.array([0, 1, 0, 0], np.float32), 2)
    assert hits[0].id == "b" and hits[0].table_name is None
    assert list(back.tables) == ["t", None]
