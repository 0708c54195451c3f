"""Mono test verdicts: the runner's tagged report, or what a test process that ended without one
left on its console (stack overflow, out of memory, a crash)."""
from __future__ import annotations

import re

from repotrans.verdicts.results import ExceptionInfo
from repotrans.execution.sandboxes import PIDS_REASON, REPORT_LIMIT, RunOutcome
from repotrans.execution.toolchains import Limits, Verdict, judge_report
from repotrans.execution.toolchains.chains import attach, read_chains
from repotrans.execution.toolchains.nunit import (NOT_RUN_STATES, check_runner, clean_frames, exception_info,
                                                  not_run, parse_runner, runner_test_report)

STACK_OVERFLOW_RE = re.compile(r"System\.StackOverflowException:?(.*)$", re.M)
OOM_MARKERS = ("OutOfMemoryException", "Out of memory", "out of memory", "Garbage collector could not allocate")


CPU_LIMIT = "s CPU limit"             # in a timeout's reason: the same on any load (sandboxes.RunOutcome)


def limit_words(outcome: RunOutcome, timeout: float) -> str:
    """Which limit a timed-out run hit: CPU seconds (load-independent), the wall-clock backstop of a
    CPU limit, or plain wall seconds."""
    if outcome.cpu_limited:
        return f"the {timeout:.0f} {CPU_LIMIT}"
    if outcome.backstopped:
        used = f", {outcome.cpu_seconds:.0f} s of CPU" if outcome.cpu_seconds is not None else ""
        return f"the wall-clock backstop of {outcome.seconds:.0f} s (a CPU limit of {timeout:.0f} s{used})"
    return f"the {timeout:.0f} s limit"


def load_independent(reason: str) -> bool:
    """A timeout's reason says its run hit a CPU-time limit (rerunning it on a quieter machine gives
    the same verdict), not a wall-clock one."""
    return CPU_LIMIT in reason


def report_cut(cut: int) -> str:
    """Why a run whose report outgrew the sandbox's REPORT_LIMIT is not judged on it."""
    return (f"the runner's report was {cut} bytes over the {REPORT_LIMIT // 2**20} MiB kept "
            "(the tests printed that much on stdout)")


def judge(outcome: RunOutcome, nonce: str, tests: list[str] | None, limits: Limits, locate,
          leave_out: frozenset[str] = frozenset()) -> Verdict:
    """A run killed by the process or the memory limit is a runtime error whatever it printed (the
    process limit named first, as dotnet's judge does). Else
    the runner's own report decides whenever it is complete (END line, exit 0 or stopped by the
    sandbox after it); a run killed at the time limit before that is a timeout; anything else that
    ends without a whole report matching the selection is a runtime error. `leave_out`: tests that
    cannot pass here (toolchains.environment), taken out of the report before it is judged; a fail-fast run that
    stopped at one of them is judged on the tests it reached (its caller runs the others on)."""
    if outcome.pids_limited:        # the sandbox's pids.events, not the console's wording; a fork bomb
        return Verdict("runtime_error", reason=PIDS_REASON)     # may exhaust memory too: the cause comes first
    if outcome.oom_killed:
        return Verdict("runtime_error", reason="out of memory (killed at the memory limit)")
    if outcome.stdout_cut:          # the report lost its middle: no line of it can be read as whole
        return Verdict("runtime_error", reason=report_cut(outcome.stdout_cut))
    report = parse_runner(outcome.stdout, nonce)
    if leave_out and report.ended is not None:
        left = sum(1 for t in report.tests if t[1] in leave_out)
        report.tests = [t for t in report.tests if t[1] not in leave_out]
        report.planned = [p for p in report.planned if p[1] not in leave_out]
        report.started = None if report.started is None else report.started - left
        report.ended -= left
        if report.stopped and not any(t[0] in ("Failure", "Error") for t in report.tests):
            reached = {t[1] for t in report.tests}      # it stopped at a test left out: the rest runs on from
            report.planned = [p for p in report.planned if p[1] in reached]         # there (mono_test.run_project)
            report.started, report.stopped = len(report.planned), False
    if report.ended is None:
        if outcome.timed_out:        # what ran before the limit is counted
            failed = sum(1 for t in report.tests if t[0] not in ("passed", "Success"))
            return Verdict("timeout", tests_run=len(report.tests), tests_failed=failed,
                           reason=f"tests exceeded {limit_words(outcome, limits.timeout)} after {len(report.tests)} "
                                  f"of {len(report.planned)} planned tests")
        overflow = STACK_OVERFLOW_RE.search(outcome.output)
        if overflow:                 # mono dies on it: only the console says what happened, and where
            frames = clean_frames(outcome.output[overflow.end():], locate, limit=50)
            located = [f for f in frames if "<0x" not in f]      # native '<0x41 + 0x4>' frames say no line
            frames = list(dict.fromkeys(located or frames))[:3]
            return Verdict("runtime_error", reason="stack overflow (unbounded recursion?)", exceptions=[
                ExceptionInfo("System.StackOverflowException", overflow.group(1).strip(), frames)])
        oom = any(marker in outcome.output for marker in OOM_MARKERS)
        crash = next((ln.strip() for ln in outcome.output.splitlines()
                      if "Exception" in ln or "Unhandled" in ln or "overflow" in ln.lower()), "")
        reason = ("out of memory" if oom else
                  f"the test process ended before the runner finished (exit {outcome.exit_code})")
        last = report.tests[-1][1] if report.tests else ""
        if report.planned:           # what ran before the process died is counted (never a pass)
            reason += f" after {len(report.tests)} of {len(report.planned)} planned tests" + \
                (f", the last reported {last}" if last else "")
        failed = sum(1 for t in report.tests if t[0] not in ("passed", "Success"))
        return Verdict("runtime_error", exceptions=[exception_info(crash, [])] if crash else [], reason=reason,
                       tests_run=len(report.tests), tests_failed=failed)
    tests_report = runner_test_report(report, locate)
    attach(tests_report.failures, read_chains(outcome.stdout, nonce, locate), report.suites)
    if outcome.exit_code not in (0, None):
        return Verdict("runtime_error", tests_run=tests_report.total,
                       reason=f"the test process exited with {outcome.exit_code} after the runner finished")
    status, reason = check_runner(report, tests)
    verdict = judge_report(tests_report) if not status else \
        Verdict(status, failures=tests_report.failures, exceptions=tests_report.exceptions,
                tests_run=tests_report.total, tests_failed=len(tests_report.failures), reason=reason)
    verdict.not_run = not_run(report)
    verdict.ran = {name: state for state, name, _, _ in report.tests if state not in NOT_RUN_STATES}
    verdict.cut_short = report.stopped
    return verdict
