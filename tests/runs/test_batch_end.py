"""An honest end to every batch: blocked counted apart, plain lines in a log, a pytest-style closing
summary, non-zero exit on task errors, a stop after model-server errors in a row, --resume retrying
errored tasks, an immediate answer to Ctrl-C, no run folder from a batch that never started.
The CLI cases run real batches (builtin policy, mcs/mono) on masked copies of the sample."""
from __future__ import annotations

import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repotrans.cli import main
from repotrans.runs.batch_progress import BatchProgress
from repotrans.runs.batch_summary import BatchSummary
from repotrans.runs.store import TaskRecord
from tests.reports.test_report_html import AREA, DOT, FORMAT, GONE, JOIN, PASSED
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.sample_masking import masked_sample

REPEAT, ALMOST, SCALE, JOIN_ID = ("Acme.Common.StringUtils.Repeat(string, int)",
                                  "Acme.Geo.GeometryMath.AlmostEqual(double, double)",
                                  "Acme.Geo.Shapes.Circle.Scale(double)", "Acme.Common.StringUtils.IsBlank(string)")
CONFIG = "[agents]\nrag = false\n[model]\nmax_retries = 0\n[execution]\nsandbox = \"local\"\n"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_counts_blocked_and_errors_apart_from_failures():
    stream = _Tty()
    bar = BatchProgress(5, [PASSED[0]], stream=stream)
    for rec in (DOT, FORMAT, GONE):
        bar.add(rec)
    bar.close()
    assert "passed 1, failed 1, blocked 1, errors 1" in stream.getvalue()


def test_a_log_gets_one_plain_line_per_task_and_no_bar():
    stream = io.StringIO()
    bar = BatchProgress(3, [], stream=stream)
    bar.add(PASSED[0])
    bar.add(DOT)
    bar.say("re-judging 1 blocked task(s) with their callees translated...")
    bar.close()
    assert stream.getvalue() == ("[1/3] passed        Acme.Geo.Vector2D.M0()\n"
                                 "[2/3] blocked       Acme.Geo.Vector2D.Dot(Vector2D)\n"
                                 "re-judging 1 blocked task(s) with their callees translated...\n")


def test_the_closing_summary_lists_each_problem_with_its_reason():
    together = {"status": "runtime_error", "tests_run": 214, "tests_failed": 22, "in_untranslated": 22,
                "untranslated": ["Acme.Geo.Vector2D (static initializer)", "Acme.Geo.AbstractShape..ctor"],
                "elsewhere": [], "fail_together": []}
    summary = BatchSummary.of(10, [JOIN, FORMAT, DOT, AREA, GONE, *PASSED], seconds=12.34, together=together,
                              estimated_tokens=True)
    assert summary.render(width=60) == """\
==================== short task summary ====================
FAILED  Acme.Common.StringUtils.Format(double) - CS0246 at candidate line 8: The type `BigDecimal' could not be found
FAILED  Acme.Common.StringUtils.Join(string, IEnumerable) - JoinWritesNull: expected "1, null, x", actual "1, , x"
ERROR   Acme.Geo.Circle.Scale(double) - model server error at http://localhost:9/v1 (model m): connection refused
BLOCKED Acme.Geo.Circle.Area() - 1 covering test(s) stop in untranslated code: Acme.Geo.AbstractShape.AbstractShape(string)
BLOCKED Acme.Geo.Vector2D.Dot(Vector2D) - 1 covering test(s) stop in untranslated code: Acme.Geo.Vector2D.Vector2D(double, double)
=== 5 passed, 2 failed, 2 blocked, 1 error of 10 tasks in 12.3 s ===
whole suite with translations: 192/214 pass; the 22 failures are all in the 2 untranslated methods \
(Acme.Geo.Vector2D (static initializer), Acme.Geo.AbstractShape..ctor)
tokens: 8500 prompt + 656 completion (estimated: the offline builtin policy counts words)
translate these first (untranslated members, by the tasks their placeholder blocks; write one by hand, then run \
the same batch with --resume to judge those tasks again):
  Acme.Geo.AbstractShape.AbstractShape(string): blocks 1 task: Acme.Geo.Circle.Area()
  Acme.Geo.Vector2D.Vector2D(double, double): blocks 1 task: Acme.Geo.Vector2D.Dot(Vector2D)"""


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("batch-end")
    java, cs = masked_sample(root, REPEAT, ALMOST, SCALE, JOIN_ID)
    (root / "repotrans.toml").write_text(CONFIG)
    return java, cs, root / "repotrans.toml"


def _batch(pair, run_dir: Path, *extra: str) -> list[str]:
    java, cs, config = pair
    return ["batch", "--source", str(java), "--target", str(cs), "--run-dir", str(run_dir), "--config", str(config),
            *extra]


@pytest.mark.slow
def test_a_failing_server_stops_the_batch_with_its_reason_and_resume_retries(pair, tmp_path, capsys):
    run_dir = tmp_path / "run"
    with FakeOpenAIServer([], fail_first=10_000) as server:
        rc = main(_batch(pair, run_dir, "--model", "coder", "--base-url", server.base_url, "--stop-after-errors", "2",
                         "--write"))
    out, err = capsys.readouterr()
    assert rc == 1
    assert out.count("\nERROR   ") + out.startswith("ERROR   ") == 2
    assert f"model server {server.base_url} (model 'coder'): server error 500: scripted failure" in out
    assert "0 passed, 0 failed, 0 blocked, 2 errors, 2 not run of 4 tasks" in out
    assert "stopped early: 2 model-server errors in a row; the last: ModelServerError: model server" in out
    assert "run the same command with --resume (errored tasks are retried)" in out
    assert "written into the target: nothing (no translation passed so far (the batch stopped early))" in out
    assert "\r" not in err                        # not a terminal: no bar
    rc = main(_batch(pair, run_dir, "--model", "builtin", "--resume"))
    out, err = capsys.readouterr()
    assert "resuming: 0 finished task(s) kept, 2 errored task(s) retried" in err
    assert "0 errors of 4 tasks" in out and "not run" not in out
    assert rc == 0


@pytest.mark.slow
def test_a_batch_that_never_started_leaves_no_run_folder_and_names_the_users_path(pair, tmp_path, capsys):
    java, _, config = pair
    untouched = Path(__file__).resolve().parents[2] / "datasets" / "sample" / "csharp"
    run_dir = tmp_path / "run"
    rc = main(["batch", "--source", str(java), "--target", str(untouched), "--run-dir", str(run_dir),
               "--config", str(config), "--model", "builtin"])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith(f"repotrans: error: no tasks: {untouched} has no placeholder body")
    assert "work/target" not in err
    assert not run_dir.exists()


@pytest.mark.slow
def test_ctrl_c_is_answered_at_once_and_keeps_what_finished(pair, tmp_path):
    shutil.copytree(pair[1], tmp_path / "cs")            # --write changes it: not the module's shared copy
    pair = (pair[0], tmp_path / "cs", pair[2])
    run_dir = tmp_path / "run"
    err_path = tmp_path / "stderr.txt"
    with open(err_path, "w") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "repotrans.cli",
                                 *_batch(pair, run_dir, "--model", "builtin", "--write")],
                                stdout=subprocess.PIPE, stderr=err_file, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 300
        while "[1/4]" not in err_path.read_text() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert proc.poll() is None, "the batch ended before Ctrl-C"
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        while "Ctrl-C again aborts" not in err_path.read_text() and time.monotonic() - sent < 5:
            time.sleep(0.05)
        answered = time.monotonic() - sent
        out, _ = proc.communicate(timeout=300)
    assert answered < 2.0, err_path.read_text()
    assert "repotrans: finishing the current task; Ctrl-C again aborts" in err_path.read_text()
    assert proc.returncode == 130
    assert "stopped early: interrupted (Ctrl-C); run the same command with --resume to continue" in out
    assert "not run of 4 tasks" in out and (run_dir / "results.sqlite").is_file()
    # --write still writes what passed so far, and only that (or says why it wrote nothing)
    summary = json.loads((run_dir / "summary.json").read_text())
    db = sqlite3.connect(run_dir / "results.sqlite")
    rows = db.execute("SELECT task_id, status, code FROM results").fetchall()
    db.close()
    assert sorted(summary["written"]) == sorted(t for t, status, _ in rows if status == "passed") or \
        summary["write_refused"]
    assert "written into the target: " in out
    port = "".join(p.read_text() for p in pair[1].rglob("*.cs"))
    for task, status, code in rows:
        if status != "passed" and code:
            assert code.strip() not in port


def test_translations_are_applied_to_crlf_files_without_losing_their_neighbours(tmp_path):
    """A port written on Windows (CRLF): applying one member keeps the file's byte offsets and line
    endings, so the next member of the same file is still found (a ZXing.Net batch crashed here)."""
    from repotrans.runs.rejudge import WorkCopy
    from repotrans.index.store import Index

    java, cs = masked_sample(tmp_path / "pair", REPEAT, JOIN_ID)
    for f in cs.rglob("*.cs"):
        f.write_bytes(f.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    index = Index.open(tmp_path / "ws")
    index.build(java, cs, progress=False)
    first = TaskRecord(config="batch", dataset="d", task_id=JOIN_ID, status="passed",
                       code="public static bool IsBlank(string text)\n{\n    return string.IsNullOrWhiteSpace(text);\n}")
    second = TaskRecord(config="batch", dataset="d", task_id=REPEAT, status="passed",
                        code="public static string Repeat(string text, int times)\n{\n    return text;\n}")
    WorkCopy(index, java, cs).apply([first, second])
    text = (cs / index.method("target:" + REPEAT).path).read_bytes()
    assert b"return string.IsNullOrWhiteSpace(text);" in text and b"    return text;" in text   # both applied
    assert text.startswith(b"using System;\r\nusing System.Collections;\r\n")        # the file's own lines kept


def test_a_task_without_a_test_run_is_neither_passed_nor_failed():
    recs = [TaskRecord(config="batch", dataset="d", task_id="A.F()", status="no_tests",
                       result={"status": "no_tests", "reason": "no covering test"}),
            TaskRecord(config="batch", dataset="d", task_id="A.G()", status="passed")]
    summary = BatchSummary.of(2, recs, seconds=1.0)
    assert (summary.passed, summary.failed, summary.no_tests) == (1, 0, 1)
    assert "1 passed, 0 failed, 0 blocked, 0 errors, 1 without a test run of 2 tasks" in summary.render()
    assert "NO TEST A.F() - " in summary.render()
