"""A real two-node Ray cluster on this machine for tests and benchmarks: a head and one worker node
(`ray start --head` / `ray start --address`, each with its own CPU count), on free ports and a
temporary folder of their own. It is stopped through the processes it started (never `ray stop`,
which would stop every cluster on the machine); `kill_worker()` SIGKILLs the worker node's processes.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

# Fast failure detection, so that a killed node is noticed in seconds rather than in a minute; no token
# authentication (a machine where a local `ray.init()` once ran holds ~/.ray/auth_token, and `ray start`
# would then require it from every client, this test process's GCS queries included).
ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled", "RAY_health_check_period_ms": "1000",
       "RAY_health_check_timeout_ms": "1000", "RAY_health_check_failure_threshold": "3",
       "RAY_health_check_initial_delay_ms": "1000"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def process_tree(pid: int) -> list[int]:
    """`pid` and all its descendants (Ray's workers start sessions of their own, so not one group)."""
    tree, out, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(tree.get(p, []))
    return out


def _kill(pids: list[int], sig: int) -> None:
    for p in pids:
        try:
            os.kill(p, sig)
        except ProcessLookupError:
            pass


class LocalCluster:
    def __init__(self, head_cpus: int = 1, worker_cpus: int = 1, env: dict[str, str] | None = None):
        self.head_cpus, self.worker_cpus = head_cpus, worker_cpus
        self.temp = tempfile.mkdtemp(prefix="rt-ray-", dir="/tmp")     # short: Ray's socket paths
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.env = {**os.environ, **ENV, **(env or {})}
        self.head: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None       # the latest worker node
        self._started: list[subprocess.Popen] = []

    def _start(self, args: list[str], log: str) -> subprocess.Popen:
        proc = subprocess.Popen(["ray", "start", "--block", "--disable-usage-stats", "--node-ip-address",
                                 "127.0.0.1", "--dashboard-agent-listen-port", str(_free_port()),
                                 "--dashboard-agent-grpc-port", str(_free_port()),
                                 "--metrics-export-port", str(_free_port()), *args],
                                stdout=open(Path(self.temp) / log, "w"), stderr=subprocess.STDOUT,
                                env=self.env, start_new_session=True)
        self._started.append(proc)
        return proc

    def start(self) -> LocalCluster:
        self.head = self._start(["--head", "--port", str(self.port), "--num-cpus", str(self.head_cpus),
                                 "--temp-dir", self.temp, "--include-dashboard", "false",
                                 ], "head.log")
        self._wait(1)
        self.start_worker()
        return self

    def start_worker(self) -> None:
        alive = self.alive_nodes()
        self.worker = self._start(["--address", self.address, "--num-cpus", str(self.worker_cpus)], "worker.log")
        self._wait(alive + 1)

    def alive_nodes(self) -> int:
        """Nodes the cluster's GCS holds alive (0 while it is not up)."""
        from ray._raylet import GcsClient

        try:
            info = GcsClient(address=self.address).get_all_node_info(timeout=5)
        except Exception:                 # GCS not up yet
            return 0
        return sum(1 for node in info.values() if node.state == 0)     # GcsNodeInfo.ALIVE

    def _wait(self, nodes: int, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for proc, name in ((self.head, "head"), (self.worker, "worker")):
                if proc is not None and proc.poll() is not None:
                    raise RuntimeError(f"ray {name} exited: {(Path(self.temp) / (name + '.log')).read_text()[-2000:]}")
            if self.alive_nodes() >= nodes:
                return
            time.sleep(0.5)
        raise RuntimeError(f"the local Ray cluster did not reach {nodes} nodes in {timeout:.0f} s")

    def kill_worker(self) -> list[int]:
        """SIGKILL every process of the worker node (its raylet, agents and task workers)."""
        pids = process_tree(self.worker.pid)
        _kill(pids, signal.SIGKILL)
        self.worker.wait(timeout=30)
        return pids

    def stop(self) -> None:
        procs = list(reversed(self._started))
        pids = [pid for p in procs for pid in process_tree(p.pid)]
        _kill(pids, signal.SIGTERM)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() and not _zombie(p) for p in pids):
            time.sleep(0.2)
        _kill(pids, signal.SIGKILL)
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        shutil.rmtree(self.temp, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
