"""Sandboxes: run one command with a time limit and a memory limit, and report what happened.

A sandbox never raises for what the command did (non-zero exit, timeout, out of memory):
those come back in a RunOutcome. It raises ConfigError only when it cannot run at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from repotrans.errors import ConfigError

OUTPUT_LIMIT = 2_000_000      # characters of output kept (head and tail halves)


@dataclass
class RunOutcome:
    argv: list[str]
    exit_code: int | None      # None when killed on timeout
    output: str                # stdout and stderr, interleaved
    seconds: float
    timed_out: bool = False
    oom_killed: bool = False   # killed by the memory limit (cgroup OOM), not a managed OutOfMemoryException


class Sandbox(Protocol):
    name: str

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            env: dict[str, str] | None = None) -> RunOutcome:
        """Run argv in cwd (inside the workspace); kill everything it started after `timeout` s."""
        ...

    def close(self) -> None:
        """Release what the sandbox holds (containers); it may be used again afterwards."""
        ...


def make_sandbox(name: str, workspace: Path, image: str) -> Sandbox:
    """`local` or `docker`; `workspace` is the only folder a docker sandbox mounts."""
    if name == "local":
        from repotrans.execution.sandboxes.local import LocalSandbox
        return LocalSandbox()
    if name == "docker":
        from repotrans.execution.sandboxes.docker import DockerSandbox
        return DockerSandbox(workspace, image)
    raise ConfigError(f"unknown sandbox {name!r}; expected local or docker")


def clip(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """Keep the head and the tail of a very long output."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + f"\n... [{len(text) - limit} characters cut] ...\n" + text[-half:]


def limit_prefix(memory_mb: int, timeout: float | None = None) -> list[str]:
    """prlimit (and timeout) wrapper: the address-space limit makes mono throw OutOfMemoryException
    (it reserves little virtual memory up front, so 512 MB is enough to run nunit-console)."""
    prefix: list[str] = []
    if timeout is not None:
        prefix += ["timeout", "--signal=KILL", f"{timeout:.1f}"]
    return prefix + ["prlimit", f"--as={memory_mb * 1024 * 1024}", "--core=0",
                     f"--fsize={512 * 1024 * 1024}", "--"]
