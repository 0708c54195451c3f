"""A fixture whose own set-up throws (a static field initialised through a member that is still a
placeholder, as ZXing.Net's HighLevelEncodeTestCase builds its TEST_SYMBOLS table through SymbolInfo's
constructor): NUnit 2 reports each of its tests as "TestFixtureSetUp failed in X" with no stack, the
exception and its frames only on the fixture. repotrans's runner gives each such test its fixture's
exception and frames, and the runner's record of the call chain the fixture's set-up reached the placeholder
through is each test's too, so a candidate judged on them is blocked behind the placeholder, not failed by a
message that names no frame (fixture written for this test, compiled by mcs, run by the real runner)."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.judge.blocked import blockers
from repotrans.execution.judge.chain import frame_member
from repotrans.verdicts.results import TestResult
from tests.support.indexes import csharp_index
from tests.support.mono_repos import core_and_tests, judging, needs_mono, with_body, write_tree

FILES = core_and_tests(
    {"Symbol.cs": """namespace Acme {
  public class Symbol {
    public readonly int Size;
    public Symbol(int size) { throw new System.NotImplementedException(); }
    public static int Twice(int x) { %s }
  }
}"""},
    {"SymbolTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class SymbolTests {
    private static readonly Symbol[] TABLE = { new Symbol(3), new Symbol(5) };
    [Test] public void TwiceOfTwo() { Assert.AreEqual(4, Symbol.Twice(2)); }
    [Test] public void TableSize() { Assert.AreEqual(2, TABLE.Length); }
  }
  [TestFixture] public class PlainTests {
    [Test] public void TwiceOfThree() { Assert.AreEqual(6, Symbol.Twice(3)); }
  }
}"""})


@pytest.mark.slow
def test_a_test_of_a_fixture_whose_set_up_threw_carries_the_fixtures_exception_and_frames(tmp_path):
    needs_mono()
    files = with_body(FILES, "src/Core/Symbol.cs", "return 2 * x;")
    with judging(write_tree(tmp_path / "repo", files), tmp_path / "work") as judge:
        verdict = judge.run("src/Core/Symbol.cs", files["src/Core/Symbol.cs"])
    failed = {f.name.rsplit(".", 1)[-1]: f for f in verdict.failures}
    assert sorted(failed) == ["TableSize", "TwiceOfTwo"] and verdict.tests_run == 3, verdict.failures
    assert verdict.status == "runtime_error"        # an exception, the fixture's: not an assertion
    for failure in failed.values():
        assert "(TestFixtureSetUp failed in SymbolTests)" in failure.message
        assert "----> System.NotImplementedException" in failure.message
        # the runner's own record: the guard fired in the constructor, under the fixture's set-up
        assert [frame_member(c.frames[0]) for c in failure.chains] == [("Acme.Symbol", ".ctor", 1)], failure.chains
        assert failure.chains[0].complete
    index = csharp_index(tmp_path, {Path(k).name: v for k, v in files.items() if k.endswith(".cs")})
    twice = next(m for m in index.all_methods("target") if m.name == "Twice")
    result = TestResult(status=verdict.status, failures=verdict.failures, tests_run=3, tests_failed=2)
    assert [m.name for m in blockers(result, index, twice)] == ["<init>"]
