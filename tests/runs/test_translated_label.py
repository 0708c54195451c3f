"""A verdict from tests repotrans translated from JUnit ([Category("RepotransTranslated")]) is labelled
as such from the test selection (real tree-sitter scan) through the TestResult (result.json, the run
store) to the batch summary, report.md and report.html, and never counted with the port's own tests."""
from __future__ import annotations

from pathlib import Path

from repotrans.verdicts.results import TestResult
from repotrans.execution.workspace.selection import index_tests, select_tests
from repotrans.execution.workspace.scratch import Workspace
from repotrans.runs.batch_summary import BatchSummary
from repotrans.reports.report import markdown
from repotrans.reports.html import render_page
from repotrans.runs.store import RunStore, TaskRecord

PORT = """using NUnit.Framework;
namespace Demo.Zoo.Tests
{
    [TestFixture]
    public class CageTests
    {
        [Test]
        public void HoldsOne() { Assert.IsTrue(new Cage(1).Size == 1); }
    }
}
"""
TRANSLATED = """using NUnit.Framework;
namespace Demo.Zoo.Tests
{
    [TestFixture]
    [Category("RepotransTranslated")]
    public class SizeTests
    {
        [Test]
        public void Weights() { Assert.AreEqual(1, Size.SMALL.Weight); }
    }
}
"""


def test_selection_names_the_tests_of_translated_fixtures(tmp_path):
    tests = tmp_path / "target" / "tests"
    tests.mkdir(parents=True)
    (tests / "CageTests.cs").write_text(PORT)
    (tests / "SizeTests.cs").write_text(TRANSLATED)
    (tmp_path / "ws").mkdir()
    fixtures = index_tests(Workspace(tmp_path / "ws", tmp_path / "target", "t"), {"Demo.Zoo.Tests": tests})
    assert fixtures["Demo.Zoo.Tests:Demo.Zoo.Tests.SizeTests"]["translated"] is True
    assert fixtures["Demo.Zoo.Tests:Demo.Zoo.Tests.CageTests"]["translated"] is False
    size = select_tests(fixtures, {"Size"}, {"Weight"})
    assert size.tests == ["Demo.Zoo.Tests:Demo.Zoo.Tests.SizeTests.Weights"] and size.translated == tuple(size.tests)
    cage = select_tests(fixtures, {"Cage"}, {"Size"})
    assert cage.tests == ["Demo.Zoo.Tests:Demo.Zoo.Tests.CageTests.HoldsOne"] and cage.translated == ()


def _record(task: str, status: str, translated: bool) -> TaskRecord:
    test = "P:Demo.Zoo.Tests.SizeTests.Weights" if translated else "P:Demo.Zoo.Tests.CageTests.HoldsOne"
    result = TestResult(status=status, tests_run=1, tests_failed=int(status != "passed"), selected=[test],
                        translated=[test] if translated else [])
    return TaskRecord(config="batch", dataset="cs", task_id=task, status=status, result=result.to_json())


def test_translated_verdicts_are_labelled_and_counted_apart(tmp_path):
    records = [_record("Demo.Zoo.Cage.Put(Animal)", "passed", False),
               _record("Demo.Zoo.Cage.Take()", "test_failure", False),
               _record("Demo.Zoo.Size.Weight", "passed", True),
               _record("Demo.Zoo.Size.HeavierThan(Size)", "test_failure", True)]
    assert records[2].result["judged_by"] == "translated tests" and records[0].result["judged_by"] == "port tests"
    assert TestResult.from_json(records[2].result).translated == ["P:Demo.Zoo.Tests.SizeTests.Weights"]
    summary = BatchSummary.of(4, records, seconds=1.0)
    assert (summary.passed, summary.failed, summary.translated, summary.translated_passed) == (1, 1, 2, 1)
    assert summary.counts_line() == ("1 passed, 1 failed, 0 blocked, 0 errors, 2 judged by translated tests "
                                     "(1 passed) of 4 tasks in 1.0 s")
    assert [p[:2] for p in summary.problems] == [["FAILED", "Demo.Zoo.Cage.Take()"],
                                                 ["FAILED", "Demo.Zoo.Size.HeavierThan(Size)"]]
    assert summary.problems[1][2].startswith("[translated tests] ") and "[translated" not in summary.problems[0][2]
    report = markdown(records)
    assert "| batch | cs | 2 | 100.0% | 50.0% |" in report            # the port's own tests only
    assert "## Judged by translated tests" in report and "| batch | cs | 2 | 2 | 1 | 50.0% |" in report
    run = tmp_path / "run"
    store = RunStore(run)
    for r in records:
        store.add(r)
    store.close()
    assert [r.translated_verdict for r in RunStore(run).records()] == [False, False, True, True]
    page = render_page(run)
    assert "1 of 2 tasks pass" in page
    assert "Judged by translated tests (JUnit translated by repotrans, not the port's own; not counted above): " \
           "2 task(s), 1 passed" in page
    assert page.count('<span class="label-translated">[translated tests]</span>') == 2
    classes = page.split('id="classes"', 1)[1].split("</table>", 1)[0]
    assert "Cage" in classes and "Size" not in classes          # the per-class figures: the port's own tests


def test_the_whole_suite_line_says_how_much_of_it_is_translated_tests():
    from repotrans.verdicts.results import TestFailure
    from repotrans.runs.whole_suite import summarize, translated_part, whole_suite_line

    whole = TestResult(status="test_failure", tests_run=14, tests_failed=2, failures=[
        TestFailure("Demo.Zoo.Tests.SizeTests.EveryWeightIsPositive(5)", "Expected: True"),
        TestFailure("Demo.Zoo.Tests.CageTests.HoldsOne", "Expected: 1")])
    together = {**summarize(whole, lambda failure: []), **translated_part(whole, {"Demo.Zoo.Tests.SizeTests", "Demo.Zoo.Tests.BoxTests"})}
    line = whole_suite_line(together)
    assert line.startswith("whole suite with translations: 12/14 pass; 2 fail outside untranslated methods")
    assert line.endswith("(including 2 fixtures translated from JUnit, 1 of the failures in them)")
    assert not whole_suite_line(summarize(TestResult(status="passed", tests_run=3), lambda failure: [])).endswith(")")


def test_the_whole_suite_line_names_the_flaky_tests_it_left_out():
    from repotrans.runs.whole_suite import summarize, whole_suite_line

    whole = TestResult(status="passed", tests_run=3, left_out={
        "T:Demo.Zoo.Tests.JobTests.Interrupts": "flips on the untouched port (failed, then passed when run again in "
                                                "another order)",
        "T:Demo.Zoo.Tests.CageTests.Windows": "fails on the untouched port: a Windows path"})
    assert whole_suite_line(summarize(whole, lambda failure: [])) == (
        "whole suite with translations: 3/3 pass (1 flaky test left out, flipping on the untouched port: "
        "Demo.Zoo.Tests.JobTests.Interrupts)")
