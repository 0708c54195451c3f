"""The run context of one workload: built once by the CLI or the experiment, passed down to every task.

A `Workdir` holds what the tasks of a workload share: the folder (its index.sqlite, retrieval/ and
runs/), the open index, the mapping over it (with the user's overrides), the judge that runs the
tests, the tools' lookups over that index and mapping, and the retriever opened over them on first
use. A layer below takes this object, never a path to open again: retrieval no longer re-opens the
index, re-fingerprints it and reloads the mapping its caller already holds.

`RunCaches` is what a run keeps across its workloads (an executor builds one and hands it to each
workload's Workdir): the loaded embedding models and what was learned about the model servers.
Nothing is cached per process (no module-level state: tests/test_layers.py checks it).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.mapping.overrides import MappingOverrides
from repotrans.retrieval.settings import RetrievalConfig

if TYPE_CHECKING:
    from repotrans.agents.window import ServerBook
    from repotrans.execution.judge.protocol import Judge
    from repotrans.retrieval.encoders import LoadedModels
    from repotrans.retrieval.retriever import Retriever
    from repotrans.tools.context import Lookups

RUNS_DIR = "runs"              # workdir/runs/<time>-<member>: one translate command's trajectory


def _models() -> "LoadedModels":
    from repotrans.retrieval.encoders import LoadedModels
    return LoadedModels()


def _servers() -> "ServerBook":
    from repotrans.agents.window import ServerBook
    return ServerBook()


@dataclass(eq=False)
class RunCaches:
    """What the workloads of one run share in memory, built once by whoever runs them (the CLI
    command, an executor, a Ray node) and passed to each Workdir."""
    models: "LoadedModels" = field(default_factory=_models)      # embedding models, loaded once
    servers: "ServerBook" = field(default_factory=_servers)      # each model server's window and speed
    # set when the run is interrupted: its embedding loops stop after the batch under way
    stop: threading.Event = field(default_factory=threading.Event)


@dataclass(eq=False)
class Workdir:
    """One workload's run context (see the module docstring). The index and the judge stay the
    caller's to close; the retriever is this object's."""
    root: Path                                   # the folder holding index.sqlite
    index: object                                # index.store.Index, open
    mapping: object                              # mapping.model.Mapping over `index`
    judge: "Judge"
    overrides: MappingOverrides | None = None    # what `mapping` was loaded with
    caches: RunCaches = field(default_factory=RunCaches)    # the run's (one of its own when not given)
    lookups: "Lookups | None" = None             # the tools' lookups over `mapping` (made when not given)
    _retrievers: dict[tuple, "Retriever"] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.lookups is None:
            from repotrans.tools.context import Lookups
            self.lookups = Lookups(self.mapping)

    @property
    def runs(self) -> Path:
        return self.root / RUNS_DIR

    def retriever(self, settings: RetrievalConfig, cache_dir: Path | None) -> "Retriever":
        """The pair/name stores over this index and mapping, opened once per settings (by one thread
        while the others wait); the index's fingerprint is computed once, for the per-machine caches."""
        from repotrans.mapping.mapping_cache import fingerprint
        from repotrans.retrieval.encoders import make_encoder
        from repotrans.retrieval.retriever import Retriever
        from repotrans.retrieval.stages import stage

        key = (settings.embedding_model, settings.backend, settings.threads, settings.pool, str(cache_dir))
        with self._lock:
            if key not in self._retrievers:
                with stage("fingerprint the index"):
                    state = fingerprint(self.index, self.overrides)
                encoder = make_encoder(settings.embedding_model, settings.backend, threads=settings.threads,
                                       cache_dir=cache_dir, models=self.caches.models)
                self._retrievers[key] = Retriever.open(self.root, index=self.index, mapping=self.mapping,
                                                       encoder=encoder, cache_dir=cache_dir, progress=False,
                                                       pool=settings.pool, overrides=self.overrides,
                                                       index_state=state, stop=self.caches.stop)
            return self._retrievers[key]
