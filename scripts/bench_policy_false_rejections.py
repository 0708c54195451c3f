#!/usr/bin/env python
"""False rejections of the IL capability policy: every ground truth of each dataset, checked as a
candidate would be (its member and the compiler-generated code it reaches, allowances from its Java
original), with the checker's time per candidate. Goal: 0 rejections, <= 0.2 s per candidate.

Usage:
  python scripts/bench_policy_false_rejections.py [--dataset DIR ...] [--port JAVA CSHARP ...] [--spawn 10]

Datasets default to datasets/sample and datasets/ledger. `--port` takes an untouched Java/C# pair and
checks every mapped member (an unvalidated task list, labelled so). Each dataset's baseline is built
once (local sandbox); all its tasks then go to one checker process (the in-process time per job is
printed), and `--spawn N` tasks are also checked one process each, as a candidate run does.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution import policy
from repotrans.execution.policy_allow import allowances
from repotrans.execution.sandboxes.local import LocalSandbox
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.toolchains.mono_build import POLICY_EXE, rel
from repotrans.execution.workspace import prepare_workspace
from repotrans.experiments.datasets import DatasetTask, candidate_tasks, load_dataset
from repotrans.index.store import Index

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, action="append", help="a dataset folder (dataset.json); repeatable")
    ap.add_argument("--port", nargs=2, type=Path, action="append", metavar=("JAVA", "CSHARP"),
                    help="an untouched Java/C# pair: every mapped member is checked; repeatable")
    ap.add_argument("--spawn", type=int, default=10, help="tasks checked one process each (default 10)")
    args = ap.parse_args()
    pairs = []
    for folder in args.dataset or ([] if args.port else [ROOT / "datasets" / "sample", ROOT / "datasets" / "ledger"]):
        ds = load_dataset(folder)
        pairs.append((ds.label, ds.source_dir, ds.target_dir, ds.tasks))
    for java, csharp in args.port or []:
        pairs.append((f"{csharp.name} (all mapped members, unvalidated)", java.resolve(), csharp.resolve(), None))
    total_rejected = 0
    with tempfile.TemporaryDirectory(prefix="bench-policy-") as tmp:
        for n, (label, source, target, tasks) in enumerate(pairs):
            total_rejected += _bench(label, source, target, tasks, Path(tmp) / str(n), args.spawn)
    print(f"total ground truths rejected: {total_rejected} (goal 0)")
    return 0 if total_rejected == 0 else 1


def _bench(label: str, source: Path, target: Path, tasks: list[DatasetTask] | None, tmp: Path, spawn: int) -> int:
    index = Index.open(tmp / "index")
    index.build(source, target, progress=False)
    tasks = tasks if tasks is not None else candidate_tasks(index)
    tc = MonoToolchain()
    ws = prepare_workspace(target, tmp / "wd", tc.name)
    box = LocalSandbox(ws.root.parent)
    started = time.perf_counter()
    tc.baseline(ws, box, Limits(timeout=60.0, memory_mb=2048))
    built = time.perf_counter() - started
    projects = [p for p in tc.plan(ws).chosen if not p.is_test]
    jobs, names, allowed_count, unbuilt = [], [], 0, 0
    for task in tasks:
        m = index.method(task.target_method_id)
        java = index.method(task.source_method_id)
        path = (ws.src / task.path).resolve()
        project = next((p for p in projects if path in p.sources), None)
        if m is None or project is None:
            unbuilt += 1
            continue
        allowed = allowances(index, java)
        allowed_count += bool(allowed)
        dll = rel(ws.base / project.name / project.dll_name, ws)
        jobs.append(policy.job_line(dll, None, policy.MemberRef.of(m), allowed))
        names.append(task.id)

    def run(argv: list[str], stdin: bytes):
        outcome = box.run(argv, cwd=ws.root, timeout=600.0, memory_mb=2048, stdin=stdin)
        return outcome.exit_code, outcome.stdout, outcome.timed_out

    exe = rel(ws.base / POLICY_EXE, ws)
    started = time.perf_counter()
    verdicts = policy.run_checker(run, exe, jobs)
    batch = time.perf_counter() - started
    spawned = []
    for job in jobs[:spawn]:
        t = time.perf_counter()
        policy.run_checker(run, exe, [job])
        spawned.append(time.perf_counter() - t)
    box.close()
    rejected = [(name, v) for name, v in zip(names, verdicts) if not v.ok]
    per_job = [v.seconds for v in verdicts] or [0.0]
    print(f"{label}: {len(jobs)} ground truths checked ({unbuilt} not in a built project), baseline build {built:.1f} s")
    print(f"  rejected: {len(rejected)}; with allowances from the Java original (trust: reduced): {allowed_count}")
    for name, v in rejected:
        print(f"  - {name}: {v.reason()}" + (f" [in {v.denials[0].where}]" if v.denials else ""))
    print(f"  checker, one process for all: {batch:.2f} s; in-process per candidate median "
          f"{statistics.median(per_job) * 1000:.0f} ms, max {max(per_job) * 1000:.0f} ms; "
          f"methods inspected per candidate median {statistics.median([v.inspected for v in verdicts] or [0]):.0f}")
    if spawned:
        print(f"  checker, one sandboxed process per candidate ({len(spawned)} runs): median "
              f"{statistics.median(spawned):.2f} s, max {max(spawned):.2f} s (goal <= 0.2 s)")
    sys.stdout.flush()
    return len(rejected)


if __name__ == "__main__":
    raise SystemExit(main())
