"""The Ray executor: the tasks of a level on the nodes of a Ray cluster.

One `NodeWorker` actor per node runs up to `tasks_per_node` tasks at a time in threads (model calls
wait on the network; test runs, capped at the node's CPUs, use them). A level's folders (source, work
target, workspace with the index and stores) are packed once on the head, put in the object store,
and unpacked once per node; each task returns its record and its folder (trajectory, result), which
the head writes. All model calls of the cluster share one `CallGate` actor (cap and 429 pause).

Faults: a worker that dies (its node killed, or a task crashed the process) loses its tasks in
flight; they run again elsewhere. A task in flight at MAX_DEATHS worker deaths is recorded as a task
error; from its second death on it runs alone on a worker, so that it cannot take others down with it.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import ray
from ray.exceptions import RayActorError, RayTaskError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from repotrans.errors import ConfigError
from repotrans.execution.settings import ExecutionConfig
from repotrans.runs import bundles
from repotrans.runs.workload import Workload, prepare_retrieval
from repotrans.runs.ray_nodes import CallGate, NodeWorker, build_baseline
from repotrans.runs.store import TaskRecord
from repotrans.mapping.task import TranslationTask

MAX_DEATHS = 3
RESPAWN_GRACE = 10.0       # seconds a node must stay alive after losing its worker before a new one
PREPARE_NODE = "prepare it as the README says (scripts/install.sh, or mono + nunit-console, or the docker image)"


@dataclass
class _Worker:
    actor: object
    node: str
    slots: int
    running: int = 0
    solo: bool = False


@dataclass
class RayExecutor:
    """Tasks on a Ray cluster at `address` (None: start a local one for this run)."""
    address: str | None = None
    tasks_per_node: int | None = None
    model_calls: int | None = None
    progress: bool = True
    respawn_grace: float = RESPAWN_GRACE
    rescheduled: int = field(default=0, init=False)         # task runs lost with their worker, started again
    shipped: set = field(default_factory=set, init=False)    # digests of the folders put in the object store
    _workers: dict[str, _Worker] = field(default_factory=dict, init=False)
    _lost: dict[str, float] = field(default_factory=dict, init=False)
    _checked: set = field(default_factory=set, init=False)

    def __post_init__(self) -> None:
        if self.model_calls is not None and self.model_calls < 1:
            raise ConfigError("--model-calls must be at least 1")
        self._own = not ray.is_initialized()
        if self._own:
            try:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False, logging_level=logging.WARNING)
                else:
                    ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ConfigError(f"cannot reach the Ray cluster at {self.address or 'a new local one'}: "
                                  f"{exc}") from None
        here = ray.get_runtime_context().get_node_id()
        self.root = str(Path(tempfile.gettempdir()) / "repotrans-ray" / uuid.uuid4().hex[:12])
        self.gate = CallGate.options(scheduling_strategy=NodeAffinitySchedulingStrategy(here, soft=True)
                                     ).remote(self.model_calls)
        self._spawn_missing()
        if self.progress:
            print(f"ray: {len(self._workers)} node(s), {sum(w.slots for w in self._workers.values())} task slots"
                  f"{' at ' + self.address if self.address else ' (local cluster)'}", file=sys.stderr)

    # ---- workers ---------------------------------------------------------------------------------
    def _alive_nodes(self) -> dict[str, int]:
        """Node id -> CPUs, of the nodes Ray holds alive."""
        return {n["NodeID"]: int(n.get("Resources", {}).get("CPU", 1) or 1) for n in ray.nodes() if n["Alive"]}

    def _spawn_missing(self) -> None:
        now = time.monotonic()
        for node, cpus in self._alive_nodes().items():
            if node in self._workers or now - self._lost.get(node, -1e9) < self.respawn_grace:
                continue
            actor = NodeWorker.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
                max_concurrency=(self.tasks_per_node or cpus) + 4, max_restarts=0,
            ).remote(self.root, self.gate, cpus)
            self._workers[node] = _Worker(actor, node, self.tasks_per_node or cpus)
        self._checked = {c for c in self._checked if c[0] in self._workers}

    def _lose(self, worker: _Worker) -> None:
        """Forget a worker that died (a late error from an older worker of its node changes nothing)."""
        if self._workers.get(worker.node) is worker:
            del self._workers[worker.node]
            self._lost[worker.node] = time.monotonic()
        ray.kill(worker.actor, no_restart=True)

    def _check(self, execution: ExecutionConfig) -> None:
        """Every worker can build and test C# with this toolchain and sandbox (and has the build
        folders the settings name), or a clear error."""
        toolchain, sandbox = execution.toolchain, execution.sandbox
        todo = [w for w in self._workers.values() if (w.node, execution) not in self._checked]
        problems = []
        for w, ref in [(w, w.actor.check.remote(execution)) for w in todo]:
            try:
                _, missing = ray.get(ref, timeout=300)
            except RayTaskError as exc:
                missing = [f"cannot start a repotrans worker: {exc.cause!r}"]
            except RayActorError as exc:
                missing = [f"cannot start a repotrans worker: {str(exc).splitlines()[0]}"]
            if missing:
                problems.append(f"node {w.node[:12]}: {'; '.join(missing)}")
            else:
                self._checked.add((w.node, execution))
        if problems:
            raise ConfigError(f"Ray node(s) not ready for {toolchain}/{sandbox}: {' | '.join(problems)}; "
                              f"{PREPARE_NODE}")

    # ---- one level -------------------------------------------------------------------------------
    def _ship(self, work: Workload) -> tuple[str, list]:
        if work.config.agents.rag:            # build the pair store (all tasks query) once, here, not on every node
            prepare_retrieval(work)
        keep = build_baseline(work.dirs["target"], work.dirs["workspace"], work.config.execution)
        refs, digests = {}, []
        for name, path in sorted(work.dirs.items()):
            if name in work.scratch:
                continue
            data = bundles.pack(path, _workspace_skip(path, keep) if name == "workspace" else frozenset())
            dig = bundles.digest(data)
            refs[name] = (dig, ray.put(data))
            self.shipped.add(dig)
            digests.append(f"{name}={dig}")
        keyed = [*digests, work.config_name, work.dataset, json.dumps(work.config.to_json(), sort_keys=True)]
        key = hashlib.sha256("\n".join(keyed).encode()).hexdigest()[:20]
        return key, [ray.put(work), refs]

    def run(self, work: Workload, tasks: list[TranslationTask], out_dir: Path) -> Iterator[TaskRecord]:
        if not tasks:
            return
        self._spawn_missing()
        self._check(work.config.execution)
        key, shipped = self._ship(work)
        queue = deque(tasks)
        deaths: dict[str, int] = {}
        inflight: dict = {}                        # ref -> (task, worker)
        recorded: set[str] = set()
        while queue or inflight:
            self._spawn_missing()
            if not self._workers and not inflight:
                if not self._alive_nodes():
                    raise ConfigError("no Ray node is left to run the batch's tasks")
                time.sleep(0.5)
                continue
            self._fill(queue, inflight, deaths, key, shipped)
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
            for ref in ready:
                task, worker = inflight.pop(ref)
                worker.running -= 1
                worker.solo = False
                tid = task.target_method_id
                try:
                    rec, files = ray.get(ref)
                except RayTaskError as exc:          # raised by our code, not by a dying worker: a
                    raise exc.as_instanceof_cause()  # configuration error fails every task alike
                except RayActorError as exc:
                    self._lose(worker)
                    deaths[tid] = deaths.get(tid, 0) + 1
                    if deaths[tid] < MAX_DEATHS:
                        self.rescheduled += 1
                        queue.appendleft(task)
                        continue
                    rec, files = _crashed(work, task, deaths[tid], exc), b""
                if tid in recorded:
                    continue
                recorded.add(tid)
                if files:
                    _unpack_replacing(files, out_dir)
                yield rec

    def _fill(self, queue: deque, inflight: dict, deaths: dict, key: str, shipped: list) -> None:
        """Give each worker tasks up to its slots; a task that died twice runs alone."""
        for worker in sorted(self._workers.values(), key=lambda w: w.running):
            while queue and not worker.solo and worker.running < worker.slots:
                task = queue[0]
                alone = deaths.get(task.target_method_id, 0) >= MAX_DEATHS - 1
                if alone and worker.running > 0:
                    break
                queue.popleft()
                ref = worker.actor.run.remote(key, shipped, task)
                inflight[ref] = (task, worker)
                worker.running += 1
                worker.solo = alone

    def stats(self) -> list[dict]:
        """Per live worker: node, node-local folders unpacked, tasks started, pid."""
        return ray.get([w.actor.stats.remote() for w in self._workers.values()])

    def peak_model_calls(self) -> int:
        return ray.get(self.gate.peak.remote())

    def close(self) -> None:
        if not ray.is_initialized():
            return
        cleanups = [w.actor.cleanup.remote() for w in self._workers.values()]
        try:
            ray.get(cleanups, timeout=60)
        except Exception:                              # a worker gone already: nothing of it to tidy
            pass
        for worker in list(self._workers.values()):
            self._lose(worker)
        ray.kill(self.gate)
        if self._own:
            ray.shutdown()


def _workspace_skip(workspace: Path, keep: str | None) -> frozenset[str]:
    """The runner's scratch in a workspace: every state but `keep`, and the runs of that one."""
    runner = workspace / "runner"
    if not runner.is_dir():
        return frozenset()
    skip = {f"runner/{p.name}" for p in runner.iterdir() if p.name != keep}
    return frozenset(skip | {f"runner/{keep}/runs", f"runner/{keep}/.lock"})


def _crashed(work: Workload, task: TranslationTask, deaths: int, exc: BaseException) -> TaskRecord:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return TaskRecord(config=work.config_name, dataset=work.dataset, task_id=task.target_method_id.split(":", 1)[1],
                      status="error", error=f"WorkerCrashed: the task's worker died {deaths} times ({first})")


def _unpack_replacing(data: bytes, out_dir: Path) -> None:
    """A task's folder from a worker replaces any older one of the same name under `out_dir`."""
    incoming = out_dir / f".incoming-{uuid.uuid4().hex[:8]}"
    bundles.unpack(data, incoming)
    try:
        for entry in incoming.iterdir():
            dest = out_dir / entry.name
            if dest.exists():
                shutil.rmtree(dest)
            os.rename(entry, dest)
    finally:
        shutil.rmtree(incoming, ignore_errors=True)

