"""PNG plots of a run's metrics (matplotlib, no display)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from repotrans.execution.status import LABELS  # noqa: E402
from repotrans.experiments.metrics import RateRow  # noqa: E402


def plot_rates(rows: list[RateRow], out: Path) -> Path:
    """Grouped bars: compile rate and pass rate per configuration (over all datasets)."""
    rows = _overall(rows)
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(rows) + 2), 4))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], [100 * r.compile_rate for r in rows], 0.4, label="compile rate")
    ax.bar([x + 0.2 for x in xs], [100 * r.pass_rate for r in rows], 0.4, label="pass rate")
    ax.set_xticks(list(xs), [r.config for r in rows], rotation=20, ha="right")
    ax.set_ylabel("% of tasks")
    ax.set_ylim(0, 100)
    ax.legend()
    ax.set_title("Compile and pass rate per configuration")
    return _save(fig, out / "rates.png")


def plot_errors(rows: list[RateRow], out: Path) -> Path:
    """Stacked bars: error types of unsolved tasks per configuration."""
    rows = _overall(rows)
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(rows) + 2), 4))
    bottoms = [0] * len(rows)
    for kind in LABELS.values():
        vals = [r.errors.get(kind, 0) for r in rows]
        if any(vals):
            ax.bar(range(len(rows)), vals, bottom=bottoms, label=kind)
            bottoms = [b + v for b, v in zip(bottoms, vals)]
    ax.set_xticks(range(len(rows)), [r.config for r in rows], rotation=20, ha="right")
    ax.set_ylabel("unsolved tasks")
    ax.legend()
    ax.set_title("Error types of unsolved tasks")
    return _save(fig, out / "errors.png")


def plot_upset(inters: list[tuple[frozenset[str], int]], configs: list[str], out: Path) -> Path:
    """UpSet-style chart: bars of tasks solved by exactly each combination of configurations."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(5, 0.6 * len(inters) + 3), 5),
                                      gridspec_kw={"height_ratios": [2, 1]}, sharex=True)
    xs = range(len(inters))
    top.bar(xs, [n for _, n in inters], color="#444")
    for x, (_, n) in zip(xs, inters):
        top.text(x, n, str(n), ha="center", va="bottom", fontsize=8)
    top.set_ylabel("tasks solved")
    top.set_title("Overlap of solved tasks")
    for x, (combo, _) in zip(xs, inters):
        ys = [i for i, c in enumerate(configs) if c in combo]
        bottom.scatter([x] * len(configs), range(len(configs)), color="#ddd", s=30)
        bottom.scatter([x] * len(ys), ys, color="#222", s=30)
        if len(ys) > 1:
            bottom.plot([x, x], [min(ys), max(ys)], color="#222")
    bottom.set_yticks(range(len(configs)), configs)
    bottom.set_xticks([])
    return _save(fig, out / "overlap.png")


def _overall(rows: list[RateRow]) -> list[RateRow]:
    alls = [r for r in rows if r.dataset == "all"]
    return alls or rows


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
