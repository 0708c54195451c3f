"""The deleted-class benchmark cannot overstate (issue 34): every test file of a class is hidden, and the
member comparison sees parameter types, static-ness and accessibility, not only kind, name and arity."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _bench(name: str = "bench_whole_types"):
    """A script as a module (bench_whole_types imports its sibling whole_types_api from scripts/, as when it runs)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


def test_every_test_file_of_the_class_is_its_own():
    own = _bench().own_test_file
    for name in ("BitSourceTestCase.cs", "BitSourceTests.cs", "BitSourceEdgeTest.cs", "TestBitSource.cs",
                 "TestBitSourceLarge.cs"):
        assert own("BitSource", name), name
    assert not own("BitSource", "BitSource.cs") and not own("BitSource", "BitSourceBuilder.cs")
    assert not own("BitSource", "BitArrayTestCase.cs")


def test_member_shape_includes_parameter_types_static_and_access():
    shape = _bench("whole_types_api").shape
    assert shape(["public", "static"], ["System.String", "int[]"]) == (("string", "int[]"), True, "public")
    assert shape(["public"], ["String"]) != shape(["public", "static"], ["String"])
    assert shape(["internal"], ["long"]) != shape(["public"], ["DateTime"])
    assert shape([], ["IList<Int32>"])[0] == ("IList<int>",) and shape([], [])[2] == "(default)"
    assert shape(["public", "const"], [])[1] is True


def test_test_methods_of_members_the_port_added_are_set_apart():
    """A port's test file may test a member the port added (NSoup's StringUtil.Resolve, which jsoup's
    StringUtil has not): no regeneration from Java brings it back, and one such method keeps the whole
    file from compiling. It is taken out (with its attributes) on both sides and named; the rest stays."""
    api = _bench("whole_types_api")
    text = (
        "namespace T\n{\n    [TestClass]\n    public class StringUtilTest\n    {\n"
        "        [TestMethod]\n        public void join()\n        {\n"
        "            Assert.AreEqual(\"a}b\", StringUtil.Join(new[] { \"a\", \"b\" }, \"}\"));\n        }\n\n"
        "        [TestMethod]\n        [Description(\"urls { }\")]\n        public void resolvesRelativeUrls()\n        {\n"
        "            // a comment with a } brace\n"
        "            Assert.AreEqual(\"http://a/b\", StringUtil.Resolve(\"http://a\", \"./b\"));\n        }\n\n"
        "        [TestMethod]\n        public void padding()\n        {\n"
        "            Assert.AreEqual(\" \", StringUtil.Padding(1));\n        }\n    }\n}\n")
    kept, removed = api.set_apart(text, {"StringUtil": {"Resolve"}})
    assert removed == ["resolvesRelativeUrls"]
    assert "Resolve" not in kept and "Description" not in kept and "urls" not in kept
    assert kept.count("[TestMethod]") == 2 and "public void join()" in kept and "public void padding()" in kept
    assert kept.endswith("StringUtil.Padding(1));\n        }\n    }\n}\n") and '"a}b"' in kept
    assert api.set_apart(text, {"StringUtil": {"InSorted"}}) == (text, [])


def test_a_member_the_java_class_has_in_another_shape_is_no_addition(tmp_path):
    """NSoup's StringUtil.IsWhiteSpace(char) is jsoup's isWhitespace(int) (the mapping does not pair them:
    other parameter type), so its tests are the class's, not set apart; Resolve has no Java member."""
    from repotrans.index.store import Index

    java, cs = tmp_path / "java" / "org" / "demo", tmp_path / "cs"
    java.mkdir(parents=True)
    cs.mkdir()
    (java / "StringUtil.java").write_text(
        "package org.demo;\n\npublic final class StringUtil {\n"
        "    public static boolean isWhitespace(int c) { return c == ' '; }\n"
        "    public static String padding(int n) { return \"\"; }\n}\n")
    (cs / "StringUtil.cs").write_text(
        "namespace Demo\n{\n    public static class StringUtil\n    {\n"
        "        public static bool IsWhiteSpace(char c) { return c == ' '; }\n"
        "        public static string Padding(int n) { return \"\"; }\n"
        "        public static string Resolve(string a, string b) { return b; }\n    }\n}\n")
    index = Index.open(tmp_path / "ix")
    index.build(tmp_path / "java", cs, progress=False)
    api = _bench("whole_types_api")
    assert api.port_only_members(index, {"org.demo.StringUtil": ("target:Demo.StringUtil", "", [])}) == \
        {"StringUtil": {"Resolve"}}


def test_a_classs_junit_tests_are_found_by_what_they_exercise_in_any_package(tmp_path):
    """Pinyin4j keeps PinyinHelperTest in net.sourceforge.pinyin4j.test (a subpackage importing the class):
    a `<Class>Test*` pattern on the class's own package missed it. A test of the same simple name that sees
    another package's class of that name is not one of the class's."""
    files = {"org/demo/test/DogTest.java": "package org.demo.test;\nimport org.demo.Dog;\nclass DogTest { Dog d; }",
             "org/demo/TestCat.java": "package org.demo;\nclass TestCat { Cat c; }",
             "org/demo/more/CatTests.java": "package org.demo.more;\nimport org.demo.*;\nclass CatTests { Cat c; }",
             "org/other/DogTest.java": "package org.other;\nclass DogTest { Dog d; }",
             "org/demo/BirdTest.java": "package org.demo;\nclass BirdTest { Bird b; }"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    found = _bench().junit_tests_of(tmp_path, ["org.demo.Dog", "org.demo.Cat"])
    assert found == ["org.demo.TestCat", "org.demo.more.CatTests", "org.demo.test.DogTest"]


def test_a_fixture_with_more_attributes_or_internal_is_found(tmp_path):
    """The translated fixtures carry [Category] after [TestFixture], and one deriving from an internal base is
    internal (libphonenumber's ShortNumberUtilTests): the judge found none of it and ran 0 tests."""
    (tmp_path / "T.cs").write_text('namespace N\n{\n    [TestFixture]\n    [Category("RepotransTranslated")]\n'
                                   '    class ShortNumberUtilTests : TestMetadataTestCase\n    {\n    }\n}\n')
    (tmp_path / "U.cs").write_text("namespace N\n{\n    [TestFixture]\n    public sealed class UTests\n    {\n    }\n}\n")
    assert _bench().fixtures_of(tmp_path, ["T.cs", "U.cs"], "P") == ["P:N.ShortNumberUtilTests", "P:N.UTests"]


def test_a_fixture_whose_static_fields_stop_in_a_placeholder_stopped_in_it():
    """HdrHistogram's translated fixtures build histograms in static fields: a placeholder there throws
    TypeInitializationException around its NotImplementedException, which is a stop in the placeholder; any
    other cause, or an assertion, is not."""
    from repotrans.execution.toolchains.nunit import exception_info
    innermost = _bench().innermost
    init = "System.TypeInitializationException : The type initializer for 'N.HistogramTest' threw an exception."
    assert innermost(exception_info(init + "\n  ----> System.NotImplementedException : The method or operation "
                                    "is not implemented.", [])) == "System.NotImplementedException"
    assert innermost(exception_info(init + "\n  ----> System.IndexOutOfRangeException : Index was outside",
                                    [])) == "System.IndexOutOfRangeException"
    assert innermost(exception_info("System.NotImplementedException : x", [])) == "System.NotImplementedException"
    assert innermost(exception_info("NUnit.Framework.AssertionException : Expected: 1 But was: 2",
                                    [])) == "NUnit.Framework.AssertionException"
