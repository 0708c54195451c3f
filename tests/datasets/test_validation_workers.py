"""Dataset validation spreads its runs over every test process the build may run at once (datasets.validation.
spread): most of its runs are placeholders failing in a first run that goes alone, so one worker of two test
processes left a core idle."""
from __future__ import annotations

from repotrans.datasets.validation import spread
from repotrans.execution.toolchains import Limits


def test_every_test_process_is_a_worker_running_one_process():
    limits = Limits(timeout=60, memory_mb=512, test_processes=2)
    workers, single = spread(1, limits)
    assert (workers, single.test_processes) == (2, 1)
    assert single.timeout == 60 and single.memory_mb == 512         # nothing else changes
    assert spread(2, Limits(timeout=60, memory_mb=512, test_processes=1))[0] == 2
    assert spread(0, Limits(timeout=60, memory_mb=512, test_processes=0))[0] == 1
