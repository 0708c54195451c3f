"""Test selection on small C# test sources (tree-sitter only, no build)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from repotrans.execution.workspace.selection import FALLBACK_LIMIT, Selection, caller_types, index_tests, select_tests

SOURCE = """
using NUnit.Framework;
namespace Ns.Tests
{
    [TestFixture]
    public class WidgetTests
    {
        private Widget shared = Widget.Make();

        [Test]
        public void SpinTurns() { Assert.AreEqual(1, new Widget().Spin()); }

        [TestCase(1)]
        [TestCase(2)]
        public void SpinTwiceTurnsTwice(int n) { Check(n); }

        [TestCaseSource("Cases")]
        public void ColourIsKnown(string c) { Assert.IsNotNull(c); }

        [Test]
        public void SizeIsPositive([ValueSource("Sizes")] int size) { Assert.Greater(size, 0); }

        [Test]
        public void NameIsSet() { Assert.AreEqual("w", shared.Name); }

        static int[] Sizes() { return new[] { Widget.Size() }; }
        static object[] Cases() { return new object[] { Widget.Colour() }; }
        private void Check(int n) { Helper(n); }
        private void Helper(int n) { Assert.AreEqual(2 * n, new Widget().Spin() + new Widget().Spin()); }

        public class Nested
        {
            [Test]
            public void Nothing() { Assert.Pass(); }
        }
    }

    public class MixedTests
    {
        private sealed class FakeWidget : Widget { public override int Turn() { return 0; } }

        [Test]
        public void FakeIsAWidget() { Assert.IsNotNull(new FakeWidget()); }

        [Test]
        public void GadgetSpins() { Assert.AreEqual(1, new Gadget().Spin()); }
    }

    public abstract class BaseTests
    {
        [Test]
        public void SpinFromBase() { new Widget().Spin(); }
    }

    public class SetUpTests
    {
        private Widget w;

        [SetUp]
        public void Init() { w = new Widget(); w.Reset(); }

        [Test]
        public void Works() { Assert.IsNotNull(w); }
    }
}
"""


def _fixtures(tmp_path: Path) -> dict[str, dict]:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "WidgetTests.cs").write_text(SOURCE)
    return index_tests(SimpleNamespace(root=tmp_path), {"P": tmp_path / "proj"})


def test_index_records_fixtures_and_what_each_test_reaches(tmp_path):
    fixtures = _fixtures(tmp_path)
    assert sorted(fixtures) == ["P:Ns.Tests.BaseTests", "P:Ns.Tests.MixedTests", "P:Ns.Tests.SetUpTests",
                                "P:Ns.Tests.WidgetTests", "P:Ns.Tests.WidgetTests+Nested"]
    widget = fixtures["P:Ns.Tests.WidgetTests"]
    assert sorted(widget["tests"]) == ["ColourIsKnown", "NameIsSet", "SizeIsPositive", "SpinTurns",
                                       "SpinTwiceTurnsTwice"]
    assert {"Spin", "new Widget", "Check", "Helper"} <= set(widget["tests"]["SpinTwiceTurnsTwice"])
    assert "Colour" in widget["tests"]["ColourIsKnown"] and "Spin" not in widget["tests"]["ColourIsKnown"]
    assert "Size" in widget["tests"]["SizeIsPositive"]
    assert "Make" in widget["shared"] and not widget["abstract"]
    assert fixtures["P:Ns.Tests.BaseTests"]["abstract"]
    assert {"Reset", "new Widget"} <= set(fixtures["P:Ns.Tests.SetUpTests"]["shared"])
    # cached in the workspace, read back as is
    (tmp_path / "proj" / "WidgetTests.cs").write_text("")
    assert index_tests(SimpleNamespace(root=tmp_path), {"P": tmp_path / "proj"}) == fixtures


def test_select_tests_by_member_then_by_fixture(tmp_path):
    fixtures = _fixtures(tmp_path)
    widget = {"Widget"}
    assert select_tests(fixtures, widget, {"Spin"}).tests == [
        "P:Ns.Tests.WidgetTests.SpinTurns", "P:Ns.Tests.WidgetTests.SpinTwiceTurnsTwice"]
    assert select_tests(fixtures, widget, {"Name"}).tests == ["P:Ns.Tests.WidgetTests.NameIsSet"]
    # a [SetUp] or a field initialiser reaching the member: every test of that fixture
    assert select_tests(fixtures, widget, {"Reset"}).tests == ["P:Ns.Tests.SetUpTests"]
    assert select_tests(fixtures, widget, {"Make"}).tests == ["P:Ns.Tests.WidgetTests"]
    assert select_tests(fixtures, widget, {"new Widget"}).tests == [
        "P:Ns.Tests.SetUpTests", "P:Ns.Tests.WidgetTests.SpinTurns", "P:Ns.Tests.WidgetTests.SpinTwiceTurnsTwice"]
    # a test naming the member on another class only (GadgetSpins) is not picked; the nested class
    # overriding Turn declares the name without reaching it: no test names Turn, so the fixtures
    # naming the class are run (a named, bounded fallback; abstract fixtures cannot run on their own)
    covering = ["P:Ns.Tests.MixedTests", "P:Ns.Tests.SetUpTests", "P:Ns.Tests.WidgetTests"]
    assert "Turn" not in fixtures["P:Ns.Tests.MixedTests"]["tests"]["FakeIsAWidget"]
    assert select_tests(fixtures, widget, {"Turn"}).tests == covering
    assert select_tests(fixtures, widget, {"Normalise"}).tests == covering
    assert select_tests(fixtures, {"Gadget"}, {"Spin"}).tests == ["P:Ns.Tests.MixedTests.GadgetSpins"]
    assert select_tests(fixtures, {"Thing"}, {"Spin"}).tests == []


def test_fallbacks_are_named_and_bounded(tmp_path):
    fixtures = _fixtures(tmp_path)
    turn = select_tests(fixtures, {"Widget"}, {"Turn"})
    assert turn.basis == "class" and "no test names the member" in turn.describe() and "Widget" in turn.describe()
    # no fixture names the class: the fixtures naming its callers, and nothing when there are none
    asked = []
    via = select_tests(fixtures, {"Sprocket"}, {"Spin"}, callers=lambda: asked.append(1) or {"Gadget"})
    assert via == Selection(["P:Ns.Tests.MixedTests"], "callers", ("Gadget",), 1)
    assert "callers Gadget" in via.describe()
    none = select_tests(fixtures, {"Sprocket"}, {"Spin"}, callers=set)
    assert none.tests == [] and none.basis == "none" and "compiled only" in none.describe()
    assert select_tests(fixtures, {"Widget"}, {"Spin"}, callers=lambda: asked.append(2) or set()).basis == "names"
    assert asked == [1]                       # callers are looked up only when the class has no fixture
    many = {f"P:Ns.T{n:02d}Tests": {"idents": ["Widget"], "abstract": False, "shared": [], "tests": {"A": []}}
            for n in range(FALLBACK_LIMIT + 4)}
    many["P:Ns.WidgetTests"] = {"idents": ["Widget"], "abstract": False, "shared": [], "tests": {"A": []}}
    bounded = select_tests(many, {"Widget"}, {"Spin"})
    assert len(bounded.tests) == FALLBACK_LIMIT and "P:Ns.WidgetTests" in bounded.tests
    assert f"the first {FALLBACK_LIMIT} of {FALLBACK_LIMIT + 5}" in bounded.describe()


def test_caller_types_name_the_member_and_its_class():
    def method(type_id, body, signature="void M()"):
        return SimpleNamespace(type_id=type_id, body=body, signature=signature)

    def decl(name):
        return SimpleNamespace(id="target:Ns." + name, name=name, qualified_name="Ns." + name)

    types = [decl(n) for n in ("Sprocket", "Gear", "Chain", "Other", "SprocketTests")]
    methods = [method("target:Ns.Sprocket", "{ return Spin(); }"),
               method("target:Ns.Gear", "{ s.Spin(); }", "void Drive(Sprocket s)"),
               method("target:Ns.Chain", "{ var s = new Sprocket(); }"),
               method("target:Ns.Other", "{ wheel.Spin(); }"),
               method("target:Ns.SprocketTests", "{ Sprocket.Spin(); }")]
    assert caller_types(types, methods, {"Spin"}, {"Sprocket"}, {"Ns.SprocketTests"}) == {"Gear"}
    assert caller_types(types, methods, {"new Sprocket"}, {"Sprocket"}, set()) == {"Chain"}
    assert caller_types(types, methods, set(), {"Sprocket"}, set()) == set()


def test_the_validation_limit_grows_with_the_fixtures_selected(tmp_path):
    fixtures = _fixtures(tmp_path)
    one = select_tests(fixtures, {"Widget"}, {"Spin"})             # two tests of one fixture
    three = select_tests(fixtures, {"Widget"}, {"new Widget"})     # a whole fixture and two tests of another
    fallback = select_tests(fixtures, {"Widget"}, {"Turn"})        # three fixtures
    assert (one.fixtures, three.fixtures, fallback.fixtures) == (1, 2, 3)
    assert one.timeout(60) == 60 and three.timeout(60) == 90 and fallback.timeout(60) == 120
    assert Selection([], "none").timeout(60) == 60
    # at least TEST_SECONDS per test method: a whole fixture counts all of its tests
    assert (one.size, three.size) == (2, len(fixtures["P:Ns.Tests.SetUpTests"]["tests"]) + 2)
    assert one.timeout(5) == 20 and Selection(["a"], "class", fixtures=2, size=70).timeout(60) == 700


def test_a_nested_fixture_reaches_through_the_helpers_of_the_class_it_is_nested_in(tmp_path):
    """sync puts translated tests in a nested `RepotransTranslated` fixture of the port's test class; they
    call that class's static helpers by simple name (`encode(..)` -> Encoder.Pad), which judge the member."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "EncoderTests.cs").write_text(
        "namespace Ns.Tests {\n  public class EncoderTests {\n"
        "    private static int encode(string s) { return Encoder.Pad(s.Length); }\n"
        "    [Test] public void Own() { Assert.AreEqual(1, encode(\"a\")); }\n"
        "    [TestFixture] public class RepotransTranslated {\n"
        "      [Test] public void testPadding() { Assert.AreEqual(3, encode(\"a\")); }\n    }\n  }\n}\n")
    fixtures = index_tests(SimpleNamespace(root=tmp_path), {"P": tmp_path / "proj"})
    assert "Pad" in fixtures["P:Ns.Tests.EncoderTests+RepotransTranslated"]["tests"]["testPadding"]


def test_a_fixture_under_a_file_scoped_namespace_is_named_as_the_runner_names_it(tmp_path):
    """C# 10's `namespace Ns.Tests;` holds the declarations after it as its siblings in the grammar: the fixture
    was indexed as "CounterTests", a name no runner knows, so every test selected from it "did not run"."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "CounterTests.cs").write_text(
        "using NUnit.Framework;\nnamespace Ns.Tests;\n\n[TestFixture]\npublic class CounterTests {\n"
        "  [Test] public void Counts() { Assert.AreEqual(1, Counter.Next()); }\n  public class Inner {\n"
        "    [Test] public void Also() { Counter.Next(); }\n  }\n}\n")
    fixtures = index_tests(SimpleNamespace(root=tmp_path), {"P": tmp_path / "proj"})
    assert sorted(fixtures) == ["P:Ns.Tests.CounterTests", "P:Ns.Tests.CounterTests+Inner"]
