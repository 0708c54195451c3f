#!/usr/bin/env python
"""The IL verifier's cost per candidate: mono's `pedump --verify code` (the type-safety model's verifier,
capability/il_typesafe.py and cecil_typesafe.cs), run once per candidate check on the candidate's assembly.
Per dataset it builds the baseline (as a candidate's build leaves its assembly), then runs the verifier
`--runs` times on each built assembly, as each candidate's check does, and prints wall and CPU time (median,
p90) beside the assembly's size and method count, and the findings it reports (the port's own unverifiable
code, which never counts against a candidate unless it is the candidate's). `--dll` adds any assembly.

Usage: python scripts/bench_verifier.py [--dataset DIR ...] [--dll PATH ...] [--runs 10]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution.capability.il_metadata import Assembly
from repotrans.execution.capability.il_typesafe import VERIFIER, parse_verifier
from repotrans.execution.toolchains import Limits, TargetBuildError

from ground_truth_pairs import ground_truth_jobs, open_pair, pairs_of


def measure(dll: Path, runs: int) -> tuple[list[float], list[float], int]:
    """(wall seconds, CPU seconds) of each verifier run on `dll`, and the methods it reported findings in."""
    walls, cpus, found = [], [], 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run([VERIFIER, "--verify", "code", str(dll)], capture_output=True, timeout=300)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        found = len(parse_verifier(done.stdout.decode("utf-8", "replace")))
    return walls, cpus, found


def report(label: str, dll: Path, runs: int) -> None:
    walls, cpus, found = measure(dll, runs)
    methods = len(Assembly(dll).rows("MethodDef"))
    p90 = lambda xs: sorted(xs)[max(0, int(len(xs) * 0.9) - 1)]    # noqa: E731
    print(f"{label}: {dll.name}, {dll.stat().st_size // 1024} KiB, {methods} methods: verifier wall median "
          f"{statistics.median(walls) * 1000:.0f} ms, p90 {p90(walls) * 1000:.0f} ms; CPU median "
          f"{statistics.median(cpus) * 1000:.0f} ms, p90 {p90(cpus) * 1000:.0f} ms; methods with findings {found}")
    sys.stdout.flush()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, action="append", help="a dataset folder (dataset.json); repeatable")
    ap.add_argument("--dll", type=Path, action="append", default=[], help="another assembly to time; repeatable")
    ap.add_argument("--runs", type=int, default=10, help="verifier runs per assembly (default 10)")
    args = ap.parse_args()
    if not Path(VERIFIER).is_file():
        print(f"{VERIFIER} is not installed (Debian package mono-utils)", file=sys.stderr)
        return 2
    args.port = None
    with tempfile.TemporaryDirectory(prefix="bench-verifier-") as tmp:
        for n, (label, source, target, tasks) in enumerate(pairs_of(args)):
            pair = open_pair(source, target, tasks, Path(tmp) / str(n))
            try:
                pair.toolchain.baseline(pair.ws, pair.box, Limits(timeout=60.0, memory_mb=2048))
            except TargetBuildError as exc:
                print(f"{label}: NOT MEASURED: {str(exc).splitlines()[0]}")
                continue
            finally:
                pair.box.close()
            jobs, _ = ground_truth_jobs(pair)
            for dll in sorted({job.dll for job in jobs}):
                report(f"{label} ({sum(job.dll == dll for job in jobs)} candidates check it)", dll, args.runs)
    for dll in args.dll:
        report("extra", dll, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
