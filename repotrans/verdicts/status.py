"""The status vocabulary: every status a test run, an agent run or a run row can have, defined once.

Statuses are plain strings (they are stored in results.sqlite and trajectories). `VERDICTS` are what
one test run of a candidate can end in, ordered best first: that order is the one ranking used to
combine several test runs (the worst wins) and to pick an agent's best attempt (the best wins).
"""
from __future__ import annotations

from typing import Literal

# What a test run of one candidate found (execution.results.TestResult.status).
PASSED = "passed"
# passed on the covering tests that could run, the others left out because they stop in members this run leaves
# untranslated (execution.judge.blocked.past_untranslated): not a pass; counted apart, never written unless asked
PARTIAL = "partial"
NO_TESTS = "no_tests"            # it compiled, but no selected test could run: nothing judged, never a pass
TEST_FAILURE = "test_failure"
RUNTIME_ERROR = "runtime_error"
TIMEOUT = "timeout"
COMPILE_ERROR = "compile_error"
BLOCKED = "blocked"              # compiled; its tests fail only inside other members still to be translated
REJECTED = "rejected"            # compiled, but its IL reaches a capability the policy denies (execution.policy)

# What a task can end in besides a verdict.
ERROR = "error"                  # the task itself failed (recorded; the batch goes on)
UNTESTED = "untested"            # an agent run in which no candidate was tested (stored as ERROR)

Status = Literal["passed", "partial", "blocked", "no_tests", "test_failure", "runtime_error", "timeout", "compile_error",
                 "rejected"]

# Best first; a verdict's position is its severity.
# blocked (execution.blocked) is judged on a TestResult, never by a toolchain.
VERDICTS: tuple[str, ...] = (PASSED, PARTIAL, BLOCKED, NO_TESTS, TEST_FAILURE, RUNTIME_ERROR, TIMEOUT, COMPILE_ERROR, REJECTED)
# A row of a run's results table.
TASK_STATUSES: tuple[str, ...] = VERDICTS + (ERROR,)
# Statuses of a candidate that compiled.
COMPILED: frozenset[str] = frozenset((PASSED, PARTIAL, NO_TESTS, TEST_FAILURE, RUNTIME_ERROR, TIMEOUT, BLOCKED, REJECTED))
# Statuses whose failing tests may stop in methods still to be translated (see execution.blocked).
FAILED_TESTS: frozenset[str] = frozenset((TEST_FAILURE, RUNTIME_ERROR))

# The report's name for why a task is unsolved.
LABELS: dict[str, str] = {
    COMPILE_ERROR: "compilation error",
    REJECTED: "rejected by the capability policy",
    TEST_FAILURE: "test failure",
    RUNTIME_ERROR: "runtime error",
    TIMEOUT: "non-termination",
    NO_TESTS: "no test ran",
    BLOCKED: "blocked by untranslated methods",
    PARTIAL: "partial: tests left out behind untranslated methods",
    ERROR: "task error",
}


def severity(status: str) -> int:
    """0 for passed, growing to the worst verdict; anything that is not a verdict ranks below them all."""
    return VERDICTS.index(status) if status in VERDICTS else len(VERDICTS)


def check_verdict(status: str) -> str:
    """`status` if it is a verdict, else a ValueError naming the vocabulary."""
    if status not in VERDICTS:
        raise ValueError(f"unknown status {status!r}; expected one of {', '.join(VERDICTS)}")
    return status
