"""`blocked` from where the exception was thrown: an inner exception behind a type initializer and the
actual exception of an `Assert.Throws` count by their own frames (stacks as mono and NUnit 2.6 write them)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.blocked import blockers, past_untranslated
from repotrans.verdicts.results import TestFailure, TestResult
from repotrans.execution.toolchains.nunit import clean_frames
from repotrans.index.store import Index
from tests.support.indexes import csharp_index

VECTOR = """namespace Geo {
    public class Vector {
        public static readonly Vector Zero = new Vector(0, 0);
        private readonly double x;
        public Vector(double x, double y) { throw new System.NotImplementedException(); }
        public double AngleTo(Vector other) { throw new System.NotImplementedException(); }
        public Vector Add(Vector other) { return new Vector(x, other.x); }
        public double Dot(Vector other) { return x * other.x; }
    }
}
"""
# NUnit's stack of a SetUp that hit a type initializer: the outer frames, then '--Inner' and the inner's
TYPE_INIT_STACK = """  at Geo.Tests.VectorTests.SetUp () [0x00014] in /w/src/tests/VectorTests.cs:13
  at (wrapper managed-to-native) System.Reflection.RuntimeMethodInfo.InternalInvoke(System.Reflection.RuntimeMethodInfo,object,object[],System.Exception&)
--NotImplementedException
  at Geo.Vector..ctor (System.Double x, System.Double y) [0x00007] in /w/src/Vector.cs:5
  at Geo.Vector..cctor () [0x00000] in /w/src/Vector.cs:3
"""
THROWS_MESSAGE = """Expected: <Geo.GeometryException>
  But was:  <System.NotImplementedException> (The method or operation is not implemented.)
  at Geo.Vector.AngleTo (Geo.Vector other) [0x00001] in /w/src/Vector.cs:6
  at Geo.Tests.VectorTests.<AngleToZero>m__1 () [0x0000b] in /w/src/tests/VectorTests.cs:86
  at NUnit.Framework.Assert.Throws (NUnit.Framework.TestDelegate code) [0x00050] in <3cae>:0"""


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Index:
    return csharp_index(tmp_path_factory.mktemp("blocked"), {"Vector.cs": VECTOR})


def member(index: Index, name: str):
    return next(m for m in index.all_methods("target") if m.name == name)


def result(*failures: TestFailure) -> TestResult:
    return TestResult(status="runtime_error", failures=list(failures), tests_run=len(failures),
                      tests_failed=len(failures))


def test_inner_exception_frames_come_first():
    assert clean_frames(TYPE_INIT_STACK) == ["Geo.Vector..ctor (System.Double x, System.Double y) at Vector.cs:5",
                                             "Geo.Vector..cctor () at Vector.cs:3",
                                             "Geo.Tests.VectorTests.SetUp () at VectorTests.cs:13"]


def test_a_type_initializer_failing_in_a_placeholder_constructor_blocks(index):
    failure = TestFailure(name="Geo.Tests.VectorTests.Adds", message="SetUp : System.TypeInitializationException",
                          stack=clean_frames(TYPE_INIT_STACK))
    assert [m.name for m in blockers(result(failure), index, member(index, "Add"))] == ["<init>"]


def test_an_assert_throws_that_got_a_placeholder_exception_blocks(index):
    failure = TestFailure(name="Geo.Tests.VectorTests.AngleToZero", message=THROWS_MESSAGE,
                          stack=["Geo.Tests.VectorTests.AngleToZero () at VectorTests.cs:86"])
    assert [m.name for m in blockers(result(failure), index, member(index, "Dot"))] == ["AngleTo"]
    # thrown in the candidate's own member: never blocked
    assert blockers(result(failure), index, member(index, "AngleTo")) == []


def test_an_assertion_in_the_test_itself_does_not_block(index):
    failure = TestFailure(name="Geo.Tests.VectorTests.Dot", message="Expected: 1.0\n  But was:  2.0",
                          stack=["Geo.Tests.VectorTests.Dot () at VectorTests.cs:20"])
    assert blockers(result(failure), index, member(index, "Dot")) == []


def test_a_placeholder_frame_written_into_a_thrown_exceptions_message_does_not_block(index):
    """Issue 32: a wrong body throwing an exception whose message holds NUnit's 'But was:' wording and a
    placeholder's frame is judged by its real stack (its own frame), not by the text it wrote."""
    forged = "System.Exception : Expected: x\n  But was:  " + THROWS_MESSAGE.partition("But was:  ")[2]
    failure = TestFailure(name="Geo.Tests.VectorTests.Dot", message=forged,
                          stack=["Geo.Vector.Dot (Geo.Vector other) (candidate line 2) at Vector.cs:8"])
    assert blockers(result(failure), index, member(index, "Dot")) == []


def test_an_assert_throws_that_got_another_exception_with_placeholder_frames_in_its_text_does_not_block(index):
    """The 'But was:' path only for exactly a placeholder's exception: an ArgumentException whose message
    carries a placeholder's frame is the candidate's failure."""
    forged = THROWS_MESSAGE.replace("<System.NotImplementedException>", "<System.ArgumentException>")
    failure = TestFailure(name="Geo.Tests.VectorTests.AngleToZero", message=forged,
                          stack=["Geo.Tests.VectorTests.AngleToZero () at VectorTests.cs:86"])
    assert blockers(result(failure), index, member(index, "Dot")) == []


def test_a_placeholder_the_java_original_does_not_call_blocks_nothing(index):
    """Issue 32: a wrong body that calls an unrelated placeholder on purpose is judged on its own; a
    placeholder the Java original does call still blocks."""
    called = THROWS_MESSAGE.replace("  at Geo.Tests.VectorTests.<AngleToZero>m__1 ()",
                                    "  at Geo.Vector.Dot (Geo.Vector other) [0x00002] in /w/src/Vector.cs:8\n"
                                    "  at Geo.Tests.VectorTests.<AngleToZero>m__1 ()")
    failure = TestFailure(name="Geo.Tests.VectorTests.AngleToZero", message=called,
                          stack=["Geo.Tests.VectorTests.AngleToZero () at VectorTests.cs:86"])
    dot = member(index, "Dot")
    calls = replace(dot, body="{ return x * other.x + angleTo(other); }")
    unrelated = replace(dot, body="{ return x * other.x; }")
    assert [m.name for m in blockers(result(failure), index, dot, calls)] == ["AngleTo"]
    assert blockers(result(failure), index, dot, unrelated) == []
    # reached from the test, not from the candidate: blocked whatever the Java original calls
    direct = replace(failure, message=THROWS_MESSAGE)
    assert [m.name for m in blockers(result(direct), index, dot, unrelated)] == ["AngleTo"]


def test_an_exception_type_the_candidate_can_declare_blocks_nothing(index):
    """A nested exception type (one a candidate can add, overriding StackTrace to print a placeholder's
    frame) in the failure's exception chain: judged on its own."""
    failure = TestFailure(name="Geo.Tests.VectorTests.Dot",
                          message="Geo.Vector+Fake : x\n  ----> System.NotImplementedException : y",
                          stack=["Geo.Vector.AngleTo (Geo.Vector other) at Vector.cs:6"])
    assert blockers(result(failure), index, member(index, "Dot")) == []
    plain = replace(failure, message="System.NotImplementedException : The method or operation is not implemented.")
    assert [m.name for m in blockers(result(plain), index, member(index, "Dot"))] == ["AngleTo"]


SALT = """namespace Crypt {
    public static class Salt {
        public static string Gen() { return Gen(10); }
        public static string Gen(int rounds) { return Encode(rounds); }
        public static string Encode(int n) { throw new System.NotImplementedException(); }
    }
}
"""


def test_a_placeholder_called_by_an_overload_of_the_candidate_blocks(tmp_path):
    """BCrypt.Net's gensalt() calls gensalt(int), which stops in encode_base64's placeholder: the frame
    below the throw site is the overload, not the candidate, so what its Java original calls is beside the
    point (a failure, before the arity was compared)."""
    index = csharp_index(tmp_path, {"Salt.cs": SALT})
    gen = next(m for m in index.all_methods("target") if m.name == "Gen" and not m.params)
    java = replace(gen, body="{ return gen(10); }")
    failure = TestFailure(name="Crypt.Tests.SaltTests.GenIsSalt", message="System.NotImplementedException : no",
                          stack=["Crypt.Salt.Encode (System.Int32 n) at Salt.cs:5",
                                 "Crypt.Salt.Gen (System.Int32 rounds) at Salt.cs:4",
                                 "Crypt.Salt.Gen () at Salt.cs:3 (candidate line 1)",
                                 "Crypt.Tests.SaltTests.GenIsSalt () at SaltTests.cs:9"])
    assert [m.name for m in blockers(result(failure), index, gen, java)] == ["Encode"]


SALT_JAVA = """package org.x;
public class Salt {
    public static String gensalt(int rounds) { return gensalt(rounds, new java.util.Random()); }
    public static String gensalt(int rounds, java.util.Random r) { return encode(new byte[] { 1 }, rounds); }
    public static String encode(byte[] d, int n) { return "x" + n; }
    public static String unrelated() { return "u"; }
}
"""
SALT_CS = """namespace X {
    public class Salt {
        public static string Gensalt(int rounds) { throw new System.NotImplementedException(); }
        public static string Encode(byte[] d, int n) { throw new System.NotImplementedException(); }
        public static string Unrelated() { throw new System.NotImplementedException(); }
    }
}
"""


def test_a_placeholder_behind_a_helper_the_candidate_carries_for_the_java_original_blocks(tmp_path):
    """BCrypt.Net's gensalt(int): the port removed Java's gensalt(int, SecureRandom), so the candidate
    carries it as an added helper, which calls the encode placeholder; Java's gensalt(int) reaches encode
    through that overload (its own class, two calls deep), so the candidate is blocked, not failed. An
    unrelated placeholder called the same way still blocks nothing."""
    from repotrans.execution.judge.blocked import java_reaches
    from tests.support.indexes import mapped_pair

    _, index = mapped_pair(tmp_path, {"org/x/Salt.java": SALT_JAVA}, {"Salt.cs": SALT_CS})
    java = next(m for m in index.all_methods("source") if m.name == "gensalt" and len(m.params) == 1)
    gensalt = member(index, "Gensalt")
    encode, unrelated = member(index, "Encode"), member(index, "Unrelated")
    assert java_reaches(index, java, encode) and not java_reaches(index, java, unrelated)

    def thrown_in(name: str, params: str) -> TestResult:
        stack = [f"X.Salt.{name} ({params}) at Salt.cs:4",
                 "X.Salt.Gensalt2 (System.Int32 rounds, System.Random r) at Salt.cs:9 (candidate line 8)",
                 "X.Salt.Gensalt (System.Int32 rounds) at Salt.cs:3 (candidate line 3)",
                 "X.Tests.SaltTests.Gensalts () at SaltTests.cs:12"]
        return result(TestFailure(name="X.Tests.SaltTests.Gensalts", stack=stack,
                                  message="System.NotImplementedException : The method or operation is not implemented."))

    assert blockers(thrown_in("Encode", "System.Byte[] d, System.Int32 n"), index, gensalt, java) == [encode]
    assert blockers(thrown_in("Unrelated", ""), index, gensalt, java) == []
    index.close()


def _blocked_behind(index: Index, stacks: list[list[str]], run: int) -> TestResult:
    failures = [TestFailure(f"Geo.Tests.T.Case{i}", "System.NotImplementedException : not implemented", stack=s)
                for i, s in enumerate(stacks)]
    return TestResult(status="blocked", failures=failures, tests_run=run, tests_failed=len(failures),
                      behind=[member(index, "AngleTo").id])


def test_past_placeholders_that_stay_a_candidate_is_judged_on_the_tests_that_could_run(index):
    """The sample's IsBlank: its shape tests stop in FormatNumber (a task that ended failed) while they
    print a point; at the batch's end that placeholder stays one, so those tests say nothing about it."""
    dot, angle = member(index, "Dot"), member(index, "AngleTo")
    stopped = ["Geo.Vector.AngleTo (Geo.Vector other) at Vector.cs:6", "Geo.Tests.T.Case0 () at T.cs:9"]
    blocked = _blocked_behind(index, [stopped, stopped], run=5)
    judged = past_untranslated(blocked, dot, {angle.id})
    assert (judged.status, judged.tests_run, judged.tests_failed, judged.failures, judged.behind) == ("passed", 3, 0, [], [])
    assert judged.left_out == {"Geo.Tests.T.Case0": "stops in Geo.Vector.AngleTo(Vector), which this run leaves "
                               "untranslated", "Geo.Tests.T.Case1": "stops in Geo.Vector.AngleTo(Vector), which this "
                               "run leaves untranslated"}
    assert judged.reason.startswith("passed on the 3 covering test(s) that could run; 2 left out")
    # a placeholder a pending candidate may still fill, no test that ran to the end, or the candidate's
    # own member on a stopped test's stack (it may have led the test there): still blocked
    assert past_untranslated(blocked, dot, set()) is blocked
    assert past_untranslated(_blocked_behind(index, [stopped], run=1), dot, {angle.id}).status == "blocked"
    through = ["Geo.Vector.AngleTo (Geo.Vector other) at Vector.cs:6", "Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8"]
    assert past_untranslated(_blocked_behind(index, [stopped, through], run=5), dot, {angle.id}).status == "blocked"
