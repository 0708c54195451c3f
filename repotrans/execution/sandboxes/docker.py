"""Docker sandbox: a warm, hardened container per (image, workspace).

The container has no network, no capabilities (--cap-drop ALL, no-new-privileges), a read-only
root filesystem with a bounded /tmp, memory and pids limits for all it runs (sized for the `commands` it
is told may run at once, each within its own memory_mb), and only the
workspace mounted (at the same path, so command lines are identical to the local ones; nothing in
it links to a host file). Commands run through `docker exec` as an unprivileged uid under
`timeout --signal=KILL` and prlimit: builds as BUILD_UID (owner of their output folders), tests as
a uid of their own (TEST_UID + slot) that owns nothing in the workspace; after each command every
process of that uid is killed and its /tmp files deleted, so nothing survives into the next
candidate. A test command is killed as soon as the container's pids controller refuses a fork (its
pids.events, read on the host when the engine runs here). The container's main process reads a
stdin we hold open: when this process dies, even by SIGKILL, the engine closes it and the container
stops and is removed.
"""
from __future__ import annotations

import atexit
import os
import selectors
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Sequence

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import (BUILD_UID, PIDS_LIMIT, REPORT_LIMIT, STOP_GRACE, TEST_UID, Capture,
                                           RunOutcome, backstop,
                                           check_scratch, clip, limit_prefix, own_for_build, pids_events,
                                           scrubbed_env)
from repotrans.execution.sandboxes import seccomp

LABEL = "repotrans.runner"
KILL_GRACE = 3.0             # seconds past the limit before the command's processes are killed
CPUS = 1.0
# cgroup v1 weighs the whole container like one task of the host's: on a busy machine the
# candidate's mcs and mono would get a small slice of a CPU (4x slower builds at load 12)
CPU_SHARES = 4096
MEMORY_HEADROOM_MB = 256     # cgroup limit above the per-process address-space limit
TMP_SIZE = "256m"
PIDS_POLL = 0.25             # seconds between two reads of the container's pids.events
SLOTS = 16                   # test commands in flight at once in one container, each its own uid
# every process of the uid killed; its files in /tmp and /dev/shm unlocked (chmod, a folder at a time
# before reading it) and deleted: only the uid itself can, the container has no capabilities
CLEANUP = ("kill -9 -1 2>/dev/null; for d in /tmp /dev/shm; do "
           "find $d -xdev -mindepth 1 -user $(id -u) -type d -exec chmod u+rwx {} \\; 2>/dev/null; "
           "find $d -xdev -mindepth 1 -user $(id -u) -delete 2>/dev/null; done; exit 0")
# a test command gets a private HOME and TMPDIR, and cleans up after itself in the same exec (one
# engine round trip less per run)
CLEANING = ('h=$(mktemp -d /tmp/run.XXXXXXXX) || exit 125; export HOME=$h TMPDIR=$h; "$@"; rc=$?; '
            + CLEANUP.replace("exit 0", "exit $rc"))
BUILD_HOME = "/nonexistent"  # builds read no ~/.mono/config a test command could have planted


def owner() -> str:
    """The label value naming this process as a container's owner."""
    return f"{os.uname().nodename}:{os.getpid()}"


def engine_status(image: str) -> tuple[bool, str]:
    """(usable, why): the engine answers and has `image`."""
    try:
        import docker
        client = docker.from_env(timeout=5)
    except Exception as exc:
        return False, f"no Docker engine answers ({type(exc).__name__})"
    try:
        client.ping()
    except Exception as exc:
        client.close()
        return False, f"no Docker engine answers ({type(exc).__name__})"
    try:
        client.images.get(image)
    except Exception:
        return False, f"the Docker engine has no image {image} (scripts/build_mono_image.sh builds it)"
    finally:
        client.close()
    return True, f"the Docker engine answers and has {image}"


class DockerSandbox:
    name = "docker"

    def __init__(self, workspace: Path, image: str, commands: int = 1):
        self.workspace = Path(workspace).resolve()
        self.image = image
        self.commands = max(1, commands)     # test commands its user runs at once: the container holds them all
        self._client = None
        self._container = None
        self._watch = None               # attach socket holding the container's stdin open
        self._memory_mb: int | None = None
        self._lock = threading.Lock()
        self._slots = list(range(SLOTS))

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            env: dict[str, str] | None = None, writable: Sequence[Path] = (), stdin: bytes | None = None,
            until: bytes | None = None, scratch: Sequence[Path] = (), cpu: bool = False,
            processes: bool = True) -> RunOutcome:
        """`cpu`: each process of the command may use `timeout` CPU seconds (RLIMIT_CPU: the kernel
        kills it there, SIGKILL), the command `backstop(timeout)` wall seconds. `processes=False`:
        docker exec takes no seccomp filter of its own, so the command's environment asks the test
        runner to install the local sandbox's no-process filter on itself (seccomp.runner_env)
        before any test code loads; the pids limit and the cleanup after every test command bound
        what any other command starts."""
        cwd = Path(cwd).resolve()
        if not cwd.is_relative_to(self.workspace):
            raise ConfigError(f"docker sandbox: {cwd} is outside the mounted workspace {self.workspace}")
        check_scratch(writable, scratch, self.name)
        own_for_build(writable)
        with self._lock:
            container = self._ensure(memory_mb)
            slot = self._slots.pop() if not writable and self._slots else None
        uid = BUILD_UID if writable else TEST_UID + (slot or 0)
        own_for_build(scratch, uid, keep_shared=True)
        outcome = None
        try:
            if not processes and not writable:
                env = {**(env or {}), **seccomp.runner_env(False)}
            outcome = self._exec(container, argv, cwd, timeout, memory_mb, env, uid, stdin, until,
                                 cleaning=not writable, cpu=cpu)
            return outcome
        finally:
            # builds (mcs) run no candidate code and share their uid; after every test command,
            # whatever its exit code: a process it left can kill the command's own cleaning wrapper
            # (exit 143, its cleanup never ran) and would poison the next command of this uid
            if not writable:
                self._cleanup(container, uid)
            if slot is not None:
                with self._lock:
                    self._slots.append(slot)

    def close(self) -> None:
        """Remove the warm container and close the connections to the engine (the sandbox may be used
        again: both are made anew on its next command)."""
        with self._lock:
            self._discard()
            if self._client is not None:
                self._client.close()
                self._client = None

    def counts_cpu(self) -> bool:
        """Yes, per process (RLIMIT_CPU): the container's CPU counters hold every command in flight
        (up to SLOTS at once), so a run's own total is not known; a test process that starts others
        gives each its own limit (the wall-clock backstop bounds them all)."""
        return True

    def fresh(self) -> "DockerSandbox":
        """A new container for the same workspace (started on its first command)."""
        return DockerSandbox(self.workspace, self.image, self.commands)

    # -- one command -------------------------------------------------------------------------------
    def _exec(self, container, argv: list[str], cwd: Path, timeout: float, memory_mb: int,
              env: dict[str, str] | None, uid: int, stdin: bytes | None, until: bytes | None,
              cleaning: bool, cpu: bool = False) -> RunOutcome:
        api = self._client.api
        cpu_limit, timeout = (timeout, backstop(timeout)) if cpu else (None, timeout)
        cmd = limit_prefix(memory_mb, timeout, cpu_limit) + list(argv)
        if cleaning:
            cmd = ["sh", "-c", CLEANING, "sh", *cmd]
        environment = scrubbed_env(env) if cleaning else scrubbed_env({**(env or {}), "HOME": BUILD_HOME})
        exec_id = api.exec_create(container.id, cmd, workdir=str(cwd), environment=environment,
                                  user=f"{uid}:{uid}", stdin=stdin is not None)["Id"]
        started = time.monotonic()
        sock = api.exec_start(exec_id, socket=True)
        raw = getattr(sock, "_sock", sock)
        if stdin is not None:
            raw.sendall(stdin)
        both, out = Capture(), Capture(REPORT_LIMIT)
        window = buffer = b""
        deadline = started + timeout + KILL_GRACE
        seen_until = until is None
        timed_out = stopped = False
        # test commands only (builds run no candidate code): the count is the container's, so a bomb in
        # another slot at the same time ends this run too (it starved it of processes all the same)
        refused = self._pids_refused(container) if cleaning else None
        pids_limited = False
        next_poll = started + PIDS_POLL
        poll = selectors.DefaultSelector()      # epoll: select.select fails on descriptors >= 1024
        poll.register(raw, selectors.EVENT_READ)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    stopped = until is not None and seen_until
                    timed_out = not stopped
                    break
                if refused is not None and time.monotonic() >= next_poll:
                    next_poll = time.monotonic() + PIDS_POLL
                    if (self._pids_refused(container) or 0) > refused:
                        pids_limited = True
                        break
                if not poll.select(min(left, PIDS_POLL)):
                    continue
                try:
                    data = raw.recv(65536)
                except (OSError, socket.error):
                    data = b""
                if not data:
                    break
                buffer += data
                while len(buffer) >= 8:
                    kind, size = buffer[0], struct.unpack(">I", buffer[4:8])[0]
                    if len(buffer) < 8 + size:
                        break
                    chunk, buffer = buffer[8:8 + size], buffer[8 + size:]
                    both.add(chunk)
                    if kind == 1:
                        out.add(chunk)
                        window = (window + chunk)[-(len(until or b"") + 65536):]
                        if not seen_until and until in window:
                            seen_until = True
                            deadline = min(deadline, time.monotonic() + STOP_GRACE)
        finally:
            poll.close()
            try:
                sock.close()
            except OSError:
                pass
        seconds = time.monotonic() - started
        if refused is not None and not pids_limited:
            pids_limited = (self._pids_refused(container) or 0) > refused
        if timed_out or stopped or pids_limited:
            self._cleanup(container, uid)
        info = _exec_info(api, exec_id)
        if info.get("Running"):
            exit_code = None
        else:
            exit_code = info.get("ExitCode")
            if exit_code in (124, 137) and seconds >= timeout and not (until is not None and seen_until):
                timed_out = True
        oom = False
        if exit_code == 137 and not timed_out:
            oom = self._oom_events()
            if oom:
                with self._lock:
                    self._discard()
        # SIGKILLed before the wall limit, not by the memory or the process limit: the kernel, at RLIMIT_CPU
        cpu_limited = cpu_limit is not None and exit_code == 137 and not (timed_out or stopped or oom or pids_limited)
        timed_out = timed_out or cpu_limited
        return RunOutcome(list(argv), None if timed_out or stopped else exit_code, clip(both.text()), seconds,
                          timed_out=timed_out, oom_killed=oom, stdout=out.text(), stdout_cut=out.cut, stopped=stopped,
                          pids_limited=pids_limited, cpu_limited=cpu_limited,
                          backstopped=cpu_limit is not None and timed_out and not cpu_limited)

    def _cleanup(self, container, uid: int) -> None:
        """Kill every process of `uid` in the container and delete its /tmp files."""
        try:
            api = self._client.api
            for _ in range(3):          # a survivor may kill the cleanup itself: again until it ends clean
                exec_id = api.exec_create(container.id, ["sh", "-c", CLEANUP], user=f"{uid}:{uid}")["Id"]
                api.exec_start(exec_id)
                if _exec_info(api, exec_id).get("ExitCode") == 0:
                    break
        except Exception:  # the container is gone: nothing is left to clean
            pass

    # -- the container ------------------------------------------------------------------------------
    def _ensure(self, memory_mb: int):
        if self._container is not None and self._memory_mb == memory_mb and self._alive():
            return self._container
        self._discard()
        client = self._docker()
        api = client.api
        cgroup_mb = memory_mb * self.commands + MEMORY_HEADROOM_MB
        host = api.create_host_config(
            auto_remove=True, init=True, network_mode="none", read_only=True, cap_drop=["ALL"],
            security_opt=["no-new-privileges"], mem_limit=f"{cgroup_mb}m", memswap_limit=f"{cgroup_mb}m",
            nano_cpus=int(CPUS * 1e9), cpu_shares=CPU_SHARES, pids_limit=PIDS_LIMIT * self.commands,
            binds={str(self.workspace): {"bind": str(self.workspace), "mode": "rw"}},
            tmpfs={"/tmp": f"size={TMP_SIZE},mode=1777"})
        created = api.create_container(self.image, ["sh", "-c", "cat >/dev/null"], stdin_open=True,
                                       user="65534:65534", working_dir=str(self.workspace), host_config=host,
                                       labels={LABEL: owner()})
        self._watch = api.attach_socket(created["Id"], params={"stdin": 1, "stream": 1})
        atexit.register(self.close)          # while a container is up (the sandbox is kept alive until then)
        api.start(created["Id"])
        self._container = client.containers.get(created["Id"])
        self._memory_mb = memory_mb
        return self._container

    def _alive(self) -> bool:
        try:
            self._container.reload()
            return self._container.status == "running"
        except Exception:
            return False

    def _pids_refused(self, container) -> int | None:
        """Forks the container's pids controller refused so far, read on the host (the engine's
        cgroup folder: a file read, no engine round trip); None when this host does not show it."""
        for path in (f"/sys/fs/cgroup/pids/docker/{container.id}/pids.events",
                     f"/sys/fs/cgroup/system.slice/docker-{container.id}.scope/pids.events",
                     f"/sys/fs/cgroup/docker/{container.id}/pids.events"):
            try:
                return pids_events(Path(path).read_text())
            except OSError:
                continue
        return None

    def _oom_events(self) -> bool:
        """cgroup v1 keeps a count of OOM kills; v2 reports them in memory.events."""
        try:
            res = self._container.exec_run(["sh", "-c", "cat /sys/fs/cgroup/memory/memory.oom_control "
                                            "/sys/fs/cgroup/memory.events 2>/dev/null"], user="65534:65534")
        except Exception:
            return True          # the container died: the cgroup killed its main process too
        for line in _text(res.output).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip() not in ("", "0"):
                return True
        return False

    def _discard(self) -> None:
        atexit.unregister(self.close)
        if self._container is not None:
            try:
                self._container.remove(force=True)
            except Exception:  # already gone (auto_remove)
                pass
        if self._watch is not None:
            try:
                self._watch.close()
            except Exception:
                pass
        self._container = self._watch = None

    def _docker(self):
        if self._client is None:
            try:
                import docker
                self._client = docker.from_env()
                self._client.ping()
            except Exception as exc:
                if self._client is not None:
                    self._client.close()
                self._client = None
                raise ConfigError(f"the Docker engine is not reachable ({type(exc).__name__}); "
                                  "start dockerd or use --sandbox local") from exc
        try:
            self._client.images.get(self.image)
        except Exception as exc:
            hint = ("build it with scripts/build_mono_image.sh" if "mono" in self.image
                    else f"docker pull {self.image}")
            raise ConfigError(f"docker image {self.image} is missing; {hint}") from exc
        return self._client


def _exec_info(api, exec_id: str) -> dict:
    for _ in range(50):
        info = api.exec_inspect(exec_id)
        if not info.get("Running"):
            return info
        time.sleep(0.02)
    return info


def _text(raw) -> str:
    if raw is None:
        return ""
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
