"""Why a task did not pass, in one line: the first real assertion (expected vs actual), compiler error
or exception, and the cause it is grouped under. Shared by the batch's closing summary and report.html.
A group named after a status is that status's one label (verdicts.status.LABELS: "compilation error CS0246",
"non-termination", "no test ran"), the name report.md's table of error types gives it too.

A failure in which a placeholder's guard fired (the runner's own record of the call chain, execution.judge.chain)
is not the real bug: the first failure without one is. A blocked task's line names the still-untranslated
members its tests stopped in (`behind`, from the same record); a task whose every failure reached a placeholder
through the candidate itself (its Java original does not reach it) says so, in words of its own: it is not
blocked, and never worded as if it were.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from repotrans.verdicts.results import Diagnostic, TestFailure, TestResult
from repotrans.verdicts.status import BLOCKED, COMPILE_ERROR, ERROR, LABELS, NO_TESTS, PARTIAL, PASSED, TIMEOUT
from repotrans.runs.store import TaskRecord

_ERROR_KIND = re.compile(r"([\w. -]{1,40}?)(?: at |:|\()")
_EXC_TYPE = re.compile(r"(?:SetUp : |TearDown : )?([\w.]+(?:Exception|Error))\b")


# Cause groups listed last: they say nothing against the candidate itself (report.md and report.html).
BLOCKED_GROUP = LABELS[BLOCKED]
LATE_GROUPS = (LABELS[PARTIAL], BLOCKED_GROUP, "no test ran")


@dataclass(frozen=True)
class Cause:
    group: str        # what failures are grouped under: "compile error CS0246", "assertion failed", ...
    line: str         # one line: the first real evidence


def cause_of(rec: TaskRecord) -> Cause:
    """The cause of a task that did not pass (a passed task gets `Cause("passed", "")`)."""
    if rec.status == PASSED:
        return Cause("passed", "")
    if rec.status == ERROR:
        text = (rec.error or "task error").strip().splitlines()[0]
        kind = _ERROR_KIND.match(text)
        return Cause(f"task error ({kind.group(1).strip() if kind else 'other'})", text)
    result = TestResult.from_json(rec.result) if rec.result else None
    if result is None:
        return Cause(_label(rec.status), "no test result was recorded")
    if rec.status == PARTIAL:           # passed on the tests that could run: its reason says how many, behind what
        return Cause(LABELS[PARTIAL], result.reason or "passed on the tests that could run")
    if rec.status == BLOCKED:
        members = [b.split(":", 1)[-1] for b in result.behind]
        if not members:          # held in a unit that did not pass (runs.rejudge): its reason
            return Cause(BLOCKED_GROUP, result.reason or "blocked")
        where = ", ".join(members[:3]) + (", ..." if len(members) > 3 else "")
        return Cause(BLOCKED_GROUP, f"{result.tests_failed or len(result.failures)} covering test(s) stop in "
                                    f"untranslated code: {where}")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if rec.status == "compile_error" and errors:
        return Cause(f"{LABELS[COMPILE_ERROR]} {errors[0].code or ''}".strip(), _diagnostic_line(errors[0]))
    real = [f for f in result.failures if not f.chains]
    if real:
        return _failure_cause(real[0], rec.status)
    if result.failures:             # every failure reached a placeholder, yet not the placeholders' alone
        members = reached_members(result)
        return Cause("leads into untranslated methods",
                     f"{len(result.failures)} test(s) reach untranslated code through the candidate itself "
                     f"(its Java original does not): {', '.join(members[:3]) or 'methods'}")
    if rec.status == TIMEOUT:
        return Cause(LABELS[TIMEOUT], result.reason or "timed out")
    if rec.status == NO_TESTS:
        return Cause(LABELS[NO_TESTS], result.reason or result.selection or "no selected test could run")
    return Cause(_label(rec.status), result.reason or rec.status)


def _label(status: str) -> str:
    """The status vocabulary's one name for a status (verdicts.status.LABELS), the same in every heading and
    table of the reports."""
    return LABELS.get(status, status.replace("_", " "))


def _diagnostic_line(d: Diagnostic) -> str:
    where = f"candidate line {d.candidate_line}" if d.candidate_line is not None else f"{d.file}:{d.line}"
    return f"{d.code or 'error'} at {where}: {d.message}"


def _failure_cause(f: TestFailure, status: str) -> Cause:
    test = f.name.rsplit(".", 1)[-1] if "(" not in f.name else f.name[:f.name.index("(")].rsplit(".", 1)[-1] \
        + f.name[f.name.index("("):]
    if f.expected is not None or f.actual is not None:
        return Cause("assertion failed", f"{test}: expected {f.expected}, actual {f.actual}")
    first = " ".join(f.message.split())
    m = _EXC_TYPE.match(first)
    group = f"exception {m.group(1).rsplit('.', 1)[-1]}" if m else _label(status)
    return Cause(group, f"{test}: {first[:200]}")


def reached_members(result: TestResult) -> list[str]:
    """The placeholders whose guards fired in the failing tests (the first frame of each recorded chain)."""
    found: dict[str, None] = {}
    for f in result.failures:
        for chain in f.chains:
            if chain.frames:
                found[chain.frames[0].split(" (", 1)[0].strip()] = None
    return list(found)
