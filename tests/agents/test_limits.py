"""The shared limits on model calls, over real HTTP to a fake OpenAI-compatible server."""
import asyncio
import sys
from pathlib import Path

import pytest
from autogen_core.models import ModelInfo, UserMessage
from autogen_ext.models.openai import OpenAIChatCompletionClient

from repotrans.agents import limits
from repotrans.agents.limits import LimitedClient, LocalLimiter, backoff

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from fake_openai_server import FakeOpenAIServer  # noqa: E402

INFO = ModelInfo(vision=False, function_calling=False, json_output=False, family="unknown",
                 structured_output=False)


def _client(server: FakeOpenAIServer) -> OpenAIChatCompletionClient:
    return OpenAIChatCompletionClient(model="fake", base_url=server.base_url, api_key="x", model_info=INFO,
                                      max_retries=0)


async def _calls(client, n: int) -> list[str]:
    results = await asyncio.gather(*(client.create([UserMessage(content=f"q{i}", source="user")])
                                     for i in range(n)))
    return [r.content for r in results]


def test_the_cap_holds_calls_in_flight_across_threads_and_loops():
    limiter = LocalLimiter(cap=3)
    with FakeOpenAIServer(["ok"], latency=0.2, repeat=True) as server:
        def one_thread() -> list[str]:
            return asyncio.run(_calls(LimitedClient(_client(server), limiter), 4))

        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(2) as pool:
            answers = [a for batch in pool.map(lambda _: one_thread(), range(2)) for a in batch]
    assert answers == ["ok"] * 8
    assert limiter.peak == 3 and limiter.in_flight == 0


def test_a_429_pauses_every_caller_and_the_retries_spread_out(monkeypatch):
    monkeypatch.setattr(limits, "BASE_DELAY", 0.4)
    limiter = LocalLimiter(cap=None)
    with FakeOpenAIServer(["ok"], fail_first=6, fail_status=429, repeat=True) as server:
        answers = asyncio.run(_calls(LimitedClient(_client(server), limiter), 6))
        statuses, arrivals = list(server.statuses), list(server.arrivals)
    assert answers == ["ok"] * 6
    assert statuses[:6] == [429] * 6 and statuses[6:] == [200] * 6
    first, retries = arrivals[:6], sorted(arrivals[6:])
    assert retries[0] - max(first) >= 0.4                    # nobody came back before the common pause
    assert retries[-1] - retries[0] >= 0.05                  # and they did not all come back at once


def test_a_call_that_keeps_getting_429_gives_up_with_the_error(monkeypatch):
    monkeypatch.setattr(limits, "BASE_DELAY", 0.01)
    with FakeOpenAIServer(["ok"], fail_first=100, fail_status=429) as server:
        client = LimitedClient(_client(server), LocalLimiter(), retries=2)
        with pytest.raises(Exception) as err:
            asyncio.run(_calls(client, 1))
        assert len(server.requests) == 3
    assert getattr(err.value, "status_code", None) == 429


def test_backoff_honours_retry_after_and_grows_without_it():
    assert all(5.0 <= backoff(0, 5.0) <= 7.5 for _ in range(50))
    assert all(limits.BASE_DELAY * 4 <= backoff(2, None) <= limits.BASE_DELAY * 6 for _ in range(50))
    with pytest.raises(ValueError):
        LocalLimiter(cap=0)
