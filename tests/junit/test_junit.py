"""JUnit 3/4/5 -> NUnit on tests/fixtures/skeleton_pair: text in the port's test style, and the
translated fixtures judging the batch's bodies for the generated skeleton (real mcs and NUnit)."""
from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from repotrans.agents.config import load_config
from repotrans.runs.batch import run_batch
from repotrans.skeleton.create import create_skeleton
from repotrans.junit.translate import CATEGORY
from repotrans.mapping.load import load_mapping
from repotrans.junit.port_tests import port_junit_tests
from tests.support.skeleton_pair import FIXTURE, copy_pair, index_pair

needs_mono = pytest.mark.skipif(shutil.which("mcs") is None or shutil.which("mono") is None,
                                reason="mono not installed")


@pytest.fixture
def pair(tmp_path):
    java, cs = copy_pair(tmp_path)
    index = index_pair(tmp_path, java, cs)
    return java, cs, index



def _box_tests(tmp_path, java, cs, junit):
    """The pair indexed, its skeleton made, and `junit`'s BoxTest translated into the port's BoxTests fixture."""
    index = index_pair(tmp_path, java, cs)
    create_skeleton(index, ["org.demo.*"])
    return _fixture(port_junit_tests(index, load_mapping(index), junit, ["org.demo.zoo.Box*"], write=False), "BoxTests")


def _fixture(result, name):
    return next(t for t in result.tests if t.fixture == name)


@needs_mono
def test_junit_classes_become_fixtures_in_the_ports_style(pair):
    _, cs, index = pair
    create_skeleton(index, ["org.demo.*"])
    result = port_junit_tests(index, load_mapping(index), FIXTURE / "junit", ["org.demo.*"], write=False)
    assert sorted((t.path, t.namespace, t.tests) for t in result.tests) == [
        ("tests/Demo.Zoo.Tests/BoxTests.cs", "Demo.Zoo.Tests", 3),
        ("tests/Demo.Zoo.Tests/SizeTests.cs", "Demo.Zoo.Tests", 4),
        ("tests/Demo.Zoo.Tests/VetTests.cs", "Demo.Zoo.Care.Tests", 1)]
    box = _fixture(result, "BoxTests").text
    assert f'[Category("{CATEGORY}")]' in box and "from JUnit org/demo/zoo/BoxTest.java" in box
    assert "[SetUp]\n        public void SetUp()" in box                       # JUnit 4 @Before
    assert 'Assert.AreEqual("m", box.Item, "the item");' in box               # message last, getter -> property
    assert "Assert.Catch<IndexOutOfRangeException>(() =>" in box             # @Test(expected = ...)
    size = _fixture(result, "SizeTests").text
    assert "[TestCase(1)]\n        [TestCase(5)]\n        [TestCase(20)]\n        public void EveryWeightIsPositive(int weight)" in size
    assert 'Assert.Catch<ArgumentException>(() => Size.ValueOf("HUGE"));' in size   # JUnit 5 assertThrows
    assert 'Assert.IsFalse(Size.SMALL.HeavierThan(Size.MEDIUM), "small is light");' in size
    vet = _fixture(result, "VetTests").text
    assert "[Test]\n        public void TestCheckCountsVisits()" in vet          # JUnit 3 testX
    assert "[SetUp]" in vet and "base.SetUp" not in vet and "base.setUp" not in vet
    assert 'Assert.AreEqual(2, vet.Visits, "two visits");' in vet


@pytest.mark.slow
@needs_mono
def test_translated_tests_judge_the_bodies_of_the_skeleton(pair, tmp_path):
    java, cs, index = pair
    assert create_skeleton(index, ["org.demo.*"]).check.compiled
    written = port_junit_tests(index, load_mapping(index), FIXTURE / "junit", ["org.demo.*"])
    assert written.placement.globbed == {"Demo.Zoo.Tests": ["tests/Demo.Zoo.Tests/BoxTests.cs",
                                                            "tests/Demo.Zoo.Tests/SizeTests.cs",
                                                            "tests/Demo.Zoo.Tests/VetTests.cs"]}
    index.close()
    config = load_config(None, cli={"model": {"name": "builtin"}, "execution": {"sandbox": "local"},
                                    "agents": {"rag": False}})
    summary = run_batch(java, cs, tmp_path / "run", config, progress=False)
    rows = sqlite3.connect(tmp_path / "run" / "results.sqlite").execute(
        "select task_id, status, result_json from results").fetchall()
    status = {task: s for task, s, _ in rows}
    selection = {task: json.loads(r)["selection"] for task, _, r in rows}
    # Box.Item (get/set pair) is written by the skeleton; the getters of Box.Label and of Grid's indexer are
    # placeholders beside a written setter: tasks too
    assert summary.tasks == 19 and summary.compiled == 19
    assert {"Demo.Zoo.Box.Label", "Demo.Zoo.Grid.this[int, int]"} <= set(status)
    for task in ("Demo.Zoo.Size.HeavierThan(Size)", "Demo.Zoo.Size.Weight", "Demo.Zoo.Care.Vet.Check(Animal)",
                 "Demo.Zoo.Care.Vet.Visits", "Demo.Zoo.Box.HoldsMoreThan(T)"):
        assert status[task] == "passed", (task, status[task])
    assert "SizeTests.Weights" in selection["Demo.Zoo.Size.Weight"]          # judged by a translated test
    judged = {task: json.loads(r)["judged_by"] for task, _, r in rows}
    assert judged["Demo.Zoo.Size.Weight"] == "translated tests"              # labelled as such, and counted apart
    assert summary.translated == sum(v == "translated tests" for v in judged.values()) > 0
    assert summary.passed + summary.failed + summary.blocked + summary.errors + summary.no_tests \
        + summary.translated == 19


def test_the_fixtures_own_static_helpers_are_called_without_this():
    from repotrans.junit.translate import _post_process
    text = _post_process("public void testA()\n{\n    this.assertPointEquals(1.0f, pt);\n    this.check(2);\n}\n"
                         "private static void assertPointEquals(float x, PerspectiveTransform pt)\n{\n}\n"
                         "private static readonly float EPSILON = 1.0E-4f;\nprivate void check(int n)\n{\n}")
    assert "    assertPointEquals(1.0f, pt);" in text and "this.assertPointEquals" not in text
    assert "this.check(2);" in text                     # an instance helper keeps its receiver


def test_a_translated_test_sits_where_the_ports_tests_sit_and_calls_its_ported_helpers(tmp_path):
    """NSoup keeps NSoup.Nodes's tests in Test.Nodes (the head replaced, not a suffix added) and jsoup's
    test helper TextUtil as Test.TextUtil with StripNewLines (jsoup: stripNewlines). A translated test goes
    into the port's test namespace and calls the helper as the port spells it (was NSoup.Nodes and
    TextUtil.StripNewlines: CS0103, the fixture was not built). A type the test reaches only through a return
    type (jsoup's Elements, from doc.select(..)) is known too: its first() is NSoup's First property."""
    java, cs = copy_pair(tmp_path)
    tests = cs / "tests" / "Demo.Zoo.Tests"
    for f in tests.glob("*.cs"):
        f.write_text(f.read_text().replace("namespace Demo.Zoo.Tests", "namespace Checks.Zoo"))
    (tests / "TextUtil.cs").write_text(
        "namespace Checks\n{\n    public static class TextUtil\n    {\n"
        "        public static string StripNewLines(string s) { return s.Replace(\"\\n\", \"\"); }\n    }\n}\n")
    (java / "org" / "demo" / "zoo" / "Yard.java").write_text(
        "package org.demo.zoo;\n\npublic class Yard {\n    public Pen pen() { return new Pen(); }\n}\n")
    (java / "org" / "demo" / "zoo" / "Pen.java").write_text(
        "package org.demo.zoo;\n\npublic class Pen {\n    public int first() { return 1; }\n}\n")
    (cs / "src" / "Demo.Zoo" / "Yard.cs").write_text(
        "namespace Demo.Zoo\n{\n    public class Yard\n    {\n        public Pen GetPen() { return new Pen(); }\n    }\n\n"
        "    public class Pen\n    {\n        public int First { get { return 1; } }\n    }\n}\n")
    junit = tmp_path / "junit" / "org" / "demo" / "zoo"
    junit.mkdir(parents=True)
    (junit / "CageTest.java").write_text(
        "package org.demo.zoo;\n\nimport static org.junit.Assert.assertEquals;\nimport org.junit.Test;\n"
        "import org.demo.TextUtil;\n\npublic class CageTest {\n    @Test\n    public void strips() {\n"
        "        assertEquals(\"10\", TextUtil.stripNewlines(\"1\\n0\"));\n"
        "        assertEquals(10, new Cage(99).getSize());\n"
        "        assertEquals(1, new Yard().pen().first());\n    }\n}\n")
    index = index_pair(tmp_path, java, cs)
    result = port_junit_tests(index, load_mapping(index), tmp_path / "junit", ["org.demo.zoo.Cage*"], write=False)
    cage = _fixture(result, "CageTests")
    assert cage.namespace == "Checks.Zoo"
    assert 'Assert.AreEqual("10", TextUtil.StripNewLines("1\\n0"));' in cage.text
    assert "using Demo.Zoo;" in cage.text and "using Checks;" in cage.text
    assert "Assert.AreEqual(1, new Yard().GetPen().First);" in cage.text   # Pen, never named, reached as a return type


def test_message_first_assertions_keep_their_literals_and_deltas():
    """HdrHistogram's HistogramDataTest: `assertEquals("Raw total count is 10,001", 10001L, ...)` was split on the
    literal's comma, left message-first and rewritten as "10, 001"; `assertEquals(msg, expected, actual, delta)`
    kept its message first (NUnit reads it as the expected value). Both now take the message last, verbatim,
    and a call with nothing to move is left exactly as written."""
    from repotrans.junit.translate import _post_process
    text = _post_process('Assert.AreEqual("Raw total count is 10,001", 10001L, raw.Count(a, b));\n'
                         'Assert.AreEqual("averages", h.Mean() * 512, s.Mean(), s.Mean() * 0.000001);\n'
                         'Assert.IsTrue("x, y", a < b);\nAssert.AreEqual(x,  "a,b");\n')
    assert text.split("\n")[:4] == [
        'Assert.AreEqual(10001L, raw.Count(a, b), "Raw total count is 10,001");',
        'Assert.AreEqual(h.Mean() * 512, s.Mean(), s.Mean() * 0.000001, "averages");',
        'Assert.IsTrue(a < b, "x, y");', 'Assert.AreEqual(x,  "a,b");']


def test_a_static_initializer_is_the_fixtures_static_constructor(tmp_path):
    """HdrHistogram's HistogramDataTest fills its static histograms in `static { ... }`: it was dropped ("not
    translated"), so every test read null fields; it is the fixture's static constructor."""
    java, cs = copy_pair(tmp_path)
    junit = tmp_path / "junit"
    shutil.copytree(FIXTURE / "junit", junit)
    (junit / "org" / "demo" / "zoo" / "BoxTest.java").write_text(
        (FIXTURE / "junit" / "org" / "demo" / "zoo" / "BoxTest.java").read_text().replace(
            "public class BoxTest {", "public class BoxTest {\n    static final int[] SIZES = new int[3];\n"
            "    static {\n        for (int i = 0; i < 3; i++) {\n            SIZES[i] = i * 2;\n        }\n    }\n", 1))
    box = _box_tests(tmp_path, java, cs, junit)
    assert "static BoxTests()" in box.text and "SIZES[i] = i * 2;" in box.text
    assert not any("static_initializer" in n for n in box.notes)


def test_a_per_test_constructor_is_the_fixtures_set_up(tmp_path):
    """libphonenumber's RegexCacheTest builds its cache in a parameterless constructor: JUnit runs it before each
    test (a new instance each), NUnit once for the fixture; dropped ("not translated"), every test met a null
    field. It is the fixture's [SetUp] when the tests have no set-up of their own; one that takes arguments
    (JUnit 3's `super(name)`) is still left out."""
    java, cs = copy_pair(tmp_path)
    junit = tmp_path / "junit"
    shutil.copytree(FIXTURE / "junit", junit)
    (junit / "org" / "demo" / "zoo" / "BoxTest.java").write_text(
        (FIXTURE / "junit" / "org" / "demo" / "zoo" / "BoxTest.java").read_text().replace(
            "    @Before\n    public void setUp() {\n        box = new Box<>();\n    }\n",
            "    public BoxTest() {\n        box = new Box<>();\n    }\n\n"
            "    public BoxTest(String name) {\n        box = null;\n    }\n", 1))
    box = _box_tests(tmp_path, java, cs, junit)
    assert "[SetUp]\n        public void SetUpEachTest()" in box.text, box.text
    assert "box = new Box<string>();" in box.text and "box = null;" not in box.text
    assert sum("constructor_declaration not translated" in n for n in box.notes) == 1


def test_a_fixture_keeps_the_test_base_class_the_port_has(tmp_path):
    """libphonenumber's ShortNumberUtilTest extends TestMetadataTestCase, whose port twin (internal) sets up the
    phoneUtil the tests use: dropped, the fixture did not build (CS0103 `phoneUtil'). The fixture derives from
    it, internal like its base; a base the port lacks gives none."""
    from repotrans.junit.port_tests import port_junit_tests

    java, cs = copy_pair(tmp_path)
    (cs / "tests" / "Demo.Zoo.Tests" / "ZooTestBase.cs").write_text(
        "namespace Demo.Zoo.Tests\n{\n    class ZooTestBase\n    {\n        protected int seed = 3;\n    }\n}\n")
    junit = tmp_path / "junit"
    shutil.copytree(FIXTURE / "junit", junit)
    box = junit / "org" / "demo" / "zoo" / "BoxTest.java"
    box.write_text(box.read_text().replace("public class BoxTest {", "public class BoxTest extends ZooTestBase {", 1))
    index = index_pair(tmp_path, java, cs)
    create_skeleton(index, ["org.demo.*"])
    result = port_junit_tests(index, load_mapping(index), junit, ["org.demo.zoo.Box*"], write=False)
    text = _fixture(result, "BoxTests").text
    assert "    class BoxTests : ZooTestBase" in text and "public class BoxTests" not in text, text
    box.write_text(box.read_text().replace("extends ZooTestBase", "extends SomethingElse", 1))
    result = port_junit_tests(index, load_mapping(index), junit, ["org.demo.zoo.Box*"], write=False)
    assert "    public class BoxTests\n" in _fixture(result, "BoxTests").text


def test_a_helper_class_of_the_test_and_an_imported_nested_type(tmp_path):
    """libphonenumber's PhoneNumberMatcherTest declares NumberTest (a raw string and a region per case) and
    imports PhoneNumberUtil.Leniency: the helper was dropped ('class_declaration not translated') and Leniency
    written bare (CS0246), so the fixture never built. The helper is nested in the fixture, its members
    translated (readable from the fixture); the nested type is written through its outer type."""
    java, cs = copy_pair(tmp_path)
    junit = tmp_path / "junit"
    shutil.copytree(FIXTURE / "junit", junit)
    box = junit / "org" / "demo" / "zoo" / "BoxTest.java"
    box.write_text(box.read_text().replace("import org.junit.Before;", "import org.demo.zoo.Dog.Leash;\nimport org.junit.Before;", 1)
                   .replace("public class BoxTest {", "public class BoxTest {\n    private Leash leash;\n\n"
                            "    private static class Case {\n        private final String name;\n\n"
                            "        Case(String name) {\n            this.name = name;\n        }\n\n"
                            "        @Override\n        public String toString() {\n            return name + \"!\";\n"
                            "        }\n    }\n", 1))
    fixture = _box_tests(tmp_path, java, cs, junit)
    text = fixture.text
    assert "private class Case" in text and "internal Case(string name)" in text, text
    assert "public override string ToString()" in text and 'return name + "!";' in text
    assert "string name;" in text and "private readonly string name;" not in text and "private string name;" not in text
    assert "Dog.Leash leash;" in text
    assert not any("class_declaration" in n for n in fixture.notes)


@needs_mono
def test_a_builtin_fixture_that_does_not_compile_is_repaired_like_a_body(tmp_path):
    """HdrHistogram's HistogramDataTest stores copyCorrectedForCoordinatedOmission() (Java: a Histogram) in a
    Histogram field; HdrHistogram.NET's returns AbstractHistogram (C# has no covariant returns): CS0266, the
    fixture never built and judged nothing. The builtin's fixture is compiled with the port's test project
    and repaired by the batch's rules (here a cast)."""
    from repotrans.junit.port_tests import port_junit_tests

    java, cs = copy_pair(tmp_path)
    cage_java = java / "org" / "demo" / "zoo" / "Cage.java"
    cage_java.write_text(cage_java.read_text().replace(
        "    public int getSize() {", "    public Cage copy() {\n        return new Cage(size);\n    }\n\n"
        "    public int getSize() {"))
    cage_cs = cs / "src" / "Demo.Zoo" / "Cage.cs"
    cage_cs.write_text(cage_cs.read_text().replace(
        "        public int Size\n", "        public object Copy()\n        {\n            return new Cage(size);\n"
        "        }\n\n        public int Size\n"))
    junit = tmp_path / "junit" / "org" / "demo" / "zoo"
    junit.mkdir(parents=True)
    (junit / "CageCopyTest.java").write_text(
        "package org.demo.zoo;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\n"
        "public class CageCopyTest {\n    @Test\n    public void aCopyKeepsTheSize() {\n"
        "        Cage copy = new Cage(3).copy();\n        assertEquals(3, copy.getSize());\n    }\n}\n")
    index = index_pair(tmp_path, java, cs)
    result = port_junit_tests(index, load_mapping(index), tmp_path / "junit", ["org.demo.zoo.Cage*"], write=False)
    text = _fixture(result, "CageCopyTests").text
    assert "Cage copy = (Cage)(new Cage(3).Copy());" in text
