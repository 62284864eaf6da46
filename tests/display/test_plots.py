"""Figures on the Agg canvas: they draw, save as PNG, and show what they claim to."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib")

from hyrag.display import plots  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[2]


def _png_ok(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG and len(data) > 5000


def test_figures_are_headless_and_leave_the_backend_alone(tmp_path):
    before = matplotlib.get_backend()
    fig = plots.entropy_trace([1.585, 1.1, 0.6, 0.21], labels=["a.csv", "b.csv", "c.pdf"])
    assert type(fig.canvas).__name__ == "FigureCanvasAgg"
    assert matplotlib.get_backend() == before
    (ax,) = fig.axes
    assert list(ax.lines[0].get_ydata()) == [1.585, 1.1, 0.6, 0.21]
    assert ax.get_xlabel() == "claims evaluated" and "bits" in ax.get_ylabel()
    assert any(line.get_ydata()[0] == 0.3 for line in ax.lines[1:])  # the epsilon line
    _png_ok(plots.save(fig, tmp_path / "one.png"))
    assert plots.png_bytes(fig)[:8] == PNG


def test_entropy_trajectories_mean_carries_the_last_value_forward(tmp_path):
    fig = plots.entropy_trajectories(
        {"ECR": [(1.585, 0.8, 0.2), (1.585, 0.4)], "Random": [(1.585, 1.5, 1.4, 1.3)]},
        h0=1.585)
    ax = fig.axes[0]
    means = {line.get_label().split(" (")[0]: list(line.get_ydata()) for line in ax.lines
             if line.get_label().startswith(("ECR", "Random"))}
    assert means["ECR"] == pytest.approx([1.585, 0.6, 0.3, 0.3])
    assert means["Random"] == pytest.approx([1.585, 1.5, 1.4, 1.3])
    _png_ok(plots.save(fig, tmp_path / "traj.png"))


def test_lambda_sweep_reliability_and_accuracy_by_type(tmp_path):
    sweep = {"ECR": {lam: {a: {"amb": float(a > 0 and lam > 0), "claims": 5 + 10 * a,
                               "H": 0.2 + a} for a in (0.0, 0.3, 0.5)}
                     for lam in (0.0, 0.01, 0.05)}}
    fig = plots.lambda_sweep(sweep, seed={0.0: ((5, 0.2), (5, 0.2), (5, 0.2))})
    assert [ax.get_ylabel() for ax in fig.axes] == [
        "ambiguity exposure", "mean claims evaluated", "mean final H (bits)"]
    _png_ok(plots.save(fig, tmp_path / "sweep.png"))

    conf = [0.95, 0.9, 0.85, 0.3, 0.2, 0.5]
    correct = [True, True, False, False, True, False]
    fig = plots.reliability_diagram(conf, correct, answered=[1, 1, 1, 1, 1, 0])
    assert "5 answered, 1 abstained" in fig.axes[0].get_title()
    _png_ok(plots.save(fig, tmp_path / "rel.png"))

    fig = plots.accuracy_by_type({"span": [True, False], "arithmetic": [True, True, True]})
    bars = [p.get_width() for p in fig.axes[0].patches]
    assert bars == pytest.approx([0.5, 1.0])
    _png_ok(plots.save(fig, tmp_path / "types.png"))


def test_answer_plot_entropy():
    from hyrag.answer.answer import Answer

    a = Answer(text="t", brief="", decision="needs_verification", route="LOOKUP",
               trust="balanced", evidence=({"n": 1, "claim_id": "c1", "source": "crm.csv"},),
               ecr={"entropy_trace": [1.0, 0.88, 1.0], "stop_reason": "unresolved_conflict",
                    "trace": [{"claim_id": "c1", "entropy": 0.88},
                              {"claim_id": "c2", "entropy": 1.0}]})
    fig = a.plot_entropy()
    ax = fig.axes[0]
    assert list(ax.lines[0].get_ydata()) == [1.0, 0.88, 1.0]
    assert [t.get_text() for t in ax.texts] == ["crm.csv", "c2"]
    assert "unresolved_conflict" in ax.get_title()
    with pytest.raises(ValueError, match="ECR did not run"):
        Answer(text="t", brief="", decision="answer", route="LOOKUP", trust="b").plot_entropy()


@pytest.mark.skipif(not (ROOT / "sample_data" / "sales.csv").exists(), reason="no sample_data")
def test_bench_ecr_plot_writes_the_pngs(tmp_path, capsys):
    from hyrag.bench import ecr as bench

    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    out = tmp_path / "plots"
    args = parser.parse_args(["--data", str(ROOT / "sample_data"), "--limit", "3",
                              "--seed", "0", "--plot", str(out)])
    assert bench.run(args) == 0
    printed = capsys.readouterr().out
    for name in ("ecr_trajectories.png", "ecr_lambda_sweep.png"):
        _png_ok(out / name)
        assert f"plot: {out / name}" in printed
