"""One cgroup per local run: a memory limit and a process limit for everything the run starts, an
OOM count, the CPU time of all its processes (cgroup v2's cpu.stat; v1's cpuacct hierarchy, the run's
group nested under our own so a benchmark's meter still counts it), and a kill of every member at
the end. cgroup v2 when its memory and pids controllers
are delegated to us, else v1's memory and pids hierarchies; unavailable (None) when neither is
writable (not root, read-only /sys/fs/cgroup)."""
from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

from repotrans.execution.sandboxes import pids_events

ROOT = Path("/sys/fs/cgroup")
GROUP = "repotrans"


def support() -> tuple[str | None, str]:
    """("v2" | "v1" | None, one line saying why)."""
    if os.geteuid() != 0:
        return None, "not root: no cgroup for the run (per-process limits only)"
    v2 = ROOT / "cgroup.controllers"
    if v2.is_file() and {"memory", "pids"} <= set(v2.read_text().split()):
        return "v2", "cgroup v2 (memory, pids)"
    if (ROOT / "memory" / "cgroup.procs").is_file() and (ROOT / "pids" / "cgroup.procs").is_file():
        return "v1", "cgroup v1 (memory, pids hierarchies)"
    return None, "no writable cgroup memory+pids controllers (per-process limits only)"


class RunCgroup:
    """Create with limits, `join_command()` to put a command in it, `close()` to kill and remove."""

    def __init__(self, memory_mb: int, pids: int):
        self.version, _ = support()
        name = f"run-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        _prune_orphans(self.version)
        self.dirs: list[Path] = []
        self.cpu_file: Path | None = None
        if self.version == "v2":
            parent = ROOT / GROUP
            parent.mkdir(exist_ok=True)
            (parent / "cgroup.subtree_control").write_text("+memory +pids")
            d = parent / name
            d.mkdir()
            (d / "memory.max").write_text(str(memory_mb * 1024 * 1024))
            if (d / "memory.swap.max").exists():
                (d / "memory.swap.max").write_text("0")
            (d / "pids.max").write_text(str(pids))
            self.dirs = [d]
            self.cpu_file = d / "cpu.stat"
        elif self.version == "v1":
            mem = ROOT / "memory" / GROUP / name
            pid = ROOT / "pids" / GROUP / name
            mem.mkdir(parents=True)
            pid.mkdir(parents=True)
            (mem / "memory.limit_in_bytes").write_text(str(memory_mb * 1024 * 1024))
            swap = mem / "memory.memsw.limit_in_bytes"
            if swap.exists():
                try:
                    swap.write_text(str(memory_mb * 1024 * 1024))
                except OSError:
                    pass
            (pid / "pids.max").write_text(str(pids))
            self.dirs = [mem, pid]
            acct = _cpuacct_parent()
            if acct is not None:
                (acct / name).mkdir(parents=True)
                self.dirs.append(acct / name)
                self.cpu_file = acct / name / "cpuacct.usage"

    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs]

    def oom_killed(self) -> bool:
        for d in self.dirs:
            for name in ("memory.events", "memory.oom_control"):
                f = d / name
                if f.is_file():
                    for line in f.read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill" and value.strip() not in ("", "0"):
                            return True
        return False

    def peak_mb(self) -> float | None:
        """The most memory the run's processes held at once, in MB (v2 memory.peak, v1
        memory.max_usage_in_bytes; None where neither is there)."""
        for d in self.dirs:
            for name in ("memory.peak", "memory.max_usage_in_bytes"):
                try:
                    return int((d / name).read_text().split()[0]) / (1024 * 1024)
                except (OSError, ValueError, IndexError):
                    continue
        return None

    def pids_limited(self) -> bool:
        """The pids controller refused a fork or a thread (pids.events counts them)."""
        for d in self.dirs:
            f = d / "pids.events"
            try:
                if f.is_file() and pids_events(f.read_text()):
                    return True
            except OSError:
                pass
        return False

    def cpu_seconds(self) -> float | None:
        """CPU seconds used so far by every process the run started (None: not counted here)."""
        try:
            if self.cpu_file is None:
                return None
            text = self.cpu_file.read_text()
        except OSError:
            return None
        if self.cpu_file.name == "cpuacct.usage":
            return int(text.strip() or 0) / 1e9
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
        return None

    def members(self) -> list[int]:
        pids: set[int] = set()
        for d in self.dirs:
            try:
                pids |= {int(p) for p in (d / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return sorted(pids)

    def close(self) -> None:
        """Kill every process still in the group, then remove it."""
        for _ in range(500):              # up to 1 s: a killed process leaves the group when reaped
            members = self.members()
            if not members:
                break
            for pid in members:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.002)
        for d in self.dirs:
            for _ in range(500):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.002)


def counts_cpu(version: str | None) -> bool:
    """Whether a run's group counts its CPU time: cgroup v2's cpu.stat, or v1 with a cpuacct group
    under ours (what RunCgroup reads)."""
    return version == "v2" or (version == "v1" and _cpuacct_parent() is not None)


def _cpuacct_parent() -> Path | None:
    """Where a v1 run's cpuacct group goes: GROUP under this process's own cpuacct group (its usage
    then still counts in ours), None without a cpuacct hierarchy."""
    if not (ROOT / "cpuacct" / "cgroup.procs").is_file():
        return None
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    own = next((line.split(":", 2)[2] for line in lines
                if line.count(":") >= 2 and "cpuacct" in line.split(":", 2)[1].split(",")), None)
    return None if own is None else ROOT / "cpuacct" / own.lstrip("/") / GROUP


def _prune_orphans(version: str | None) -> None:
    """Remove the empty groups of runs whose owner died (a SIGKILLed CLI cannot remove its own)."""
    parents = {"v2": [ROOT / GROUP], "v1": [ROOT / "memory" / GROUP, ROOT / "pids" / GROUP]}.get(version or "", [])
    acct = _cpuacct_parent() if version == "v1" else None
    parents += [acct] if acct is not None else []
    for parent in parents:
        for d in parent.glob("run-*-*") if parent.is_dir() else []:
            try:
                owner = int(d.name.split("-")[1])
                os.kill(owner, 0)
            except ProcessLookupError:
                try:
                    d.rmdir()            # fails while a process is still in it: left for later
                except OSError:
                    pass
            except (ValueError, PermissionError):
                pass
