"""Schemata validation in batches against the per-task path, on the sample's real mcs and NUnit."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.experiments.datasets import build_dataset

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


@pytest.mark.slow
def test_batched_verdicts_equal_per_task_and_a_member_a_static_initializer_calls_runs_alone(tmp_path):
    """Vector2D.Zero (a static field) calls the constructor: in a warm process its initializer ran with
    every switch off, so the constructor's placeholder would go unseen. The ground-truth batch sees
    the guard reached inside a static initializer and sends that task to a fresh process."""
    select = ["Acme.Geo.Vector2D.<init>(*)", "Acme.Geo.Vector2D.Dot(*)", "Acme.Geo.Vector2D.Magnitude()",
              "Acme.Geo.Vector2D.Normalize()"]
    found = {}
    for schemata in (True, False):
        out = tmp_path / ("schemata" if schemata else "per-task")
        ds = build_dataset(SAMPLE / "java", SAMPLE / "csharp", out, select=select, progress=False, jobs=2,
                           schemata=schemata)
        found[schemata] = ({t.id for t in ds.tasks}, {d["id"]: d["reason"] for d in ds.dropped})
    assert found[True] == found[False] and len(found[True][0]) == 4
    report = (tmp_path / "schemata" / "report.md").read_text()
    assert "- schemata test runs: 3 batched, 1 switch alone" in report
