"""A verdict's reason counts what it says: "3 test(s) threw System.TimeZoneNotFoundException" was written
for a run where one test threw it and two others threw something else."""
from __future__ import annotations

from repotrans.execution.toolchains import judge_report
from repotrans.execution.toolchains.nunit import TestReport
from repotrans.verdicts.results import ExceptionInfo, TestFailure


def _report(*types: str) -> TestReport:
    failures = [TestFailure(name=f"Ns.F.T{n}", message=f"{t} : boom") for n, t in enumerate(types)]
    return TestReport(total=len(types) + 1, passed=1, failures=failures,
                      exceptions=[ExceptionInfo(type=t, message="boom", frames=[]) for t in types])


def test_a_reason_counts_the_tests_that_threw_the_exception_it_names():
    verdict = judge_report(_report("System.TimeZoneNotFoundException", "System.ArgumentNullException",
                                   "System.ArgumentNullException"))
    assert verdict.reason == ("1 test(s) threw System.TimeZoneNotFoundException; 2 threw other exceptions "
                              "(System.ArgumentNullException)")
    assert judge_report(_report("System.FormatException", "System.FormatException")).reason == \
        "2 test(s) threw System.FormatException"
