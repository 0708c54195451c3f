"""JUnit -> NUnit on the model path (templates translate_tests/repair_tests): a scripted model's
malformed answer is re-asked, its fixture is compiled against the port (real mcs) and a compile error
goes back to it; the fixture is written only once it compiles, always labelled as a translated test.
Once with AutoGen's replay client, once through `repotrans translate-tests` over real HTTP."""
from __future__ import annotations

import shutil

import pytest
from autogen_ext.models.replay import ReplayChatCompletionClient

from repotrans.cli import main
from repotrans.skeleton.create import create_skeleton
from repotrans.junit.translate import CATEGORY
from repotrans.mapping.load import load_mapping
from repotrans.junit.port_tests import port_junit_tests
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.skeleton_pair import FIXTURE, copy_pair, index_pair

needs_mcs = pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")

WRONG = """```csharp
// Translated by repotrans from JUnit org/demo/zoo/BoxTest.java
using System;
using NUnit.Framework;

namespace Demo.Zoo.Tests
{
    [TestFixture]
    [Category("RepotransTranslated")]
    public class BoxTests
    {
        private Box<string> box;

        [SetUp]
        public void SetUp() { box = new Box<string>(); }

        [Test]
        public void EmptyBoxHoldsNothing()
        {
            Assert.IsNull(box.getItem());
        }
    }
}
```"""
# the repair: properties as the port has them, the category left out (repotrans adds it back), HTML
# entities as a chat template that escapes its prompt echoes them
RIGHT = """Fixed: `Item` is a property in the port.
```csharp
// Translated by repotrans from JUnit org/demo/zoo/BoxTest.java
using System;
using NUnit.Framework;

namespace Demo.Zoo.Tests
{
    [TestFixture]
    public class BoxTests
    {
        private Box&lt;string&gt; box;

        [SetUp]
        public void SetUp() { box = new Box&lt;string&gt;(); }

        [Test]
        public void EmptyBoxHoldsNothing()
        {
            Assert.IsNull(box.Item);
            Assert.IsFalse(box.HoldsMoreThan("a"));
        }

        [Test]
        public void HoldsMoreThanSmallerItems()
        {
            box.Item = "m";
            Assert.AreEqual("m", box.Item, "the item");
            Assert.IsTrue(box.HoldsMoreThan("c"));
        }

        [Test]
        public void IndexingPastTheEndFails()
        {
            Assert.Catch&lt;IndexOutOfRangeException&gt;(() =&gt; { int[] flags = new int[1]; flags[2] = 1; });
        }
    }
}
```"""


@pytest.fixture
def port(tmp_path):
    """The skeleton pair's SDK port with the skeleton of the missing types written (Box among them)."""
    java, cs = copy_pair(tmp_path)
    index = index_pair(tmp_path, java, cs)
    assert create_skeleton(index, ["org.demo.*"]).check.compiled
    return java, cs, index


def _prompt(message) -> str:
    return message.content if isinstance(message.content, str) else ""


@needs_mcs
def test_malformed_answer_is_reasked_and_compile_errors_go_back_to_the_model(port):
    _, cs, index = port
    client = ReplayChatCompletionClient(["Sure! I will translate the test class now.", WRONG, RIGHT])
    result = port_junit_tests(index, load_mapping(index), FIXTURE / "junit", ["org.demo.zoo.BoxTest"], client=client)
    assert [t.fixture for t in result.tests] == ["BoxTests"] and result.skipped == {}
    written = (cs / "tests" / "Demo.Zoo.Tests" / "BoxTests.cs").read_text(encoding="utf-8")
    assert written == result.tests[0].text and result.tests[0].tests == 3
    assert f'    [Category("{CATEGORY}")]\n    public class BoxTests' in written        # label added back
    assert "Box<string> box;" in written and "() => {" in written                      # entities decoded
    notes = result.by_model["org/demo/zoo/BoxTest.java"]
    assert notes.startswith("compiled after 2 candidate(s)")
    assert "translate_tests: no C# code block holding a class" in notes and "left out [Category" in notes


@needs_mcs
def test_prompts_carry_the_ports_style_api_and_the_compiler_errors(port):
    _, cs, index = port
    seen: list[str] = []

    class Recording(ReplayChatCompletionClient):
        async def create(self, messages, *args, **kwargs):
            seen.append(_prompt(messages[-1]))
            return await super().create(messages, *args, **kwargs)

    port_junit_tests(index, load_mapping(index), FIXTURE / "junit", ["org.demo.zoo.BoxTest"], client=Recording([WRONG, RIGHT]))
    first, repair = seen
    assert first.startswith("# Step: translate the JUnit test class")
    assert "[Category(\"RepotransTranslated\")]" in first and "class `BoxTests`" in first
    assert "the port writes classic assertions" in first and "`Assert.Throws<X>(() => ...)`" in first
    assert "public class DogTests" in first                         # the port's own test file as the example
    assert '### 1. find_target_class_info({"class_name": "Box"})' in first and "Item" in first
    assert repair.startswith("# Step: repair the translated test class")
    assert "CS1061" in repair and "`Assert.IsNull(box.getItem());`" in repair


@needs_mcs
def test_a_fixture_that_never_compiles_is_not_written(port):
    _, cs, index = port
    result = port_junit_tests(index, load_mapping(index), FIXTURE / "junit", ["org.demo.zoo.BoxTest"],
                              client=ReplayChatCompletionClient([WRONG, WRONG]), rounds=2)
    assert result.tests == [] and not (cs / "tests" / "Demo.Zoo.Tests" / "BoxTests.cs").exists()
    assert "CS1061" in result.skipped["org.demo.zoo.BoxTest"]
    assert "repair stopped: candidate 2 repeats candidate 1" in result.by_model["org/demo/zoo/BoxTest.java"]


@pytest.mark.slow
@needs_mcs
def test_translate_tests_with_a_model_over_http(port, tmp_path, capsys):
    java, cs, index = port
    index.close()
    with FakeOpenAIServer([{"choices": []}, WRONG, RIGHT]) as server:
        rc = main(["translate-tests", "--junit", str(FIXTURE / "junit"), "--tests", "org.demo.zoo.BoxTest",
                   "--model", "scripted", "--base-url", server.base_url, "--workdir", str(tmp_path / "work")])
        out = capsys.readouterr().out
    assert rc == 0, out
    assert "1 JUnit class(es) translated by the model (3 tests)" in out
    assert "model: org/demo/zoo/BoxTest.java: compiled after 2 candidate(s)" in out
    assert len(server.requests) == 3 and "CS1061" in server.requests[2]["messages"][-1]["content"]
    assert f'[Category("{CATEGORY}")]' in (cs / "tests" / "Demo.Zoo.Tests" / "BoxTests.cs").read_text()


@needs_mcs
def test_the_prompt_follows_a_port_that_writes_assert_that(port):
    _, cs, index = port
    lines = "\n".join(f"            Assert.That({n}, Is.EqualTo({n}));" for n in range(12))      # more than the 10 classic ones
    (cs / "tests" / "Demo.Zoo.Tests" / "ConstraintTests.cs").write_text(
        "using NUnit.Framework;\n\nnamespace Demo.Zoo.Tests\n{\n    [TestFixture]\n    public class ConstraintTests\n"
        f"    {{\n        [Test]\n        public void Numbers()\n        {{\n{lines}\n        }}\n    }}\n}}\n")
    seen: list[str] = []

    class Recording(ReplayChatCompletionClient):
        async def create(self, messages, *args, **kwargs):
            seen.append(_prompt(messages[-1]))
            return await super().create(messages, *args, **kwargs)

    result = port_junit_tests(index, load_mapping(index), FIXTURE / "junit", ["org.demo.zoo.BoxTest"], client=Recording([RIGHT]))
    assert result.by_model["org/demo/zoo/BoxTest.java"].startswith("compiled after 1 candidate(s)")
    assert "the port writes `Assert.That(actual, Is.EqualTo(expected))`; use that form" in seen[0]
    assert "the port writes classic assertions" not in seen[0]
