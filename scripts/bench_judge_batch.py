"""Seconds per judged candidate and compiles per candidate: the per-candidate path against candidates
judged together behind switches (execution.judge.batching), side by side on one dataset.

    python scripts/bench_judge_batch.py [--dataset datasets/sample/demo] [--limit 24] [--group 8]
        [--tree complete|masked] [--work DIR]

The judged tree is the complete port (`complete`, as ablate's oracle judges: each candidate replaces
one ground truth) or the dataset's masked view (`masked`: every task a placeholder, as `batch` sees
it). The candidates are STAND-INS FOR TIMING: each task's ground-truth body from the complete port, or (every
`--placeholder-every`-th task) the placeholder itself, so both verdicts occur. Both paths use one Runner
(local sandbox) on the same workspace after one warm baseline build; the per-candidate path judges the
candidates one after another, the batched path `run_many` in groups of `--group` (tests one after
another too). Verdicts are compared field by field; the figures are wall and CPU time (cpu_meter),
with the machine's load.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cpu_meter import CpuMeter

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from repotrans.execution.judge.batching import BatchingJudge  # noqa: E402
from repotrans.execution.capability.allowances import allowances  # noqa: E402
from repotrans.execution.judge.runner import Runner  # noqa: E402
from repotrans.execution.settings import ExecutionConfig  # noqa: E402
from repotrans.datasets.dataset import load_dataset  # noqa: E402
from repotrans.datasets.masking import materialize  # noqa: E402
from repotrans.runs.ablate import spread  # noqa: E402
from repotrans.index.store import Index  # noqa: E402

PLACEHOLDER = "{\n    throw new System.NotImplementedException();\n}"


def _no_offsets(text: str) -> str:
    return re.sub(r"\[0x[0-9a-f]+\]", "[0x?]", text)


def candidates(ds, view, index: Index, limit: int | None, every: int) -> list:
    """(masked member, stand-in candidate, allowances) per task."""
    items = []
    for n, task in enumerate(spread(ds.tasks, limit)):
        truth = view.oracle_index.method(task.target_method_id)
        masked = index.method(task.target_method_id)
        if truth is None or masked is None:
            continue
        code = (ds.target_dir / truth.path).read_bytes()[truth.start_byte:truth.end_byte].decode("utf-8")
        if every and n % every == every - 1:
            code = PLACEHOLDER
        java = index.method(task.source_method_id)
        items.append((masked, code, allowances(index, java), java))
    return items


def measure(label: str, judge, index: Index, items: list, group: int) -> tuple[dict, list]:
    meter = CpuMeter()
    try:
        started = time.monotonic()
        if isinstance(judge, BatchingJudge):
            results = []
            for at in range(0, len(items), group):
                results += judge.run_many(index, items[at:at + group])
            compiles = judge.compiles + sum(r.judge.startswith("alone") for r in results)
        else:
            results = [judge.run(index, m, code, allow=allow, java=java) for m, code, allow, java in items]
            compiles = len(results)
        wall, cpu = time.monotonic() - started, meter.seconds()
    finally:
        meter.close()
    return {"path": label, "n": len(results), "wall": wall, "cpu": cpu, "compiles": compiles,
            "batched": sum(r.judge.startswith("batched") for r in results), "how": meter.how}, results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", type=Path, default=REPO / "datasets" / "sample" / "demo")
    ap.add_argument("--limit", type=int, default=24, help="tasks, spread over the dataset (0: all)")
    ap.add_argument("--group", type=int, default=8, help="candidates judged together at most")
    ap.add_argument("--placeholder-every", type=int, default=4, help="every Nth candidate is the placeholder")
    ap.add_argument("--tree", choices=("complete", "masked"), default="complete",
                    help="judge on the complete port (ablate's oracle) or on the masked view (batch)")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one, removed)")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-judge-batch-"))
    try:
        ds = load_dataset(args.dataset)
        view = materialize(ds, work / "view")
        tree = ds.target_dir if args.tree == "complete" else view.target
        index = view.oracle_index
        if args.tree == "masked":
            index = Index.open(work / "workspace")
            index.build(view.source, tree, progress=False)
        items = candidates(ds, view, index, args.limit or None, args.placeholder_every)
        config = ExecutionConfig(sandbox="local", timeout=args.timeout)
        with Runner(config, work / "workspace") as runner:
            started = time.monotonic()
            runner.baseline(tree)
            baseline = time.monotonic() - started
            alone, expected = measure("per-candidate", runner, index, items, args.group)
            batched, together = measure("batched", BatchingJudge(runner), index, items, args.group)
        same = sum(a.evidence() == b.evidence() for a, b in zip(expected, together))
        offsets = sum(a.evidence() != b.evidence() and _no_offsets(a.evidence()) == _no_offsets(b.evidence())
                      for a, b in zip(expected, together))
        load = os.getloadavg()
        print(f"dataset {ds.name} ({args.tree} tree): {len(items)} candidates (stand-ins for timing: ground-truth bodies, every "
              f"{args.placeholder_every}th the placeholder), group {args.group}; warm baseline build "
              f"{baseline:.1f} s; load {load[0]:.1f}/{load[1]:.1f}; CPU by {alone['how']}")
        statuses = {}
        for r in expected:
            statuses[r.status] = statuses.get(r.status, 0) + 1
        print("verdicts (per-candidate): " + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())))
        print(f"{'path':<15}{'s/candidate wall':>18}{'s/candidate CPU':>17}{'compiles/candidate':>20}"
              f"{'judged batched':>16}")
        for row in (alone, batched):
            print(f"{row['path']:<15}{row['wall'] / row['n']:>18.2f}{row['cpu'] / row['n']:>17.2f}"
                  f"{row['compiles'] / row['n']:>20.2f}{row['batched']:>12}/{row['n']}")
        print(f"speed-up (wall) {alone['wall'] / batched['wall']:.2f}x, (CPU) {alone['cpu'] / batched['cpu']:.2f}x; "
              f"identical verdicts {same}/{len(items)}"
              + (f" ({offsets} more differ only in the IL offsets NUnit quotes in a failure message: the "
                 f"candidate's code sits after the current body in the shared method)" if offsets else ""))
        for a, b, (m, _, _, _) in zip(expected, together, items):
            if a.evidence() != b.evidence():
                print(f"  DIFFERS {m.id}: per-candidate {a.status} ({a.reason}) / batched {b.status} ({b.reason})"
                      f" [{b.judge}]")
        reasons: dict[str, int] = {}
        for r in together:
            if r.judge.startswith("alone"):
                reasons[r.judge] = reasons.get(r.judge, 0) + 1
        for why, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"  {n} {why}")
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
