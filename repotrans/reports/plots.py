"""PNG plots of a run's metrics (matplotlib, no display), only those that mean something for the run.

One configuration: task outcomes (status counts) and outcomes per class. Several configurations:
compile/pass rate and error types per configuration, and the overlap of solved tasks. Every bar
carries its value; legends sit beside the axes, clear of the data.
"""
from __future__ import annotations

import io
from collections import Counter, defaultdict
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from repotrans.verdicts.status import LABELS  # noqa: E402
from repotrans.reports.metrics import RateRow, intersections, rate_rows  # noqa: E402
from repotrans.runs.store import TaskRecord  # noqa: E402

# Outcome order and colours, from good to bad, shared by every plot.
OUTCOMES = {"passed": "#2e7d32", "blocked": "#9e9e9e", "no_tests": "#bdbdbd", "test_failure": "#ef6c00",
            "runtime_error": "#d84315", "timeout": "#6a1b9a", "compile_error": "#c62828", "error": "#37474f"}


@dataclass(frozen=True)
class Plot:
    name: str        # file name, e.g. "status.png"
    title: str
    png: bytes


def plots_for(records: list[TaskRecord]) -> list[Plot]:
    """The plots that mean something for these records."""
    configs = sorted({r.config for r in records})
    if not records:
        return []
    if len(configs) == 1:
        return [status_counts(records), per_class(records)]
    rows = rate_rows(records)
    out = [plot_rates(rows), plot_errors(rows)]
    inters = intersections(records)
    if inters:
        out.append(plot_upset(inters, configs))
    return out


def class_of(task_id: str) -> str:
    """`Acme.Geo.Circle.Scale(double)` -> `Acme.Geo.Circle`."""
    return task_id.split("(", 1)[0].rsplit(".", 1)[0]


def status_counts(records: list[TaskRecord]) -> Plot:
    """Horizontal bars: how many tasks ended in each outcome."""
    counts = Counter(r.status for r in records)
    kinds = [k for k in OUTCOMES if counts.get(k)]
    fig, ax = plt.subplots(layout="constrained", figsize=(7, 0.45 * len(kinds) + 1.4))
    bars = ax.barh(range(len(kinds)), [counts[k] for k in kinds], color=[OUTCOMES[k] for k in kinds])
    ax.bar_label(bars, labels=[f"{counts[k]} ({100 * counts[k] / len(records):.0f}%)" for k in kinds], padding=3)
    ax.set_yticks(range(len(kinds)), [k.replace("_", " ") for k in kinds])
    ax.invert_yaxis()
    ax.set_xlim(0, max(counts.values()) * 1.25)
    ax.set_xlabel("tasks")
    ax.set_title(f"Outcome of {len(records)} tasks")
    return _png(fig, "status.png", "Outcome of every task")


def per_class(records: list[TaskRecord], limit: int = 25) -> Plot:
    """Stacked horizontal bars: each class's tasks by outcome (the `limit` classes with most tasks)."""
    by_class: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        by_class[class_of(r.task_id)][r.status] += 1
    classes = sorted(by_class, key=lambda c: (-sum(by_class[c].values()), c))[:limit]
    short = [c.rsplit(".", 1)[-1] for c in classes]
    fig, ax = plt.subplots(layout="constrained", figsize=(8, 0.4 * len(classes) + 1.6))
    left = [0] * len(classes)
    for kind, colour in OUTCOMES.items():
        vals = [by_class[c].get(kind, 0) for c in classes]
        if not any(vals):
            continue
        bars = ax.barh(range(len(classes)), vals, left=left, color=colour, label=kind.replace("_", " "))
        ax.bar_label(bars, labels=[str(v) if v else "" for v in vals], label_type="center", color="white",
                     fontsize=8)
        left = [a + v for a, v in zip(left, vals)]
    ax.set_yticks(range(len(classes)), short)
    ax.invert_yaxis()
    ax.set_xlabel("tasks")
    ax.set_title("Outcome per class" + (f" (the {limit} largest)" if len(by_class) > limit else ""))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _png(fig, "classes.png", "Outcome per class")


def plot_rates(rows: list[RateRow]) -> Plot:
    """Grouped bars: compile rate and pass rate per configuration (over all datasets)."""
    rows = _overall(rows)
    fig, ax = plt.subplots(layout="constrained", figsize=(max(5, 1.2 * len(rows) + 3), 4))
    xs = range(len(rows))
    for shift, label, values in ((-0.2, "compile rate", [100 * r.compile_rate for r in rows]),
                                 (0.2, "pass rate", [100 * r.pass_rate for r in rows])):
        bars = ax.bar([x + shift for x in xs], values, 0.4, label=label)
        ax.bar_label(bars, labels=[f"{v:.0f}%" for v in values], fontsize=8, padding=2)
    ax.set_xticks(list(xs), [r.config for r in rows], rotation=20, ha="right")
    ax.set_ylabel("% of tasks")
    ax.set_ylim(0, 110)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title("Compile and pass rate per configuration")
    return _png(fig, "rates.png", "Compile and pass rate per configuration")


def plot_errors(rows: list[RateRow]) -> Plot:
    """Stacked bars: error types of unsolved tasks per configuration."""
    rows = _overall(rows)
    fig, ax = plt.subplots(layout="constrained", figsize=(max(5, 1.2 * len(rows) + 3), 4))
    bottoms = [0] * len(rows)
    for kind in LABELS.values():
        vals = [r.errors.get(kind, 0) for r in rows]
        if any(vals):
            bars = ax.bar(range(len(rows)), vals, bottom=bottoms, label=kind)
            ax.bar_label(bars, labels=[str(v) if v else "" for v in vals], label_type="center", fontsize=8)
            bottoms = [b + v for b, v in zip(bottoms, vals)]
    ax.set_xticks(range(len(rows)), [r.config for r in rows], rotation=20, ha="right")
    ax.set_ylabel("unsolved tasks")
    if any(bottoms):
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    else:
        ax.text(0.5, 0.5, "every task solved", transform=ax.transAxes, ha="center")
    ax.set_title("Error types of unsolved tasks")
    return _png(fig, "errors.png", "Error types of unsolved tasks")


def plot_upset(inters: list[tuple[frozenset[str], int]], configs: list[str]) -> Plot:
    """UpSet-style chart: bars of tasks solved by exactly each combination of configurations."""
    fig, (top, bottom) = plt.subplots(2, 1, layout="constrained", figsize=(max(5, 0.6 * len(inters) + 3), 5),
                                      gridspec_kw={"height_ratios": [2, 1]}, sharex=True)
    xs = range(len(inters))
    bars = top.bar(xs, [n for _, n in inters], color="#444")
    top.bar_label(bars, fontsize=8, padding=2)
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
    return _png(fig, "overlap.png", "Overlap of solved tasks")


def _overall(rows: list[RateRow]) -> list[RateRow]:
    alls = [r for r in rows if r.dataset == "all"]
    return alls or rows


def _png(fig, name: str, title: str) -> Plot:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return Plot(name=name, title=title, png=buf.getvalue())
