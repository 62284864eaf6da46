"""What the README promises of the CLI and of `hyrag.open`, under hostile input: data never
drives the terminal, every failure is one line, a folder is open once per process."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import hyrag
from hyrag.cli import main
from hyrag.errors import HyragError, StoreError

ESC_CLEAR = "\x1b[2J"
OSC_TITLE = "\x1b]0;pwned\x07"
C1_CSI = "\x9b31m"
BIDI = "\u202e"


@pytest.fixture(autouse=True)
def hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYRAG_EMBED_TIER", "hashed")


@pytest.fixture()
def kb_dir(tmp_path: Path) -> Path:
    csv = tmp_path / "beds.csv"
    csv.write_text(
        "clinic,beds,note\n"
        f'Riverside{ESC_CLEAR},310,"{OSC_TITLE} line\rover"\n'
        f"Hillcrest{C1_CSI},120,{BIDI}reversed\n")
    with hyrag.open(tmp_path / "kb") as kb:
        kb.ingest(csv)
    return tmp_path / "kb"


def _no_controls(text: str) -> None:
    for bad in ("\x1b", "\x07", "\x9b", "\r", BIDI):
        assert bad not in text, repr(text)


@pytest.mark.parametrize("argv", [
    ["sql", "SELECT * FROM beds"],
    ["search", "Riverside beds"],
    ["ask", "How many beds did Riverside have?"],
    ["ask", "How many beds did Riverside have?", "--brief"],
    ["schema"],
])
def test_plain_output_escapes_control_characters(kb_dir: Path, argv: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    main([*argv, "--kb", str(kb_dir)])
    out, err = capsys.readouterr()
    _no_controls(out)
    _no_controls(err)


def test_sql_output_shows_the_escapes_as_text(kb_dir: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sql", "SELECT clinic, note FROM beds ORDER BY beds DESC", "--kb",
                 str(kb_dir)]) == 0
    out = capsys.readouterr().out
    assert "Riverside\\u001b[2J" in out and "\\u000d" in out
    assert len(out.strip().splitlines()) == 5  # header, rule, 2 rows, count: no row split


def test_json_output_stays_valid_json(kb_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sql", "SELECT clinic FROM beds ORDER BY beds", "--json", "--kb",
                 str(kb_dir)]) == 0
    out = capsys.readouterr().out
    _no_controls(out)
    rows = json.loads(out)["rows"]
    assert rows[0]["clinic"] == f"Hillcrest{C1_CSI}"  # the value itself is intact


@pytest.mark.parametrize("argv", [
    ["sql", "SELECT 1", "--max-rows", "-1"],
    ["sql", "SELECT 1", "--max-rows", "0"],
    ["sql", "SELECT 1", "--max-rows", "many"],
    ["search", "x", "--k", "0"],
])
def test_bad_arguments_are_one_line(kb_dir: Path, argv: list[str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main([*argv, "--kb", str(kb_dir)])
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "error" in err and "Traceback" not in err


def test_errors_with_data_in_them_are_one_escaped_line(
        kb_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sql", f"SELECT * FROM \"x{ESC_CLEAR}\ny\"", "--kb", str(kb_dir)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    _no_controls(err)


def test_ingest_of_a_very_deep_folder_is_one_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # built and removed level by level: pathlib's and shutil's own helpers recurse per level
    deep = str(tmp_path / "deep")
    levels = [deep]
    for _ in range(1500):
        levels.append(levels[-1] + "/a")
    for p in levels:
        os.mkdir(p)
    with open(levels[-1] + "/t.csv", "w") as f:
        f.write("a,b\n1,2\n")
    try:
        assert main(["ingest", deep, "--kb", str(tmp_path / "kb")]) == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "deeper than" in err, err
    finally:
        os.remove(levels[-1] + "/t.csv")
        for p in reversed(levels):
            os.rmdir(p)


def test_ingest_of_a_nested_folder_within_the_limit(tmp_path: Path) -> None:
    d = tmp_path / "src"
    for _ in range(40):
        d = d / "b"
    d.mkdir(parents=True)
    (d / "t.csv").write_text("a,b\n1,2\n")
    (tmp_path / "src" / ".hidden").mkdir()
    (tmp_path / "src" / ".hidden" / "h.csv").write_text("a\n1\n")
    with hyrag.open(tmp_path / "kb") as kb:
        reports, _ = kb.ingest_many([tmp_path / "src"])
    assert [r.status for r in reports] == ["ingested"] or len(reports) == 1


def test_a_second_open_of_the_same_folder_shares_the_store(kb_dir: Path) -> None:
    first = hyrag.open(kb_dir)
    second = hyrag.open(kb_dir)  # c683b67: DuckDB's InvalidInputException
    try:
        assert second.store is first.store
        assert second.sql("SELECT count(*) FROM beds").rows == [(2,)]
        first.close()
        assert second.sql("SELECT count(*) FROM beds").rows == [(2,)]  # still open
    finally:
        second.close()
    third = hyrag.open(kb_dir)  # closed for real: a fresh store
    try:
        assert third.store is not first.store
    finally:
        third.close()


def test_opening_an_open_folder_in_another_mode_is_a_clear_error(kb_dir: Path) -> None:
    kb = hyrag.open(kb_dir)
    try:
        with pytest.raises(StoreError, match="already open read-write"):
            hyrag.open(kb_dir, read_only=True)
    finally:
        kb.close()
    ro = hyrag.open(kb_dir, read_only=True)
    ro.close()


def test_a_bare_store_open_elsewhere_gives_a_hyrag_error(kb_dir: Path) -> None:
    from hyrag.store import Store

    s = Store(kb_dir)
    try:
        with pytest.raises(HyragError, match="already open"):
            hyrag.open(kb_dir)
    finally:
        s.close()
