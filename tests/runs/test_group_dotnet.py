"""A unit judged together on the dotnet path (runs.rejudge._judge_group -> Runner.together ->
DotnetToolchain.build_together): the unit's tree is built once and each member's capability check compares that
build with the work copy's own, so a helper a member's candidate adds is inspected, as on mono
(test_group_baseline.py). The .NET SDK cannot be installed here: a scripted sandbox plays `dotnet build` by compiling
the tree it is given with mcs (the assembly is what that tree holds) and `dotnet test` by a recorded passing TRX.
Members whose Java originals reach different capabilities settle, each member's code judged under its own grants
(Runner.own_check), toolchain aside."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from repotrans.execution.judge.runner import Runner
from repotrans.execution.sandboxes import RunOutcome
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from repotrans.runs.rejudge import WorkCopy, _judge_group
from repotrans.runs.store import TaskRecord
from tests.execution.toolchains.test_execution_dotnet import CALC, ScriptedSandbox

ADD, FIBONACCI = "Acme.Calc.Calculator.Add(int, int)", "Acme.Calc.Calculator.Fibonacci(int)"
RIGHT_ADD = "public int Add(int a, int b)\n{\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}"
RIGHT_FIBONACCI = ("public long Fibonacci(int n)\n{\n    long a = 0, b = 1;\n"
                   "    for (int i = 0; i < n; i++) { long t = a + b; a = b; b = t; }\n    return a;\n}")
# right, through a helper of its own that also reaches process control
HIDING = ("public int Add(int a, int b)\n{\n    return Sum2(a, b);\n}\n"
          "private int Sum2(int a, int b)\n{\n    System.Diagnostics.Process.GetCurrentProcess();\n"
          "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
# right, redirecting the console as its Java original does (`console` granted to Add alone)
CONSOLE_ADD = ("public int Add(int a, int b)\n{\n    System.Console.SetOut(System.Console.Out);\n"
               "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
JAVA = ("class Calculator {\n    int add(int a, int b) { System.setOut(System.out); return a + b; }\n"
        "    long fibonacci(int n) { return n; }\n}\n")
PASSING_TRX = ('<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>'
               '<UnitTestResult testId="1" testName="A" outcome="Passed"/></Results></TestRun>')


class CompilingSandbox(ScriptedSandbox):
    """`dotnet build` of a tree compiles that tree's Acme.Calc sources with mcs into the SDK's output folder."""

    def run(self, argv, **kw):
        if argv[1] != "build":
            return super().run(argv, **kw)
        self.calls.append(list(argv))
        tree = Path(kw["writable"][0])
        out = tree / "src" / "Acme.Calc" / "bin" / "Debug" / "net8.0"
        out.mkdir(parents=True, exist_ok=True)
        sources = [str(tree / "src" / "Acme.Calc" / name) for name in ("Calculator.cs", "Text/Greeter.cs")]
        done = subprocess.run(["mcs", "-target:library", "-unsafe", "-define:FAST_PATH", "-debug-",
                               f"-out:{out / 'Acme.Calc.dll'}", "-r:System.Core.dll", *sources],
                              capture_output=True, text=True)
        return RunOutcome(argv, done.returncode, done.stdout + done.stderr, 1.0)


def _masked(text: str, signature: str) -> str:
    start = text.index(signature)
    end = text.index("\n        }\n", text.index("{", start)) + len("\n        }\n")
    return text[:start] + signature + "\n        {\n            throw new NotImplementedException();\n        }\n" \
        + text[end:]


@pytest.fixture(scope="module")
def unit(tmp_path_factory):
    if shutil.which("mcs") is None:
        pytest.fail("this test needs mono's mcs", pytrace=False)
    root = tmp_path_factory.mktemp("group-dotnet")
    port, java = root / "calc", root / "java"
    shutil.copytree(CALC, port)
    java.mkdir()
    (java / "Calculator.java").write_text(JAVA)
    source = port / "src" / "Acme.Calc" / "Calculator.cs"
    source.write_text(_masked(_masked(source.read_text(), "        public int Add(int a, int b)"),
                              "        public long Fibonacci(int n)"))
    index = Index.open(root / "index")
    index.build(java, port, progress=False)
    box = CompilingSandbox("", trx=root / "pass.trx", test_exit=0)
    (root / "pass.trx").write_text(PASSING_TRX)
    with Runner(ExecutionConfig(toolchain="dotnet", sandbox="local"), root / "wd") as runner:
        runner.sandbox = lambda ws: box
        yield WorkCopy(index, java, port), runner, {"target:" + ADD: index.find_methods("source", "Calculator.add")[0],
                                                     "target:" + FIBONACCI: index.find_methods("source", "Calculator.fibonacci")[0]}
    index.close()


def _records(add: str) -> list[TaskRecord]:
    return [TaskRecord(config="batch", dataset="calc", task_id=ADD, status="blocked", code=add),
            TaskRecord(config="batch", dataset="calc", task_id=FIBONACCI, status="blocked", code=RIGHT_FIBONACCI)]


def test_right_members_pass_together_on_one_dotnet_build(unit, tmp_path):
    copy, runner, java = unit
    results = _judge_group(copy, tmp_path / "group", _records(RIGHT_ADD), runner, java)
    assert [r.status for r in results] == ["passed", "passed"], [r.brief() for r in results]
    assert all(r.judge == "together: 2 candidates in one build" for r in results)


def test_a_helper_a_member_adds_is_inspected_on_dotnet_not_hidden_in_the_baseline(unit, tmp_path):
    """Judged on the unit's own tree (the work copy plus every member), the helper Sum2 sat in the baseline and Add,
    whose own body only calls a method of the port, passed."""
    copy, runner, java = unit
    results = _judge_group(copy, tmp_path / "group", _records(HIDING), runner, java)
    assert results[0].status == "rejected" and "Process" in results[0].reason, results[0].brief()


def test_members_whose_java_reaches_different_capabilities_settle_each_under_its_own(unit, tmp_path):
    """Fibonacci's combined check inspects Add's console redirection under Fibonacci's grants (none) and denies it;
    checked alone on the work copy, Fibonacci's own code passes, and Add's passes under its own (console)."""
    copy, runner, java = unit
    results = _judge_group(copy, tmp_path / "group", _records(CONSOLE_ADD), runner, java)
    assert [r.status for r in results] == ["passed", "passed"], [r.brief() for r in results]
    assert "console" in results[0].trust and not results[1].trust, [r.trust for r in results]


def test_a_members_own_check_stands_aside_where_a_siblings_using_could_bind_its_names(unit, tmp_path):
    """Add's candidate brings `using System.IO;` into Calculator.cs, Fibonacci's file too: Fibonacci's code alone is
    not its code in the unit (a name could bind through that using there), so its combined check stands."""
    copy, runner, java = unit
    results = _judge_group(copy, tmp_path / "group", _records("using System.IO;\n" + CONSOLE_ADD), runner, java)
    assert results[0].status == "passed", results[0].brief()
    assert results[1].status == "rejected" and "SetOut" in results[1].reason, results[1].brief()
