"""Dataset validation on a Ray cluster: `dataset build --executor ray`.

The project pair is packed once (runs.bundles) and put in the object store. The untouched baseline of the
test assemblies the head's cache lacks is computed on a node (the first one alive) and cached on the head,
so every node judges with the same baseline. The pending tasks are then split, in task order (a class's
members stay together and share one schemata build), into one group per alive node; each node unpacks the
pair, indexes it, and validates its group exactly as `build_dataset` validates in threads here
(datasets.build.validate_tasks with the baseline's limits, `jobs` = its CPUs). A task's verdict does not
depend on the other tasks of its group, so the verdicts are the thread executor's.
"""
from __future__ import annotations

import logging
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from repotrans.datasets.build import TaskValidation, validate_tasks
from repotrans.datasets.dataset import DatasetTask
from repotrans.errors import ConfigError
from repotrans.execution.judge.baseline import (MEMORY_MB, BaselineCache, PortBaseline, cached_baseline, content_keys,
                                                port_baseline)
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
from repotrans.runs import bundles


@dataclass
class RayValidator:
    """Validation on the Ray cluster at `address` (None: a local one started for this build)."""
    address: str | None = None
    _own: bool = field(default=False, init=False)
    _folders: dict = field(default_factory=dict, init=False)    # folder -> the object ref of its bundle

    def __post_init__(self) -> None:
        self._own = not ray.is_initialized()
        if self._own:
            try:
                ray.init(address=self.address, include_dashboard=False if not self.address else None,
                         log_to_driver=False, logging_level=logging.WARNING)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ConfigError(f"cannot reach the Ray cluster at {self.address or 'a new local one'}: "
                                  f"{str(exc).splitlines()[0]}") from None

    def close(self) -> None:
        if self._own and ray.is_initialized():
            ray.shutdown()

    def baseline(self, target: Path, execution: ExecutionConfig, cache: BaselineCache, timeout: float,
                 progress: Callable[[str], None] | None = None) -> PortBaseline:
        """The untouched baseline: the head's cache where it holds every test assembly's record, else
        computed on a node of the cluster and its records cached here."""
        say = progress or (lambda _: None)
        with Runner(execution, Path(tempfile.mkdtemp(prefix="repotrans-keys-")), trusted=True) as runner:
            cached = cached_baseline(runner, target, cache)
            wanted = len(content_keys(target, runner, replace(runner.limits, memory_mb=max(runner.limits.memory_mb,
                                                                                           MEMORY_MB))))
        if cached is not None and len(cached.assemblies) == wanted:
            say(f"baseline: {wanted} of {wanted} test assemblies unchanged (cached)")
            return cached
        node, _ = self._nodes()[0]
        say("baseline: running on a node of the cluster")
        base = ray.get(_remote_baseline.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False))
                       .remote(self._bundle(target), execution, timeout))
        for record in base.assemblies.values():
            if record.key:
                cache.put(record)
        return base

    def validate(self, source: Path, target: Path, tasks: list[DatasetTask], execution: ExecutionConfig,
                 baseline: PortBaseline, *, schemata: bool = True) -> list[TaskValidation]:
        """Every task's verdict, validated on the nodes (one group per node, in task order)."""
        if not tasks:
            return []
        nodes = self._nodes()
        size = -(-len(tasks) // len(nodes))
        groups = [tasks[at:at + size] for at in range(0, len(tasks), size)]
        calls = [_remote_validate.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False))
                 .remote(self._bundle(source), self._bundle(target), group, execution, baseline, cpus, schemata)
                 for (node, cpus), group in zip(nodes, groups)]
        found = {v.id: v for part in ray.get(calls) for v in part}
        return [found[t.id] for t in tasks]

    def _nodes(self) -> list[tuple[str, int]]:
        alive = [(n["NodeID"], int(n.get("Resources", {}).get("CPU", 1) or 1)) for n in ray.nodes() if n["Alive"]]
        if not alive:
            raise ConfigError("the Ray cluster has no node alive")
        return alive

    def _bundle(self, folder: Path):
        """The object ref of `folder`'s bundle, packed and put once."""
        key = str(Path(folder).resolve())
        if key not in self._folders:
            self._folders[key] = ray.put(bundles.pack(Path(folder)))
        return self._folders[key]


@ray.remote(num_cpus=0)
def _remote_baseline(target_bundle: bytes, execution: ExecutionConfig, timeout: float) -> PortBaseline:
    root = Path(tempfile.mkdtemp(prefix="repotrans-baseline-"))
    try:
        target = bundles.unpack(target_bundle, root / "target")
        with Runner(execution, root / "runs", trusted=True) as runner:
            return port_baseline(runner, target, BaselineCache(None), timeout=timeout)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@ray.remote(num_cpus=0)
def _remote_validate(source_bundle: bytes, target_bundle: bytes, tasks: list[DatasetTask],
                     execution: ExecutionConfig, baseline: PortBaseline, jobs: int,
                     schemata: bool) -> list[TaskValidation]:
    root = Path(tempfile.mkdtemp(prefix="repotrans-validate-"))
    try:
        source = bundles.unpack(source_bundle, root / "source")
        target = bundles.unpack(target_bundle, root / "target")
        index = Index.open(root / "index")
        index.build(source, target, progress=False)
        (root / "work").mkdir()
        with Runner(execution, root / "runs", trusted=True) as runner:
            runner.limits = baseline.limits(runner.limits)
            runner.untouched = baseline                   # failures seen on the untouched build: kept (as local)
            return validate_tasks(index, tasks, root / "work", runner, jobs=jobs, progress=False,
                                  schemata=schemata, baseline=baseline)
    finally:
        shutil.rmtree(root, ignore_errors=True)
