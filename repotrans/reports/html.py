"""report.html of one run folder, answer first: counts, rates, error types, the whole-suite result and
the plots; then the failures grouped by cause (each opening with its first real assertion or compiler
error), a per-class breakdown, and the passed tasks. Each task links its trajectory file (never inlined:
a page of a dozen tasks stays small). Rendered from templates/report.html.j2 (Jinja,
autoescaped, StrictUndefined); the plots are embedded, so the page stands alone.
"""
from __future__ import annotations

import base64
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2

from repotrans.agents.providers import provider
from repotrans.runs.causes import LATE_GROUPS, cause_of
from repotrans.verdicts.status import LABELS
from repotrans.reports.metrics import rate_rows
from repotrans.runs.economy import Economy
from repotrans.reports.plots import class_of, plots_for
from repotrans.runs.layout import summary_file
from repotrans.reports.run_records import load_records, unvalidated_datasets
from repotrans.runs.store import RunStore, TaskRecord, port_records, translated_records
from repotrans.runs.translate_first import translate_first
from repotrans.reports.task_files import (dedent_member, diff_lines, method_text, run_indexes, token_notes,
                                              trajectory, trajectory_path)
from repotrans.runs.whole_suite import whole_suite_line

ESTIMATE_NOTE = "estimated: the offline builtin policy counts words, not tokens"


@dataclass
class TaskView:
    record: TaskRecord
    headline: str
    java: str | None
    code: str | None
    diff: list[tuple[str, str]] | None         # None: the run has no ground truth for this task
    outcome: str
    steps: int                                 # trajectory entries, linked (never inlined: the page stays small)
    trajectory: str | None                     # its path relative to the run folder
    notes: list[str] = field(default_factory=list)
    estimated: bool = False

    @property
    def tokens(self) -> int:
        return self.record.prompt_tokens + self.record.completion_tokens


@dataclass
class Group:
    cause: str
    tasks: list[TaskView]


@dataclass
class ClassRow:
    config: str
    name: str
    counts: Counter

    @property
    def tasks(self) -> int:
        return sum(self.counts.values())


def write_html(run_dir: Path) -> Path:
    """Render run_dir/report.html from the run's files."""
    path = run_dir / "report.html"
    path.write_text(render_page(run_dir), encoding="utf-8")
    return path


def render_page(run_dir: Path) -> str:
    records = load_records([run_dir])
    estimated = _estimated_configs(run_dir)
    indexes = run_indexes(run_dir)
    views = [_view(run_dir, r, indexes, r.config in estimated) for r in records]
    failing = [v for v in views if not v.record.passed]
    groups: dict[str, list[TaskView]] = defaultdict(list)
    for v in failing:
        groups[cause_of(v.record).group].append(v)
    ordered = sorted(groups.items(), key=lambda kv: (kv[0] in LATE_GROUPS, -len(kv[1]), kv[0]))
    summary = _summary(run_dir, records, estimated)
    plots = [{"title": p.title, "src": "data:image/png;base64," + base64.b64encode(p.png).decode("ascii")}
             for p in plots_for(port_records(records))]
    return _template().render(
        title=run_dir.name, summary=summary, plots=plots, unvalidated=sorted(unvalidated_datasets([run_dir])),
        groups=[Group(cause, sorted(tasks, key=lambda v: v.record.task_id)) for cause, tasks in ordered],
        classes=_classes(port_records(records)), several_configs=len({r.config for r in records}) > 1,
        show_origin=len({(r.config, r.dataset) for r in records}) > 1,
        passed=sorted((v for v in views if v.record.passed), key=lambda v: v.record.task_id),
        statuses=sorted({r.status for r in records}), estimate_note=ESTIMATE_NOTE,
        first=translate_first(port_records(records)))


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    text = (resources.files("repotrans.reports") / "templates" / "report.html.j2").read_text(encoding="utf-8")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    return env.from_string(text)


def _estimated_configs(run_dir: Path) -> set[str]:
    """Configurations whose provider estimates its token figures (the offline translator counts words)."""
    store = RunStore(run_dir)
    single, many = store.meta("config"), store.meta("configs", {})
    store.close()
    configs = dict(many)
    if single is not None:
        from repotrans.runs.batch import CONFIG_NAME
        configs[CONFIG_NAME] = single
    return {name for name, c in configs.items() if provider(((c or {}).get("model") or {}).get("name")).estimates_tokens}


def _summary(run_dir: Path, records: list[TaskRecord], estimated: set[str]) -> dict:
    """The page's figures over the tasks the port's own tests judged; translated-test verdicts apart."""
    translated = translated_records(records)
    records = port_records(records)
    n = len(records)
    counts = Counter(r.status for r in records)
    together = _together(run_dir)
    rows = [r for r in rate_rows(records) if r.dataset == "all"] or rate_rows(records)
    return {
        "tasks": n, "passed": counts["passed"], "compiled": sum(r.compiled for r in records),
        "blocked": counts["blocked"], "errors": counts["error"],
        "no_tests": counts["no_tests"], "partial": counts["partial"],
        "partial_rate": 100 * counts["partial"] / n if n else 0.0,
        "failed": n - counts["passed"] - counts["partial"] - counts["blocked"] - counts["error"] - counts["no_tests"],
        "compile_rate": 100 * sum(r.compiled for r in records) / n if n else 0.0,
        "pass_rate": 100 * counts["passed"] / n if n else 0.0,
        "error_types": [(LABELS[s], counts[s]) for s in LABELS if counts.get(s)],
        "whole_suite": whole_suite_line(together) if together is not None else None,
        "fail_together": (together or {}).get("fail_together", []),
        "seconds": sum(r.seconds for r in records),
        "tokens": sum(r.prompt_tokens + r.completion_tokens for r in records),
        "estimated": bool(estimated), "rows": rows if len(rows) > 1 else [],
        "translated": len(translated), "translated_passed": sum(r.passed for r in translated),
        "economy": Economy.of(records),
    }


def _together(run_dir: Path) -> dict | None:
    """The whole-suite check a batch recorded in summary.json (None: not a batch, or not finished)."""
    path = summary_file(run_dir)
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text()).get("together") or {}
    except (OSError, json.JSONDecodeError):
        return None


def _classes(records: list[TaskRecord]) -> list[ClassRow]:
    by: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in records:
        by[(r.config, class_of(r.task_id))][r.status] += 1
    rows = [ClassRow(config=c, name=k, counts=v) for (c, k), v in by.items()]
    return sorted(rows, key=lambda row: (row.config, -(row.tasks - row.counts["passed"]), row.name))


def _view(run_dir: Path, r: TaskRecord, indexes: dict, estimated: bool) -> TaskView:
    view, oracle = indexes.get(r.dataset) or indexes.get("*") or (None, None)
    entries = trajectory(run_dir, r)
    source_id = next((e.get("source") for e in entries if e.get("kind") == "task"), None)
    java = method_text(view, source_id)
    truth = method_text(oracle, "target:" + r.task_id)
    diff = diff_lines(dedent_member(truth), dedent_member(r.code)) if truth is not None and r.code else None
    return TaskView(record=r, headline=cause_of(r).line, java=dedent_member(java) if java else None,
                    code=r.code, diff=diff, outcome=_outcome(r), steps=len(entries),
                    trajectory=_relative(trajectory_path(run_dir, r), run_dir),
                    notes=token_notes(entries), estimated=estimated)


def _relative(path: Path | None, run_dir: Path) -> str | None:
    return None if path is None else path.relative_to(run_dir).as_posix()


def _outcome(r: TaskRecord) -> str:
    if r.error:
        return r.error
    if not r.result:
        return r.status
    from repotrans.verdicts.results import TestResult

    result = TestResult.from_json(r.result)
    return result.brief() + (f"\ntests: {result.selection}" if result.selection else "")
