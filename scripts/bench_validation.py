"""Dataset validation speed: seconds per validated task with --jobs 1 and --jobs N, side by side on the
same tasks (each run from a fresh dataset folder, the runner's baseline build warmed first), and what a
resumed build costs when every verdict is already saved.

    python scripts/bench_validation.py [SOURCE TARGET] [--select GLOB ...] [--jobs 2] [--work DIR]
    python scripts/bench_validation.py SOURCE TARGET --select GLOB ... --schemata
        # before/after: per-task builds vs one mutant-schemata build (--jobs N both), tasks/hour and
        # seconds per validated task, whether the validated sets are the same, and the raw compiler
        # (one mcs of the library) + runner (one covering-test run) time the same work needs

Defaults: the bundled sample, StringUtils and Vector2D (22 tasks).
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from repotrans.execution.settings import ExecutionConfig
from repotrans.experiments.datasets import VERDICTS, build_dataset, load_dataset

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "datasets" / "sample"


def timed_build(source: Path, target: Path, out: Path, select: list[str], jobs: int,
                schemata: bool = True) -> tuple[float, int, int]:
    started = time.monotonic()
    ds = build_dataset(source, target, out, select=select, jobs=jobs, progress=False, schemata=schemata,
                       execution=ExecutionConfig(sandbox="local"))
    return time.monotonic() - started, len(ds.tasks), len(ds.dropped)


def compare_schemata(args, select: list[str], work: Path, warm: Path) -> None:
    """Per-task builds (before) vs one schemata build (after), each in a fresh dataset folder."""
    rows, kept_ids = [], {}
    for label, schemata in (("per-task builds", False), ("schemata", True)):
        out = work / label.split()[0]                 # a fresh folder each: both pay one baseline build
        shutil.rmtree(out, ignore_errors=True)
        seconds, kept, dropped = timed_build(args.source, args.target, out, select, args.jobs, schemata)
        kept_ids[label] = {t.id for t in load_dataset(out).tasks}
        rows.append((label, seconds, kept, dropped))
    compile_s, test_s = raw_times(warm, select)
    n = rows[0][2] + rows[0][3]
    print(f"| validation (--jobs {args.jobs}) | tasks | validated | wall s | s per validated task | tasks/hour |")
    print("|---|---|---|---|---|---|")
    for label, seconds, kept, dropped in rows:
        print(f"| {label} | {kept + dropped} | {kept} | {seconds:.1f} | {seconds / max(1, kept):.2f} | "
              f"{3600 * (kept + dropped) / seconds:.0f} |")
    print(f"raw toolchain, one core: mcs of the library {compile_s:.1f} s, one covering-test run {test_s:.1f} s; "
          f"the same work per task: per-task path 2 x (mcs + run) = {2 * (compile_s + test_s):.1f} s, "
          f"schemata mcs/{n} + 2 runs = {compile_s / max(1, n) + 2 * test_s:.1f} s")
    same = kept_ids["per-task builds"] == kept_ids["schemata"]
    print(f"same validated set: {same}" + ("" if same else
          f" (per-task only {sorted(kept_ids['per-task builds'] - kept_ids['schemata'])[:5]}, schemata only "
          f"{sorted(kept_ids['schemata'] - kept_ids['per-task builds'])[:5]})"))


def raw_times(warm: Path, select: list[str]) -> tuple[float, float]:
    """One plain mcs of the project compiling the first task, and one plain runner invocation of its
    covering tests, outside any sandbox (the floor the validation's own figures compare with)."""
    import secrets
    import subprocess

    from repotrans.execution.runner import covering_names, member_tokens
    from repotrans.execution.selection import choose_tests, index_tests
    from repotrans.execution.toolchains.mono_build import compile_argv
    from repotrans.execution.toolchains.mono_test import mono_env, runner_argv
    from repotrans.execution.toolchains.registry import make_toolchain
    from repotrans.execution.workspace import prepare_workspace
    from repotrans.experiments.datasets import candidate_tasks
    from repotrans.index.store import Index

    index = Index.open(warm / ".build" / "index", must_exist=True)
    task = candidate_tasks(index, select)[0]
    method = index.method(task.target_method_id)
    tc = make_toolchain("mono")
    ws = prepare_workspace(index.root("target"), warm / ".build" / "runs", tc.name)
    projects = tc.plan(ws).chosen
    project = next(p for p in projects if (ws.src / method.path).resolve() in p.sources)
    out = Path(tempfile.mkdtemp(prefix="raw-mcs-", dir=ws.root))
    started = time.monotonic()
    subprocess.run(compile_argv(ws, project, projects, out, None), cwd=ws.root, capture_output=True)
    compile_s = time.monotonic() - started
    shutil.rmtree(out, ignore_errors=True)
    chosen = choose_tests(index, method, index_tests(ws, tc.test_projects(ws)), covering_names(index, method),
                          member_tokens(index, method))
    tests = [p for p in projects if p.is_test and any(f.startswith(p.name + ":") for f in chosen.tests or [])]
    if not tests:
        return compile_s, 0.0
    names = [f.split(":", 1)[1] for f in chosen.tests if f.startswith(tests[0].name + ":")]
    started = time.monotonic()
    subprocess.run(runner_argv(ws, ws.base / tests[0].name / tests[0].dll_name, names), cwd=ws.root,
                   input=f"{secrets.token_hex(16)}\n".encode(), capture_output=True,
                   env={"PATH": "/usr/bin:/bin", **mono_env(1024)})
    return compile_s, time.monotonic() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", type=Path, nargs="?", default=SAMPLE / "java")
    ap.add_argument("target", type=Path, nargs="?", default=SAMPLE / "csharp")
    ap.add_argument("--select", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    ap.add_argument("--schemata", action="store_true", help="compare per-task builds with one schemata build")
    args = ap.parse_args()
    select = args.select or ["Acme.Common.StringUtils.*", "Acme.Geo.Vector2D.*"]
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-validation-"))
    warm = work / "warm"
    timed_build(args.source, args.target, warm, select[:1], 1, schemata=False)   # index and baseline cached
    if args.schemata:
        return compare_schemata(args, select, work, warm)
    rows = []
    for jobs in (1, args.jobs):
        out = work / f"jobs{jobs}"
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(warm / ".build", out / ".build", ignore=shutil.ignore_patterns(VERDICTS))
        seconds, kept, dropped = timed_build(args.source, args.target, out, select, jobs)
        rows.append((jobs, seconds, kept, dropped))
    resumed, _, _ = timed_build(args.source, args.target, work / f"jobs{args.jobs}", select, args.jobs)
    for jobs, seconds, kept, dropped in rows:
        checked = kept + dropped
        print(f"--jobs {jobs}: {checked} tasks ({kept} kept, {dropped} dropped) in {seconds:.1f} s = "
              f"{seconds / max(1, checked):.2f} s per task")
    print(f"speed-up --jobs {args.jobs} vs 1: {rows[0][1] / rows[1][1]:.2f}x")
    print(f"resumed build with every verdict saved: {resumed:.1f} s")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
