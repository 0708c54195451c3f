"""The Python IL checker run out of the repotrans process: the candidate's assembly is hostile input,
so il_check_main reads it in a process of its own, in the local sandbox (bwrap: no network, the
workspace read-only, seccomp, a pid namespace that dies with it) with Python and the checker's
packages bound read-only, under a memory and a time limit. Where bwrap cannot run, it is a plain
child process under the same limits (prlimit, timeout). A checker that crashes, hangs or runs out of
memory leaves its jobs without an answer: each is an error verdict, so the candidate is rejected,
never passed unchecked. The baseline build's keys are saved once per build by the same process
(il_baseline.keys_file), so a candidate's check need not read the baseline assembly again."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.capability import checks
from repotrans.execution.capability.il_baseline import keys_file
from repotrans.execution.sandboxes import RunOutcome, limit_prefix, scrubbed_env
from repotrans.execution.sandboxes.local import LocalSandbox

CHECK_TIMEOUT = 60.0          # seconds per checker process (Lucene.Net: 0.3 s median per candidate, 2.8 s at most)
CHECK_MEMORY_MB = 1024        # its address space
PACKAGES = ("repotrans", "dnfile", "pefile", "ordlookup")      # what il_check_main imports


def _package_paths() -> list[Path]:
    """Each package the checker imports: its folder (or module file)."""
    out = []
    for name in PACKAGES:
        spec = find_spec(name)
        if spec is None or spec.origin is None:
            raise ConfigError(f"the Python IL checker needs {name} (pip install {name})")
        origin = Path(spec.origin).resolve()
        out.append(origin.parent if origin.name == "__init__.py" else origin)
    return out


def checker_argv(*args: str) -> list[str]:
    """The interpreter, without site (no .pth file runs), on il_check_main."""
    return [str(Path(sys.executable).resolve()), "-S", "-B", "-m", "repotrans.execution.capability.il_check_main", *args]


def checker_env() -> dict[str, str]:
    """PYTHONPATH: the folders holding the checker's packages (the repotrans package alone is bound)."""
    roots = dict.fromkeys(str(p.parent) for p in _package_paths())
    return {"PYTHONPATH": os.pathsep.join(roots), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1"}


def readable_paths() -> list[Path]:
    """What the sandboxed checker must read beyond /usr: the interpreter's prefix and the packages."""
    paths = [Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), Path(sys.executable).resolve().parent,
             *_package_paths()]
    kept: list[Path] = []
    for p in sorted(dict.fromkeys(paths), key=lambda p: len(p.parts)):
        if not p.is_relative_to("/usr") and not any(p.is_relative_to(k) for k in kept):
            kept.append(p)
    return kept


class IlCheckProcess:
    """Runs il_check_main for the jobs of one workspace (`root`), in bwrap when it can run here."""

    def __init__(self, root: Path, keys: Path, timeout: float = CHECK_TIMEOUT, memory_mb: int = CHECK_MEMORY_MB):
        self.root, self.keys, self.timeout, self.memory_mb = Path(root), Path(keys), timeout, memory_mb
        try:
            self.box: LocalSandbox | None = LocalSandbox(self.root, readable_paths())   # probes bwrap once
        except ConfigError:
            self.box = None

    @property
    def where(self) -> str:
        return "in the local sandbox (bwrap)" if self.box is not None else "as a child process under prlimit"

    def check(self, jobs: list[str]) -> list[checks.PolicyVerdict]:
        """One verdict per checks.job_line; a job the process left unanswered is an error verdict."""
        started = time.monotonic()
        out = self._run(checker_argv("--keys", str(self.keys)), checks.stdin_of(jobs))
        why = (f"timed out after {self.timeout:g} s" if out.timed_out else
               "out of memory" if out.oom_killed else f"exit {out.exit_code}: {out.output.strip()[-300:]}")
        verdicts = checks.answers(out.stdout, len(jobs), why)
        if len(jobs) == 1:
            verdicts[0].seconds = time.monotonic() - started
        return verdicts

    def save_keys(self, baseline_dll: Path) -> None:
        """The baseline build's keys saved to `keys` (trusted input: the untouched target), once per
        build; when this fails the candidate's check reads the baseline assembly itself (slower)."""
        self.keys.mkdir(parents=True, exist_ok=True)
        target = keys_file(self.keys, baseline_dll)
        if not target.is_file():
            self._run(checker_argv("--save-keys", str(baseline_dll), str(target)), None, writable=[self.keys])
            if os.geteuid() == 0:           # handed back: no later build uid's command may rewrite them
                for path in [self.keys, *self.keys.iterdir()]:
                    os.chown(path, 0, 0)

    def _run(self, argv: list[str], stdin: bytes | None, writable: list[Path] | None = None) -> RunOutcome:
        if self.box is not None:
            return self.box.run(argv, cwd=self.root, timeout=self.timeout, memory_mb=self.memory_mb,
                                env=checker_env(), stdin=stdin, writable=writable or ())
        started = time.monotonic()
        try:
            done = subprocess.run(limit_prefix(self.memory_mb, self.timeout) + argv, cwd=self.root, input=stdin,
                                  capture_output=True, env=scrubbed_env(checker_env()), start_new_session=True,
                                  timeout=self.timeout + 5)
        except subprocess.TimeoutExpired as exc:
            return RunOutcome(argv, None, "", time.monotonic() - started, timed_out=True,
                              stdout=(exc.stdout or b"").decode("utf-8", "replace"))
        text = done.stdout.decode("utf-8", "replace")
        return RunOutcome(argv, done.returncode, text + done.stderr.decode("utf-8", "replace"),
                          time.monotonic() - started, timed_out=done.returncode in (-9, 137), stdout=text)
