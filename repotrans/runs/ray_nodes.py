"""The node side of the Ray executor: what runs on each node of the cluster.

  NodeWorker   one actor per node: unpacks each level's folders once (bundles), runs tasks in threads
               with test runs capped at the node's CPUs, returns each record and the task's folder
  CallGate     the cluster's one limiter on model calls (agents.limits semantics), GateClient its
               CallLimiter face for the model clients on a node
  toolchain_problems / build_baseline   the toolchain check at start-up, the baseline built once
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import ray

from repotrans.agents.limits import LocalLimiter
from repotrans.agents.workdir import RunCaches
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import toolchain_spec
from repotrans.runs import bundles
from repotrans.runs.store import TaskRecord
from repotrans.runs.workload import TaskRunner, Workload
from repotrans.mapping.task import TranslationTask


def build_baseline(target: Path, workspace: Path, execution: ExecutionConfig) -> str:
    """Build the target's baseline here, once, in the workspace's runner folder (each node's first
    test run would otherwise build it again); returns that folder's name."""
    with Runner(execution, workspace) as runner:
        return runner.baseline(target).root.name


def toolchain_problems(execution: ExecutionConfig) -> list[str]:
    """What this machine lacks to build and test C# with the configured toolchain in its sandbox,
    and the configured build folders (--packages, --project-path) it does not have."""
    spec = toolchain_spec(execution.toolchain)
    missing = [f"--{flag} folder {folder} is not here" for flag, folders in
               (("packages", execution.packages), ("project-path", execution.project_paths))
               for folder in folders if not Path(folder).is_dir()]
    if execution.sandbox == "docker":
        if shutil.which("docker") is None:
            return missing + ["docker is not installed"]
        found = subprocess.run(["docker", "image", "inspect", spec.image], capture_output=True, timeout=60)
        return missing + ([] if found.returncode == 0 else
                          [f"docker image {spec.image} is missing (or the engine is down)"])
    return missing + [f"{tool} not found on PATH" for tool in spec.tools if shutil.which(tool) is None]


def _close(runner: TaskRunner) -> None:
    """A task runner and what its workload's hook holds (the ablation oracle's runners)."""
    runner.close()
    close_hook = getattr(runner.work.adjust, "close", None)
    if close_hook is not None:
        close_hook()


STALE_AFTER = 24 * 3600      # seconds: node-local copies of a run whose driver died without tidying up


def _prune_stale(parent: Path) -> None:
    """Remove the node-local folders of runs with no task started for STALE_AFTER (a killed driver's:
    each task makes a folder in RUN/NODE/out, so a live run's folders keep changing)."""
    now = time.time()
    for run in parent.glob("*") if parent.is_dir() else []:
        try:
            touched = max(p.stat().st_mtime for p in [run, *run.glob("*"), *run.glob("*/out")])
        except (OSError, ValueError):
            continue
        if now - touched > STALE_AFTER:
            shutil.rmtree(run, ignore_errors=True)


@ray.remote(num_cpus=0)
class CallGate:
    """The cluster's one limiter on model calls (agents.limits.LocalLimiter semantics)."""

    def __init__(self, cap: int | None):
        self.limiter = LocalLimiter(cap)

    async def acquire(self) -> None:
        await self.limiter.acquire()

    async def release(self) -> None:
        await self.limiter.release()

    async def pause(self, seconds: float) -> None:
        await self.limiter.pause(seconds)

    def peak(self) -> int:
        return self.limiter.peak


@dataclass
class GateClient:
    """agents.limits.CallLimiter over the CallGate actor, for the model clients on a node."""
    gate: object

    async def acquire(self) -> None:
        await self.gate.acquire.remote()

    async def release(self) -> None:
        await self.gate.release.remote()

    async def pause(self, seconds: float) -> None:
        await self.gate.pause.remote(seconds)


@ray.remote(num_cpus=0)
class NodeWorker:
    """Runs tasks on one node, on node-local copies of each level's folders."""

    def __init__(self, root: str, gate, cpus: int):
        self.node = ray.get_runtime_context().get_node_id()
        self.root = Path(root) / self.node[:12]
        _prune_stale(Path(root).parent)
        self.root.mkdir(parents=True, exist_ok=True)
        self.limiter = GateClient(gate)
        self.caches = RunCaches()               # this node's models and servers, over its workloads
        self.tests = threading.BoundedSemaphore(max(1, cpus))
        self.runners: dict[str, TaskRunner] = {}
        self.lock = threading.Lock()
        self.unpacked = self.tasks = 0

    def check(self, execution: ExecutionConfig) -> tuple[str, list[str]]:
        return self.node, toolchain_problems(execution)

    def stats(self) -> dict:
        return {"node": self.node, "unpacked": self.unpacked, "tasks": self.tasks, "pid": os.getpid()}

    def run(self, key: str, shipped: list, task: TranslationTask) -> tuple[TaskRecord, bytes]:
        """One task; `shipped` is [workload ref, {name: (digest, ref)}], fetched only on this node's
        first task of the workload."""
        runner = self._runner(key, shipped)
        with self.lock:
            self.tasks += 1
        out = self.root / "out" / uuid.uuid4().hex
        try:
            rec = runner.run(task, out)
            return rec, bundles.pack(out) if out.is_dir() else b""
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def cleanup(self) -> None:
        with self.lock:
            for runner in self.runners.values():
                _close(runner)
            self.runners.clear()
        shutil.rmtree(self.root, ignore_errors=True)
        try:
            self.root.parent.rmdir()           # the run's folder, once no node of this machine uses it
        except OSError:
            pass

    def _runner(self, key: str, shipped: list) -> TaskRunner:
        with self.lock:
            if key not in self.runners:
                work_ref, refs = shipped
                work: Workload = ray.get(work_ref)
                dirs = {}
                for name, (dig, ref) in refs.items():
                    dest = self.root / "d" / dig
                    if not dest.is_dir():
                        self.unpacked += 1
                    dirs[name] = bundles.unpack_once(lambda ref=ref: ray.get(ref), dest)
                for name in work.scratch:
                    dirs[name] = self.root / "s" / key / name
                    dirs[name].mkdir(parents=True, exist_ok=True)
                for old in list(self.runners)[:-1]:          # keep the last workload's index open
                    _close(self.runners.pop(old))
                self.runners[key] = TaskRunner(work, dirs, self.limiter, wrap=self._cap_tests, caches=self.caches)
            return self.runners[key]

    def _cap_tests(self, brief, dirs) -> None:
        """At most this node's CPUs of test runs at a time: they are what the CPUs are for."""
        run_test = brief.services.run_test

        def capped(code: str):
            with self.tests:
                return run_test(code)

        brief.services.run_test = capped
