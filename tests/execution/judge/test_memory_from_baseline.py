"""A test run's memory limit comes from the untouched baseline's measured peak (judge.baseline), for real (mcs,
repotrans's NUnit runner, the local sandbox's cgroup): a test the port's own code needs 200 MB for is judged by
its own outcome, never runtime_error for a limit of the judge's that the untouched run did not have."""
from __future__ import annotations

import pytest

from repotrans.execution.judge.baseline import AssemblyBaseline, BaselineCache, PortBaseline, port_baseline
from repotrans.execution.judge.runner import Runner
from repotrans.execution.sandboxes.cgroups import support
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains import Limits
from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

CALC = "namespace Acme { public static class Calc { public static int Twice(int x) { return x * 2; } } }"
FILES = core_and_tests({"Calc.cs": CALC}, {"BigTests.cs": """using NUnit.Framework;
namespace Acme.Tests { [TestFixture] public class Big {
  static readonly System.Collections.Generic.List<byte[]> Kept = new System.Collections.Generic.List<byte[]>();
  [Test] public void Keeps() { var a = new byte[200 * 1024 * 1024]; for (int i = 0; i < a.Length; i += 4096) a[i] = 1;
                                Kept.Add(a); Assert.AreEqual(4, Calc.Twice(2)); } } }"""})


def test_the_limit_leaves_room_for_twice_the_peak_within_what_the_untouched_run_had():
    def port(peak, limit):
        return PortBaseline({"T": AssemblyBaseline("T", "k", peak_mb=peak, memory_mb=limit)})
    assert port(150.0, 2048).memory_mb(1024) == 1024            # fits the configured limit: unchanged
    assert port(700.0, 2048).memory_mb(1024) == 1400
    assert port(1500.0, 2048).memory_mb(1024) == 2048           # never above what the untouched run had
    assert port(None, 2048).memory_mb(512) == 512               # not measured (docker): as configured
    limits = port(700.0, 2048).limits(Limits(timeout=60, memory_mb=1024))
    assert limits.memory_mb == 1400


@pytest.mark.slow
def test_a_test_the_untouched_port_needs_200_mb_for_passes_under_a_256_mb_configuration(tmp_path):
    needs_mono()
    if support()[0] is None:
        pytest.skip("no cgroup to measure a run's peak memory")
    repo = write_tree(tmp_path / "repo", FILES)
    with Runner(ExecutionConfig(sandbox="local", memory_mb=256), tmp_path / "base") as runner:
        base = port_baseline(runner, repo, BaselineCache.under(tmp_path / "cache"), timeout=300)
    record = base.assemblies["T"]
    assert record.states == {"Acme.Tests.Big.Keeps": "Success"} and 200 <= record.peak_mb < 1024, record.peak_mb
    configured = Limits(timeout=60, memory_mb=256)
    selection = ["T:Acme.Tests.Big"]
    with judging(repo, tmp_path / "work", configured) as judge:
        constant = judge.run("src/Core/Calc.cs", CALC, selection)
        judge.limits = base.limits(configured)
        measured = judge.run("src/Core/Calc.cs", CALC, selection)
    # under the constant limit the test is lost to the judge's own limit (out of memory here and on the
    # untouched build under the same limit: left out, nothing judges)
    assert constant.status != "passed" and "OutOfMemoryException" in constant.reason, (constant.status, constant.reason)
    assert measured.status == "passed" and measured.tests_run == 1, (measured.status, measured.reason)
    assert 256 < base.limits(configured).memory_mb <= 2048
