"""Local sandbox: bubblewrap (bwrap) namespaces around every command.

The command sees a fresh root holding only the system folders (read-only: /usr and its links,
/etc/mono, /etc/alternatives), its own /proc (new pid namespace: no other process, no parent's
environ), a private /dev and /tmp, and the scratch workspace read-only except the folders it may
write. No network (its own empty network namespace), no capabilities, an unprivileged uid
(BUILD_UID / TEST_UID via setpriv when we are root; our own uid in a user namespace otherwise),
memory and processes bounded for the whole run by a cgroup, and the pid namespace dies with the
command or with us: nothing it starts survives the run. A seccomp filter (sandboxes.seccomp) denies
new namespaces, ptrace and process_vm_*, mount, bpf, keyctl and perf_event_open.
"""
from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Callable, Sequence

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import (BUILD_UID, PIDS_LIMIT, REPORT_LIMIT, STOP_GRACE, TEST_UID, Capture,
                                           RunOutcome, backstop,
                                           check_scratch, clip, limit_prefix, own_for_build, scrubbed_env)
from repotrans.execution.sandboxes import seccomp
from repotrans.execution.sandboxes import cgroups
from repotrans.execution.sandboxes.cgroups import RunCgroup, support

SYSTEM_DIRS = ("usr", "bin", "sbin", "lib", "lib32", "lib64")
SYSTEM_FILES = ("/etc/mono", "/etc/alternatives", "/etc/ld.so.cache", "/etc/localtime")
TMP_BYTES = 256 * 1024 * 1024
MEMORY_HEADROOM_MB = 256      # cgroup limit above the per-process address-space limit
PIDS_POLL = 0.25            # seconds between two reads of the run's pids.events
JOIN = 'for f in $RT_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; exec "$@"'


def bwrap_status() -> tuple[bool, str]:
    """(usable, why) for `repotrans doctor` and the auto choice."""
    path = shutil.which("bwrap")
    if path is None:
        return False, "bubblewrap is not installed (apt-get install bubblewrap)"
    probe = subprocess.run([path, *_namespaces(), "--ro-bind", "/usr", "/usr", *_system_links(), "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return False, f"bwrap cannot create namespaces here: {probe.stderr.strip()[:200]}"
    return True, "bwrap " + ("as root, commands setpriv'd to uids %d/%d" % (BUILD_UID, TEST_UID)
                             if os.geteuid() == 0 else "in a user namespace")


class LocalSandbox:
    name = "local"

    def __init__(self, workspace: Path, readonly: Sequence[Path] = ()):
        """`readonly`: host folders or files outside /usr its commands may read too (an interpreter)."""
        self.workspace = Path(workspace).resolve()
        self.readonly = tuple(Path(p).resolve() for p in readonly)
        ok, why = bwrap_status()
        if not ok:
            raise ConfigError(f"local sandbox: {why}")

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            env: dict[str, str] | None = None, writable: Sequence[Path] = (), stdin: bytes | None = None,
            until: bytes | None = None, scratch: Sequence[Path] = (), cpu: bool = False,
            processes: bool = True) -> RunOutcome:
        cwd = Path(cwd).resolve()
        if not cwd.is_relative_to(self.workspace):
            raise ConfigError(f"local sandbox: {cwd} is outside the workspace {self.workspace}")
        check_scratch(writable, scratch, self.name)
        own_for_build(writable)
        own_for_build(scratch, TEST_UID, keep_shared=True)
        cgroup = RunCgroup(memory_mb + MEMORY_HEADROOM_MB, PIDS_LIMIT) if support()[0] else None
        filter_fd = seccomp.program_fd(processes or bool(writable)) if seccomp.supported() else None
        if not processes and not writable:      # the runner installs it too, as under docker
            env = {**(env or {}), **seccomp.runner_env(False)}
        try:
            cmd = self._command(argv, cwd, env, writable, memory_mb, filter_fd, scratch)
            outer_env = {"PATH": "/usr/bin:/bin"}
            if cgroup is not None:
                cmd = ["/bin/sh", "-c", JOIN, "sh", *cmd]
                outer_env["RT_CGROUP_PROCS"] = " ".join(cgroup.procs_files())
            used = cgroup.cpu_seconds if cpu and cgroup is not None and cgroup.cpu_file is not None else None
            cpu_limit = timeout if used is not None else None
            outcome = _drive(cmd, cwd, outer_env, timeout if cpu_limit is None else backstop(timeout), stdin, until,
                             pass_fds=() if filter_fd is None else (filter_fd,),
                             limited=None if cgroup is None else cgroup.pids_limited, cpu_used=used,
                             cpu_limit=cpu_limit)
            outcome.argv = list(argv)
            outcome.backstopped = cpu_limit is not None and outcome.timed_out and not outcome.cpu_limited
            if cgroup is not None and outcome.exit_code != 0 and cgroup.oom_killed():
                outcome.oom_killed = True
            if cgroup is not None:
                outcome.peak_mb = cgroup.peak_mb()
            return outcome
        finally:
            if filter_fd is not None:
                os.close(filter_fd)
            if cgroup is not None:
                cgroup.close()

    def close(self) -> None:
        return None

    def counts_cpu(self) -> bool:
        return counts_cpu()

    def fresh(self) -> "LocalSandbox":
        return self                 # every command gets a new root, /tmp and /dev already

    def _command(self, argv: list[str], cwd: Path, env: dict[str, str] | None, writable: Sequence[Path],
                 memory_mb: int, filter_fd: int | None = None, scratch: Sequence[Path] = ()) -> list[str]:
        cmd = ["bwrap", *_namespaces(), "--die-with-parent", "--new-session", "--clearenv"]
        if filter_fd is not None:           # applied to the command, after bwrap set the sandbox up
            cmd += ["--seccomp", str(filter_fd)]
        root = os.geteuid() == 0
        if root:
            cmd += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        cmd += ["--ro-bind", "/usr", "/usr", *_system_links(), "--perms", "0755", "--dir", "/etc"]
        for path in SYSTEM_FILES:
            if os.path.exists(path):
                cmd += ["--ro-bind", path, path]
        cmd += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
        for path in self.readonly:          # after /tmp's tmpfs (which would hide one there), its parents
            # traversable whatever their mode on the host
            for parent in reversed(path.parents[:-1]):
                cmd += ["--perms", "0755", "--dir", str(parent)]
            cmd += ["--ro-bind", str(path), str(path)]
        for parent in reversed(self.workspace.parents[:-1]):
            cmd += ["--perms", "0755", "--dir", str(parent)]
        cmd += ["--ro-bind", str(self.workspace), str(self.workspace)]
        for path in [*writable, *scratch]:
            cmd += ["--bind", str(Path(path).resolve()), str(Path(path).resolve())]
        for key, value in scrubbed_env(env).items():
            cmd += ["--setenv", key, value]
        cmd += ["--chdir", str(cwd)]
        if root:
            uid = BUILD_UID if writable else TEST_UID
            cmd += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
                    "--bounding-set=-all", "--no-new-privs", "--"]
        return cmd + limit_prefix(memory_mb) + list(argv)


def counts_cpu() -> bool:
    """A local run's CPU time is its cgroup's (cgroup v2, or v1 with a cpuacct hierarchy)."""
    return cgroups.counts_cpu(support()[0])


def _namespaces() -> list[str]:
    spaces = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    return spaces if os.geteuid() == 0 else ["--unshare-user", *spaces]


def _system_links() -> list[str]:
    """/bin, /lib, ... as on the host: symlinks into /usr (merged /usr) or read-only binds."""
    out: list[str] = []
    for name in SYSTEM_DIRS[1:]:
        path = Path("/") / name
        if path.is_symlink():
            out += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            out += ["--ro-bind", str(path), str(path)]
    return out


def _drive(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float, stdin: bytes | None,
           until: bytes | None, pass_fds: tuple[int, ...] = (),
           limited: Callable[[], bool] | None = None, cpu_used: Callable[[], float | None] | None = None,
           cpu_limit: float | None = None) -> RunOutcome:
    """Run cmd with its own process group; read stdout and stderr until it ends, `timeout` passes,
    STOP_GRACE after `until` appeared on stdout, `limited()` says a fork was refused at the
    process limit, or `cpu_used()` reaches `cpu_limit` (both checked every PIDS_POLL s); then kill
    the group."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, cwd="/", env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                pass_fds=pass_fds)
    except FileNotFoundError as exc:
        raise ConfigError(f"cannot run {cmd[0]!r}: {exc.strerror}") from exc
    if stdin is not None:
        try:
            proc.stdin.write(stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
    both, out = Capture(), Capture(REPORT_LIMIT)
    seen_until = until is None
    window = b""
    deadline = started + timeout
    timed_out = stopped = pids_limited = cpu_limited = False
    next_poll = started + PIDS_POLL
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, "out")
    sel.register(proc.stderr, selectors.EVENT_READ, "err")
    open_streams = 2
    try:
        while open_streams:
            left = deadline - time.monotonic()
            if left <= 0:
                if until is not None and seen_until:
                    stopped = True
                else:
                    timed_out = True
                break
            if time.monotonic() >= next_poll:
                next_poll = time.monotonic() + PIDS_POLL
                if limited is not None and limited():
                    pids_limited = True
                    break
                if cpu_limit is not None and (cpu_used() or 0.0) >= cpu_limit:
                    stopped = until is not None and seen_until
                    timed_out = cpu_limited = not stopped
                    break
            for key, _ in sel.select(min(left, PIDS_POLL)):
                data = os.read(key.fileobj.fileno(), 65536)
                if not data:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                both.add(data)
                if key.data == "out":
                    out.add(data)
                    if not seen_until:
                        window = (window + data)[-(len(until) + 65536):]
                        if until in window:
                            seen_until = True
                            deadline = min(deadline, time.monotonic() + STOP_GRACE)
        if not timed_out and not stopped and not pids_limited:
            try:
                proc.wait(timeout=max(0.1, min(STOP_GRACE, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                stopped = until is not None and seen_until
                timed_out = not stopped
    finally:
        _kill_group(proc.pid)
        proc.wait()
        sel.close()
        proc.stdout.close()
        proc.stderr.close()
    seconds = time.monotonic() - started
    pids_limited = pids_limited or (limited is not None and limited())
    return RunOutcome(argv=cmd, exit_code=None if timed_out or stopped else proc.returncode,
                      output=clip(both.text()), seconds=seconds, timed_out=timed_out,
                      stdout=out.text(), stdout_cut=out.cut, stopped=stopped, pids_limited=pids_limited,
                      cpu_seconds=None if cpu_used is None else cpu_used(), cpu_limited=cpu_limited)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
