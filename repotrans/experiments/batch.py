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
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tqdm import tqdm

from repotrans.agents.config import AgentConfig
from repotrans.errors import ConfigError, InputError
from repotrans.execution.apply import apply_candidate
from repotrans.execution.blocked import blocked_reason, is_blocked, judging_blocked
from repotrans.execution.status import BLOCKED
from repotrans.execution.runner import Runner
from repotrans.experiments.executors import ThreadExecutor
from repotrans.experiments.workload import Executor, Workload
from repotrans.experiments.ordering import dependency_graph, order_levels
from repotrans.experiments.run_store import RunStore, TaskRecord
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.index.model import Method
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask, resolve_task

CONFIG_NAME = "batch"


@dataclass
class BatchSummary:
    tasks: int
    passed: int
    compiled: int
    failed: int
    errors: int
    blocked: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    together: dict = field(default_factory=dict)   # combined check: status, tasks failing together
    written: list[str] = field(default_factory=list)

    def render(self) -> str:
        lines = [f"{self.tasks} tasks: {self.passed} passed, {self.failed} failed ({self.compiled - self.passed} "
                 f"of them compiled, {self.blocked} blocked by untranslated methods, {self.errors} task errors); "
                 f"tokens {self.prompt_tokens} prompt + {self.completion_tokens} completion; {self.seconds:.1f} s"]
        if self.together:
            lines.append(f"all passing translations together: {self.together['status']}")
            for t in self.together.get("fail_together", []):
                lines.append(f"  passed alone, fails together: {t}")
        if self.written:
            lines.append(f"written into the target: {len(self.written)} methods")
        return "\n".join(lines)


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


def judge_blocked(brief, dirs=None) -> None:
    """Let the agents stop repairing a candidate whose only failures are other methods' placeholders."""
    brief.services.run_test = judging_blocked(brief.services.run_test)


def _as_blocked(rec: TaskRecord) -> TaskRecord:
    if rec.passed and blocked_reason(rec.result):
        rec.status = BLOCKED
    return rec


def _applicable(rec: TaskRecord) -> bool:
    """Passing and blocked candidates go into the work target, so that later levels build on them."""
    return rec.passed or rec.status == BLOCKED


def _rejudge(index: Index, blocked: list[TaskRecord], runner: Runner, store: RunStore) -> None:
    """Run each blocked candidate's covering tests again on the target that now holds every translation."""
    root = index.root("target")
    for rec in blocked:
        m = index.method("target:" + rec.task_id)
        if m is None:
            continue
        code = (root / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")
        result = runner.run(index, m, code, scope="covering")
        rec.status = BLOCKED if is_blocked(result, code) else result.status
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
        text, _ = apply_candidate(path.read_text(encoding="utf-8"), m, rec.code)
        path.write_text(text, encoding="utf-8")
        index.build(source, work, progress=False)


def run_batch(source: Path, target: Path, run_dir: Path, config: AgentConfig, *, functions: Path | None = None,
              jobs: int = 1, resume: bool = False, write: bool = False, progress: bool = True,
              executor: Executor | None = None) -> BatchSummary:
    """Translate the selected tasks level by level; results land in the run store as they finish.
    `executor` runs each level's tasks (default: `jobs` threads of this process)."""
    started = time.time()
    for name, path in (("source", source), ("target", target)):
        if not path.is_dir():
            raise ConfigError(f"{name} repository not found: {path}")
    if run_dir.exists() and (run_dir / "results.sqlite").exists() and not resume:
        raise ConfigError(f"{run_dir} already holds a run; pass --resume to continue it or choose another --run-dir")
    store = RunStore(run_dir)
    workspace = run_dir / "workspace"
    work = _work_target(target, run_dir)
    index = Index.open(workspace)
    index.build(source, work, progress=progress)

    task_ids = store.meta("tasks")
    if task_ids is None:
        tasks = (listed_tasks(index, functions, config.mapping) if functions
                 else placeholder_tasks(index, config.mapping))
        store.set_meta("tasks", [[t.target_method_id, t.source_method_id] for t in tasks])
        store.set_meta("config", config.to_json())
    else:
        tasks = [TranslationTask(target_method_id=t, source_method_id=s) for t, s in task_ids]
    dataset = target.resolve().name
    done = {r.task_id: r for r in store.records() if r.config == CONFIG_NAME}
    _apply(index, source, work, [r for r in done.values() if _applicable(r)])

    java = {t.target_method_id: index.method(t.source_method_id) for t in tasks}
    by_id = {t.target_method_id: t for t in tasks}
    levels = order_levels(dependency_graph({k: v for k, v in java.items() if v is not None}))
    bar = tqdm(total=len(tasks), initial=len(done), desc="translating", unit="fn", disable=not progress)
    counts = {"passed": 0, "compiled": 0, "failed": 0, "tokens": 0}
    for r in done.values():
        _count(counts, r)
    own_executor = executor is None
    executor = executor or ThreadExecutor(jobs=jobs)
    work_load = Workload(dirs={"source": source, "target": work, "workspace": workspace}, config=config,
                         config_name=CONFIG_NAME, dataset=dataset, adjust=judge_blocked)
    for level in levels:
        pending = [by_id[t] for t in level if t.split(":", 1)[1] not in done]
        if not pending:
            continue
        finished = []
        for rec in executor.run(work_load, pending, run_dir / "tasks"):
            rec = _as_blocked(rec)
            store.add(rec)
            finished.append(rec)
            _count(counts, rec)
            bar.update()
            bar.set_postfix(passed=counts["passed"], compiled=counts["compiled"], failed=counts["failed"],
                            tokens=counts["tokens"])
        _apply(index, source, work, sorted((r for r in finished if _applicable(r)), key=lambda r: r.task_id))
    bar.close()
    if own_executor:
        executor.close()

    records = [r for r in store.records() if r.config == CONFIG_NAME]
    with Runner(config.execution, workspace) as runner:
        _rejudge(index, [r for r in records if r.status == BLOCKED], runner, store)
        passing = [r for r in records if r.passed]
        together = combined_check(index, passing, runner) if passing else {}
    written = []
    if write and passing:
        written = _write_back(work, target, index, passing)
    summary = BatchSummary(
        tasks=len(tasks), passed=len(passing), compiled=sum(r.compiled for r in records),
        failed=sum(not r.passed for r in records), errors=sum(r.status == "error" for r in records),
        blocked=sum(r.status == BLOCKED for r in records),
        prompt_tokens=sum(r.prompt_tokens for r in records),
        completion_tokens=sum(r.completion_tokens for r in records),
        seconds=round(time.time() - started, 2), together=together, written=written)
    (run_dir / "summary.json").write_text(json.dumps(asdict(summary), indent=2) + "\n")
    store.close()
    return summary


def _write_back(work: Path, target: Path, index: Index, passing: list[TaskRecord]) -> list[str]:
    """Copy the files that hold passing translations from the work copy into the user's target."""
    paths = {m.path for m in (index.method("target:" + r.task_id) for r in passing) if m is not None}
    for rel in sorted(paths):
        shutil.copyfile(work / rel, target / rel)
    return [r.task_id for r in passing]


def _count(counts: dict, rec: TaskRecord) -> None:
    counts["passed"] += rec.passed
    counts["compiled"] += rec.compiled
    counts["failed"] += not rec.passed
    counts["tokens"] += rec.prompt_tokens + rec.completion_tokens


def combined_check(index: Index, passing: list[TaskRecord], runner: Runner) -> dict:
    """Run the whole suite once on the target holding every passing translation; name the tasks that
    passed alone but whose covering tests fail together."""
    methods = [m for m in (index.method("target:" + r.task_id) for r in passing) if m is not None]
    root = index.root("target")

    def as_is(m):
        return (root / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")

    whole = runner.run(index, methods[0], as_is(methods[0]), scope="all")
    out = {"status": whole.status, "tests_run": whole.tests_run, "tests_failed": whole.tests_failed,
           "fail_together": []}
    if whole.status != "passed":
        for m in methods:
            if runner.run(index, m, as_is(m), scope="covering").status != "passed":
                out["fail_together"].append(m.id.split(":", 1)[1])
    return out
