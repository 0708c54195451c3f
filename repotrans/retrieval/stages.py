"""Where a retrieval's time goes: wall and CPU time of each stage of opening the stores and querying.

The retrieval code wraps its stages (`with stage("read the index"):`); the records are kept per
process, in order, with their nesting depth, so a benchmark can print where the time of a first
retrieval went (`recorded()`) beside the total. Recording costs two clock reads per stage.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class StageTime:
    name: str
    depth: int              # 0: a top-level stage; 1: inside one; ...
    wall: float             # seconds
    cpu: float              # seconds of this process's CPU (all threads)


_RECORDS: list[StageTime] = []
_DEPTH = threading.local()
_LOCK = threading.Lock()


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Record the wall and CPU time of the block under `name`."""
    depth = getattr(_DEPTH, "value", 0)
    _DEPTH.value = depth + 1
    with _LOCK:
        slot = len(_RECORDS)
        _RECORDS.append(StageTime(name, depth, float("nan"), float("nan")))   # start order: parents first
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        _DEPTH.value = depth
        _RECORDS[slot] = StageTime(name, depth, time.perf_counter() - wall, time.process_time() - cpu)


def recorded() -> list[StageTime]:
    """The stages recorded so far in this process, in the order they started (a stage before its inner ones)."""
    with _LOCK:
        return list(_RECORDS)


def report(records: list[StageTime]) -> str:
    """One line per stage, indented by depth."""
    return "\n".join(f"{'  ' * r.depth}{r.name}: {r.wall:.2f} s wall, {r.cpu:.2f} s CPU" for r in records)
