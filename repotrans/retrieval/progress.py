"""Progress of an embedding run: a tqdm bar on a terminal, plain lines in a log.

A bar redraws itself with carriage returns, which a piped log (`2> run.log`, a batch's captured
stderr) keeps as one endless line of frames. When the stream is not a terminal, progress is
instead one plain line every PLAIN_EVERY_S seconds (done, total, rate, ETA) and one at the end.
"""
from __future__ import annotations

import sys
import time
from typing import IO, Protocol

from tqdm import tqdm

PLAIN_EVERY_S = 15.0


class Progress(Protocol):
    def update(self, n: int) -> None: ...

    def close(self) -> None: ...


class PlainProgress:
    """Progress as whole lines, at most one per `every` seconds (and the last one on close)."""

    def __init__(self, total: int, desc: str, stream: IO[str], every: float | None = None):
        self.total, self.desc, self.stream = total, desc, stream
        self.every = PLAIN_EVERY_S if every is None else every
        self.done = 0
        self.start = self.last = time.monotonic()

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.every and self.done < self.total:
            self.last = now
            rate = self.done / max(now - self.start, 1e-9)
            eta = (self.total - self.done) / rate if rate else float("inf")
            self._line(f"{self.done}/{self.total} ({100 * self.done // max(self.total, 1)}%), "
                       f"{rate:.1f}/s, ETA {eta:.0f} s")

    def close(self) -> None:
        if self.done:
            self._line(f"{self.done}/{self.total} in {time.monotonic() - self.start:.1f} s")

    def _line(self, text: str) -> None:
        try:
            self.stream.write(f"{self.desc}: {text}\n")
            self.stream.flush()
        except (OSError, ValueError):           # a closed or broken log never stops embedding
            pass


def progress_bar(total: int, desc: str, enabled: bool = True, stream: IO[str] | None = None) -> Progress:
    """A tqdm bar when `stream` (stderr by default) is a terminal, plain lines otherwise; nothing
    when not `enabled`."""
    stream = stream if stream is not None else sys.stderr
    if not enabled:
        return tqdm(total=total, disable=True)
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        return tqdm(total=total, desc=desc, unit="snippet", leave=False, file=stream)
    return PlainProgress(total, desc, stream)
