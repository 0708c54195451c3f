"""Every answer style real models produce, played through the real HTTP client against the fake server:
each reaches the oracle's result with at most one extra model call, and none crashes the task."""
from __future__ import annotations

import asyncio

import pytest

from repotrans.agents.models import make_client
from repotrans.agents.team import run_translation
from repotrans.verdicts.results import Diagnostic
from repotrans.verdicts.results import TestResult as Result
from tests.support.answer_styles import STYLES, normalise, script
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.agents.test_agents import make_state, schemas  # noqa: F401  (the fake tool schemas fixture)

GOOD = "public double GetArea()\n{\n    return System.Math.PI * radius * radius;\n}"
BAD = "public double GetArea()\n{\n    return System.Math.PI * radius * radius\n}"
POINT = {"tool": "find_target_class_info", "arguments": {"class_name": "Point"}}
STRAIGHT = [
    ("rag_decide", {"retrieve": True, "reason": "uses fields"}),
    ("rag_filter", {"decisions": [{"candidate": 1, "keep": True, "reason": "same"},
                                  {"candidate": 2, "keep": False, "reason": "no"}]}),
    ("context", {"tool": "get_target_class_info", "arguments": {}}),
    ("context", POINT),
    ("context", {"tool": "enough", "reason": "all names known"}),
    ("generate", GOOD),
]
REPAIRED = [
    ("context", {"tool": "enough", "reason": "simple"}),
    ("generate", BAD),
    ("reflect", ("Line 3 lacks a semicolon (CS1002).", [POINT])),
    ("repair", GOOD),
]


class Judge:
    """The tests' verdict: passes exactly the oracle's member (usings/helpers aside), else a CS1002."""

    def __init__(self, services):
        self.services, self.tested = services, []

    def __call__(self, code: str) -> Result:
        self.tested.append(code)
        if normalise(GOOD) in normalise(code) and "DRAFT" not in code:
            return Result(status="passed", tests_run=3)
        return Result(status="compile_error", diagnostics=[
            Diagnostic(code="CS1002", message="; expected", file="Circle.cs", line=12, column=40, candidate_line=3)])


def play(style: str, flow, tmp_path, monkeypatch, **switches):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    state, services = make_state([], **switches)
    judge = Judge(services)
    state.services.run_test = judge
    state.class_members = frozenset({"radius", "Circle", "GetArea"})
    with FakeOpenAIServer(script(STYLES[style], flow)) as server:
        state.config = state.config.overlay({"model": {"name": "local-model", "base_url": server.base_url,
                                                       "cache": False}})
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / style))
    return outcome, outcome.run, services, judge, server


@pytest.mark.parametrize("flow_name", ["straight", "repaired"])
@pytest.mark.parametrize("style", sorted(STYLES))
def test_style_reaches_the_oracle_result(style, flow_name, tmp_path, monkeypatch):
    flow, switches = (STRAIGHT, {}) if flow_name == "straight" else (REPAIRED, {"rag": False})
    want, _, want_services, want_judge, want_server = play("oracle", flow, tmp_path / "o", monkeypatch, **switches)
    got, run, services, judge, server = play(style, flow, tmp_path / "s", monkeypatch, **switches)
    assert got.status == want.status == "passed", (run.notes, judge.tested)
    assert services.tool_calls == want_services.tool_calls
    assert len(judge.tested) == len(want_judge.tested)
    assert normalise(GOOD) in normalise(got.code)
    assert len(server.requests) <= len(want_server.requests) + 1
    assert got.tokens["calls"] <= want.tokens["calls"] + 1
    if style in ("r1", "reasoning_field", "ollama_thinking"):
        assert "DRAFT" not in got.code and "Draft" not in got.code


def test_native_style_sends_tools_after_the_first_tool_call(tmp_path, monkeypatch):
    _, run, _, _, server = play("native", STRAIGHT, tmp_path, monkeypatch)
    tools = [[t["function"]["name"] for t in r.get("tools", [])] for r in server.requests]
    assert run.handoff.native_tools is True
    context = [t for r, t in zip(server.requests, tools) if "# Step: gather" in r["messages"][-1]["content"]]
    assert "enough" in context[-1] and "find_target_class_info" in context[-1]
    assert tools[-1] == ["run_tests"]
    assert any("answers with tool calls" in n for n in run.notes)


def test_declared_function_calling_sends_tools_from_the_first_call(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    state, services = make_state([], rag=False)
    state.services.run_test = Judge(services)
    with FakeOpenAIServer(script(STYLES["native"], STRAIGHT[2:])) as server:
        state.config = state.config.overlay({"model": {"name": "local-model", "base_url": server.base_url,
                                                       "function_calling": True, "cache": False}})
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed"
    first = server.requests[0]
    assert [t["function"]["name"] for t in first["tools"]][-1] == "enough"
    assert first["tools"][0]["function"]["parameters"]["type"] == "object"


def test_json_output_sends_response_format(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    state, services = make_state([], context=False)
    state.services.run_test = Judge(services)
    with FakeOpenAIServer(script(STYLES["oracle"], [STRAIGHT[0], STRAIGHT[1], STRAIGHT[-1]])) as server:
        state.config = state.config.overlay({"model": {"name": "local-model", "base_url": server.base_url,
                                                       "json_output": True, "cache": False}})
        asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert [r.get("response_format") for r in server.requests] == [{"type": "json_object"}] * 2 + [None]


def test_reasoning_is_kept_in_the_trajectory(tmp_path, monkeypatch):
    import json

    play("r1", STRAIGHT, tmp_path, monkeypatch)
    entries = [json.loads(l) for l in (tmp_path / "r1" / "trajectory.jsonl").read_text().splitlines()]
    models = [e for e in entries if e["kind"] == "model"]
    assert all("Braces { } balance" in e["reasoning"] for e in models)
    assert all("<think>" not in e["response"] for e in models)


def test_missing_usage_is_reported_not_zero(tmp_path, monkeypatch):
    got, run, *_ = play("no_usage", STRAIGHT, tmp_path, monkeypatch)
    assert got.tokens["unreported_calls"] == got.tokens["calls"] == 6
    assert any("reported no token usage" in n for n in run.notes)


def test_a_truncated_answer_is_asked_again_with_room(tmp_path, monkeypatch):
    got, run, _, _, server = play("truncated", STRAIGHT, tmp_path, monkeypatch)
    generate = [r for r in server.requests if "# Step: translate" in r["messages"][-1]["content"]]
    assert [r["max_tokens"] for r in generate] == [2048, 4096]
    assert any("cut off at 2048 tokens; asked again with 4096" in n for n in run.notes)


def test_no_choices_twice_is_a_one_line_task_error(tmp_path, monkeypatch):
    from repotrans.errors import TaskError

    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    state, _ = make_state([], rag=False, context=False)
    with FakeOpenAIServer([{"choices": []}, {"choices": []}]) as server:
        state.config = state.config.overlay({"model": {"name": "m", "base_url": server.base_url, "cache": False}})
        with pytest.raises(TaskError) as err:
            asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert "answered without choices" in str(err.value) and "\n" not in str(err.value)


def test_whole_class_additions_are_marked(tmp_path, monkeypatch):
    got, run, *_ = play("whole_class", STRAIGHT, tmp_path, monkeypatch)
    assert run.attempts[-1].additions["shape"] == "class"
    assert run.attempts[-1].additions["dropped"] == ["field radius: already in the class"]
    assert got.additions == {"usings": ["using System;", "using System.Collections.Generic;"], "helpers": [],
                             "dropped": ["field radius: already in the class"], "shape": "class"}


def test_cache_replays_unspent_and_keys_on_family(tmp_path, monkeypatch):
    """A rerun replays every answer from the response cache (0 tokens spent, calls counted as cached);
    changing anything that changes how answers are read (here the family) asks the server again."""
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    cache = tmp_path / "cache.sqlite"
    runs = []
    with FakeOpenAIServer(script(STYLES["oracle"], STRAIGHT) * 2) as server:
        for n, family in enumerate(("unknown", "unknown", "r1")):
            state, services = make_state([])
            state.services.run_test = Judge(services)
            state.config = state.config.overlay({"model": {"name": "m", "base_url": server.base_url,
                                                           "family": family}})
            before = len(server.requests)
            outcome = asyncio.run(run_translation(state, make_client(state.config, cache_path=cache), tmp_path / str(n)))
            runs.append((outcome, len(server.requests) - before))
    (first, sent1), (second, sent2), (third, sent3) = runs
    assert (sent1, sent2, sent3) == (6, 0, 6)
    assert second.tokens["prompt"] == 0 and second.tokens["cached_calls"] == second.tokens["calls"] == 6
    assert second.tokens["replayed_prompt"] == first.tokens["prompt"] > 0 and second.code == first.code
    assert third.tokens["cached_calls"] == 0


def test_a_server_refusing_tools_falls_back_to_the_text_protocol(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    state, services = make_state([], rag=False)
    state.services.run_test = Judge(services)
    with FakeOpenAIServer(script(STYLES["oracle"], STRAIGHT[2:]), refuse_tools=True) as server:
        state.config = state.config.overlay({"model": {"name": "gemma:2b", "base_url": server.base_url,
                                                       "function_calling": True, "cache": False}})
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed" and server.statuses == [400] + [200] * 4
    assert outcome.run.handoff.native_tools is False and not any("tools" in r for r in server.requests[1:])
    assert any("refuses tools" in n for n in outcome.run.notes)
