"""`blocked` from the runner's own record of the call chain (execution.judge.chain): a failing test is the
placeholders' when a guard fired in it on the test's own thread, the chain's first frame a placeholder, and
the candidate on no chain but where its Java original reaches that placeholder. Exceptions, messages and
stack text never count (chains as nunit_chain.cs writes them, located as the judge locates frames)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.blocked import blockers, past_untranslated
from repotrans.execution.judge.chain import Own, stops_in_untranslated
from repotrans.verdicts.results import Chain, TestFailure, TestResult
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
namespace Geo.Tests {
    public class VectorTests {
        public void SetUp() { }
        public void AngleToZero() { }
        public void Dot() { }
    }
}
"""
CTOR = "Geo.Vector..ctor (System.Double x, System.Double y) at Vector.cs:5"
ANGLE = "Geo.Vector.AngleTo (Geo.Vector other) at Vector.cs:6"
CORE = "NUnit.Core.Reflect.InvokeMethod (System.Reflection.MethodInfo method, System.Object fixture, System.Object[] args)"
# NUnit's stack of a failing test whose text claims a placeholder (text the candidate may write)
CLAIM = ["Geo.Vector.AngleTo (Geo.Vector other) at Vector.cs:6"]


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Index:
    return csharp_index(tmp_path_factory.mktemp("blocked"), {"Vector.cs": VECTOR})


def member(index: Index, name: str):
    return next(m for m in index.all_methods("target") if m.name == name)


def result(*failures: TestFailure) -> TestResult:
    return TestResult(status="runtime_error", failures=list(failures), tests_run=len(failures),
                      tests_failed=len(failures))


def failed(name: str, *chains: list[str], complete: bool = True, message: str = "") -> TestFailure:
    return TestFailure(name=f"Geo.Tests.VectorTests.{name}", message=message or "System.ArgumentException : x",
                       stack=["Geo.Tests.VectorTests.Dot () at VectorTests.cs:20"],
                       chains=[Chain(frames=[*c, CORE], complete=complete) for c in chains])


def test_a_type_initializer_reaching_a_placeholder_constructor_blocks(index):
    failure = failed("Dot", [CTOR, "Geo.Vector..cctor () at Vector.cs:3", "Geo.Tests.VectorTests.SetUp () at T.cs:13"])
    assert [m.name for m in blockers(result(failure), index, member(index, "Add"))] == ["<init>"]


def test_a_test_expecting_another_exception_that_got_a_placeholders_is_the_placeholders(index):
    """Whatever the test reports (here an ArgumentException expected, the assertion's text, no frame of the
    placeholder in it), a guard fired on the test's own thread and the candidate is not on the chain."""
    failure = failed("AngleToZero", [ANGLE, "Geo.Tests.VectorTests.<AngleToZero>m__1 () at T.cs:86",
                                     "NUnit.Framework.Assert.Throws (NUnit.Framework.TestDelegate code)",
                                     "Geo.Tests.VectorTests.AngleToZero () at T.cs:86"],
                     message="Expected: <System.ArgumentException>\n  But was:  null")
    assert [m.name for m in blockers(result(failure), index, member(index, "Dot"))] == ["AngleTo"]
    # the candidate is the placeholder (its own body throws): never blocked
    assert blockers(result(failure), index, member(index, "AngleTo")) == []


def test_no_guard_fired_no_block_whatever_the_text_says(index):
    """An assertion, or an exception whose message and stack text name a placeholder (text the candidate's
    process writes): no record of the runner, no block."""
    for message in ("Expected: 1.0\n  But was:  2.0", "System.NotImplementedException : x\n" + CLAIM[0]):
        failure = replace(failed("Dot", message=message), stack=CLAIM)
        assert blockers(result(failure), index, member(index, "Dot")) == []


def test_one_failure_not_the_placeholders_keeps_the_verdict(index):
    good = failed("AngleToZero", [ANGLE, "Geo.Tests.VectorTests.AngleToZero () at T.cs:86"])
    assert blockers(result(good, failed("Dot")), index, member(index, "Dot")) == []


@pytest.mark.parametrize("how", [
    "Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8 (candidate line 1)",                  # the member itself
    "Geo.Vector.Dot (Geo.Vector other) at Elsewhere.cs:1",                                  # #line moved it
    "Geo.Vector.<Dot>m__0 (System.Double v) at Vector.cs:8",                                # a lambda of it
    "Geo.Vector+<Dot>c__Iterator0.MoveNext () at Vector.cs:8",                              # an iterator of it
    "Geo.Vector+<Dot>c__AnonStorey1.<>m__0 (System.Int32 i) at Vector.cs:8",                # a closure of it
    "Geo.Vector.Helper (System.Int32 i) at Vector.cs:9",                                   # a helper it added
    "Geo.Vector+Holder..cctor () at Vector.cs:9",                                          # a type it declared
])
def test_the_candidate_anywhere_on_the_chain_blocks_only_where_its_java_original_reaches_the_placeholder(index, how):
    """Through delegates, LINQ iterators, lambdas, static constructors: the whole chain is the runner's, so the
    candidate is found at any depth, not only below the throw."""
    chain = [ANGLE, "System.Linq.Enumerable+SelectEnumerableIterator`2[TSource,TResult].MoveNext ()",
             "System.Linq.Enumerable.Sum (System.Collections.Generic.IEnumerable`1[T] source)", how,
             "Geo.Tests.VectorTests.Dot () at T.cs:20"]
    dot = member(index, "Dot")
    unrelated, calls = replace(dot, body="{ return x * other.x; }"), replace(dot, body="{ return angleTo(other); }")
    assert blockers(result(failed("Dot", chain)), index, dot, unrelated) == []
    assert blockers(result(failed("Dot", chain)), index, dot) == []
    if "Helper" not in how and "Holder" not in how:       # a type or member the index does not know is never excused
        assert [m.name for m in blockers(result(failed("Dot", chain)), index, dot, calls)] == ["AngleTo"]


def test_a_chain_from_another_thread_or_cut_blocks_nothing(index):
    """A placeholder reached on a thread the candidate may have started (no test framework frame below) or a
    record the runner had to cut: who led there cannot be told."""
    chain = [ANGLE, "Geo.Tests.VectorTests.Dot () at T.cs:20"]
    assert blockers(result(failed("Dot", chain, complete=False)), index, member(index, "Dot")) == []
    cut = TestFailure(name="Geo.Tests.VectorTests.Dot", message="x", chains=[Chain(frames=[], complete=False)])
    assert blockers(result(cut), index, member(index, "Dot")) == []


def test_a_guard_called_by_no_placeholder_is_no_evidence(index):
    """The candidate calling the guard class itself (its frame first) is its own failure; a real body's throw of
    the same exception (a port member that is no placeholder) is no evidence either way."""
    own = failed("Dot", ["Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8", "Geo.Tests.VectorTests.Dot () at T.cs:20"])
    assert blockers(result(own), index, member(index, "Dot")) == []
    real = failed("Dot", ["Geo.Vector.Add (Geo.Vector other) at Vector.cs:7", "Geo.Tests.VectorTests.Dot () at T.cs:20"])
    assert blockers(result(real), index, member(index, "Dot")) == []


def test_the_whole_suite_asks_the_same_with_every_passing_translation(index):
    """The whole-suite check: a failing test is the placeholder's when no passing translation is on its chain
    (but where its Java original reaches the placeholder)."""
    dot, add = member(index, "Dot"), member(index, "Add")
    via_add = failed("Dot", [CTOR, "Geo.Vector.Add (Geo.Vector other) at Vector.cs:7", "Geo.Tests.VectorTests.Dot () at T.cs:20"])
    assert stops_in_untranslated(via_add, index, [Own(dot)]) == [member(index, "<init>")]
    assert stops_in_untranslated(via_add, index, [Own(dot), Own(add)]) == []
    java_add = replace(add, body="{ return new Vector(x, other.x); }")
    assert stops_in_untranslated(via_add, index, [Own(dot), Own(add, java_add)]) == [member(index, "<init>")]


def test_a_placeholder_behind_a_port_member_the_java_original_calls_too_is_that_members(index):
    """The candidate called a port member that is not its own code (Add, as the sample's Circle(...) calls its
    base constructor through super(...)) and that member reached the placeholder, by a path the Java text does
    not show (the base class's body): when the Java original calls the same member, the placeholder is behind
    it, not the candidate's; when it does not, or when the frame between is the framework's (a delegate, a
    LINQ iterator), the candidate led there itself."""
    dot = member(index, "Dot")
    through_add = failed("Dot", [ANGLE, "Geo.Vector.Add (Geo.Vector other) at Vector.cs:7",
                                 "Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8", "Geo.Tests.VectorTests.Dot () at T.cs:20"])
    calls_add, calls_nothing = replace(dot, body="{ return add(other).x; }"), replace(dot, body="{ return x; }")
    assert stops_in_untranslated(through_add, index, [Own(dot, calls_add)]) == [member(index, "AngleTo")]
    assert stops_in_untranslated(through_add, index, [Own(dot, calls_nothing)]) == []
    through_linq = failed("Dot", [ANGLE, "System.Linq.Enumerable+SelectEnumerableIterator`2[TSource,TResult].MoveNext ()",
                                  "Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8", "Geo.Tests.VectorTests.Dot () at T.cs:20"])
    assert stops_in_untranslated(through_linq, index, [Own(dot, calls_add)]) == []


def test_a_type_initializer_the_candidate_touched_first_is_its_java_classs_too(index):
    """The runtime runs Vector's type initializer where the type is first touched, inside the candidate (the
    sample's Vector2D: a static field's new Vector2D(0, 0) reaches the placeholder constructor): the Java
    class initializes the same way, so the placeholder is the initializer's, not the candidate's."""
    dot = member(index, "Dot")
    via_init = failed("Dot", [CTOR, "Geo.Vector..cctor () at Vector.cs:3", "Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8",
                              "Geo.Tests.VectorTests.Dot () at T.cs:20"])
    assert stops_in_untranslated(via_init, index, [Own(dot, replace(dot, body="{ return x * other.x; }"))]) == [
        member(index, "<init>")]

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
namespace X.Tests { public class SaltTests { public void Gensalts() { } } }
"""


def test_a_placeholder_behind_a_helper_the_candidate_carries_for_the_java_original_blocks(tmp_path):
    """BCrypt.Net's gensalt(int): the candidate carries Java's gensalt(int, SecureRandom) as an added helper,
    which calls the encode placeholder; Java's gensalt(int) reaches encode through that overload, so the
    candidate is blocked; an unrelated placeholder called the same way blocks nothing."""
    from repotrans.execution.judge.blocked import java_reaches
    from tests.support.indexes import mapped_pair

    _, index = mapped_pair(tmp_path, {"org/x/Salt.java": SALT_JAVA}, {"Salt.cs": SALT_CS})
    java = next(m for m in index.all_methods("source") if m.name == "gensalt" and len(m.params) == 1)
    gensalt = member(index, "Gensalt")
    encode, unrelated = member(index, "Encode"), member(index, "Unrelated")
    assert java_reaches(index, java, encode) and not java_reaches(index, java, unrelated)

    def reached(name: str, params: str) -> TestResult:
        chain = [f"X.Salt.{name} ({params}) at Salt.cs:4",
                 "X.Salt.Gensalt2 (System.Int32 rounds, System.Random r) at Salt.cs:9 (candidate line 8)",
                 "X.Salt.Gensalt (System.Int32 rounds) at Salt.cs:3 (candidate line 3)",
                 "X.Tests.SaltTests.Gensalts () at SaltTests.cs:12", CORE]
        return result(TestFailure(name="X.Tests.SaltTests.Gensalts", message="x", chains=[Chain(chain)]))

    assert blockers(reached("Encode", "System.Byte[] d, System.Int32 n"), index, gensalt, java) == [encode]
    assert blockers(reached("Unrelated", ""), index, gensalt, java) == []
    index.close()


def _blocked_behind(index: Index, chains: list[list[str]], run: int) -> TestResult:
    failures = [TestFailure(f"Geo.Tests.T.Case{i}", "System.NotImplementedException : not implemented",
                            chains=[Chain([*c, CORE])]) for i, c in enumerate(chains)]
    return TestResult(status="blocked", failures=failures, tests_run=run, tests_failed=len(failures),
                      behind=[member(index, "AngleTo").id])


def test_past_placeholders_that_stay_a_candidate_is_judged_on_the_tests_that_could_run(index):
    """The sample's IsBlank: its shape tests stop in FormatNumber (a task that ended failed) while they
    print a point; at the batch's end that placeholder stays one, so those tests say nothing about it."""
    dot, angle = member(index, "Dot"), member(index, "AngleTo")
    stopped = [ANGLE, "Geo.Tests.T.Case0 () at T.cs:9"]
    blocked = _blocked_behind(index, [stopped, stopped], run=5)
    judged = past_untranslated(blocked, dot, {angle.id})
    assert (judged.status, judged.tests_run, judged.tests_failed, judged.failures) == ("partial", 3, 0, [])
    assert judged.behind == [angle.id]          # what it rests on
    assert judged.left_out == {"Geo.Tests.T.Case0": "stops in Geo.Vector.AngleTo(Vector), which this run leaves "
                               "untranslated", "Geo.Tests.T.Case1": "stops in Geo.Vector.AngleTo(Vector), which this "
                               "run leaves untranslated"}
    assert judged.reason.startswith("passed on the 3 covering test(s) that could run; 2 left out")
    # a placeholder a pending candidate may still fill, no test that ran to the end, or the candidate on a
    # stopped test's chain at any depth (it may have led the test there): still blocked
    assert past_untranslated(blocked, dot, set()) is blocked
    assert past_untranslated(_blocked_behind(index, [stopped], run=1), dot, {angle.id}).status == "blocked"
    through = [ANGLE, "System.Linq.Enumerable.Sum (System.Collections.Generic.IEnumerable`1[T] source)",
               "Geo.Vector.Dot (Geo.Vector other) at Vector.cs:8", "Geo.Tests.T.Case1 () at T.cs:9"]
    assert past_untranslated(_blocked_behind(index, [stopped, through], run=5), dot, {angle.id}).status == "blocked"
