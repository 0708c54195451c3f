#!/usr/bin/env python
"""False timeouts under CPU load: N placeholder candidates (`throw new NotImplementedException()`)
for the sample's methods, judged while bounded busy loops keep every core busy. Each must be a fast
failure (runtime_error), never a timeout: the runner reports through its own stdout and is stopped
1.5 s after its END line, and it opens no remoting channel.

With --nunit-console K it also runs the old way (nunit-console 2.6 -process=Single -domain=None on
the same placeholder build, K times, same load) and counts the runs that printed complete results
but did not exit within 10 s.

Usage: python scripts/bench_false_timeouts.py [--runs 300] [--sandbox local|docker] [--nunit-console 0]
"""
from __future__ import annotations

import argparse
import collections
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import load_projects
from repotrans.index.store import Index

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "datasets" / "sample"
PLACEHOLDER = "{ throw new System.NotImplementedException(); }"


def busy(until: float) -> None:
    while time.time() < until:
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--sandbox", choices=["local", "docker"], default="local")
    ap.add_argument("--timeout", type=float, default=60.0, help="the test step's limit (default 60 s)")
    ap.add_argument("--nunit-console", type=int, default=0, metavar="K", help="also run nunit-console K times")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-timeouts-") as tmp:
        tmp = Path(tmp)
        index = Index.open(tmp / "wd")
        index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
        root = index.root("target").resolve()
        test_dirs = [p.dir.resolve() for p in load_projects(root) if p.is_test]
        methods = [m for m in index.all_methods("target") if m.kind == "method" and m.body is not None
                   and "abstract" not in m.modifiers
                   and not any((root / m.path).resolve().is_relative_to(d) for d in test_dirs)]
        runner = Runner(ExecutionConfig(sandbox=args.sandbox, timeout=args.timeout), tmp / "wd")
        runner.run(index, methods[0], PLACEHOLDER, java=None)                                          # warm

        cores = os.cpu_count() or 2
        end = time.time() + 3600
        load = [multiprocessing.Process(target=busy, args=(end,), daemon=True) for _ in range(cores)]
        for p in load:
            p.start()
        statuses: collections.Counter[str] = collections.Counter()
        seconds: list[float] = []
        slow: list[str] = []
        try:
            started = time.perf_counter()
            for i in range(args.runs):
                m = methods[i % len(methods)]
                t = time.perf_counter()
                result = runner.run(index, m, PLACEHOLDER, java=None)
                seconds.append(time.perf_counter() - t)
                statuses[result.status] += 1
                if result.status in ("timeout", "passed") or seconds[-1] > 10:
                    slow.append(f"{m.id}: {result.status} in {seconds[-1]:.1f} s ({result.reason})")
            wall = time.perf_counter() - started
            hangs = _nunit_console(index, methods[0], tmp, args.nunit_console) if args.nunit_console else None
        finally:
            for p in load:
                p.terminate()
            runner.close()

    q = statistics.quantiles(seconds, n=20)
    print(f"sample: {len(methods)} methods, {args.runs} placeholder runs, sandbox {args.sandbox}, "
          f"{cores} busy loops (one per core)")
    print(f"statuses: {dict(sorted(statuses.items()))}")
    print(f"timeouts: {statuses['timeout']}   false passes: {statuses['passed']}")
    print(f"seconds per run: median {statistics.median(seconds):.2f}, p95 {q[18]:.2f}, max {max(seconds):.2f}; "
          f"total {wall:.0f} s")
    for line in slow[:10]:
        print(f"  {line}")
    if hangs is not None:
        print(f"nunit-console 2.6 (-process=Single -domain=None), {args.nunit_console} runs under the same load: "
              f"{hangs} printed complete results and then did not exit within 10 s")
    return 0 if statuses["timeout"] == 0 and statuses["passed"] == 0 else 1


def _nunit_console(index: Index, method, tmp: Path, runs: int) -> int:
    """How often nunit-console hangs after writing complete results, on a placeholder build."""
    with Runner(ExecutionConfig(sandbox="local"), tmp / "wd") as runner:
        result = runner.run(index, method, PLACEHOLDER, keep_run=True, java=None)
    [ws] = (tmp / "wd" / "runner").glob("mono-*")
    dlls = sorted(ws.glob("runs/*/bin/*/*.Tests.dll"))
    if not dlls:
        print(f"bench: no kept test build ({result.status})", file=sys.stderr)
        return -1
    hangs = 0
    for i in range(runs):
        xml = tmp / f"nunit-{i}.xml"
        proc = subprocess.Popen(["nunit-console", "-nologo", "-noshadow", "-process=Single", "-domain=None",
                                 f"-result={xml}", str(dlls[-1])], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            hangs += int(xml.exists() and "</test-results>" in xml.read_text(errors="replace"))
            os.killpg(proc.pid, 9)
            proc.wait()
    return hangs


if __name__ == "__main__":
    sys.exit(main())
