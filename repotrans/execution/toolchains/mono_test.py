"""Mono test step: the test area of one candidate (baseline outputs with its rebuilt assemblies laid
over them, a private writable copy: test_area), repotrans's runner on each affected test project, one
verdict for them all."""
from __future__ import annotations

import os
import secrets
import shutil
import time
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from repotrans.execution.sandboxes import RunOutcome, Sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, Verdict, environment
from repotrans.execution.toolchains.mono_build import RUNNER_EXE, closure, dependents, rel
from repotrans.execution.toolchains.mono_judge import judge
from repotrans.execution.toolchains.msbuild import Project
from repotrans.execution.toolchains.nunit import RunnerReport, covers, end_marker, parse_runner
from repotrans.execution.toolchains.test_area import area_root, test_area
from repotrans.execution.toolchains.test_runs import (Measured, RunGate, Slots, TestRun, halves, out_of_memory,
                                                      plan_runs, run_all)
from repotrans.execution.workspace.scratch import Workspace
from repotrans.verdicts.results import TestFailure

HEAP_SHARE = 0.6
MALLOC_ARENAS = 2


@dataclass(frozen=True)
class Area:
    """Where one run of a candidate's tests lays them out (its slot's test area, test_area) and the gate its
    processes go through: the candidate's beside its other runs, the untouched build's alone."""
    slot: int = 0
    gate: RunGate = field(default_factory=RunGate)


def run_tests(ws: Workspace, cand: PatchedFile, projects: list[Project], changed: list[Project],
          built: dict[str, Path], fixtures: list[str] | None, sandbox: Sandbox, limits: Limits,
          env: dict[str, str] | None = None) -> Verdict:
    """The selected tests of every test project depending on the changed ones, each project's runs
    `limits.test_processes` at a time (test_runs.run_all); `env` adds to the test processes' environment
    (execution.schemata's switch)."""
    affected = dependents(projects, {p.path for p in changed}, all_of_them=True)
    tests = [p for p in projects if p.is_test and p.path in affected]
    total = Verdict("passed", left_out=dict(limits.left_out_before))
    started = first = time.monotonic()
    spent = 0.0                             # CPU seconds of the earlier projects' runs (a CPU limit)
    logs: list[str] = []
    gate, slots, lock = RunGate(), Slots(limits.test_processes), threading.Lock()
    for project in tests:
        selected = None if fixtures is None else [f for f in fixtures if f.startswith(project.name + ":")]
        if selected == []:
            continue
        names = None if selected is None else [f.split(":", 1)[1] for f in selected]
        if limits.per_project:             # each test project its own limit (doctor's whole-suite run)
            started, spent = time.monotonic(), 0.0
        measured = Measured.of(limits.test_seconds.get(project.name, {}))
        runs = [TestRun(())] if names is None else plan_runs(names, measured, limits.timeout, limits.kill_cap,
                                                                    limits.test_processes)

        def one(run: TestRun) -> tuple[Verdict, bool]:
            nonlocal spent
            left = limits.timeout - (spent if cpu else time.monotonic() - started)
            outputs: list[str] = []
            with slots.taken() as slot:
                verdict, cpu_used = run_project(ws, cand, projects, project, list(run.names) or None, built,
                                                sandbox, limits, run.timeout or left, env, outputs,
                                                Area(slot, gate))
            verdict.log = "\n".join(outputs)
            with lock:
                spent += cpu_used
            return verdict, out_of_memory(verdict.status, verdict.reason)

        cpu = limits.clock == "cpu" and sandbox.counts_cpu()
        done, cut = run_all(runs, one, lambda v: not limits.fail_fast or v.status in ("passed", "no_tests"),
                            lambda run: halves(run, limits.timeout, measured, limits.kill_cap),
                            limits.test_processes)
        logs += [v.log for v in done]
        verdict = done[0]
        for later in done[1:]:
            verdict.absorb(later)
        total.by_project[project.name] = (verdict.status, verdict.tests_run, verdict.tests_failed, verdict.reason)
        total.absorb(verdict)
        total.cut_short |= cut
        if verdict.status in ("timeout", "runtime_error") and not verdict.tests_run and not limits.per_project:
            break
        if limits.fail_fast and verdict.status not in ("passed", "no_tests"):
            total.cut_short |= project is not tests[-1]
            break                          # fail fast: the verdict is a failure already
    total.log = "\n".join(logs)
    total.timings = {"test": time.monotonic() - first}
    if total.status == "passed" and total.tests_run == 0:
        total.status = "no_tests"
        total.reason = ("no test project depends on the changed project" if not tests
                        else "no selected test ran")
    if total.left_out and total.status == "no_tests" and not total.tests_run:
        total.reason = ("every selected test fails in this environment before any change: "
                        + environment.describe(total.left_out))
    elif total.left_out:
        note = environment.summary(total.left_out, total.tests_run)
        total.reason = f"{total.reason}; {note}" if total.reason else note
    return total



def run_project(ws: Workspace, cand: PatchedFile, projects: list[Project], project: Project, names: list[str] | None,
                built: dict[str, Path], sandbox: Sandbox, limits: Limits, timeout: float, env: dict[str, str] | None,
                logs: list[str], area: Area | None = None) -> tuple[Verdict, float]:
    """One process of repotrans's runner on one test project's `names` (None: all), killed after `timeout`
    seconds, in `area` (None: slot 0, a gate of its own); its verdict (known and environmental failures left
    out) and the CPU seconds it used."""
    area = area or Area()
    nonce = secrets.token_hex(16)
    outcome = candidate_process(ws, cand, projects, project, names, built, sandbox, limits, timeout, env, area, nonce)
    logs.append(outcome.output)
    verdict = judge(outcome, nonce, names, limits, locator(ws, cand))
    left_out = {**known_to_fail(project, verdict, limits),
                **cannot_pass_here(ws, cand, projects, project, verdict, sandbox, limits, area)}
    beside, seen = fail_without_it(ws, cand, projects, project, names, verdict, left_out, sandbox, limits, area)
    left_out.update(beside)
    left_out.update(passed_again(ws, cand, projects, project, names, built, verdict, left_out, seen, sandbox, limits,
                                 timeout, env, area))
    if left_out:
        verdict = judge(outcome, nonce, names, limits, locator(ws, cand), frozenset(left_out))
        verdict.left_out = {f"{project.name}:{name}": why for name, why in left_out.items()}
    verdict.untouched_failed = {(project.name, kind, frame) for kind, frame in seen}
    report = parse_runner(outcome.stdout, nonce)
    verdict.excluded = {f"{project.name}:{name}": categories for name, categories in report.excluded}
    verdict.seconds = {f"{project.name}:{name}": secs for name, secs in report.seconds.items()}
    verdict.peak_mb = outcome.peak_mb
    verdict.suites = {f"{project.name}:{name}": suites[-2:] for name, suites in report.suites.items() if suites}
    rest = unreported(report)
    if report.stopped and rest and verdict.status in ("passed", "no_tests"):    # stopped in a failure left out
        later, more = run_project(ws, cand, projects, project, rest, built, sandbox, limits,
                                  max(1.0, timeout - outcome.seconds), env, logs, area)
        verdict.absorb(later)
        return verdict, (outcome.cpu_seconds or 0.0) + more
    return verdict, outcome.cpu_seconds or 0.0


def unreported(report: RunnerReport) -> list[str]:
    """The tests a run planned and did not report (a fail-fast run stopped before them), by their full names:
    what continues it in a fresh process when the failure it stopped at was left out (one fixture's set-up runs
    again; the tests that passed do not)."""
    reported = {name for _, name, _, _ in report.tests}
    return [name for _, name in report.planned if name not in reported]


def candidate_process(ws: Workspace, cand: PatchedFile, projects: list[Project], project: Project,
                      names: list[str] | None, built: dict[str, Path], sandbox: Sandbox, limits: Limits, timeout: float,
                      env: dict[str, str] | None, area: Area, nonce: str) -> RunOutcome:
    """One sandboxed process of the runner on `names` with the candidate's build, beside the candidate's other
    runs (area.gate), in its slot's test area; its outcome."""
    cpu = limits.clock == "cpu" and sandbox.counts_cpu()
    with area.gate.beside(), test_area(ws.src, cand.run_dir, project,
                                       overlay(ws.base / project.name, built, projects, project), area.slot) as bin_dir:
        return sandbox.run(runner_argv(ws, bin_dir / project.dll_name, names), cwd=ws.root,
                           timeout=max(1.0, timeout), memory_mb=limits.memory_mb,
                           env={**mono_env(limits.memory_mb), **runner_env(limits), **go_past(project, limits),
                                **(env or {})},
                           stdin=f"{nonce}\n".encode(), until=end_marker(nonce), cpu=cpu,
                           scratch=[area_root(cand.run_dir, project, area.slot)],
                           **({} if "process" in cand.allowed else {"processes": False}))


def known_to_fail(project: Project, verdict: Verdict, limits: Limits) -> dict[str, str]:
    """The candidate's failing tests the limits name as failing on the untouched port, and the tests they name
    as flipping there, passing or failing: name -> cause (a key ":Ns.Fixture.Test" names the test in any
    project)."""
    known = dict(limits.known_failures)
    flaky = [name for name in verdict.ran if environment.FLIPS in known.get(f"{project.name}:{name}",
                                                                           known.get(f":{name}", ""))]
    names = [f.name for f in verdict.failures] + list(verdict.not_run) + flaky     # a flaky pass decides nothing
    found = {name: environment.known_cause(known, project.name, name) for name in names}
    return {name: why for name, why in found.items() if why is not None}


def cannot_pass_here(ws: Workspace, cand: PatchedFile, projects: list[Project], project: Project,
                     verdict: Verdict, sandbox: Sandbox, limits: Limits, area: Area) -> dict[str, str]:
    """The candidate's failing tests that fail for an environmental cause with it and on the untouched
    baseline, or in the test's own code at the same place in both (run again on the baseline once per
    workspace state, toolchains.environment, in `area`): name -> cause."""
    files = test_files(ws, project)
    suspected = environment.suspects(project.name, verdict.failures, files, verdict.not_run)
    if not suspected:
        return {}
    keys = list(suspected)
    known = environment.load(ws)
    todo = known.unknown(keys)
    if todo:
        names = [k.split(":", 1)[1] for k in todo]
        before = untouched_run(ws, cand, projects, project, names, sandbox, limits, area)
        causes = {f.name: environment.failure_cause(f, files) for f in before.failures}
        causes.update({name: environment.did_not_run(why) for name, why in before.not_run.items()})
        known = environment.save(ws, {k: causes.get(k.split(":", 1)[1], "") for k in todo})
    return {k.split(":", 1)[1]: known.tests[k] for k in keys
            if environment.still_failing(suspected[k], known.tests.get(k, ""))}


def untouched_run(ws: Workspace, cand: PatchedFile, projects: list[Project], project: Project, names: list[str],
                  sandbox: Sandbox, limits: Limits, area: Area) -> Verdict:
    """`names` of one test project run on the untouched build (the workspace's, no candidate in it), whole
    (never stopped at a failure), in the candidate's test area, alone (no run of the candidate under way
    beside it): what the port without the candidate does."""
    nonce = secrets.token_hex(16)
    with area.gate.alone(), test_area(ws.src, cand.run_dir, project,
                                      overlay(ws.base / project.name, {}, projects, project), area.slot) as bin_dir:
        outcome = sandbox.run(runner_argv(ws, bin_dir / project.dll_name, names), cwd=ws.root,
                              timeout=limits.timeout, memory_mb=limits.memory_mb,
                              env={**mono_env(limits.memory_mb), **runner_env(replace(limits, verdict_only=False))},
                              stdin=f"{nonce}\n".encode(), until=end_marker(nonce),
                              cpu=limits.clock == "cpu" and sandbox.counts_cpu(),
                              scratch=[area_root(cand.run_dir, project, area.slot)])
    return judge(outcome, nonce, names, limits, locator(ws, cand))


FLAKY_RERUNS = 2            # untouched runs of a failing run's tests, on a port whose baseline saw tests flip


def fail_without_it(ws: Workspace, cand: PatchedFile, projects: list[Project], project: Project,
                    names: list[str] | None, verdict: Verdict, left_out: dict[str, str], sandbox: Sandbox,
                    limits: Limits, area: Area) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """The candidate's failing tests (not already `left_out`) that fail on the untouched port too when it runs
    the same tests in the same process, at most FLAKY_RERUNS times: name -> cause; and how the untouched port
    failed in those runs, any test (signature()). A failure the untouched port is already known to throw at
    random there (known_random) is not run again here: passed_again decides it. Only on a port whose baseline
    recorded tests of this project
    flipping (NPOI's formula tests fail at random, and which ones depends on the tests run beside them): a
    candidate is blamed for what the port without it does not do. The candidate cannot reach these runs (the
    untouched build, alone: no run of the candidate under way)."""
    known = known_random(project, limits)
    failing = {f.name for f in verdict.failures if random_like(f, known) is None} - set(left_out)
    if not failing or names is None or not flips_here(project, limits):
        return {}, set()
    found: dict[str, str] = {}
    seen: set[tuple[str, str]] = set()
    for _ in range(FLAKY_RERUNS):
        without = untouched_run(ws, cand, projects, project, names, sandbox, limits, area)
        found.update({f.name: environment.FAILS_BESIDE for f in without.failures if f.name in failing})
        seen |= {sig for f in without.failures if (sig := environment.signature(f)) is not None}
        if set(found) >= failing:
            break
    return found, seen


def flips_here(project: Project, limits: Limits) -> bool:
    """Whether the untouched port's baseline saw tests of `project` flip (fail in one run, pass in another)."""
    return any(key.startswith((f"{project.name}:", ":")) and environment.FLIPS in why
               for key, why in limits.known_failures)


def passed_again(ws: Workspace, cand: PatchedFile, projects: list[Project], project: Project, names: list[str] | None,
                 built: dict[str, Path], verdict: Verdict, left_out: dict[str, str], seen: set[tuple[str, str]],
                 sandbox: Sandbox, limits: Limits, timeout: float, env: dict[str, str] | None,
                 area: Area) -> dict[str, str]:
    """The candidate's failing tests (not already `left_out`) that failed the way the untouched port failed in
    its own runs beside the same tests (`seen`) or in its baseline's flipping tests (limits.random_failures): the
    same exception thrown in the same frame, never a line of the candidate's; and that, run again, pass with the
    candidate or fail the same way on the untouched port: name -> cause. Runs again (neighbourhoods(), smallest
    first, until every suspect is decided): the suspects alone, their fixtures' selected tests (and these without
    the candidate), the whole run.

    NPOI's formula cache throws IndexOutOfRangeException at random (an identity hash, negative on mono, taken
    modulo an array's length): which tests it hits depends on the build and on what ran before them in the
    process, a few of every run and other ones each time, and mostly the same ones again in the same run of the
    same build; a right body was blamed in 7 of 8 judgements. A test alone takes half a second where the whole
    run again takes ten. A test failing any other way, or again in every run with the candidate while the
    untouched port passes it, stays the candidate's; none of this is learned. Left to chance: a wrong body that
    fails a test only after other tests ran, with the port's own random failure (that exception, in that frame)."""
    seen = seen | known_random(project, limits)
    if not seen or names is None:
        return {}
    suspects = {f.name: sig for f in verdict.failures
                if f.name not in left_out and (sig := random_like(f, seen)) is not None}
    found: dict[str, str] = {}
    for rerun, layout, untouched_too in neighbourhoods(names, list(suspects)):
        nonce = secrets.token_hex(16)
        heap = {"MONO_GC_PARAMS": f"{mono_env(limits.memory_mb)['MONO_GC_PARAMS']},{layout}"} if layout else {}
        outcome = candidate_process(ws, cand, projects, project, rerun, built, sandbox, limits, timeout,
                                    {**(env or {}), **heap}, area, nonce)
        again = judge(outcome, nonce, rerun, limits, locator(ws, cand))
        failed = {f.name for f in again.failures} | set(again.not_run)
        found.update({name: f"{environment.FLIPS} ({_threw(sig, sig in seen)}, then passed when run again with the "
                            "candidate)"
                      for name, sig in suspects.items()
                      if name not in found and name in again.ran and name not in failed})
        if untouched_too and set(found) < set(suspects):
            without = untouched_run(ws, cand, projects, project, rerun, sandbox, limits, area)
            found.update({f.name: environment.FAILS_BESIDE for f in without.failures if f.name in suspects
                          and f.name not in found and environment.signature(f) == suspects[f.name]})
        if set(found) >= set(suspects):
            break
    return found


def _threw(sig: tuple[str, str], same_frame: bool) -> str:
    """How a suspect failed, as its cause names it."""
    where = sig[1].split(" (", 1)[0]
    return (f"threw {sig[0]} in {where} as the untouched port does at random there" if same_frame else
            f"{where} rethrew {sig[0]}, which the untouched port throws at random")


HEAP_LAYOUTS = ("nursery-size=8m", "nursery-size=1m", "")     # mono's default nursery is 4m ("")
# Runs of the suspects alone before their fixtures run. Whether NPOI's hash failure hits a test is drawn anew in
# each process, at a rate that depends on the build: TestRangeUsingOffsetFunc_bug46948 alone failed 0 of 10 runs
# on the untouched build and 5 of 10 with a recompiled NPOI.dll of the same source (BitField.IsSet's own body),
# so two runs alone, then its fixture and the whole run, all failing, blamed a right body about once in 16.
ALONE_RUNS = 6


def neighbourhoods(names: list[str], suspects: list[str]) -> list[tuple[list[str], str, bool]]:
    """What runs again beside tests that failed at random, smallest first, each once, as (names, heap layout ("":
    the default), whether the untouched port runs them too): the suspects alone ALONE_RUNS times, each in the
    next of HEAP_LAYOUTS, the selected names in their fixtures (fixtures_of), the whole run's `names`."""
    if not suspects:
        return []
    near = fixtures_of(names, suspects)
    steps = [(sorted(suspects), HEAP_LAYOUTS[n % len(HEAP_LAYOUTS)], False) for n in range(ALONE_RUNS)]
    steps += [(near, "", True)]
    return steps + ([(names, "", False)] if sorted(near) != sorted(names) else [])


def known_random(project: Project, limits: Limits) -> set[tuple[str, str]]:
    """How the untouched port's tests of `project` fail at random (signature(): the exception and its frame), as
    its baseline's flipping tests and the untouched runs beside earlier candidates showed (limits.random_failures)."""
    return {(kind, frame) for owner, kind, frame in limits.random_failures if owner == project.name}


def random_like(failure: TestFailure, known: set[tuple[str, str]]) -> tuple[str, str] | None:
    """`failure`'s signature (environment.signature) when it may be one of the untouched port's random failures
    (`known`): the same exception thrown in the same frame; or an exception of a kind the port throws at random
    that the failing test's own fixture threw, whose first throw the stack no longer shows (a test that catches
    and rethrows it, `throw e;`, reports its own line: NPOI's TestDefinedNameWithComplexFlag_bug47048 fails so at
    random with a member's own body). None otherwise. Either way the test must pass when run again with the
    candidate (passed_again) to be left out."""
    sig = environment.signature(failure)
    if sig is None or sig in known:
        return sig
    own = environment.frame_member(sig[1]).rsplit(".", 1)[0] == fixture_of(failure.name)
    return sig if own and sig[0] in {kind for kind, _ in known} else None


def fixtures_of(names: list[str], tests: list[str]) -> list[str]:
    """The selected `names` (fixtures or methods) in the fixtures of `tests` (reported test names): what runs again
    to see whether a test that failed at random passes, one-time set-up and neighbours included, without the rest
    of the run (608 NPOI tests took 8 s; one fixture's, under 1 s)."""
    fixtures = {fixture_of(test) for test in tests}
    picked = [n for n in names if n in fixtures or fixture_of(n) in fixtures or any(covers(n, test) for test in tests)]
    return picked or names


def fixture_of(test: str) -> str:
    """"Ns.Fixture" of a test name "Ns.Fixture.Method", "Ns.Fixture.Method(1.5, \"a\")" or "Ns.Fixture(2).Method"."""
    method = test
    if test.endswith(")"):                 # a case's arguments, which may hold dots and brackets of their own
        depth = 0
        for at in range(len(test) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(test[at], 0)
            if depth == 0:
                method = test[:at]
                break
    return method.rsplit(".", 1)[0]


def test_files(ws: Workspace, project: Project) -> frozenset[str]:
    """A test project's source files, relative to the target root (as frames name them)."""
    src = ws.src.resolve()
    return frozenset(p.resolve().relative_to(src).as_posix() for p in project.sources
                     if p.resolve().is_relative_to(src))


def runner_argv(ws: Workspace, dll: Path, tests: list[str] | None) -> list[str]:
    """repotrans's NUnit runner on one test assembly (in-process, no remoting channel, results on
    stdout), only the given tests (None: all): fixtures "Ns.Fixture" or test methods
    "Ns.Fixture.Method" (a [TestCase] method's name runs all its cases). Its stdin is the nonce."""
    argv = ["mono", "--debug", rel(runner_for(ws, dll), ws), rel(dll, ws)]
    return argv + (["\n".join(sorted(tests))] if tests else [])   # names may hold commas


def runner_for(ws: Workspace, dll: Path) -> Path:
    """The runner to start: the workspace's, or, when the tests have a config file (an App.config the
    build copied as <assembly>.config), a link to it in the test area with that file as its own config:
    the tests run in the runner's application domain, whose settings mono reads from the running
    program's config."""
    config = dll.with_name(dll.name + ".config")
    if not config.is_file():
        return ws.base / RUNNER_EXE
    runner = dll.with_name(RUNNER_EXE.name)
    if not runner.exists():
        try:
            os.link(ws.base / RUNNER_EXE, runner)
        except OSError:
            shutil.copyfile(ws.base / RUNNER_EXE, runner)
    shutil.copyfile(config, runner.with_name(runner.name + ".config"))
    return runner


def runner_env(limits: Limits) -> dict[str, str]:
    """The runner's suite options: categories to leave out, the per-test time limit (ms), the order, and
    for a fail-fast run whose verdict alone counts its end at the first failing test (STOPPED)."""
    return {"REPOTRANS_EXCLUDE_CATEGORIES": ",".join(limits.exclude_categories),
            "REPOTRANS_TEST_TIMEOUT_MS": str(int(limits.test_timeout * 1000)),
            **({"REPOTRANS_REVERSE_ORDER": "1"} if limits.reverse_order else {}),
            **({"REPOTRANS_STOP_AT_FAILURE": "1"} if limits.fail_fast and limits.verdict_only else {})}


def go_past(project: Project, limits: Limits) -> dict[str, str]:
    """For a fail-fast run whose verdict alone counts: the tests of `project` its stop at the first failure goes
    on past, those the limits name failing or flipping on the untouched port (known_to_fail leaves their failure
    out of the verdict). NPOI's selections hold about a hundred: a placeholder's run stopped at each and went on
    in a fresh process, 140 s for one task."""
    if not (limits.fail_fast and limits.verdict_only):
        return {}
    known = dict(limits.known_failures)
    names = sorted({key.split(":", 1)[1] for key in known if key.startswith((f"{project.name}:", ":"))
                    and environment.known_cause(known, project.name, key.split(":", 1)[1]) is not None})
    return {"REPOTRANS_GO_PAST": "\n".join(names)} if names else {}


def mono_env(memory_mb: int) -> dict[str, str]:
    """Cap the GC heap below the address-space limit: a heap-exhausting candidate then gets a managed
    OutOfMemoryException while the JIT still has room, instead of a native abort. --debug gives
    file:line in stack frames (mcs -debug writes the pdb); no inlining keeps every frame real (a
    `blocked` verdict names the member an exception was thrown in, execution.blocked). glibc gives each
    new thread a malloc arena reserving 64 MB of address space: under a 1 GB limit a suite could start
    36 threads ("Couldn't create thread"); with MALLOC_ARENAS arenas it starts hundreds, and the
    sandbox's process limit still stops a thread bomb."""
    return {"MONO_GC_PARAMS": f"max-heap-size={int(memory_mb * HEAP_SHARE)}m",
            "MONO_ENV_OPTIONS": "--debug --optimize=-inline", "MALLOC_ARENA_MAX": str(MALLOC_ARENAS)}


def locator(ws: Workspace, cand: PatchedFile):
    """Frame locations relative to the target root; lines of the patched file also in the candidate."""
    patched = str((cand.run_dir / "patched" / cand.path).resolve())
    compiled = {str(file.resolve()): stands_for for file, stands_for in cand.compiled.items()}
    src = str(ws.src.resolve()) + "/"

    def locate(path: str, line: int) -> str:
        if path in compiled:
            target, lines = compiled[path]
            if target != cand.path:
                return f"{target}:{lines.get(line, 0)}"
            path, line = patched, lines.get(line, 0)
        if path == patched:
            cline = cand.line_map.to_candidate(line)
            return f"{cand.path}:{line}" + (f" (candidate line {cline})" if cline else "")
        return f"{path[len(src):] if path.startswith(src) else path.rsplit('/', 1)[-1]}:{line}"
    return locate



def overlay(base_dir: Path, built: dict[str, Path], projects: list[Project], project: Project) -> dict[str, Path]:
    """What one run's test folder holds (name -> file or folder): the baseline outputs, with the rebuilt
    assemblies laid over them (test_area lays them out)."""
    items = {item.name: item for item in base_dir.iterdir()}
    for dep in closure(project, projects) + [project]:
        if dep.name in built:
            for item in built[dep.name].iterdir():
                if item.name.startswith(dep.assembly_name + "."):
                    items[item.name] = item
    return items
