"""A dataset build's overlapped sections switch threads at least every INTERVAL, and leave the interpreter's
interval as they found it."""
from __future__ import annotations

import sys

from repotrans.datasets.overlap import INTERVAL, overlapping


def test_the_interval_is_short_inside_and_restored_after():
    before = sys.getswitchinterval()
    assert before > INTERVAL
    with overlapping():
        assert sys.getswitchinterval() <= INTERVAL
    assert sys.getswitchinterval() == before
