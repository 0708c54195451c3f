#!/usr/bin/env python
"""False rejections of the IL capability policy: every ground truth of each dataset, checked as a
candidate would be (its member and the compiler-generated code it reaches, allowances from its Java
original by policy_allow.allowances, the function every judging path uses), with the checker's cost
per candidate. Goal: 0 rejections, <= 0.2 s per candidate.

Usage:
  python scripts/bench_policy_false_rejections.py [--dataset DIR ...] [--port JAVA CSHARP ...] [--spawn 10]
                                                  [--sandbox local|docker]

Datasets default to datasets/sample and datasets/ledger. `--port` takes an untouched Java/C# pair and
checks every mapped member (an unvalidated task list, labelled so). Per dataset it prints: checked,
rejected (each named with the API that triggered it), allowed with reduced trust; the checker's own
time per candidate (median, p90) from one process over all tasks; and, for `--spawn N` tasks, the cost
a candidate run pays, wall and CPU (median, p90), side by side: the checker as its own sandboxed
process (the old way) against the checker chained into the build's command (policy.chained_argv,
with a no-op compile, minus that no-op command's own round trip).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution import policy
from repotrans.execution.policy_allow import allowances
from repotrans.execution.sandboxes.choice import make_sandbox
from repotrans.execution.sandboxes.local import LocalSandbox
from repotrans.execution.toolchains import Limits, TargetBuildError
from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.toolchains.mono_build import POLICY_EXE, rel
from repotrans.execution.workspace import prepare_workspace
from repotrans.experiments.datasets import DatasetTask, candidate_tasks
from repotrans.index.store import Index

from ground_truth_pairs import add_pair_arguments, pairs_of

CHUNK = 200                         # jobs per checker process (its answers must fit the pipe's buffer)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_pair_arguments(ap)
    ap.add_argument("--spawn", type=int, default=10, help="tasks checked one process each (default 10)")
    ap.add_argument("--sandbox", choices=["local", "docker"], default="local",
                    help="the sandbox of the per-candidate runs (the baseline is built locally)")
    args = ap.parse_args()
    pairs = pairs_of(args)
    total_rejected, unchecked = 0, []
    with tempfile.TemporaryDirectory(prefix="bench-policy-") as tmp:
        for n, (label, source, target, tasks) in enumerate(pairs):
            rejected = _bench(label, source, target, tasks, Path(tmp) / str(n), args.spawn, args.sandbox)
            if rejected < 0:
                unchecked.append(label.split(" ", 1)[0])
            total_rejected += max(rejected, 0)
    print(f"total ground truths rejected: {total_rejected} (goal 0)"
          + (f"; NOT CHECKED (does not build here): {', '.join(unchecked)}" if unchecked else ""))
    return 0 if total_rejected == 0 and not unchecked else 1


def _bench(label: str, source: Path, target: Path, tasks: list[DatasetTask] | None, tmp: Path, spawn: int,
           sandbox: str) -> int:
    """Print one dataset's figures; its rejected ground truths, or -1 when its target does not build here."""
    index = Index.open(tmp / "index")
    index.build(source, target, progress=False)
    tasks = tasks if tasks is not None else candidate_tasks(index)
    tc = MonoToolchain()
    ws = prepare_workspace(target, tmp / "wd", tc.name)
    box = LocalSandbox(ws.root.parent)
    started = time.perf_counter()
    try:
        tc.baseline(ws, box, Limits(timeout=60.0, memory_mb=2048))
    except TargetBuildError as exc:         # nothing to check: say so and go on with the next dataset
        box.close()
        granted = sum(bool(allowances(index, index.method(t.source_method_id))) for t in tasks)
        print(f"{label}: NOT CHECKED, {len(tasks)} ground truths: {str(exc).splitlines()[0]}")
        print(f"  (allowances computed from the Java originals: {granted} of them would run with reduced trust)")
        sys.stdout.flush()
        return -1
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
    verdicts = []                   # in chunks: the sandbox writes all of stdin before it reads stdout
    for at in range(0, len(jobs), CHUNK):
        verdicts += policy.run_checker(run, exe, jobs[at:at + CHUNK])
    batch = time.perf_counter() - started
    costs = _spawned(make_sandbox(sandbox, ws.root.parent, tc.image) if sandbox != "local" else box, ws, exe,
                     jobs[:spawn], tmp / "scratch")
    box.close()
    rejected = [(name, v) for name, v in zip(names, verdicts) if not v.ok]
    per_job = [v.seconds for v in verdicts] or [0.0]
    print(f"{label}: {len(jobs)} ground truths checked ({unbuilt} not in a built project), baseline build {built:.1f} s")
    print(f"  rejected: {len(rejected)} (goal 0); allowed with reduced trust (the Java original reaches the "
          f"capability): {allowed_count}")
    for name, v in rejected:
        print(f"  - {name}: {v.reason()}" + (f" [in {v.denials[0].where}]" if v.denials else ""))
    print(f"  checker, one process per {CHUNK} candidates: {batch:.2f} s in all; its own time per candidate median "
          f"{_ms(statistics.median(per_job))}, p90 {_ms(_p90(per_job))}, max {_ms(max(per_job))}; "
          f"methods inspected per candidate median {statistics.median([v.inspected for v in verdicts] or [0]):.0f}")
    if costs:
        print(f"  per candidate run ({len(costs['separate wall'])} runs, {sandbox} sandbox, load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores), goal <= 0.2 s:")
        for way in ("separate", "chained"):
            print(f"    checker {'as its own process (before)' if way == 'separate' else 'in the build command (now)'}"
                  f": wall median {_ms(statistics.median(costs[way + ' wall']))}, p90 {_ms(_p90(costs[way + ' wall']))}"
                  f"; CPU median {_ms(statistics.median(costs[way + ' cpu']))}, p90 {_ms(_p90(costs[way + ' cpu']))}")
    sys.stdout.flush()
    return len(rejected)


def _spawned(box, ws, exe: str, jobs: list[str], scratch: Path) -> dict[str, list[float]]:
    """Per job, interleaved so load hits both alike: the checker as its own sandboxed command, and the
    added wall time of chaining it into a (no-op) build command: that command minus the no-op alone.
    CPU is the checker process's own, as it reports it (start-up and JIT included)."""
    costs: dict[str, list[float]] = {k: [] for k in ("separate wall", "separate cpu", "chained wall", "chained cpu")}
    scratch.mkdir(parents=True, exist_ok=True)

    def timed(argv: list[str], stdin: bytes | None, writable: list[Path]) -> tuple[float, float]:
        t = time.perf_counter()
        outcome = box.run(argv, cwd=ws.root, timeout=600.0, memory_mb=2048, stdin=stdin, writable=writable)
        wall = time.perf_counter() - t
        checker = policy.split_chained(outcome.stdout)[1] if argv[0] == "sh" else outcome.stdout
        answers = policy.parse_output(checker or "")
        return wall, answers[0].cpu if answers else float("nan")

    for job in jobs:
        wall, cpu = timed(policy.checker_argv(exe), policy.stdin_of([job]), [])
        costs["separate wall"].append(wall)
        costs["separate cpu"].append(cpu)
        noop_wall, _ = timed(["true"], None, [scratch])
        wall, cpu = timed(policy.chained_argv(exe, ["true"]), policy.stdin_of([job]), [scratch])
        costs["chained wall"].append(max(0.0, wall - noop_wall))
        costs["chained cpu"].append(cpu)
    if box.name != "local":
        box.close()
    return costs if jobs else {}


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
