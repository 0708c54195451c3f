"""What runs when no test names a member (a bounded, named fallback, never the whole suite), and a
stack overflow named as such; real mcs + nunit-console on a copy of the runner's calc fixture."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.index.store import Index
from tests.support.runners import Runners

pytestmark = pytest.mark.slow
CALC = Path(__file__).resolve().parents[1] / "fixtures" / "dotnet" / "projects" / "calc"
UTIL = """namespace Acme.Calc
{
    internal static class Util
    {
        public static int Plus(int a, int b) { return a + b; }

        public static int Unused(int a) { return a; }
    }
}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("fallbacks")
    target = root / "calc"
    shutil.copytree(CALC, target)
    (target / "src" / "Acme.Calc" / "Util.cs").write_text(UTIL)
    calc = target / "src" / "Acme.Calc" / "Calculator.cs"
    calc.write_text(calc.read_text().replace("int sum = a + b;", "int sum = Util.Plus(a, b);"))
    (root / "java").mkdir()
    (root / "java" / "A.java").write_text("class A {}\n")
    index = Index.open(root / "wd")
    index.build(root / "java", target, progress=False)
    with Runners(root / "wd", timeout=60.0) as runners:
        yield index, runners
    index.close()


def run(env, query: str, code: str):
    index, runners = env
    [m] = index.find_methods("target", query)
    return runners.run(index, m, code)


def test_a_member_no_test_names_is_judged_by_the_tests_that_reach_it(env):
    # static reach (issue 35): only the test whose calls reach Util.Plus through Calculator.Add; the name
    # walk's fallback took both fixtures naming its caller Calculator
    good = run(env, "Util.Plus", "public static int Plus(int a, int b) { return a + b; }")
    assert good.status == "passed" and good.tests_run > 0, good.brief()
    assert good.selected == ["Acme.Calc.Tests:Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers"]
    assert good.selection.startswith("1 covering test(s)")
    bad = run(env, "Util.Plus", "public static int Plus(int a, int b) { return a - b; }")
    assert bad.status == "test_failure", bad.brief()


def test_a_member_with_no_test_at_all_is_compiled_only(env):
    result = run(env, "Util.Unused", "public static int Unused(int a) { return a + 1; }")
    assert result.status == "no_tests" and result.tests_run == 0 and result.selected == []
    assert "no covering test" in result.selection and "compiled only" in result.selection
    broken = run(env, "Util.Unused", "public static int Unused(int a) { return b; }")
    assert broken.status == "compile_error"


def test_a_stack_overflow_is_named(env):
    result = run(env, "Calculator.Fibonacci", "public long Fibonacci(int n) { return Fibonacci(n + 1) + 1; }")
    assert result.status == "runtime_error"
    assert result.reason.startswith("stack overflow") and "crashed" not in result.reason
    [exc] = result.exceptions
    assert exc.type == "System.StackOverflowException"
    assert exc.frames and "(candidate line 1)" in exc.frames[0]
