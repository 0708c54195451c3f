"""`partial` (passed on the tests that could run, others left out behind members the run leaves untranslated) is
reported apart everywhere: the batch's per-task line and counts, report.md's rates and error types, report.html's
summary, and never counted as passed; --write holds it back (and a pass under reduced trust) unless asked."""
from __future__ import annotations

from repotrans.reports.html import _summary
from repotrans.reports.report import markdown
from repotrans.runs.batch_end import WriteRequest, writable
from repotrans.runs.batch_summary import BatchSummary
from repotrans.runs.store import TaskRecord
from repotrans.verdicts.status import LABELS, PARTIAL

REASON = ("passed on the 3 covering test(s) that could run; 2 left out: each stops in Acme.Fmt.Number(double), "
          "which this run leaves untranslated")


def record(task: str, status: str, **result) -> TaskRecord:
    return TaskRecord(config="batch", dataset="geo", task_id=task, status=status, code="return 1;",
                      result={"status": status, "tests_run": 3, **result})


RECORDS = [record("Acme.Text.IsBlank(string)", "partial", reason=REASON, behind=["target:Acme.Fmt.Number(double)"]),
           record("Acme.Fmt.Number(double)", "test_failure", holds_up=["Acme.Text.IsBlank(string)"]),
           record("Acme.Text.Trim(string)", "passed"),
           record("Acme.Io.Read(string)", "passed", trust="trust: reduced (file I/O allowed by the Java original)")]


def test_the_summary_counts_partial_apart_and_names_it():
    summary = BatchSummary.of(4, RECORDS, seconds=1.0)
    assert (summary.passed, summary.partial, summary.failed) == (2, 1, 1)
    assert summary.counts_line().startswith("2 passed, 1 partial, 1 failed, 0 blocked")
    assert ["PARTIAL", "Acme.Text.IsBlank(string)", REASON] in summary.problems
    assert "written only with --write-partial" in summary.render()


def test_report_md_rates_partial_apart_and_never_as_passed():
    text = markdown(RECORDS)
    assert "| pass rate | partial rate |" in text
    assert "| batch | geo | 4 | 100.0% | 50.0% | 25.0% |" in text
    assert f"| {LABELS[PARTIAL]} |" in text.split("## Error types of unsolved tasks", 1)[1].split("\n\n", 2)[1]
    assert f"### {LABELS[PARTIAL]} (1)" in text


def test_report_html_summary_counts_partial_apart(tmp_path):
    summary = _summary(tmp_path, RECORDS, set())
    assert (summary["passed"], summary["partial"], summary["failed"]) == (2, 1, 1)
    assert summary["pass_rate"] == 50.0 and summary["partial_rate"] == 25.0


def test_write_holds_back_partial_and_reduced_trust_unless_asked():
    def ids(request):
        out, held = writable(RECORDS, request)
        return [r.task_id for r in out], [h[0] for h in held]
    assert ids(WriteRequest(write=True)) == (["Acme.Text.Trim(string)"],
                                              ["Acme.Io.Read(string)", "Acme.Text.IsBlank(string)"])
    assert ids(WriteRequest(write=True, partial=True))[0] == ["Acme.Text.IsBlank(string)", "Acme.Text.Trim(string)"]
    assert ids(WriteRequest(write=True, reduced_trust=True))[0] == ["Acme.Io.Read(string)", "Acme.Text.Trim(string)"]
