"""Covering-test runs of a schemata build in batches: one test process serves many tasks.

A test process on a real port spends seconds loading the runtime, NUnit and a large test assembly
before its first test, and a fallback selection of whole fixtures is the same work for every task
that falls back to it. Two batches (nunit_runner.cs --schemata) remove that repetition:

- **ground truth**: the union of the guarded tasks' covering selections, every switch off, runs once
  (split across `jobs` processes by fixture). The switch class records, per test, which guards it
  reached and whether inside a static initializer: a hit table.
- **placeholders**: one warm process runs a job per task, the runner setting every switch copy
  between jobs (the switch is runtime state). A job runs only the task's covering tests that reached
  its guard in the ground-truth run: the others execute exactly as with the switch off until they
  call the member, which they never did.

Static state is the hazard of a warm process: a static initializer that ran with the switch off
keeps the ground truth's behaviour, and one that ran with a switch on keeps the placeholder's for
every later job. Hence (datasets.validation):
- a task whose guard the ground truth reached inside a static initializer is never batched;
- a job whose guard throws inside a static initializer ends the batch (TAINTED); the rest start in
  a fresh process;
- a batched job decides only "the placeholder fails" and only when a test failed in which its guard
  threw; a job whose tests all pass, or whose failure its guard did not cause, is run again on its
  own (a fresh process: every test that reached its guard, else the task's whole selection).
"""
from __future__ import annotations

import base64
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.execution.sandboxes import Sandbox
from repotrans.execution.switches.schemata import RECORD_VAR
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.api import (rel, mono_env, overlay, report_cut, runner_env, runner_for, Project,
                                                NOT_RUN_STATES, check_runner, covered_by, parse_runner, area_root,
                                                test_area)
from repotrans.execution.workspace.scratch import Workspace
from repotrans.execution.workspace.selection import scaled_limit


@dataclass
class JobResult:
    """One job of a batch that ran to its END line."""
    switch: int
    names: list[str]                                    # what it was asked to run
    tests: list[tuple[str, str]] = field(default_factory=list)        # (result state, full name)
    suites: dict[str, list[str]] = field(default_factory=dict)       # test -> suites above it
    hits: dict[str, set[str]] = field(default_factory=dict)          # test -> guards reached ("7", "7*")
    between: dict[str, set[str]] = field(default_factory=dict)       # suite -> guards reached between tests
    fired: int = 0                                      # its switch's guard threw this often
    in_initializer: bool = False                        # ... once inside a static initializer
    problem: str = ""                                   # the report is not whole or names strays
    unhandled: bool = False
    planned: dict[str, str] = field(default_factory=dict)   # test -> its declared run state
    cut: bool = False                                   # stopped before its END (a timeout, a crash)

    def covered(self, selected: list[str]) -> list[tuple[str, str]]:
        """(state, name) of the tests a selection ("Ns.Fixture[.Method]" names) covers."""
        picked = frozenset(selected)
        return [(state, name) for state, name in self.tests
                if any(covered_by(picked, n) for n in [name, *self.suites.get(name, [])])]

    def whole_for(self, selected: list[str]) -> bool:
        """Every planned test the selection covers has a result (always so in a job that finished)."""
        done, picked = {name for _, name in self.tests}, frozenset(selected)
        return not self.cut or all(name in done for name in self.planned
                                   if any(covered_by(picked, n) for n in [name, *self.suites.get(name, [])]))

    def reaching(self, switch: int, selected: list[str]) -> tuple[list[str], bool]:
        """The covered tests that reached guard `switch` (in their own run, or between tests in their
        fixture: its setup), and whether any reached it inside a static initializer."""
        plain, starred = str(switch), f"{switch}*"
        names, initializer = [], False
        for _, name in self.covered(selected):
            ids = self._guards(name)
            if plain in ids or starred in ids:
                names.append(name)
                initializer |= starred in ids
        return names, initializer

    def _guards(self, name: str) -> set[str]:
        """The guards a test reached, in its own run or between tests in its fixture (its setup)."""
        ids = set(self.hits.get(name, set()))
        for suite in _suites(self.suites, name):
            ids |= self.between.get(suite, set())
        return ids

    def passes(self, selected: list[str], known: frozenset[str] = frozenset()) -> bool:
        """The tests the selection covers all passed, but for those declared not to run (ignored,
        explicit) and those `known` to fail before any change (left out), and at least one ran: the
        per-task path's "passed" for this selection."""
        covered = self.covered(selected)
        return any(state == "Success" for state, _ in covered) and all(
            state == "Success" or (state in NOT_RUN_STATES and self.planned.get(name) != "Runnable")
            or name in known for state, name in covered)

    def failed(self, known: frozenset[str] = frozenset()) -> list[str]:
        """The tests that failed, but for those `known` to fail before any change."""
        return [n for s, n in self.tests if s != "Success" and s not in NOT_RUN_STATES and n not in known]

    def caught(self, steady: frozenset[str] = frozenset()) -> bool:
        """A job run alone, recording, with its switch on: a test failed in which its guard threw (reached in
        the test or its fixture's setup), but for those `steady`, failing before any change every time. A
        test known to flip counts here: its placeholder threw in it, which the port's random failure does not
        decide. A guard reached in a static initializer, or a report not whole, decides nothing."""
        if self.problem or self.unhandled or self.cut or self.in_initializer:
            return False
        return any(str(self.switch) in self._guards(name) for name in self.failed(steady))

    def placeholder_fails(self, known: frozenset[str] = frozenset()) -> bool:
        """A batched job decides "keep" only when a test failed (not one `known` to fail before any change)
        and its own guard threw (outside static initializers), in a whole report; anything else is run
        again on its own."""
        return bool(self.failed(known)) and self.fired > 0 and not self.in_initializer and not self.problem \
            and not self.unhandled and not self.cut


@dataclass
class BatchRun:
    finished: list[JobResult]          # the jobs that reached END, in order; the rest did not run
    cut: JobResult | None = None       # the job running when the process stopped (what it reported)
    tainted: bool = False
    seconds: float = 0.0
    note: str = ""                     # why it stopped early (timeout, crash), for the log


def run_batch(ws: Workspace, built: dict[str, Path], projects: list[Project], project: Project,
              jobs: list[tuple[int, list[str]]], sandbox: Sandbox, limits: Limits, *, record: bool = False,
              fixtures: int = 1, tests: int = 1) -> BatchRun:
    """Run `jobs` ((switch, test names without the project prefix), none empty) of one test project in
    one process on the schemata outputs `built`; `record` makes the guards note what each test reaches."""
    assert all(names for _, names in jobs), "an empty job would run the whole assembly"
    started = time.monotonic()
    nonce = secrets.token_hex(16)
    lines = [nonce] + [f"{switch} {_b64(chr(10).join(sorted(names)))}" for switch, names in jobs] + ["."]
    with ws.run_dir() as run_dir, \
            test_area(ws.src, run_dir, project, overlay(ws.base / project.name, built, projects, project)) as bin_dir:
        dll = bin_dir / project.dll_name
        argv = ["mono", "--debug", rel(runner_for(ws, dll), ws), rel(dll, ws), "--schemata"]
        outcome = sandbox.run(argv, cwd=ws.root, timeout=scaled_limit(limits.timeout, fixtures, tests),
                              memory_mb=limits.memory_mb, cpu=limits.clock == "cpu" and sandbox.counts_cpu(),
                              env={**mono_env(limits.memory_mb), **runner_env(limits), RECORD_VAR: str(int(record))},
                              stdin=("\n".join(lines) + "\n").encode(), until=f"@@RT {nonce} DONE ".encode(),
                              scratch=[area_root(run_dir, project)])
    run = parse_batch(outcome.stdout, nonce, jobs) if not outcome.stdout_cut else BatchRun([])
    run.seconds = time.monotonic() - started
    if outcome.stdout_cut:
        run.note = report_cut(outcome.stdout_cut)
    elif len(run.finished) < len(jobs) and not run.tainted:
        run.note = ("timed out" if outcome.timed_out else f"ended (exit {outcome.exit_code})") + \
            f" after {len(run.finished)} of {len(jobs)} jobs"
    return run


def parse_batch(stdout: str, nonce: str, jobs: list[tuple[int, list[str]]]) -> BatchRun:
    """The jobs a batch's tagged output reports whole (JOB ... END), with their hits and firings."""
    prefix = f"@@RT {nonce} "
    run = BatchRun([])
    segment: list[str] | None = None
    for line in stdout.splitlines():
        if not line.startswith(prefix):
            continue
        kind, _, rest = line[len(prefix):].partition(" ")
        if kind == "JOB":
            segment = [line]
        elif kind == "TAINTED":
            run.tainted = True
        elif segment is not None:
            segment.append(line)
            if kind == "END":
                index = len(run.finished)
                if index < len(jobs):
                    run.finished.append(_job(segment, nonce, *jobs[index]))
                segment = None
    if segment is not None and len(run.finished) < len(jobs):
        run.cut = _job(segment, nonce, *jobs[len(run.finished)], cut=True)
    return run


def _job(lines: list[str], nonce: str, switch: int, names: list[str], cut: bool = False) -> JobResult:
    report = parse_runner("\n".join(lines), nonce)
    job = JobResult(switch, names, [(s, n) for s, n, _, _ in report.tests], report.suites,
                    unhandled=bool(report.unhandled), planned={n: s for s, n in report.planned}, cut=cut)
    status, reason = check_runner(report, names)
    # a runnable test that did not run is the business of the tasks it covers (passes), not the whole job's
    per_test = status != "runtime_error" or "did not run" in reason
    job.problem = report.crash if cut or per_test else reason
    prefix = f"@@RT {nonce} "
    last = ""                                  # the test reported last (a teardown after it is its fixture's)
    for line in lines:
        kind, _, rest = line[len(prefix):].partition(" ")
        fields = rest.split(" ")
        try:
            if kind in ("HITS", "BEFORE"):
                name = base64.b64decode(fields[0]).decode("utf-8", "replace")
                ids = {i for i in base64.b64decode(fields[1]).decode().split(",") if i}
                if kind == "HITS":
                    job.hits[name] = ids
                    last = name
                for test in {name, last} if kind == "BEFORE" else ():
                    for suite in _suites(job.suites, test) if test and ids else ():
                        job.between.setdefault(suite, set()).update(ids)
            elif kind == "FIRED":
                job.fired, job.in_initializer = int(fields[0]), fields[1] == "1"
        except (IndexError, ValueError):
            job.problem = job.problem or f"malformed runner line: {line[:200]}"
    return job


def _suites(suites: dict[str, list[str]], test: str) -> list[str]:
    """The two innermost suites above a test: its fixture (and namespace), or its parameterised
    method and fixture. Guards reached between tests count for both (a fixture's setup)."""
    return (suites.get(test) or [])[-2:]


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()
