"""Sandboxes: run one command with a time limit and a memory limit, and report what happened.

Both sandboxes run commands under an unprivileged uid with no network, no host files beyond the
scratch workspace (read-only except the folders a step names as `writable`), a scrubbed environment,
and limits on the memory and the processes of the whole run; nothing a command starts outlives it.
Build steps (mcs: it never runs the candidate) run as BUILD_UID and may write their output folders;
test steps run as TEST_UID and may write nothing but a private /tmp.

A sandbox never raises for what the command did (non-zero exit, timeout, out of memory):
those come back in a RunOutcome. A run whose processes and threads reach PIDS_LIMIT is killed as soon as
the pids controller refuses a fork (a thread bomb fails fast instead of running to the time limit). It raises ConfigError only when it cannot run at all.
Which sandbox runs a command is chosen in sandboxes.choice (make_sandbox, resolve_sandbox).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, Sequence

from repotrans.errors import ConfigError


OUTPUT_LIMIT = 2_000_000      # characters of output kept (head and tail halves)
REPORT_LIMIT = 64 * 1024 * 1024   # bytes of stdout kept, the channel a test runner reports on: a big suite's
                                  # whole report (NPOI: ~2 MB), never cut by the log's limit
BUILD_UID = 10001             # mcs / dotnet build: writes its output folders
TEST_UID = 10002              # the candidate's tests: writes nothing in the workspace
PIDS_LIMIT = 256              # processes (threads count) of one run, all together
PIDS_REASON = f"process limit reached ({PIDS_LIMIT} processes and threads): killed when a fork was refused"
STOP_GRACE = 1.5              # seconds a command may take to exit after printing its `until` marker
# a run limited on CPU time is also stopped at this multiple of its limit in wall seconds (plus
# BACKSTOP_SLACK): a hang uses no CPU, and a heavy run on a loaded machine gets a slice of a core
BACKSTOP_FACTOR = 4.0
BACKSTOP_SLACK = 30.0
SANDBOXES = ("auto", "docker", "local")


@dataclass
class RunOutcome:
    argv: list[str]
    exit_code: int | None      # None when killed on timeout
    output: str                # stdout and stderr, interleaved
    seconds: float
    timed_out: bool = False
    oom_killed: bool = False   # killed by the memory limit (cgroup OOM), not a managed OutOfMemoryException
    stdout: str = ""           # stdout alone (the channel a test runner reports on)
    stdout_cut: int = 0        # bytes of stdout past REPORT_LIMIT, cut from its middle
    stopped: bool = False      # killed by the sandbox after printing `until` (finished, did not exit)
    pids_limited: bool = False  # a fork or thread creation was refused at PIDS_LIMIT: killed then and there
    cpu_seconds: float | None = None   # CPU time of all its processes, when the sandbox counts it
    cpu_limited: bool = False  # killed at its CPU-time limit (timed_out too): the same on any load
    backstopped: bool = False  # a run limited on CPU time stopped at its wall-clock backstop (timed_out too)
    peak_mb: float | None = None   # the run's peak memory (all its processes), when the sandbox measures it


def backstop(timeout: float) -> float:
    """The wall-clock limit of a run whose `timeout` counts CPU seconds."""
    return BACKSTOP_FACTOR * timeout + BACKSTOP_SLACK


def pids_events(text: str) -> int:
    """How many forks the pids controller refused, from a pids.events file ("max N")."""
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "max" and value.strip().isdigit():
            return int(value)
    return 0


class Sandbox(Protocol):
    name: str

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            env: dict[str, str] | None = None, writable: Sequence[Path] = (), stdin: bytes | None = None,
            until: bytes | None = None, scratch: Sequence[Path] = (), cpu: bool = False,
            processes: bool = True) -> RunOutcome:
        """Run argv in cwd (inside the workspace); kill everything it started after `timeout` s, or
        STOP_GRACE s after `until` appears on its stdout. `writable`: folders it may write (a build,
        as BUILD_UID); `scratch`: folders a test command (no `writable`) may write, handed to its uid.
        `cpu`: `timeout` counts the CPU seconds of all its processes, with a wall-clock backstop
        (backstop()), where the sandbox can count them (counts_cpu(); else wall seconds).
        `processes=False`: the command may start threads but no other process (local: seccomp)."""
        ...

    def counts_cpu(self) -> bool:
        """Whether run(cpu=True) limits CPU time here (a limit the machine's load does not move)."""
        ...

    def close(self) -> None:
        """Release what the sandbox holds (containers); it may be used again afterwards."""
        ...

    def fresh(self) -> "Sandbox":
        """A sandbox like this one that no earlier command ran in (a baseline is built only in one);
        the caller closes it when it is not this one."""
        ...


def scrubbed_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The whole environment a sandboxed command gets: nothing inherited but PATH and locale."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp",
           "MONO_DISABLE_SHARED_AREA": "1"}
    env.update(extra or {})
    return env


class Capture:
    """Head and tail of a stream, bounded however much the command prints."""

    def __init__(self, limit: int = 2 * 1024 * 1024):
        self.head = bytearray()
        self.tail = bytearray()
        self.limit = limit
        self.cut = 0

    def add(self, data: bytes) -> None:
        room = self.limit // 2 - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        self.tail += data
        if len(self.tail) > self.limit:
            drop = len(self.tail) - self.limit // 2
            self.cut += drop
            del self.tail[:drop]

    def text(self) -> str:
        middle = f"\n... [{self.cut} bytes cut] ...\n".encode() if self.cut else b""
        return (bytes(self.head) + middle + bytes(self.tail)).decode("utf-8", "replace")


def clip(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """Keep the head and the tail of a very long output."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + f"\n... [{len(text) - limit} characters cut] ...\n" + text[-half:]


def limit_prefix(memory_mb: int, timeout: float | None = None, cpu: float | None = None) -> list[str]:
    """prlimit (and timeout) wrapper: the address-space limit makes mono throw OutOfMemoryException
    (it reserves little virtual memory up front, so 512 MB is enough to run the NUnit runner). The
    limit is per process; the sandboxes also bound the whole run (cgroup). `cpu`: CPU seconds each
    process may use (RLIMIT_CPU, soft = hard: the kernel kills it with SIGKILL there)."""
    prefix: list[str] = []
    if timeout is not None:
        prefix += ["timeout", "--signal=KILL", f"{timeout:.1f}"]
    return prefix + ["prlimit", f"--as={memory_mb * 1024 * 1024}", "--core=0", f"--fsize={512 * 1024 * 1024}",
                     *([f"--cpu={math.ceil(cpu)}"] if cpu is not None else []), "--"]


def own_for_build(paths: Sequence[Path], uid: int = BUILD_UID, keep_shared: bool = False) -> None:
    """Hand the folders a step writes to its uid (BUILD_UID for a build; when we are root and can).
    `keep_shared`: a file with other hard links (a test area's link to the sealed baseline) keeps its
    owner, so the step can replace it in its folder but not change it."""
    for path in paths:
        Path(path).mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return
    for path in paths:
        for dirpath, dirnames, filenames in os.walk(path):
            os.chown(dirpath, uid, uid)
            for name in filenames:
                file = os.path.join(dirpath, name)
                if keep_shared and os.lstat(file).st_nlink > 1:
                    continue
                os.lchown(file, uid, uid)


def check_scratch(writable: Sequence[Path], scratch: Sequence[Path], sandbox: str) -> None:
    """Scratch folders belong to a test command, which has no build output to write."""
    if writable and scratch:
        raise ConfigError(f"{sandbox} sandbox: a command writes build folders or test scratch folders, not both")
