"""A selected test known to fail on the untouched port is not run at all (judge.runner.without_known): whatever
it does beside a candidate decides nothing, and one that hangs (BCrypt.Net's work-factor-31 salt, killed by
NUnit after 120 s) cost its whole limit on every run of a batch's end. It is named in the verdict's left_out
with its cause, and so is each known test of a whole fixture the selection took; a test waiting for untranslated
code still runs. Real mcs builds and NUnit runs through the Runner's covering selection."""
from __future__ import annotations

import time

import pytest

from repotrans.execution.judge.runner import without_known
from tests.support.mono_repos import judged_port

CORE = {"Hasher.cs": """namespace Acme { public static class Hasher {
  public static int Rounds(int log) { return 1 << log; }
  public static int Spin(int log) { long n = 0; for (long i = 0; i < (1L << 62); i++) n += i % 7; return (int) n + log; }
} }"""}
TESTS = {"HasherTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class HasherTests {
    [Test] public void FourRounds() { Assert.AreEqual(16, Hasher.Rounds(4)); }
    [Test] public void OneRound() { Assert.AreEqual(1, Hasher.Rounds(0)); }
    [Test] public void MaxWorkFactor() { Assert.AreEqual(1, Hasher.Spin(Hasher.Rounds(31))); }    // hangs here
  }
}"""}
HANGS = "Acme.Tests.HasherTests.MaxWorkFactor"
KNOWN = ((f"T:{HANGS}", "an assertion (Test exceeded Timeout value of 120000ms)"),)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    yield from judged_port(tmp_path_factory.mktemp("known"), "local", CORE, TESTS)


@pytest.mark.slow
def test_a_known_failure_is_not_run_and_named_with_its_cause(env):
    index, runners = env
    rounds = next(m for m in index.all_methods("target") if m.name == "Rounds")
    started = time.monotonic()
    right = runners.run(index, rounds, "public static int Rounds(int log) { return 1 << log; }", known_failures=KNOWN)
    wrong = runners.run(index, rounds, "public static int Rounds(int log) { return log * 4; }", known_failures=KNOWN)
    seconds = time.monotonic() - started
    assert right.status == "passed" and right.tests_run == 2, (right.reason, right.failures)
    assert right.left_out == {f"T:{HANGS}": "fails on the untouched port: an assertion (Test exceeded Timeout value "
                                            "of 120000ms)"}
    assert right.reason == "judged on 2 of 3 tests; 1 fail in this environment before any change"
    assert "1 known to fail on the untouched port not run" in right.selection
    assert wrong.status == "test_failure" and HANGS not in {f.name for f in wrong.failures}
    assert seconds < 50, seconds          # the hanging test never ran: its own limit is 60 s


def test_a_whole_fixture_is_run_as_its_other_tests_and_waiting_tests_stay():
    fixtures = {"T:Acme.Tests.HasherTests": {"tests": {"FourRounds": [], "OneRound": [], "MaxWorkFactor": []}},
                "T:Acme.Tests.OtherTests": {"tests": {"Waits": []}}}
    known = {f"T:{HANGS}": "an assertion (Expected: 1)", ":Acme.Tests.OtherTests.Waits":
             "blocked by untranslated code (Acme.Hasher.Spin(int))"}
    kept, left = without_known(["T:Acme.Tests.HasherTests", "T:Acme.Tests.OtherTests.Waits"], fixtures, known)
    assert kept == ["T:Acme.Tests.HasherTests.FourRounds", "T:Acme.Tests.HasherTests.OneRound",
                    "T:Acme.Tests.OtherTests.Waits"]
    assert left == {f"T:{HANGS}": "fails on the untouched port: an assertion (Expected: 1)"}
    flips = {":" + HANGS: "flips on the untouched port (passed, then failed when run again in another order)"}
    assert without_known([f"T:{HANGS}"], fixtures, flips) == ([], {f"T:{HANGS}": flips[":" + HANGS]})
