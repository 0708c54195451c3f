"""A batch's verdicts rest on the untouched port's baseline (fixture tests/fixtures/engine_pair: a small scheduler
library in Java and its C# port, NUnit 2.6 tests with an engine started once per fixture; real batches: the oracle
model over HTTP, mcs builds, NUnit runs). The port's InterruptTests share one engine and pass or fail by the order
they run in; StaysPaused passes only after PausesTheEngine, which a selection for RamJobStore.Due never holds (it
does not reach Due), so the correct body of Due failed it, and so did the whole suite (was: flaky tests left out
only with --known-failures). The batch now takes the untouched port's baseline before its first verdict: the
flipping tests are left out of every verdict and the whole-suite check, and the summary names them, with the
tests the suite says not to run ([Explicit], an "Integration" fixture), which reach Due too and never run."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from repotrans.agents.config import load_config
from repotrans.datasets.masking import candidate_tasks, mask_repo
from repotrans.index.store import Index
from repotrans.runs.batch import run_batch
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.mono_repos import needs_mono
from tests.support.oracle_model import OracleModel

pytestmark = pytest.mark.slow

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "engine_pair"
DUE = "Example.Engine.RamJobStore.Due(long)"
FLAKY = "Example.Engine.Tests.InterruptTests.StaysPaused"


def test_a_flipping_test_decides_no_batch_verdict_and_the_summary_names_it(tmp_path, monkeypatch):
    needs_mono()
    full = Index.open(tmp_path / "complete-index")
    full.build(PAIR / "java", PAIR / "csharp", progress=False)
    tasks = candidate_tasks(full, [DUE])
    target = tmp_path / "target"
    shutil.copytree(PAIR / "csharp", target)
    mask_repo(full, tasks, target)
    functions = tmp_path / "functions.txt"
    functions.write_text(DUE + "\n")
    (tmp_path / "repotrans.toml").write_text("[agents]\nrag = false\n[execution]\nsandbox = \"local\"\n")
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    with FakeOpenAIServer(responder=OracleModel(full)) as server:
        config = load_config(tmp_path / "repotrans.toml", cli={"model": {"name": "oracle", "base_url": server.base_url}})
        summary = run_batch(PAIR / "java", target, tmp_path / "run", config, functions=functions, progress=False)
    db = sqlite3.connect(tmp_path / "run" / "results.sqlite")
    status, result = db.execute("SELECT status, result_json FROM results WHERE task_id = ?", (DUE,)).fetchone()
    db.close()
    result = json.loads(result)
    assert (summary.passed, status) == (1, "passed"), result["reason"]
    assert result["left_out"][f"Engine.Tests:{FLAKY}"].startswith("flips on the untouched port (passed, then failed")
    assert "flip on the untouched port (flaky)" in result["reason"]
    assert summary.together["status"] == "passed" and FLAKY in summary.together["flaky"]
    assert FLAKY in summary.baseline["flipping"]
    assert summary.baseline["excluded"] == {
        "Example.Engine.Tests.DbJobStoreTests.SchedulesIntoTheDatabase":
            '[Category("Integration")] on Example.Engine.Tests.DbJobStoreTests',
        "Example.Engine.Tests.StressTests.ThousandsOfJobs": "[Explicit]"}
    line = next(l for l in summary.render().splitlines() if l.startswith("untouched port (baseline)"))
    assert "left out of every verdict: 4 (4 flips on the untouched port); flipping: " in line, line
    assert "never run, the suite says not to: 2 ([Category(\"Integration\")]" in line and "[Explicit]: " in line
