"""The builtin policy through the real agent team on the sample pair: masked target method, real
tools, mcs compile and NUnit run (the same setting as tests/agents/test_agents_sample.py)."""
from __future__ import annotations

import asyncio
import json

import pytest
from autogen_core.models import UserMessage

from repotrans.execution.judge.runner import Runner
from repotrans.agents.config import AgentConfig
from repotrans.agents.models import make_client
from repotrans.agents.session import open_view, prepare
from repotrans.agents.team import run_translation
from repotrans.translator import steps
from repotrans.translator.builtin import BuiltinChatClient
from tests.support.sample_masking import masked_sample

pytestmark = pytest.mark.slow

FUNCTION = "Acme.Geo.Shapes.Circle.Scale(double)"


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    root = tmp_path_factory.mktemp("builtin")
    java, csharp = masked_sample(root, FUNCTION)
    config = AgentConfig().overlay({"model": {"name": "builtin"}, "agents": {"rag": False}})
    view = open_view(root / "work", java, csharp)
    with Runner(config.execution, root / "work") as runner:
        state = prepare(root / "work", FUNCTION, config, runner, view=view)
        client = make_client(config, view)
        result = asyncio.run(run_translation(state, client, root / "run"))
    entries = [json.loads(l) for l in (root / "run" / "trajectory.jsonl").read_text().splitlines()]
    yield state, result, entries, client, view
    view.index.close()


def test_make_client_gives_builtin(outcome):
    assert isinstance(outcome[3], BuiltinChatClient)


def test_builtin_translation_passes_the_tests(outcome):
    state, result, _, _, _ = outcome
    assert result.status == "passed" and result.attempts == 1
    assert result.run.attempts[0].code == (
        "public Circle Scale(double factor)\n{\n"
        '    return new Circle(center, radius * Preconditions.CheckPositive(factor, "factor"));\n}')
    assert result.run.attempts[0].result.tests_run > 0


def test_context_calls_follow_the_guidelines(outcome):
    tools = [e["tool"] for e in outcome[2] if e["kind"] == "tool"]
    assert tools[tools.index("get_source_class_info"):tools.index("run_tests")] == [
        "get_source_class_info", "get_target_class_info", "find_target_imports"] + ["find_target_class_info"] * 4
    calls = [e for e in outcome[2] if e["kind"] == "tool" and e["tool"] == "find_target_class_info"]
    # the type of the field it uses (center), the type it names, then the project types the target class
    # inherits from, nearest first, by the qualified names get_target_class_info lists as its supertypes
    assert [c["args"]["class_name"] for c in calls] == ["Point2D", "Preconditions", "Acme.Geo.Shapes.AbstractShape",
                                                        "Acme.Geo.Shapes.IShape"]
    assert not any("error" in c["output"] for c in calls)


def test_answers_are_in_template_formats(outcome):
    state, _, entries, _, _ = outcome
    answers = {e["step"]: e["response"] for e in entries if e["kind"] == "model"}
    assert json.loads(answers["context"]) == {
        "tool": "enough", "reason": "every project type the method uses has been looked up"}
    assert answers["generate"].startswith("```csharp\n") and answers["generate"].endswith("\n```")


def test_rag_steps_from_a_request(outcome):
    state = outcome[0]
    request = steps.StepRequest("rag_decide", state.java_method, state.target_method)
    assert json.loads(steps.decide_rag(request)) == {"retrieve": True, "reason": "uses project types Preconditions"}
    request.candidate_bodies = [state.java_method.body, "{ return name.length(); }"]
    decisions = json.loads(steps.filter_examples(request))["decisions"]
    assert [(d["candidate"], d["keep"]) for d in decisions] == [(1, True), (2, False)]


def test_unknown_step_is_a_task_error(outcome):
    client = BuiltinChatClient(outcome[4])
    from repotrans.errors import TaskError
    with pytest.raises(TaskError, match="no answer for this prompt .*'x'"):
        asyncio.run(client.create([UserMessage(content="x", source="user")]))


def test_the_answer_follows_the_prompt_not_the_run(outcome):
    """Each logged prompt, given again to a fresh client, gets the answer the run got: the client's
    answer is a function of the prompt (and the repository), nothing else."""
    _, _, entries, _, view = outcome
    client = BuiltinChatClient(view)
    for e in (e for e in entries if e["kind"] == "model"):
        prompt = next(m["content"] for m in e["messages"] if m["role"] == "UserMessage")
        got = asyncio.run(client.create([UserMessage(content=prompt, source="user")]))
        assert got.content == e["response"], e["step"]
