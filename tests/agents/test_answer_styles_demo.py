"""The demo's Vector2D (15 tasks over several levels: its members call each other) with the oracle model
and with the R1-style model (reasoning blocks with draft code and braces, ```cs fences, whole-class answers,
trailing commas): real HTTP client, real mcs builds and NUnit runs; the R1 style passes as many tasks with as
many calls. (The whole demo, 32 tasks, made the two batches cost four minutes; one class keeps every style.)"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from repotrans.cli import main
from repotrans.datasets.dataset import load_dataset
from repotrans.datasets.masking import candidate_tasks, mask_repo, materialize
from repotrans.index.store import Index
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.oracle_model import OracleModel

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
VECTOR = "Acme.Geo.Vector2D.*"
TASKS = 15                              # the demo's Vector2D members


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    full = Index.open(root / "complete-index")
    full.build(ROOT / "datasets/sample/java", ROOT / "datasets/sample/csharp", progress=False)
    view = materialize(load_dataset(ROOT / "datasets/sample/demo"), root / "view")
    mask_repo(view.oracle_index, candidate_tasks(view.oracle_index, [VECTOR]), root / "target")
    view.oracle_index.close()
    return root, full


def batch(demo, style: str, monkeypatch) -> tuple[dict, int, Path]:
    root, full = demo
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    with FakeOpenAIServer(responder=OracleModel(full, style=style)) as server:
        code = main(["batch", "--source", str(ROOT / "datasets/sample/java"), "--target", str(root / "target"),
                     "--run-dir", str(root / style),
                     "--model", f"{style}-model", "--base-url", server.base_url, "--sandbox", "local"])
    assert code == 0
    return json.loads((root / style / "summary.json").read_text()), len(server.requests), root / style


def test_r1_style_passes_as_many_tasks_as_the_oracle(demo, monkeypatch, capfd):
    oracle, oracle_calls, _ = batch(demo, "oracle", monkeypatch)
    r1, r1_calls, run = batch(demo, "r1", monkeypatch)
    assert "Event loop is closed" not in capfd.readouterr().err      # clients are closed inside their loop
    assert oracle["passed"] == oracle["tasks"] == TASKS and r1["passed"] == oracle["passed"] and r1["errors"] == 0
    assert r1["together"]["status"] == "passed"
    assert r1_calls == oracle_calls
    attempts = [json.loads(l) for t in (run / "tasks").glob("*/trajectory.jsonl")
                for l in t.read_text().splitlines() if '"kind": "attempt"' in l]
    assert any(a["additions"]["shape"] == "class" for a in attempts)          # whole classes were reduced
    assert not any("Draft" in a["code"] for a in attempts)                    # never the draft in the reasoning
