"""Batch translation of a project pair: every placeholder (or a given list), callees before callers.

Files in the run folder:
  results.sqlite        one row per finished task, written as soon as it is known (RunStore)
  work/target/          the port plus passing translations and nothing else (runs.rejudge), so
                        that callers see their callees' fresh translations
  workspace/            index, stores and response cache over source + work/target
  tasks/<task>/         trajectory.jsonl, config.json, result.json and candidate.cs of each task
  summary.json          counts, tokens, the whole-suite check of the passing translations, what --write wrote
"""
from __future__ import annotations

import json
import shutil
from collections import Counter
import time
from dataclasses import asdict
from pathlib import Path

from repotrans.agents.config import AgentConfig
from repotrans.agents.providers import provider
from repotrans.errors import ConfigError, InputError, RepotransError, is_model_server_error
from repotrans.verdicts.status import BLOCKED, ERROR
from repotrans.runs.batch_progress import BatchProgress, StopRequest
from repotrans.runs.batch_summary import BatchSummary, baseline_line
from repotrans.runs.executors import ThreadExecutor
from repotrans.runs.workload import Executor, Workload
from repotrans.runs.ordering import dependency_graph, order_levels, strongly_connected
from repotrans.runs.batch_end import WriteOutcome, WriteRequest, combined_check, rejudge, write_passing
from repotrans.runs.rejudge import (applicable, keep_candidate, settle_group, stale_partials, unchanged_blocked,
                                    written_since)
from repotrans.runs.write_back import original_texts
from repotrans.runs.store import RunStore, TaskRecord
from repotrans.runs.layout import results_file
from repotrans.runs.run import Run, RunInputs
from repotrans.runs.task_choice import no_tasks, placeholder_tasks
from repotrans.mapping.mapping import Mapping
from repotrans.index.model import Method
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask, resolve_task

CONFIG_NAME = "batch"


def listed_tasks(index: Index, mapping: Mapping, path: Path) -> list[TranslationTask]:
    """One signature per line (C# or Java); blank lines and '#' comments are skipped."""
    if not path.is_file():
        raise ConfigError(f"function list not found: {path}")
    tasks, bad = [], []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            try:
                tasks.append(resolve_task(index, mapping, line))
            except InputError as exc:
                bad.append(f"{path}:{n}: {exc}")
    if bad:
        raise ConfigError("; ".join(bad))
    return tasks


def run_batch(source: Path, target: Path, run_dir: Path, config: AgentConfig, *, functions: Path | None = None,
              jobs: int = 1, resume: bool = False, write: bool | WriteRequest = False, progress: bool = True, quiet: bool = False,
              executor: Executor | None = None, stop_after_server_errors: int = 3, baseline: bool = True) -> BatchSummary:
    """Translate the selected tasks level by level; results land in the run store as they finish.
    `executor` runs each level's tasks (default: `jobs` threads of this process). `baseline`: the untouched
    port's baseline leaves the tests failing, flipping or not running on it out of every verdict (Run.
    untouched_baseline); False where the caller's configuration holds them already (sync). The batch stops early,
    keeping what finished, on a first Ctrl-C or after `stop_after_server_errors` model-server errors in a
    row. A batch that fails before any task finished leaves no run folder behind."""
    started = time.time()
    request = write if isinstance(write, WriteRequest) else WriteRequest(write=bool(write))
    inputs = RunInputs(source, target, run_dir)
    inputs.check()
    fresh = not results_file(run_dir).exists()
    if not fresh and not resume and _finished_tasks(run_dir):
        raise ConfigError(f"{run_dir} already holds a run; pass --resume to continue it or choose another --run-dir")
    run = Run(inputs, config)
    try:
        return _run(run, functions=functions, jobs=jobs, request=request, progress=progress, quiet=quiet,
                    executor=executor, started=started, stop_after=stop_after_server_errors, baseline=baseline)
    except RepotransError as exc:       # name the user's folder, not the run's internal copy of it
        exc.message = exc.message.replace(str(run.work), str(target))
        raise
    finally:
        left_empty = not run.store.records()
        run.close()
        if fresh and left_empty:
            shutil.rmtree(run_dir, ignore_errors=True)


def _finished_tasks(run_dir: Path) -> int:
    store = RunStore(run_dir)
    try:
        return len(store.records())
    finally:
        store.close()


def _run(run: Run, *, functions: Path | None, jobs: int, request: WriteRequest, progress: bool, quiet: bool,
         executor: Executor | None, started: float, stop_after: int, baseline: bool) -> BatchSummary:
    """The batch's stages on its run: plan (the tasks, kept in the store), translate level by level, then the
    end (re-judge, whole suite, write) and the summary file."""
    config, store, folder, source = run.config, run.store, run.folder, run.inputs.source
    work = run.fresh_work_copy()
    index = run.open_index(progress=progress and not quiet)
    task_ids = store.meta("tasks")
    if task_ids is None:
        mapping = run.mapping()
        tasks = (listed_tasks(index, mapping, functions) if functions
                 else placeholder_tasks(index, mapping, weak=config.tasks.weak_placeholders))
        if not tasks:
            raise no_tasks(index, mapping, config.mapping.java_tests)
        store.set_meta("tasks", [[t.target_method_id, t.source_method_id] for t in tasks])
    else:
        tasks = [TranslationTask(target_method_id=t, source_method_id=s) for t, s in task_ids]
    names = {t.target_method_id: t.target_method_id.split(":", 1)[1] for t in tasks}     # task id -> member name
    if task_ids is None:
        store.set_meta("originals", original_texts(index, list(names.values())))
    store.set_meta("config", config.to_json())          # the configuration of the latest (resumed) run
    dataset = run.inputs.target.resolve().name
    previous = [r for r in store.records() if r.config == CONFIG_NAME]
    done = {r.task_id: r for r in previous if r.status != ERROR}
    retried = len(previous) - len(done)
    display = BatchProgress(len(tasks), list(done.values()), enabled=progress and not quiet, quiet=quiet)
    if previous:
        display.say(f"resuming: {len(done)} finished task(s) kept"
                    + (f", {retried} errored task(s) retried" if retried else ""))
    facts = run.untouched_baseline(display.say).facts() if baseline else {}
    if facts:
        display.say(baseline_line(facts))
        config = run.config
    copy = run.work_copy()
    by_hand = written_since(index, store.meta("originals", {}), done, list(names.values())) if previous else []
    if previous:
        store.set_aside(by_hand, "written in the port since the run planned it")
    if by_hand:
        done = {k: r for k, r in done.items() if k not in by_hand}
        display.say(f"written in the port since: {len(by_hand)} task(s), no longer tasks of this run: "
                    + ", ".join(by_hand[:4]) + (", ..." if len(by_hand) > 4 else ""))
    again = stale_partials(copy, list(done.values()))
    copy.apply(sorted((r for r in done.values() if applicable(r) and r.task_id not in again), key=lambda r: r.task_id))

    java = {t.target_method_id: index.method(t.source_method_id) for t in tasks}
    by_id = {t.target_method_id: t for t in tasks}
    deps = dependency_graph({k: v for k, v in java.items() if v is not None})
    levels = order_levels(deps)
    own_executor = executor is None
    executor = executor or ThreadExecutor(jobs=jobs, owner=run)
    work_load = Workload(dirs={"source": source, "target": work, "workspace": folder.workspace}, config=config,
                         config_name=CONFIG_NAME, dataset=dataset)
    stopped, server_errors = "", 0
    # task id -> state of the work copy its verdict was taken on (resumed: blocked ones whose blockers stay)
    judged_on: dict[str, str] = unchanged_blocked(copy, list(done.values()))
    with StopRequest("finishing the current task" + ("s" if jobs > 1 else "") + "; Ctrl-C again aborts") as stop:
        for level in levels:
            pending = [by_id[t] for t in level if names[t] not in done and names[t] not in by_hand]
            finished = []
            state = copy.state() if pending else ""
            for rec in executor.run(work_load, pending, folder.tasks) if pending else ():
                store.add(rec)
                keep_candidate(folder.tasks, rec)
                judged_on[rec.task_id] = state
                finished.append(rec)
                display.add(rec)
                server_errors = server_errors + 1 if is_model_server_error(rec.error) else 0
                if server_errors >= stop_after:
                    stopped = (f"{server_errors} model-server errors in a row; the last: {rec.error}. "
                               "Fix the server, then run the same command with --resume (errored tasks are retried)")
                elif stop.requested:
                    stopped = "interrupted (Ctrl-C); run the same command with --resume to continue"
                if stopped:
                    break
            copy.apply(sorted((r for r in finished if applicable(r)), key=lambda r: r.task_id))
            if not stopped:
                _mutual_groups(run, deps, finished, display, java)
            if stopped:
                break
        display.close()
        if own_executor:
            executor.close()
        records = [r for r in store.records() if r.config == CONFIG_NAME]
        order = [names[t] for level in levels for t in level]
        together, written = _finish(run, records, order, display, java, request, stopped, judged_on, again)
        records = [r for r in store.records() if r.config == CONFIG_NAME]
    aside = sorted(store.meta("set_aside", {}))
    summary = BatchSummary.of(len(tasks) - len(aside), records, seconds=round(time.time() - started, 2),
                              together=together, written_since=aside,
                              written=written.members, write=written.plan, write_refused=written.refused,
                              withheld=written.withheld, baseline=facts,
                              stopped=stopped, interrupted=stop.requested,
                              estimated_tokens=provider(config.model.name).estimates_tokens)
    folder.summary.write_text(json.dumps(asdict(summary), indent=2) + "\n")
    return summary


def _mutual_groups(run: Run, deps: dict[str, set[str]], finished: list[TaskRecord], display: BatchProgress,
                   java: dict[str, Method | None]) -> None:
    """Placeholders that call each other (a strongly connected group of the call graph, one level) cannot
    pass alone: their blocked candidates are judged together at once (rejudge.settle_group), so that
    the next level builds on the ones that pass."""
    comp = strongly_connected(deps)
    size = Counter(comp.values())
    groups: dict[int, list[TaskRecord]] = {}
    for rec in finished:
        tid = "target:" + rec.task_id
        if rec.status == BLOCKED and rec.code is not None and tid in comp and size[comp[tid]] > 1:
            groups.setdefault(comp[tid], []).append(rec)
    for group in (g for g in groups.values() if len(g) > 1):
        display.say(f"judging {len(group)} placeholders that call each other together: "
                    + ", ".join(r.task_id for r in group[:3]) + (", ..." if len(group) > 3 else ""))
        settle_group(run.work_copy(), group, run.judge(), run.store, java, display.say,
                     run.folder.tasks)


def _finish(run: Run, records: list[TaskRecord], order: list[str], display: BatchProgress,
            java: dict[str, Method | None], request: WriteRequest, stopped: str,
            judged_on: dict[str, str], again: set[str]) -> tuple[dict, WriteOutcome]:
    """After the last task (or a stop): blocked tasks judged again (not after a stop), the whole suite run
    once with the passing translations (after a stop, only when something is to be written), then what
    passed written when asked. Each phase says what it does first. `java`: target method id -> its Java
    original, whose allowances every judgement keeps. `again`: partial tasks judged again with the blocked ones
    (rejudge.stale_partials)."""
    together: dict = {}
    if stopped and not request.wanted:
        return together, WriteOutcome()
    index, store, runner = run.index, run.store, run.judge()
    if not stopped:
        rejudge(run.work_copy(), records, order, runner, store, java, display.say,
                tasks_dir=run.folder.tasks, judged_on=judged_on, again=again)
    records = [r for r in store.records() if r.config == CONFIG_NAME]
    passing = [r for r in records if r.passed]
    if passing:
        display.say(f"running the whole suite with {len(passing)} passing translation(s) (and nothing else)...")
        together = combined_check(index, passing, runner,
                                  untranslated=[r.task_id for r in records if not r.passed], java=java)
    outcome = WriteOutcome()
    if request.wanted:
        outcome = write_passing(run.inputs.target, store.meta("originals", {}), records, together, request, stopped)
        for line in outcome.lines:
            if not line.startswith("  "):         # the summary lists the members, file by file
                display.say(line)
    return together, outcome
