"""A wrong candidate that hands an untranslated placeholder to port code, so the placeholder is reached on paths
its Java original never takes, is judged a failure under both sandboxes, never blocked (nor partial past it);
the right bodies are still passed or blocked right after, in the same warm sandbox.

The port (mcs, the runner, NUnit 2.6): Shapes.Triple, Shapes.Seed and Crate.Size are placeholders; Apply is a
port helper that calls the function it is given; Commit calls what the port keeps (a static hook, an event, a
Lazy) after Add returned. Each wrong body is right for one case and, on its other paths, gives a placeholder to
port code: as a delegate passed to a helper its Java original calls too, stored in port state or an event and
called after it returned, captured in a lambda, behind a Lazy or a deferred query, returned as a function, or
as an instance of a port class whose member is one. The runner's chain shows the port (not the candidate)
calling the placeholder; the rule that judges them is chain.stops_in_untranslated's: a member on the chain
that a translation's code names (by its name, or an instance member by a type it names) must be one its Java
original reaches.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.blocked import past_untranslated
from repotrans.index.store import Index
from tests.support.mono_repos import judged_port

SANDBOXES = [pytest.param("local", marks=pytest.mark.slow), pytest.param("docker", marks=pytest.mark.docker)]
SHAPES = """using System;
using System.Collections.Generic;
using System.Linq;

namespace Acme
{
    public interface IMeasure
    {
        int Size();
    }

    public class Box : IMeasure
    {
        readonly int n;
        public Box(int n) { this.n = n; }
        public int Size() { return n; }
    }

    public class Crate : IMeasure
    {
        public Crate(int n) { }

        public int Size()
        {
            throw new NotImplementedException();
        }
    }

    public class Shapes
    {
        public static Func<int, int> Audit;
        public event Func<int, int> Changed;
        public Lazy<int> Pending;
        int last;

        public int Triple(int x)
        {
            throw new NotImplementedException();
        }

        public int Seed()
        {
            throw new NotImplementedException();
        }

        public static int Apply(Func<int, int> f, int x)
        {
            return f(x);
        }

        public int Area(int w, int h)
        {
            return Triple(w) * h;
        }

        public int Add(int a, int b)
        {
            last = a + b;
            return last;
        }

        public int Commit()
        {
            int r = last;
            var audit = Audit;
            if (audit != null) audit(r);
            var changed = Changed;
            if (changed != null) changed(r);
            if (Pending != null) r += Pending.Value;
            return r;
        }

        public Func<int, int> Doubler()
        {
            return x => 2 * x;
        }

        public IEnumerable<int> Doubles(int[] xs)
        {
            return xs.Select(x => 2 * x).ToList();
        }

        public IMeasure Pack(int n)
        {
            return new Box(n);
        }

        public int Volume(int n)
        {
            return Pack(n).Size() * 2;
        }
    }
}
"""
TESTS = """using System;
using System.Linq;
using NUnit.Framework;

namespace Acme.Tests
{
    [TestFixture]
    public class ShapesTests
    {
        [Test] public void AddSmall() { Assert.AreEqual(5, new Shapes().Add(2, 3)); }
        [Test] public void AddCommitted() { var s = new Shapes(); int r = s.Add(3, 4); Assert.AreEqual(7, s.Commit()); Assert.AreEqual(7, r); }
        [Test] public void AddLargeCommitted() { var s = new Shapes(); int r = s.Add(100, 200); s.Commit(); Assert.AreEqual(300, r); }
        [Test] public void AddThenArea() { var s = new Shapes(); int r = s.Add(3, 4); s.Commit(); Assert.AreEqual(12, s.Area(2, 2)); Assert.AreEqual(7, r); }
        [Test] public void DoublerOfOne() { Assert.AreEqual(2, new Shapes().Doubler()(1)); }
        [Test] public void DoublerOfThree() { Assert.AreEqual(6, new Shapes().Doubler()(3)); }
        [Test] public void DoublesOfOne() { Assert.AreEqual(new[] { 2 }, new Shapes().Doubles(new[] { 1 }).ToArray()); }
        [Test] public void DoublesOfThree() { Assert.AreEqual(new[] { 2, 4, 6 }, new Shapes().Doubles(new[] { 1, 2, 3 }).ToArray()); }
        [Test] public void PackOne() { Assert.AreEqual(1, new Shapes().Pack(1).Size()); }
        [Test] public void PackFive() { Assert.AreEqual(5, new Shapes().Pack(5).Size()); }
        [Test] public void PackThenVolume() { var s = new Shapes(); Assert.AreEqual(1, s.Pack(1).Size()); Assert.AreEqual(6, s.Volume(3)); }
        [Test] public void PackThenCrate() { Assert.AreEqual(1, new Shapes().Pack(1).Size()); Assert.AreEqual(0, new Crate(1).Size()); }
    }
}
"""
JAVA = {
    "Add": "{\n    int sum = apply(x -> x, a) + b;\n    last = sum;\n    return sum;\n}",
    "Doubler": "{\n    return x -> 2 * x;\n}",
    "Doubles": "{\n    List<Integer> out = new ArrayList<>();\n    for (int x : xs) out.add(2 * x);\n    return out;\n}",
    "Pack": "{\n    return new Box(n);\n}",
}
RIGHT = {
    "Add": ("{\n    last = a + b;\n    return last;\n}", "blocked"),          # AddThenArea stops in Triple (port's Area)
    "Doubler": ("{\n    return x => 2 * x;\n}", "passed"),
    "Doubles": ("{\n    return xs.Select(x => 2 * x).ToList();\n}", "passed"),
    "Pack": ("{\n    return new Box(n);\n}", "blocked"),                     # PackThenCrate stops in Crate.Size
}
SMALL = "if (a == 2 && b == 3) return 5;\n    "        # right for the one test that does not go on
# (form, task, wrong body): each right for one case, handing a placeholder to port code on its other paths
WRONG = [
    ("a plain call, small enough to inline (the chain must still show the caller)", "Add",
     "{\n    " + SMALL + "return Triple(a) + b;\n}"),
    ("a method group passed to a port helper its Java original calls", "Add",
     "{\n    " + SMALL + "return Apply(Triple, a) + b;\n}"),
    ("a method group stored in port state, called after it returned", "Add",
     "{\n    " + SMALL + "Audit = Triple;\n    return 0;\n}"),
    ("a lambda capturing the placeholder, stored in port state", "Add",
     "{\n    " + SMALL + "Audit = r => Triple(r + a);\n    return 0;\n}"),
    ("an event handler the port raises later", "Add",
     "{\n    " + SMALL + "Changed += Triple;\n    return 0;\n}"),
    ("a Lazy of the placeholder the port forces later", "Add",
     "{\n    " + SMALL + "Pending = new Lazy<int>(Seed);\n    return 0;\n}"),
    ("a lambda through the port helper, stored", "Add",
     "{\n    " + SMALL + "Audit = r => Apply(Triple, r);\n    return 0;\n}"),
    ("the placeholder returned as a function", "Doubler",
     "{\n    return Triple;\n}"),
    ("a lambda returned, calling the placeholder off one case", "Doubler",
     "{\n    return x => x == 1 ? 2 : Triple(x);\n}"),
    ("a deferred query over the placeholder, returned", "Doubles",
     "{\n    if (xs.Length == 1) return new[] { 2 * xs[0] };\n    return xs.Select(Triple);\n}"),
    ("an iterator of its own, returned", "Doubles",
     "{\n    if (xs.Length == 1) return new[] { 2 };\n    return Each(xs);\n}\n"
     "private IEnumerable<int> Each(int[] xs)\n{\n    foreach (var x in xs) yield return Triple(x);\n}"),
    ("an instance of a port class whose member is a placeholder", "Pack",
     "{\n    if (n == 1) return new Box(1);\n    return new Crate(n);\n}"),
    ("an instance of the placeholder's class, fully qualified", "Pack",
     "{\n    if (n == 1) return new Box(1);\n    return new global::Acme.Crate(n);\n}"),
    ("an instance made by a helper of its own", "Pack",
     "{\n    if (n == 1) return new Box(1);\n    return Make(n);\n}\n"
     "private static IMeasure Make(int n)\n{\n    return new Crate(n);\n}"),
]


@pytest.fixture(scope="module", params=SANDBOXES)
def env(request, tmp_path_factory):
    yield from judged_port(tmp_path_factory.mktemp(f"delegates-{request.param}"), request.param,
                           {"Shapes.cs": SHAPES}, {"ShapesTests.cs": TESTS})


def task(index: Index, name: str):
    [m] = index.find_methods("target", f"Shapes.{name}")
    return m


@pytest.mark.parametrize("attack", WRONG, ids=[a[0] for a in WRONG])
def test_a_wrong_body_handing_a_placeholder_to_port_code_is_a_failure(env, attack):
    name, member, code = attack
    index, runners = env
    method = task(index, member)
    java = replace(method, body=JAVA[member])
    result = runners.run(index, method, code, java=java)
    assert result.status in ("runtime_error", "test_failure"), (name, result.brief())
    staying = {"target:Acme.Shapes.Triple(int)", "target:Acme.Shapes.Seed()", "target:Acme.Crate.Size()"}
    assert past_untranslated(result, method, staying).status == result.status
    # the right body right after, in the same warm sandbox
    right, expected = RIGHT[member]
    again = runners.run(index, method, right, java=java)
    assert again.status == expected, (name, again.brief())


def test_the_right_bodies_blocked_behind_port_placeholders_stay_blocked(env):
    """Add's right body: AddThenArea stops in Triple through the port's Area; Pack's: PackThenCrate in Crate.Size,
    which the test reaches itself. Neither names the placeholder or its class: blocked, and partial past it."""
    index, runners = env
    for member, behind in (("Add", "Acme.Shapes.Triple(int)"), ("Pack", "Acme.Crate.Size()")):
        method = task(index, member)
        result = runners.run(index, method, RIGHT[member][0], java=replace(method, body=JAVA[member]))
        assert result.status == "blocked", (member, result.brief())
        assert [b.split(":", 1)[1] for b in result.behind] == [behind]
        assert past_untranslated(result, method, set(result.behind)).status == "partial"


def test_the_names_a_candidate_uses_are_read_as_the_compiler_reads_them():
    """Escaped and verbatim identifiers are the names they spell; a name it only declares (a local, a parameter,
    a helper of its own) is not one it uses; leading usings and casts are read too."""
    from repotrans.execution.judge.chain import referenced_names

    names = referenced_names("using static Acme.Shapes;\n{\n    int Seed = 1; Audit = \\u0054riple;\n"
                             "    Changed += @Apply; return (IMeasure)Make(Seed);\n}\n"
                             "private static IMeasure Make(int Crate) { return null; }")
    assert {"Triple", "Apply", "Audit", "Changed", "IMeasure", "Shapes", "Acme", "Make", "Seed"} <= names
    assert "Crate" not in names
    assert referenced_names("{ int Seed = 1; return Seed; }") == {"Seed"}      # used after it is declared
    assert "Seed" not in referenced_names("{ int Seed = 1; return 0; }")


def test_a_members_name_after_a_dot_is_no_class():
    """`text.Length` (a string's length) names no port class Length: a translation that reads it does not
    hand a Length object on (the sample's Capitalize beside Measure.Length.ToString); every other place a
    class name may stand does."""
    from repotrans.execution.judge.chain import referenced_names, referenced_types

    assert "Length" in referenced_names("{ return text.Length + x?.Length; }")
    assert "Length" not in referenced_types("{ return text.Length + x?.Length + a.b.Length; }")
    # the sample's Repeat: the parser reads the argument as a declaration of a pointer `text.Length*`
    assert "Length" not in referenced_types("{ StringBuilder sb = new StringBuilder(text.Length * times); }")
    for code in ("{ return new Length(1); }", "{ return new global::Acme.Length(1); }", "{ return Acme.Length.Of(2); }",
                 "{ return (Length)o; }", "{ Length l = null; return l; }", "{ return x is Length; }",
                 "{ return typeof(Acme.Length); }", "using L = Acme.Length;\n{ return new L(1); }"):
        assert "Length" in referenced_types(code), code


def test_a_method_it_calls_is_on_the_chain_only_a_method_group_is_handed_on():
    """A call runs on the caller's frame (the chain then shows it): only a method named other than by a call
    (a method group, a delegate made of it) can be handed to port code. Calling a port method its Java original
    does not reach by name (Count for size()) therefore leaves a test that reaches it on its own blocked."""
    from repotrans.execution.judge.chain import referenced_groups

    called = "{ return this.Triple(a) + Shapes.Triple(b) + x?.Triple(1) + Triple(2) + Make<int>(3); }"
    assert not referenced_groups(called) & {"Triple", "Make"}
    for code in ("{ return Apply(Triple, a); }", "{ Audit = Triple; return 0; }", "{ Changed += this.Triple; }",
                 "{ return new Lazy<int>(Triple); }", "{ return xs.Select(Triple); }", "{ return x?.Triple; }",
                 "{ Func<int, int> f = Shapes.Triple; return f(1); }", "{ return new Func<int, int>(Triple); }"):
        assert "Triple" in referenced_groups(code), code
