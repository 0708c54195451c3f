"""The Ray driver builds the pair store through a run context (runs.workload.prepare_retrieval), not
by re-opening the index, mapping and retriever itself; the nodes find it built."""
from __future__ import annotations

from repotrans.agents.config import AgentConfig
from repotrans.agents.workdir import RunCaches
from repotrans.runs.workload import Workload, prepare_retrieval
from repotrans.index.store import Index
from tests.support.sample_masking import SAMPLE


def test_the_pair_store_is_built_once_through_the_run_context(tmp_path):
    workspace = tmp_path / "wd"
    index = Index.open(workspace)
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    index.close()
    config = AgentConfig().overlay({"model": {"name": "builtin"}, "execution": {"sandbox": "local"},
                                    "cache": {"root": str(tmp_path / "cache")}})
    work = Workload(dirs={"source": SAMPLE / "java", "target": SAMPLE / "csharp", "workspace": workspace},
                    config=config, config_name="c", dataset="d")
    caches = RunCaches()
    prepare_retrieval(work, caches)
    stores = sorted(p.name for p in (workspace / "retrieval").rglob("*") if p.is_dir())
    assert any(name.startswith("pair") for name in stores), stores
    assert caches.models._loaded, "the run's LoadedModels holds the encoder's model"
    assert (tmp_path / "cache").is_dir()                            # the [cache] root's embeddings
    prepare_retrieval(work, caches)                                 # again: the index was closed, reopens
