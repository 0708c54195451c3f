"""The port members that hold a member as a value (chain.Members.holders): where a translation can take a
placeholder from without naming it (a field initialized with its method group, a property or method returning a
delegate or a deferred query of it, a field a static constructor assigns it to), and where it cannot (a method
that only calls it, or returns a string built with it; the port's tests)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from repotrans.execution.judge.chain import Members, Own
from repotrans.index.store import Index
from tests.support.solutions import write_tree

PORT = """using System;
using System.Collections.Generic;
using System.Linq;

namespace Acme
{
    public static class Text
    {
        public static string Format(double v) { throw new NotImplementedException(); }

        public static readonly Func<double, string> Formatter = Format;
        public static Func<double, string> Current { get { return Format; } }
        public static IEnumerable<string> Lazily(double[] values) { return values.Select(Format); }
        public static string Joined(double[] values) { return string.Join(",", values.Select(Format)); }
        public static string Once(double v) { return Format(v); }
        private static Func<double, string> assigned;
        private static int untouched;
        static Text() { assigned = Format; untouched = 1; }
    }
}
"""
TESTS = """using NUnit.Framework;

namespace Acme.Tests
{
    [TestFixture]
    public class TextTests
    {
        private System.Func<double, string> kept = Acme.Text.Format;
        [Test] public void Formats() { Assert.AreEqual("1", Acme.Text.Format(1)); }
    }
}
"""


@pytest.fixture(scope="module")
def members(tmp_path_factory):
    root = tmp_path_factory.mktemp("holders")
    write_tree(root / "java", {"A.java": "class A {}\n"})
    write_tree(root / "cs", {"src/Text.cs": PORT, "tests/TextTests.cs": TESTS})
    index = Index.open(root / "index")
    index.build(root / "java", root / "cs", progress=False)
    yield index, Members(index)
    index.close()


def test_the_holders_of_a_member_are_what_keeps_it_as_a_value(members):
    index, found = members
    [fmt] = [m for m in index.find_methods("target", "Text.Format") if m.name == "Format"]
    assert found.holders(fmt) == {"Formatter", "Current", "Lazily", "assigned"}


def test_naming_a_holder_hands_the_member_on_unless_the_java_original_names_it_too(members):
    index, found = members
    [fmt] = [m for m in index.find_methods("target", "Text.Format") if m.name == "Format"]
    [once] = index.find_methods("target", "Text.Once")
    code = "public static void Keep() { Hook.Keep(Text.Formatter); }"
    assert found.handed_on(Own(once, None, code), fmt)
    java = replace(once, body="{ hook.keep(Text.FORMATTER); }")
    assert not found.handed_on(Own(once, java, code), fmt)
    assert not found.handed_on(Own(once, java, "public static string Keep() { return Text.Joined(null); }"), fmt)
