"""The suite's schedule on several workers (tests/support/xdist_schedule.py): every module that starts a Ray
cluster runs in the one `ray-cluster` unit, one after the other, never beside another cluster."""
from __future__ import annotations

from pathlib import Path

from tests.support.xdist_schedule import unit_of

TESTS = Path(__file__).resolve().parent


def test_every_module_starting_a_ray_cluster_is_in_the_ray_unit():
    starting = sorted(p.relative_to(TESTS.parent).as_posix() for p in TESTS.rglob("test_*.py")
                      if "LocalCluster(" in p.read_text(encoding="utf-8") and p.name != Path(__file__).name)
    assert starting and all(unit_of(m) == "ray-cluster" for m in starting), \
        {m: unit_of(m) for m in starting}
