"""The run as an object: built once from its inputs and configuration, it owns the run folder's layout,
the run store, the work copy, the opened index and one judge; a variant (runs.batch)
lists its stages, each reading and writing files in the run folder.

    with Run(RunInputs(source, target, run_dir), config) as run:
        index = run.open_index(progress=True)      # over source + run_dir/work/target
        judge = run.judge()                        # the run's one runner, built on first use

Nothing below the run re-opens what the run holds: stages take the run (or what it hands them), never a
path to open again. The layout's names are runs.layout's, so reports read the same folders.
"""
from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from repotrans.errors import ConfigError
from repotrans.execution.judge.baseline import PortBaseline, leave_out_baseline
from repotrans.execution.judge.batching import judge_for
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.judge.runner import Runner
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.mapping.mapping import Mapping
from repotrans.runs.rejudge import WorkCopy
from repotrans.runs.layout import results_file, summary_file, tasks_folder, workdir_of
from repotrans.runs.store import RunStore

if TYPE_CHECKING:
    from repotrans.agents.config import AgentConfig


@dataclass(frozen=True)
class RunFolder:
    """Where a run folder keeps what (runs.layout's names, as one value)."""
    path: Path

    @property
    def results(self) -> Path:
        return results_file(self.path)

    @property
    def summary(self) -> Path:
        return summary_file(self.path)

    @property
    def tasks(self) -> Path:
        return tasks_folder(self.path)

    @property
    def workspace(self) -> Path:
        """The index, the retrieval stores and the judge's scratch copies."""
        return workdir_of(self.path)

    @property
    def work_target(self) -> Path:
        """The work copy: the port plus passing translations and nothing else (runs.rejudge)."""
        return self.path / "work" / "target"


@dataclass(frozen=True)
class RunInputs:
    """What a run is about: the Java repository, the user's C# port and the run folder."""
    source: Path
    target: Path
    run_dir: Path

    def check(self) -> None:
        """ConfigError naming the first missing repository."""
        for name, path in (("source", self.source), ("target", self.target)):
            if not Path(path).is_dir():
                raise ConfigError(f"--{name}: {name} repository not found: {path}")


class Run:
    """One run's context: the run folder, its store, the work copy, the index over source and work copy, and
    the judge. Built once at the top (runs.batch); closed once, which closes the judge and
    the store."""

    def __init__(self, inputs: RunInputs, config: "AgentConfig"):
        self.inputs = inputs
        self.config = config
        self.folder = RunFolder(Path(inputs.run_dir))
        self.store = RunStore(self.folder.path)
        self._index: Index | None = None
        self._runner: Runner | None = None
        self._judges: dict[int, Judge] = {}        # submitters -> the judge over the one runner

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def work(self) -> Path:
        return self.folder.work_target

    def fresh_work_copy(self) -> Path:
        """The work copy made anew from the user's port (build outputs and repotrans folders left out)."""
        work = self.work
        if work.exists():
            shutil.rmtree(work)
        shutil.copytree(self.inputs.target, work, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans"))
        return work

    def work_copy(self) -> WorkCopy:
        """The work copy with the run's index over source + it (runs.rejudge.WorkCopy): what stages apply
        passing translations to and judge on."""
        return WorkCopy(self.index, Path(self.inputs.source), self.work)

    def open_index(self, *, progress: bool = False) -> Index:
        """The index over source + work copy, opened and brought up to date once per run."""
        if self._index is None:
            index = Index.open(self.folder.workspace)
            index.build(self.inputs.source, self.work, progress=progress and sys.stderr.isatty())
            self._index = index
        return self._index

    @property
    def index(self) -> Index:
        if self._index is None:
            raise RuntimeError("Run.index before Run.open_index")
        return self._index

    def mapping(self) -> Mapping:
        """The mapping of the index as it is now (passing translations applied change it), with the user's
        overrides: from the index's mapping cache unless the index, the code or the overrides changed."""
        return load_mapping(self.index, self.config.mapping)

    @property
    def runner(self) -> Runner:
        """The run's one runner (toolchain, sandboxes, scratch copies), built on first use and kept warm over
        every stage; the run closes it."""
        if self._runner is None:
            self._runner = Runner(self.config.execution, self.folder.workspace)
        return self._runner

    def judge(self, workers: int = 1) -> Judge:
        """The run's judge for `workers` submitters over its one runner. Stages use it and never close it."""
        if workers not in self._judges:
            self._judges[workers] = judge_for(self.runner, workers)
        return self._judges[workers]

    def untouched_baseline(self, say: Callable[[str], None]) -> PortBaseline:
        """The untouched port's baseline (judge.baseline, cached per content under [cache] root), taken on the
        user's port as it is (a resumed run's work copy holds passing translations already): the tests it
        counts as failing before any change, flipping or not running here join the run's known failures
        (judge.baseline.leave_out_baseline), in the run's runner and in its configuration (an executor's
        judges are built from it). Call it before the first judgement, so that no verdict of the run, nor its
        whole-suite check, rests on one."""
        runner = self.runner
        base = leave_out_baseline(runner, Path(self.inputs.target), self.config.cache.root, progress=say)
        self.config = replace(self.config, execution=replace(self.config.execution,
                                                             known_failures=runner.limits.known_failures))
        return base

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
            self._runner = None
            self._judges.clear()
        if self._index is not None:
            self._index.close()
            self._index = None
        self.store.close()

