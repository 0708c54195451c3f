"""The untouched port's baseline, computed once per content: each test assembly's untouched run (its tests
failing before any change, with their causes, and the seconds each test took), cached per machine under
the cache root and keyed by what decides the run: the sources of the test project and of every project it
references (the bytes the assemblies are built from: mcs writes a fresh module id into every build, so the
built files' own bytes differ between two builds of the same sources), the build settings, the runner and
the environment (toolchain and its version, sandbox, image, the suite options). A port whose sources did
not change costs no test run; a changed library reruns only the test assemblies that reference it.

Doctor's, dataset build's, batch's, sync's and ablate's untouched runs are the same facts: each asks
`port_baseline` with the same cache folder (the caller's value, never read from the environment here)."""
from __future__ import annotations

import functools
import hashlib
import json
import math
import subprocess
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable

from repotrans.errors import ConfigError
from repotrans.execution.judge.untouched import _test_files, run_causes, untouched_runs
from repotrans.execution.toolchains import Limits, TargetBuildError
from repotrans.execution.toolchains.api import FLIPS, NOT_RUN, RUNNER_SOURCE, Project, plan_build, signature

CACHE_FOLDER = "baselines"          # under the cache root, beside the embeddings
UNTOUCHED_TIMEOUT = 900.0           # seconds for the untouched run of each test project (at least the run's limit)
MEMORY_MB = 2048                    # at least this for a whole test assembly in one process (doctor's, as before)
RECORD_VERSION = 3                  # 2: result states (judge.baseline_outcomes reads them); 3: reports never cut at 2 MB
PEAK_ROOM = 2.0                     # a test run's memory limit leaves this many times the measured peak


@dataclass
class AssemblyBaseline:
    """One test assembly's untouched run (a dataclass other facts about the run extend): its failures are
    judge.untouched.run_causes' (flaky tests and tests that did not run here among them)."""
    project: str
    key: str                                   # the content key it was computed for
    status: str = "not run"                    # the run's status for this project, as doctor shows it
    tests_run: int = 0
    tests_failed: int = 0
    reason: str = ""
    # tests failing before any change ("Project:Ns.Fixture.Test", or ":Ns.Fixture.Test" when the run held
    # several projects and no frame told which) -> their cause (toolchains.environment)
    failures: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)   # runner test name -> seconds it ran
    excluded: dict[str, str] = field(default_factory=dict)    # "Project:Ns.F.T" -> why the suite leaves it out
    run_seconds: float = 0.0                   # wall seconds of the untouched run it came from
    states: dict[str, str] = field(default_factory=dict)      # runner test name -> result state, tests that ran
    peak_mb: float | None = None               # the most memory its test process held (None: not measured)
    memory_mb: int = 0                         # the memory limit it ran under
    suites: dict[str, list[str]] = field(default_factory=dict)   # runner test name -> its two innermost suites
    # how the tests that flip failed when they failed: [exception type, frame it was thrown in] (a candidate's
    # failure of that kind that passes again with it is the port's, toolchains.mono_test.passed_again)
    random: list[list[str]] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: dict) -> "AssemblyBaseline":
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass
class PortBaseline:
    """Every test assembly's baseline, and what this call cost: the projects computed now (the rest came
    from the cache) and the seconds spent."""
    assemblies: dict[str, AssemblyBaseline] = field(default_factory=dict)
    computed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cache: "BaselineCache | None" = field(default=None, repr=False, compare=False)   # where it is kept

    def record_failures(self, found: dict[str, str], random: set[tuple[str, str, str]] = frozenset()) -> None:
        """Tests ("Project:Ns.F.T" -> cause) found failing or flipping on the untouched port after this
        baseline was taken (dataset validation's ground truths run again: datasets.flaky), and how untouched
        runs failed ((project, exception, frame): AssemblyBaseline.random): added to their assemblies' records
        and kept in `cache`, so later builds, batch and sync leave them out too."""
        changed = set()
        for key, why in found.items():
            record = self.assemblies.get(key.split(":", 1)[0])
            if record is not None and key not in record.failures:
                record.failures[key] = why
                changed.add(record.project)
        for project, kind, frame in sorted(random):
            record = self.assemblies.get(project)
            if record is not None and [kind, frame] not in record.random:
                record.random.append([kind, frame])
                changed.add(record.project)
        for project in sorted(changed):
            if self.cache is not None and self.assemblies[project].key:
                self.cache.put(self.assemblies[project])

    @property
    def known_failures(self) -> dict[str, str]:
        """Every test failing on the untouched port -> its cause (a dataset's fails_before_any_change)."""
        return {k: why for a in self.assemblies.values() for k, why in a.failures.items()}

    def leave_out(self, known: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        """`known` (the user's --known-failures; its reason wins) with every test this baseline counts as
        failing before any change, flipping or not running here: what a batch's or sync's verdicts leave out."""
        return tuple(sorted({**self.known_failures, **dict(known)}.items()))

    @property
    def excluded(self) -> dict[str, str]:
        """Every test the suite says not to run ("Project:Ns.F.T" -> the attribute that leaves it out)."""
        return {k: why for a in self.assemblies.values() for k, why in a.excluded.items()}

    def facts(self) -> dict:
        """What a report says of the baseline: the tests failing before any change by cause (flipping and
        not running here among them), the flipping ones and the excluded ones named, the assemblies run now."""
        failing = self.known_failures
        causes: dict[str, int] = {}
        for why in failing.values():
            kind = why.split(" (", 1)[0]
            causes[kind] = causes.get(kind, 0) + 1
        return {"assemblies": len(self.assemblies), "computed": len(self.computed), "seconds": round(self.seconds, 1),
                "tests_run": sum(a.tests_run for a in self.assemblies.values()), "failing": len(failing),
                "causes": dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
                "flipping": sorted(k.split(":", 1)[-1] for k, why in failing.items() if FLIPS in why),
                "not_run": sorted(k.split(":", 1)[-1] for k, why in failing.items() if NOT_RUN in why),
                "excluded": {k.split(":", 1)[-1]: why for k, why in sorted(self.excluded.items())}}

    @property
    def test_seconds(self) -> dict[str, dict[str, float]]:
        """Test project -> runner test name -> seconds (Limits.test_seconds); a test the suite leaves out
        ([Ignore], [Explicit], an excluded category) takes none: no run starts it."""
        return {name: {**{k.split(":", 1)[1]: 0.0 for k in a.excluded}, **a.seconds}
                for name, a in self.assemblies.items() if a.seconds}

    def limits(self, limits: Limits) -> Limits:
        """`limits` with this baseline's known failures, measured seconds and the memory its runs need."""
        return replace(limits, known_failures=self.leave_out(limits.known_failures), test_seconds=self.test_seconds,
                       memory_mb=self.memory_mb(limits.memory_mb),
                       random_failures=tuple(sorted({(name, kind, frame) for name, a in self.assemblies.items()
                                                     for kind, frame in a.random})))

    def memory_mb(self, configured: int) -> int:
        """A test run's memory limit from the measured peaks: at least `configured`, room for PEAK_ROOM
        times the largest peak of an assembly's untouched run (a run of some of its tests then fits as the
        whole run did), never above the limit that run itself had (it fitted there)."""
        wanted = [min(a.memory_mb, math.ceil(PEAK_ROOM * a.peak_mb)) for a in self.assemblies.values()
                  if a.peak_mb and a.memory_mb]
        return max([configured, *wanted])


class BaselineCache:
    """One JSON file per test assembly and content key under `folder` (None: nothing kept)."""

    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder is not None else None

    @classmethod
    def under(cls, cache_root: Path | str | None) -> "BaselineCache":
        """The cache beside the embeddings: <cache root>/baselines (None: no cache on disk)."""
        return cls(Path(cache_root) / CACHE_FOLDER if cache_root else None)

    def get(self, key: str) -> AssemblyBaseline | None:
        if self.folder is None:
            return None
        path = self.folder / f"{key}.json"
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        return AssemblyBaseline.from_json(data["record"]) if data.get("version") == RECORD_VERSION else None

    def put(self, record: AssemblyBaseline) -> None:
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{record.key}.{time.monotonic_ns()}.tmp"
        tmp.write_text(json.dumps({"version": RECORD_VERSION, "record": asdict(record)}, indent=1))
        tmp.replace(self.folder / f"{record.key}.json")


def content_keys(target: Path, runner, limits: Limits) -> dict[str, str]:
    """Test project name -> the content key of its untouched run (see the module doc); {} when nothing in
    `target` builds into a test project."""
    try:
        plan = plan_build(Path(target), runner.toolchain.name, runner.toolchain.settings)
    except ConfigError:           # nothing buildable: no key, the run decides
        return {}
    by_path = {p.path: p for p in plan.found}
    env = environment_key(runner, limits)
    root = Path(target).resolve()
    digests: dict[str, str] = {}                    # each file read once: test projects share their closures
    return {p.name: _key(p, by_path, env, root, digests) for p in plan.chosen if p.is_test}


def environment_key(runner, limits: Limits) -> str:
    """What decides a run besides the sources: toolchain, its version, sandbox, image, build settings, the
    runner's source, and the suite options (excluded categories, per-test and memory limits, the clock)."""
    return json.dumps([runner.toolchain.name, _tool_version(runner.toolchain.name), runner.config.sandbox,
                       runner.image, runner.toolchain.settings.key(), _digest(RUNNER_SOURCE.read_bytes()),
                       list(limits.exclude_categories), limits.test_timeout, limits.memory_mb, limits.clock])


def _key(project: Project, by_path: dict[Path, Project], env: str, root: Path, digests: dict[str, str]) -> str:
    """The hash of the sources (and referenced files) of `project` and every project it references (`digests`:
    the files' hashes known so far, by path)."""
    h = hashlib.sha256(env.encode())
    seen: set[Path] = set()
    todo = [project]
    while todo:
        p = todo.pop()
        if p.path in seen:
            continue
        seen.add(p.path)
        h.update(f"\0project {_rel(p.path, root)} {p.assembly_name} {p.target_framework}".encode())
        files = list(p.sources) + [f for f, _ in p.resources] + [p.path] + [f for f, _ in p.copied]
        files += [hint for _, hint in p.references if hint is not None]
        for f in sorted(set(files)):
            h.update(f"\0{_rel(f, root)}\0".encode())
            h.update(_file_digest(str(f), digests).encode())
        h.update(repr((sorted(p.package_refs), sorted(p.extra_references), sorted(p.defines))).encode())
        todo += [by_path[r] for r in p.project_refs if r in by_path]
    return h.hexdigest()[:32]


def _file_digest(path: str, digests: dict[str, str]) -> str:
    """The file's content hash ("missing" when it cannot be read), read once per `digests`."""
    found = digests.get(path)
    if found is None:
        try:
            found = _digest(Path(path).read_bytes())
        except OSError:
            found = "missing"
        digests[path] = found
    return found


def cached_baseline(runner, target: Path, cache: BaselineCache) -> PortBaseline | None:
    """The baseline of `target` as far as `cache` holds it (never a run; what is recorded into it is kept there);
    None when it holds none of it."""
    out = PortBaseline(cache=cache)
    limits = replace(runner.limits, memory_mb=max(runner.limits.memory_mb, MEMORY_MB))
    for name, key in content_keys(target, runner, limits).items():
        found = cache.get(key)
        if found is not None:
            out.assemblies[name] = found
    return out if out.assemblies else None


def port_baseline(runner, target: Path, cache: BaselineCache, timeout: float,
                  progress: Callable[[str], None] | None = None) -> PortBaseline:
    """The baseline of every test assembly of `target`: from `cache` where its content key is there, else
    from one untouched run (runner's sandbox, `timeout` seconds per test project) of only the assemblies
    missing, then cached. `progress` is told what is reused and what runs."""
    started = time.monotonic()
    limits = replace(runner.limits, timeout=timeout, per_project=True, known_failures=(), test_seconds={},
                     fail_fast=False, memory_mb=max(runner.limits.memory_mb, MEMORY_MB))
    keys = content_keys(target, runner, limits)
    out = PortBaseline(cache=cache)
    for name, key in keys.items():
        found = cache.get(key)
        if found is not None:
            out.assemblies[name] = found
    missing = {name: key for name, key in keys.items() if name not in out.assemblies}
    say = progress or (lambda _: None)
    say(f"baseline: {len(out.assemblies)} of {len(keys)} test assemblies unchanged (cached)"
        + (f"; running {len(missing)}: {', '.join(sorted(missing))}" if missing else ""))
    if missing or not keys:
        for record in _run_missing(runner, target, limits, missing, say):
            out.assemblies[record.project] = record
            out.computed.append(record.project)
            if record.key:
                cache.put(record)
    out.seconds = time.monotonic() - started
    return out


def leave_out_baseline(runner, target: Path, cache_root: Path | str | None,
                       progress: Callable[[str], None] | None = None) -> PortBaseline:
    """The baseline of the untouched port at `target` (port_baseline under `cache_root`, each test project
    given UNTOUCHED_TIMEOUT seconds at least), with `runner`'s limits taken from it (PortBaseline.limits): its
    known failures extended by every test the baseline counts as failing before any change, flipping or not
    running here, so that no verdict of the runner rests on one from then on, and its runs planned from the
    measured seconds and memory; the runner records there what its judgements see fail on the untouched build
    (Runner.learn_untouched). Batch's and sync's judges take it before their first judgement."""
    base = port_baseline(runner, target, BaselineCache.under(cache_root),
                         timeout=max(runner.limits.timeout, UNTOUCHED_TIMEOUT), progress=progress)
    runner.limits = base.limits(runner.limits)
    runner.untouched = base
    return base


def _run_missing(runner, target: Path, limits: Limits, missing: dict[str, str],
                 say: Callable[[str], None]) -> list[AssemblyBaseline]:
    """One untouched run of the test projects in `missing` (name -> content key; all when empty)."""
    try:
        ws = runner.baseline(target, limits)
    except TargetBuildError:
        return []
    plan = runner.toolchain.plan(ws)
    tests = [p for p in plan.chosen if p.is_test and (not missing or p.name in missing)]
    # only some assemblies changed: each rebuilt alone runs only its own tests (a library rebuilt would
    # run every test assembly referencing it, the unchanged ones too)
    chosen = plan.chosen if len(tests) == sum(p.is_test for p in plan.chosen) else tests
    records = {p.name: AssemblyBaseline(p.name, missing.get(p.name, "")) for p in tests}
    for name in set(missing) - set(records):        # not built here (quarantined): nothing to run, cached too
        records[name] = AssemblyBaseline(name, missing[name], status="not built", reason="not built here")
    files = {p.name: _test_files(ws, p) for p in tests}
    done = 0
    box = runner.sandbox(ws)
    for lib, meant, verdict in untouched_runs(runner.toolchain, ws, chosen, tests, box, limits):
        if verdict is None:
            for name in meant:
                records[name].reason = "no source file of it or of a library it references to rebuild"
            break
        ran = [name for name in verdict.by_project if name in records]
        for name in ran:
            status, run, failed, reason = verdict.by_project[name]
            rec = records[name]
            rec.status, rec.tests_run, rec.tests_failed, rec.reason = status, run, failed, reason
            rec.run_seconds = round(verdict.timings.get("test", 0.0), 3)
            rec.seconds = {k.split(":", 1)[1]: s for k, s in verdict.seconds.items() if k.split(":", 1)[0] == name}
            rec.states = {test: state for test, state in verdict.ran.items() if test in rec.seconds}
            rec.peak_mb, rec.memory_mb = verdict.peak_mb, limits.memory_mb
            rec.suites = {k.split(":", 1)[1]: s for k, s in verdict.suites.items() if k.split(":", 1)[0] == name}
            rec.excluded = {k: why for k, why in verdict.excluded.items() if k.split(":", 1)[0] == name}
        for key, why in run_causes(runner.toolchain, ws, lib, verdict, ran, files, box, limits).items():
            owner = key.split(":", 1)[0]
            for name in [owner] if owner in records else ran:
                records[name].failures.setdefault(key, why)
                sig = next((signature(f) for f in verdict.failures if key.endswith(":" + f.name)), None)
                if FLIPS in why and sig is not None and list(sig) not in records[name].random:
                    records[name].random.append(list(sig))
        done += len(ran)
        say(f"baseline: {done} of {len(tests)} test assemblies run ({lib.name if lib else '?'} rebuilt; "
            f"{verdict.tests_run} tests, {verdict.timings.get('test', 0.0):.0f} s)")
    return list(records.values())


@functools.lru_cache(maxsize=None)
def _tool_version(toolchain: str) -> str:
    """The first line of `mono --version` (the toolchain's runtime), "" where it does not answer."""
    exe = {"mono": "mono", "dotnet": "dotnet", "msbuild": "mono"}.get(toolchain, toolchain)
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return (out.stdout.strip().splitlines() or [""])[0]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _rel(path: Path, root: Path) -> str:
    path = Path(path).resolve()
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
