"""Covering tests by static reachability (issue 35): a test covers a member when its identifiers, followed
through the index's members (calls, overrides, constructors, properties), reach it. Real index over a
small C# library and its tests (tree-sitter only, no build)."""
from __future__ import annotations

from pathlib import Path

from repotrans.execution.workspace.reach import Reachability, body_tokens, build_graph, reaching_tests
from repotrans.execution.workspace.selection import choose_tests, index_tests
from repotrans.index.store import Index

LIB = """
namespace Git
{
    public class Repo
    {
        public PullCommand Pull() { return new PullCommand(this); }
        public int Count => Helper.Twice(1);
    }

    public class PullCommand
    {
        private readonly Repo repo;
        public PullCommand(Repo repo) { this.repo = repo; }
        public string Call() { return Fetch() + "!"; }
        private string Fetch() { return "fetched"; }
    }

    public abstract class Shape { public abstract double Area(); public double Twice() => 2 * Area(); }
    public class Square : Shape { public override double Area() { return 4; } }

    internal static class Helper { public static int Twice(int n) { return 2 * n; } }

    public class Unused { public string Call() { return "never"; } }
}
"""
TESTS = """
using NUnit.Framework;
namespace Git.Tests
{
    [TestFixture]
    public class PullTests
    {
        [Test]
        public void PullCalls() { Assert.AreEqual("fetched!", new Repo().Pull().Call()); }

        [Test]
        public void CountIsTwo() { Assert.AreEqual(2, new Repo().Count); }

        [Test]
        public void NamesCallInAString() { Assert.AreEqual("Call", "Call"); }
    }

    public abstract class ShapeTests
    {
        protected abstract Shape Make();

        [Test]
        public void TwiceIsDouble() { Assert.AreEqual(2 * Make().Area(), Make().Twice()); }
    }

    [TestFixture]
    public class SquareTests : ShapeTests
    {
        protected override Shape Make() { return new Square(); }
    }
}
"""


class _Ws:
    def __init__(self, root: Path):
        self.root = root


def _setup(tmp_path, lib: tuple[str, str] = ("Lib.cs", LIB), tests: tuple[str, str] = ("PullTests.cs", TESTS)):
    java, cs = tmp_path / "java", tmp_path / "cs"
    java.mkdir()
    (java / "A.java").write_text("class A {}\n")
    (cs / "src").mkdir(parents=True)
    (cs / "tests").mkdir()
    (cs / "src" / lib[0]).write_text(lib[1])
    (cs / "tests" / tests[0]).write_text(tests[1])
    index = Index.open(tmp_path / "wd")
    index.build(java, cs, progress=False)
    fixtures = index_tests(_Ws(tmp_path), {"T": cs / "tests"})
    return index, fixtures


def _select(index, fixtures, query: str, reach: Reachability):
    [m] = index.find_methods("target", query)
    return choose_tests(index, m, fixtures, set(), set(), reach)


def test_a_fluent_call_and_a_private_helper_are_reached_through_the_call_graph(tmp_path):
    index, fixtures = _setup(tmp_path)
    reach = Reachability()
    call = _select(index, fixtures, "PullCommand.Call", reach)
    assert call.basis == "covering" and call.tests == ["T:Git.Tests.PullTests.PullCalls"]
    fetch = _select(index, fixtures, "PullCommand.Fetch", reach)           # private: no test names it
    assert fetch.tests == ["T:Git.Tests.PullTests.PullCalls"]
    assert _select(index, fixtures, "Helper.Twice", reach).tests == ["T:Git.Tests.PullTests.CountIsTwo"]
    # a constructor by `new`, reached through Pull's body
    assert _select(index, fixtures, "PullCommand.PullCommand", reach).tests == ["T:Git.Tests.PullTests.PullCalls"]
    # a same-named member of a type no test reaches, and a name inside a string, reach nothing
    assert _select(index, fixtures, "Unused.Call", reach).basis != "covering"


def test_an_override_is_reached_through_its_base_and_an_abstract_fixtures_tests_run_as_the_derived(tmp_path):
    index, fixtures = _setup(tmp_path)
    chosen = _select(index, fixtures, "Square.Area", Reachability())
    assert chosen.basis == "covering" and chosen.tests == ["T:Git.Tests.SquareTests"]


def test_code_tokens_leave_out_comments_and_strings():
    assert body_tokens('{ return new A.B<int>(x) + "Call" + F(); // G()\n }') >= {"new B", "F", "x", "return"}
    assert not body_tokens('{ return "Call"; /* G() */ }') & {"Call", "G"}


SAME_NAMES = """
namespace Codes.Qr
{
    public class Decoder { public int Decode() { return Version.Of(1).Blocks(); } }
    public class Version
    {
        public static Version Of(int n) { return new Version(); }
        public int Blocks() { return new ECB(2).Count; }
        public class ECB { public ECB(int n) { Count = n; } public int Count { get; } }
    }
    public class Box<T> { public T Get() { return default(T); } }
}
namespace Codes.Aztec
{
    public class Decoder { public int Decode() { return Version.Of(1).Blocks(); } }
    public class Version
    {
        public static Version Of(int n) { return new Version(); }
        public int Blocks() { return new ECB(3).Count; }
        public class ECB { public ECB(int n) { Count = n; } public int Count { get; } }
    }
    public class Box { public int Get() { return 0; } }
}
"""
SAME_NAME_TESTS = {
    "QrTests.cs": """
using NUnit.Framework;
namespace Codes.Qr.Tests
{
    [TestFixture]
    public class QrTests
    {
        [Test] public void Decodes() { Assert.AreEqual(2, new Decoder().Decode()); }
        [Test] public void Boxes() { Assert.AreEqual(0, new Box<int>().Get()); }
    }
}
""",
    "AztecTests.cs": """
using NUnit.Framework;
using Codes.Aztec;
using AzVersion = Codes.Aztec.Version;
namespace Tests
{
    [TestFixture]
    public class AztecTests
    {
        [Test] public void Blocks() { Assert.AreEqual(3, AzVersion.Of(1).Blocks()); }
        [Test] public void Nested() { Assert.AreEqual(3, new Version.ECB(3).Count); }
        [Test] public void Qualified() { Assert.AreEqual(2, new Codes.Qr.Decoder().Decode()); }
        [Test] public void Boxes() { Assert.AreEqual(0, new Box().Get()); }
    }
}
""",
    "Broken.cs": """
using NUnit.Framework;
namespace Tests.Broken
{
    [TestFixture]
    public class BrokenTests
    {
        [Test] public void Decodes() { Assert.AreEqual(2, new Decoder().Decode(); }
    }
}
""",
}


def _same_names(tmp_path):
    java, cs = tmp_path / "java", tmp_path / "cs"
    java.mkdir()
    (java / "A.java").write_text("class A {}\n")
    (cs / "src").mkdir(parents=True)
    (cs / "tests").mkdir()
    (cs / "src" / "Codes.cs").write_text(SAME_NAMES)
    for name, text in SAME_NAME_TESTS.items():
        (cs / "tests" / name).write_text(text)
    index = Index.open(tmp_path / "wd")
    index.build(java, cs, progress=False)
    return index, index_tests(_Ws(tmp_path), {"T": cs / "tests"})


def test_same_named_classes_in_two_namespaces_are_told_apart_by_their_scopes(tmp_path):
    index, fixtures = _same_names(tmp_path)
    reach = Reachability()
    qr, broken = "T:Codes.Qr.Tests.QrTests.Decodes", "T:Tests.Broken.BrokenTests.Decodes"
    # Qualified writes `new Codes.Qr.Decoder()` in a file using Codes.Aztec: the chain binds to Qr's, and its
    # bare identifier Decoder (a fixture scan keeps no positions) to Aztec's; Broken is parsed in part, so
    # its Decoder falls back to both (counted)
    qualified = "T:Tests.AztecTests.Qualified"
    assert _select(index, fixtures, "Codes.Qr.Version.Blocks", reach).tests == [qr, qualified, broken]
    assert _select(index, fixtures, "Codes.Qr.Version.ECB.ECB", reach).tests == [qr, qualified, broken]
    # the Aztec members: through a using alias (AzVersion), a nested type through a using (new Version.ECB)
    assert _select(index, fixtures, "Codes.Aztec.Version.Blocks", reach).tests == \
        ["T:Tests.AztecTests.Blocks", qualified, broken]
    assert sorted(_select(index, fixtures, "Codes.Aztec.Version.ECB.ECB", reach).tests) == \
        ["T:Tests.AztecTests.Blocks", "T:Tests.AztecTests.Nested", qualified, broken]
    assert _select(index, fixtures, "Codes.Aztec.Decoder.Decode", reach).tests == [qualified, broken]
    # generics: Box<int> is Qr's Box<T>, Box (through the using) is Aztec's
    assert _select(index, fixtures, "Codes.Qr.Box.Get", reach).tests == ["T:Codes.Qr.Tests.QrTests.Boxes"]
    assert _select(index, fixtures, "Codes.Aztec.Box.Get", reach).tests == ["T:Tests.AztecTests.Boxes"]
    assert reach.type_names(index).fallbacks == {"Decoder": 1}


def test_the_same_tests_by_simple_name_would_select_both_namespaces(tmp_path):
    """What the simple-name walk selected for the same tree (a QR test reaching Aztec's members): the
    difference the type identities make."""
    index, fixtures = _same_names(tmp_path)
    graph = build_graph(index)
    qr_start = set(fixtures["T:Codes.Qr.Tests.QrTests"]["tests"]["Decodes"])
    by_name = {t for t in qr_start} | {"target:Codes.Qr.Decoder", "target:Codes.Aztec.Decoder", "new target:Codes.Qr.Decoder",
                                      "new target:Codes.Aztec.Decoder"}
    assert "target:Codes.Aztec.Version.Blocks()" in graph.reach(by_name)
    blocks = "target:Codes.Aztec.Version.Blocks()"
    assert not Reachability().reaching(index, [(frozenset(qr_start), ("Codes.Qr.Tests.QrTests",))])(blocks)


DISPATCH = """
namespace Run
{
    public interface IRunner { int Run(); }
    public abstract class Base : IRunner
    {
        public int Run() { return Step() + 1; }
        protected abstract int Step();
    }
    public class A : Base { protected override int Step() { return 1; } }
    public class B : Base { protected override int Step() { return 2; } }
    public class Holder
    {
        private IRunner runner = Pick();
        private static IRunner Pick() { return null; }
        public int Go() { return runner.Run(); }
    }
}
"""
DISPATCH_TESTS = """
using NUnit.Framework;
namespace Run.Tests
{
    [TestFixture]
    public class RunTests
    {
        [Test] public void OnA() { Assert.AreEqual(2, new A().Run()); }
        [Test] public void ThroughTheInterface() { IRunner r = new B(); Assert.AreEqual(3, r.Run()); }
        [Test] public void ThroughAField() { Assert.AreEqual(0, new Holder().Go()); }
    }
}
"""


def test_a_call_on_a_subtype_reaches_its_overrides_not_its_siblings(tmp_path):
    """`new A().Run()` runs Base.Run on an A: A.Step, never B.Step; a receiver typed by the interface (a
    local's or a field's declared type) may be any implementation: both."""
    index, fixtures = _setup(tmp_path, ("Run.cs", DISPATCH), ("RunTests.cs", DISPATCH_TESTS))
    reach = Reachability()
    on_a, interface, field = (f"T:Run.Tests.RunTests.{t}" for t in ("OnA", "ThroughTheInterface", "ThroughAField"))
    assert sorted(_select(index, fixtures, "Run.A.Step", reach).tests) == [on_a, field, interface]
    assert sorted(_select(index, fixtures, "Run.B.Step", reach).tests) == [field, interface]
    assert sorted(_select(index, fixtures, "Run.Base.Run", reach).tests) == [on_a, field, interface]


def test_covering_tests_come_nearest_first(tmp_path):
    """The fewest calls between a test and the member first (a failing candidate fails in the first tests
    run): OnA and ThroughTheInterface call Base.Run themselves, ThroughAField through Holder.Go; B.Step is
    two calls from ThroughTheInterface (Run, then Step) and three from ThroughAField. Not alphabetical."""
    index, fixtures = _setup(tmp_path, ("Run.cs", DISPATCH), ("RunTests.cs", DISPATCH_TESTS))
    reach = Reachability()
    on_a, interface, field = (f"T:Run.Tests.RunTests.{t}" for t in ("OnA", "ThroughTheInterface", "ThroughAField"))
    assert _select(index, fixtures, "Run.Base.Run", reach).tests == [on_a, interface, field]
    assert _select(index, fixtures, "Run.B.Step", reach).tests == [interface, field]
    base_run = next(m.id for m in index.all_methods("target") if m.id.endswith("Run.Base.Run()"))
    start = frozenset(fixtures["T:Run.Tests.RunTests"]["tests"]["ThroughAField"])
    assert reach.reaching(index, [(start, ("Run.Tests.RunTests",))])(base_run) == {0: 2}


def test_a_binder_is_never_handed_out_over_another_closed_index_of_the_same_files(tmp_path):
    """A runner's Reachability outlives the Index objects it is asked with (a stage's own, a group's scratch
    copy): asked with a second Index over the same files after the first was closed, it binds names through the
    second (was: sqlite3.ProgrammingError, a closed database, in a batch's end stage on a real port)."""
    first, fixtures = _same_names(tmp_path)
    reach = Reachability()
    query = "Codes.Aztec.Version.ECB.ECB"
    expected = sorted(_select(first, fixtures, query, reach).tests)
    first.close()
    second = Index.open(tmp_path / "wd")
    try:
        assert sorted(_select(second, fixtures, query, reach).tests) == expected
        scope = second.type("target:Tests.AztecTests")
        assert reach.type_names(second).bind(scope, "Decoder") == {"target:Codes.Aztec.Decoder"}
    finally:
        second.close()


def test_among_fixtures_as_near_those_named_after_the_members_type_come_first():
    """NPOI's BitField.SetByte: no test calls it; TestFormulaParser (alphabetically first) and TestBitField reach
    it two calls away. The unit tests of its type come first, so a failing placeholder fails in them."""
    def fixture(test: str) -> dict:
        return {"idents": [], "abstract": False, "shared": [], "tests": {test: []}}

    fixtures = {"T:Ns.Formula.TestFormulaParser": fixture("Parse"), "T:Ns.Util.TestBitField": fixture("Byte"),
                "T:Ns.Util.Other": fixture("Near")}
    distances = {1: 2, 3: 1, 5: 2}       # start sets, by fixture key: its plumbing (reaches nothing), its test

    def reaching(starts):
        return lambda member: distances

    assert reaching_tests(fixtures, reaching, "target:Ns.Util.BitField.SetByte(byte)", "BitField")[0] == [
        "T:Ns.Util.Other.Near", "T:Ns.Util.TestBitField.Byte", "T:Ns.Formula.TestFormulaParser.Parse"]
    assert reaching_tests(fixtures, reaching, "target:Ns.Util.BitField.SetByte(byte)")[0] == [
        "T:Ns.Util.Other.Near", "T:Ns.Formula.TestFormulaParser.Parse", "T:Ns.Util.TestBitField.Byte"]


def test_test_files_read_before_the_build_index_as_read_after_it(tmp_path):
    """Dataset validation reads every test file beside the base build (selection.scan_test_files) and indexes
    the ones that compile afterwards: the same fixtures as reading them then, a file shared by two projects
    and a partial fixture spread over two files included."""
    from repotrans.execution.workspace.scratch import Workspace
    from repotrans.execution.workspace.selection import index_tests, scan_test_files
    a, b, shared = tmp_path / "A.cs", tmp_path / "B.cs", tmp_path / "Shared.cs"
    a.write_text("using NUnit.Framework;\nnamespace Ns {\n[TestFixture] public partial class F {\n"
                 "  [Test] public void T1() { Foo.Bar(); }\n}\n}\n")
    b.write_text("using NUnit.Framework;\nnamespace Ns {\npublic partial class F {\n"
                 "  [Test] public void T2() { Foo.Baz(); }\n}\n}\n")
    shared.write_text("using NUnit.Framework;\nnamespace Ns {\n[TestFixture] public class G {\n"
                      "  [Test] public void T3() { new Qux(); }\n}\n}\n")
    projects = {"P": [a, b, shared], "Q": [a, shared]}       # A.cs's part of F is read once for both
    (tmp_path / "w1").mkdir(), (tmp_path / "w2").mkdir()
    fresh = index_tests(Workspace(tmp_path / "w1", tmp_path, "k"), projects)
    scanned = scan_test_files({**projects, "Unbuilt": [tmp_path / "A.cs"]})
    again = index_tests(Workspace(tmp_path / "w2", tmp_path, "k"), projects, scanned)
    assert again == fresh and set(fresh) == {"P:Ns.F", "P:Ns.G", "Q:Ns.F", "Q:Ns.G"}
    assert set(fresh["P:Ns.F"]["tests"]) == {"T1", "T2"} and set(fresh["Q:Ns.F"]["tests"]) == {"T1"}
