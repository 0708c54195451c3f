"""What a batch shows while it runs: a bar on a terminal (blocked and errors counted apart), one plain
line per finished task in a log, the phases after the last task, and Ctrl-C answered at once."""
from __future__ import annotations

import os
import signal
import sys
import threading
from collections import Counter
from typing import Callable, TextIO

from tqdm import tqdm

from repotrans.verdicts.status import BLOCKED, ERROR, PARTIAL, PASSED
from repotrans.runs.store import TaskRecord


def outcome_of(rec: TaskRecord) -> str:
    """passed | partial | blocked | error | failed: how a finished task is counted while the batch runs."""
    return rec.status if rec.status in (PASSED, PARTIAL, BLOCKED, ERROR) else "failed"


class BatchProgress:
    """A bar when `stream` is a terminal, else one line per task; nothing at all when not `enabled`
    (phase lines still go out unless `quiet`)."""

    def __init__(self, total: int, done: list[TaskRecord], *, enabled: bool = True, quiet: bool = False,
                 stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.enabled, self.quiet = enabled, quiet
        self.tty = enabled and self.stream.isatty()
        self.total, self.n = total, len(done)
        self.counts: Counter = Counter(outcome_of(r) for r in done)
        self.bar = tqdm(total=total, initial=self.n, desc="translating", unit="task", file=self.stream,
                        disable=not self.tty, dynamic_ncols=True)
        self._postfix()

    def add(self, rec: TaskRecord) -> None:
        self.n += 1
        self.counts[outcome_of(rec)] += 1
        if self.tty:
            self.bar.update()
            self._postfix()
        elif self.enabled:
            self._line(f"[{self.n}/{self.total}] {rec.status:<13} {rec.task_id}")

    def say(self, text: str) -> None:
        """A phase line ("re-judging ...", "whole suite ...")."""
        if self.quiet:
            return
        if self.tty:
            self.bar.write(text, file=self.stream)
        else:
            self._line(text)

    def close(self) -> None:
        self.bar.close()

    def _postfix(self) -> None:
        c = self.counts
        self.bar.set_postfix_str(f"passed {c['passed']}, failed {c['failed']}, blocked {c['blocked']}, "
                                 f"errors {c['error']}", refresh=True)

    def _line(self, text: str) -> None:
        print(text, file=self.stream, flush=True)


class StopRequest:
    """Within `with StopRequest(...)`: the first Ctrl-C prints a line at once and sets `requested` (the
    batch finishes the tasks in hand, keeps them and stops); a second one aborts (KeyboardInterrupt).
    Only the main thread can take signals; elsewhere this does nothing."""

    def __init__(self, message: str = "finishing the current task; Ctrl-C again aborts",
                 write: Callable[[str], None] | None = None):
        self.message = message
        self.requested = False
        self._write = write or (lambda text: os.write(sys.stderr.fileno(), text.encode()))
        self._old = None

    def __enter__(self) -> "StopRequest":
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def _handle(self, signum, frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        self._write(f"\nrepotrans: {self.message}\n")
