"""Covering tests by static reachability (issue 35): a test covers a member when its identifiers, followed
through the index's members (calls, overrides, constructors, properties), reach it. Real index over a
small C# library and its tests (tree-sitter only, no build)."""
from __future__ import annotations

from pathlib import Path

from repotrans.execution.workspace.reach import Reachability, body_tokens
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


def _setup(tmp_path):
    java, cs = tmp_path / "java", tmp_path / "cs"
    java.mkdir()
    (java / "A.java").write_text("class A {}\n")
    (cs / "src").mkdir(parents=True)
    (cs / "tests").mkdir()
    (cs / "src" / "Lib.cs").write_text(LIB)
    (cs / "tests" / "PullTests.cs").write_text(TESTS)
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
