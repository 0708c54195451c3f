"""A compiled fixture is never missing from a run's list (fixture written for this test, compiled by mcs and
run by repotrans's NUnit runner for real): ZXing.Net's BitmapLuminanceSourceTests holds one test, and it is
[Explicit], so a whole run planned nothing of that fixture and counted it nowhere. Explicit tests are left
out of whole runs as users leave them out, and counted as left out ([Explicit]); named, they are left out too
(test_left_out_by_attribute)."""
from __future__ import annotations

import pytest

from tests.support.mono_repos import core_and_tests, judging, needs_mono, write_tree

FILES = core_and_tests(
    {"Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }"},
    {"CodecTests.cs": """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class CodecTests { [Test] public void Twice() { Assert.AreEqual(4, Codec.Twice(2)); } }
  [TestFixture] public class MeasureTests { [Test, Explicit] public void Speed() { Assert.AreEqual(6, Codec.Twice(3)); } }
}"""})


@pytest.mark.slow
def test_a_fixture_of_explicit_tests_is_counted_as_left_out(tmp_path):
    needs_mono()
    with judging(write_tree(tmp_path / "repo", FILES), tmp_path / "work") as judge:
        whole = judge.run("src/Core/Codec.cs", FILES["src/Core/Codec.cs"])
        named = judge.run("src/Core/Codec.cs", FILES["src/Core/Codec.cs"], ["T:Acme.Tests.MeasureTests.Speed"])
    assert whole.status == "passed" and whole.tests_run == 1
    assert whole.excluded == {"T:Acme.Tests.MeasureTests.Speed": "[Explicit]"}
    assert named.status == "no_tests" and named.tests_run == 0
    assert named.excluded == {"T:Acme.Tests.MeasureTests.Speed": "[Explicit]"}
