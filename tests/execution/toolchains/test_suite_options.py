"""Suites of any size (fixture written for this test): categories users leave out (Stress,
LongRunning...) and [Explicit] tests are not run by default, a test over the per-test limit fails
alone while the rest of the suite runs, and a whole-suite limit keeps the count of what ran."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.toolchains import Limits
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

FILES = core_and_tests(
    {"Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }"},
    {"CodecTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class CodecTests {
    [Test] public void Twice() { Assert.AreEqual(4, Codec.Twice(2)); }
    [Test, Category("Stress")] public void Hammer() { Assert.Fail("stress tests are left out"); }
    [Test, Explicit] public void ByHand() { Assert.Fail("explicit tests are left out"); }
    [Test] public void Hangs() { System.Threading.Thread.Sleep(60000); }
    [Test] public void AfterTheHang() { Assert.AreEqual(6, Codec.Twice(3)); }
  }
  [TestFixture, Category("LongRunning")] public class SlowTests {
    [Test] public void Slow() { Assert.Fail("a long-running fixture is left out"); }
  }
}"""})


def _run(tmp_path: Path, limits: Limits, body: str | None = None):
    with judging(write_tree(tmp_path / "repo", FILES), tmp_path / "work", limits) as judge:
        original = judge.original("src/Core/Codec.cs")
        return judge.run("src/Core/Codec.cs", original if body is None else original.replace("return 2 * x;", body))


@pytest.mark.slow
def test_categories_explicit_and_per_test_timeout(tmp_path):
    """Hangs runs over the per-test limit alone while the rest runs on (AfterTheHang after it); it hangs on the
    untouched port too, so it is the machine's per-test limit, left out of the verdict, never the body's."""
    needs_mono()
    verdict = _run(tmp_path, Limits(timeout=120, memory_mb=1024, test_timeout=2))
    assert (verdict.status, verdict.tests_run) == ("passed", 2), verdict.log[-2000:]
    assert verdict.left_out == {"T:Acme.Tests.CodecTests.Hangs": "the per-test time limit"}
    assert "AfterTheHang" not in str(verdict.left_out) and not verdict.failures


@pytest.mark.slow
def test_a_body_that_hangs_fails_on_the_per_test_limit_while_the_rest_runs(tmp_path):
    """A body that never returns stops its tests at the per-test limit; the untouched port passes them, so they
    are the body's failures (Stress and [Explicit] still left out)."""
    needs_mono()
    verdict = _run(tmp_path, Limits(timeout=120, memory_mb=1024, test_timeout=2),
                   body="while (x >= 0) { System.Threading.Thread.Sleep(100); } return 2 * x;")
    assert verdict.status != "passed", verdict.log[-2000:]
    assert sorted(f.name.rsplit(".", 1)[-1] for f in verdict.failures) == ["AfterTheHang", "Twice"]


@pytest.mark.slow
def test_a_whole_suite_limit_keeps_the_count_of_what_ran(tmp_path):
    needs_mono()
    verdict = _run(tmp_path, Limits(timeout=8, memory_mb=1024, test_timeout=0, clock="wall"))   # Hangs sleeps
    assert verdict.status == "timeout"
    assert verdict.tests_run >= 1 and "of 3 planned tests" in verdict.reason, (verdict.reason, verdict.log[-2000:])


def test_categories_and_per_test_limit_come_from_the_configuration(tmp_path):
    from repotrans.agents.config import load_config
    from repotrans.execution.judge.runner import Runner

    (tmp_path / "repotrans.toml").write_text('[execution]\nexclude_categories = ["Stress", "Nightly"]\n'
                                             'test_timeout = 30\nsandbox = "local"\n')
    config = load_config(tmp_path / "repotrans.toml", resolve=False)
    with Runner(config.execution, tmp_path / "work") as runner:
        assert (runner.limits.exclude_categories, runner.limits.test_timeout) == (("Stress", "Nightly"), 30.0)
