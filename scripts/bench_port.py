#!/usr/bin/env python
"""Seconds per validated task and per candidate run on a real port (a dataset built with
`repotrans dataset build`), set against raw `mcs` (the changed project, same files and options) +
`nunit-console` (the same selected tests) run by hand outside any sandbox, side by side in one run.

Usage:
  python scripts/bench_port.py --dataset DIR [--tasks 10] [--sandbox local]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import MonoToolchain, compile_argv, mono_env
from repotrans.execution.workspace.scratch import prepare_workspace
from repotrans.datasets.build import validate_task
from repotrans.datasets.dataset import load_dataset
from repotrans.index.store import Index


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", type=Path, required=True, help="a built dataset folder (dataset.json)")
    ap.add_argument("--tasks", type=int, default=10, help="validated tasks to time (the first N)")
    ap.add_argument("--sandbox", choices=["local", "docker"], default="local")
    args = ap.parse_args()
    ds = load_dataset(args.dataset)
    if not ds.tasks:
        print(f"bench: {args.dataset} has no validated tasks", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="bench-port-") as tmp:
        tmp = Path(tmp)
        index = Index.open(tmp / "index")
        index.build(ds.source_dir, ds.target_dir, progress=False)
        tasks = ds.tasks[:args.tasks]
        t = time.perf_counter()
        first = index.method(tasks[0].target_method_id)
        validator = Runner(ExecutionConfig(sandbox=args.sandbox), tmp / "wd")
        validator.run(index, first, _truth(index, first), java=None)
        cold = time.perf_counter() - t
        per_task, per_run, parts, raw, kept = [], [], {}, [], 0
        for task in tasks:
            m = index.method(task.target_method_id)
            t = time.perf_counter()
            verdict = validate_task(index, task, validator)
            per_task.append(time.perf_counter() - t)
            kept += verdict.reason is None
            t = time.perf_counter()
            result = validator.run(index, m, _truth(index, m), java=None)
            per_run.append(time.perf_counter() - t)
            for k, v in result.timings.items():
                parts.setdefault(k, []).append(v)
            raw.append(_raw_once(index, m, result.selected, tmp))
        validator.close()
    run, r = statistics.median(per_run), statistics.median(raw)
    print(f"dataset {ds.name}: {len(ds.tasks)} validated tasks; timed {len(tasks)} (re-validated: {kept} kept), "
          f"sandbox {args.sandbox}")
    print(f"cold first run (workspace copy + baseline build + candidate): {cold:6.2f} s")
    print(f"per validated task (ground truth + placeholder), median: {statistics.median(per_task):6.2f} s, "
          f"mean {statistics.mean(per_task):.2f} s")
    print(f"per candidate run, median:                             {run:6.2f} s  ("
          + ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in sorted(parts.items())) + ")")
    print(f"raw mcs (changed project) + nunit-console (same tests): {r:6.2f} s")
    print(f"candidate / raw: {run / r:.2f}x")
    return 0


def _truth(index: Index, m) -> str:
    return (index.root("target") / m.path).read_bytes()[m.start_byte:m.end_byte].decode()


def _raw_once(index: Index, method, selected: list[str], tmp: Path) -> float:
    """The same work by hand: mcs on the project compiling the file, nunit-console on the selected tests."""
    tc = MonoToolchain()
    ws = prepare_workspace(index.root("target"), tmp / "wd", tc.name)
    projects = tc.plan(ws).chosen
    source = (ws.src / method.path).resolve()
    lib = next(p for p in projects if source in p.sources and not p.is_test)
    tests = next(p for p in projects if p.is_test and lib.path in p.project_refs)
    raw = tmp / "raw"
    shutil.rmtree(raw, ignore_errors=True)
    shutil.copytree(ws.base / tests.name, raw / tests.name)
    for f in (raw / tests.name).iterdir():
        f.chmod(0o644)
    compile_cmd = compile_argv(ws, lib, projects, raw / tests.name, None)
    names = sorted({s.split(":", 1)[1] for s in selected})
    test_cmd = ["nunit-console", "-nologo", "-noshadow", "-process=Single", "-domain=None",
                f"-result={raw / 'result.xml'}"] + (["-run=" + ",".join(names)] if names else []) + \
        [str(raw / tests.name / tests.dll_name)]
    t = time.perf_counter()
    subprocess.run(compile_cmd, cwd=ws.root, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(test_cmd, cwd=ws.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600,
                   env={**{k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "HOME")},
                        **mono_env(1024)})
    return time.perf_counter() - t


if __name__ == "__main__":
    sys.exit(main())
