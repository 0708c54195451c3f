"""The whole-suite check puts a failure down to an untranslated member by the runner's own record of the call
chain (a placeholder's guard fired in the test, no passing translation on the chain), never by text: a
candidate's own exception whose message and stack mention NotImplementedException and a placeholder is a
failure elsewhere (issue 35). Real index; a scripted runner."""
from __future__ import annotations

from repotrans.verdicts.results import Chain, TestFailure, TestResult
from repotrans.runs.batch_end import combined_check, write_refusal
from repotrans.runs.store import TaskRecord
from tests.support.indexes import csharp_index

CALC = """namespace Acme {
    public class Calc {
        public int Twice(int x) { return 2 * x; }
        public int Half(int x) { throw new System.NotImplementedException(); }
        public int Check(int x) { throw new System.InvalidOperationException("NotImplementedException expected"); }
    }
}
namespace Acme.Tests {
    public class CalcTests { public void HalfOfFour() { } public void CheckFour() { } }
}
"""
CORE = "NUnit.Core.Reflect.InvokeMethod (System.Reflection.MethodInfo method, System.Object fixture, System.Object[] args)"
IN_HALF = TestFailure(name="Acme.Tests.CalcTests.HalfOfFour", message="System.NotImplementedException : not implemented",
                      stack=["Acme.Calc.Half (System.Int32 x) at Calc.cs:4",
                             "Acme.Tests.CalcTests.HalfOfFour () at CalcTests.cs:9"],
                      chains=[Chain(["Acme.Calc.Half (System.Int32 x) at Calc.cs:4",
                                     "Acme.Tests.CalcTests.HalfOfFour () at CalcTests.cs:9", CORE])])
IN_CHECK = TestFailure(name="Acme.Tests.CalcTests.CheckFour",
                       message="System.InvalidOperationException : NotImplementedException expected",
                       stack=["Acme.Calc.Half (System.Int32 x) at Calc.cs:4",
                              "Acme.Tests.CalcTests.CheckFour () at CalcTests.cs:12"])


class WholeSuite:
    """The whole suite fails in the given ways (with the given status); each passing translation
    passes alone."""

    def __init__(self, status: str = "runtime_error", failures: tuple = (IN_HALF, IN_CHECK)):
        self.status, self.failures = status, list(failures)

    def run(self, index, method, code, *, java=None, scope=None, allow=frozenset(), **_):
        return TestResult(status=self.status, failures=self.failures, tests_run=3, tests_failed=len(self.failures))

    def run_many(self, index, items, *, scope=None, **_):
        return [TestResult(status="passed", tests_run=1) for _ in items]


def test_failures_are_put_down_to_untranslated_members_by_frames_not_text(tmp_path):
    index = csharp_index(tmp_path, {"Calc.cs": CALC})
    twice = TaskRecord(config="batch", dataset="d", task_id="Acme.Calc.Twice(int)", status="passed", code="x")
    out = combined_check(index, [twice], WholeSuite(), untranslated=["Acme.Calc.Half(int)"], java={})
    assert (out["in_untranslated"], out["elsewhere_count"]) == (1, 1)
    assert out["elsewhere"][0].startswith("Acme.Tests.CalcTests.CheckFour")
    assert write_refusal(out) == "1 whole-suite failure(s) are not in untranslated members"


def test_a_whole_run_judged_blocked_is_still_read_frame_by_frame(tmp_path):
    """The sample's whole suite came back `blocked` (every failure in a placeholder): each failure was
    then probed with that status, which blockers() does not read, and all 82 counted 'elsewhere'."""
    index = csharp_index(tmp_path, {"Calc.cs": CALC})
    twice = TaskRecord(config="batch", dataset="d", task_id="Acme.Calc.Twice(int)", status="passed", code="x")
    out = combined_check(index, [twice], WholeSuite("blocked", (IN_HALF,)), untranslated=["Acme.Calc.Half(int)"],
                         java={})
    assert (out["in_untranslated"], out["elsewhere_count"]) == (1, 0) and write_refusal(out) == ""
