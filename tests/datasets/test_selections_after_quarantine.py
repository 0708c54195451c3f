"""Dataset validation's covering selections are made of the test files that compile here: the port's baseline
build (which quarantines the others) comes before them, whether or not the untouched baseline was cached
(datasets.validation.open_schemata). Real mcs."""
from __future__ import annotations

import pytest

from repotrans.datasets.validation import open_schemata
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from tests.support.mono_repos import core_and_tests, needs_mono, write_tree

CALC = "namespace Acme { public static class Calc { public static int Twice(int x) { return x * 2; } } }"
GOOD = """using NUnit.Framework;
namespace Acme.Tests { [TestFixture] public class Good { [Test] public void Doubles() { Assert.AreEqual(4, Calc.Twice(2)); } } }"""
BROKEN = """using NUnit.Framework; using Missing.Library;
namespace Acme.Tests { [TestFixture] public class Broken { [Test] public void Doubles() { Assert.AreEqual(6, Calc.Twice(3)); } } }"""


@pytest.mark.slow
def test_a_quarantined_test_file_is_in_no_selection(tmp_path):
    """Broken.cs names a library this machine lacks: the baseline build sets it aside, so its fixture, which
    calls Twice, must not be selected (its tests are not in the built assembly and would never run)."""
    needs_mono()
    target = write_tree(tmp_path / "port", core_and_tests({"Calc.cs": CALC}, {"Good.cs": GOOD, "Broken.cs": BROKEN}))
    (tmp_path / "java").mkdir()
    (tmp_path / "java" / "A.java").write_text("class A {}\n")
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", target, progress=False)
    twice = index.find_methods("target", "Calc.Twice")[0]
    with Runner(ExecutionConfig(sandbox="local", timeout=60, memory_mb=1024), tmp_path / "runs") as runner:
        *_, selections = open_schemata(index, [twice], runner)
    index.close()
    assert selections[twice.id].tests == ["T:Acme.Tests.Good.Doubles"], selections[twice.id]
