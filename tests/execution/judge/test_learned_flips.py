"""What a judgement sees fail on the untouched build is learned once (Runner.learn_untouched): kept among the
runner's known failures, so the next candidate does not run it, and recorded in the untouched baseline's cache,
so the next run of the same port leaves it out too. Real mcs and repotrans's NUnit runner."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from repotrans.execution.judge.baseline import AssemblyBaseline, BaselineCache, PortBaseline
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.environment import FAILS_BESIDE, FLIPS
from repotrans.index.store import Index
from tests.support.mono_repos import core_and_tests, needs_mono, write_tree

CALC = "namespace Acme { public static class Calc { public static int Twice(int x) { return %s; } } }"
TESTS = """using NUnit.Framework;
namespace Acme.Tests {
  public static class Seen { public static int Tests; }
  [TestFixture] public class Order {
    [SetUp] public void Count() { Seen.Tests++; }
    [Test] public void A_Doubles() { Assert.AreEqual(6, Calc.Twice(3)); }
    [Test] public void B_AloneOnly() { Assert.AreEqual(1, Seen.Tests, "another test ran first"); Calc.Twice(1); }
    [Test] public void C_DoublesTwo() { Assert.AreEqual(4, Calc.Twice(2)); }
  }
}"""
BODY = "public static int Twice(int x) { return x * 2; }"
FLIPPING = "T:Acme.Tests.Order.B_AloneOnly"


@pytest.mark.slow
def test_a_failure_seen_on_the_untouched_build_is_learned_for_later_candidates_and_runs(tmp_path):
    """B_AloneOnly fails beside any other test, with or without the candidate. On a port known to flip, the first
    judgement runs it again untouched and leaves it out; the runner then knows it (the second judgement does not
    run it) and the baseline's cache holds it."""
    needs_mono()
    target = write_tree(tmp_path / "port", core_and_tests({"Calc.cs": CALC % "x * 2"}, {"OrderTests.cs": TESTS}))
    (tmp_path / "java").mkdir()
    (tmp_path / "java" / "A.java").write_text("class A {}\n")
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", target, progress=False)
    twice = index.find_methods("target", "Calc.Twice")[0]
    cache = BaselineCache(tmp_path / "cache")
    base = PortBaseline({"T": AssemblyBaseline("T", "k1")}, cache=cache)
    with Runner(ExecutionConfig(sandbox="local", timeout=60, memory_mb=1024), tmp_path / "wd" / "runs") as runner:
        runner.limits = replace(runner.limits, known_failures=(("T:Acme.Tests.Elsewhere.Sometimes", FLIPS),))
        runner.untouched = base
        first = runner.run(index, twice, BODY, java=None)
        second = runner.run(index, twice, BODY, java=None)
    index.close()
    assert (first.status, first.tests_run) == ("passed", 2), (first.status, first.reason)
    assert first.left_out == {FLIPPING: FAILS_BESIDE}
    assert dict(runner.limits.known_failures)[FLIPPING] == FAILS_BESIDE
    assert (second.status, second.tests_run) == ("passed", 2) and FLIPPING not in second.selected
    assert "1 known to fail on the untouched port not run" in second.selection
    assert cache.get("k1").failures == {FLIPPING: FAILS_BESIDE}
    assert json.loads((tmp_path / "cache" / "k1.json").read_text())["record"]["failures"] == {FLIPPING: FAILS_BESIDE}
