#!/usr/bin/env python
"""`ablate` throughput on a real port before and after a change, side by side in one run: tasks/hour,
seconds per task and what retrieval costs per task, wall and CPU, with the load average.

Each side runs `repotrans ablate --model builtin` on the same tasks of a built dataset in a child
process with its own code tree (BEFORE: a git worktree of --before; AFTER: this checkout) and a fresh
user cache folder (so the first task pays the cold machine cache, as on a new machine); CPU is every
process's the side starts (scripts/cpu_meter: sandboxed compilers and test runners included, which
getrusage's children's time misses). Retrieval per task is then
timed on that run's workspace in a fresh process and a fresh run folder: `retrieve()` for each task's
Java method (pairs only, as a task's find_examples does), first with that run's (now warm) machine
cache, then with a cold one.

  python scripts/bench_ablate.py --dataset DIR [--limit 3] [--before REF] [--configs full] [--sandbox local]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpu_meter import CpuMeter

from repotrans.runs.layout import dataset_folders, results_file, workdir_of
from repotrans.index.store import Index

REPO = Path(__file__).resolve().parents[1]

RETRIEVE = """
import json, sys, time
from pathlib import Path
t, c = time.perf_counter(), time.process_time()
from repotrans.retrieval.retriever import retrieve
workdir, cache, functions = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
for f in functions:
    retrieve(workdir, f, k=5, cache_dir=cache, names=False, progress=False, pool=100)
print(json.dumps([time.perf_counter() - t, time.process_time() - c]))
"""


def run(argv: list[str], tree: Path, cache: Path, timeout: float) -> tuple[float, float, subprocess.CompletedProcess, str]:
    """(wall, CPU of this process and all it starts, the finished process, how the CPU was counted)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "REPOTRANS_CACHE_DIR": str(cache), "HF_HUB_OFFLINE": "1"}
    meter = CpuMeter()
    try:
        t = time.perf_counter()
        done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
        return time.perf_counter() - t, meter.seconds(), done, meter.how
    finally:
        meter.close()


def retrieval_per_task(tree: Path, run_dir: Path, cache: Path, functions: list[str]) -> tuple[float, float]:
    """(wall, CPU) of retrieving for every function in a fresh process and a fresh run folder."""
    workspace = workdir_of(dataset_folders(run_dir)[0])
    fresh = Path(tempfile.mkdtemp(prefix="bench-ablate-run-"))
    shutil.copy(Index.file_in(workspace), Index.file_in(fresh))
    _, _, done, _ = run([sys.executable, "-c", RETRIEVE, str(fresh), str(cache), json.dumps(functions)], tree, cache, 3600)
    shutil.rmtree(fresh, ignore_errors=True)
    if done.returncode:
        raise SystemExit(f"bench_ablate: retrieval failed in {tree}: {done.stderr.strip()[-400:]}")
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def side(label: str, tree: Path, args: argparse.Namespace, scratch: Path) -> dict:
    cache, run_dir = scratch / f"{label}-cache", scratch / f"{label}-run"
    argv = [sys.executable, "-m", "repotrans.cli", "ablate", "--dataset", str(args.dataset), "--configs", args.configs,
            "--run-dir", str(run_dir), "--limit", str(args.limit), "--model", "builtin", "--sandbox", args.sandbox,
            "--quiet"]
    wall, cpu, done, how = run(argv, tree, cache, args.timeout)
    if done.returncode:
        raise SystemExit(f"bench_ablate: {label} ablate failed: {done.stderr.strip()[-600:]}")
    with sqlite3.connect(results_file(run_dir)) as db:
        rows = db.execute("SELECT task_id, status, seconds FROM results").fetchall()
    tasks = json.loads((args.dataset / "dataset.json").read_text())["tasks"]
    source = {t["id"]: t["source_method_id"] for t in tasks}
    functions = [source[task_id] for task_id, _, _ in rows if task_id in source]
    warm = retrieval_per_task(tree, run_dir, cache, functions)
    cold = retrieval_per_task(tree, run_dir, scratch / f"{label}-cold-cache", functions)
    return {"label": label, "tasks": len(rows), "passed": sum(s == "passed" for _, s, _ in rows), "wall": wall,
            "cpu": cpu, "task_seconds": sum(s for _, _, s in rows), "warm": warm, "cold": cold,
            "n_retrieved": len(functions), "load": os.getloadavg()[0], "cpu_meter": how}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, required=True, help="a built dataset folder (dataset.json)")
    ap.add_argument("--limit", type=int, default=3, help="tasks spread over the dataset (ablate --limit)")
    ap.add_argument("--configs", default="full")
    ap.add_argument("--before", default="HEAD~1", help="git ref of the code before the change")
    ap.add_argument("--sandbox", choices=["auto", "docker", "local"], default="local")
    ap.add_argument("--timeout", type=float, default=7200)
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-ablate-"))
    before = scratch / "before-tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(before), args.before], check=True)
    try:
        rows = [side("before", before, args, scratch), side("after", REPO, args, scratch)]
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(before)], check=False)
    print(f"ablate --configs {args.configs} --limit {args.limit} --model builtin --sandbox {args.sandbox} on {args.dataset} "
          f"({os.cpu_count()} cores); before = {args.before}; CPU by {rows[-1]['cpu_meter']}")
    print("| code | tasks | passed | wall s | CPU s | tasks/hour | s/task (results) | retrieval/task, warm cache "
          "(wall / CPU s) | retrieval/task, cold cache (wall / CPU s) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        n = max(r["n_retrieved"], 1)
        print(f"| {r['label']} | {r['tasks']} | {r['passed']} | {r['wall']:.1f} | {r['cpu']:.1f} | "
              f"{3600 * r['tasks'] / r['wall']:.1f} | {r['task_seconds'] / max(r['tasks'], 1):.1f} | "
              f"{r['warm'][0] / n:.2f} / {r['warm'][1] / n:.2f} | {r['cold'][0] / n:.2f} / {r['cold'][1] / n:.2f} | "
              f"{r['load']:.1f} |")
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
