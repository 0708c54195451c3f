"""CPU seconds of this process and of everything it starts, sandboxed runs included, for the
benchmark scripts. The local sandbox moves each run into its own memory and pids cgroups and kills
its pid namespace at the end, so getrusage(RUSAGE_CHILDREN) misses most of a test run; a cgroup v1
cpuacct group joined by this process before any work is inherited by every descendant (the sandbox
does not touch that hierarchy) and counts them all. Without one (not root, cgroup v2), getrusage."""
from __future__ import annotations

import os
import resource
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class CpuMeter:
    """`seconds()` since creation; `close()` leaves and removes the group."""

    def __init__(self) -> None:
        self.group: Path | None = None
        if os.geteuid() == 0 and (CPUACCT / "cgroup.procs").is_file():
            try:
                group = CPUACCT / f"repotrans-bench-{os.getpid()}"
                group.mkdir(exist_ok=True)
                (group / "cgroup.procs").write_text(str(os.getpid()))
                self.group = group
            except OSError:
                self.group = None
        self.how = "cgroup cpuacct (this process and every run it starts)" if self.group else \
            "getrusage (sandboxed test runs only partly counted)"
        self.start = self._now()

    def _now(self) -> float:
        if self.group is not None:
            return int((self.group / "cpuacct.usage").read_text()) / 1e9
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def seconds(self) -> float:
        return self._now() - self.start

    def close(self) -> None:
        if self.group is None:
            return
        try:
            (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
            runs = self.group / "repotrans"          # the local sandbox's run groups nest under ours
            if runs.is_dir():
                runs.rmdir()
            self.group.rmdir()
        except OSError:
            pass
        self.group = None
