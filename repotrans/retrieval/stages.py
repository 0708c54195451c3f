"""Where a retrieval's time goes: wall and CPU time of each stage of opening the stores and querying.

The retrieval code wraps its stages (`with stage("read the index"):`). A caller that wants to know
where the time went opens `with recording() as log:` around its retrieval; the stages started inside
(in this context: threads a stage starts do not inherit it) land in `log`, in the order they started, with their nesting depth, so a
benchmark can print where the time of a first retrieval went beside the total. Outside a recording a
stage costs nothing but a context-variable read; nothing is kept per process.
"""
from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StageTime:
    name: str
    depth: int              # 0: a top-level stage; 1: inside one; ...
    wall: float             # seconds
    cpu: float              # seconds of this process's CPU (all threads)


@dataclass
class StageLog:
    """The stages recorded by one recording(), in the order they started (a stage before its inner ones)."""
    records: list[StageTime] = field(default_factory=list)
    depths: dict[int, int] = field(default_factory=dict)     # thread -> its current nesting depth
    lock: threading.Lock = field(default_factory=threading.Lock)


_LOG: contextvars.ContextVar[StageLog | None] = contextvars.ContextVar("repotrans_stage_log", default=None)


@contextmanager
def recording() -> Iterator[StageLog]:
    """Record the stages started inside the block into a fresh StageLog."""
    log = StageLog()
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Record the wall and CPU time of the block under `name` (when a recording is open)."""
    log = _LOG.get()
    if log is None:
        yield
        return
    thread = threading.get_ident()
    with log.lock:
        depth, slot = log.depths.get(thread, 0), len(log.records)
        log.depths[thread] = depth + 1
        log.records.append(StageTime(name, depth, float("nan"), float("nan")))   # start order: parents first
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        with log.lock:
            log.depths[thread] = depth
            log.records[slot] = StageTime(name, depth, time.perf_counter() - wall, time.process_time() - cpu)


def report(records: list[StageTime]) -> str:
    """One line per stage, indented by depth."""
    return "\n".join(f"{'  ' * r.depth}{r.name}: {r.wall:.2f} s wall, {r.cpu:.2f} s CPU" for r in records)
