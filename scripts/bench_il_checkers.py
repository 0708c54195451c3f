#!/usr/bin/env python
"""The two IL capability checkers side by side on every ground truth of each dataset: il_policy.cs
(Mono.Cecil, one sandboxed mono process) and il_check (pure Python, no mono: the dotnet path's). Both
read policy_rules.tsv; the bench counts the verdicts on which they differ (goal 0: same accepted,
same denials) and prints each checker's time per candidate.

Usage:
  python scripts/bench_il_checkers.py [--dataset DIR ...] [--port JAVA CSHARP ...] [--spawn 10] [--limit N]

Datasets default to datasets/sample and datasets/ledger; `--port` checks every mapped member of an
untouched Java/C# pair. Each target's baseline is built once (mono toolchain, local sandbox). Cecil:
all jobs in one process (its in-process time per job) and `--spawn N` jobs one sandboxed process each,
as a candidate run pays. Python: each job reads the assembly afresh, as a new candidate's would be.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution import policy
from repotrans.execution.il_check import check_assembly
from repotrans.execution.policy_allow import allowances
from repotrans.execution.sandboxes.local import LocalSandbox
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.toolchains.mono_build import POLICY_EXE, rel
from repotrans.execution.workspace import prepare_workspace
from repotrans.experiments.datasets import DatasetTask, candidate_tasks
from repotrans.index.store import Index

from ground_truth_pairs import add_pair_arguments, pairs_of



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_pair_arguments(ap)
    ap.add_argument("--spawn", type=int, default=10, help="jobs checked one sandboxed mono process each (default 10)")
    ap.add_argument("--limit", type=int, default=0, help="check only the first N ground truths of each (0: all)")
    args = ap.parse_args()
    pairs = pairs_of(args)
    differ = 0
    with tempfile.TemporaryDirectory(prefix="bench-il-") as tmp:
        for n, (label, source, target, tasks) in enumerate(pairs):
            differ += _bench(label, source, target, tasks, Path(tmp) / str(n), args.spawn, args.limit)
    print(f"total verdicts on which the checkers differ: {differ} (goal 0)")
    return 0 if differ == 0 else 1


def _bench(label: str, source: Path, target: Path, tasks: list[DatasetTask] | None, tmp: Path, spawn: int,
           limit: int = 0) -> int:
    index = Index.open(tmp / "index")
    index.build(source, target, progress=False)
    tasks = tasks if tasks is not None else candidate_tasks(index)
    tc = MonoToolchain()
    ws = prepare_workspace(target, tmp / "wd", tc.name)
    box = LocalSandbox(ws.root.parent)
    tc.baseline(ws, box, Limits(timeout=60.0, memory_mb=2048))
    projects = [p for p in tc.plan(ws).chosen if not p.is_test]
    jobs = []                                   # (task id, dll, member, allowed)
    for task in tasks:
        m, java = index.method(task.target_method_id), index.method(task.source_method_id)
        path = (ws.src / task.path).resolve()
        project = next((p for p in projects if path in p.sources), None)
        if m is not None and project is not None:
            jobs.append((task.id, ws.base / project.name / project.dll_name, policy.MemberRef.of(m),
                         allowances(index, java)))
    jobs = jobs[:limit] if limit else jobs
    def run(argv: list[str], stdin: bytes):
        outcome = box.run(argv, cwd=ws.root, timeout=600.0, memory_mb=2048, stdin=stdin)
        return outcome.exit_code, outcome.stdout, outcome.timed_out

    lines = [policy.job_line(rel(dll, ws), None, member, allowed) for _, dll, member, allowed in jobs]
    exe = rel(ws.base / POLICY_EXE, ws)
    cecil = policy.run_checker(run, exe, lines)
    spawned = []
    for line in lines[:spawn]:
        t = time.perf_counter()
        policy.run_checker(run, exe, [line])
        spawned.append(time.perf_counter() - t)
    box.close()
    ours = [check_assembly(dll, None, member, allowed) for _, dll, member, allowed in jobs]
    differ = [(task_id, c, p) for (task_id, *_), c, p in zip(jobs, cecil, ours)
              if c.ok != p.ok or sorted((d.capability, d.api) for d in c.denials)
              != sorted((d.capability, d.api) for d in p.denials)]
    print(f"{label}: {len(jobs)} ground truths checked by both")
    print(f"  rejected: Cecil {sum(not v.ok for v in cecil)}, Python {sum(not v.ok for v in ours)}; "
          f"verdicts that differ: {len(differ)}")
    for task_id, c, p in differ[:10]:
        print(f"  - {task_id}: Cecil {c.reason() if not c.ok else 'ok'} | Python {p.reason() if not p.ok else 'ok'}")
    print(f"  Cecil in one process: per job median {statistics.median(v.seconds for v in cecil) * 1000:.0f} ms; "
          + (f"one sandboxed mono process per candidate ({len(spawned)} runs): median {statistics.median(spawned):.2f} s, "
             f"max {max(spawned):.2f} s" if spawned else ""))
    times = [v.seconds for v in ours] or [0.0]
    print(f"  Python per candidate (assembly read afresh): median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms")
    sys.stdout.flush()
    return len(differ)


if __name__ == "__main__":
    raise SystemExit(main())
