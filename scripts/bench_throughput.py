"""Tasks/hour of `repotrans dataset build` and `repotrans ablate`, before and after: the same commands
run from a checkout of an earlier commit (a git worktree of --before) and from this checkout, side
by side, with wall and CPU time (this machine is shared: CPU time is the steadier figure).

    python scripts/bench_throughput.py --before b0f3803 [--source J --target C --select GLOB ...]
        [--dataset datasets/sample --limit 10 --configs full] [--jobs 2] [--work DIR]

Defaults: the sample's StringUtils and Vector2D (dataset build, 22 tasks) and 10 tasks of
datasets/sample with the `full` configuration and the builtin model (ablate). Each command runs in a
fresh folder, so both checkouts pay one index and one baseline build; test runs use the local sandbox
(a docker container's CPU time is the daemon's, not this process tree's).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpu_meter import CpuMeter

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "datasets" / "sample"
METER = ["?"]                      # how the last command's CPU time was counted


def timed(argv: list[str], checkout: Path) -> tuple[float, float, str]:
    """(wall s, CPU s of the command and its children, its output's last lines) run from `checkout`."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "HF_HUB_OFFLINE": "1"}
    meter = CpuMeter()
    try:
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "repotrans.cli", *argv], cwd=checkout, env=env,
                              capture_output=True, text=True)
        wall = time.monotonic() - started
        cpu = meter.seconds()
        METER[0] = meter.how
    finally:
        meter.close()
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv[:2])} failed in {checkout}:\n{done.stderr[-2000:]}")
    return wall, cpu, (done.stdout + done.stderr)[-400:]


def measure(label: str, checkout: Path, args, work: Path) -> list[dict]:
    rows = []
    out = work / label / "dataset"
    select = [a for s in args.select for a in ("--select", s)]
    wall, cpu, _ = timed(["dataset", "build", "--source", str(args.source), "--target", str(args.target),
                          "--out", str(out), "--jobs", str(args.jobs), "--sandbox", "local", *select], checkout)
    manifest = json.loads((out / "dataset.json").read_text())
    checked = len(manifest["tasks"]) + len(manifest["dropped"])
    rows.append({"step": "dataset build", "checkout": label, "tasks": checked,
                 "validated": len(manifest["tasks"]), "wall": wall, "cpu": cpu})
    run_dir = work / label / "ablate"
    wall, cpu, _ = timed(["ablate", "--dataset", *map(str, args.dataset), "--run-dir", str(run_dir),
                          "--model", "builtin", "--configs", args.configs, "--limit", str(args.limit),
                          "--jobs", str(args.jobs), "--sandbox", "local"], checkout)
    tasks = args.limit * len(args.dataset) * len(args.configs.split(","))
    rows.append({"step": "ablate", "checkout": label, "tasks": tasks, "validated": None, "wall": wall, "cpu": cpu})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True, help="the earlier commit (any git revision of this repository)")
    ap.add_argument("--source", type=Path, default=SAMPLE / "java")
    ap.add_argument("--target", type=Path, default=SAMPLE / "csharp")
    ap.add_argument("--select", action="append", default=[])
    ap.add_argument("--dataset", type=Path, nargs="+", default=[SAMPLE])
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--configs", default="full")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one, removed)")
    args = ap.parse_args()
    args.select = args.select or ["Acme.Common.StringUtils.*", "Acme.Geo.Vector2D.*"]
    args.source, args.target = args.source.resolve(), args.target.resolve()
    args.dataset = [d.resolve() for d in args.dataset]
    work = (args.work or Path(tempfile.mkdtemp(prefix="bench-throughput-"))).resolve()
    old = work / "before-checkout"
    shutil.rmtree(old, ignore_errors=True)
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(old), args.before], cwd=REPO, check=True,
                   capture_output=True)
    try:
        rows = measure(f"before ({args.before})", old, args, work) + measure("after (this checkout)", REPO, args, work)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=REPO, capture_output=True)
    print(f"| step (--jobs {args.jobs}) | checkout | tasks | validated | wall s | CPU s | tasks/hour (wall) | "
          f"tasks/hour (CPU) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['step']} | {r['checkout']} | {r['tasks']} | {'' if r['validated'] is None else r['validated']} | "
              f"{r['wall']:.1f} | {r['cpu']:.1f} | {3600 * r['tasks'] / r['wall']:.0f} | "
              f"{3600 * r['tasks'] / max(r['cpu'], 1e-9):.0f} |")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}; CPU time by {METER[0]}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
