"""`hyrag ingest --no-vectors` then `hyrag index` (issue 20): a large load is ingested at DuckDB
speed and embedded once, at the end, with the steps shown as they start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hyrag
from hyrag.cli import main


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    (tmp_path / "beds.csv").write_text("city,beds\nOslo,310\nBergen,120\nTromso,80\n")
    (tmp_path / "notes.md").write_text("Oslo Clinic had 310 beds in 2024, up from 290 beds in 2023.\n")
    kb = tmp_path / "kb"
    assert main(["ingest", str(tmp_path / "beds.csv"), str(tmp_path / "notes.md"),
                 "--kb", str(kb), "--no-vectors"]) == 0
    return kb


def test_index_writes_the_vectors_ingest_left_out_then_is_up_to_date(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with hyrag.open(folder, read_only=True) as kb:
        assert len(kb.pending_vectors()) == 2
    capsys.readouterr()
    assert main(["index", "--kb", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "written for 2 source(s)" in out and "hashed" in out
    with hyrag.open(folder, read_only=True) as kb:
        assert kb.pending_vectors() == []
        hits = kb.search("beds in Bergen", k=3)
        assert any("Bergen" in c.text for c in hits.claims)
    assert main(["index", "--kb", str(folder), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["pending"] == 0 and got["indexed"] == [] and got["failed"] == {}


def test_index_tells_each_step_as_it_starts(folder: Path) -> None:
    steps: list[tuple[int, int, str]] = []
    with hyrag.open(folder) as kb:
        rep = kb.index(progress=lambda i, n, what: steps.append((i, n, what)))
    assert len(rep.indexed) == 2
    said = [w for _, _, w in steps]
    assert any(w.startswith("beds.csv: embedding 3 rows") for w in said)
    assert any(w.startswith("notes.md: embedding") and "text claims" in w for w in said)
    assert steps[-1] == (2, 2, "")  # the display's last line: all done
    assert all(0 <= i <= n for i, n, _ in steps)


def test_ingest_tells_the_steps_within_each_file(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of 100,000 rows takes tens of seconds: the display names the step it is in."""
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")
    (tmp_path / "beds.csv").write_text("city,year,beds\nOslo,2023,310\nBergen,2024,120\n")
    (tmp_path / "notes.md").write_text("Oslo Clinic had 310 beds in 2024.\n")
    steps: list[tuple[int, int, str]] = []
    with hyrag.open(tmp_path / "kb") as kb:
        reports, errors = kb.ingest_many(
            [tmp_path / "beds.csv", tmp_path / "notes.md"],
            progress=lambda i, n, what: steps.append((i, n, what)))
        assert not errors and [r.status for r in reports] == ["ingested", "ingested"]
        assert kb._ingestor.progress_hook is None  # nothing told once the files are done
    said = [w.rsplit("/", 1)[-1] for _, _, w in steps]
    for want in ("beds.csv: reading", "beds.csv: table beds", "beds.csv: cell claims of beds",
                 "beds.csv: committing", "notes.md: text claims"):
        assert want in said, (want, said)
    assert said.index("beds.csv: reading") < said.index("beds.csv: cell claims of beds") \
        < said.index("notes.md: reading")
    assert all(i == 0 for i, _, w in steps if "beds.csv" in w)
    assert steps[-1] == (2, 2, "")
