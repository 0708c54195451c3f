"""Ground-truth failures the baseline does not know, run again on the untouched port.

A ground truth is the untouched port (every switch off; the member's own body), so a test failing there that
the port's baseline does not list as failing changes its outcome from one run of the same program to the
next (NPOI's formula tests: `GetHashCode() % length` is negative at random on Mono). Such tests run once
more, on the untouched port only (never a candidate's run: a wrong body's real failure is never called
flaky). One that passes now flips; one failing again, having passed in the baseline's run, flips too. Each
is recorded in the cached baseline as flipping (judge.baseline.PortBaseline.record_failures), so this
build's later runs, batch, sync and later builds leave it out of every verdict, passing or failing, as the
baseline's own flipping tests are (toolchains.mono_test.known_to_fail).
"""
from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from repotrans.execution.judge.baseline import PortBaseline
from repotrans.execution.judge.untouched import library_for, untouched_run
from repotrans.execution.switches.schemata import OFF
from repotrans.execution.switches.schemata_runs import JobResult, run_batch
from repotrans.execution.toolchains.api import FLIPS, NOT_RUN_STATES, covers, reported_whole
from repotrans.verdicts.results import TestResult

PASSED_AGAIN = f"{FLIPS} (failed in a ground-truth run, then passed when run again)"
FAILED_AGAIN = f"{FLIPS} (passed in the baseline, then failed in a ground-truth run and when run again)"


def unknown_failures(found: dict[tuple[str, str], list[JobResult]], names: dict[str, dict[str, list[str]]],
                     known: dict[str, str]) -> dict[str, set[str]]:
    """Test project -> the covered tests that failed in the ground-truth batches `found` ((task, project) ->
    its jobs; `names`: task -> project -> its selected names) and that `known` ("Project:Name" or ":Name" ->
    cause) does not list."""
    out: dict[str, set[str]] = {}
    for (task, project), parts in found.items():
        for job in parts:
            for state, name in job.covered(names[task][project]):
                if state != "Success" and state not in NOT_RUN_STATES and \
                        f"{project}:{name}" not in known and f":{name}" not in known:
                    out.setdefault(project, set()).add(name)
    return out


def run_again(failed: dict[str, set[str]], ws, built, projects, by_project, box, limits) -> dict[str, str]:
    """Run each project's `failed` tests once more on the untouched port (the schemata build, every switch
    off), in one process per project: "Project:Name" -> why it is left out from now on (flips), for every
    test that reported an outcome (one that did not run there says nothing)."""
    found: dict[str, str] = {}
    for project, names in sorted(failed.items()):
        run = run_batch(ws, built, projects, by_project[project], [(OFF, sorted(names))], box, limits,
                        fixtures=len({n.rsplit(".", 1)[0] for n in names}), tests=len(names))
        job = run.finished[0] if run.finished else run.cut
        states = {name: state for state, name in (job.tests if job is not None else [])}
        for name in sorted(names):
            state = states.get(name)
            if state is None or state in NOT_RUN_STATES:
                continue
            found[f"{project}:{name}"] = PASSED_AGAIN if state == "Success" else FAILED_AGAIN
    return found


def by_project(tests: list[str]) -> dict[str, list[str]]:
    """Selected test ids ("Project:Name") as test project -> its names."""
    out: dict[str, list[str]] = {}
    for test in tests:
        project, _, name = test.partition(":")
        out.setdefault(project, []).append(name)
    return out


def failing_names(result: TestResult, selected: dict[str, list[str]], known: dict[str, str]) -> dict[str, set[str]] | None:
    """Test project -> the failing tests of a whole ground-truth run `result` (see `whole`) that `known` does
    not list, each in the projects whose selected names (`selected`, by_project) cover it; None when the run
    was not whole or a failure belongs to no project."""
    if not whole(result):
        return None
    out: dict[str, set[str]] = {}
    for failure in result.failures:
        owners = [p for p, names in selected.items() if any(covers(n, failure.name) for n in names)]
        if not owners:
            return None
        for project in owners:
            if f"{project}:{failure.name}" not in known and f":{failure.name}" not in known:
                out.setdefault(project, set()).add(failure.name)
    return out


def whole(result: TestResult) -> bool:
    """A run that reported every test, whose only problems are failing tests (assertions, or exceptions
    they threw, never out of memory): its failures are all it says."""
    return bool(result.failures) and result.tests_failed == len(result.failures) and \
        result.status != "passed" and reported_whole(result.status, result.reason)


def without_flipping(result: TestResult, found: dict[str, str]) -> TestResult:
    """A whole ground-truth run whose every failure is in `found` (tests that flip on the untouched port):
    passed, those left out with their causes, as a run leaves out known flipping tests."""
    left = {key: why for key, why in found.items() if any(key.endswith(":" + f.name) for f in result.failures)}
    return replace(result, status="passed", failures=[], exceptions=[], tests_failed=0, reason="",
                   tests_run=max(0, result.tests_run - len(result.failures)), left_out={**result.left_out, **left})


def settled(result: TestResult, failed: dict[str, set[str]], found: dict[str, str]) -> TestResult:
    """`result` without_flipping when every one of its `failed` tests (test project -> names) is in `found`,
    else as it is."""
    if all(f"{project}:{name}" in found for project, names in failed.items() for name in names):
        return without_flipping(result, found)
    return result


def record(found: dict[str, str], limits, baseline: PortBaseline | None):
    """`limits` with `found` among its known failures; the baseline (and its cache) records them too."""
    if baseline is not None:
        baseline.record_failures(found)
    return replace(limits, known_failures=tuple(sorted({**dict(limits.known_failures), **found}.items())))


_RECORDING = threading.Lock()           # the per-task path's threads share one runner's limits


def settle_alone(runner, target: Path, result: TestResult, baseline: PortBaseline | None) -> TestResult:
    """The per-task path's ground truth `result` (the member's own body in the port at `target`: the untouched
    port), or passed when its every failure flips: the failing tests the runner's known failures do not list
    run once more on the untouched port (one untouched run of them: judge.untouched.untouched_run), and those
    reporting an outcome are recorded (`record`, into `runner.limits` and the baseline)."""
    if not whole(result):
        return result
    failed = failing_names(result, by_project(result.selected), dict(runner.limits.known_failures))
    if not failed:
        return result
    ws = runner.workspace(target)
    chosen = runner.toolchain.plan(ws).chosen
    lib = library_for(chosen, set(failed))
    if lib is None:
        return result
    again = untouched_run(runner.toolchain, ws, lib, [f"{p}:{n}" for p, names in sorted(failed.items())
                                                      for n in sorted(names)], runner.sandbox(ws), runner.limits)
    failing = {f.name for f in again.failures}
    found = {f"{p}:{n}": PASSED_AGAIN if again.ran.get(n) == "Success" else FAILED_AGAIN
             for p, names in failed.items() for n in names if n in again.ran or n in failing}
    with _RECORDING:
        runner.limits = record(found, runner.limits, baseline)
    return settled(result, failed, found)
