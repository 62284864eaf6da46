"""Smoke test of `hyrag bench latency` at a tiny size (the 1 M-vector run is a benchmark): the
ANN index is timed beside the exact scan with its recall and leak count, the knowledge-base
stage runs the whole kb.search, and the reproduce line carries every non-default option."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest


def test_bench_latency_runs_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from hyrag.bench import latency as bench

    tier = os.environ.get("HYRAG_EMBED_TIER")

    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    out = tmp_path / "lat.json"
    args = parser.parse_args(["--skip-sample", "--n", "3000", "--queries", "12",
                              "--nprobes", "4", "--refine", "2", "--kb-rows", "300",
                              "--out", str(out)])
    assert bench.run(args) == 0
    assert os.environ.get("HYRAG_EMBED_TIER") == tier  # the bench's tier does not leak out
    text = capsys.readouterr().out
    assert "NumPy exact scan" in text and "LanceDB IVF_SQ nprobes=4 refine=2" in text
    assert re.search(r"kb\.search at [\d,]+ claims .* targets (?:met|NOT met)", text)
    reproduce = next(x for x in text.splitlines() if x.startswith("reproduce:"))
    for flag in ("--n=3000", "--skip-sample", "--nprobes=4", "--refine=2", "--kb-rows=300",
                 "--queries=12"):
        assert flag in reproduce
    got = json.loads(out.read_text())
    (run,) = got["large"]["ann"]
    assert run["leaks"] == 0 and run["recall_at_10"] >= 0.8
    assert got["kb"]["claims"] >= 300 * 12 and got["kb"]["p50_ms"] > 0  # cells + aggregates
