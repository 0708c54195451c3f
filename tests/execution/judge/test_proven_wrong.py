"""Candidate lines the compiler proves wrong (execution.judge.proven): a comparison that can never hold
because C#'s byte is unsigned, which the tests never reach, is judged a compile error; other warnings
and the port's own warnings judge nothing. The first test is real mcs + NUnit on the calc fixture."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.judge.proven import proven_wrong
from repotrans.verdicts.results import Diagnostic
from repotrans.execution.toolchains import Verdict
from tests.execution.judge.test_execution_runner import make_index
from tests.support.runners import Runners

CALC = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet" / "projects" / "calc"
# Java: `byte low = (byte) a; if (low == -1) ...` holds for a == -1; in C# it never does
UNSIGNED = ("public int Add(int a, int b)\n{\n    byte low = (byte)a;\n    int sum = a + b;\n"
            "    if (low == -1) { sum = 0; }\n    history.Add(sum);\n    return sum;\n}\n")
UNUSED = "public int Add(int a, int b)\n{\n    int unused = 1;\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}\n"


@pytest.mark.slow
def test_a_comparison_cs_byte_can_never_satisfy_is_a_compile_error_though_the_tests_pass(tmp_path):
    index = make_index(tmp_path, CALC)
    [add] = index.find_methods("target", "Calculator.Add")
    with Runners(tmp_path / "wd", sandbox="local", timeout=30.0) as runners:
        wrong = runners.run(index, add, UNSIGNED, java=None)
        fine = runners.run(index, add, UNUSED, java=None)
    index.close()
    assert wrong.status == "compile_error" and wrong.tests_failed == 0, wrong.brief()
    assert "candidate line 5 wrong: CS0652" in wrong.reason and "byte is signed" in wrong.reason
    assert "- CS0652 at candidate line 5" in wrong.brief()          # the refine agent reads it as an error
    assert fine.status == "passed", fine.brief()                   # an unused variable proves nothing
    assert any(d.code == "CS0219" and d.severity == "warning" for d in fine.diagnostics)


def _warning(code: str, line: int | None) -> Diagnostic:
    return Diagnostic(code=code, message="m", file="A.cs", line=3, column=1, candidate_line=line, severity="warning")


def test_only_a_proof_inside_the_candidate_of_a_built_and_allowed_candidate_counts():
    outside = Verdict("passed", diagnostics=[_warning("CS0652", None)])
    assert proven_wrong(outside) is outside                        # the port's own line
    rejected = Verdict("rejected", diagnostics=[_warning("CS0652", 2)], reason="denied")
    assert proven_wrong(rejected) is rejected                      # the capability verdict keeps its cause
    blocked = proven_wrong(Verdict("blocked", diagnostics=[_warning("CS1717", 2), _warning("CS0652", 4)]))
    assert blocked.status == "compile_error" and blocked.reason.endswith("(and 1 more)")
    assert [d.severity for d in blocked.diagnostics] == ["error", "error"]
