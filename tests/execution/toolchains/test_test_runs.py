"""Runs that fit the judge's limits (toolchains.test_runs): kill limits from the baseline's measured seconds,
selections packed into runs under the cap, the nearest fixture first, fail fast; and, for real (mcs and
repotrans's NUnit runner), a failure ending the run at the first failing run, and inside one process at the first
failing test, and a selection too big for one process's memory split until each part fits, still judged passed."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.nunit import RunnerReport, check_runner
from repotrans.execution.toolchains.test_runs import (KILL_CAP, STARTUP_SECONDS, Measured, TestRun, capped, halves,
                                                      kill_limit, plan_runs, run_all)
from repotrans.execution.workspace.selection import scaled_limit
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree


def test_a_kill_limit_comes_from_the_measured_seconds_not_the_count_of_tests():
    """3,363 quick tests (0.01 s each, 33.6 s together) were given 33,630 s by their count; measured,
    their run gets three times its time plus the start-up; a hung run costs minutes at most."""
    assert scaled_limit(60.0, 1, 3363) == 33630.0                 # the count-based limit, as it was
    assert kill_limit(33.63, 60.0) == pytest.approx(3 * 33.63 + STARTUP_SECONDS)
    assert kill_limit(0.5, 60.0) == 60.0                           # never below the configured seconds
    assert kill_limit(5000.0, 60.0) == KILL_CAP                    # never beyond the cap
    assert kill_limit(5000.0, 600.0) == 600.0                      # unless the user asked for more
    assert capped(33630.0, 60.0) == KILL_CAP


def test_runs_keep_fixtures_whole_start_with_the_nearest_and_fit_under_the_cap():
    measured = Measured.of({"N.Near.A": 1.0, "N.Near.B": 1.0, "N.Mid.C": 20.0, "N.Mid.D(1)": 20.0,
                            "N.Mid.D(2)": 20.0, "N.Far.E": 30.0})
    names = ["N.Near.A", "N.Near.B", "N.Mid", "N.Far.E"]          # nearest first (the selection's order)
    runs = plan_runs(names, measured, base=10.0, cap=100.0)      # (100 - 10) / 3 = 30 measured seconds per run
    assert [r.names for r in runs] == [("N.Near.A", "N.Near.B"), ("N.Mid.C",), ("N.Mid.D",), ("N.Far.E",)]
    assert [r.timeout for r in runs] == [16.0, 70.0, 100.0, 100.0]   # 3 x measured + 10, capped
    assert plan_runs(["N.Near.A", "N.Near.B"], measured, base=10.0) == [TestRun(("N.Near.A", "N.Near.B"), 16.0, 2.0)]
    assert plan_runs(names, Measured(), base=10.0) == [TestRun(tuple(names))]     # nothing measured: as before


def test_a_fixture_is_measured_however_deep_the_runner_names_its_inherited_tests():
    """NUnit 2.6 names a test a fixture inherits "Ns.Fixture.Base.Test" (NPOI: 29 of a core member's selected
    fixtures); they were unmeasured, each planned as a start-up's 10 s, and a selection of 15 measured seconds
    came out as eight runs."""
    measured = Measured.of({"N.Shift.BaseShift.A": 2.0, "N.Shift.BaseShift.B(1)": 1.0, "N.Shift.BaseShift.B(2)": 1.0})
    assert measured.of_name("N.Shift") == 4.0 and measured.of_name("N.Shift.BaseShift.B") == 2.0
    assert measured.parts("N.Shift") == ["N.Shift.BaseShift.A", "N.Shift.BaseShift.B"]   # split along its methods


def test_what_follows_the_nearest_fixture_is_planned_in_one_run_per_process_of_equal_seconds():
    """Two processes: after the nearest fixture alone, the rest in runs of about half its measured seconds
    each (fixtures whole, nearest first); below PROBE_SECONDS nothing is split for them."""
    measured = Measured.of({"N.Near.A": 1.0, **{f"N.F{k}.T": 2.0 for k in range(8)}})
    names = ["N.Near.A", *[f"N.F{k}" for k in range(8)]]
    one = plan_runs(names, measured, base=60.0, cap=180.0)
    two = plan_runs(names, measured, base=60.0, cap=180.0, processes=2)
    assert [r.names for r in one] == [("N.Near.A",), tuple(names[1:])]
    assert [r.names for r in two] == [("N.Near.A",), tuple(names[1:5]), tuple(names[5:])]
    assert [r.measured for r in two] == [1.0, 8.0, 8.0]
    small = Measured.of({"N.Near.A": 1.0, "N.F0.T": 2.5, "N.F1.T": 2.5})    # 5 s after the nearest
    assert len(plan_runs(["N.Near.A", "N.F0", "N.F1"], small, base=60.0, processes=2)) == 2


def test_fail_fast_stops_at_the_first_run_that_fails_and_a_memory_stop_splits_the_run():
    seen = []

    def one(run):
        seen.append(run.names)
        return ("oom" if len(run.names) > 2 else "fail" if "bad" in run.names else "ok"), len(run.names) > 2

    runs = [TestRun(("a", "b", "c", "d")), TestRun(("bad",)), TestRun(("z",))]
    done, cut = run_all(runs, one, lambda v: v == "ok", lambda r: halves(r, 10.0, Measured()))
    assert seen == [("a", "b", "c", "d"), ("a", "b"), ("c", "d"), ("bad",)] and done == ["ok", "ok", "fail"] and cut
    assert halves(TestRun(("only",)), 10.0, Measured()) == []   # one test out of memory alone: its own verdict


FILES = core_and_tests(
    {"Calc.cs": "namespace Acme { public static class Calc { public static int Twice(int x) { return %s; } } }"},
    {"NearTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class Near { [Test] public void Doubles() { Assert.AreEqual(6, Calc.Twice(3)); } }
  [TestFixture] public class Far {
    [Test] public void DoublesLater() { System.Threading.Thread.Sleep(300); Assert.AreEqual(4, Calc.Twice(2)); } }
  [TestFixture] public class Heap {
    static readonly System.Collections.Generic.List<byte[]> Kept = new System.Collections.Generic.List<byte[]>();
    static void Keep() { var a = new byte[250 * 1024 * 1024]; a[a.Length - 1] = 1; Kept.Add(a); Assert.AreEqual(8, Calc.Twice(4)); }
    [Test] public void H1() { Keep(); } [Test] public void H2() { Keep(); }
    [Test] public void H3() { Keep(); } [Test] public void H4() { Keep(); } }
}"""})
MEASURED = {"T": {"Acme.Tests.Near.Doubles": 0.01, "Acme.Tests.Far.DoublesLater": 6.0}}


@pytest.mark.slow
def test_a_failure_ends_the_run_at_the_first_failing_run_a_pass_runs_every_test(tmp_path):
    """Measured: Near alone first, then Far; a failure in Near ends the selection. Nothing measured, one process
    runs both (NUnit's order: Far, then Near): failing fast where the verdict alone counts (a placeholder's), it
    starts nothing after Far.DoublesLater fails (STOPPED); a candidate failing fast keeps its run's failures (the
    repair reads them)."""
    needs_mono()
    repo = write_tree(tmp_path / "repo", {k: v % "x * 2" if k.endswith("Calc.cs") else v for k, v in FILES.items()})
    selection = ["T:Acme.Tests.Near", "T:Acme.Tests.Far"]
    limits = Limits(timeout=60, memory_mb=1024, test_seconds=MEASURED, fail_fast=True)
    with judging(repo, tmp_path / "work", limits) as judge:
        wrong = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 2", selection)
        right = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", selection)
        judge.limits = replace(limits, fail_fast=False)
        every = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 2", selection)
        judge.limits = replace(limits, test_seconds={}, verdict_only=True)
        stopped = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 1", selection)
        judge.limits = replace(limits, test_seconds={})
        candidate = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 1", selection)
    assert (stopped.status, stopped.tests_run, stopped.cut_short) == ("test_failure", 1, True), stopped.reason
    assert [f.name for f in stopped.failures] == ["Acme.Tests.Far.DoublesLater"]
    assert (candidate.status, candidate.tests_run, candidate.tests_failed) == ("test_failure", 2, 2)
    assert wrong.status == "test_failure" and wrong.tests_run == 1 and wrong.cut_short, (wrong.status, wrong.reason)
    assert right.status == "passed" and right.tests_run == 2 and not right.cut_short, (right.status, right.reason)
    assert set(right.seconds) == {"T:Acme.Tests.Near.Doubles", "T:Acme.Tests.Far.DoublesLater"}
    assert right.seconds["T:Acme.Tests.Far.DoublesLater"] >= 0.25             # measured by the runner
    assert every.status == "test_failure" and every.tests_run == 2 and not every.cut_short   # x + 2 passes Far


@pytest.mark.slow
def test_a_selection_too_big_for_one_processs_memory_is_split_and_still_judged_passed(tmp_path):
    """Four tests keeping 250 MB each: under a 1 GB limit (a 614 MB heap) one process runs out of memory at
    the third; two runs of two fit, and the verdict is the tests' own: passed, all four run."""
    needs_mono()
    repo = write_tree(tmp_path / "repo", {k: v % "x * 2" if k.endswith("Calc.cs") else v for k, v in FILES.items()})
    heap = [f"T:Acme.Tests.Heap.H{n}" for n in range(1, 5)]
    with judging(repo, tmp_path / "work", Limits(timeout=60, memory_mb=1024)) as judge:
        result = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", heap)
        single = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", heap[:1])
    assert result.status == "passed" and result.tests_run == 4, (result.status, result.reason)
    assert single.status == "passed"



def test_a_report_with_tests_missing_is_whole_only_when_it_stopped_after_a_failure():
    """STOPPED (nonce-tagged: only the runner writes it) excuses the planned tests after the first failure; a
    report that says it stopped with no failing test, or names a test it did not plan, is no verdict."""
    planned = [("Runnable", "N.F.A"), ("Runnable", "N.F.B")]

    def report(states, stopped=True, extra=()):
        tests = [(state, name, "", "") for state, name in states] + [("Success", n, "", "") for n in extra]
        return RunnerReport(planned=planned, tests=tests, started=2, ended=len(tests), stopped=stopped)

    assert check_runner(report([("Failure", "N.F.A")]), None) == ("", "")
    assert check_runner(report([("Failure", "N.F.A")], stopped=False), None)[0] == "runtime_error"
    assert check_runner(report([("Success", "N.F.A")]), None)[0] == "runtime_error"
    assert check_runner(report([("Error", "N.F.A")], extra=["N.G.X"]), None)[0] == "runtime_error"
