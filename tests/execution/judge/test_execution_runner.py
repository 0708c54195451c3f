"""The runner end to end with real mcs + repotrans's NUnit runner in the local sandbox, on a small SDK-style
fixture (strong-named with InternalsVisibleTo, an embedded resource, unsafe code, DefineConstants)."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from repotrans import cli
from repotrans.errors import ConfigError
from repotrans.execution.judge import runner
from repotrans.execution.judge.runner import TargetBuildError
from repotrans.execution.sandboxes import backstop
from repotrans.execution.toolchains.api import make_toolchain
from repotrans.execution.sandboxes.local import LocalSandbox
from repotrans.index.store import Index
from tests.support.runners import Runners
from tests.support.processes import commands_mentioning

pytestmark = pytest.mark.slow
CALC = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet" / "projects" / "calc"
ADD_TRUTH = "public int Add(int a, int b)\n{\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}\n"
LOOP = "{\n    while (true) { }\n}"
BOMB = ("{\n    var hog = new System.Collections.Generic.List<byte[]>();\n"
        "    while (true) { var chunk = new byte[1 << 20]; chunk[0] = 1; hog.Add(chunk); }\n}")


def make_index(root: Path, target: Path) -> Index:
    (root / "java").mkdir(parents=True, exist_ok=True)
    (root / "java" / "A.java").write_text("class A {}\n")
    index = Index.open(root / "wd")
    index.build(root / "java", target, progress=False)
    return index


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("runner")
    index = make_index(root, CALC)
    with Runners(root / "wd", sandbox="local", timeout=30.0) as runners:
        yield index, root / "wd", runners
    index.close()


def method(index: Index, query: str):
    [m] = index.find_methods("target", query)
    return m


def run(env, query: str, code: str, **kw):
    index, _, runners = env
    return runners.run(index, method(index, query), code, **kw)


def test_ground_truth_passes_and_selects_the_tests_naming_the_member(env):
    result = run(env, "Calculator.Add", ADD_TRUTH)
    assert result.status == "passed", result.brief()
    assert result.selected == ["Acme.Calc.Tests:Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers"]
    assert (result.tests_run, result.tests_failed) == (1, 0)
    assert set(result.timings) >= {"apply", "baseline", "build", "test", "total"}
    json.dumps(result.to_json())


def test_a_test_case_method_runs_all_its_cases(env):
    index = env[0]
    fib = method(index, "Calculator.Fibonacci")
    own = (index.root("target") / fib.path).read_bytes()[fib.start_byte:fib.end_byte].decode()
    result = run(env, "Calculator.Fibonacci", own)
    assert result.status == "passed", result.brief()
    assert result.selected == ["Acme.Calc.Tests:Acme.Calc.Tests.FibonacciTests.FibonacciKnownValues"]
    assert (result.tests_run, result.tests_failed) == (3, 0)


def test_a_property_selects_the_tests_naming_it(env):
    result = run(env, "Calculator.HistoryCount", "internal int HistoryCount { get { return history.Count + 1; } }")
    assert result.status == "test_failure", result.brief()
    assert result.selected == ["Acme.Calc.Tests:Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers"]
    assert [(f.expected, f.actual) for f in result.failures] == [("1", "2")]


def test_scope_all_runs_the_whole_test_project(env):
    result = run(env, "Greeter.Shout", "{ return text.ToUpperInvariant() + \"!\"; }", scope="all")
    assert result.status == "passed" and result.selected == [] and result.tests_run == 10


def test_wrong_value_is_a_test_failure_with_expected_and_actual(env):
    result = run(env, "Calculator.Divide", "{ if (b == 0) throw new ArgumentException(); return a / b + 1; }")
    assert result.status == "test_failure"
    assert [(f.name, f.expected, f.actual) for f in result.failures] == [
        ("Acme.Calc.Tests.CalculatorTests.DivideTruncates", "3", "4")]


def test_syntax_garbage_is_a_compile_error_pointing_into_the_candidate(env):
    result = run(env, "Calculator.Fibonacci", "public long Fibonacci(int n)\n{\n    return n +;\n}")
    assert result.status == "compile_error"
    [diag] = [d for d in result.diagnostics if d.severity == "error"]
    assert (diag.code, diag.file, diag.candidate_line) == ("CS1525", "src/Acme.Calc/Calculator.cs", 3)
    assert "candidate line 3" in result.brief()


def test_exception_frames_point_into_the_candidate(env):
    code = ("using System.Text;\n\n{\n    string s = null;\n    long total = 0;\n"
            "    for (int i = 0; i < n; i++) { total += new StringBuilder().Append(i).Length; }\n"
            "    return total + s.Length;\n}")
    result = run(env, "Calculator.Fibonacci", code)
    assert result.status == "runtime_error"
    assert {e.type for e in result.exceptions} == {"System.NullReferenceException"}
    assert "(candidate line 7)" in result.exceptions[0].frames[0]


def test_placeholder_fails(env):
    result = run(env, "Calculator.Sum", "{ throw new System.NotImplementedException(); }")
    assert result.status == "runtime_error"
    assert result.exceptions[0].type == "System.NotImplementedException"


def test_unchanged_surface_rebuilds_only_the_library(env, monkeypatch):
    index, wd, _ = env
    calls: list[list[str]] = []

    class Recording(LocalSandbox):
        def run(self, argv, **kw):
            calls.append(argv)
            return super().run(argv, **kw)

    monkeypatch.setattr(runner, "make_sandbox", lambda name, ws, image, commands=1: Recording(ws))
    with Runners(wd, sandbox="local", timeout=30.0) as fresh:          # a new runner: its sandbox records
        env = (index, wd, fresh)
        assert run(env, "Calculator.Add", ADD_TRUTH).status == "passed"
        # one command compiles and checks the IL (policy.chained_argv), then the tests
        assert [c[0] for c in calls] == ["sh", "mono"]
        assert calls[0][6].endswith("repotrans-cecil-checker.exe") and calls[0][7] == "mcs"
        assert any(a.endswith("Acme.Calc.dll") for a in calls[0] if a.startswith("-out:"))
        calls.clear()
        # a new public overload changes what the tests could bind to: the test assembly is rebuilt too
        code = ADD_TRUTH + "public int Add(int a) { return a; }\n"
        assert run(env, "Calculator.Add", code).status == "passed"
        assert [c[0] for c in calls] == ["mcs", "sh", "mono"]        # the library, the tests + the check
        calls.clear()
        renamed = "public int Plus(int a, int b) { return a + b; }"
        result = run(env, "Calculator.Add", renamed)
        assert result.status == "compile_error"
        assert {(d.code, d.file, d.candidate_line) for d in result.diagnostics if d.severity == "error"} == {
            ("CS1061", "tests/Acme.Calc.Tests/CalculatorTests.cs", None)}


def test_infinite_loop_times_out_and_leaves_no_process(env):
    wd = env[1]
    result = run(env, "Calculator.Add", LOOP, timeout=5.0)
    # the test step's limit (5 CPU seconds where the sandbox counts them: longer in wall time on a busy machine)
    assert result.status == "timeout" and result.timings["test"] < backstop(5.0)
    assert "5 s" in result.reason
    assert commands_mentioning(str(wd)) == []


def test_memory_bomb_is_out_of_memory(env):
    result = run(env, "Calculator.Add", BOMB, memory_mb=512)
    assert result.status == "runtime_error" and result.reason == "out of memory", result.brief()
    assert commands_mentioning(str(env[1])) == []


def test_target_that_does_not_build_is_a_target_build_error(tmp_path):
    broken = tmp_path / "calc"
    shutil.copytree(CALC, broken)
    greeter = broken / "src" / "Acme.Calc" / "Text" / "Greeter.cs"
    greeter.write_text(greeter.read_text().replace("return text.ToUpperInvariant() + \"!\";",
                                                   "return undefinedName;"))
    index = make_index(tmp_path, broken)
    with Runners(tmp_path / "wd", sandbox="local") as runners:
        with pytest.raises(TargetBuildError, match="does not build before patching: project Acme.Calc: "
                                                   "src/Acme.Calc/Text/Greeter.cs:20: CS0103") as info:
            runners.run(index, method(index, "Calculator.Add"), ADD_TRUTH)
        assert info.value.diagnostics[0].code == "CS0103"
        with pytest.raises(TargetBuildError):                  # remembered, not rebuilt
            runners.run(index, method(index, "Calculator.Add"), ADD_TRUTH)
    index.close()


def test_language_version(tmp_path):
    assert make_toolchain("mono").language_version(CALC) == "6"
    (tmp_path / "P.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk"/>')
    assert make_toolchain("mono").language_version(tmp_path) == "6"
    assert make_toolchain("dotnet").language_version(tmp_path) == "7.3"
    with pytest.raises(ConfigError, match="unknown toolchain"):
        make_toolchain("gcc")


def test_cli_run_tests_and_write(tmp_path, capsys):
    target = tmp_path / "calc"
    shutil.copytree(CALC, target)
    make_index(tmp_path, target)
    code = tmp_path / "cand.cs"
    code.write_text("{ return a * b; }")
    argv = ["--workdir", str(tmp_path / "wd"), "run-tests", "--target", str(target),
            "--method", "Calculator.Add(int, int)", "--code", str(code), "--sandbox", "local"]
    assert cli.main(argv) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "target:Acme.Calc.Calculator.Add(int, int)" and out["status"] == "test_failure"
    assert "return a * b;" not in (target / "src/Acme.Calc/Calculator.cs").read_text()
    code.write_text(ADD_TRUTH)
    assert cli.main(argv + ["--write"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "passed" and out["written"] == str(target / "src/Acme.Calc/Calculator.cs")
    assert cli.main(argv[:5] + ["--method", "Calculator.Ad", "--code", str(code)]) == 2
    assert "did you mean: Acme.Calc.Calculator.Add(int, int)" in capsys.readouterr().err


def test_file_changed_since_indexing_is_reported(tmp_path):
    target = tmp_path / "calc"
    shutil.copytree(CALC, target)
    index = make_index(tmp_path, target)
    calc = target / "src" / "Acme.Calc" / "Calculator.cs"
    calc.write_text("// edited\n" + calc.read_text())
    with Runners(tmp_path / "wd", sandbox="local") as runners, \
            pytest.raises(ConfigError, match="changed since it was indexed"):
        runners.run(index, method(index, "Calculator.Add"), ADD_TRUTH)
    index.close()


def test_test_cases_named_with_commas_are_selected_and_checked(tmp_path):
    """A [TestCase(TestName = "a, b")] is reported as "Ns.Fixture.a, b", outside its method's name:
    the runner says which suites a test sits in, and names travel one per line, not comma-joined."""
    target = tmp_path / "calc"
    shutil.copytree(CALC, target)
    (target / "tests" / "Acme.Calc.Tests" / "NamedCaseTests.cs").write_text(
        "using NUnit.Framework;\n\nnamespace Acme.Calc.Tests\n{\n    public class NamedCaseTests\n    {\n"
        "        [TestCase(5, 5, TestName = \"Fibonacci of five, by name\")]\n"
        "        [TestCase(6, 8, TestName = \"Fibonacci of six, by name\")]\n"
        "        public void FibonacciByName(int n, long expected)\n        {\n"
        "            Assert.AreEqual(expected, new Calculator().Fibonacci(n));\n        }\n    }\n}\n")
    index = make_index(tmp_path, target)
    fib = method(index, "Calculator.Fibonacci")
    own = (target / fib.path).read_bytes()[fib.start_byte:fib.end_byte].decode()
    with Runners(tmp_path / "wd", sandbox="local", timeout=30.0) as runners:
        truth = runners.run(index, fib, own)
        assert truth.status == "passed", truth.brief()
        assert "Acme.Calc.Tests:Acme.Calc.Tests.NamedCaseTests.FibonacciByName" in truth.selected
        assert (truth.tests_run, truth.tests_failed) == (5, 0)
        wrong = runners.run(index, fib, "{\n    return 0;\n}")
        assert wrong.status == "test_failure", wrong.brief()
        assert any("by name" in f.name for f in wrong.failures)
    index.close()
