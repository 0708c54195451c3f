"""The untouched port's baseline computed once per content (judge.baseline), for real (mcs and repotrans's
NUnit runner): a second call on the unchanged port, from another workdir, runs nothing; a changed test
assembly is the only one run again; the record carries each test's measured seconds and the failures
before any change."""
from __future__ import annotations

import pytest

from repotrans.execution.judge.baseline import BaselineCache, port_baseline
from repotrans.execution.judge.build_report import build_section
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from tests.support.mono_repos import needs_mono, nunit_tests_of_core, sdk_project, write_tree

FILES = {
    "src/Core/Core.csproj": sdk_project(),
    "src/Core/Calc.cs": "namespace Acme { public static class Calc { public static int Twice(int x) { return x * 2; } } }",
    "tests/T/T.csproj": nunit_tests_of_core(),
    "tests/T/CalcTests.cs": """using NUnit.Framework;
namespace Acme.Tests { [TestFixture] public class CalcTests {
  [Test] public void Doubles() { System.Threading.Thread.Sleep(200); Assert.AreEqual(4, Calc.Twice(2)); }
  [Test] public void WrongBeforeAnyChange() { Assert.AreEqual(5, Calc.Twice(2)); } } }""",
    "tests/U/U.csproj": nunit_tests_of_core().replace("../../src/Core/Core.csproj", "../../src/Core/Core.csproj"),
    "tests/U/MoreTests.cs": """using NUnit.Framework;
namespace Acme.More { [TestFixture] public class MoreTests {
  [Test] public void Triples() { Assert.AreEqual(6, Calc.Twice(3)); } } }""",
}


@pytest.mark.slow
def test_the_baseline_is_reused_on_an_unchanged_port_and_rerun_only_for_the_changed_assembly(tmp_path):
    needs_mono()
    repo = write_tree(tmp_path / "repo", FILES)
    cache = BaselineCache.under(tmp_path / "cache")
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "first") as runner:
        cold = port_baseline(runner, repo, cache, timeout=300)
    assert sorted(cold.computed) == ["T", "U"]
    assert cold.known_failures == {"T:Acme.Tests.CalcTests.WrongBeforeAnyChange": "an assertion (Expected: 5)"}
    assert cold.assemblies["T"].seconds["Acme.Tests.CalcTests.Doubles"] >= 0.15
    assert cold.test_seconds["U"] == {"Acme.More.MoreTests.Triples": pytest.approx(0.0, abs=0.5)}

    ablating = ExecutionConfig(sandbox="local", baseline_cache=str(cache.folder), measured_from=str(repo))
    with Runner(ablating, tmp_path / "ablate") as runner:      # a judge of a masked copy (ablate): looked up
        assert runner.measured() == cold.test_seconds
    title, lines = build_section(repo, ExecutionConfig(sandbox="local"), workdir=tmp_path / "doctor",
                                 cache_root=tmp_path / "cache")             # doctor: the same facts, not run again
    said = [text for _, text in lines]
    assert any(t.startswith("untouched runs: 0 of 2 test assemblies run now") for t in said), said
    assert any(t.startswith("tests: T: 2 as written, 2 built, 2 run, 1 passed") for t in said), said
    told = []
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "second") as runner:
        warm = port_baseline(runner, repo, cache, timeout=300, progress=told.append)
    assert warm.computed == [] and warm.seconds < 5, warm.seconds
    assert not (tmp_path / "second").exists() or not any((tmp_path / "second").rglob(".ok"))   # nothing built
    assert warm.known_failures == cold.known_failures and warm.test_seconds == cold.test_seconds
    assert told == ["baseline: 2 of 2 test assemblies unchanged (cached)"]

    (repo / "tests/U/MoreTests.cs").write_text(FILES["tests/U/MoreTests.cs"].replace("Triples", "TriplesAgain"))
    told = []
    with Runner(ExecutionConfig(sandbox="local"), tmp_path / "third") as runner:
        changed = port_baseline(runner, repo, cache, timeout=300, progress=told.append)
    assert changed.computed == ["U"]
    assert told[0] == "baseline: 1 of 2 test assemblies unchanged (cached); running 1: U"
    assert told[1].startswith("baseline: 1 of 1 test assemblies run (U rebuilt; 1 tests"), told   # T not run again
    assert set(changed.test_seconds["U"]) == {"Acme.More.MoreTests.TriplesAgain"}
    assert changed.known_failures == cold.known_failures


def test_a_test_the_suite_leaves_out_is_measured_as_taking_no_time():
    """NPOI's [Ignore] tests were never run, so never measured, and each selected one was planned as a
    start-up's 10 s (toolchains.test_runs): they take none, no run starts them."""
    from repotrans.execution.judge.baseline import AssemblyBaseline, PortBaseline

    base = PortBaseline({"T": AssemblyBaseline("T", "k", seconds={"N.F.Runs": 0.5},
                                               excluded={"T:N.F.Ignored": "[Ignore]", "T:N.Off": "[Explicit]"})})
    assert base.test_seconds == {"T": {"N.F.Runs": 0.5, "N.F.Ignored": 0.0, "N.Off": 0.0}}
