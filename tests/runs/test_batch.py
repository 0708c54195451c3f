"""Batch translation on a masked copy of three sample functions: real mcs/mono runs, the builtin policy.

GeometryMath.AlmostEqual(double, double) and StringUtils.Repeat are independent (level 0); the property
Rectangle.IsSquare calls AlmostEqual (level 1), and its tests can only pass once AlmostEqual's
translation is in the work target.
"""
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repotrans.mapping.load import load_mapping
from repotrans.agents.config import load_config
from repotrans.errors import ConfigError
from repotrans.runs import tasks as tasks_module
from repotrans.runs.batch import listed_tasks, placeholder_tasks, run_batch
from repotrans.datasets.masking import candidate_tasks, mask_repo
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index
from tests.support.run_files import result_rows

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "datasets" / "sample"
MASKED = ["Acme.Geo.GeometryMath.AlmostEqual(double, double)", "Acme.Geo.Shapes.Rectangle.IsSquare",
          "Acme.Common.StringUtils.Repeat(string, int)"]
FUNCTIONS = "# the three masked functions, C# and Java signatures mixed\nRectangle.IsSquare\n" \
            "GeometryMath.AlmostEqual(double, double)\n\norg.acme.util.StringUtils.repeat(String, int)\n"
CONFIG = "[agents]\nrag = false\n"      # dense retrieval would embed the whole sample first: minutes

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(source, masked target, function list, config file) shared by the tests of this module."""
    root = tmp_path_factory.mktemp("batch")
    index = Index.open(root / "mask-index")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    tasks = candidate_tasks(index, MASKED)
    assert sorted(t.id for t in tasks) == sorted(MASKED)
    mask_repo(index, tasks, root / "target")
    (root / "functions.txt").write_text(FUNCTIONS)
    (root / "repotrans.toml").write_text(CONFIG)
    return SAMPLE / "java", root / "target", root / "functions.txt", root / "repotrans.toml"


@pytest.fixture(scope="module")
def config(pair):
    return load_config(pair[3], cli={"model": {"name": "builtin"}})


@pytest.fixture(scope="module")
def clean_run(pair, config, tmp_path_factory):
    """One uninterrupted batch over the function list."""
    source, target, functions, _ = pair
    run_dir = tmp_path_factory.mktemp("clean") / "run"
    summary = run_batch(source, target, run_dir, config, functions=functions, progress=False)
    return run_dir, summary


def _table(run_dir: Path) -> list[tuple]:
    db = sqlite3.connect(run_dir / "results.sqlite")
    try:
        return db.execute("SELECT config, dataset, task_id, status, code FROM results ORDER BY task_id").fetchall()
    finally:
        db.close()


def test_placeholders_found_are_exactly_the_masked_functions(pair, tmp_path):
    source, target, functions, _ = pair
    index = Index.open(tmp_path / "ws")
    index.build(source, target, progress=False)
    assert sorted(t.target_method_id.split(":", 1)[1] for t in placeholder_tasks(index, load_mapping(index))) == sorted(MASKED)
    assert sorted(t.target_method_id.split(":", 1)[1] for t in listed_tasks(index, load_mapping(index), functions)) == sorted(MASKED)
    (tmp_path / "bad.txt").write_text("Rectangle.IsSquare\nVector2D.NoSuchThing()\n")
    with pytest.raises(ConfigError, match=r"bad.txt:2: "):
        listed_tasks(index, load_mapping(index), tmp_path / "bad.txt")
    with pytest.raises(ConfigError, match="function list not found"):
        listed_tasks(index, load_mapping(index), tmp_path / "missing.txt")


def test_batch_writes_results_and_summary_in_dependency_order(clean_run):
    run_dir, summary = clean_run
    rows = _table(run_dir)
    assert [(r[2], r[3]) for r in rows] == [(t, "passed") for t in sorted(MASKED)]
    assert {r[0] for r in rows} == {"batch"} and {r[1] for r in rows} == {"target"}
    saved = json.loads((run_dir / "summary.json").read_text())
    assert (saved["tasks"], saved["passed"], saved["compiled"], saved["failed"], saved["errors"]) == (3, 3, 3, 0, 0)
    assert saved["together"]["status"] == "passed" and saved["together"]["fail_together"] == []
    assert saved["prompt_tokens"] > 0 and saved == json.loads(json.dumps(summary.__dict__))
    # AlmostEqual (level 0) finished before IsSquare (level 1), whose run saw AlmostEqual's translation
    db = sqlite3.connect(run_dir / "results.sqlite")
    finished = dict(db.execute("SELECT task_id, finished_at FROM results"))
    db.close()
    assert finished[MASKED[0]] < finished[MASKED[1]]
    work = Index.open(run_dir / "workspace")
    assert not is_placeholder(work.method("target:" + MASKED[0]).body)
    for task in MASKED:
        assert (run_dir / "tasks" / tasks_module.task_dir_name(task) / "trajectory.jsonl").is_file()


def test_a_crashing_task_is_recorded_and_the_batch_goes_on(pair, config, tmp_path, monkeypatch):
    source, target, functions, _ = pair
    real = tasks_module.run_translation

    def flaky(brief, client, run_dir):
        if brief.task.target_method_id.endswith("StringUtils.Repeat(string, int)"):
            raise ConnectionError("model server went away")
        return real(brief, client, run_dir)

    monkeypatch.setattr(tasks_module, "run_translation", flaky)
    summary = run_batch(source, target, tmp_path / "run", config, functions=functions, progress=False)
    db = sqlite3.connect(tmp_path / "run" / "results.sqlite")
    rows = db.execute("SELECT task_id, status, error FROM results ORDER BY task_id").fetchall()
    db.close()
    assert rows == [(MASKED[2], "error", "ConnectionError: model server went away"),
                    (MASKED[0], "passed", None), (MASKED[1], "passed", None)]
    assert (summary.tasks, summary.passed, summary.failed, summary.errors) == (3, 2, 0, 1)   # an error is not a failure


def test_a_second_run_without_resume_is_refused(clean_run, pair, config):
    source, target, functions, _ = pair
    with pytest.raises(ConfigError, match="--resume"):
        run_batch(source, target, clean_run[0], config, functions=functions, progress=False)


def test_resume_on_a_finished_run_runs_only_the_tail_from_the_folder(pair, clean_run, tmp_path, monkeypatch):
    """The end stages re-run alone: a finished run resumed translates nothing (no model, no agent) and runs the
    re-judge and the whole suite again from its folder; `--patch` then writes what passed."""
    import shutil
    from repotrans.runs.batch_end import WriteRequest

    source, target, functions, _ = pair
    run_dir = tmp_path / "run"
    shutil.copytree(clean_run[0], run_dir)

    def no_translation(*args, **kwargs):
        raise AssertionError("a finished run translated again")
    monkeypatch.setattr(tasks_module, "run_translation", no_translation)
    patch = tmp_path / "passing.patch"
    summary = run_batch(source, target, run_dir, load_config(pair[3], cli={"model": {"name": "builtin"}}),
                        functions=functions, resume=True, write=WriteRequest(patch=patch), progress=False)
    assert (summary.tasks, summary.passed) == (clean_run[1].tasks, clean_run[1].passed) == (3, 3)
    assert summary.together == clean_run[1].together and summary.together
    assert _table(run_dir) == _table(clean_run[0])
    text = patch.read_text()
    assert all(m.split("(")[0].rsplit(".", 1)[-1] in text for m in MASKED)      # the three members, as a diff


def test_resume_after_sigkill_matches_an_uninterrupted_run(pair, clean_run, tmp_path):
    source, target, functions, cfg = pair
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "repotrans.cli", "batch", "--source", str(source), "--target", str(target),
           "--functions", str(functions), "--run-dir", str(run_dir), "--model", "builtin", "--config", str(cfg),
           "--quiet"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    rows_at_kill = 0
    while time.monotonic() < deadline and proc.poll() is None:
        rows_at_kill = result_rows(run_dir / "results.sqlite")
        if rows_at_kill:
            break
        time.sleep(0.1)
    assert proc.poll() is None, f"the batch ended before it could be killed: {proc.stdout.read().decode()[-2000:]}"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert 1 <= rows_at_kill < len(MASKED)
    assert not (run_dir / "summary.json").exists()

    done = subprocess.run(cmd + ["--resume"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "3 passed, 0 failed, 0 blocked, 0 errors of 3 tasks" in done.stdout
    assert _table(run_dir) == _table(clean_run[0])
    saved = json.loads((run_dir / "summary.json").read_text())
    assert (saved["tasks"], saved["passed"], saved["failed"]) == (3, 3, 0)
    db = sqlite3.connect(run_dir / "results.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert db.execute("SELECT count(*), count(DISTINCT task_id) FROM results").fetchone() == (3, 3)
    db.close()


def test_a_candidate_blocked_by_an_untranslated_sibling_is_judged_again_at_the_end(tmp_path):
    """Circle's constructor and Area are both masked and independent (level 0). Area's tests build a
    Circle in their set-up, so they fail on the constructor's placeholder: Area is 'blocked', not
    failed; once the constructor's translation is in, its tests are run again and it passes."""
    masked = ["Acme.Geo.Shapes.Circle.<init>(Point2D, double)", "Acme.Geo.Shapes.Circle.Area()"]
    index = Index.open(tmp_path / "mask-index")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    mask_repo(index, candidate_tasks(index, masked), tmp_path / "target")
    (tmp_path / "repotrans.toml").write_text(CONFIG)
    config = load_config(tmp_path / "repotrans.toml", cli={"model": {"name": "builtin"}})
    summary = run_batch(SAMPLE / "java", tmp_path / "target", tmp_path / "run", config, progress=False)
    trajectory = (tmp_path / "run" / "tasks" / "Acme.Geo.Shapes.Circle.Area_" / "trajectory.jsonl").read_text()
    assert '"status": "blocked"' in trajectory and "not translated yet" in trajectory  # Area's first judgement
    rows = _table(tmp_path / "run")
    assert [(r[2], r[3]) for r in rows] == [("Acme.Geo.Shapes.Circle.<init>(Point2D, double)", "passed"),
                                            ("Acme.Geo.Shapes.Circle.Area()", "passed")]
    assert (summary.passed, summary.blocked) == (2, 0)
    assert summary.together["status"] == "passed"
