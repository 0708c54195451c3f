"""What the tasks of one level share (`Workload`), the `Executor` protocol every executor follows,
and the `TaskRunner` that runs tasks of a workload in this process (threads here, actors on Ray nodes).

A `Workload` says what every task of one level shares (the repositories and the index, by folder
name, the configuration, and an optional `adjust(brief, dirs)` hook that rebinds services); an
executor runs a list of tasks against it and yields each task's record as it finishes. The caller
(batch, ablate) writes records into the run store; executors never touch it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Protocol

from repotrans.agents.config import AgentConfig, with_concrete_sandbox
from repotrans.agents.limits import CallLimiter
from repotrans.agents.workdir import RunCaches, Workdir
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.judge.runner import Runner
from repotrans.runs.store import TaskRecord
from repotrans.runs.tasks import run_task
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.task import TranslationTask

Adjust = Callable[[object, dict[str, Path]], None]     # (brief, dirs): rebind the task brief's services


@dataclass
class Workload:
    """What every task of one level shares. `dirs` names folders: "source", "target" and "workspace"
    (its index.sqlite indexes source + target) always, others as `adjust` needs; `scratch` names
    folders that are only written to (never shipped: a remote node makes its own). Sandbox `auto` is
    resolved here, once per workload (agents.config.with_concrete_sandbox: docker when an engine
    answers, local only for the builtin policy): every executor, thread or Ray node, and every judge
    it builds gets the concrete sandbox."""
    dirs: dict[str, Path]
    config: AgentConfig
    config_name: str
    dataset: str
    adjust: Adjust | None = None
    scratch: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.config.execution.sandbox == "auto":
            self.config = with_concrete_sandbox(self.config)


class Executor(Protocol):
    def run(self, work: Workload, tasks: list[TranslationTask], out_dir: Path) -> Iterator[TaskRecord]:
        """Run every task once; yield each record as it finishes (any order). Each task's folder
        (trajectory, result) ends up under `out_dir` before its record is yielded."""
        ...

    def close(self) -> None:
        ...


def prepare_retrieval(work: Workload, caches: RunCaches | None = None) -> None:
    """Build the pair store every task of `work` queries, once, through a run context over the
    workspace's index (agents.workdir.Workdir: the index opened and fingerprinted once, the mapping
    with the workload's overrides), then close that index: a node that later runs the tasks finds the
    store built and opens its own run context once per workload, never per task."""
    index = Index.open(work.dirs["workspace"], must_exist=True)
    try:
        mapping = load_mapping(index, work.config.mapping)
        context = Workdir(work.dirs["workspace"], index, mapping, None, work.config.mapping,
                          caches=caches or RunCaches())
        context.retriever(work.config.retrieval, work.config.cache.embedding_folder()).pairs
    finally:
        index.close()


def rerooted_index(dirs: dict[str, Path], workspace: str = "workspace", target: str = "target") -> Index:
    """The index in dirs[workspace], re-rooted onto dirs["source"] + dirs[target] if it was built
    elsewhere (a node-local copy): unchanged files are not parsed again."""
    index = Index.open(dirs[workspace], must_exist=True)
    source, tgt = dirs["source"].resolve(), dirs[target].resolve()
    if index.root("source") != source or index.root("target") != tgt:
        index.build(source, tgt, progress=False)
    return index


class TaskRunner:
    """Runs tasks of one workload in this process: one run context (agents.workdir.Workdir: the
    index, the mapping with the configuration's overrides, the execution Runner from the
    configuration's execution settings, the retriever) for all of them. A `runner` given is the
    caller's to close, and so is a `pair` (the run's open index and its mapping: runs.run.Run), else this
    process opens its own over `dirs`; `caches` (agents.workdir.RunCaches) are the run's, shared with its
    other workloads."""

    def __init__(self, work: Workload, dirs: dict[str, Path], limiter: CallLimiter | None = None,
                 wrap: Adjust | None = None, runner: Judge | None = None, caches: RunCaches | None = None,
                 pair: tuple[Index, Mapping] | None = None):
        self.work, self.dirs, self.limiter, self.wrap = work, dirs, limiter, wrap
        self._own_index = pair is None
        self.index, self.mapping = pair if pair is not None else self._opened(dirs, work)
        self._own_runner = runner is None
        self.runner: Judge = runner or Runner(work.config.execution, dirs["workspace"])
        self.context = Workdir(dirs["workspace"], self.index, self.mapping, self.runner, work.config.mapping,
                               caches=caches or RunCaches())

    def run(self, task: TranslationTask, out_dir: Path) -> TaskRecord:
        work = self.work

        def adjust(brief) -> None:
            if work.adjust is not None:
                work.adjust(brief, self.dirs)
            if self.wrap is not None:
                self.wrap(brief, self.dirs)

        return run_task(self.context, task, work.config, run_dir=out_dir, config_name=work.config_name,
                        dataset=work.dataset, adjust=adjust, limiter=self.limiter)

    @staticmethod
    def _opened(dirs: dict[str, Path], work: Workload) -> tuple[Index, Mapping]:
        index = rerooted_index(dirs)
        return index, load_mapping(index, work.config.mapping)

    def close(self) -> None:
        if self._own_index:
            self.index.close()
        if self._own_runner:
            self.runner.close()
