"""A candidate judged on a partly translated tree: failures only inside methods that are still
placeholders say nothing against it. Such a run is `blocked` (batch, translate and run-tests alike)."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from repotrans.execution.results import TestResult
from repotrans.execution.status import BLOCKED, FAILED_TESTS, PASSED

PLACEHOLDER_EXCEPTION = "NotImplementedException"


def is_blocked(result: TestResult, code: str) -> bool:
    """The candidate compiled and every failing test fails in a method that is still a placeholder.

    In a partly translated class, a test of one method often calls others not translated yet; such a
    run says nothing against the candidate, so it is judged again once the rest is translated.
    """
    return (result.status in FAILED_TESTS and bool(result.failures)
            and PLACEHOLDER_EXCEPTION not in code
            and all(PLACEHOLDER_EXCEPTION in f.message for f in result.failures))


def blocking_methods(result: TestResult) -> list[str]:
    """The still-placeholder methods the failing tests stopped in (the top frame of each failure)."""
    found: dict[str, None] = {}
    for f in result.failures:
        if f.stack:
            found[f.stack[0].split(" (", 1)[0].split(" at ", 1)[0]] = None
    return list(found)


def as_blocked(result: TestResult, code: str) -> TestResult:
    """`result` unchanged, or, when blocked, a pass whose reason starts with "blocked:" so that the
    agents stop repairing a candidate nothing is known against."""
    if not is_blocked(result, code):
        return result
    where = blocking_methods(result)
    inside = f" ({', '.join(where[:3])}{', ...' if len(where) > 3 else ''})" if where else ""
    return replace(result, status=PASSED, reason=f"{BLOCKED}: {len(result.failures)} covering tests fail only "
                                                   f"in methods that are not translated yet{inside}")


def judging_blocked(run_test: Callable[[str], TestResult]) -> Callable[[str], TestResult]:
    """A test service that reports blocked runs as as_blocked does."""
    return lambda code: as_blocked(run_test(code), code)


def blocked_reason(result: dict | TestResult | None) -> str | None:
    """The reason of a result that as_blocked marked, else None."""
    reason = (result.reason if isinstance(result, TestResult) else (result or {}).get("reason", "")) or ""
    return reason if reason.startswith(BLOCKED) else None
