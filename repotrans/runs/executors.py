"""Where the tasks of a batch or an ablation run (the protocol and the task runner: runs.workload).

  ThreadExecutor  tasks in threads of this process, on the folders as they are (the default)
  RayExecutor     tasks on the nodes of a Ray cluster, on node-local copies (runs.ray_executor)
"""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from repotrans.agents.limits import LocalLimiter
from repotrans.agents.workdir import RunCaches
from repotrans.errors import ConfigError
from repotrans.extras import require
from repotrans.execution.judge.batching import judge_for
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.judge.runner import Runner
from repotrans.runs.run import Run
from repotrans.runs.store import TaskRecord
from repotrans.runs.workload import Executor, TaskRunner, Workload
from repotrans.mapping.task import TranslationTask


@dataclass
class ThreadExecutor:
    """`jobs` tasks at a time in threads of this process; model calls capped at `model_calls`. `owner`:
    the run whose workloads these are (runs.run.Run): a workload over the run's workspace takes the run's judge,
    index and mapping, left open; any other workload gets a judge per execution configuration and workspace,
    built here and closed with the executor, and its own index."""
    jobs: int = 1
    model_calls: int | None = None
    owner: Run | None = None
    _limiter: LocalLimiter = field(init=False)
    _runners: dict[tuple, Judge] = field(default_factory=dict, init=False)   # (execution config, workspace) -> judge
    _caches: RunCaches = field(default_factory=RunCaches, init=False)       # models and servers, over levels

    def __post_init__(self) -> None:
        self._limiter = LocalLimiter(self.model_calls)

    def run(self, work: Workload, tasks: list[TranslationTask], out_dir: Path) -> Iterator[TaskRecord]:
        if not tasks:
            return
        runs_own = self.owner is not None and Path(work.dirs["workspace"]) == self.owner.folder.workspace
        key = (work.config.execution, str(work.dirs["workspace"]))
        if not runs_own and key not in self._runners:     # kept over levels: a docker sandbox stays warm
            self._runners[key] = judge_for(Runner(work.config.execution, work.dirs["workspace"]), self.jobs)
        judge = self.owner.judge(self.jobs) if runs_own else self._runners[key]
        pair = (self.owner.index, self.owner.mapping()) if runs_own else None
        runner = TaskRunner(work, work.dirs, self._limiter, runner=judge, caches=self._caches, pair=pair)
        try:
            with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
                futures = {pool.submit(runner.run, t, out_dir) for t in tasks}
                try:
                    while futures:
                        finished, futures = wait(futures, return_when=FIRST_COMPLETED)
                        for f in finished:
                            yield f.result()
                except KeyboardInterrupt:     # workers embedding the stores stop after their batch
                    self._caches.stop.set()
                    raise
                finally:                 # the caller stopped early: tasks not started never start
                    for f in futures:
                        f.cancel()
        finally:
            runner.close()

    def close(self) -> None:
        for runner in self._runners.values():
            runner.close()
        self._runners.clear()


EXECUTORS = ("thread", "ray")


def make_executor(name: str, *, jobs: int = 1, model_calls: int | None = None, ray_address: str | None = None,
                  tasks_per_node: int | None = None, progress: bool = True) -> Executor:
    """The executor called `name`: "thread" (this process) or "ray" (a cluster; None = a local one)."""
    if name == "thread":
        if ray_address:
            raise ConfigError("--ray-address needs --executor ray")
        return ThreadExecutor(jobs=jobs, model_calls=model_calls)
    if name == "ray":
        require("ray")
        from repotrans.runs.ray_executor import RayExecutor

        return RayExecutor(address=ray_address, tasks_per_node=tasks_per_node, model_calls=model_calls,
                           progress=progress)
    raise ConfigError(f"unknown executor {name!r}", did_you_mean=list(EXECUTORS))

