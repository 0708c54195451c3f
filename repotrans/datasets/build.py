"""Building an evaluation dataset: `build_dataset` selects the C# methods that have a Java counterpart
(datasets.masking), checks each one (its ground truth passes the covering tests, a placeholder fails
them; the untouched port's baseline first) and writes `dataset.json` beside a report (datasets.dataset).
Verdicts are kept in OUT/.build as they are known, so a build resumes where it stopped.
"""
from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from tqdm import tqdm

from repotrans.datasets import flaky
from repotrans.datasets.dataset import Dataset, DatasetTask, render_report
from repotrans.datasets.masking import candidate_tasks, placeholder_body
from repotrans.datasets.overlap import overlapping
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.baseline import BaselineCache, PortBaseline, port_baseline
from repotrans.execution.judge.baseline_outcomes import untouched_outcome
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains import TargetBuildError
from repotrans.execution.toolchains.api import left_out_note, nothing_left
from repotrans.index.store import Index
from repotrans.mapping.machine_cache import MachineMappings
from repotrans.mapping.overrides import MappingOverrides

VERDICTS = "verdicts.jsonl"
UNTOUCHED_TIMEOUT = 900.0        # seconds for the untouched port's whole suite (each test project)


@dataclass
class TaskValidation:
    """The validation of one task: `reason` is None when it is kept, else why it is dropped."""
    id: str
    reason: str | None
    selection: str = ""          # which tests judged it (runner's Selection.describe())
    seconds: float = 0.0
    selected: int = 0            # tests (or whole fixtures) the covering selection named
    truth_run: int = 0           # tests run on the ground truth (all selected ones, when it passes)
    placeholder_run: int = 0     # tests run on the placeholder (fail fast: up to its first failing run)
    truth_read: bool = False     # the ground truth's outcomes were read from the untouched baseline, not run


def validate_task(oracle: Index, task: DatasetTask, runner: Runner, baseline: PortBaseline | None = None,
                  rejected: dict[str, str] | None = None) -> TaskValidation:
    """Keep a task when its ground truth passes the covering tests and a placeholder fails them. With
    `baseline` and `rejected` (the capability check of the ground truths, datasets.validation.rejected_truths),
    the ground truth's outcomes are read from the untouched baseline where it holds them: in place, the
    ground truth is the untouched port (judge.baseline_outcomes)."""
    started = time.monotonic()

    ok = bad = None

    def verdict(reason: str | None, selection: str = "") -> TaskValidation:
        return TaskValidation(task.id, reason, selection, round(time.monotonic() - started, 2),
                              selected=len(ok.selected) if ok else 0, truth_run=ok.tests_run if ok else 0,
                              placeholder_run=bad.tests_run if bad else 0, truth_read=bool(ok and ok.judge))

    m = oracle.method(task.target_method_id)
    if m is None:
        return verdict("not found in the index")
    truth = (oracle.root("target") / m.path).read_bytes()[m.start_byte:m.end_byte].decode()
    java = oracle.method(task.source_method_id)
    allow = allowances(oracle, java)
    if baseline is not None and rejected is not None:
        if task.id in rejected:
            return verdict(f"ground truth gives rejected: {rejected[task.id]}")
        chosen = runner.select(oracle, m, runner.workspace(oracle.root("target")), "covering", True)
        ok = untouched_outcome(baseline, chosen.selected, chosen.selection)
    if ok is None:      # its failures the baseline does not know run again on the untouched port (datasets.flaky)
        ok = flaky.settle_alone(runner, oracle.root("target"),
                                runner.run(oracle, m, truth, scope="covering", allow=allow, scaled=True, java=java),
                                baseline)
    if (ok.status == "no_tests" or ok.status == "passed") and ok.tests_run == 0 and ok.left_out:
        return verdict(nothing_left(ok.left_out), ok.selection)
    if ok.status == "no_tests" or (ok.status == "passed" and ok.tests_run == 0):
        return verdict(f"no test covers it ({ok.selection or ok.reason or 'no tests ran'})", ok.selection)
    if ok.status != "passed":
        first = next((d for d in ok.diagnostics if d.severity == "error"), None) if ok.status == "compile_error" else None
        error = f" ({first.file}:{first.line}: {first.code} {first.message})" if first else ""
        return verdict(f"ground truth gives {ok.status}: {ok.reason or ok.brief().splitlines()[0]}{error}", ok.selection)
    masked = m.signature + " " + placeholder_body(m)
    bad = runner.run(oracle, m, masked, scope="covering", allow=allow, scaled=True, java=java)
    if bad.status == "passed":
        return verdict("a placeholder passes its tests" + left_out_note(bad.left_out), ok.selection)
    return verdict(None, ok.selection)


class ValidationLog:
    """build/verdicts.jsonl: one line per validated task, appended as soon as it is known, so that a
    killed build resumes where it stopped. Lines of another target state (or toolchain) are ignored."""

    def __init__(self, path: Path, key: str):
        self.path, self.key = path, key
        self._lock = threading.Lock()

    def load(self) -> dict[str, TaskValidation]:
        found: dict[str, TaskValidation] = {}
        if not self.path.is_file():
            return found
        for line in self.path.read_text().splitlines():
            try:
                data = json.loads(line)
            except json.JSONDecodeError:      # a line cut short by a kill
                continue
            if isinstance(data, dict) and data.pop("key", None) == self.key:
                found[data["id"]] = TaskValidation(**{k: v for k, v in data.items()
                                                       if k in TaskValidation.__dataclass_fields__})
        return found

    def add(self, verdict: TaskValidation) -> None:
        with self._lock, open(self.path, "a") as out:
            out.write(json.dumps({"key": self.key, **asdict(verdict)}) + "\n")


def validate_tasks(index: Index, tasks: list[DatasetTask], work: Path, runner: Runner, *,
                   jobs: int = 1, progress: bool = True, schemata: bool = True,
                   stats: dict | None = None, baseline: PortBaseline | None = None) -> list[TaskValidation]:
    """Validate `tasks` (`jobs` at a time, through `runner`), reusing the verdicts a previous build of
    the same target state left in `work`; returns one verdict per task, in task order. With `schemata`,
    the tasks execution.schemata can guard share one build (datasets.validation); the
    others, or all without it, are built per task; `stats` receives what the schemata build guarded.
    `baseline`: the untouched port's, from which ground truths' outcomes are read where it holds them."""
    from repotrans.execution.workspace.scratch import state_key

    log = ValidationLog(work / VERDICTS, f"{runner.config.toolchain}-{state_key(index.root('target'))}")
    known = log.load()
    pending = [t for t in tasks if t.id not in known]
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(pending), desc="validating tasks", unit="task",
               disable=not progress)

    def record(verdict: TaskValidation) -> None:
        log.add(verdict)
        known[verdict.id] = verdict
        bar.update()

    if schemata and pending:
        from repotrans.datasets.validation import validate_guarded

        pending, built = validate_guarded(index, pending, runner, jobs=jobs, record=record,
                                          make_validation=lambda t, reason, selection, seconds:
                                          TaskValidation(t.id, reason, selection, seconds), baseline=baseline)
        if built is not None and stats is not None:
            stats["schemata"] = {"guarded": len(built.switches), "per_task": len(built.unguarded),
                                 "build_seconds": round(built.seconds, 1), "routes": dict(built.routes),
                                 "phases": dict(built.phases)}

    rejected = None
    if baseline is not None and pending:
        from repotrans.datasets.validation import rejected_truths

        rejected = rejected_truths(index, pending, runner)

    def one(task: DatasetTask) -> TaskValidation:
        verdict = validate_task(index, task, runner, baseline, rejected)
        log.add(verdict)
        bar.update()
        return verdict

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        for verdict in pool.map(one, pending):
            known[verdict.id] = verdict
    finally:                      # interrupted: finish (and save) the running tasks, start no other
        pool.shutdown(wait=True, cancel_futures=True)
        bar.close()
    return [known[t.id] for t in tasks]


def validate_elsewhere(index: Index, tasks: list[DatasetTask], work: Path, execution: ExecutionConfig,
                       baseline: PortBaseline, validator, *, schemata: bool = True) -> list[TaskValidation]:
    """`validate_tasks` through `validator` (another executor's nodes), with the same log: the verdicts a
    previous build of the same target state left in `work` are reused, the new ones added to it."""
    from repotrans.execution.workspace.scratch import state_key

    log = ValidationLog(work / VERDICTS, f"{execution.toolchain}-{state_key(index.root('target'))}")
    known = log.load()
    pending = [t for t in tasks if t.id not in known]
    for verdict in validator.validate(index.root("source"), index.root("target"), pending, execution, baseline,
                                      schemata=schemata):
        log.add(verdict)
        known[verdict.id] = verdict
    return [known[t.id] for t in tasks]


def build_folder(out: Path) -> Path:
    """Where `build_dataset` keeps its work in OUT: index/ (the pair's index), runs/ (the judge's scratch
    copies) and the verdicts known so far (VERDICTS)."""
    return Path(out) / ".build"


def build_dataset(source: Path, target: Path, out: Path, *, name: str | None = None,
                  select: list[str] | None = None, execution: ExecutionConfig = ExecutionConfig(sandbox="local"),
                  overrides: MappingOverrides | None = None, validate: bool = True, jobs: int = 1,
                  progress: bool = True, schemata: bool = True, cache_root: Path | None = None,
                  validator=None) -> Dataset:
    """Select, validate (with the `execution` settings) and record the tasks of a project pair; write
    dataset.json and report.md. Verdicts are kept in OUT/.build as they are known: building again resumes.
    The untouched port's baseline and the mapping come from the per-machine caches under `cache_root` where
    their content is there (judge.baseline, mapping.machine_cache; None: computed in this build only).
    `validator`: where the baseline and the validation run instead of this process's threads
    (runs.ray_validation.RayValidator: `--executor ray`)."""
    out.mkdir(parents=True, exist_ok=True)
    work = build_folder(out)
    index = Index.open(work / "index")
    index.build(source, target, progress=progress)
    dropped, stats, known = [], {}, {}
    mappings = MachineMappings.under(cache_root)
    if not validate:
        tasks = candidate_tasks(index, select, overrides, mappings)
    else:
        started = time.monotonic()
        found: dict = {}
        say = (lambda line: tqdm.write(line)) if progress else None
        # the untouched port's baseline, then its build where validation runs (compilers and test runs, outside
        # Python), beside the mapping; validation's own Python (the call graph) beside the end of that build
        with overlapping(), ThreadPoolExecutor(max_workers=1) as pool:
            untouched = pool.submit(_untouched, target, work, execution, cache_root, say, validator)
            built = pool.submit(_build_workspace, target, work, execution) if validator is None else None
            tasks = candidate_tasks(index, select, overrides, mappings)
            base = untouched.result()
            known = base.known_failures
            execution = replace(execution, known_failures=tuple(sorted(known.items())))
            if validator is not None:
                verdicts = validate_elsewhere(index, tasks, work, execution, base, validator, schemata=schemata)
            else:
                with Runner(execution, work / "runs", trusted=True) as runner:
                    runner.limits = base.limits(runner.limits)      # measured seconds: runs planned and limited
                    runner.untouched = base                         # failures seen on the untouched build: kept
                    verdicts = validate_tasks(index, tasks, work, runner, jobs=jobs, progress=progress,
                                              schemata=schemata, stats=found, baseline=base)
                built.result()
        dropped = [{"id": v.id, "reason": v.reason} for v in verdicts if v.reason is not None]
        kept = {v.id for v in verdicts if v.reason is None}
        tasks = [t for t in tasks if t.id in kept]
        stats = {"jobs": jobs, "wall_seconds": round(time.monotonic() - started, 1),
                 "task_seconds": round(sum(v.seconds for v in verdicts), 1), "checked": len(verdicts),
                 "no_covering_test": sum((v.reason or "").startswith("no test covers") for v in verdicts),
                 "baseline_seconds": round(base.seconds, 1), "baseline_computed": len(base.computed),
                 "baseline_assemblies": len(base.assemblies), "excluded": base.excluded, **found}
    ds = Dataset(name=name or out.resolve().name, root=out, tasks=tasks, dropped=dropped,
                 source=_relative(source, out), target=_relative(target, out), toolchain=execution.toolchain,
                 validated=validate, fails_before_any_change=known)
    ds.save()
    (out / "report.md").write_text(render_report(ds, stats))
    return ds


def _untouched(target: Path, work: Path, execution: ExecutionConfig, cache_root: Path | None,
               say: Callable[[str], None] | None, validator=None) -> PortBaseline:
    """The untouched port's baseline: `validator`'s where given, else this process's runs (work/runs), cached
    under `cache_root`."""
    timeout = max(execution.timeout, UNTOUCHED_TIMEOUT)
    if validator is not None:
        return validator.baseline(target, execution, BaselineCache.under(cache_root), timeout, say)
    # the port's own bodies are judged (no model's code): `auto` may fall back to the local sandbox
    with Runner(execution, work / "runs", trusted=True) as runner:
        return port_baseline(runner, target, BaselineCache.under(cache_root), timeout=timeout, progress=say)


def _build_workspace(target: Path, work: Path, execution: ExecutionConfig) -> None:
    """The port built where this build's validation runs (work/runs; a cached baseline did not build it), so
    that validation's first steps, waiting for it, find it built. A port that does not build is left for the
    validation to report (it builds it again, as ever)."""
    with Runner(execution, work / "runs", trusted=True) as runner:
        try:
            runner.baseline(target)
        except TargetBuildError:
            pass


def _relative(path: Path, base: Path) -> str:
    """`path` relative to `base` (with `..` where needed): a manifest holds no machine paths, so a
    dataset works wherever its folder and its repositories move together."""
    return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()
