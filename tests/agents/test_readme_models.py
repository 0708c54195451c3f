"""The README's three model settings examples (Ollama, vLLM, a hosted API), each driven against a fake
server that answers as that kind of endpoint does."""
from __future__ import annotations

import asyncio
import re
import tomllib
from pathlib import Path

import pytest

from repotrans.agents.config import AgentConfig
from repotrans.agents.models import make_client
from repotrans.agents.team import run_translation
from tests.support.answer_styles import STYLES, script
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.agents.test_agents import make_state, schemas  # noqa: F401  (the fake tool schemas fixture)
from tests.agents.test_answer_styles import STRAIGHT, Judge

README = Path(__file__).resolve().parents[2] / "README.md"


def examples() -> dict[str, dict]:
    section = README.read_text().split("### Model settings", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"^([^\n]*)\n```toml\n(.*?)```", section, re.M | re.S)
    return {head.split()[0].strip("`("): tomllib.loads(body)["model"] for head, body in blocks}


def test_readme_has_the_three_examples():
    found = examples()
    assert set(found) == {"Ollama", "vLLM", "A"}
    assert found["Ollama"]["function_calling"] is True and found["vLLM"]["family"] == "r1"


@pytest.mark.parametrize("name, style", [("Ollama", "native"), ("vLLM", "reasoning_field"), ("A", "r1")])
def test_readme_example_translates(name, style, tmp_path, monkeypatch):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    model = dict(examples()[name])
    state, services = make_state([])
    state.services.run_test = Judge(services)
    with FakeOpenAIServer(script(STYLES[style], STRAIGHT), prefix_cache=64, window=32768, models=name == "vLLM") as server:
        model["base_url"] = server.base_url
        state.config = AgentConfig().overlay({"model": model})
        outcome = asyncio.run(run_translation(state, make_client(state.config, cache_path=tmp_path / "c.sqlite"),
                                              tmp_path / "run"))
    assert outcome.status == "passed" and outcome.tokens["calls"] == len(server.requests) == 6
    assert server.requests[0]["model"] == model["name"]
    if name == "Ollama":
        assert all("tools" in r for r in server.requests[2:])
        assert server.requests[0]["response_format"] == {"type": "json_object"}
    else:
        assert server.requests[-1]["max_tokens"] == 8192
    assert outcome.tokens["server_cached_prompt"] > 0       # the stable system message is a shared prefix
