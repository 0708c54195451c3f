"""How long the command line takes before it does anything: `repotrans --version`, `--help` and
`batch --help` beside the bare interpreter, side by side in one run. CPU seconds of each whole process
(user + system, from the children's rusage), so a loaded machine changes the figures less than it
changes wall time; the median of --runs each. The target (a command imports only its own rooms): the
command line's own cost (the figure minus the interpreter's) under 0.2 s.

    python3 scripts/bench_startup.py --runs 7 [--before DIR]    # DIR: another checkout (git worktree), side by side
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "repotrans --version": [sys.executable, "-m", "repotrans.cli", "--version"],
    "repotrans --help": [sys.executable, "-m", "repotrans.cli", "--help"],
    "repotrans batch --help": [sys.executable, "-m", "repotrans.cli", "batch", "--help"],
}


def measure(argv: list[str], checkout: str | None = None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of argv (repotrans imported from `checkout` when given)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if checkout:
        env["PYTHONPATH"] = checkout
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # `-m` puts the working folder first on sys.path: run in the checkout measured (this one: installed)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=checkout or tempfile.gettempdir())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", help="another checkout of repotrans, measured beside this one")
    args = parser.parse_args()
    sides = [("", None)] + ([(" (before)", args.before)] if args.before else [])
    for _, checkout in sides:
        for argv in COMMANDS.values():          # warm the file cache and the bytecode once
            measure(argv, checkout)
    rows = {}
    for _ in range(args.runs):                  # interleaved, so both sides see the same load
        for suffix, checkout in sides:
            for name, argv in COMMANDS.items():
                if suffix and name == "python -c pass":
                    continue
                rows.setdefault(name + suffix, []).append(measure(argv, checkout))
    rows = {name: (statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs))
            for name, runs in rows.items()}
    base_cpu, base_wall = rows["python -c pass"]
    print(f"{'command':<34}{'cpu s':>8}{'wall s':>9}{'cpu over python':>17}")
    for name, (cpu, wall) in rows.items():
        print(f"{name:<34}{cpu:>8.3f}{wall:>9.3f}{cpu - base_cpu:>17.3f}")
    print(f"(median of {args.runs} runs each; load average {os.getloadavg()[0]:.1f})")
    worst = max(cpu - base_cpu for name, (cpu, _) in rows.items() if name != "python -c pass" and "before" not in name)
    print(f"the command line's own cost, worst of the three: {worst:.3f} s CPU "
          f"({'under' if worst < 0.2 else 'over'} the 0.2 s target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
