"""Matplotlib figures for notebooks and benchmarks, always on the headless Agg canvas.

Figures are built with `matplotlib.figure.Figure` and an explicit `FigureCanvasAgg`, never
through `pyplot`: no GUI backend is ever selected, no global figure list grows in a long-running
process, and a server without a display can draw them. In a notebook a returned `Figure`
displays inline (the kernel's inline backend registers its PNG formatter); `save(fig, path)`
writes a PNG.

matplotlib is the optional `plot` extra (`pip install 'hyrag[plot]'`); importing this module
without it raises an ImportError that says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

try:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("plots need matplotlib: pip install 'hyrag[plot]'") from e

EPSILON = 0.3  # theta_H default (seed 003 epsilon); the dashed line on entropy plots
POLICY_COLOURS = {"ECR": "C0", "Retrieval-only": "C1", "Random": "C2"}


def new_figure(width: float = 6.4, height: float = 4.0, **kw: object) -> Figure:
    """A Figure attached to an Agg canvas (headless)."""
    _ipython_png_formatter()
    fig = Figure(figsize=(width, height), layout="constrained", **kw)
    FigureCanvasAgg(fig)
    return fig


def _ipython_png_formatter() -> None:
    """Inside IPython, make a returned Figure display as a PNG. The inline backend registers
    this formatter only once pyplot is imported, and these figures never import pyplot; an
    existing formatter (the inline backend's) is left alone."""
    import sys

    if "IPython" not in sys.modules:
        return
    try:
        from IPython import get_ipython

        ip = get_ipython()
        if ip is None:
            return
        fmt = ip.display_formatter.formatters["image/png"]
        if fmt.for_type(Figure) is None:
            fmt.for_type(Figure, lambda fig: png_bytes(fig, dpi=100))
    except Exception:  # display sugar must never break plotting
        pass


def save(fig: Figure, path: str | Path, *, dpi: int = 120) -> Path:
    """Write `fig` as a PNG (parent folders created)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=dpi, format="png")
    return p


def png_bytes(fig: Figure, *, dpi: int = 100) -> bytes:
    import io

    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png", bbox_inches="tight")
    return buf.getvalue()


# --------------------------------------------------------------------------- entropy


def entropy_trace(trace: Sequence[float], *, epsilon: float = EPSILON, title: str | None = None,
                  labels: Sequence[str] | None = None) -> Figure:
    """One question's entropy trajectory (the seed's Figure 3 for a single question): H in bits
    after each evaluated claim, starting from H0, with the epsilon threshold. `labels`, one per
    step after H0, annotate the points (e.g. the claim's source)."""
    fig = new_figure(5.6, 3.4)
    ax = fig.add_subplot()
    xs = list(range(len(trace)))
    ax.plot(xs, trace, marker="o", color="C0", label="H (bits)")
    ax.axhline(epsilon, color="C3", ls="--", lw=1, label=f"epsilon = {epsilon:g}")
    if labels:
        for x, y, lab in zip(xs[1:], trace[1:], labels, strict=False):
            ax.annotate(str(lab), (x, y), textcoords="offset points", xytext=(4, 6), fontsize=7)
    ax.set_xlabel("claims evaluated")
    ax.set_ylabel("hypothesis entropy H (bits)")
    ax.set_xticks(xs)
    ax.set_ylim(bottom=0, top=max([*trace, epsilon, 0.1]) * 1.15)
    ax.set_title(title or "ECR entropy trace")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def _pad(trace: Sequence[float], n: int) -> list[float]:
    """Carry the last value forward: a policy that stopped keeps its final entropy."""
    t = list(trace) or [math.nan]
    return t + [t[-1]] * (n - len(t))


def entropy_trajectories(policies: Mapping[str, Sequence[Sequence[float]]], *,
                         epsilon: float = EPSILON, h0: float | None = None,
                         title: str | None = None) -> Figure:
    """Entropy trajectories of several claim-selection policies (seed 003 Figure 3): for each
    policy a thin line per question and its mean (traces carried forward after a policy
    stops), H in bits against claims evaluated, with epsilon and H0 = log2 |A| marked."""
    fig = new_figure(7.0, 4.4)
    ax = fig.add_subplot()
    n = max((len(t) for ts in policies.values() for t in ts), default=1)
    for i, (name, traces) in enumerate(policies.items()):
        colour = POLICY_COLOURS.get(name, f"C{i + 3}")
        for t in traces:
            ax.plot(range(len(t)), t, color=colour, alpha=0.07, lw=0.8)
        if traces:
            padded = [_pad(t, n) for t in traces]
            mean = [sum(col) / len(col) for col in zip(*padded, strict=True)]
            stops = sum(len(t) - 1 for t in traces) / len(traces)
            ax.plot(range(n), mean, color=colour, lw=2.4,
                    label=f"{name} (mean of {len(traces)}; {stops:.1f} claims)")
    ax.axhline(epsilon, color="k", ls="--", lw=1, label=f"epsilon = {epsilon:g}")
    if h0 is not None:
        ax.axhline(h0, color="grey", ls=":", lw=1, label=f"H0 = {h0:.3f}")
    ax.set_xlabel("claims evaluated")
    ax.set_ylabel("hypothesis entropy H (bits)")
    ax.set_xlim(0, n - 1)
    ax.set_ylim(bottom=0)
    ax.set_title(title or "Entropy trajectories by selection policy")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    return fig


# --------------------------------------------------------------------------- lambda sweep


def lambda_sweep(sweep: Mapping[str, Mapping[float, Mapping[float, Mapping[str, float]]]], *,
                 seed: Mapping[float, Sequence[tuple[float, float]]] | None = None,
                 alphas: Sequence[float] | None = None, title: str | None = None) -> Figure:
    """The lambda sweep (seed 003 Figure A.1 / Table A.1).

    `sweep[variant][lambda][alpha]` holds the means `amb` (ambiguity exposure), `claims` and
    `H`. Three panels against lambda (categorical axis, so lambda = 0 sits apart): ambiguity
    exposure — the seed figure's y axis —, mean claims evaluated and mean final H; one colour
    per injection rate alpha, one line style per variant. `seed[lambda]` = ((claims, H) per
    alpha) from Table A.1 is drawn as grey markers.
    """
    fig = new_figure(12.0, 3.9)
    axes = fig.subplots(1, 3)
    variants = list(sweep)
    lams = sorted({lam for v in sweep.values() for lam in v})
    alphas = list(alphas) if alphas else sorted(
        {a for v in sweep.values() for row in v.values() for a in row})
    xs = list(range(len(lams)))
    styles = ["-", "--", ":", "-."]
    markers = ["o", "^", "D", "v"]
    # variants side by side around each lambda tick, so identical values stay visible
    offset = [(vi - (len(variants) - 1) / 2) * 0.1 for vi in range(len(variants))]
    for k, (ax, metric, ylabel) in enumerate(zip(
            axes, ("amb", "claims", "H"),
            ("ambiguity exposure", "mean claims evaluated", "mean final H (bits)"),
            strict=True)):
        for vi, variant in enumerate(variants):
            for ai, alpha in enumerate(alphas):
                ys = [sweep[variant].get(lam, {}).get(alpha, {}).get(metric, math.nan)
                      for lam in lams]
                ax.plot([x + offset[vi] for x in xs], ys, marker=markers[vi % len(markers)],
                        ls=styles[vi % len(styles)], color=f"C{ai}", ms=5,
                        label=f"{variant}, alpha={alpha:g}")
        if seed and k > 0:
            for ai, alpha in enumerate(alphas):
                ys = [seed[lam][ai][k - 1] if lam in seed and ai < len(seed[lam]) else math.nan
                      for lam in lams]
                ax.plot(xs, ys, ls="none", marker="s", mfc="none", color=f"C{ai}", alpha=0.6,
                        ms=9, label=f"seed (Table A.1 / Fig. A.1), alpha={alpha:g}")
        if seed and k == 0:  # Figure A.1's caption: exposure 0 -> 1 at alpha 0.5, else 0
            for ai, alpha in enumerate(alphas):
                ys = [1.0 if (alpha >= 0.5 and lam > 0) else 0.0 for lam in lams]
                ax.plot(xs, ys, ls="none", marker="s", mfc="none", color=f"C{ai}", alpha=0.6,
                        ms=9, label=f"seed (Table A.1 / Fig. A.1), alpha={alpha:g}")
        ax.set_xticks(xs, [f"{lam:g}" for lam in lams])
        ax.set_xlabel("lambda (coherence weight)")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        if metric == "amb":
            ax.set_ylim(-0.05, 1.05)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize=7)
    fig.suptitle(title or "Lambda sweep under contradiction injection (seed Figure A.1)")
    return fig


# --------------------------------------------------------------------------- answers benchmarks


def reliability_diagram(confidence: Sequence[float], correct: Sequence[bool], *,
                        answered: Sequence[bool] | None = None, bins: int = 10,
                        title: str | None = None) -> Figure:
    """Abstention reliability: accuracy of the answered questions per confidence bin against
    the diagonal, the bin counts as bars underneath, and the expected calibration error.
    `answered[i]` False marks an abstention (left out of the accuracy, counted in the title)."""
    conf = [float(c) for c in confidence]
    ok = [bool(c) for c in correct]
    ans = [True] * len(conf) if answered is None else [bool(a) for a in answered]
    edges = [i / bins for i in range(bins + 1)]
    acc, mid, cnt, mean_conf = [], [], [], []
    ece, n_ans = 0.0, sum(ans)
    for i in range(bins):
        lo, hi = edges[i], edges[i + 1]
        idx = [j for j, c in enumerate(conf) if ans[j] and (lo <= c < hi or (i == bins - 1
                                                                            and c == hi))]
        cnt.append(len(idx))
        mid.append((lo + hi) / 2)
        if idx:
            a = sum(ok[j] for j in idx) / len(idx)
            m = sum(conf[j] for j in idx) / len(idx)
            acc.append(a)
            mean_conf.append(m)
            ece += len(idx) / max(n_ans, 1) * abs(a - m)
        else:
            acc.append(math.nan)
            mean_conf.append(math.nan)
    fig = new_figure(5.2, 5.2)
    ax, axc = fig.subplots(2, 1, sharex=True, height_ratios=[3, 1])
    ax.plot([0, 1], [0, 1], ls="--", color="grey", label="perfect calibration")
    ax.bar(mid, [0 if math.isnan(a) else a for a in acc], width=1 / bins, edgecolor="k",
           alpha=0.7, label="accuracy of answered")
    ax.plot([m for m in mean_conf], acc, "o", color="C3", label="mean confidence in bin")
    ax.set_ylabel("accuracy")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    abst = len(conf) - n_ans
    ax.set_title(title or f"Reliability (ECE {ece:.3f}; {n_ans} answered, {abst} abstained)")
    axc.bar(mid, cnt, width=1 / bins, edgecolor="k", color="C0", alpha=0.5)
    axc.set_xlabel("confidence")
    axc.set_ylabel("answers")
    axc.set_xlim(0, 1)
    return fig


def accuracy_by_type(groups: Mapping[str, Sequence[bool]], *,
                     title: str | None = None) -> Figure:
    """Accuracy per answer type (span, multi-span, arithmetic, count, ...): one horizontal bar
    per type with its accuracy and question count."""
    names = list(groups)
    accs = [sum(map(bool, groups[n])) / len(groups[n]) if groups[n] else 0.0 for n in names]
    fig = new_figure(6.0, 0.6 * len(names) + 1.4)
    ax = fig.add_subplot()
    ys = list(range(len(names)))
    ax.barh(ys, accs, color="C0")
    for y, a, n in zip(ys, accs, names, strict=True):
        ax.text(min(a + 0.01, 0.85), y, f"{a:.2f} (n={len(groups[n])})", va="center", fontsize=8)
    ax.set_yticks(ys, names)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("accuracy")
    ax.set_title(title or "Accuracy by answer type")
    ax.grid(axis="x", alpha=0.3)
    return fig
