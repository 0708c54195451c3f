"""Toolchains: build the target (baseline once, then one candidate), run tests, parse what they say.

A toolchain never raises for a candidate's faults: compile errors, failing tests, crashes and
timeouts come back as a Verdict. It raises TargetBuildError when the unpatched target fails to build.
Toolchains are made by name in execution.toolchain_registry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from repotrans.errors import ConfigError
from repotrans.execution.defaults import DEFAULT_EXCLUDED
from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.capability.checks import MemberRef
from repotrans.verdicts.results import Diagnostic, ExceptionInfo, TestFailure
from repotrans.execution.sandboxes import Sandbox
from repotrans.execution.toolchains.test_runs import KILL_CAP
from repotrans.verdicts.status import severity
from repotrans.execution.workspace.scratch import Workspace

if TYPE_CHECKING:
    from repotrans.execution.toolchains.projects import BuildPlan, BuildSettings

_THREW = re.compile(r"\d+ test\(s\) threw ")          # `threw`'s reason


class TargetBuildError(ConfigError):
    """The target does not build before patching: no candidate can be judged."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None, log_tail: str = ""):
        super().__init__(message)
        self.diagnostics = diagnostics or []
        self.log_tail = log_tail


@dataclass
class PatchedFile:
    """One patched file, ready to build."""
    path: str                      # relative to the target root
    text: str
    line_map: LineMap
    surface_changed: bool
    run_dir: Path
    member: MemberRef | None = None          # the member it stands for (the IL policy's root)
    allowed: frozenset[str] = frozenset()    # capabilities the Java original grants (execution.policy)
    # files the compiler read in place of the target's (several candidates behind switches,
    # execution.judge.batching): compiled file -> (the target file it stands for, its line -> that file's
    # line; for `path`, the line of `text`)
    compiled: dict[Path, tuple[str, dict[int, int]]] = field(default_factory=dict)


@dataclass
class Limits:
    timeout: float                 # seconds for the test step
    memory_mb: int
    build_timeout: float = 300.0
    # test categories left out of every run, as users leave them out, named or not (so are [Explicit] and
    # [Ignore] tests: nunit_runner.cs); a test running longer than test_timeout seconds fails alone (0: no limit)
    exclude_categories: tuple[str, ...] = DEFAULT_EXCLUDED
    test_timeout: float = 120.0
    per_project: bool = False      # `timeout` for each test project's run, not for all of them together
    # tests known to fail on the untouched port ("Project:Ns.Fixture.Test" -> why; a dataset's record or the
    # user's --known-failures file): left out of a verdict when they fail, as a test failing here before any
    # change is (toolchains.environment), named with that cause
    known_failures: tuple[tuple[str, str], ...] = ()
    # selected tests not run at all, each with its cause (judge.runner.without_known: known to fail or flip on the
    # untouched port): in the verdict's left_out from the start, as if they had run and been left out
    left_out_before: tuple[tuple[str, str], ...] = ()
    clock: str = "cpu"             # test runs: `timeout` counts CPU seconds where the sandbox can (settings)
    # run each suite's tests in the reverse of NUnit's order (the untouched port's second run: judge.untouched)
    reverse_order: bool = False
    # seconds each test ran on the untouched port (test project -> runner test name -> seconds; the baseline,
    # judge.baseline): runs are planned from them and their kill limits scaled to them (toolchains.test_runs)
    test_seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    kill_cap: float = KILL_CAP     # no single planned run's kill limit beyond this (test_runs)
    # stop at the first run with a failure (the verdict is a failure already; its failures are the first
    # run's): the covering selection of one candidate (judge.runner), never a whole-suite run
    fail_fast: bool = False
    # with fail_fast, a run whose verdict alone counts (a placeholder's, in dataset validation) starts no test
    # after its first failing one; a candidate's run keeps its whole run's failures (the repair reads them)
    verdict_only: bool = False
    # one assembly's planned runs under way at once (test_runs.run_all): the same verdict, in less time on idle cores
    test_processes: int = 1
    # how the untouched port fails at random: (test project, exception type, frame thrown in) of failures of tests
    # its baseline saw flip (judge.baseline; mono_test.passed_again)
    random_failures: tuple[tuple[str, str, str], ...] = ()


@dataclass
class Verdict:
    """What a build or a test step found; the runner turns it into a TestResult."""
    status: str                    # one of execution.status.VERDICTS
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failures: list[TestFailure] = field(default_factory=list)
    exceptions: list[ExceptionInfo] = field(default_factory=list)
    tests_run: int = 0
    tests_failed: int = 0
    log: str = ""
    reason: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    # test project -> (status, tests run, tests failed, reason) of its own run
    by_project: dict[str, tuple[str, int, int, str]] = field(default_factory=dict)
    # tests left out because they fail in this environment before any change ("Project:Ns.F.T" -> cause)
    left_out: dict[str, str] = field(default_factory=dict)
    # tests the run reached that the suite says not to run ("Project:Ns.F.T" -> the attribute: "[Explicit]",
    # '[Ignore("why")]', '[Category("Integration")] on Ns.Fixture'), never run, named or not
    excluded: dict[str, str] = field(default_factory=dict)
    # selected tests that did not run (ignored or inconclusive at run time): runner test name -> "Ignored: why"
    # (nunit.not_run); left out when the untouched port does not run them either (toolchains.environment)
    not_run: dict[str, str] = field(default_factory=dict)
    # every test that ran: runner test name -> its result state ("Success", "Failure", "Error")
    ran: dict[str, str] = field(default_factory=dict)
    # seconds each test that ran took, as the runner measured it ("Project:Ns.F.T" -> seconds)
    seconds: dict[str, float] = field(default_factory=dict)
    cut_short: bool = False        # fail fast left selected tests unrun (Limits.fail_fast)
    # how the untouched build failed in runs beside the candidate's tests, (project, exception, frame) (mono_test:
    # facts about the port the candidate cannot reach, learned by the runner as Limits.random_failures)
    untouched_failed: set[tuple[str, str, str]] = field(default_factory=set)
    peak_mb: float | None = None   # the most memory one of its test processes held (the sandbox's measure)
    # the two innermost suites above each planned test ("Project:Ns.F.T" -> [fixture or method suite, ...]): a
    # case the runner names otherwise ([TestCase(TestName=...)]) is found under its method's suite
    suites: dict[str, list[str]] = field(default_factory=dict)

    def absorb(self, other: "Verdict") -> None:
        """Add one test run's counts and evidence; the more severe status (and its reason) wins, but
        a project with no test to run (no_tests) only decides while nothing else has run."""
        ran_before = self.tests_run
        self.tests_run += other.tests_run
        self.tests_failed += other.tests_failed
        self.failures += other.failures
        self.exceptions += other.exceptions
        self.left_out.update(other.left_out)
        self.excluded.update(other.excluded)
        self.not_run.update(other.not_run)
        self.ran.update(other.ran)
        self.seconds.update(other.seconds)
        self.suites.update(other.suites)
        self.cut_short |= other.cut_short
        self.untouched_failed |= other.untouched_failed
        if other.peak_mb is not None:
            self.peak_mb = max(self.peak_mb or 0.0, other.peak_mb)
        if other.status == "no_tests":
            if self.status == "passed" and not ran_before:
                self.status, self.reason = other.status, other.reason
        elif self.status == "no_tests" or severity(other.status) > severity(self.status):
            self.status, self.reason = other.status, other.reason


class Toolchain(Protocol):
    """Built by make_toolchain with the run's BuildSettings; registered in execution.toolchain_registry."""
    name: str
    image: str                     # default docker image
    settings: "BuildSettings"

    def language_version(self, root: Path) -> str: ...

    def baseline(self, ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
        """Build the unpatched target once per state (cached); raise TargetBuildError if it fails."""
        ...

    def test_projects(self, ws: Workspace) -> dict[str, list[Path]]:
        """Test project name -> its test source files, for test selection."""
        ...

    def plan(self, ws: Workspace) -> "BuildPlan":
        """The build plan of the workspace (projects.plan_build with what the baseline quarantined)."""
        ...

    def run(self, ws: Workspace, cand: PatchedFile, fixtures: list[str] | None, sandbox: Sandbox,
            limits: Limits) -> Verdict:
        """Build the candidate (only what it changes), run the given tests (fixtures or test methods; None: all).
        Fixture ids are "<test project name>:<qualified fixture class>"."""
        ...

    def build_together(self, ws: Workspace, cands: list[PatchedFile], out: Path, sandbox: Sandbox,
                       limits: Limits) -> "Built":
        """One build of `ws`'s tree with the files of `cands` swapped in (a unit judged together), into `out`, and the
        capability check: one answer per candidate and project compiling its file (`compiling`), in that order, each
        against `ws`'s own build (the tree without any candidate: whatever a candidate added is inspected)."""
        ...

    def compiling(self, ws: Workspace, path: str) -> list:
        """The projects a candidate in the file `path` is checked in (its answers in build_together's)."""
        ...

    def run_built(self, ws: Workspace, cand: PatchedFile, build: "Built", answers: list, fixtures: list[str] | None,
                  sandbox: Sandbox, limits: Limits) -> Verdict:
        """`run`'s verdict for one candidate of a build_together `build` (`answers`: its own), nothing built again."""
        ...


class Built(Protocol):
    """What build_together answers: whether the tree built, what the compiler printed (the failure's), and the
    capability check's answers when it built."""
    output: str
    answers: list | None

    @property
    def ok(self) -> bool: ...


def judge_report(report) -> Verdict:
    """A parsed test report (toolchains.nunit.TestReport) -> status: any exception is a runtime error
    (out of memory named as such), any other failure a test failure."""
    verdict = Verdict("passed", failures=report.failures, exceptions=report.exceptions,
                      tests_run=report.total, tests_failed=len(report.failures))
    if any(e.type.endswith("OutOfMemoryException") for e in report.exceptions):
        verdict.status, verdict.reason = "runtime_error", "out of memory"
    elif report.exceptions:
        verdict.status = "runtime_error"
        verdict.reason = threw(report.exceptions)
    elif report.failures:
        verdict.status = "test_failure"
    return verdict


def reported_whole(status: str, reason: str) -> bool:
    """Whether a run with this status and reason reported every test it ran: it passed, tests failed on
    assertions, or tests threw (`threw`'s reason; not out of memory, which may have cut the process short)."""
    return status in ("passed", "test_failure") or (
        status == "runtime_error" and bool(_THREW.match(reason or "")) and "OutOfMemory" not in reason)


def threw(exceptions: list[ExceptionInfo]) -> str:
    """"3 test(s) threw System.X" counting only those that threw X (the first's type), then the others:
    "1 test(s) threw System.X; 2 threw other exceptions (System.Y)"."""
    first = exceptions[0].type or "an exception"
    same = sum(1 for e in exceptions if (e.type or "an exception") == first)
    others = list(dict.fromkeys(e.type or "an exception" for e in exceptions if (e.type or "an exception") != first))
    rest = len(exceptions) - same
    return f"{same} test(s) threw {first}" + (f"; {rest} threw other exceptions ({', '.join(others[:3])}"
                                              f"{', ...' if len(others) > 3 else ''})" if rest else "")
