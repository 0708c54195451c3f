"""Limits on model calls shared by many tasks: a cap on calls in flight and a common pause after a 429.

A `CallLimiter` is shared by every task of a run: `LocalLimiter` by the threads of one process, a Ray
actor (runs.ray_executor) by every node of a cluster. `LimitedClient` wraps a chat client:
each call holds a slot; a rate-limit answer (HTTP 429, after the SDK's own retries) pauses every
caller for a while, and each caller then waits a random extra share of it, so that they do not all
come back at the same instant.
"""
from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any, AsyncGenerator, Mapping, Protocol, Sequence

from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, ModelInfo, RequestUsage

RATE_LIMIT_RETRIES = 6
BASE_DELAY = 1.0          # seconds, doubled after each 429 of the same call
MAX_DELAY = 60.0
POLL = 0.02


class CallLimiter(Protocol):
    async def acquire(self) -> None:
        """Wait for a free slot (and for the end of any common pause)."""
        ...

    async def release(self) -> None:
        ...

    async def pause(self, seconds: float) -> None:
        """Every caller waits `seconds` from now before its next call, and then a random share of
        half of it more: after the pause they come back one by one, not all at once."""
        ...


def backoff(attempt: int, retry_after: float | None) -> float:
    """The common pause after the `attempt`-th 429 of a call: the server's Retry-After, else
    exponential, stretched by up to half at random (never shorter than what the server asked)."""
    delay = retry_after if retry_after is not None else min(MAX_DELAY, BASE_DELAY * 2 ** attempt)
    return delay * random.uniform(1.0, 1.5)


class LocalLimiter:
    """A limiter for the threads (and their event loops) of one process; `cap` None = no cap."""

    def __init__(self, cap: int | None = None):
        if cap is not None and cap < 1:
            raise ValueError("the cap on model calls must be at least 1")
        self.cap = cap
        self.in_flight = 0
        self.peak = 0
        self._until, self._spread = 0.0, 0.0
        self._lock = threading.Lock()

    def _take(self) -> bool:
        """A slot, if there is one and no pause is on (call with the lock held)."""
        if self._until > time.monotonic() or (self.cap is not None and self.in_flight >= self.cap):
            return False
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        return True

    async def acquire(self) -> None:
        while True:
            with self._lock:
                if self._take():
                    return
                wait, spread = self._until - time.monotonic(), self._spread
            if wait <= 0:
                await asyncio.sleep(POLL)
                continue
            await asyncio.sleep(wait + random.uniform(0, spread))   # the pause, then our own share
            with self._lock:
                if self._take():
                    return

    async def release(self) -> None:
        with self._lock:
            self.in_flight -= 1

    async def pause(self, seconds: float) -> None:
        with self._lock:
            if time.monotonic() + seconds > self._until:
                self._until, self._spread = time.monotonic() + seconds, seconds / 2


def is_rate_limited(exc: BaseException) -> bool:
    return getattr(exc, "status_code", None) == 429


def retry_after(exc: BaseException) -> float | None:
    """Seconds from the answer's Retry-After header, when it has one in seconds."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    try:
        return float(headers.get("retry-after"))
    except (TypeError, ValueError):
        return None


class LimitedClient(ChatCompletionClient):
    """`inner` with each create() holding a limiter slot, and retried after a 429 with a common pause."""

    def __init__(self, inner: ChatCompletionClient, limiter: CallLimiter, retries: int = RATE_LIMIT_RETRIES):
        self.inner, self.limiter, self.retries = inner, limiter, retries

    async def create(self, messages: Sequence[LLMMessage], **kwargs: Any) -> CreateResult:
        for attempt in range(self.retries + 1):
            await self.limiter.acquire()
            try:
                return await self.inner.create(messages, **kwargs)
            except Exception as exc:
                if not is_rate_limited(exc) or attempt == self.retries:
                    raise
                await self.limiter.pause(backoff(attempt, retry_after(exc)))
            finally:
                await self.limiter.release()
        raise AssertionError("unreachable")

    def create_stream(self, messages: Sequence[LLMMessage], **kwargs: Any
                      ) -> AsyncGenerator[str | CreateResult, None]:
        return self._stream(messages, **kwargs)

    async def _stream(self, messages, **kwargs):
        await self.limiter.acquire()
        try:
            async for chunk in self.inner.create_stream(messages, **kwargs):
                yield chunk
        finally:
            await self.limiter.release()

    async def close(self) -> None:
        await self.inner.close()

    def actual_usage(self) -> RequestUsage:
        return self.inner.actual_usage()

    def total_usage(self) -> RequestUsage:
        return self.inner.total_usage()

    def count_tokens(self, messages: Sequence[LLMMessage], **kwargs: Any) -> int:
        return self.inner.count_tokens(messages, **kwargs)

    def remaining_tokens(self, messages: Sequence[LLMMessage], **kwargs: Any) -> int:
        return self.inner.remaining_tokens(messages, **kwargs)

    @property
    def capabilities(self) -> Mapping[str, Any]:   # deprecated in autogen, still abstract
        return self.inner.capabilities

    @property
    def model_info(self) -> ModelInfo:
        return self.inner.model_info
