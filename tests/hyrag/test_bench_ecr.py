"""Smoke test of `hyrag bench ecr` on a tiny --limit (the full run is a benchmark, not a test)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "sample_data"


@pytest.mark.skipif(not (DATA / "sales.csv").exists(), reason="sample_data not generated")
def test_bench_ecr_runs_on_a_tiny_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hyrag.bench import ecr as bench

    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    out = tmp_path / "pred.json"
    args = parser.parse_args(["--data", str(DATA), "--limit", "3", "--seed", "0", "1",
                              "--out", str(out)])
    assert bench.run(args) == 0
    text = capsys.readouterr().out
    for needle in ("Table 2", "Table 3", "Table 6", "Table A.1", "Noise ablation",
                   "[seed]", "rerun: hyrag bench ecr"):
        assert needle in text
    items = json.loads(out.read_text())["items"]
    assert len(items) == 3
    for item in items.values():
        assert len(item["hypotheses"]) == 3
        assert item["ecr"]["stop_reason"] in {
            "epistemic_sufficiency", "unresolved_conflict", "budget", "exhausted"}


def test_bench_ecr_missing_data_is_one_line_error(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from hyrag.bench import ecr as bench

    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    assert bench.run(parser.parse_args(["--data", str(tmp_path / "nope")])) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope" in err[0]
