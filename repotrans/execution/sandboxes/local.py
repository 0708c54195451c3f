"""Local sandbox: a subprocess in its own process group, under prlimit; the group dies on timeout."""
from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import RunOutcome, clip, limit_prefix

KEEP_ENV = ("PATH", "LANG", "LC_ALL", "TZ", "MONO_PATH")


class LocalSandbox:
    name = "local"

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            env: dict[str, str] | None = None) -> RunOutcome:
        full_env = {k: v for k, v in os.environ.items() if k in KEEP_ENV}
        full_env.setdefault("LANG", "C.UTF-8")
        full_env.update(env or {})
        cmd = limit_prefix(memory_mb) + list(argv)
        started = time.monotonic()
        timed_out = False
        with tempfile.TemporaryFile() as out:
            try:
                proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=subprocess.STDOUT, env=full_env, start_new_session=True)
            except FileNotFoundError as exc:
                raise ConfigError(f"cannot run {cmd[0]!r}: {exc.strerror}") from exc
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                _kill_group(proc.pid)       # also reaps anything the command left behind
                proc.wait()
            seconds = time.monotonic() - started
            out.seek(0)
            output = out.read().decode("utf-8", "replace")
        return RunOutcome(argv=list(argv), exit_code=None if timed_out else proc.returncode,
                          output=clip(output), seconds=seconds, timed_out=timed_out)

    def close(self) -> None:
        return None


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
