"""The Python IL checker as a process of its own, started by il_check_process inside the sandbox:
`python -m repotrans.execution.capability.il_check_main [--keys DIR]` answers jobs as cecil_checker.cs does (one
policy.job_line per job on stdin, then END; per job `DENY <capability>\t<api>\t<method>` lines and
`DONE <methods> <ms> <cpu ms>`, `ERROR <text>` first for an assembly it cannot read), reading a
baseline's keys from DIR when saved there (il_baseline.keys_file). `--save-keys DLL FILE` saves a
baseline build's keys and exits. The candidate's assembly is hostile input: whatever it makes this
process do (crash, loop, exhaust memory) ends here, and the caller judges a missing answer a rejection.
"""
from __future__ import annotations

import resource
import sys
import time
from pathlib import Path
from typing import TextIO

from repotrans.execution.capability.il_baseline import Baseline, baseline_of, keys_file
from repotrans.execution.capability.il_check import Checker
from repotrans.execution.capability.il_job import AssemblyReads, check_assembly
from repotrans.execution.capability.checks import MemberRef, PolicyVerdict


def parse_job(line: str) -> tuple[Path, Path | None, MemberRef | None, frozenset[str], Path | None]:
    """(candidate, baseline or None, member or None, allowed, refs or None) from one policy.job_line."""
    f = line.rstrip("\n").split("\t")
    if len(f) < 6:
        raise ValueError(f"a job has {len(f)} fields, expected 7")
    member = None if f[2] == "-" else MemberRef(
        f[2], tuple(f[3].split(",")), int(f[4]), tuple(f[6].split(",")) if len(f) > 6 and f[6] != "-" else ())
    allowed = frozenset() if f[5] == "-" else frozenset(f[5].split(","))
    refs = f[7] if len(f) > 7 and f[7] != "-" else f[1]
    return Path(f[0]), None if f[1] == "-" else Path(f[1]), member, allowed, None if refs == "-" else Path(refs)


def answer(verdict: PolicyVerdict) -> str:
    """One job's answer in cecil_checker.cs's words (policy.parse_output reads it)."""
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    lines = [f"DENY {d.capability}\t{d.api}\t{d.where}" for d in verdict.denials]
    if verdict.error:
        lines.append("ERROR " + verdict.error.replace("\n", " "))
    lines.append(f"DONE {verdict.inspected} {round(verdict.seconds * 1000)} {round((cpu.ru_utime + cpu.ru_stime) * 1000)}")
    return "\n".join(lines) + "\n"


def serve(stdin: TextIO, stdout: TextIO, keys: Path | None) -> None:
    """Answer each job line until END; a baseline's saved keys are read once per process, not per job."""
    loaded: dict[Path, Baseline] = {}
    reads = AssemblyReads()             # this process's: each assembly read once per file state
    for line in stdin:
        if line.strip() == "END":
            break
        if not line.strip():
            continue
        started = time.perf_counter()
        try:
            candidate, baseline, member, allowed, refs = parse_job(line)
            saved = keys_file(keys, baseline) if keys is not None and baseline is not None else None
            if saved is not None and saved not in loaded and saved.exists():
                loaded[saved] = Baseline.load(saved)
            base = loaded.get(saved, baseline) if saved is not None else baseline
            verdict = check_assembly(candidate, base, member, allowed,
                                     None if refs == baseline and isinstance(base, Baseline) else refs, reads)
        except Exception as exc:  # a job it cannot even start: rejected, with the reason
            verdict = PolicyVerdict(error=f"{type(exc).__name__}: {exc}", seconds=time.perf_counter() - started)
        stdout.write(answer(verdict))
        stdout.flush()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--save-keys"] and len(argv) == 3:
        baseline_of(Checker(Path(argv[1]))).save(Path(argv[2]))
        return 0
    if argv and (argv[0] != "--keys" or len(argv) != 2):
        print("usage: il_check_main [--keys DIR] < jobs | il_check_main --save-keys DLL FILE", file=sys.stderr)
        return 2
    serve(sys.stdin, sys.stdout, Path(argv[1]) if argv else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
