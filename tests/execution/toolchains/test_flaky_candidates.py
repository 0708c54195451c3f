"""A candidate is blamed only for what the port without it does not do (toolchains.mono_test.fail_without_it):
on a port whose baseline saw tests flip, a failing run's tests run again on the untouched build, beside the same
tests; those failing there too are left out as flipping. Real mcs and repotrans's NUnit runner."""
from __future__ import annotations

import base64
from dataclasses import replace

import pytest

from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.environment import FAILS_BESIDE, FLIPS
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

FILES = core_and_tests(
    {"Calc.cs": "namespace Acme { public static class Calc { public static int Twice(int x) { return %s; } } }"},
    {"OrderTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  public static class Seen { public static int Tests; }
  [TestFixture] public class Order {
    [SetUp] public void Count() { Seen.Tests++; }
    [Test] public void A_Doubles() { Assert.AreEqual(6, Calc.Twice(3)); }
    [Test] public void B_AloneOnly() { Assert.AreEqual(1, Seen.Tests, "another test ran first in this process"); }
    [Test] public void C_DoublesTwo() { Assert.AreEqual(4, Calc.Twice(2)); }
  }
}"""})
FLAKY_PORT = (("T:Acme.Tests.Elsewhere.Sometimes", f"{FLIPS} (failed in a ground-truth run, then passed)"),)


@pytest.mark.slow
def test_a_failure_the_untouched_port_shows_beside_the_same_tests_is_not_the_candidates(tmp_path):
    """B_AloneOnly fails whenever another test ran before it in the process, with or without the candidate (as
    NPOI's formula tests fail beside others). On a port known to flip, the right body passes with B left out;
    a wrong body still fails, on C_DoublesTwo, which the untouched port passes. On a port that never flipped,
    nothing runs again: the right body's run fails on B."""
    needs_mono()
    repo = write_tree(tmp_path / "repo", {k: v % "x * 2" if k.endswith("Calc.cs") else v for k, v in FILES.items()})
    selection = ["T:Acme.Tests.Order"]
    limits = Limits(timeout=60, memory_mb=1024, fail_fast=True, known_failures=FLAKY_PORT)
    with judging(repo, tmp_path / "work", limits) as judge:
        right = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", selection)
        wrong = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 1", selection)
        judge.limits = replace(limits, known_failures=())
        steady = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", selection)
    assert (right.status, right.tests_run) == ("passed", 2), (right.status, right.reason)
    assert right.left_out == {"T:Acme.Tests.Order.B_AloneOnly": FAILS_BESIDE}
    assert wrong.status == "test_failure" and {f.name for f in wrong.failures} == {
        "Acme.Tests.Order.A_Doubles", "Acme.Tests.Order.C_DoublesTwo"}, (wrong.status, wrong.reason)
    assert steady.status == "test_failure" and [f.name for f in steady.failures] == ["Acme.Tests.Order.B_AloneOnly"]


@pytest.mark.slow
def test_a_run_stopped_at_a_failure_left_out_goes_on_from_where_it_stopped(tmp_path):
    """Dataset validation's runs stop at their first failing test. The right body's run stops at B_AloneOnly,
    which is left out (the untouched port fails it beside the same tests): the run goes on in a fresh process
    from C_DoublesTwo, not from the start, and passes; the wrong body's stops at A_Doubles, blamed."""
    needs_mono()
    repo = write_tree(tmp_path / "repo", {k: v % "x * 2" if k.endswith("Calc.cs") else v for k, v in FILES.items()})
    limits = Limits(timeout=60, memory_mb=1024, fail_fast=True, verdict_only=True, known_failures=FLAKY_PORT)
    with judging(repo, tmp_path / "work", limits) as judge:
        right = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", ["T:Acme.Tests.Order"])
        wrong = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 1", ["T:Acme.Tests.Order"])
    assert (right.status, right.tests_run) == ("passed", 2), (right.status, right.reason)
    assert right.left_out == {"T:Acme.Tests.Order.B_AloneOnly": FAILS_BESIDE}
    assert sorted(right.ran) == ["Acme.Tests.Order.A_Doubles", "Acme.Tests.Order.C_DoublesTwo"], right.ran
    ran = [line.split(" ")[4] for line in right.log.splitlines() if line.startswith("@@RT ") and " TEST " in line]
    named = [base64.b64decode(name).decode() for name in ran]
    assert named == ["Acme.Tests.Order.A_Doubles", "Acme.Tests.Order.B_AloneOnly", "Acme.Tests.Order.C_DoublesTwo"]
    assert wrong.status == "test_failure" and [f.name for f in wrong.failures] == ["Acme.Tests.Order.A_Doubles"]


@pytest.mark.slow
def test_a_fail_fast_run_goes_on_past_a_test_failing_before_any_change(tmp_path):
    """B_AloneOnly is known to fail on the untouched port: the right body's fail-fast run does not stop there (its
    failure is left out anyway), so one process runs A, B and C; the wrong body's still stops at A."""
    needs_mono()
    repo = write_tree(tmp_path / "repo", {k: v % "x * 2" if k.endswith("Calc.cs") else v for k, v in FILES.items()})
    known = (("T:Acme.Tests.Order.B_AloneOnly", "fails on the untouched port: an assertion (another test ran first)"),)
    limits = Limits(timeout=60, memory_mb=1024, fail_fast=True, verdict_only=True, known_failures=known)
    with judging(repo, tmp_path / "work", limits) as judge:
        right = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x * 2", ["T:Acme.Tests.Order"])
        wrong = judge.run("src/Core/Calc.cs", FILES["src/Core/Calc.cs"] % "x + 1", ["T:Acme.Tests.Order"])
    assert (right.status, right.tests_run) == ("passed", 2), (right.status, right.reason)
    ends = [line for line in right.log.splitlines() if line.startswith("@@RT ") and " END " in line]
    assert len(ends) == 1 and " STOPPED" not in right.log, right.log[-500:]
    assert wrong.status == "test_failure" and [f.name for f in wrong.failures] == ["Acme.Tests.Order.A_Doubles"]
