#!/usr/bin/env python
"""Per-candidate latency of the runner for a one-method change, cold and warm, set against the raw
`mcs` (changed project only) + repotrans's NUnit runner on the selected tests, run by hand outside
any sandbox, for the same work.

Goal: warm <= 1.3x raw. Usage:
  python scripts/bench_runner.py [--target DIR] [--method "Circle.Area"] [--repeat 5] [--sandbox local]
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

from repotrans.execution.judge.runner import Runner, covering_names, member_tokens
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import MonoToolchain, compile_argv, mono_env, runner_argv, load_projects
from repotrans.execution.workspace.scratch import prepare_workspace
from repotrans.execution.workspace.selection import index_tests, select_tests
from repotrans.index.store import Index

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "datasets" / "sample"
FIXTURE = REPO / "tests" / "fixtures" / "dotnet" / "projects" / "calc"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=Path, help="C# repository (default: the sample pair, else the fixture)")
    ap.add_argument("--source", type=Path, help="Java repository for the index (default: the sample's)")
    ap.add_argument("--method", default=None, help='C# member (default: "Circle.Area" or "Calculator.Add")')
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sandbox", choices=["local", "docker"], default="local")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-runner-") as tmp:
        tmp = Path(tmp)
        target, source, query = _inputs(args, tmp)
        index = Index.open(tmp / "wd")
        index.build(source, target, progress=False)
        [method] = index.find_methods("target", query)
        # a one-method change: the method's own text with a comment added (forces a real rebuild)
        own = (target / method.path).read_bytes()[method.start_byte:method.end_byte].decode()
        code = f"// candidate\n{own}"

        with Runner(ExecutionConfig(sandbox=args.sandbox), tmp / "wd") as runner:
            t = time.perf_counter()
            first = runner.run(index, method, code, java=None)
            cold = time.perf_counter() - t
            if first.status != "passed":
                print(f"bench: the method's own body did not pass: {first.brief()}", file=sys.stderr)
                return 1
            warm, inside = [], []
            for _ in range(args.repeat):
                t = time.perf_counter()
                result = runner.run(index, method, code, java=None)
                warm.append(time.perf_counter() - t)
                inside.append(result.timings["build"] + result.timings["test"])
        raw = [_raw_once(index, method, tmp) for _ in range(args.repeat)]

    w, r = statistics.median(warm), statistics.median(raw)
    print(f"target {target.relative_to(REPO) if target.is_relative_to(REPO) else target}, "
          f"method {method.id}, sandbox {args.sandbox}, tests run {first.tests_run}, "
          f"fixtures {len(first.selected) or 'all'}")
    print(f"cold (copy + baseline build + candidate): {cold:6.2f} s")
    print(f"warm per candidate (median of {args.repeat}):  {w:6.2f} s   "
          f"(build+test inside: {statistics.median(inside):.2f} s)")
    print(f"raw mcs + NUnit runner (median):        {r:6.2f} s")
    print(f"warm / raw: {w / r:.2f}x (goal <= 1.30x)")
    return 0


def _inputs(args, tmp: Path) -> tuple[Path, Path, str]:
    if args.target:
        source = args.source
        if source is None:
            source = tmp / "java"
            source.mkdir()
            (source / "A.java").write_text("class A {}\n")
        return args.target.resolve(), source, args.method or "Calculator.Add"
    if (SAMPLE / "csharp").is_dir():
        return SAMPLE / "csharp", SAMPLE / "java", args.method or "Circle.Area"
    source = tmp / "java"
    source.mkdir()
    (source / "A.java").write_text("class A {}\n")
    return FIXTURE, source, args.method or "Calculator.Add"


def _raw_once(index: Index, method, tmp: Path) -> float:
    """The same work by hand: mcs for the changed project, the NUnit runner on the selected tests."""
    tc = MonoToolchain()
    ws = prepare_workspace(index.root("target"), tmp / "wd", tc.name)
    projects = load_projects(ws.src)
    source = (ws.src / method.path).resolve()
    [lib] = [p for p in projects if source in p.sources]
    [tests] = [p for p in projects if p.is_test and lib.path in p.project_refs]
    selected = select_tests(index_tests(ws, tc.test_projects(ws)), covering_names(index, method),
                            member_tokens(index, method)).tests
    raw = ws.root / "raw"
    shutil.rmtree(raw, ignore_errors=True)
    shutil.copytree(ws.base / tests.name, raw / tests.name)
    compile_cmd = compile_argv(ws, lib, projects, raw / tests.name, None)
    test_cmd = runner_argv(ws, raw / tests.name / tests.dll_name, [f.split(":", 1)[1] for f in selected] or None)
    t = time.perf_counter()
    subprocess.run(compile_cmd, cwd=ws.root, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(test_cmd, cwd=ws.root, stdout=subprocess.DEVNULL, input=b"nonce\n", env={**_env(), **mono_env(1024)})
    return time.perf_counter() - t


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "HOME")}


if __name__ == "__main__":
    sys.exit(main())
