"""Evaluation datasets: a Java repository, its complete C# port, and a validated task list.

`build_dataset` selects the C# methods that have a Java counterpart, checks each one (its ground
truth passes the covering tests, a placeholder fails them) and writes `dataset.json` beside a report.
`materialize` then lays out what an agent may see: the Java source and a copy of the port in which
every task is masked with a placeholder. The ground truth stays in the complete port, which only
the evaluation oracle (the runner) reads.
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from tqdm import tqdm

from repotrans.errors import ConfigError
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.baseline import BaselineCache, PortBaseline, port_baseline
from repotrans.execution.judge.baseline_outcomes import untouched_outcome
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import left_out_note, nothing_left
from repotrans.index.model import Method
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import MappingOverrides
from repotrans.mapping.test_code import test_files

MANIFEST = "dataset.json"
VERDICTS = "verdicts.jsonl"
UNTOUCHED_TIMEOUT = 900.0        # seconds for the untouched port's whole suite (each test project)
THROW = "throw new System.NotImplementedException();"
# an accessor where the accessor list (or the previous accessor) ends: `get {`, `private set;`, `set =>`
_ACCESSOR = re.compile(r"(?:^|[};])\s*((?:(?:private|protected|internal)\s+)*(?:get|set))\s*(?:\{|;|=>)")


@dataclass
class DatasetTask:
    id: str                      # the target method id without its side prefix
    target_method_id: str
    source_method_id: str
    path: str                    # C# file, relative to the port's root
    confidence: float


@dataclass
class Dataset:
    name: str
    root: Path                   # folder holding dataset.json
    source: str                  # Java repo, relative to root
    target: str                  # complete C# port, relative to root
    tasks: list[DatasetTask]
    dropped: list[dict] = field(default_factory=list)
    toolchain: str = "mono"
    validated: bool = True       # False: built with --no-validate (every report says so)
    # tests failing on the untouched port ("Project:Ns.Fixture.Test" -> cause): left out of every verdict on it
    fails_before_any_change: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The name as reports show it: unvalidated datasets say so."""
        return self.name if self.validated else f"{self.name} (unvalidated)"

    @property
    def source_dir(self) -> Path:
        return (self.root / self.source).resolve()

    @property
    def target_dir(self) -> Path:
        return (self.root / self.target).resolve()

    def save(self) -> Path:
        data = {"name": self.name, "source": self.source, "target": self.target,
                "toolchain": self.toolchain, "validated": self.validated, "tasks": [asdict(t) for t in self.tasks],
                "dropped": self.dropped, "fails_before_any_change": self.fails_before_any_change}
        path = self.root / MANIFEST
        path.write_text(json.dumps(data, indent=1) + "\n")
        return path


def load_dataset(root: Path) -> Dataset:
    """Read `root/dataset.json`; a missing or malformed manifest is a ConfigError."""
    path = root / MANIFEST
    if not path.is_file():
        raise ConfigError(f"{root} is not a dataset: no {MANIFEST} (build one with `repotrans dataset build`)")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is malformed: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} is malformed: expected a JSON object, found {type(data).__name__}")
    missing = [k for k in ("name", "source", "target", "tasks") if k not in data]
    if missing:
        raise ConfigError(f"{path} is malformed: missing field {', '.join(map(repr, missing))}")
    tasks = []
    for n, t in enumerate(data["tasks"], 1):
        try:
            tasks.append(DatasetTask(**t))
        except TypeError as exc:
            raise ConfigError(f"{path} is malformed: task {n}: {exc}") from None
    return Dataset(name=data["name"], root=root, source=data["source"], target=data["target"],
                   toolchain=data.get("toolchain", "mono"), tasks=tasks, dropped=data.get("dropped", []),
                   validated=bool(data.get("validated", True)),
                   fails_before_any_change=dict(data.get("fails_before_any_change", {})))


def candidate_tasks(index: Index, select: list[str] | None = None,
                    overrides: MappingOverrides | None = None) -> list[DatasetTask]:
    """Target methods with a body, a Java counterpart in the mapping (with the user's `overrides`), and
    an id matching `select`; never a member of test code (a test method has no test judging it)."""
    mapping = load_mapping(index, overrides)
    tests = test_files("target", index.files("target"), index.root("target"))
    tasks: dict[str, DatasetTask] = {}
    for m in index.all_methods("target"):
        match = mapping.source_method(m.id)
        if match is None or m.body is None or is_placeholder(m.body) or _is_auto_property(m) or m.path in tests:
            continue
        tid = m.id.split(":", 1)[1]
        if select and not any(fnmatch.fnmatchcase(tid, pat) for pat in select):
            continue
        tasks[tid] = DatasetTask(id=tid, target_method_id=m.id, source_method_id=match.source_id,
                                 path=m.path, confidence=match.confidence)
    return list(tasks.values())


def _is_auto_property(m: Method) -> bool:
    return m.kind == "property" and re.fullmatch(r"\{\s*(\w+\s*)?get;\s*((private|protected|internal)?\s*set;)?\s*\}",
                                                 (m.body or "").strip()) is not None


def placeholder_body(m: Method) -> str:
    """A body that compiles wherever the original did and fails any test that needs the method."""
    if m.kind in ("property", "indexer"):
        body = (m.body or "").strip()
        accessors = [] if body.startswith("=>") else [a.group(1) for a in _ACCESSOR.finditer(body[1:])]
        return "{ " + " ".join(f"{a} {{ {THROW} }}" for a in accessors or ["get"]) + " }"
    return "{ " + THROW + " }"


def mask_file(text: bytes, methods: list[Method]) -> bytes:
    """Replace the body of each method (byte ranges from the index) by its placeholder."""
    for m in sorted(methods, key=lambda m: m.body_start_byte or 0, reverse=True):
        start, end = m.body_start_byte, m.body_end_byte
        if start is None or end is None:
            continue
        if text[start:end].lstrip().startswith(b"=>") and not text[start:end].rstrip().endswith(b";"):
            end = text.index(b";", end) + 1
        text = text[:start] + placeholder_body(m).encode() + text[end:]
    return text


def mask_repo(index: Index, tasks: list[DatasetTask], dest: Path) -> None:
    """Copy the indexed target into `dest` and mask every task there."""
    root = index.root("target")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans"))
    by_path: dict[str, list[Method]] = {}
    for t in tasks:
        m = index.method(t.target_method_id)
        if m is None:
            raise ConfigError(f"task {t.id} is not in the index of {root}; rebuild the dataset")
        by_path.setdefault(m.path, []).append(m)
    for path, methods in by_path.items():
        file = dest / path
        file.write_bytes(mask_file(file.read_bytes(), methods))


@dataclass
class Materialized:
    source: Path                 # Java repository (as shipped)
    target: Path                 # C# port with every task masked: all an agent sees
    oracle_index: Index          # index of the complete port: only the runner reads it


def materialize(ds: Dataset, dest: Path) -> Materialized:
    """Lay out the masked view of a dataset under `dest` (rebuilt when the manifest changed)."""
    oracle = Index.open(dest / "oracle-index")
    oracle.build(ds.source_dir, ds.target_dir, progress=False)
    stamp = dest / "masked.stamp"
    manifest = (ds.root / MANIFEST).read_text()
    target = dest / "target"
    if not (stamp.is_file() and stamp.read_text() == manifest and target.is_dir()):
        mask_repo(oracle, ds.tasks, target)
        stamp.write_text(manifest)
    return Materialized(source=ds.source_dir, target=target, oracle_index=oracle)


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
    if ok is None:
        ok = runner.run(oracle, m, truth, scope="covering", allow=allow, scaled=True, java=java)
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
    The untouched port's baseline comes from the per-machine cache under `cache_root` where its content is
    there (judge.baseline; None: computed in this build only). `validator`: where the baseline and the
    validation run instead of this process's threads (runs.ray_validation.RayValidator: `--executor ray`)."""
    out.mkdir(parents=True, exist_ok=True)
    work = build_folder(out)
    index = Index.open(work / "index")
    index.build(source, target, progress=progress)
    tasks, dropped, stats, known = candidate_tasks(index, select, overrides), [], {}, {}
    if validate:
        started = time.monotonic()
        found: dict = {}
        say = (lambda line: tqdm.write(line)) if progress else None
        timeout = max(execution.timeout, UNTOUCHED_TIMEOUT)
        if validator is not None:
            base = validator.baseline(target, execution, BaselineCache.under(cache_root), timeout, say)
        else:   # the port's own bodies are judged (no model's code): `auto` may fall back to the local sandbox
            with Runner(execution, work / "runs", trusted=True) as runner:    # the untouched port's own failures, first
                base = port_baseline(runner, target, BaselineCache.under(cache_root), timeout=timeout, progress=say)
        known = base.known_failures
        execution = replace(execution, known_failures=tuple(sorted(known.items())))
        if validator is not None:
            verdicts = validate_elsewhere(index, tasks, work, execution, base, validator, schemata=schemata)
        else:
            with Runner(execution, work / "runs", trusted=True) as runner:
                runner.limits = base.limits(runner.limits)          # measured seconds: runs planned and limited
                verdicts = validate_tasks(index, tasks, work, runner, jobs=jobs, progress=progress,
                                          schemata=schemata, stats=found, baseline=base)
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


def render_report(ds: Dataset, stats: dict | None = None) -> str:
    """report.md: what was kept, what was dropped and why, and how long validation took."""
    lines = [f"# Dataset {ds.name}", "", f"- source: `{ds.source}`", f"- target: `{ds.target}`"]
    if ds.validated:
        lines += [f"- validated tasks: {len(ds.tasks)}", f"- dropped: {len(ds.dropped)}"]
    else:
        lines += [f"- tasks: {len(ds.tasks)}, **unvalidated** (built with --no-validate: a task's ground truth "
                  "may fail its tests and a placeholder may pass them)"]
    if stats:
        per = stats["task_seconds"] / stats["checked"] if stats["checked"] else 0.0
        lines += [f"- validation: {stats['checked']} tasks in {stats['wall_seconds']} s with --jobs {stats['jobs']} "
                  f"({per:.1f} s per task); {stats['no_covering_test']} without a covering test"]
        if "baseline_seconds" in stats:
            lines += [f"- untouched baseline: {stats['baseline_seconds']} s ({stats['baseline_computed']} of "
                      f"{stats['baseline_assemblies']} test assemblies run, the rest unchanged and cached)"]
        if "schemata" in stats:
            sch = stats["schemata"]
            lines += [f"- one schemata build ({sch['build_seconds']} s) served {sch['guarded']} tasks; "
                      f"{sch['per_task']} were built per task"]
            if sch.get("routes"):
                lines += ["- schemata test runs: " + ", ".join(f"{n} {route}" for route, n in sorted(sch["routes"].items()))
                          + " (the rest: ground truth and placeholder decided in shared batches)"]
            if sch.get("phases"):
                lines += ["- after the build, wall seconds: " + ", ".join(f"{name} {s}" for name, s in sch["phases"].items())]
    lines.append("")
    if ds.fails_before_any_change:
        lines += [f"{len(ds.fails_before_any_change)} tests fail on the untouched port and are left out of every "
                  "verdict:", "", "| test | fails before any change: |", "|---|---|"]
        lines += [f"| `{k}` | {why} |" for k, why in sorted(ds.fails_before_any_change.items())]
        lines.append("")
    if stats and stats.get("excluded"):
        lines += [f"{len(stats['excluded'])} tests the suite says not to run are never run, named or not (no verdict "
                  "rests on them):", "", "| test | left out by |", "|---|---|"]
        lines += [f"| `{k}` | {why} |" for k, why in sorted(stats["excluded"].items())]
        lines.append("")
    if ds.dropped:
        lines += ["| dropped task | reason |", "|---|---|"]
        lines += [f"| `{d['id']}` | {d['reason']} |" for d in ds.dropped]
        lines.append("")
    per_type: dict[str, int] = {}
    for t in ds.tasks:
        owner = _owner(t.id)
        per_type[owner] = per_type.get(owner, 0) + 1
    lines += ["| C# type | tasks |", "|---|---:|"] + [f"| `{k}` | {n} |" for k, n in sorted(per_type.items())]
    return "\n".join(lines) + "\n"


def _owner(task_id: str) -> str:
    """The declaring type of a task id: `Ns.Type.Name(int)` -> `Ns.Type`, `Ns.Type.this[int]` -> `Ns.Type`."""
    head = re.split(r"[(\[]", task_id, maxsplit=1)[0]
    return head.rsplit(".", 1)[0]


def _relative(path: Path, base: Path) -> str:
    """`path` relative to `base` (with `..` where needed): a manifest holds no machine paths, so a
    dataset works wherever its folder and its repositories move together."""
    return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()
