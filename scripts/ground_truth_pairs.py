"""The Java/C# pairs whose ground truths the policy benchmarks check: validated datasets, or untouched
ports with every mapped member (shared by bench_policy_false_rejections.py and bench_il_checkers.py)."""
from __future__ import annotations

import argparse
from pathlib import Path

from repotrans.experiments.datasets import DatasetTask, load_dataset

ROOT = Path(__file__).resolve().parents[1]
Pair = tuple[str, Path, Path, list[DatasetTask] | None]      # label, Java, C#, tasks (None: all mapped)


def add_pair_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--dataset", type=Path, action="append", help="a dataset folder (dataset.json); repeatable")
    ap.add_argument("--port", nargs=2, type=Path, action="append", metavar=("JAVA", "CSHARP"),
                    help="an untouched Java/C# pair: every mapped member is checked; repeatable")


def pairs_of(args: argparse.Namespace) -> list[Pair]:
    """The datasets and ports named (the bundled sample and ledger when neither is)."""
    pairs: list[Pair] = []
    for folder in args.dataset or ([] if args.port else [ROOT / "datasets" / "sample", ROOT / "datasets" / "ledger"]):
        ds = load_dataset(folder)
        pairs.append((ds.label, ds.source_dir, ds.target_dir, ds.tasks))
    for java, csharp in args.port or []:
        pairs.append((f"{csharp.name} (all mapped members, unvalidated)", java.resolve(), csharp.resolve(), None))
    return pairs
