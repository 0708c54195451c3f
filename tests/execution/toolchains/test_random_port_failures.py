"""A failure the untouched port shows at random is not the candidate's (toolchains.mono_test.passed_again): a
candidate's failing test that threw the exception the untouched build threw in the same frame, in its own runs
beside the same tests, and that passes when the same tests run again with the candidate, is left out as
flipping; any other failure, or one that happens again, stays the candidate's. The processes are scripted here
(which test fails in which run); the rule's figure on NPOI is in the closing note (bench: 7 of 8 right bodies
blamed before)."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.toolchains import Limits, Verdict, environment
from repotrans.execution.toolchains import mono_test
from repotrans.execution.toolchains.mono_test import Area, fail_without_it, passed_again, signature
from repotrans.verdicts.results import TestFailure

HASH = "Port.Cache.AddInternal (Port.Entry[] arr, Port.Entry e) at src/Core/Cache.cs:99"
FLIPPING = Limits(timeout=60, memory_mb=512, known_failures=(("T:N.Other.Sometimes", f"{environment.FLIPS} (seen)"),))
NAMES = ["N.F.A", "N.F.B", "N.F.C"]


class Project:
    name = "T"


def failed(name: str, exception: str = "System.IndexOutOfRangeException", frame: str = HASH) -> TestFailure:
    return TestFailure(name=name, message=f"{exception} : Index was outside the bounds of the array.", stack=[frame])


def verdict(*failures: TestFailure) -> Verdict:
    v = Verdict("runtime_error" if failures else "passed", failures=list(failures))
    v.ran = {n: ("Error" if n in {f.name for f in failures} else "Success") for n in NAMES}
    return v


@pytest.fixture
def script(monkeypatch):
    """Scripted runs: `untouched` and `again` are lists of verdicts handed out in order; runs are counted."""
    state = {"untouched": [], "again": [], "runs": []}

    def untouched_run(ws, cand, projects, project, names, sandbox, limits, area):
        state["runs"].append("untouched")
        return state["untouched"].pop(0)

    def candidate_process(*args, **kwargs):
        state["runs"].append("candidate")
        return "outcome"

    def judge(outcome, nonce, names, limits, locate, leave_out=frozenset()):
        return state["again"].pop(0)

    monkeypatch.setattr(mono_test, "untouched_run", untouched_run)
    monkeypatch.setattr(mono_test, "candidate_process", candidate_process)
    monkeypatch.setattr(mono_test, "judge", judge)
    monkeypatch.setattr(mono_test, "locator", lambda ws, cand: None)
    return state


def blame(first: Verdict, limits: Limits = FLIPPING) -> dict[str, str]:
    beside, seen = fail_without_it(None, None, [], Project(), NAMES, first, {}, None, limits, Area())
    return {**beside, **passed_again(None, None, [], Project(), NAMES, {}, first, beside, seen, None, limits, 60.0,
                                     None, Area())}


def test_a_failure_the_untouched_port_throws_elsewhere_at_random_is_left_out_when_it_passes_again(script):
    """A fails with the port's hash failure; the untouched reruns pass A but fail B and C the same way: A runs
    again with the candidate and passes, so it is left out (not learned: not a FAILS_BESIDE fact)."""
    script["untouched"] = [verdict(failed("N.F.B")), verdict(failed("N.F.C"))]
    script["again"] = [verdict(failed("N.F.C"))]
    left = blame(verdict(failed("N.F.A")))
    assert list(left) == ["N.F.A"] and left["N.F.A"].startswith(environment.FLIPS)
    assert left["N.F.A"] != environment.FAILS_BESIDE and "AddInternal" in left["N.F.A"]
    assert script["runs"] == ["untouched", "untouched", "candidate"]


def test_a_failure_that_happens_again_with_the_candidate_stays_the_candidates(script):
    script["untouched"] = [verdict(failed("N.F.B")), verdict(failed("N.F.C"))]
    script["again"] = [verdict(failed("N.F.A"))]
    assert blame(verdict(failed("N.F.A"))) == {}


def test_any_other_failure_is_the_candidates_and_runs_nothing_again(script):
    """An assertion, the same exception thrown elsewhere (the candidate's line), or a port whose untouched runs
    never failed: no run with the candidate again."""
    for first in (failed("N.F.A", "NUnit.Framework.AssertionException"),
                  failed("N.F.A", frame="Port.Calc.Twice (int x) at src/Core/Calc.cs:3 (candidate line 1)")):
        script["untouched"] = [verdict(failed("N.F.B")), verdict(failed("N.F.C"))]
        script["runs"].clear()
        assert blame(verdict(first)) == {} and script["runs"] == ["untouched", "untouched"]
    script["untouched"] = [verdict(), verdict()]
    script["runs"].clear()
    assert blame(verdict(failed("N.F.A"))) == {} and script["runs"] == ["untouched", "untouched"]


def test_a_port_that_never_flipped_runs_nothing_again(script):
    assert blame(verdict(failed("N.F.A")), Limits(timeout=60, memory_mb=512)) == {} and script["runs"] == []


def test_a_signature_is_the_exception_and_the_frame_it_was_thrown_in():
    assert signature(failed("N.F.A")) == ("System.IndexOutOfRangeException", HASH)
    assert signature(TestFailure(name="x", message="Expected: 4 But was: 5", stack=[HASH])) is None
    assert signature(TestFailure(name="x", message="System.Exception : boom", stack=[])) is None
