"""Every path that judges one member's candidate gives the judge the member's Java original (issue 32):
with it, a placeholder the candidate calls blocks the task only when the Java original calls it too.
`java` is a required argument of Runner.run (a new caller cannot forget it); these check that each
caller passes the right one, not None. The judge here records its calls (the callee check itself is
judged for real in tests/execution/capability/test_security.py); the index and the Java fixture are real."""
from __future__ import annotations

import shutil
from types import SimpleNamespace

import pytest

from repotrans.execution.settings import ExecutionConfig
from repotrans.runs.ablate import Oracle
from repotrans.datasets.build import validate_task
from repotrans.datasets.dataset import DatasetTask
from repotrans.sync.steps import SyncSteps
from repotrans.index.store import Index
from tests.runs.test_batch_allowances import FIXTURE, RecordingRunner


@pytest.fixture()
def pair(tmp_path):
    shutil.copytree(FIXTURE / "csharp", tmp_path / "csharp")
    index = Index.open(tmp_path / "wd")
    index.build(FIXTURE / "java", tmp_path / "csharp", progress=False)
    [names] = index.find_methods("target", "DiskStore.Names")
    [java] = index.find_methods("source", "DiskStore.names")
    yield index, names, java
    index.close()


def test_dataset_validation_judges_the_ground_truth_and_the_placeholder_against_the_java_original(pair):
    index, names, java = pair
    runner = RecordingRunner()
    task = DatasetTask(id=names.id[7:], target_method_id=names.id, source_method_id=java.id, path=names.path,
                       confidence=1.0)
    validate_task(index, task, runner)
    assert [j.id for j in runner.javas] == [java.id, java.id]


def test_the_ablation_oracle_judges_against_the_java_original(pair, tmp_path):
    index, names, java = pair
    runner = RecordingRunner()
    oracle = Oracle()
    oracle._open = lambda dirs: index
    oracle._runner = lambda ex, scratch: runner
    brief = SimpleNamespace(task=SimpleNamespace(target_method_id=names.id), java_method=java,
                            config=SimpleNamespace(execution=ExecutionConfig()), services=SimpleNamespace())
    oracle(brief, {"oracle-runs": tmp_path / "runs"})
    brief.services.run_test("{ return null; }")
    assert runner.javas == [java]


def test_sync_judges_against_the_java_original(pair):
    index, names, java = pair
    runner = RecordingRunner()
    context = object.__new__(SyncSteps)
    context.runner, context.index = runner, index
    context.judge(names, "{ return null; }", java)
    assert runner.javas == [java]
