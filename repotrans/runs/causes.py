"""Why a task did not pass, in one line: the first real assertion (expected vs actual), compiler error
or exception, and the cause it is grouped under. Shared by the batch's closing summary and report.html.

A failure inside a method that is still a placeholder (`NotImplementedException`) is not the real
bug: the first failure elsewhere is. For a blocked task the line names the still-untranslated member
the tests stopped in, looked up past the test's own frames and type initializers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from repotrans.execution.judge.blocked import PLACEHOLDER_EXCEPTION
from repotrans.verdicts.results import Diagnostic, TestFailure, TestResult
from repotrans.verdicts.status import BLOCKED, ERROR, PASSED
from repotrans.runs.store import TaskRecord

_TYPE_INIT = re.compile(r"type initializer for '([^']+)'")
_ERROR_KIND = re.compile(r"([\w. -]{1,40}?)(?: at |:|\()")
_EXC_TYPE = re.compile(r"(?:SetUp : |TearDown : )?([\w.]+(?:Exception|Error))\b")


# Cause groups listed last: they say nothing against the candidate itself (report.md and report.html).
LATE_GROUPS = ("blocked by untranslated methods", "fails in untranslated methods", "no test ran")


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
        return Cause(rec.status.replace("_", " "), "no test result was recorded")
    if rec.status == BLOCKED:
        if not result.failures:          # held in a unit that did not pass (runs.rejudge): its reason
            return Cause("blocked by untranslated methods", result.reason or "blocked")
        # the members named by the runtime frames (judge.blocked), else read from the failures
        members = [b.split(":", 1)[-1] for b in result.behind] or \
            blocking_members(result, own=rec.task_id.split("(", 1)[0])
        where = ", ".join(members[:3]) + (", ..." if len(members) > 3 else "")
        return Cause("blocked by untranslated methods",
                     f"{result.tests_failed or len(result.failures)} covering test(s) stop in untranslated code: "
                     f"{where or 'methods'}")
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if rec.status == "compile_error" and errors:
        return Cause(f"compile error {errors[0].code or ''}".strip(), _diagnostic_line(errors[0]))
    real = [f for f in result.failures if PLACEHOLDER_EXCEPTION not in f.message]
    if real:
        return _failure_cause(real[0], rec.status)
    if result.failures:             # every failure is in a placeholder, yet not judged blocked
        members = blocking_members(result)
        return Cause("fails in untranslated methods",
                     f"{len(result.failures)} test(s) stop in untranslated code: {', '.join(members[:3]) or 'methods'}")
    if rec.status == "timeout":
        return Cause("timeout", result.reason or "timed out")
    if rec.status == "no_tests":
        return Cause("no test ran", result.reason or result.selection or "no selected test could run")
    return Cause(rec.status.replace("_", " "), result.reason or rec.status)


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
    group = f"exception {m.group(1).rsplit('.', 1)[-1]}" if m else status.replace("_", " ")
    return Cause(group, f"{test}: {first[:200]}")


def blocking_members(result: TestResult, own: str | None = None) -> list[str]:
    """The still-untranslated members the failing tests stopped in, nearest first.

    The top frame is the member when it lies outside the test's own fixture; a type initializer that
    failed is named as `Type (static initializer)`; a test whose top frame is itself (the JIT inlined
    the placeholder) is named `a callee of Test (file:line)`; so is the task's `own` member (its
    translation is in place: what throws is a placeholder it calls)."""
    found: dict[str, None] = {}
    for f in result.failures:
        member = _blocker(f)
        found[f"a callee of {member}" if member == own else member] = None
    return list(found)


def _blocker(f: TestFailure) -> str:
    init = _TYPE_INIT.search(f.message)
    if init:
        return f"{init.group(1)} (static initializer)"
    fixture = f.name.split("(", 1)[0].rsplit(".", 1)[0]
    for frame in f.stack:
        member = frame.split(" (", 1)[0].split(" at ", 1)[0].strip()
        if not member.startswith(fixture + "."):
            return member
    if f.stack:
        frame = f.stack[0]
        where = frame.rsplit(" at ", 1)[-1] if " at " in frame else ""
        test = frame.split(" (", 1)[0].strip()
        return f"a callee of {test}" + (f" ({where})" if where else "")
    return "an untranslated method"
