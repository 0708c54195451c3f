"""Ray executor vs thread executor on this machine, side by side in one run; prints its figures.

1. Overhead: the demo batch (datasets/sample/demo, builtin model, real mcs/NUnit runs) with the thread
   executor (--jobs 2) and on a real two-node local Ray cluster (head + worker, one CPU and one task
   slot each: the same two tasks at a time). Tasks per minute of each, and the Ray executor's overhead
   per task as a share of a task's wall time (goal: <= 10%).
2. Model latency: the `direct` configuration over the sample dataset (--latency-tasks tasks) against
   a fake OpenAI-compatible server that answers each call after --latency seconds, on the same
   cluster with --slots tasks per node, next to the throughput model of the README.

    python3 scripts/bench_ray.py [--tasks 32] [--latency 5] [--latency-tasks 64] [--slots 32]
                                 [--skip-overhead] [--skip-latency]
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "support"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from fake_openai_server import FakeOpenAIServer  # noqa: E402
from ray_cluster import LocalCluster  # noqa: E402

from repotrans.agents.config import load_config  # noqa: E402
from repotrans.runs.ablate import configs_for, run_ablation  # noqa: E402
from repotrans.runs.batch import run_batch  # noqa: E402
from repotrans.datasets.dataset import load_dataset  # noqa: E402
from repotrans.datasets.masking import materialize  # noqa: E402
from repotrans.runs.executors import ThreadExecutor  # noqa: E402
from repotrans.runs.layout import results_file  # noqa: E402
from repotrans.runs.ray_executor import RayExecutor  # noqa: E402
from repotrans.index.store import Index  # noqa: E402

SAMPLE = REPO / "datasets" / "sample"
SIGNATURE = re.compile(r"Target C# class: `([^`]+)`.*?signature[^\n]*\n```csharp\n(.*?)\n```", re.S)


def _table(run_dir: Path) -> list[tuple]:
    db = sqlite3.connect(results_file(run_dir))
    try:
        return db.execute("SELECT task_id, status, code FROM results ORDER BY task_id").fetchall()
    finally:
        db.close()


def _seconds(run_dir: Path) -> list[tuple[float, float]]:
    """(task seconds, seconds of its last test run) per task."""
    import json

    db = sqlite3.connect(results_file(run_dir))
    try:
        rows = db.execute("SELECT seconds, result_json FROM results").fetchall()
    finally:
        db.close()
    return [(s, (json.loads(r) if r else {}).get("timings", {}).get("total", 0.0)) for s, r in rows]


def overhead(root: Path, cluster: LocalCluster, tasks: int) -> None:
    ds = load_dataset(SAMPLE / "demo")
    view = materialize(ds, root / "view")
    view.oracle_index.close()
    functions = root / "functions.txt"
    functions.write_text("\n".join(t.id for t in ds.tasks[:tasks]) + "\n")
    (root / "repotrans.toml").write_text("[agents]\nrag = false\n")
    config = load_config(root / "repotrans.toml", cli={"model": {"name": "builtin"}})
    walls = {}
    for name in ("thread", "ray"):
        executor = ThreadExecutor(jobs=2) if name == "thread" else RayExecutor(address=cluster.address,
                                                                                 tasks_per_node=1, progress=False)
        started = time.perf_counter()
        try:
            summary = run_batch(view.source, view.target, root / name, config, functions=functions,
                                progress=False, executor=executor)
        finally:
            executor.close()
        walls[name] = time.perf_counter() - started
        inside = statistics.mean(r[0] for r in _seconds(root / name))
        print(f"  {name:6s}: {summary.tasks} tasks in {walls[name]:6.1f} s = {60 * summary.tasks / walls[name]:5.1f} "
              f"tasks/min ({summary.passed} passed); a task's own time {inside:.2f} s on average")
    same = _table(root / "thread") == _table(root / "ray")
    n = len(_table(root / "thread"))
    per_task = walls["thread"] * 2 / n               # two tasks at a time in both
    extra = (walls["ray"] - walls["thread"]) * 2 / n
    print(f"  per task: {per_task:.2f} s wall (thread); Ray overhead {extra:+.2f} s per task = "
          f"{100 * extra / per_task:+.1f}% of a task's wall time (goal <= 10%); identical results: {same}")


def _answers(oracle: Index):
    """The fake model answers with the method of the complete port named by the prompt (the bench
    measures throughput, not translation), or a body that compiles and fails."""
    truth = {}
    root = oracle.root("target")
    for m in oracle.all_methods("target"):
        text = (root / m.path).read_bytes()[m.start_byte:m.end_byte].decode("utf-8")
        truth[(m.type_id.split(":", 1)[-1], " ".join(m.signature.split()))] = text

    def answer(body: dict) -> str:
        prompt = "\n".join(str(msg.get("content", "")) for msg in body.get("messages", []))
        found = SIGNATURE.search(prompt)
        if found is None:
            return "```csharp\n// no signature in the prompt\n```"
        key = (found.group(1), " ".join(found.group(2).split()))
        code = truth.get(key) or found.group(2) + " { throw new System.NotSupportedException(); }"
        return f"```csharp\n{code}\n```"

    return answer


def latency(root: Path, cluster: LocalCluster, seconds: float, tasks: int, slots: int) -> None:
    ds = load_dataset(SAMPLE)
    view = materialize(ds, root / "datasets" / ds.name)
    answer = _answers(view.oracle_index)
    view.oracle_index.close()
    with FakeOpenAIServer([], latency=seconds, responder=answer) as server:
        os.environ.setdefault("REPOTRANS_API_KEY", "not-needed")
        base = load_config(cli={"model": {"name": "fake-5s", "base_url": server.base_url, "cache": False}})
        configs = configs_for(["direct"], base)
        executor = RayExecutor(address=cluster.address, tasks_per_node=slots, progress=False)
        started = time.perf_counter()
        try:
            store = run_ablation([SAMPLE], configs, root, limit=tasks, progress=False, executor=executor)
        finally:
            executor.close()
        wall = time.perf_counter() - started
        records = store.records()
        calls = len(server.requests)
    n = len(records)
    per_call = statistics.mean(r.model_calls for r in records)
    test_run = statistics.mean((r.result or {}).get("timings", {}).get("total", 0.0) for r in records)
    nodes, concurrent = 2, min(n, 2 * slots)
    model_floor = math.ceil(n / concurrent) * per_call * seconds
    cpu_floor = n * test_run / os.cpu_count()
    print(f"  {n} tasks ({calls} model calls, {per_call:.1f} per task, {seconds:.0f} s each), {nodes} nodes x "
          f"{slots} slots: {wall:.1f} s = {60 * n / wall:.1f} tasks/min; statuses {sorted({r.status for r in records})}")
    print(f"  model: model-bound floor {math.ceil(n / concurrent)} wave(s) x {per_call:.1f} calls x {seconds:.0f} s = "
          f"{model_floor:.1f} s; CPU floor {n} tasks x {test_run:.2f} s test run / {os.cpu_count()} cores = "
          f"{cpu_floor:.1f} s; one task at a time: {n} x ({per_call:.1f} x {seconds:.0f} + {test_run:.2f}) s = "
          f"{n * (per_call * seconds + test_run):.0f} s, {n * (per_call * seconds + test_run) / wall:.1f}x slower")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=int, default=32, help="demo tasks for the overhead part")
    parser.add_argument("--latency", type=float, default=5.0, help="seconds per fake model call")
    parser.add_argument("--latency-tasks", type=int, default=64)
    parser.add_argument("--slots", type=int, default=32, help="tasks per node in the latency part")
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--skip-overhead", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as tmp, LocalCluster(1, 1) as cluster:
        print(f"machine: {os.cpu_count()} CPUs; local Ray cluster of 2 nodes (1 CPU each) at {cluster.address}")
        if not args.skip_overhead:
            print("1. overhead on the demo batch (builtin model, two tasks at a time):")
            overhead(Path(tmp) / "overhead", cluster, args.tasks)
        if not args.skip_latency:
            print(f"2. model latency ({args.latency:.0f} s per call, direct configuration):")
            latency(Path(tmp) / "latency", cluster, args.latency, args.latency_tasks, args.slots)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
