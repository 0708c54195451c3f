"""Ablations: run each configuration over each dataset's tasks; results go to one run store.

The agents see only the masked view of a dataset (Java source + the port with every task masked).
Each candidate is judged by the oracle: the complete port with just that method replaced. The
configurations share the response cache and, for identical candidates, the oracle's verdicts.
"""
from __future__ import annotations

import json
from dataclasses import replace
import threading
import tomllib
from importlib import resources
from pathlib import Path

from tqdm import tqdm

from repotrans.agents.config import AgentConfig
from repotrans.errors import ConfigError
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.baseline import CACHE_FOLDER
from repotrans.execution.judge.batching import judge_for
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.datasets.dataset import Dataset, load_dataset
from repotrans.datasets.masking import materialize
from repotrans.runs.executors import ThreadExecutor
from repotrans.runs.workload import Executor, Workload, rerooted_index
from repotrans.runs.store import RunStore
from repotrans.runs.layout import dataset_folder, tasks_folder, workdir_of
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask


def ablation_overlays() -> dict[str, dict]:
    """Configuration name -> overlay, from ablations.toml (package data)."""
    text = resources.files("repotrans.experiments").joinpath("ablations.toml").read_text()
    return tomllib.loads(text)


def configs_for(names: list[str], base: AgentConfig) -> dict[str, AgentConfig]:
    overlays = ablation_overlays()
    unknown = [n for n in names if n not in overlays]
    if unknown:
        raise ConfigError(f"unknown configuration {', '.join(unknown)}", did_you_mean=sorted(overlays))
    return {n: base.overlay(overlays[n]) for n in names}


class Oracle:
    """Judges candidates on the complete port; identical candidates are judged once (timeouts excepted).

    The complete port is named by workload folders: "oracle-index" (its index, over "source" and
    "oracle-target"), and "oracle-runs" (scratch for the runs). A copy sent to another process starts
    with no verdicts and opens its own index.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers                       # tasks judged at once (judge_batch shares their builds)
        self._index: Index | None = None
        self._verdicts: dict[tuple, object] = {}
        self._runners: dict[tuple, Judge] = {}         # (execution config, scratch folder) -> its judge
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the oracle's runners (their sandboxes); it may be used again afterwards."""
        with self._lock:
            runners, self._runners = list(self._runners.values()), {}
        for runner in runners:
            runner.close()

    def _runner(self, ex: ExecutionConfig, scratch: Path) -> Judge:
        with self._lock:
            key = (ex, str(scratch))
            if key not in self._runners:
                self._runners[key] = judge_for(Runner(ex, scratch), self.workers)
            return self._runners[key]

    def __getstate__(self) -> dict:
        return {"workers": self.workers}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state.get("workers", 1))

    def _open(self, dirs: dict[str, Path]) -> Index:
        with self._lock:
            if self._index is None:
                self._index = rerooted_index(dirs, workspace="oracle-index", target="oracle-target")
            return self._index

    def __call__(self, brief, dirs: dict[str, Path]) -> None:
        """Point the brief's test service at the oracle instead of the (masked) index the agents see."""
        index = self._open(dirs)
        method = index.method(brief.task.target_method_id)
        if method is None:
            raise ConfigError(f"{brief.task.target_method_id} is not in the complete port")
        ex = brief.config.execution
        runner = self._runner(ex, dirs["oracle-runs"])
        allow = allowances(index, brief.java_method)

        def run_test(code: str):
            key = (method.id, code, ex.toolchain, ex.sandbox, ex.scope)
            with self._lock:
                if key in self._verdicts:
                    return self._verdicts[key]
            result = runner.run(index, method, code, allow=allow, java=brief.java_method)
            if result.status != "timeout":      # a timeout may be the machine's load: judge it again
                with self._lock:
                    self._verdicts[key] = result
            return result

        brief.services.run_test = run_test


def with_known_failures(config: AgentConfig, ds: Dataset) -> AgentConfig:
    """`config` whose judge leaves out the tests `ds` found failing on its untouched port (as `batch
    --known-failures` does), besides those the configuration names itself (its reason wins), and plans its
    runs from the measured seconds of the dataset's complete port, as its build cached them (judge.baseline)."""
    known = {**ds.fails_before_any_change, **dict(config.execution.known_failures)}
    cache = str(Path(config.cache.root) / CACHE_FOLDER) if config.cache.root else None
    return replace(config, execution=replace(config.execution, known_failures=tuple(sorted(known.items())),
                                             baseline_cache=cache, measured_from=str(ds.target_dir)))


def spread(items: list, limit: int | None) -> list:
    """`limit` items evenly spaced over the list (all of them when limit is None or not smaller):
    a quick run samples every part of a dataset, not only its first type, and the same ones each time."""
    if limit is None or limit >= len(items):
        return list(items)
    return [items[i * len(items) // limit] for i in range(max(0, limit))]


def run_ablation(datasets: list[Path], configs: dict[str, AgentConfig], run_dir: Path, *, jobs: int = 1,
                 limit: int | None = None, progress: bool = True, executor: Executor | None = None) -> RunStore:
    """Every configuration over every dataset; finished (config, dataset, task) rows are skipped.
    `executor` runs the tasks (default: `jobs` threads of this process)."""
    store = RunStore(run_dir)
    store.set_meta("configs", {name: c.to_json() for name, c in configs.items()})
    loaded: list[Dataset] = [load_dataset(d) for d in datasets]
    store.set_meta("datasets", {ds.name: str(ds.root.resolve()) for ds in loaded})
    own_executor = executor is None
    executor = executor or ThreadExecutor(jobs=jobs)
    for ds in loaded:
        here = dataset_folder(run_dir, ds.name)
        view = materialize(ds, here)
        workspace = workdir_of(here)
        index = Index.open(workspace)
        index.build(view.source, view.target, progress=False)
        index.close()
        view.oracle_index.close()
        oracle = Oracle(workers=jobs)
        tasks = [TranslationTask(target_method_id=t.target_method_id, source_method_id=t.source_method_id)
                 for t in spread(ds.tasks, limit)]
        dirs = {"source": view.source, "target": view.target, "workspace": workspace,
                "oracle-index": here / "oracle-index", "oracle-target": ds.target_dir,
                "oracle-runs": here / "oracle-runs"}
        for name, config in configs.items():
            config = with_known_failures(config, ds)
            done = store.done(name, ds.name)
            pending = [t for t in tasks if t.target_method_id.split(":", 1)[1] not in done]
            bar = tqdm(total=len(tasks), initial=len(tasks) - len(pending), desc=f"{name} on {ds.name}",
                       unit="task", disable=not progress)
            work = Workload(dirs=dirs, config=config, config_name=name, dataset=ds.name, adjust=oracle,
                            scratch=("oracle-runs",))
            for rec in executor.run(work, pending, tasks_folder(run_dir, name, ds.name)):
                store.add(rec)
                bar.update()
            bar.close()
        oracle.close()
    if own_executor:
        executor.close()
    (run_dir / "ablation.json").write_text(json.dumps(
        {"datasets": [str(d) for d in datasets], "configs": list(configs), "limit": limit}, indent=2) + "\n")
    return store
