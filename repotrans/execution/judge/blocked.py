"""A candidate judged on a partly translated tree: failures that stop only inside other members that are
still placeholders say nothing against it. Such a run is `blocked` (one status in the CLI, result.json,
results.sqlite and reports); batch judges it again once the rest is translated.

The evidence is the runner's own record of the call chain at each placeholder reached (execution.judge.chain:
every placeholder is compiled as a guard, and the runner records the whole chain itself, keyed by test),
never an exception, a message or the test framework's report.
"""
from __future__ import annotations

from dataclasses import replace

from repotrans.execution.judge.chain import (Members, Own, frame_member, in_member, java_calls, java_reaches,
                                             on_chain, stops_in_untranslated)
from repotrans.verdicts.results import TestResult
from repotrans.verdicts.status import BLOCKED, FAILED_TESTS, PARTIAL
from repotrans.index.model import Method

__all__ = ["blockers", "judge_blocked", "past_untranslated", "frame_member", "in_member",
           "java_calls", "java_reaches"]


def blockers(result: TestResult, index, method: Method, java: Method | None = None, code: str = "") -> list[Method]:
    """The placeholder members the failing tests stopped in, when that holds for every failure
    (chain.stops_in_untranslated, the candidate `method` being the translation judged: on a chain only where
    its Java original `java` reaches that placeholder, and `code`, its text, handing none on to port code
    beyond what `java` reaches); else []."""
    if result.status not in FAILED_TESTS or not result.failures:
        return []
    members, own = Members(index), [Own(method, java, code)]
    found: dict[str, Method] = {}
    for failure in result.failures:
        stopped = stops_in_untranslated(failure, index, own, members)
        if not stopped:
            return []
        found.update((m.id, m) for m in stopped)
    return list(found.values())


def judge_blocked(result: TestResult, index, method: Method, java: Method | None = None,
                  code: str = "") -> TestResult:
    """`result`, or the same evidence with status blocked when blockers() finds the placeholders."""
    found = blockers(result, index, method, java, code)
    if not found:
        return result
    names = [m.id.split(":", 1)[-1] for m in found]
    inside = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return replace(result, status=BLOCKED, behind=[m.id for m in found], reason=f"{len(result.failures)} covering test(s) fail only inside "
                                                  f"members that are not translated yet ({inside})")


def past_untranslated(result: TestResult, method: Method, staying: set[str]) -> TestResult:
    """A blocked verdict whose failing tests all stopped in placeholders that stay placeholders (`staying`:
    target member ids no candidate of this run can fill any more: their tasks ended without a pass, or
    they are no task), judged on the covering tests that could run: `partial` (never passed: a verdict that
    rests on left-out tests is its own status) when at least one of them passed and no failing test has the
    candidate's own member on its stack (it may have led the test there: the runner's record of its chains, and
    its stack); the stopped tests are left out, each named with why (left_out), and `behind` keeps the members
    it rests on. Anything else is returned as it is. Only a batch's last judgements may call it: earlier, a
    later level may still fill them."""
    if result.status != BLOCKED or not result.behind or not set(result.behind) <= staying:
        return result
    ran = result.tests_run - result.tests_failed
    if ran <= 0 or any(on_chain(f, method) or any(in_member(frame, method) for frame in f.stack)
                       for f in result.failures):
        return result
    names = sorted(b.split(":", 1)[-1] for b in set(result.behind))
    cause = "stops in " + ", ".join(names[:3]) + (", ..." if len(names) > 3 else "") + ", which this run leaves untranslated"
    return replace(result, status=PARTIAL, failures=[], tests_run=ran, tests_failed=0,
                   left_out={**result.left_out, **{f.name: cause for f in result.failures}},
                   reason=f"passed on the {ran} covering test(s) that could run; {len(result.failures)} left out: "
                          f"each {cause}")
