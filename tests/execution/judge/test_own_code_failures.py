"""A test whose own code throws before any change (fixture written for this test, compiled by mcs and run by
repotrans's NUnit runner for real): like a real port's test that indexes past its own table (BCrypt.Net's
first port, `test_vectors.Length` of a 2-D array), the port's own build fails it too. It cannot judge a
candidate: the original body passes on the other tests, the test left out with its cause; a wrong body
and a placeholder are still failed by the tests that can judge them, and a candidate whose own result
makes the test throw another exception is not excused. Left out only at the same exception and line: a
candidate throwing there too is judged by the member's other tests (with none left, it is not passed)."""
from __future__ import annotations

import pytest

from repotrans.verdicts.results import TestFailure
from repotrans.execution.toolchains.environment import own_code_cause, still_failing
from tests.support.mono_repos import core_and_tests, judging, needs_mono, with_body, write_tree

BODY = "return new int[] { 2 * x, 3 * x };"
FILES = core_and_tests(
    {"Codec.cs": "namespace Acme { public static class Codec { public static int[] Both(int x) { %s } } }"},
    {"CodecTests.cs": """using System;
using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class CodecTests {
    int[,] table = { { 1, 2, 3 }, { 2, 4, 6 } };
    [Test] public void BothOfTwo() { Assert.AreEqual(new[] { 4, 6 }, Codec.Both(2)); }
    [Test] public void TheTable() {
      for (int i = 0; i < table.Length; i++)          // Length of a 2-D array: 6 rows read, 2 there
        Assert.AreEqual(table[i, 1], Codec.Both(table[i, 0])[0]);
    }
    [Test] public void SecondOfThree() { Assert.AreEqual(9, Codec.Both(3)[1]); }
  }
}"""})


@pytest.mark.slow
def test_a_test_failing_in_its_own_code_before_any_change_is_left_out(tmp_path):
    needs_mono()
    with judging(write_tree(tmp_path / "repo", with_body(FILES, "src/Core/Codec.cs", BODY)), tmp_path / "work") as judge:
        bodies = [BODY, "return new int[] { 2 * x, 4 * x };", "throw new System.NotImplementedException();",
                  "return null;", "return new int[] { 2 * x };"]
        original, wrong, placeholder, null, short = [judge.run("src/Core/Codec.cs", FILES["src/Core/Codec.cs"] % b)
                                               for b in bodies]
    assert original.status == "passed", (original.reason, original.failures)
    assert original.tests_run == 2
    assert original.left_out == {
        "T:Acme.Tests.CodecTests.TheTable": "the test's own code (IndexOutOfRangeException at tests/T/CodecTests.cs:9)"}
    assert original.reason == "judged on 2 of 3 tests; 1 fail in this environment before any change"
    assert wrong.status == "test_failure" and [f.name.rsplit(".", 1)[-1] for f in wrong.failures] == ["BothOfTwo", "SecondOfThree"]
    assert placeholder.status == "runtime_error" and not placeholder.left_out and placeholder.tests_run == 3
    # null makes every test throw, TheTable another exception: nothing is excused
    assert null.status == "runtime_error" and not null.left_out and null.tests_run == 3
    # a one-element result throws in TheTable where the original does (left out, as a line tells no more),
    # and the two tests that judge the member fail it
    assert short.status == "runtime_error" and list(short.left_out) == list(original.left_out)
    assert short.tests_run == 2 and short.tests_failed == 2


def _failure(message: str, *frames: str) -> TestFailure:
    return TestFailure(name="Acme.Tests.CodecTests.TheTable", message=message, stack=list(frames))


@pytest.mark.parametrize("failure, expected", [
    (_failure("System.IndexOutOfRangeException : Index was outside the bounds of the array.",
              "Acme.Tests.CodecTests.TheTable () at tests/T/CodecTests.cs:9"),
     "the test's own code (IndexOutOfRangeException at tests/T/CodecTests.cs:9)"),
    (_failure("System.Collections.Generic.KeyNotFoundException : The given key was not present",
              "System.Collections.Generic.Dictionary`2[TKey,TValue].get_Item (TKey key) at <x>:0",
              "Acme.Tests.CodecTests.TheTable () at tests/T/CodecTests.cs:12"),
     "the test's own code (KeyNotFoundException at tests/T/CodecTests.cs:12)"),
    # thrown in the port's code, an assertion, a placeholder: never the test's own code
    (_failure("System.IndexOutOfRangeException : Index was outside the bounds of the array.",
              "Acme.Codec.Both (System.Int32 x) at src/Core/Codec.cs:1",
              "Acme.Tests.CodecTests.TheTable () at tests/T/CodecTests.cs:9"), ""),
    (_failure("  Expected: 4\n  But was:  6\n", "Acme.Tests.CodecTests.TheTable () at tests/T/CodecTests.cs:9"), ""),
    (_failure("System.NotImplementedException : The method or operation is not implemented.",
              "Acme.Tests.CodecTests.TheTable () at tests/T/CodecTests.cs:9"), ""),
])
def test_own_code_causes(failure, expected):
    assert own_code_cause(failure, frozenset({"tests/T/CodecTests.cs"})) == expected


def test_the_same_place_is_needed_for_the_test_s_own_code_not_for_the_environment():
    here = "the test's own code (IndexOutOfRangeException at tests/T/CodecTests.cs:9)"
    assert still_failing(here, here)
    assert not still_failing(here, "the test's own code (IndexOutOfRangeException at tests/T/CodecTests.cs:12)")
    assert not still_failing(here, "")
    assert still_failing("a time zone", "a time zone") and still_failing("a server", "a time zone")
