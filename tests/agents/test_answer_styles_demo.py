"""The demo batch (datasets/sample/demo, 32 tasks) with the oracle model and with the R1-style model
(reasoning blocks with draft code and braces, ```cs fences, whole-class answers, trailing commas):
real HTTP client, real mcs builds and NUnit runs; the R1 style passes as many tasks with as many calls."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from repotrans.cli import main
from repotrans.index.store import Index
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.oracle_model import OracleModel

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    full = Index.open(root / "complete-index")
    full.build(ROOT / "datasets/sample/java", ROOT / "datasets/sample/csharp", progress=False)
    assert main(["dataset", "mask", "--dataset", str(ROOT / "datasets/sample/demo"), "--out", str(root / "view")]) == 0
    return root, full


def batch(demo, style: str, monkeypatch) -> tuple[dict, int, Path]:
    root, full = demo
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    with FakeOpenAIServer(responder=OracleModel(full, style=style)) as server:
        code = main(["batch", "--source", str(ROOT / "datasets/sample/java"), "--target", str(root / "view/target"),
                     "--run-dir", str(root / style),
                     "--model", f"{style}-model", "--base-url", server.base_url, "--sandbox", "local"])
    assert code == 0
    return json.loads((root / style / "summary.json").read_text()), len(server.requests), root / style


def test_r1_style_passes_as_many_tasks_as_the_oracle(demo, monkeypatch, capfd):
    oracle, oracle_calls, _ = batch(demo, "oracle", monkeypatch)
    r1, r1_calls, run = batch(demo, "r1", monkeypatch)
    assert "Event loop is closed" not in capfd.readouterr().err      # clients are closed inside their loop
    assert oracle["passed"] == oracle["tasks"] == 32 and r1["passed"] == oracle["passed"] and r1["errors"] == 0
    assert r1["together"]["status"] == "passed"
    assert r1_calls == oracle_calls
    attempts = [json.loads(l) for t in (run / "tasks").glob("*/trajectory.jsonl")
                for l in t.read_text().splitlines() if '"kind": "attempt"' in l]
    assert any(a["additions"]["shape"] == "class" for a in attempts)          # whole classes were reduced
    assert not any("Draft" in a["code"] for a in attempts)                    # never the draft in the reasoning
