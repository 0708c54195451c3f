"""Docker sandbox: a warm container per (image, workspace), no network, memory/CPU/pids limits,
only the workspace mounted (at the same path, so command lines are identical to the local ones).

Each command runs through `docker exec` under `timeout --signal=KILL` and prlimit; if it outlives
its limit anyway, the whole container is removed (and recreated on the next call).
"""
from __future__ import annotations

import atexit
import os
import threading
import time
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import RunOutcome, clip, limit_prefix

LABEL = "repotrans.runner"
KILL_GRACE = 3.0             # seconds past the limit before the container itself is killed
CPUS = 1.0
PIDS_LIMIT = 256
MEMORY_HEADROOM_MB = 256     # cgroup limit above the per-process address-space limit


class DockerSandbox:
    name = "docker"

    def __init__(self, workspace: Path, image: str):
        self.workspace = Path(workspace).resolve()
        self.image = image
        self._client = None
        self._container = None
        self._memory_mb: int | None = None
        atexit.register(self.close)

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            env: dict[str, str] | None = None) -> RunOutcome:
        cwd = Path(cwd).resolve()
        if not cwd.is_relative_to(self.workspace):
            raise ConfigError(f"docker sandbox: {cwd} is outside the mounted workspace {self.workspace}")
        container = self._ensure(memory_mb)
        api = self._client.api
        cmd = limit_prefix(memory_mb, timeout) + list(argv)
        full_env = {"HOME": "/tmp", "LANG": "C.UTF-8", **(env or {})}
        exec_id = api.exec_create(container.id, cmd, workdir=str(cwd), environment=full_env)["Id"]
        box: dict = {}

        def pump() -> None:
            try:
                box["out"] = api.exec_start(exec_id, stream=False, demux=False)
            except Exception as exc:  # the container was killed under us
                box["error"] = exc

        started = time.monotonic()
        worker = threading.Thread(target=pump, daemon=True)
        worker.start()
        worker.join(timeout + KILL_GRACE)
        seconds = time.monotonic() - started
        if worker.is_alive():
            self._discard()
            worker.join(10)
            return RunOutcome(list(argv), None, _text(box.get("out")), seconds, timed_out=True)
        exit_code = api.exec_inspect(exec_id).get("ExitCode")
        timed_out = seconds >= timeout and exit_code in (124, 137)
        oom = False
        if exit_code == 137 and not timed_out:
            container.reload()
            oom = bool(container.attrs.get("State", {}).get("OOMKilled")) or self._oom_events()
            if oom:
                self._discard()
        return RunOutcome(list(argv), None if timed_out else exit_code, clip(_text(box.get("out"))),
                          seconds, timed_out=timed_out, oom_killed=oom)

    def close(self) -> None:
        self._discard()

    def _ensure(self, memory_mb: int):
        if self._container is not None and self._memory_mb == memory_mb:
            return self._container
        self._discard()
        client = self._docker()
        cgroup_mb = memory_mb + MEMORY_HEADROOM_MB
        self._container = client.containers.run(
            self.image, ["sleep", "infinity"], detach=True, init=True, auto_remove=False,
            network_mode="none", mem_limit=f"{cgroup_mb}m", memswap_limit=f"{cgroup_mb}m",
            nano_cpus=int(CPUS * 1e9), pids_limit=PIDS_LIMIT,
            volumes={str(self.workspace): {"bind": str(self.workspace), "mode": "rw"}},
            tmpfs={"/tmp": "size=256m"}, labels={LABEL: str(os.getpid())},
            working_dir=str(self.workspace))
        self._memory_mb = memory_mb
        return self._container

    def _oom_events(self) -> bool:
        """cgroup v1 keeps a count of OOM kills; v2 reports them in memory.events."""
        res = self._container.exec_run(["sh", "-c", "cat /sys/fs/cgroup/memory/memory.oom_control "
                                        "/sys/fs/cgroup/memory.events 2>/dev/null"])
        for line in _text(res.output).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip() not in ("", "0"):
                return True
        return False

    def _discard(self) -> None:
        if self._container is not None:
            try:
                self._container.remove(force=True)
            except Exception:  # already gone
                pass
        self._container = None

    def _docker(self):
        if self._client is None:
            try:
                import docker
                self._client = docker.from_env()
                self._client.ping()
            except Exception as exc:
                raise ConfigError(f"the Docker engine is not reachable ({type(exc).__name__}); "
                                  "start dockerd or use --sandbox local") from exc
        try:
            self._client.images.get(self.image)
        except Exception as exc:
            hint = ("build it with scripts/build_mono_image.sh" if "mono" in self.image
                    else f"docker pull {self.image}")
            raise ConfigError(f"docker image {self.image} is missing; {hint}") from exc
        return self._client


def _text(raw) -> str:
    if raw is None:
        return ""
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
