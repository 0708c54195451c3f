"""The whole-suite check at the end of a batch, worded by what it found.

`summarize(result)` keeps what the line needs from the whole-suite TestResult (how many tests pass,
which failures lie in still-untranslated members); `whole_suite_line(together)` words it, for the
console and report.html alike.
"""
from __future__ import annotations

from typing import Callable

from repotrans.execution.toolchains.api import FLIPS
from repotrans.verdicts.results import TestFailure, TestResult
from repotrans.execution.workspace.selection import TRANSLATED_CATEGORY
from repotrans.runs.causes import cause_of
from repotrans.runs.store import TaskRecord


def summarize(result: TestResult, in_placeholder: Callable[[TestFailure], list[str]]) -> dict:
    """status, tests_run, tests_failed, and the failures split into untranslated members vs elsewhere, by
    `in_placeholder` (a failure -> the placeholder members it stopped in: batch_end.combined_check passes
    judge.chain's answer, from the runner's own record of the call chain)."""
    found = [(f, in_placeholder(f)) for f in result.failures]
    inside = [f for f, where in found if where]
    members = list(dict.fromkeys(m for _, where in found for m in where))
    elsewhere = [f for f in result.failures if f not in inside]
    errors = [d for d in result.diagnostics if d.severity == "error"]
    first = (cause_of(TaskRecord(config="", dataset="", task_id="", status=result.status, result=result.to_json()))
             .line if result.status != "passed" else "")
    return {"status": result.status, "tests_run": result.tests_run, "tests_failed": result.tests_failed,
            "in_untranslated": len(inside),
            "untranslated": members,
            "elsewhere": [f"{f.name}: {' '.join(f.message.split())[:160]}" for f in elsewhere[:5]],
            "elsewhere_count": len(elsewhere), "compile_errors": len(errors), "first": first,
            "reason": result.reason,
            "flaky": sorted(name.split(":", 1)[-1] for name, why in result.left_out.items() if FLIPS in why)}


def translated_part(result: TestResult, fixtures: set[str]) -> dict:
    """How much of a whole-suite run is translated tests: the fixtures repotrans translated from JUnit
    (qualified C# names) and the failures inside them, so the line never passes them off as the port's."""
    failed = [f for f in result.failures if any(f.name == x or f.name.startswith(x + ".") for x in fixtures)]
    return {"translated_fixtures": len(fixtures), "translated_failures": len(failed)}


def translated_fixtures(index) -> set[str]:
    """Qualified names of the target's test classes marked [Category("RepotransTranslated")]."""
    return {t.qualified_name for t in index.types("target")
            if any("Category" in a and f'"{TRANSLATED_CATEGORY}"' in a for a in t.annotations)}


def whole_suite_line(together: dict) -> str:
    line = _whole_suite_line(together)
    flaky = together.get("flaky") or []
    if flaky:       # left out of the check, passing or failing: their outcome flips on the untouched port
        line += (f" ({len(flaky)} flaky test{'s' * (len(flaky) != 1)} left out, flipping on the untouched port: "
                 f"{', '.join(flaky[:3])}{', ...' if len(flaky) > 3 else ''})")
    n, failed = together.get("translated_fixtures", 0), together.get("translated_failures", 0)
    if together and n:
        line += (f" (including {n} fixture{'s' * (n != 1)} translated from JUnit"
                 + (f", {failed} of the failures in them" if failed else "") + ")")
    return line


def _whole_suite_line(together: dict) -> str:
    """One line: "whole suite with translations: 192/214 pass; the 22 failures are all in the 2
    untranslated methods (A, B)"."""
    if not together:
        return "whole suite: not run (no translation passed)"
    status = together.get("status")
    run, failed = together.get("tests_run", 0), together.get("tests_failed", 0)
    n = together.get("inputs")
    head = ("whole suite with translations: " if n is None else
            f"whole suite with {n} passing translation{'s' * (n != 1)} (and nothing else): ")
    if status == "compile_error":
        return head + f"does not build ({together.get('first') or together.get('reason') or 'compile error'})"
    if status in ("timeout", "no_tests") or not run:
        return head + f"{status.replace('_', ' ')}" + (f" ({together['reason']})" if together.get("reason") else "")
    line = head + f"{run - failed}/{run} pass"
    if not failed:
        return line
    inside, members = together.get("in_untranslated"), together.get("untranslated") or []
    if inside is None:                    # a summary written before this split was recorded
        return line + f"; {failed} fail"
    named = f" ({', '.join(members[:4])}{', ...' if len(members) > 4 else ''})" if members else ""
    if inside >= failed:
        n = len(members)
        return line + (f"; the {failed} failures are all in the {n} untranslated method{'s' * (n != 1)}{named}"
                       if failed > 1 else f"; the failure is in the untranslated {members[0] if members else 'method'}")
    if inside:
        return line + (f"; {inside} of the {failed} failures are in untranslated methods{named}, "
                       f"{failed - inside} elsewhere (first: {(together.get('elsewhere') or ['?'])[0]})")
    return line + f"; {failed} fail outside untranslated methods (first: {(together.get('elsewhere') or ['?'])[0]})"
