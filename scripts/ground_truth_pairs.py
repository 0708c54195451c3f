"""The Java/C# pairs whose ground truths the policy benchmarks check (validated datasets, or untouched
ports with every mapped member), the checker job of each ground truth, and the checker run over them
(shared by bench_policy_false_rejections.py and bench_il_checkers.py)."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.sandboxes.local import LocalSandbox
from repotrans.execution.toolchains.api import MonoToolchain, CHECKER_EXE, rel
from repotrans.execution.workspace.scratch import Workspace, prepare_workspace
from repotrans.datasets.dataset import DatasetTask, load_dataset
from repotrans.datasets.masking import candidate_tasks
from repotrans.datasets.truth_jobs import TruthJob, truth_jobs
from repotrans.index.store import Index

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 200                         # jobs per checker process (its answers must fit the pipe's buffer)
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


@dataclass
class OpenPair:
    """A pair indexed, with its mono workspace and a local sandbox (the caller builds the baseline)."""
    index: Index
    tasks: list[DatasetTask]
    toolchain: MonoToolchain
    ws: Workspace
    box: LocalSandbox


def open_pair(source: Path, target: Path, tasks: list[DatasetTask] | None, tmp: Path) -> OpenPair:
    index = Index.open(tmp / "index")
    index.build(source, target, progress=False)
    toolchain = MonoToolchain()
    ws = prepare_workspace(target, tmp / "wd", toolchain.name)
    return OpenPair(index, tasks if tasks is not None else candidate_tasks(index), toolchain, ws,
                    LocalSandbox(ws.root.parent))


def ground_truth_jobs(pair: OpenPair) -> tuple[list[TruthJob], int]:
    """The job of each ground truth in the first project the baseline built with it (the validation
    checks it in each), and how many are in none."""
    projects = pair.toolchain.plan(pair.ws).chosen
    jobs, unbuilt = [], 0
    for task in pair.tasks:
        m, java = pair.index.method(task.target_method_id), pair.index.method(task.source_method_id)
        found = truth_jobs(pair.index, pair.ws, projects, task.id, m, java) if m is not None else []
        jobs += found[:1]
        unbuilt += not found
    return jobs, unbuilt


def checker_exe(ws: Workspace) -> str:
    return rel(ws.base / CHECKER_EXE, ws)


def check_all(pair: OpenPair, lines: list[str]) -> list[checks.PolicyVerdict]:
    """The Cecil checker over every job, in chunks (the sandbox writes all of stdin before it reads stdout)."""
    def run(argv: list[str], stdin: bytes):
        outcome = pair.box.run(argv, cwd=pair.ws.root, timeout=600.0, memory_mb=2048, stdin=stdin)
        return outcome.exit_code, outcome.stdout, outcome.timed_out

    exe, verdicts = checker_exe(pair.ws), []
    for at in range(0, len(lines), CHUNK):
        verdicts += checks.run_checker(run, exe, lines[at:at + CHUNK])
    return verdicts
