"""Small local models degrade gracefully, against the fake OpenAI server: a model that answers the same
way at temperature 0 is never sent the same request twice in a step and its step ends early with the
reason; a model that answers code where JSON was asked is told exactly that, and after two unusable
answers each optional step takes its deterministic default (recorded in the trajectory); a code answer
in a planning step is the generate step's draft."""
from __future__ import annotations

import asyncio
import json

import pytest
from autogen_core import CancellationToken

from repotrans.agents.base import StepAgent
from repotrans.agents.models import make_client
from repotrans.agents.progress import RepeatedRequest, answer_kind, wrong_kind
from repotrans.agents.team import run_translation
from repotrans.agents.trajectory import Trajectory
from tests.agents.test_agents import GOOD, call, make_state, passed, schemas  # noqa: F401 (fixture)
from tests.agents.test_model_limits import local
from tests.support.fake_openai_server import FakeOpenAIServer

GENERATE = "# Step: translate the method"
PLANNING = ("# Step: decide whether to retrieve", "# Step: keep or drop", "# Step: gather repository context")


def step_of(request: dict) -> str:
    return next(m["content"] for m in request["messages"] if m["role"] == "user").split("\n", 1)[0]


def entries(run_dir) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "trajectory.jsonl").read_text().splitlines()]


def translate(server, state, tmp_path):
    local(server, state)
    return asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))


def test_a_model_answering_identically_at_temperature_0_is_never_sent_the_same_request_twice(tmp_path):
    """The model names the same tool whatever it is told. In a 1,800-token window the correction
    turns are cut, so the third correction would resend the second request word for word."""
    def model(body):        # temperature 0: the same answer to every request of a step
        return GOOD if step_of(body).startswith(GENERATE) else call("get_target_class_info")

    state, services = make_state([passed()], rag=False)
    with FakeOpenAIServer(responder=model, window=1800) as server:
        outcome = translate(server, state, tmp_path)
    answered = [r for r, s in zip(server.requests, server.statuses) if s == 200]
    sent = [(step_of(r), json.dumps(r["messages"]), r["max_tokens"]) for r in answered]
    assert len(sent) == len(set(sent))                                   # nothing sent twice
    steps = [e["step"] for e in entries(tmp_path / "run") if e["kind"] == "model"]
    assert steps == ["context"] * 3 + ["generate"]                       # was 8 context calls: the limit
    stop = next(e for e in entries(tmp_path / "run") if e["kind"] == "agent_done" and e["agent"] == "context")
    assert "no progress (2 unusable answers in a row, the last: get_target_class_info({}) was already called" \
        in stop["summary"]
    assert outcome.status == "passed" and outcome.progress["fallbacks"][0]["step"] == "context"


def test_a_request_already_answered_in_a_step_is_not_sent_again(tmp_path):
    state, _ = make_state([passed()])

    class Probe(StepAgent):
        async def steps(self, ct):
            yield "probe"

    with FakeOpenAIServer(["first answer"], repeat=True) as server:
        local(server, state)
        agent = Probe("probe", "asks twice", state, make_client(state.config), Trajectory(tmp_path / "run"))
        messages = agent.messages("the same prompt")

        async def ask_twice(step_two: str):
            await agent.ask("context", messages, CancellationToken())
            await agent.ask(step_two, messages, CancellationToken())

        with pytest.raises(RepeatedRequest) as err:
            asyncio.run(ask_twice("context"))
        assert len(server.requests) == 1 and "call 1 of the step" in str(err.value)
        asyncio.run(agent.ask("generate", messages, CancellationToken()))      # another step may ask it
        assert len(server.requests) == 2
    assert agent.ledger.to_json()["identical_requests_avoided"] == 1


def test_a_model_that_always_answers_code_is_told_so_and_every_optional_step_falls_back(tmp_path):
    state, services = make_state([passed()])
    with FakeOpenAIServer([GOOD], repeat=True) as server:
        outcome = translate(server, state, tmp_path)
    steps = [step_of(r) for r in server.requests]
    assert len(steps) == 7                           # 2 per JSON step, then generate (was 3 + 3 + 8 + 1)
    corrections = [r["messages"][-1]["content"] for r in server.requests if len(r["messages"]) > 2]
    assert len(corrections) == 3 and all(c.startswith("Your answer was not usable: your answer is code, but this "
                                                      "step does not write the translation") for c in corrections)
    assert not any("valid JSON" in c for c in corrections)
    fallbacks = [e for e in entries(tmp_path / "run") if e["kind"] == "fallback"]
    assert [(f["step"], f["default"]) for f in fallbacks] == [
        ("rag_decide", "retrieval by the fused ranking"), ("rag_filter", "the top 2 of the fused ranking"),
        ("context", "the tools' deterministic plan")]
    assert services.retrieved == 1 and len(outcome.run.handoff.examples) == 2
    assert [c[0] for c in services.tool_calls] == ["get_source_class_info", "get_target_class_info",
                                                   "find_target_imports"]
    assert outcome.status == "passed" and len(outcome.progress["fallbacks"]) == 3


def test_code_a_planning_step_wrote_is_the_draft_when_generate_answers_without_code(tmp_path):
    def model(body):
        return GOOD if step_of(body).startswith(PLANNING) else "I would translate it with Math.PI."

    state, services = make_state([passed()], rag=False)
    with FakeOpenAIServer(responder=model) as server:
        outcome = translate(server, state, tmp_path)
    assert [step_of(r).startswith(GENERATE) for r in server.requests] == [False, False, True]
    assert services.tested == ["public double GetArea()\n{\n    return System.Math.PI * radius * radius;\n}"]
    assert outcome.status == "passed"
    assert any("the draft a planning step wrote is tested instead" in n for n in outcome.run.notes)


def test_what_an_unusable_json_answer_was():
    asked = "one JSON object"
    assert answer_kind("```csharp\npublic bool IsBlank(string text) { return text == null; }\n```") == "code"
    assert answer_kind("public bool IsBlank(string text)\n{\n    return text == null;\n}") == "code"
    assert answer_kind("I think the class should be read first.") == "prose"
    assert answer_kind('{"tool": "get_source_class_info", "arguments": {}') == "json"
    assert wrong_kind("{ return text == null; }", "the JSON object `{ return text == null; }` is not valid JSON",
                      asked).startswith("your answer is code")
    assert wrong_kind('{"tool": "x", "arguments": {', "unclosed object", asked) == "unclosed object"


def test_a_window_named_by_a_400_is_remembered_per_server_so_a_later_process_fits_its_first_call(tmp_path):
    def model(body):
        return GOOD if step_of(body).startswith(GENERATE) else '{"tool": "enough", "reason": "simple"}'

    with FakeOpenAIServer(responder=model, window=2048) as server:       # no /props: only a 400 names it
        for n in (1, 2):
            # each make_client without the run's ServerBook knows nothing, as a new process
            state, _ = make_state([passed()], rag=False)
            state.config = state.config.overlay({"model": {"cache_dir": str(tmp_path / "cache")}})
            outcome = translate(server, state, tmp_path / f"task{n}")
            assert outcome.status == "passed"
            if n == 1:
                assert server.statuses.count(400) == 1
                first = len(server.statuses)
    assert 400 not in server.statuses[first:] and len(server.statuses) - first == 2
    assert all(r["max_tokens"] + server.count("".join(str(m["content"]) for m in r["messages"])) <= 2048
               for r in server.requests[first:])
    sources = [e["budget"]["window_source"] for e in entries(tmp_path / "task2" / "run") if e["kind"] == "model"]
    assert sources and all(s.startswith("named by the server's 400 earlier") for s in sources)
    remembered = json.loads((tmp_path / "cache" / "server-windows.json").read_text())
    assert [v["tokens"] for v in remembered.values()] == [2048] and server.base_url in next(iter(remembered))


def test_the_clients_of_one_run_share_what_was_learned_about_the_server_through_its_server_book():
    """The run context's ServerBook (agents.workdir.RunCaches) hands every client of an endpoint one
    ServerLimits; a client made without it (another run, another process) starts from nothing."""
    from repotrans.agents.config import AgentConfig
    from repotrans.agents.window import ServerBook, limits_of
    from repotrans.agents.workdir import RunCaches

    config = AgentConfig().overlay({"model": {"name": "m", "base_url": "http://127.0.0.1:9/v1",
                                              "context_window": 4096, "cache": False}})
    book = RunCaches().servers
    first = limits_of(make_client(config, servers=book))
    assert isinstance(book, ServerBook) and first is not None
    assert limits_of(make_client(config, servers=book)) is first
    assert limits_of(make_client(config)) is not first
    other = config.overlay({"model": {"name": "other"}})
    assert limits_of(make_client(other, servers=book)) is not first


def test_a_correction_for_a_repeated_candidate_that_does_not_fit_the_window_ends_the_repairs_not_the_task(tmp_path):
    """SmolLM2 at n_ctx 2048: the repair prompt filled the window, so the correction naming attempt 1
    did not fit; the repairs stop there and the task keeps attempt 1's verdict."""
    from repotrans.verdicts.results import TestResult as Result

    def model(body):
        return GOOD if step_of(body).startswith(("# Step: translate", "# Step: repair")) else "It lacks a using."

    failing = Result(status="test_failure", tests_run=3, tests_failed=1, reason="x " * 600)
    state, services = make_state([failing], rag=False, context=False)
    with FakeOpenAIServer(responder=model, window=2000, props=True) as server:
        outcome = translate(server, state, tmp_path)
    assert outcome.status == "test_failure" and len(services.tested) == 1
    assert any("the correction does not fit the context window" in n for n in outcome.run.notes), outcome.run.notes
    assert any("repairs stopped: candidate of repair repeats attempt 1" in n for n in outcome.run.notes)


def test_a_repair_prompt_that_does_not_fit_the_window_ends_the_repairs_with_the_best_candidate(tmp_path):
    """SmolLM2 at n_ctx 2048 with function calling: the candidate and its test result made the repair
    prompt too big for the window; the task keeps attempt 1 instead of failing with the budget error."""
    from repotrans.verdicts.results import TestResult as Result

    def model(body):
        return GOOD if step_of(body).startswith("# Step: translate") else "It lacks a using."

    failing = Result(status="test_failure", tests_run=3, tests_failed=1, reason="x " * 1500)
    state, services = make_state([failing], rag=False, context=False, reflection=False)
    with FakeOpenAIServer(responder=model, window=2000, props=True) as server:
        outcome = translate(server, state, tmp_path)
    assert outcome.status == "test_failure" and len(services.tested) == 1 and outcome.attempts == 1
    assert any(n.startswith("refine: repairs stopped: repair: the prompt needs") for n in outcome.run.notes)
