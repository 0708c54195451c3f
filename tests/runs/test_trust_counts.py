"""Verdicts that ran with a capability their Java original reaches (`trust: reduced (...)`) are counted
where results are read: the batch's closing summary, the report, and `repotrans doctor --run-dir`."""
from __future__ import annotations

from repotrans import cli
from repotrans.execution.capability.checks import trust_note
from repotrans.runs.batch_summary import BatchSummary
from repotrans.reports.report import markdown
from repotrans.runs.store import RunStore, TaskRecord

NOTE = trust_note(frozenset({"file_system"}))


def _records() -> list[TaskRecord]:
    return [TaskRecord(config="batch", dataset="d", task_id="N.Disk.Names()", status="passed",
                       result={"status": "passed", "trust": NOTE}),
            TaskRecord(config="batch", dataset="d", task_id="N.Disk.Open()", status="test_failure",
                       result={"status": "test_failure", "trust": NOTE}),
            TaskRecord(config="batch", dataset="d", task_id="N.Calc.Add(int, int)", status="passed",
                       result={"status": "passed", "trust": ""})]


def test_the_batch_summary_and_the_report_count_reduced_trust():
    summary = BatchSummary.of(3, _records(), seconds=1.0)
    assert summary.reduced_trust == 2
    assert "reduced trust: 2 verdict(s)" in summary.render()
    assert "**Reduced trust: 2 task verdict(s)**" in markdown(_records())


def test_doctor_counts_the_reduced_trust_verdicts_of_a_run_folder(tmp_path, capsys):
    store = RunStore(tmp_path)
    for rec in _records():
        store.add(rec)
    store.close()
    cli.main(["doctor", "--model", "builtin", "--no-model-check", "--run-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "2 of 3 verdict(s) ran with reduced trust" in out
    assert f"batch/N.Disk.Names(): passed, {NOTE}" in out
    assert cli.main(["doctor", "--model", "builtin", "--no-model-check", "--run-dir", str(tmp_path / "none")]) == 2
