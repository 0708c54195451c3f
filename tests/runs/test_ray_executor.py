"""The Ray executor on a real two-node cluster on this machine (head + `ray start --address` worker,
one CPU each): the demo batch gives the same table as the in-process run, also when the worker node
is killed mid-batch; a task that crashes its worker is recorded as an error; a killed driver resumes;
the cap on model calls holds across nodes; a node without the toolchain is a clear error.
"""
import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import ray
from ray import cloudpickle

from repotrans.mapping.load import load_mapping
from repotrans.agents.config import load_config
from repotrans.errors import ConfigError
from repotrans.runs.ablate import configs_for, run_ablation
from repotrans.runs.batch import placeholder_tasks, run_batch
from repotrans.datasets.build import build_dataset
from repotrans.datasets.dataset import load_dataset
from repotrans.datasets.masking import candidate_tasks, mask_repo, materialize
from repotrans.runs.executors import ThreadExecutor
from repotrans.runs.workload import Workload
from repotrans.runs.ray_executor import RayExecutor
from repotrans.runs.tasks import task_dir_name
from repotrans.index.store import Index
from tests.support.run_files import result_rows
from tests.runs.test_batch import _table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from ray_cluster import LocalCluster  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "datasets" / "sample"
SMALL = ["Acme.Geo.GeometryMath.AlmostEqual(double, double)", "Acme.Geo.Shapes.Rectangle.IsSquare",
         "Acme.Common.StringUtils.Repeat(string, int)"]
VECTOR = "Acme.Geo.Vector2D.*"
DEMO_TASKS = 15                         # the demo's Vector2D members
CONFIG = "[agents]\nrag = false\n"      # dense retrieval would embed the whole sample first: minutes

pytestmark = pytest.mark.slow
cloudpickle.register_pickle_by_value(sys.modules[__name__])     # the hooks below run on the workers


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(head_cpus=1, worker_cpus=1) as c:
        yield c


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "repotrans.toml"
    path.write_text(CONFIG)
    return path, load_config(path, cli={"model": {"name": "builtin"}})


@pytest.fixture(scope="module")
def demo(tmp_path_factory, config):
    """The demo's Vector2D masked (15 tasks over several levels: its members call each other), and the
    in-process (thread executor) run over it: the reference. (The whole demo, 32 tasks, made each of
    the three batches of this module cost minutes; the class keeps levels, two nodes and a mid-batch kill.)"""
    root = tmp_path_factory.mktemp("demo")
    view = materialize(load_dataset(SAMPLE / "demo"), root / "view")
    mask_repo(view.oracle_index, candidate_tasks(view.oracle_index, [VECTOR]), root / "target")
    view.oracle_index.close()
    summary = run_batch(view.source, root / "target", root / "thread", config[1], progress=False, jobs=2)
    return view.source, root / "target", root / "thread", summary


@pytest.fixture(scope="module")
def small(tmp_path_factory, config):
    """Three masked sample functions (two levels) and their in-process run."""
    root = tmp_path_factory.mktemp("small")
    index = Index.open(root / "mask-index")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    mask_repo(index, candidate_tasks(index, SMALL), root / "target")
    index.close()
    run_batch(SAMPLE / "java", root / "target", root / "thread", config[1], progress=False)
    return SAMPLE / "java", root / "target", root / "thread"


def _same_summary(a, b) -> None:
    assert (a.tasks, a.passed, a.compiled, a.failed, a.blocked, a.errors) == \
        (b.tasks, b.passed, b.compiled, b.failed, b.blocked, b.errors)
    assert a.together.get("status") == b.together.get("status")
    assert a.together.get("fail_together") == b.together.get("fail_together")


def test_the_demo_batch_on_two_nodes_matches_the_in_process_run(cluster, config, demo, tmp_path):
    source, target, thread_run, reference = demo
    executor = RayExecutor(address=cluster.address, progress=False)
    try:
        summary = run_batch(source, target, tmp_path / "ray", config[1], progress=False, executor=executor)
        stats = executor.stats()
    finally:
        executor.close()
    assert _table(tmp_path / "ray") == _table(thread_run)
    assert len(_table(thread_run)) == reference.tasks == DEMO_TASKS
    _same_summary(summary, reference)
    # both nodes worked; each unpacked a level's folders once, not once per task
    assert len(stats) == 2 and all(s["tasks"] >= 1 for s in stats)
    assert sum(s["tasks"] for s in stats) == DEMO_TASKS
    assert all(1 <= s["unpacked"] <= len(executor.shipped) < DEMO_TASKS for s in stats), (stats, executor.shipped)
    for (_, _, task_id, _, _) in _table(tmp_path / "ray"):
        folder = tmp_path / "ray" / "tasks" / task_dir_name(task_id)
        assert (folder / "trajectory.jsonl").is_file() and (folder / "result.json").is_file()
    assert not list((tmp_path / "ray" / "tasks").glob(".incoming-*"))


def test_killing_the_worker_node_mid_batch_loses_nothing(cluster, config, demo, tmp_path):
    source, target, thread_run, reference = demo
    executor = RayExecutor(address=cluster.address, progress=False)
    head = ray.get_runtime_context().get_node_id()
    outcome: dict = {}

    def batch() -> None:
        try:
            outcome["summary"] = run_batch(source, target, tmp_path / "ray", config[1], progress=False,
                                           executor=executor)
        except BaseException as exc:            # reported by the assertions below
            outcome["error"] = exc

    thread = threading.Thread(target=batch)
    thread.start()
    killed: list[int] = []
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and thread.is_alive():
            busy = [w for n, w in list(executor._workers.items()) if n != head and w.running > 0]
            if result_rows(tmp_path / "ray" / "results.sqlite") >= 6 and busy:
                break
            time.sleep(0.05)
        assert thread.is_alive(), f"the batch ended before the kill: {outcome}"
        rows_at_kill = result_rows(tmp_path / "ray" / "results.sqlite")
        killed = cluster.kill_worker()
        thread.join(timeout=900)
        assert not thread.is_alive() and "error" not in outcome, outcome
    finally:
        thread.join(timeout=900)
        executor.close()
        if killed:
            cluster.start_worker()              # the next tests have two nodes again
    assert killed and 6 <= rows_at_kill < DEMO_TASKS
    assert executor.rescheduled >= 1
    assert _table(tmp_path / "ray") == _table(thread_run)
    _same_summary(outcome["summary"], reference)
    db = sqlite3.connect(tmp_path / "ray" / "results.sqlite")
    assert db.execute("SELECT count(*), count(DISTINCT task_id) FROM results").fetchone() == (DEMO_TASKS, DEMO_TASKS)
    db.close()


def _crash_on_repeat(state, dirs) -> None:
    import os

    if state.task.target_method_id.endswith("StringUtils.Repeat(string, int)"):
        os._exit(3)                              # the worker process dies, as with a segfault


def test_a_task_that_crashes_its_worker_is_recorded_as_an_error(cluster, config, small, tmp_path):
    source, target, _ = small
    ws = tmp_path / "ws"
    index = Index.open(ws)
    index.build(source, target, progress=False)
    tasks = placeholder_tasks(index, load_mapping(index))
    index.close()
    assert len(tasks) == 3
    work = Workload(dirs={"source": source, "target": target, "workspace": ws}, config=config[1],
                    config_name="batch", dataset="target", adjust=_crash_on_repeat)
    executor = RayExecutor(address=cluster.address, progress=False, respawn_grace=1.0)
    try:
        started = time.monotonic()
        records = {r.task_id: r for r in executor.run(work, tasks, tmp_path / "out")}
        took = time.monotonic() - started
    finally:
        executor.close()
    crashed = records.pop("Acme.Common.StringUtils.Repeat(string, int)")
    assert crashed.status == "error" and crashed.error.startswith("WorkerCrashed: the task's worker died 3 times")
    assert sorted(records) == sorted(SMALL[:2]) and all(r.status != "error" for r in records.values())
    assert took < 240


def test_resume_after_the_driver_is_killed(cluster, config, small, tmp_path):
    source, target, thread_run = small
    run_dir = tmp_path / "run"
    cmd = [sys.executable, "-m", "repotrans.cli", "batch", "--source", str(source), "--target", str(target),
           "--run-dir", str(run_dir), "--model", "builtin", "--config", str(config[0]), "--quiet",
           "--executor", "ray", "--ray-address", cluster.address]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None and not result_rows(run_dir / "results.sqlite"):
        time.sleep(0.05)
    assert proc.poll() is None, proc.stdout.read().decode()[-2000:]
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert 1 <= result_rows(run_dir / "results.sqlite") < 3
    done = subprocess.run(cmd + ["--resume"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "3 passed, 0 failed, 0 blocked, 0 errors of 3 tasks" in done.stdout
    assert _table(run_dir) == _table(thread_run)
    assert json.loads((run_dir / "summary.json").read_text())["passed"] == 3


def _calls_through_gate(gate, base_url: str, n: int) -> list[str]:
    from autogen_core.models import ModelInfo, UserMessage
    from autogen_ext.models.openai import OpenAIChatCompletionClient

    from repotrans.agents.limits import LimitedClient
    from repotrans.runs.ray_nodes import GateClient

    info = ModelInfo(vision=False, function_calling=False, json_output=False, family="unknown",
                     structured_output=False)
    client = LimitedClient(OpenAIChatCompletionClient(model="fake", base_url=base_url, api_key="x",
                                                      model_info=info, max_retries=0), GateClient(gate))

    async def all_of_them():
        return await asyncio.gather(*(client.create([UserMessage(content=f"q{i}", source="user")])
                                      for i in range(n)))

    return [r.content for r in asyncio.run(all_of_them())]


def test_the_cap_on_model_calls_holds_across_nodes(cluster):
    from fake_openai_server import FakeOpenAIServer

    from repotrans.runs.ray_nodes import CallGate

    executor = RayExecutor(address=cluster.address, progress=False, model_calls=2)
    try:
        with FakeOpenAIServer(["ok"], latency=0.3, repeat=True) as server:
            call = ray.remote(num_cpus=1)(_calls_through_gate)
            nodes = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            refs = [call.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n, soft=False))
                    .remote(executor.gate, server.base_url, 4) for n in nodes]
            answers = ray.get(refs, timeout=120)
            assert len(nodes) == 2 and answers == [["ok"] * 4] * 2
            assert executor.peak_model_calls() == 2
        assert isinstance(executor.gate, ray.actor.ActorHandle) and CallGate is not None
    finally:
        executor.close()


def test_a_node_without_the_toolchain_is_a_clear_error(cluster, config, small, tmp_path):
    source, target, _ = small
    dotnet = load_config(config[0], cli={"model": {"name": "builtin"}, "execution": {"toolchain": "dotnet"}})
    if __import__("shutil").which("dotnet"):
        pytest.skip("dotnet is installed here")
    executor = RayExecutor(address=cluster.address, progress=False)
    try:
        with pytest.raises(ConfigError, match=r"Ray node\(s\) not ready for dotnet/local: node \w+: dotnet not "
                                              r"found on PATH \| node \w+: dotnet not found on PATH; prepare"):
            run_batch(source, target, tmp_path / "run", dotnet, progress=False, executor=executor)
    finally:
        executor.close()


def test_an_ablation_on_the_cluster_matches_the_in_process_one(cluster, tmp_path):
    """Agents on the masked view, the oracle on the complete port: both shipped to the nodes."""
    tasks = ["Acme.Common.StringUtils.Repeat(string, int)", "Acme.Geo.GeometryMath.AlmostEqual(double, double)",
             "Acme.Geo.Vector2D.Dot(Vector2D)"]
    build_dataset(SAMPLE / "java", SAMPLE / "csharp", tmp_path / "ds", name="mini", select=tasks,
                  validate=False, progress=False)
    configs = configs_for(["no-rag", "direct"], load_config(cli={"model": {"name": "builtin"}}))
    thread = run_ablation([tmp_path / "ds"], configs, tmp_path / "thread", progress=False)
    executor = RayExecutor(address=cluster.address, progress=False)
    try:
        ray_store = run_ablation([tmp_path / "ds"], configs, tmp_path / "ray", progress=False, executor=executor)
    finally:
        executor.close()
    rows = [(r.config, r.dataset, r.task_id, r.status, r.code) for r in thread.records()]
    assert len(rows) == 6 and {r[3] for r in rows} & {"passed"}
    assert [(r.config, r.dataset, r.task_id, r.status, r.code) for r in ray_store.records()] == rows


def test_the_thread_executor_is_the_default_and_ray_needs_its_flag():
    from repotrans.runs.executors import make_executor

    assert isinstance(make_executor("thread", jobs=2), ThreadExecutor)
    with pytest.raises(ConfigError, match="--ray-address needs --executor ray"):
        make_executor("thread", ray_address="127.0.0.1:1")
    with pytest.raises(ConfigError, match="unknown executor"):
        make_executor("dask")
