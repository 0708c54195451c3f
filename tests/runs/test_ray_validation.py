"""`dataset build --executor ray` on a real two-node cluster on this machine (head + `ray start --address`
worker, tests/support/ray_cluster.py): the baseline runs on a node and is cached on the head, the tasks are
validated on both nodes, and the dataset is the thread executor's, task by task."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from repotrans.datasets.build import build_dataset  # noqa: E402
from repotrans.execution.judge.baseline import BaselineCache  # noqa: E402
from repotrans.execution.settings import ExecutionConfig  # noqa: E402
from repotrans.runs.ray_validation import RayValidator  # noqa: E402
from tests.support.mono_repos import needs_mono  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from ray_cluster import LocalCluster  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"
SELECT = ["Acme.Common.StringUtils.*", "Acme.Geo.GeometryMath.Clamp(*)", "Acme.Geo.GeometryMath.ToRadians(*)"]

pytestmark = pytest.mark.slow


def test_a_dataset_validated_on_two_nodes_is_the_thread_executors(tmp_path):
    needs_mono()
    target = tmp_path / "csharp"
    shutil.copytree(SAMPLE / "csharp", target, ignore=shutil.ignore_patterns("bin", "obj"))
    utils = target / "src" / "Acme.Geo" / "Common" / "StringUtils.cs"        # a test failing before any change
    utils.write_text(utils.read_text().replace("sb.Append(text);", "sb.Append(text).Append(text);"))
    here = build_dataset(SAMPLE / "java", target, tmp_path / "thread", select=SELECT, progress=False, jobs=2,
                         cache_root=tmp_path / "cache-thread")
    told: list[str] = []
    with LocalCluster(head_cpus=1, worker_cpus=1) as cluster:
        validator = RayValidator(cluster.address)
        try:
            assert len(validator._nodes()) == 2
            there = build_dataset(SAMPLE / "java", target, tmp_path / "ray", select=SELECT, progress=False,
                                  cache_root=tmp_path / "cache-ray", validator=validator)
            base = validator.baseline(target, ExecutionConfig(sandbox="local"),
                                      BaselineCache.under(tmp_path / "cache-ray"), 600, told.append)
        finally:
            validator.close()
    assert [t.id for t in there.tasks] == [t.id for t in here.tasks] and len(here.tasks) >= 6
    assert there.dropped == here.dropped
    assert there.fails_before_any_change == here.fails_before_any_change and len(here.fails_before_any_change) == 1
    assert any((tmp_path / "cache-ray" / "baselines").glob("*.json"))      # computed on a node, cached here
    assert told == ["baseline: 1 of 1 test assemblies unchanged (cached)"] and base.known_failures

