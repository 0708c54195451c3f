"""A failure the untouched port shows at random is not the candidate's (toolchains.mono_test.passed_again): a
candidate's failing test that threw the exception the untouched build threw in the same frame, in its own runs
beside the same tests or in its baseline, and that passes when its fixture's tests or the same tests run again
with the candidate (or fails the same way in its fixture's run without it), is left out as flipping; any other
failure, or one that happens again, stays the candidate's. The processes are scripted here
(which test fails in which run); the rule's figure on NPOI is in the closing note (bench: 7 of 8 right bodies
blamed before)."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.toolchains import Limits, Verdict, environment
from repotrans.execution.toolchains import mono_test
from repotrans.execution.toolchains.environment import signature
from repotrans.execution.toolchains.mono_test import Area, fail_without_it, passed_again
from repotrans.verdicts.results import TestFailure

HASH = "Port.Cache.AddInternal (Port.Entry[] arr, Port.Entry e) at src/Core/Cache.cs:99"
FLIPPING = Limits(timeout=60, memory_mb=512, known_failures=(("T:N.Other.Sometimes", f"{environment.FLIPS} (seen)"),))
KNOWN = Limits(timeout=60, memory_mb=512, known_failures=FLIPPING.known_failures,
               random_failures=(("T", "System.IndexOutOfRangeException", HASH),))
NAMES = ["N.F.A", "N.F.B", "N.F.C"]
TWO_FIXTURES = ["N.F.A", "N.F.B", "N.G.C", "N.G.D(1)"]


class Project:
    name = "T"


def failed(name: str, exception: str = "System.IndexOutOfRangeException", frame: str = HASH) -> TestFailure:
    return TestFailure(name=name, message=f"{exception} : Index was outside the bounds of the array.", stack=[frame])


def verdict(*failures: TestFailure, names: list[str] = NAMES) -> Verdict:
    v = Verdict("runtime_error" if failures else "passed", failures=list(failures))
    v.ran = {n: ("Error" if n in {f.name for f in failures} else "Success") for n in names}
    return v


@pytest.fixture
def script(monkeypatch):
    """Scripted runs: `untouched` and `again` are lists of verdicts handed out in order; runs are counted."""
    state = {"untouched": [], "again": [], "runs": [], "names": [], "heap": []}

    def untouched_run(ws, cand, projects, project, names, sandbox, limits, area):
        state["runs"].append("untouched")
        state["names"].append(list(names))
        return state["untouched"].pop(0)

    def candidate_process(ws, cand, projects, project, names, built, sandbox, limits, timeout, env, area, nonce):
        state["runs"].append("candidate")
        state["names"].append(list(names))
        state["heap"].append(env.get("MONO_GC_PARAMS", "").split(",", 1)[-1] if "nursery" in env.get(
            "MONO_GC_PARAMS", "") else "")
        return "outcome"

    def judge(outcome, nonce, names, limits, locate, leave_out=frozenset()):
        return state["again"].pop(0)

    monkeypatch.setattr(mono_test, "untouched_run", untouched_run)
    monkeypatch.setattr(mono_test, "candidate_process", candidate_process)
    monkeypatch.setattr(mono_test, "judge", judge)
    monkeypatch.setattr(mono_test, "locator", lambda ws, cand: None)
    return state


def blame(first: Verdict, limits: Limits = FLIPPING, names: list[str] = NAMES) -> dict[str, str]:
    beside, seen = fail_without_it(None, None, [], Project(), names, first, {}, None, limits, Area())
    return {**beside, **passed_again(None, None, [], Project(), names, {}, first, beside, seen, None, limits, 60.0,
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


def test_how_the_baseline_saw_its_flipping_tests_fail_counts_when_the_reruns_show_nothing(script):
    """The untouched reruns fail nothing this time; the baseline recorded the hash failure for this project (not
    another one's): A passes again and is left out."""
    script["untouched"] = [verdict(), verdict()]
    script["again"] = [verdict()]
    assert list(blame(verdict(failed("N.F.A")), KNOWN)) == ["N.F.A"]
    assert script["runs"] == ["candidate"]                 # known to be random: nothing runs untouched first
    script["untouched"] = [verdict(), verdict()]
    elsewhere = Limits(timeout=60, memory_mb=512, known_failures=FLIPPING.known_failures,
                       random_failures=(("U", "System.IndexOutOfRangeException", HASH),))
    assert blame(verdict(failed("N.F.A")), elsewhere) == {}


def test_a_failure_that_happens_again_with_the_candidate_stays_the_candidates(script):
    """A fails again alone ALONE_RUNS times, through the heap layouts, and in its fixture's run (here the whole
    run), which the untouched port passes: blamed. Passing in the second run alone: left out (whether the port's
    hash failure hits a test is drawn anew in each process)."""
    alone = mono_test.ALONE_RUNS
    script["untouched"] = [verdict(failed("N.F.B")), verdict(failed("N.F.C")), verdict()]
    script["again"] = [verdict(failed("N.F.A"), names=["N.F.A"])] * alone + [verdict(failed("N.F.A"))]
    assert blame(verdict(failed("N.F.A"))) == {}
    assert script["runs"] == ["untouched", "untouched"] + ["candidate"] * (alone + 1) + ["untouched"]
    assert script["heap"] == [mono_test.HEAP_LAYOUTS[n % 3] for n in range(alone)] + [""]
    assert len(set(script["heap"][:alone])) == 3 and script["names"][2:] == [["N.F.A"]] * alone + [NAMES, NAMES]
    script["untouched"] = [verdict(failed("N.F.B")), verdict(failed("N.F.C"))]
    script["again"] = [verdict(failed("N.F.A"), names=["N.F.A"]), verdict(names=["N.F.A"])]
    assert list(blame(verdict(failed("N.F.A")))) == ["N.F.A"]


def test_a_failure_known_to_be_random_runs_alone_in_another_heap_layout_first(script):
    """The baseline knows the hash failure: A runs alone with the candidate in another heap layout, passes and is
    left out; nothing else runs (no untouched run first)."""
    script["again"] = [verdict(names=["N.F.A"])]
    left = blame(verdict(failed("N.F.A"), names=TWO_FIXTURES), KNOWN, TWO_FIXTURES)
    assert list(left) == ["N.F.A"] and left["N.F.A"] != environment.FAILS_BESIDE
    assert script["runs"] == ["candidate"] and script["names"] == [["N.F.A"]] and script["heap"] == ["nursery-size=8m"]


def test_a_random_failure_again_in_its_fixture_is_the_ports_when_the_untouched_fixture_fails_it_too(script):
    """A fails again alone in both layouts and in its fixture's run (N.F, not N.G) with the candidate, and the same
    way in that run without it: the port's, left out. Had the untouched run passed it, the whole run goes again
    with the candidate, and A failing there too stays the candidate's."""
    runs = mono_test.ALONE_RUNS
    alone = [verdict(failed("N.F.A"), names=["N.F.A"])] * runs
    script["again"] = alone + [verdict(failed("N.F.A"), names=["N.F.A", "N.F.B"])]
    script["untouched"] = [verdict(failed("N.F.A"), names=["N.F.A", "N.F.B"])]
    assert blame(verdict(failed("N.F.A"), names=TWO_FIXTURES), KNOWN, TWO_FIXTURES) == {
        "N.F.A": environment.FAILS_BESIDE}
    assert script["runs"] == ["candidate"] * (runs + 1) + ["untouched"]
    assert script["names"][runs + 1] == ["N.F.A", "N.F.B"]
    script["runs"].clear()
    script["again"] = alone + [verdict(failed("N.F.A"), names=["N.F.A", "N.F.B"]),
                               verdict(failed("N.F.A"), names=TWO_FIXTURES)]
    script["untouched"] = [verdict(failed("N.F.A", frame="Port.Other.Place () at src/Core/Other.cs:4"),
                                   names=["N.F.A", "N.F.B"])]
    assert blame(verdict(failed("N.F.A"), names=TWO_FIXTURES), KNOWN, TWO_FIXTURES) == {}
    assert script["runs"] == ["candidate"] * (runs + 1) + ["untouched", "candidate"]


def test_a_fixture_is_what_its_tests_are_named_under():
    """Selected fixtures and methods in the fixtures of the tests that failed, cases and parameterised names too;
    the whole selection when nothing is nearer."""
    from repotrans.execution.toolchains.mono_test import fixtures_of
    assert fixtures_of(TWO_FIXTURES, ["N.G.D(1)"]) == ["N.G.C", "N.G.D(1)"]
    assert fixtures_of(["N.F", "N.G.C"], ["N.F.A"]) == ["N.F"]
    assert fixtures_of(["N.H.X"], ["N.F.A"]) == ["N.H.X"]
    assert fixtures_of(["N.F(1).A", "N.F(2).A", "N.F.T"], ["N.F(1).A"]) == ["N.F(1).A"]
    assert fixtures_of(["N.F.T", "N.F.U(0.5)", "N.G.T"], ["N.F.T(1.5, (2))"]) == ["N.F.T", "N.F.U(0.5)"]


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


@pytest.mark.slow
def test_a_baseline_keeps_how_its_flipping_tests_failed_and_hands_it_to_the_judge(tmp_path):
    """For real (mcs, repotrans's NUnit runner): D_AlsoFirst throws from the port's Registry.Add whenever another
    test added first (it flips: the baseline's reverse-order run passes it); E_Broken fails every time (not a
    flip). The baseline keeps D's exception and frame, and its limits give them to the runs of that project."""
    from repotrans.execution.judge.baseline import BaselineCache, port_baseline
    from repotrans.execution.judge.runner import Runner
    from repotrans.execution.settings import ExecutionConfig
    from tests.support.mono_repos import core_and_tests, needs_mono, write_tree

    needs_mono()
    files = core_and_tests(
        {"Registry.cs": """namespace Acme { public static class Registry {
  static int jobs;
  public static int Add() {
    if (++jobs != 1) throw new System.InvalidOperationException("added twice");
    return jobs; } } }"""},
        {"RegistryTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class RegistryTests {
    [Test] public void A_First() { Assert.AreEqual(1, Registry.Add()); }
    [Test] public void D_AlsoFirst() { Assert.AreEqual(1, Registry.Add()); }
    [Test] public void E_Broken() { Assert.AreEqual(5, 4); } } }"""})
    repo = write_tree(tmp_path / "repo", files)
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "work") as runner:
        base = port_baseline(runner, repo, BaselineCache.under(tmp_path / "cache"), 300.0)
    random = base.assemblies["T"].random
    assert [kind for kind, _ in random] == ["System.InvalidOperationException"], random
    assert random[0][1].startswith("Acme.Registry.Add ()") and "src/Core/Registry.cs:" in random[0][1], random
    assert base.limits(FLIPPING).random_failures == (("T", *random[0]),)


def test_how_the_untouched_build_failed_beside_a_candidate_is_learned_by_the_runner_and_the_baseline(tmp_path):
    """A fact of the untouched build (its reruns beside a candidate's tests), never of the candidate's process:
    kept for the runner's later judgements and in the baseline (its cache: later runs of the port)."""
    from repotrans.execution.judge.baseline import AssemblyBaseline, PortBaseline
    from repotrans.execution.judge.runner import Runner
    from repotrans.execution.settings import ExecutionConfig

    with Runner(ExecutionConfig(sandbox="local"), tmp_path) as runner:
        runner.untouched = PortBaseline({"T": AssemblyBaseline("T", "k")})
        runner.learn_untouched({}, {("T", "System.IndexOutOfRangeException", HASH)})
        runner.learn_untouched({}, {("T", "System.IndexOutOfRangeException", HASH)})
        assert runner.limits.random_failures == (("T", "System.IndexOutOfRangeException", HASH),)
        assert runner.untouched.assemblies["T"].random == [["System.IndexOutOfRangeException", HASH]]


def test_mono_takes_each_heap_layout_a_rerun_uses(tmp_path):
    """For real (mcs, mono): each of HEAP_LAYOUTS, added to the judge's own GC settings, is taken without mono's
    warning (a value it rejects is replaced by its default silently but for the warning: the rerun would be in the
    layout it already failed in)."""
    import subprocess
    from tests.support.mono_repos import needs_mono

    needs_mono()
    (tmp_path / "h.cs").write_text("class P { static void Main() { System.Console.Write(new object().GetHashCode()); } }")
    subprocess.run(["mcs", "-nologo", "h.cs"], cwd=tmp_path, check=True, capture_output=True)
    base = mono_test.mono_env(512)["MONO_GC_PARAMS"]
    for layout in (*mono_test.HEAP_LAYOUTS, "nursery-size=3m"):
        done = subprocess.run(["mono", "h.exe"], cwd=tmp_path, capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "MONO_GC_PARAMS": f"{base},{layout}" if layout else base})
        assert done.returncode == 0 and done.stdout.lstrip("-").isdigit()
        assert ("Warning" in done.stderr) == (layout == "nursery-size=3m"), (layout, done.stderr)


def test_a_random_kind_the_failing_test_rethrew_is_a_suspect_that_must_pass_again(script):
    """The test's own fixture rethrew the port's random exception (`throw e;` shows the test's line, not
    AddInternal's): decided as a known random failure (no untouched run first), left out when it passes alone
    with the candidate, the candidate's when it fails again everywhere. Another fixture's frame, or another
    kind, is the candidate's at once."""
    own = "N.F.A () at tests/F.cs:122"
    script["again"] = [verdict(names=["N.F.A"])]
    left = blame(verdict(failed("N.F.A", frame=own), names=TWO_FIXTURES), KNOWN, TWO_FIXTURES)
    assert list(left) == ["N.F.A"] and "N.F.A rethrew System.IndexOutOfRangeException" in left["N.F.A"]
    assert script["runs"] == ["candidate"]
    script["runs"].clear()
    script["again"] = [verdict(failed("N.F.A", frame=own), names=["N.F.A"])] * mono_test.ALONE_RUNS + [
        verdict(failed("N.F.A", frame=own), names=["N.F.A", "N.F.B"]),
        verdict(failed("N.F.A", frame=own), names=TWO_FIXTURES)]
    script["untouched"] = [verdict(names=["N.F.A", "N.F.B"])]
    assert blame(verdict(failed("N.F.A", frame=own), names=TWO_FIXTURES), KNOWN, TWO_FIXTURES) == {}
    assert script["runs"] == ["candidate"] * (mono_test.ALONE_RUNS + 1) + ["untouched", "candidate"]
    for first in (failed("N.F.A", frame="N.G.Helper () at tests/G.cs:9"),
                  failed("N.F.A", "System.NullReferenceException", frame=own)):
        script["runs"].clear()
        script["untouched"] = [verdict(names=TWO_FIXTURES)] * 2
        assert blame(verdict(first, names=TWO_FIXTURES), KNOWN, TWO_FIXTURES) == {}
        assert script["runs"] == ["untouched", "untouched"]
