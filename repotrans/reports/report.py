"""Reports over run folders: they read files and never re-run agents.

`write_report(run_dirs, out)` renders report.md (tables, then the failures grouped by cause) with the plots that mean something for the
runs (plots.plots_for) and, for each run folder, <run>/report.html (report_html).
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import MISSING, fields
from pathlib import Path

from repotrans.verdicts.status import BLOCKED, LABELS, NO_TESTS, PARTIAL, REJECTED
from repotrans.runs.batch_summary import BatchSummary, baseline_line
from repotrans.runs.causes import LATE_GROUPS, cause_of
from repotrans.runs.layout import summary_file
from repotrans.runs.whole_suite import whole_suite_line
from repotrans.reports.metrics import economy_rows, overlap, rate_rows
from repotrans.reports.plots import Plot, plots_for
from repotrans.reports.html import write_html
from repotrans.reports.run_records import load_records, unvalidated_datasets
from repotrans.runs.store import TaskRecord, port_records, reduced_trust, translated_records, trust_categories
from repotrans.runs.translate_first import render_lines, translate_first


def markdown(records: list[TaskRecord], unvalidated: set[str] = frozenset(), plots: list[Plot] = (),
             batches: list[tuple[str, dict]] = ()) -> str:
    """Each batch's whole-suite line and what it wrote (`batches`: run name, summary.json), then the tables;
    rates rest on the port's own tests, translated-test verdicts get their own table."""
    translated = translated_records(records)
    records = port_records(records)
    rows = rate_rows(records)
    out = ["# repotrans report", ""]
    if unvalidated:
        out += [f"**Unvalidated datasets: {', '.join(sorted(unvalidated))}** (built with --no-validate: a task "
                "whose placeholder also passes counts as passed, so their rates may overstate).", ""]
    reduced = sorted(r.task_id for r in reduced_trust(records))
    if reduced:
        out += [f"**Reduced trust: {len(reduced)} task verdict(s)** ran their tests with a capability their Java "
                f"original uses, allowed by the IL policy ({', '.join(trust_categories(records))}): "
                + ", ".join(f"`{t}`" for t in reduced[:10]) + (", ..." if len(reduced) > 10 else ""), ""]
    out += batch_section(batches)
    partial = any(r.partial for r in rows)      # a column of its own where any verdict is partial
    out += ["## Compile and pass rates", "",
           "| config | dataset | tasks | compile rate | pass rate | " + ("partial rate | " if partial else "")
           + "prompt tok/task | completion tok/task | calls/task | s/task | cost/task |",
           "|---|---|---:|---:|---:|" + ("---:|" if partial else "") + "---:|---:|---:|---:|---:|"]
    def shown(dataset: str) -> str:
        return f"{dataset} (unvalidated)" if dataset in unvalidated else dataset

    for r in rows:
        cost = f"{r.cost:.4f}" if r.cost is not None else "-"
        out.append(f"| {r.config} | {shown(r.dataset)} | {r.tasks} | {100 * r.compile_rate:.1f}% | {100 * r.pass_rate:.1f}% "
                   + (f"| {100 * r.partial_rate:.1f}% " if partial else "") + f"| {r.prompt_tokens:.0f} | {r.completion_tokens:.0f} | {r.model_calls:.1f} | {r.seconds:.1f} | {cost} |")
    rare = (LABELS[PARTIAL], LABELS[BLOCKED], LABELS[NO_TESTS], LABELS[REJECTED])      # columns only where they occur
    kinds = [k for k in LABELS.values() if k not in rare or any(k in r.errors for r in rows)]
    out += ["", "## Error types of unsolved tasks", "", "| config | dataset | " + " | ".join(kinds) + " |",
            "|---|---|" + "---:|" * len(kinds)]
    for r in rows:
        out.append(f"| {r.config} | {shown(r.dataset)} | " + " | ".join(str(r.errors.get(k, 0)) for k in kinds) + " |")
    economy = [(c, d, e) for c, d, e in economy_rows(records) if e.any]
    if economy:                           # a small model's unusable answers and repeats
        out += ["", "## Fallbacks and calls saved", "",
                "Optional steps that took their deterministic default after unusable answers, requests not sent "
                "again in a step, candidates not judged again.", "",
                "| config | dataset | tasks | calls/task | fallbacks | identical requests avoided "
                "| repeated candidates avoided |", "|---|---|---:|---:|---|---:|---:|"]
        out += [f"| {c} | {shown(d)} | {e.tasks} | {e.calls_per_task:.1f} | {e.fallbacks_text()} "
                f"| {e.identical_requests_avoided} | {e.repeated_candidates_avoided} |" for c, d, e in economy]
    ov = overlap(records)
    if len(ov["solved"]) > 1:             # overlap means something only between configurations
        out += ["", "## Overlap of solved tasks", "", "| configs | solved by both |", "|---|---:|"]
        out += [f"| {pair} | {n} |" for pair, n in ov["pairs"].items()]
        out += ["", "| config | solved | solved by no other config |", "|---|---:|---|"]
        out += [f"| {c} | {ov['solved'][c]} | {', '.join(f'`{t}`' for t in ov['unique'][c]) or '-'} |"
                for c in ov["solved"]]
    if translated:
        out += ["", "## Judged by translated tests", "",
                "Verdicts from NUnit tests repotrans translated from JUnit (`[Category(\"RepotransTranslated\")]`), "
                "not the port's own: not counted in the rates above.", "",
                "| config | dataset | tasks | compiled | passed | pass rate |", "|---|---|---:|---:|---:|---:|"]
        out += [f"| {r.config} | {shown(r.dataset)} | {r.tasks} | {r.compiled} | {r.passed} | {100 * r.pass_rate:.1f}% |"
                for r in rate_rows(translated)]
    out += failures_by_cause(records)
    out += translate_first_section(records)
    out.append("")
    for plot in plots:
        out += [f"![{plot.name.rsplit('.', 1)[0]}]({plot.name})", ""]
    return "\n".join(out)


def batch_section(batches: list[tuple[str, dict]]) -> list[str]:
    """What a batch's closing summary says of the whole suite and of --write/--patch, from its summary.json."""
    out: list[str] = []
    for name, data in batches:
        defaults = _summary_defaults()
        summary = BatchSummary(**{**defaults, **{k: v for k, v in data.items() if k in defaults}})
        together = summary.together or {}
        written = summary.write_lines() or ["written into the target: nothing (the batch was run without --write "
                                            "or --patch)"]
        out += [f"## Whole suite and what was written" + (f" ({name})" if len(batches) > 1 else ""), "",
                whole_suite_line(together) if together else "whole suite: not run (no translation passed, or the "
                                                             "batch stopped early)", ""]
        if summary.baseline:            # the tests no verdict rests on: failing, flipping, never run
            out += [baseline_line(summary.baseline), ""]
        out += [f"- {line.strip()}" if line.startswith("  ") else line for line in written] + [""]
    return out


def batch_summaries(run_dirs: list[Path]) -> list[tuple[str, dict]]:
    """(run folder name, summary.json) of the batches among `run_dirs` (ablations have none)."""
    out = []
    for d in run_dirs:
        try:
            out.append((d.name, json.loads(summary_file(d).read_text(encoding="utf-8"))))
        except (OSError, ValueError):
            continue
    return out


def failures_by_cause(records: list[TaskRecord]) -> list[str]:
    """The unsolved tasks grouped by cause, as report.html groups them (real failures first, largest
    groups first), each with its one-line reason (runs.causes, as the batch summary says it)."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in records:
        if not r.passed:
            cause = cause_of(r)
            origin = f"{r.config} / {r.dataset} / " if len({(x.config, x.dataset) for x in records}) > 1 else ""
            groups[cause.group].append((f"{origin}{r.task_id}", cause.line))
    if not groups:
        return []
    out = ["", "## Failures by cause", ""]
    for cause, tasks in sorted(groups.items(), key=lambda kv: (kv[0] in LATE_GROUPS, -len(kv[1]), kv[0])):
        out += [f"### {cause} ({len(tasks)})", ""]
        out += [f"- `{task}`: {' '.join(line.split())}" for task, line in sorted(tasks)]
        out.append("")
    return out[:-1]


def _summary_defaults() -> dict:
    """summary.json's keys, each with the value a summary that lacks it stands for (counts: 0)."""
    return {f.name: f.default if f.default is not MISSING else f.default_factory()
            if f.default_factory is not MISSING else 0 for f in fields(BatchSummary)}


def translate_first_section(records: list[TaskRecord]) -> list[str]:
    """The untranslated members ranked by the tasks they block (runs.translate_first), per run."""
    runs: dict[tuple[str, str], list[TaskRecord]] = defaultdict(list)
    for r in records:
        runs[(r.config, r.dataset)].append(r)
    out: list[str] = []
    for (config, dataset), recs in sorted(runs.items()):
        lines = render_lines(translate_first(recs), markdown=True)
        if lines:
            origin = f" ({config} / {dataset})" if len(runs) > 1 else ""
            out += ["", f"## Translate these first{origin}", "", lines[0][0].upper() + lines[0][1:], ""] + lines[1:]
    return out


def write_report(run_dirs: list[Path], out: Path | None = None) -> Path:
    """Write the summary (report.md and PNGs) into `out` (default: the first run folder)."""
    out = out or run_dirs[0]
    out.mkdir(parents=True, exist_ok=True)
    records = load_records(run_dirs)
    plots = plots_for(port_records(records))        # rates rest on the port's own tests
    for plot in plots:
        (out / plot.name).write_bytes(plot.png)
    (out / "report.md").write_text(markdown(records, unvalidated_datasets(run_dirs), plots, batch_summaries(run_dirs)))
    for d in run_dirs:
        write_html(d)
    return out / "report.md"
