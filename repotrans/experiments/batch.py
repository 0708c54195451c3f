"""Batch translation of a project pair: every placeholder (or a given list), callees before callers.

Files in the run folder:
  results.sqlite        one row per finished task, written as soon as it is known (RunStore)
  work/target/          the target with each level's passing translations applied, so that callers
                        see their callees' fresh translations
  workspace/            index, stores and response cache over source + work/target
  tasks/<task>/         trajectory.jsonl, config.json, result.json of each task
  summary.json          counts, tokens, and the combined check of all passing translations
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from repotrans.agents.config import AgentConfig
from repotrans.errors import ConfigError, InputError, RepotransError, is_model_server_error
from repotrans.execution.workspace.apply import apply_candidate
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.status import BLOCKED, ERROR
from repotrans.execution.judge.batching import judge_for
from repotrans.execution.judge.runner import Runner
from repotrans.experiments.batch_progress import BatchProgress, StopRequest, outcome_of
from repotrans.experiments.batch_summary import BatchSummary
from repotrans.experiments.executors import ThreadExecutor
from repotrans.experiments.workload import Executor, Workload
from repotrans.experiments.ordering import dependency_graph, order_levels
from repotrans.experiments.run_store import RunStore, TaskRecord
from repotrans.experiments.whole_suite import summarize, translated_fixtures, translated_part
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.index.model import Method
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask, resolve_task

CONFIG_NAME = "batch"


def placeholder_tasks(index: Index, overrides: MappingOverrides | None = None) -> list[TranslationTask]:
    """Every target member with a placeholder body whose Java counterpart the mapping knows."""
    mapping = load_mapping(index, overrides)
    tasks = []
    for m in index.all_methods("target"):
        match = mapping.source_method(m.id)
        if match is not None and is_placeholder(m.body) and not _chained_constructor(m):
            tasks.append(TranslationTask(target_method_id=m.id, source_method_id=match.source_id))
    return tasks


def _chained_constructor(m: Method) -> bool:
    """`C(...) : base(...)/this(...) { }`: the initializer is the whole translation, not a placeholder."""
    return m.kind == "constructor" and re.search(r"\)\s*:\s*(base|this)\s*\(", m.signature) is not None \
        and re.fullmatch(r"\{\s*\}", (m.body or "").strip()) is not None


def listed_tasks(index: Index, path: Path, overrides: MappingOverrides | None = None) -> list[TranslationTask]:
    """One signature per line (C# or Java); blank lines and '#' comments are skipped."""
    if not path.is_file():
        raise ConfigError(f"function list not found: {path}")
    mapping = load_mapping(index, overrides)
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


def _applicable(rec: TaskRecord) -> bool:
    """Passing and blocked candidates go into the work target, so that later levels build on them."""
    return rec.passed or rec.status == BLOCKED


def _rejudge(index: Index, blocked: list[TaskRecord], runner: Runner, store: RunStore,
             java: dict[str, Method | None]) -> None:
    """Run each blocked candidate's covering tests again on the target that now holds every translation,
    with the allowances of its Java original (`java`: target method id -> Java method) as on its first run
    (together: a judge_batch.BatchingJudge shares their builds)."""
    root = index.root("target")
    found = [(rec, m) for rec, m in ((r, index.method("target:" + r.task_id)) for r in blocked) if m is not None]
    items = [(m, (root / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8"),
              allowances(index, java.get(m.id))) for _, m in found]
    for (rec, _), result in zip(found, runner.run_many(index, items, scope="covering")):
        rec.status = result.status
        rec.result = result.to_json()
        store.add(rec)


def _work_target(target: Path, run_dir: Path) -> Path:
    """run_dir/work/target: a fresh copy of the target (passing translations are applied on top)."""
    work = run_dir / "work" / "target"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(target, work, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans"))
    return work


def _apply(index: Index, source: Path, work: Path, records: list[TaskRecord]) -> None:
    """Write passing translations into the work target, one file edit and incremental re-index at a time."""
    for rec in records:
        m = index.method("target:" + rec.task_id)
        if m is None or rec.code is None:
            continue
        path = work / m.path
        # bytes, not read_text: a CRLF file must keep its byte offsets (the index's) and its line endings
        text, _ = apply_candidate(path.read_bytes().decode("utf-8"), m, rec.code)
        path.write_bytes(text.encode("utf-8"))
        index.build(source, work, progress=False)


def run_batch(source: Path, target: Path, run_dir: Path, config: AgentConfig, *, functions: Path | None = None,
              jobs: int = 1, resume: bool = False, write: bool = False, progress: bool = True, quiet: bool = False,
              executor: Executor | None = None, stop_after_server_errors: int = 3) -> BatchSummary:
    """Translate the selected tasks level by level; results land in the run store as they finish.
    `executor` runs each level's tasks (default: `jobs` threads of this process). The batch stops early,
    keeping what finished, on a first Ctrl-C or after `stop_after_server_errors` model-server errors in a
    row. A batch that fails before any task finished leaves no run folder behind."""
    started = time.time()
    for name, path in (("source", source), ("target", target)):
        if not path.is_dir():
            raise ConfigError(f"--{name}: {name} repository not found: {path}")
    fresh = not (run_dir / "results.sqlite").exists()
    if not fresh and not resume and _finished_tasks(run_dir):
        raise ConfigError(f"{run_dir} already holds a run; pass --resume to continue it or choose another --run-dir")
    store = RunStore(run_dir)
    work = run_dir / "work" / "target"
    try:
        return _run(source, target, run_dir, store, config, functions=functions, jobs=jobs, resume=resume,
                    write=write, progress=progress, quiet=quiet, executor=executor, started=started,
                    stop_after=stop_after_server_errors)
    except RepotransError as exc:       # name the user's folder, not the run's internal copy of it
        exc.message = exc.message.replace(str(work), str(target))
        raise
    finally:
        left_empty = not store.records()
        store.close()
        if fresh and left_empty:
            shutil.rmtree(run_dir, ignore_errors=True)


def _finished_tasks(run_dir: Path) -> int:
    store = RunStore(run_dir)
    try:
        return len(store.records())
    finally:
        store.close()


def _run(source: Path, target: Path, run_dir: Path, store: RunStore, config: AgentConfig, *,
         functions: Path | None, jobs: int, resume: bool, write: bool, progress: bool, quiet: bool,
         executor: Executor | None, started: float, stop_after: int) -> BatchSummary:
    workspace = run_dir / "workspace"
    work = _work_target(target, run_dir)
    index = Index.open(workspace)
    index.build(source, work, progress=progress and not quiet and sys.stderr.isatty())
    task_ids = store.meta("tasks")
    if task_ids is None:
        tasks = (listed_tasks(index, functions, config.mapping) if functions
                 else placeholder_tasks(index, config.mapping))
        if not tasks:
            raise ConfigError(f"no tasks: {target} has no placeholder body whose Java counterpart the mapping "
                              "knows; `repotrans batch --dry-run` shows what the mapping matched")
        store.set_meta("tasks", [[t.target_method_id, t.source_method_id] for t in tasks])
    else:
        tasks = [TranslationTask(target_method_id=t, source_method_id=s) for t, s in task_ids]
    store.set_meta("config", config.to_json())          # the configuration of the latest (resumed) run
    dataset = target.resolve().name
    previous = [r for r in store.records() if r.config == CONFIG_NAME]
    done = {r.task_id: r for r in previous if r.status != ERROR}
    retried = len(previous) - len(done)
    display = BatchProgress(len(tasks), list(done.values()), enabled=progress and not quiet, quiet=quiet)
    if previous:
        display.say(f"resuming: {len(done)} finished task(s) kept"
                    + (f", {retried} errored task(s) retried" if retried else ""))
    _apply(index, source, work, [r for r in done.values() if _applicable(r)])

    java = {t.target_method_id: index.method(t.source_method_id) for t in tasks}
    by_id = {t.target_method_id: t for t in tasks}
    levels = order_levels(dependency_graph({k: v for k, v in java.items() if v is not None}))
    own_executor = executor is None
    executor = executor or ThreadExecutor(jobs=jobs)
    work_load = Workload(dirs={"source": source, "target": work, "workspace": workspace}, config=config,
                         config_name=CONFIG_NAME, dataset=dataset)
    stopped, server_errors = "", 0
    with StopRequest("finishing the current task" + ("s" if jobs > 1 else "") + "; Ctrl-C again aborts") as stop:
        for level in levels:
            pending = [by_id[t] for t in level if t.split(":", 1)[1] not in done]
            finished = []
            for rec in executor.run(work_load, pending, run_dir / "tasks") if pending else ():
                store.add(rec)
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
            _apply(index, source, work, sorted((r for r in finished if _applicable(r)), key=lambda r: r.task_id))
            if stopped:
                break
        display.close()
        if own_executor:
            executor.close()
        records = [r for r in store.records() if r.config == CONFIG_NAME]
        together, written = {}, []
        if not stopped:
            together, written = _finish(index, records, config, workspace, store, display, write, work, target,
                                        java)
            records = [r for r in store.records() if r.config == CONFIG_NAME]
    summary = BatchSummary.of(len(tasks), records, seconds=round(time.time() - started, 2), together=together,
                              written=written, stopped=stopped, interrupted=stop.requested,
                              estimated_tokens=config.model.name == "builtin")
    (run_dir / "summary.json").write_text(json.dumps(asdict(summary), indent=2) + "\n")
    return summary


def _finish(index: Index, records: list[TaskRecord], config: AgentConfig, workspace: Path, store: RunStore,
            display: BatchProgress, write: bool, work: Path, target: Path,
            java: dict[str, Method | None]) -> tuple[dict, list[str]]:
    """After the last task: blocked tasks judged again, the whole suite run once, passing translations
    written back when asked. Each phase says what it does first. `java`: target method id -> its Java
    original, whose allowances every judgement keeps."""
    blocked = [r for r in records if r.status == BLOCKED]
    passing = [r for r in records if r.passed]
    together: dict = {}
    with judge_for(Runner(config.execution, workspace), 1) as runner:
        if blocked:
            display.say(f"re-judging {len(blocked)} blocked task(s) with their callees translated...")
            _rejudge(index, blocked, runner, store, java)
            now = Counter(outcome_of(r) for r in blocked)
            display.say("  " + ", ".join(f"{n} {k}" for k, n in sorted(now.items())))
            passing = [r for r in store.records() if r.config == CONFIG_NAME and r.passed]
        if passing:
            display.say(f"running the whole suite with the {len(passing)} passing translation(s)...")
            together = combined_check(index, passing, runner,
                                      untranslated=[r.task_id for r in records if not _applicable(r)], java=java)
    written = _write_back(work, target, index, passing) if write and passing else []
    return together, written


def _write_back(work: Path, target: Path, index: Index, passing: list[TaskRecord]) -> list[str]:
    """Copy the files that hold passing translations from the work copy into the user's target."""
    paths = {m.path for m in (index.method("target:" + r.task_id) for r in passing) if m is not None}
    for rel in sorted(paths):
        shutil.copyfile(work / rel, target / rel)
    return [r.task_id for r in passing]


def combined_check(index: Index, passing: list[TaskRecord], runner: Runner,
                   untranslated: list[str] | None = None, java: dict[str, Method | None] | None = None) -> dict:
    """Run the whole suite once on the target holding every passing translation; name the tasks that
    passed alone but whose covering tests fail together. Failures inside placeholders are put down to
    the `untranslated` tasks (those whose candidate is not in the target) when there are any. Each run
    is checked with the allowances of its member's Java original (`java`: target method id -> method)."""
    java = java or {}
    methods = [m for m in (index.method("target:" + r.task_id) for r in passing) if m is not None]
    root = index.root("target")

    def as_is(m):
        return (root / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")

    whole = runner.run(index, methods[0], as_is(methods[0]), scope="all",
                       allow=allowances(index, java.get(methods[0].id)))
    out = {**summarize(whole), **translated_part(whole, translated_fixtures(index)), "fail_together": []}
    if untranslated and out["in_untranslated"]:
        out["untranslated"] = sorted(untranslated)
    if whole.status != "passed":
        alone = runner.run_many(index, [(m, as_is(m), allowances(index, java.get(m.id))) for m in methods],
                                scope="covering")
        out["fail_together"] = [m.id.split(":", 1)[1] for m, result in zip(methods, alone) if result.status != "passed"]
    return out
