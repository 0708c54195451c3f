"""How `pytest -n N` (pytest-xdist) shares the suite among its workers: a whole test module per work
unit, so a module's fixtures (built sample pairs, warm sandboxes, a Ray cluster) are built once, in one
worker, as in a serial run; modules that share a machine-wide resource run in one unit, one after the
other; and the longest modules are handed out first, so that no worker starts one near the end.
"""
from __future__ import annotations

from collections import OrderedDict

from xdist.scheduler import LoadScopeScheduling

# modules run one after the other in one worker: each starts a two-node Ray cluster (two raylets,
# a GCS and their workers); two at once on a small machine starve each other's health checks
GROUPS = {
    "tests/runs/test_ray_executor.py": "ray-cluster",
    "tests/runs/test_ray_settings.py": "ray-cluster",
    "tests/runs/test_ray_validation.py": "ray-cluster",
}

# the longest units of a serial run (`--durations`), longest first; only the order of hand-out
# depends on this list (a missing or stale name only makes the run's tail longer)
LONGEST_FIRST = [
    "ray-cluster",
    "tests/cli/test_relocation.py",          # the README's main job in a copy elsewhere: one long test
    "tests/runs/test_batch_attacks.py",
    "tests/runs/test_batch.py",
]


def unit_of(nodeid: str) -> str:
    """The work unit of a test: its module's group, or its module."""
    module = nodeid.split("::", 1)[0]
    return GROUPS.get(module, module)


class ModuleScheduling(LoadScopeScheduling):
    """LoadScopeScheduling by module (never by class) and group, the longest units first."""

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self._ordered = False

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)

    def _assign_work_unit(self, node) -> None:
        if not self._ordered:             # the queue is complete from the first hand-out on
            rank = {unit: i for i, unit in enumerate(LONGEST_FIRST)}
            ordered = sorted(self.workqueue.items(), key=lambda kv: (rank.get(kv[0], len(rank)), -len(kv[1])))
            self.workqueue = OrderedDict(ordered)
            self._ordered = True
        super()._assign_work_unit(node)
