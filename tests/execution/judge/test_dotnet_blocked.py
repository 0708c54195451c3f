"""The dotnet path never says `blocked`: `dotnet test` runs no runner of ours, so no failure carries the runner's
record of a call chain, whatever its exception text and stack say (recorded TRX through a scripted sandbox: the
.NET SDK cannot be installed on this machine; the built assembly is calc compiled by mcs)."""
from __future__ import annotations

import shutil

from repotrans.execution.judge.blocked import judge_blocked
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.dotnet import DotnetToolchain
from repotrans.execution.workspace.scratch import prepare_workspace
from repotrans.index.store import Index
from repotrans.verdicts.results import TestResult
from tests.execution.capability.test_il_check import compile_calc
from tests.execution.toolchains.test_execution_dotnet import CALC, FIX, ScriptedSandbox, _candidate
from tests.support.mono_repos import needs_mono

FIBONACCI = """        public long Fibonacci(int n)
        {
            throw new NotImplementedException();
        }
"""


def test_a_placeholders_exception_in_the_test_report_is_never_blocked_on_dotnet(tmp_path):
    """The recorded TRX's failure is a NotImplementedException whose stack's first frame is Calculator.Fibonacci,
    a placeholder in this copy of calc: the dotnet verdict carries no chain, and the judge keeps it a failure."""
    needs_mono()
    port = tmp_path / "calc"
    shutil.copytree(CALC, port)
    source = port / "src" / "Acme.Calc" / "Calculator.cs"
    text = source.read_text()
    start = text.index("        public long Fibonacci(int n)")
    end = text.index("\n        }\n", text.index("return", start)) + len("\n        }\n")
    source.write_text(text[:start] + FIBONACCI + text[end:])
    (tmp_path / "java").mkdir()
    (tmp_path / "java" / "A.java").write_text("class A {}\n")
    index = Index.open(tmp_path / "wd")
    index.build(tmp_path / "java", port, progress=False)
    [fibonacci] = index.find_methods("target", "Calculator.Fibonacci")
    [add] = index.find_methods("target", "Calculator.Add")
    assert fibonacci.body is not None and "NotImplementedException" in fibonacci.body

    ScriptedSandbox.assembly = compile_calc(tmp_path, "clean", None)
    ws = prepare_workspace(port, tmp_path / "ws", "dotnet")
    box = ScriptedSandbox("", trx=FIX / "trx" / "nunit3_adapter.trx")
    tc = DotnetToolchain()
    tc.baseline(ws, box, Limits(timeout=30, memory_mb=1024))
    verdict = tc.run(ws, _candidate(ws, tmp_path), None, box, Limits(timeout=30, memory_mb=1024))
    assert verdict.status == "runtime_error" and verdict.failures
    stopped = [f for f in verdict.failures if "NotImplementedException" in f.message]
    assert stopped and all(not f.chains for f in verdict.failures)
    result = TestResult(status=verdict.status, failures=verdict.failures, tests_run=verdict.tests_run,
                        tests_failed=verdict.tests_failed)
    for java in (None, add):
        judged = judge_blocked(result, index, add, java, "{\n    return Fibonacci(a) > 0 ? a + b : 0;\n}")
        assert judged.status == "runtime_error" and not judged.behind
    index.close()
