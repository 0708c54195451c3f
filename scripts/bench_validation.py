"""Dataset validation speed: seconds per validated task with --jobs 1 and --jobs N, side by side on the
same tasks (each run from a fresh dataset folder, the runner's baseline build warmed first), and what a
resumed build costs when every verdict is already saved.

    python scripts/bench_validation.py [SOURCE TARGET] [--select GLOB ...] [--jobs 2] [--work DIR]

Defaults: the bundled sample, StringUtils and Vector2D (22 tasks).
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from repotrans.experiments.datasets import VERDICTS, build_dataset

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "datasets" / "sample"


def timed_build(source: Path, target: Path, out: Path, select: list[str], jobs: int) -> tuple[float, int, int]:
    started = time.monotonic()
    ds = build_dataset(source, target, out, select=select, jobs=jobs, progress=False)
    return time.monotonic() - started, len(ds.tasks), len(ds.dropped)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", type=Path, nargs="?", default=SAMPLE / "java")
    ap.add_argument("target", type=Path, nargs="?", default=SAMPLE / "csharp")
    ap.add_argument("--select", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    args = ap.parse_args()
    select = args.select or ["Acme.Common.StringUtils.*", "Acme.Geo.Vector2D.*"]
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-validation-"))
    warm = work / "warm"
    timed_build(args.source, args.target, warm, select[:1], 1)      # index and baseline builds cached
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
