#!/usr/bin/env python
"""False rejections of the IL capability policy: every ground truth of each dataset, checked as a
candidate would be (its member and the compiler-generated code it reaches, allowances from its Java
original by policy_allow.allowances, the function every judging path uses), with the checker's cost
per candidate. Goal: 0 rejections, <= 0.2 s per candidate.

Usage:
  python scripts/bench_policy_false_rejections.py [--dataset DIR ...] [--port JAVA CSHARP ...] [--spawn 10]
                                                  [--sandbox local|docker]

Datasets default to datasets/sample and datasets/ledger. `--port` takes an untouched Java/C# pair and
checks every mapped member (an unvalidated task list, labelled so). Per dataset it prints: checked,
rejected (each named with the API that triggered it), allowed with reduced trust; the checker's own
time per candidate (median, p90) from one process over all tasks; and, for `--spawn N` tasks, the cost
a candidate run pays, wall and CPU (median, p90), side by side: the checker as its own sandboxed
process (the old way) against the checker chained into the build's command (checks.chained_argv,
with a no-op compile, minus that no-op command's own round trip).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.capability.il_check import Checker
from repotrans.execution.capability.il_refs import port_refs
from repotrans.execution.capability.il_rules import load_rules
from repotrans.execution.sandboxes.choice import make_sandbox
from repotrans.execution.toolchains import Limits, TargetBuildError
from repotrans.datasets.dataset import DatasetTask

from ground_truth_pairs import CHUNK, add_pair_arguments, check_all, checker_exe, ground_truth_jobs, open_pair, pairs_of


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_pair_arguments(ap)
    ap.add_argument("--spawn", type=int, default=10, help="tasks checked one process each (default 10)")
    ap.add_argument("--sandbox", choices=["local", "docker"], default="local",
                    help="the sandbox of the per-candidate runs (the baseline is built locally)")
    args = ap.parse_args()
    pairs = pairs_of(args)
    print(allowlist_size())
    total_rejected, unchecked = 0, []
    with tempfile.TemporaryDirectory(prefix="bench-policy-") as tmp:
        for n, (label, source, target, tasks) in enumerate(pairs):
            rejected = _bench(label, source, target, tasks, Path(tmp) / str(n), args.spawn, args.sandbox)
            if rejected < 0:
                unchecked.append(label.split(" ", 1)[0])
            total_rejected += max(rejected, 0)
    print(f"total ground truths rejected: {total_rejected} (goal 0)"
          + (f"; NOT CHECKED (does not build here): {', '.join(unchecked)}" if unchecked else ""))
    return 0 if total_rejected == 0 and not unchecked else 1


def _bench(label: str, source: Path, target: Path, tasks: list[DatasetTask] | None, tmp: Path, spawn: int,
           sandbox: str) -> int:
    """Print one dataset's figures; its rejected ground truths, or -1 when its target does not build here."""
    pair = open_pair(source, target, tasks, tmp)
    started = time.perf_counter()
    try:
        pair.toolchain.baseline(pair.ws, pair.box, Limits(timeout=60.0, memory_mb=2048))
    except TargetBuildError as exc:         # nothing to check: say so and go on with the next dataset
        pair.box.close()
        granted = sum(bool(allowances(pair.index, pair.index.method(t.source_method_id)) & frozenset(checks.GRANTS))
                      for t in pair.tasks)
        print(f"{label}: NOT CHECKED, {len(pair.tasks)} ground truths: {str(exc).splitlines()[0]}")
        print(f"  (allowances computed from the Java originals: {granted} of them would run with reduced trust)")
        sys.stdout.flush()
        return -1
    built = time.perf_counter() - started
    jobs, unbuilt = ground_truth_jobs(pair)
    allowed_count = sum(bool(job.allowed & frozenset(checks.GRANTS)) for job in jobs)     # the overrides cost no trust
    lines = [job.line(pair.ws) for job in jobs]
    started = time.perf_counter()
    verdicts = check_all(pair, lines)
    batch = time.perf_counter() - started
    spawn_box = make_sandbox(sandbox, pair.ws.root.parent, pair.toolchain.image) if sandbox != "local" else pair.box
    costs = _spawned(spawn_box, pair.ws, checker_exe(pair.ws), lines[:spawn], tmp / "scratch")
    pair.box.close()
    for dll in sorted({job.dll for job in jobs}):
        print(f"  {coverage(dll)}")
    rejected = [(job.task_id, v) for job, v in zip(jobs, verdicts) if not v.ok]
    per_job = [v.seconds for v in verdicts] or [0.0]
    print(f"{label}: {len(jobs)} ground truths checked ({unbuilt} not in a built project), baseline build {built:.1f} s")
    print(f"  rejected: {len(rejected)} (goal 0); allowed with reduced trust (the Java original reaches the "
          f"capability): {allowed_count}")
    for name, v in rejected:
        print(f"  - {name}: {v.reason()}" + (f" [in {v.denials[0].where}]" if v.denials else ""))
    print(f"  checker, one process per {CHUNK} candidates: {batch:.2f} s in all; its own time per candidate median "
          f"{_ms(statistics.median(per_job))}, p90 {_ms(_p90(per_job))}, max {_ms(max(per_job))}; "
          f"methods inspected per candidate median {statistics.median([v.inspected for v in verdicts] or [0]):.0f}")
    if costs:
        print(f"  per candidate run ({len(costs['separate wall'])} runs, {sandbox} sandbox, load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores), goal <= 0.2 s:")
        for way in ("separate", "chained"):
            print(f"    checker {'as its own process (before)' if way == 'separate' else 'in the build command (now)'}"
                  f": wall median {_ms(statistics.median(costs[way + ' wall']))}, p90 {_ms(_p90(costs[way + ' wall']))}"
                  f"; CPU median {_ms(statistics.median(costs[way + ' cpu']))}, p90 {_ms(_p90(costs[way + ' cpu']))}")
    sys.stdout.flush()
    return len(rejected)


def allowlist_size() -> str:
    """The allowlist's entries by kind (rules.tsv)."""
    r = load_rules()
    return (f"allowlist: {len(r.core_namespaces) + len(r.core_types) + len(r.core_members) + len(r.core_typerefs)} "
            f"core entries ({len(r.core_namespaces)} namespaces, {len(r.core_types)} types, {len(r.core_members)} members, "
            f"{len(r.core_typerefs)} signature-only types), {len(r.hard) + len(r.hard_members)} hard-deny, "
            f"{len(r.grants)} grants")


def coverage(dll: Path) -> str:
    """The share of a port build's framework references the core allowlist covers (the rest the port's own
    use allows, or, for a category, only the Java original)."""
    r, refs = load_rules(), port_refs(Checker(dll))

    def core(type_name: str, member: str | None) -> bool:
        ns = type_name.rsplit(".", 1)[0] if "." in type_name else ""
        outer_ok = type_name in r.core_types or ns in r.core_namespaces or any(
            type_name.startswith(t + ".") for t in r.core_types)
        if member is None:
            return outer_ok or type_name in r.core_typerefs
        return outer_ok or f"{type_name}::{member}" in r.core_members or f"{type_name}::{member}" in r.allowed

    members = [k.split("::", 1) for k in refs.members]
    m_core = sum(core(t, m) for t, m in members)
    t_core = sum(core(t, None) for t in refs.types)
    return (f"{dll.name}: framework references {len(members)} members, {len(refs.types)} types; the core allowlist "
            f"covers {m_core / max(1, len(members)):.0%} of the members, {t_core / max(1, len(refs.types)):.0%} of the types")


def _spawned(box, ws, exe: str, jobs: list[str], scratch: Path) -> dict[str, list[float]]:
    """Per job, interleaved so load hits both alike: the checker as its own sandboxed command, and the
    added wall time of chaining it into a (no-op) build command: that command minus the no-op alone.
    CPU is the checker process's own, as it reports it (start-up and JIT included)."""
    costs: dict[str, list[float]] = {k: [] for k in ("separate wall", "separate cpu", "chained wall", "chained cpu")}
    scratch.mkdir(parents=True, exist_ok=True)

    def timed(argv: list[str], stdin: bytes | None, writable: list[Path]) -> tuple[float, float]:
        t = time.perf_counter()
        outcome = box.run(argv, cwd=ws.root, timeout=600.0, memory_mb=2048, stdin=stdin, writable=writable)
        wall = time.perf_counter() - t
        checker = checks.split_chained(outcome.stdout)[1] if argv[0] == "sh" else outcome.stdout
        answers = checks.parse_output(checker or "")
        return wall, answers[0].cpu if answers else float("nan")

    for job in jobs:
        wall, cpu = timed(checks.checker_argv(exe), checks.stdin_of([job]), [])
        costs["separate wall"].append(wall)
        costs["separate cpu"].append(cpu)
        noop_wall, _ = timed(["true"], None, [scratch])
        wall, cpu = timed(checks.chained_argv(exe, ["true"]), checks.stdin_of([job]), [scratch])
        costs["chained wall"].append(max(0.0, wall - noop_wall))
        costs["chained cpu"].append(cpu)
    if box.name != "local":
        box.close()
    return costs if jobs else {}


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
