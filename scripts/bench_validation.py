"""Dataset validation speed: seconds per validated task with --jobs 1 and --jobs N, side by side on the
same tasks (each run from a fresh dataset folder, the runner's baseline build warmed first), and what a
resumed build costs when every verdict is already saved.

    python scripts/bench_validation.py [SOURCE TARGET] [--select GLOB ...] [--jobs 2] [--work DIR]
    python scripts/bench_validation.py SOURCE TARGET --select GLOB ... --schemata
        # before/after: per-task builds vs one mutant-schemata build (--jobs N both), tasks/hour and
        # seconds per validated task (wall and CPU), whether the validated sets are the same (and
        # why not), and the raw compiler (one mcs of the library) + runner (one covering-test run)
        # time the same work needs; --mode per-task|schemata measures one now and reads the other's
        # figures from --work (two long runs started apart); --clock wall|cpu the test runs' limits,
        # --load N busy loops beside the measurement (the verdicts of a busy machine against a quiet one)

Defaults: the bundled sample, StringUtils and Vector2D (22 tasks).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import tempfile
import time
from pathlib import Path

from repotrans.execution.settings import ExecutionConfig
from repotrans.datasets.build import VERDICTS, build_dataset, build_folder
from repotrans.datasets.dataset import load_dataset

from cpu_meter import CpuMeter

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "datasets" / "sample"


def timed_build(source: Path, target: Path, out: Path, select: list[str], jobs: int,
                schemata: bool = True, clock: str = "cpu") -> tuple[float, int, int]:
    started = time.monotonic()
    ds = build_dataset(source, target, out, select=select, jobs=jobs, progress=False, schemata=schemata,
                       execution=ExecutionConfig(sandbox="local", clock=clock))
    return time.monotonic() - started, len(ds.tasks), len(ds.dropped)


MODES = {"per-task": False, "schemata": True}


def busy() -> None:
    while True:
        pass


class Load:
    """`n` busy loops (another lane's compilers and test runs) while a measurement runs."""

    def __init__(self, n: int):
        self.loops = [multiprocessing.Process(target=busy, daemon=True) for _ in range(n)]
        for loop in self.loops:
            loop.start()

    def close(self) -> None:
        for loop in self.loops:
            loop.kill()
            loop.join()


def measure_mode(args, mode: str, select: list[str], work: Path, warm: Path) -> dict:
    """One validation of `select` in a fresh dataset folder (the warm index copied, so both modes pay
    one baseline build and no indexing); its figures are saved in WORK/<mode>.json."""
    out = work / mode
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(build_folder(warm) / "index", build_folder(out) / "index")
    load = Load(args.load)
    meter = CpuMeter()
    try:
        seconds, kept, dropped = timed_build(args.source, args.target, out, select, args.jobs, MODES[mode],
                                             args.clock)
        cpu = meter.seconds()
    finally:
        meter.close()
        load.close()
    ds = load_dataset(out)
    figures = {"mode": mode, "jobs": args.jobs, "tasks": kept + dropped, "validated": kept, "wall": seconds,
               "cpu": cpu, "cpu_meter": meter.how, "kept": sorted(t.id for t in ds.tasks),
               "dropped": {d["id"]: d["reason"] for d in ds.dropped}, "load": os.getloadavg()[0],
               "clock": args.clock, "busy": args.load}
    (work / f"{mode}.json").write_text(json.dumps(figures, indent=1))
    return figures


def compare_schemata(args, select: list[str], work: Path, warm: Path) -> None:
    """Per-task builds (before) vs one schemata build (after), each in a fresh dataset folder; with
    --mode, one of them now and the other read from WORK/<mode>.json of an earlier run."""
    for mode in MODES if args.mode == "both" else [args.mode]:
        measure_mode(args, mode, select, work, warm)
    rows = {m: json.loads((work / f"{m}.json").read_text()) for m in MODES if (work / f"{m}.json").is_file()}
    print("| validation | tasks | validated | wall s | CPU s | s per validated task (wall) | CPU s per validated "
          "task | tasks/hour | load at end | time limits | busy loops |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for mode, r in rows.items():
        print(f"| {mode} (--jobs {r['jobs']}) | {r['tasks']} | {r['validated']} | {r['wall']:.1f} | {r['cpu']:.1f} | "
              f"{r['wall'] / max(1, r['validated']):.2f} | {r['cpu'] / max(1, r['validated']):.2f} | "
              f"{3600 * r['tasks'] / r['wall']:.0f} | {r['load']:.1f} | {r.get('clock', 'wall')} | {r.get('busy', 0)} |")
    print("CPU time: " + "; ".join(sorted({f"{m}: {r.get('cpu_meter', 'getrusage')}" for m, r in rows.items()})))
    compile_s, test_s = raw_times(warm, select)
    n = next(iter(rows.values()))["tasks"] if rows else 1
    print(f"raw toolchain, one core: mcs of the library {compile_s:.1f} s, one covering-test run {test_s:.1f} s; "
          f"the same work per task: per-task path 2 x (mcs + run) = {2 * (compile_s + test_s):.1f} s, "
          f"schemata mcs/{n} + 2 runs = {compile_s / max(1, n) + 2 * test_s:.1f} s")
    if len(rows) == 2:
        before, after = rows["per-task"], rows["schemata"]
        only_before = sorted(set(before["kept"]) - set(after["kept"]))
        only_after = sorted(set(after["kept"]) - set(before["kept"]))
        print(f"identical validated sets: {'yes' if not only_before and not only_after else 'no'}")
        for tid in only_before:
            print(f"  per-task only: {tid} (schemata: {after['dropped'].get(tid)})")
        for tid in only_after:
            print(f"  schemata only: {tid} (per-task: {before['dropped'].get(tid)})")
        reasons = sorted(t for t in before["dropped"] if t in after["dropped"]
                         and before["dropped"][t] != after["dropped"][t])
        print(f"dropped both ways with different reasons: {len(reasons)}"
              + "".join(f"\n  {t}: per-task {before['dropped'][t]!r} / schemata {after['dropped'][t]!r}"
                        for t in reasons[:10]))


def raw_times(warm: Path, select: list[str]) -> tuple[float, float]:
    """One plain mcs of the project compiling the first task, and one plain runner invocation of its
    covering tests, outside any sandbox (the floor the validation's own figures compare with)."""
    import secrets
    import subprocess

    from repotrans.execution.judge.runner import Runner, covering_names, member_tokens
    from repotrans.execution.workspace.selection import choose_tests, index_tests
    from repotrans.execution.toolchains.api import compile_argv
    from repotrans.execution.toolchains.api import mono_env, runner_argv
    from repotrans.datasets.masking import candidate_tasks
    from repotrans.index.store import Index

    index = Index.open(build_folder(warm) / "index", must_exist=True)
    task = candidate_tasks(index, select)[0]
    method = index.method(task.target_method_id)
    with Runner(ExecutionConfig(sandbox="local"), build_folder(warm) / "runs") as runner:
        ws = runner.baseline(index.root("target"))
        tc = runner.toolchain
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
    ap.add_argument("--mode", choices=["both", *MODES], default="both",
                    help="with --schemata: measure one mode now, the other's figures read from --work")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="what a test run's limit counts (execution.clock; `wall`: the limits of before)")
    ap.add_argument("--load", type=int, default=0, metavar="N",
                    help="with --schemata: N busy loops run beside each measurement (a busy machine)")
    args = ap.parse_args()
    select = args.select or ["Acme.Common.StringUtils.*", "Acme.Geo.Vector2D.*"]
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-validation-"))
    warm = work / "warm"
    if args.schemata:
        if not (warm / "dataset.json").is_file():                                  # the index only
            build_dataset(args.source, args.target, warm, select=select, validate=False, progress=False)
        return compare_schemata(args, select, work, warm)
    timed_build(args.source, args.target, warm, select[:1], 1, schemata=False)   # index and baseline cached
    rows = []
    for jobs in (1, args.jobs):
        out = work / f"jobs{jobs}"
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(build_folder(warm), build_folder(out), ignore=shutil.ignore_patterns(VERDICTS))
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
