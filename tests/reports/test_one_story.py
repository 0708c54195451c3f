"""One story everywhere: report.md says what the console said (the whole-suite line, what was written or why
nothing), a patch-only run says patch, the reduced-trust line counts only verdicts whose tests ran with the
allowance and names what it allowed, and a log tail holds no runner protocol lines."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from repotrans.reports.report import write_report
from repotrans.runs.batch_end import WriteRequest, write_passing
from repotrans.runs.batch_summary import BatchSummary
from repotrans.runs.layout import summary_file
from repotrans.runs.store import RunStore, TaskRecord, reduced_trust
from repotrans.verdicts.results import tail


def _rec(task: str, status: str, tests_run: int, trust: str = "") -> TaskRecord:
    result = {"status": status, "diagnostics": [], "failures": [], "exceptions": [], "tests_run": tests_run,
              "tests_failed": 0, "timings": {}, "log_tail": "", "reason": "", "trust": trust}
    return TaskRecord(config="batch", dataset="port", task_id=task, status=status, code="x", result=result)


NETWORK = "trust: reduced (network allowed: the Java original uses it)"
RECORDS = [_rec("Ns.T.A()", "passed", 3, NETWORK), _rec("Ns.T.B()", "compile_error", 0, NETWORK),
           _rec("Ns.T.C()", "passed", 2)]


def test_reduced_trust_counts_verdicts_whose_tests_ran_and_names_what_was_allowed():
    assert [r.task_id for r in reduced_trust(RECORDS)] == ["Ns.T.A()"]        # B compiled nothing, ran nothing
    text = BatchSummary.of(3, RECORDS, seconds=1.0).render()
    line = next(line for line in text.splitlines() if line.startswith("reduced trust:"))
    assert line.startswith("reduced trust: 1 verdict(s) ran their tests with a capability")
    assert "allowed by the IL policy: network" in line and "file I/O" not in line


def test_a_patch_only_run_says_patch():
    out = write_passing(Path("/nonexistent"), {}, [], {}, WriteRequest(patch=Path("x.patch")), "")
    assert out.lines[0].startswith("--patch: wrote nothing: no translation passed")
    out = write_passing(Path("/nonexistent"), {}, [], {}, WriteRequest(write=True), "")
    assert out.lines[0].startswith("--write: wrote nothing")


def test_log_tails_hold_no_runner_protocol_lines():
    log = "Compiling...\n@@RT 1a2b TEST Passed QWNtZQ== eA== eQ==\nTests run: 3\n@@RT 1a2b END 0\n"
    assert tail(log) == "Compiling...\nTests run: 3\n"


def test_report_md_has_the_whole_suite_line_and_what_was_written(tmp_path):
    run = tmp_path / "run"
    store = RunStore(run)
    for r in RECORDS:
        store.add(r)
    store.close()
    together = {"status": "passed", "tests_run": 26, "tests_failed": 0, "in_untranslated": 0, "untranslated": [],
                "elsewhere": [], "fail_together": []}
    summary = BatchSummary.of(3, RECORDS, seconds=1.0, together=together, written=["Ns.T.A()", "Ns.T.C()"],
                              write={"files": {"src/T.cs": {"members": ["Ns.T.A()", "Ns.T.C()"]}}, "skipped": []})
    summary_file(run).write_text(json.dumps(asdict(summary)))
    md = write_report([run]).read_text()
    section = md.split("## Whole suite and what was written", 1)[1].split("\n## ", 1)[0]
    console = summary.render()
    whole = next(line for line in console.splitlines() if line.startswith("whole suite"))
    assert whole in section
    assert "written into the target: 2 members in 1 file" in section and "- src/T.cs: Ns.T.A(), Ns.T.C()" in section
    (tmp_path / "none").mkdir()
    summary_file(run).write_text(json.dumps(asdict(BatchSummary.of(3, RECORDS, seconds=1.0,
                                                                   write_refused="no translation passed"))))
    md = write_report([run]).read_text()
    assert "written into the target: nothing (no translation passed)" in md


def test_a_patch_only_summary_names_the_patch_not_the_port():
    files = {"src/T.cs": {"members": ["Ns.T.A()", "Ns.T.C()"]}}
    summary = BatchSummary.of(3, RECORDS, seconds=1.0, write={"files": files, "skipped": [], "patch": "p.diff",
                                                              "into_port": False})
    lines = summary.write_lines()
    assert lines[:2] == ["the patch p.diff: 2 members in 1 file (the port is untouched; `git apply` it)",
                         "  src/T.cs: Ns.T.A(), Ns.T.C()"]
    refused = write_passing(Path("/nonexistent"), {}, [], {}, WriteRequest(patch=Path("p.diff")), "")
    summary = BatchSummary.of(3, RECORDS, seconds=1.0, write=refused.plan, write_refused=refused.refused)
    assert summary.write_lines()[0] == "the patch: nothing (no translation passed)"
