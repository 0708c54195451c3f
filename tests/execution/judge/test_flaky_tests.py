"""Flaky tests are facts, not verdicts (fixture written for this test, compiled by mcs and run by repotrans's
NUnit runner for real): like the scheduler port's serialization and interruptible-job tests, which failed now
and then on the untouched port and then failed a whole-suite check and a correct pass. The untouched port's
baseline runs every failing test again, with a sample of the passing ones, every suite in the reverse order;
a test whose outcome flips (here: tests that share a registry, so the order decides, and cases that fail every
other call) is recorded as flaky, and
left out of every verdict whether it passes or fails; a test that fails both times stays a known failure."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.judge.untouched import known_failures
from repotrans.execution.settings import ExecutionConfig
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

FILES = core_and_tests(
    {"Registry.cs": """namespace Acme { public static class Registry {
  static int jobs;
  public static int Add() { return ++jobs; }
  public static int Twice(int x) { return 2 * x; } } }"""},
    {"RegistryTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class RegistryTests {
    [Test] public void A_First() { Assert.AreEqual(1, Registry.Add()); }
    [Test] public void C_Stable() { Assert.AreEqual(4, Registry.Twice(2)); }
    [Test] public void D_AlsoFirst() { Assert.AreEqual(1, Registry.Add()); }
    [Test] public void E_Broken() { Assert.AreEqual(5, Registry.Twice(2)); }
    static int calls;     // fails every other call: a case's outcome depends on how often the others ran
    [TestCase("a")] [TestCase("b")] public void EveryOther(string s) { calls++; Assert.AreEqual(0, calls % 2, s); }
  }
}"""})
FLAKY_PASS = "flips on the untouched port (passed, then failed when run again in another order)"
FLAKY_FAIL = "flips on the untouched port (failed, then passed when run again in another order)"


@pytest.mark.slow
def test_a_test_whose_outcome_flips_on_the_untouched_port_decides_no_verdict(tmp_path):
    needs_mono()
    repo = write_tree(tmp_path / "repo", FILES)
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "known") as runner:
        known = known_failures(runner, repo, timeout=300)
    assert known == {"T:Acme.Tests.RegistryTests.A_First": FLAKY_PASS,
                     "T:Acme.Tests.RegistryTests.D_AlsoFirst": FLAKY_FAIL,
                     "T:Acme.Tests.RegistryTests.E_Broken": "an assertion (Expected: 5)",
                     'T:Acme.Tests.RegistryTests.EveryOther("a")': FLAKY_FAIL,
                     'T:Acme.Tests.RegistryTests.EveryOther("b")': FLAKY_PASS}, known
    rel = "src/Core/Registry.cs"
    with judging(repo, tmp_path / "work") as judge:
        judge.limits = replace(judge.limits, known_failures=tuple(known.items()))
        original = judge.run(rel, judge.original(rel))
        wrong = judge.run(rel, judge.original(rel).replace("return 2 * x;", "return x + 3;"))
    assert (original.status, original.tests_run) == ("passed", 1), (original.reason, original.failures)
    assert original.left_out == {k: ("fails on the untouched port: " + v if "flips" not in v else v)
                                 for k, v in known.items()}
    assert original.reason == ("judged on 1 of 6 tests; 1 fail in this environment before any change, "
                               "4 flip on the untouched port (flaky)")
    assert wrong.status == "test_failure" and [f.name for f in wrong.failures] == ["Acme.Tests.RegistryTests.C_Stable"]
