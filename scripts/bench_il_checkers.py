#!/usr/bin/env python
"""The two IL capability checkers side by side on every ground truth of each dataset: cecil_checker.cs
(Mono.Cecil, one sandboxed mono process) and il_check (pure Python, no mono: the dotnet path's). Both
read rules.tsv; the bench counts the verdicts on which they differ (goal 0: same accepted,
same denials) and prints each checker's time per candidate.

Usage:
  python scripts/bench_il_checkers.py [--dataset DIR ...] [--port JAVA CSHARP ...] [--spawn 10] [--limit N]

Datasets default to datasets/sample and datasets/ledger; `--port` checks every mapped member of an
untouched Java/C# pair. Each target's baseline is built once (mono toolchain, local sandbox). Cecil:
all jobs in one process (its in-process time per job) and `--spawn N` jobs one sandboxed process each,
as a candidate run pays. Python: each job reads the assembly afresh, as a new candidate's would be;
and `--spawn N` jobs as a dotnet candidate is checked, one sandboxed checker process each
(il_check_process, baseline keys saved once), wall and the checker's CPU, side by side with in process.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.capability.il_job import check_assembly
from repotrans.execution.capability.il_check_process import IlCheckProcess
from repotrans.execution.toolchains import Limits
from repotrans.datasets.dataset import DatasetTask

from ground_truth_pairs import add_pair_arguments, check_all, ground_truth_jobs, open_pair, pairs_of


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
    pair = open_pair(source, target, tasks, tmp)
    pair.toolchain.baseline(pair.ws, pair.box, Limits(timeout=60.0, memory_mb=2048))
    jobs = ground_truth_jobs(pair)[0]
    jobs = jobs[:limit] if limit else jobs
    lines = [job.line(pair.ws) for job in jobs]
    cecil = check_all(pair, lines)
    spawned = []
    for line in lines[:spawn]:
        t = time.perf_counter()
        check_all(pair, [line])
        spawned.append(time.perf_counter() - t)
    pair.box.close()
    ours = [check_assembly(job.dll, None, job.member, job.allowed, job.dll) for job in jobs]
    differ = [(job.task_id, c, p) for job, c, p in zip(jobs, cecil, ours)
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
    _out_of_process(pair, jobs[:spawn], ours[:spawn])
    sys.stdout.flush()
    return len(differ)


def _out_of_process(pair, jobs, in_process) -> None:
    """The Python checker as the dotnet path runs it: its own sandboxed process per candidate."""
    checker = IlCheckProcess(pair.ws.root, pair.ws.root / "il_keys")
    for dll in {job.dll for job in jobs}:
        checker.save_keys(dll)
    walls, cpus, differ = [], [], 0
    for job, alone in zip(jobs, in_process):
        t = time.perf_counter()
        v = checker.check([checks.job_line(str(job.dll), str(job.dll), job.member, job.allowed)])[0]
        walls.append(time.perf_counter() - t)
        cpus.append(v.cpu)
        if v.ok != alone.ok or sorted(v.denials, key=str) != sorted(alone.denials, key=str):
            differ += 1
            print(f"  - {job.task_id}: out of process {v.reason() if not v.ok else 'ok'}")
    if walls:
        print(f"  Python out of process ({checker.where}, {len(walls)} runs): wall median "
              f"{statistics.median(walls) * 1000:.0f} ms, max {max(walls) * 1000:.0f} ms; checker CPU median "
              f"{statistics.median(cpus) * 1000:.0f} ms; verdicts that differ from in process: {differ}")


if __name__ == "__main__":
    raise SystemExit(main())
