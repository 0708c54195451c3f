"""Tests the suite says not to run are never run, named or not (fixture written for this test, compiled by mcs
and run by repotrans's NUnit runner for real): like the scheduler port's two database stress tests, marked
[Explicit] in a [Category("integration")] fixture, which NUnit ran whenever a selection named them and which
failed every member they reach. [Explicit] and [Ignore] on a test or its fixture, and an excluded category
(case aside, on the test or its fixture), leave a test out of a whole run and of a run that names it; each
is counted as left out with the attribute that leaves it out, read from the compiled assembly."""
from __future__ import annotations

import pytest

from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

FILES = core_and_tests(
    {"Scheduler.cs": """namespace Acme { public class Scheduler {
  public static int Jobs(int n) { return n + 1; } } }"""},
    {"SchedulerTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class SchedulerTests {
    [Test] public void Jobs() { Assert.AreEqual(3, Scheduler.Jobs(2)); }
    [Test, Explicit] public void ByHand() { Scheduler.Jobs(1); throw new System.ArgumentNullException("pair"); }
    [Test, Ignore("no database here")] public void Ignored() { Assert.Fail("ignored"); }
    [Test, Category("Manual")] public void Manual() { Assert.Fail("manual"); }
  }
  [TestFixture, Category("integration")] public class StoreTests {
    [Test, Explicit] public void Stress() { Scheduler.Jobs(1); throw new System.ArgumentNullException("pair"); }
    [Test] public void Store() { Scheduler.Jobs(1); Assert.Fail("needs a database"); }
  }
  [TestFixture, Explicit] public class MeasureTests {
    [TestCase(1)] public void Speed(int n) { Assert.AreEqual(0, Scheduler.Jobs(n)); }
  }
}"""})

LEFT_OUT = {
    "T:Acme.Tests.SchedulerTests.ByHand": "[Explicit]",
    "T:Acme.Tests.SchedulerTests.Ignored": '[Ignore("no database here")]',
    "T:Acme.Tests.SchedulerTests.Manual": '[Category("Manual")]',
    "T:Acme.Tests.StoreTests.Stress": "[Explicit]",
    "T:Acme.Tests.StoreTests.Store": '[Category("integration")] on Acme.Tests.StoreTests',
    "T:Acme.Tests.MeasureTests.Speed(1)": "[Explicit] on Acme.Tests.MeasureTests",
}


@pytest.mark.slow
def test_explicit_ignored_and_excluded_tests_are_left_out_even_when_named(tmp_path):
    needs_mono()
    named = ["T:Acme.Tests.SchedulerTests.Jobs", "T:Acme.Tests.SchedulerTests.ByHand",
             "T:Acme.Tests.SchedulerTests.Ignored", "T:Acme.Tests.SchedulerTests.Manual",
             "T:Acme.Tests.StoreTests.Stress", "T:Acme.Tests.StoreTests", "T:Acme.Tests.MeasureTests.Speed"]
    with judging(write_tree(tmp_path / "repo", FILES), tmp_path / "work") as judge:
        original = judge.original("src/Core/Scheduler.cs")
        whole = judge.run("src/Core/Scheduler.cs", original)
        by_name = judge.run("src/Core/Scheduler.cs", original, named)
        only_explicit = judge.run("src/Core/Scheduler.cs", original, ["T:Acme.Tests.StoreTests.Stress"])
    for verdict in (whole, by_name):
        assert (verdict.status, verdict.tests_run) == ("passed", 1), (verdict.reason, verdict.failures)
        assert verdict.excluded == LEFT_OUT
    assert only_explicit.status == "no_tests" and only_explicit.tests_run == 0, only_explicit.reason
    assert only_explicit.reason == ("every selected test is one the suite says not to run: 1 [Explicit] "
                                    "(Acme.Tests.StoreTests.Stress)")
    assert only_explicit.excluded == {"T:Acme.Tests.StoreTests.Stress": "[Explicit]"}
