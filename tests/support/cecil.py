"""The Cecil checker (execution/capability/cecil_checker.cs) built with the real mcs, and job lines run
through it, for the capability tests that compare it with the Python checker or read its verdicts."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from repotrans.execution.capability import checks


def build_checker(folder: Path, name: str = "cecil_checker.exe") -> Path:
    """The checker compiled into `folder`, its rules beside it (it reads them there)."""
    exe = Path(folder) / name
    shutil.copyfile(checks.RULES, Path(folder) / checks.RULES.name)
    done = subprocess.run(checks.build_argv(str(exe), str(checks.SOURCE)), capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return exe


def cecil_verdicts(exe: Path, lines: list[str], timeout: float = 300) -> list[checks.PolicyVerdict]:
    """One verdict per checks.job_line, from one run of the checker."""
    def run(argv, stdin):
        done = subprocess.run(argv, input=stdin, capture_output=True, timeout=timeout)
        return done.returncode, done.stdout.decode(), False

    return checks.run_checker(run, str(exe), lines)
