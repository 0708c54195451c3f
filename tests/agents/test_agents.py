"""Agents with scripted models (ReplayChatCompletionClient, a fake OpenAI HTTP server) and fake services."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from autogen_agentchat.messages import ThoughtEvent, ToolCallRequestEvent
from autogen_core.models import ModelInfo
from autogen_ext.models.replay import ReplayChatCompletionClient

import repotrans.tools
from repotrans.agents import parse
from repotrans.agents.config import AgentConfig, load_config
from repotrans.agents.models import NO_MODEL, make_client
from repotrans.agents.state import Services, TaskBrief, TranslationRun
from repotrans.agents.team import build_team, run_translation
from repotrans.agents.trajectory import Trajectory
from repotrans.errors import ConfigError, TaskError
from repotrans.verdicts.results import Diagnostic
from repotrans.verdicts.results import TestResult as Result
from repotrans.index.model import Method
from repotrans.mapping.task import TranslationTask
from repotrans.retrieval.stores import PairHit
from tests.support.fake_openai_server import FakeOpenAIServer


def json_obj(text, keys=()):
    return parse.json_answer(text, keys)[0]


def first_block(text):
    blocks = parse.code_blocks(text)
    return blocks[0] if blocks else None

INFO = ModelInfo(vision=False, function_calling=True, json_output=False, family="unknown", structured_output=False)
TOOLS = ["get_source_class_info", "get_target_class_info", "find_target_imports", "find_target_class_info",
         "find_target_method_body"]
GROUND_TRUTH = "return Math.PI * radius * radius; // ground truth"
GOOD = "```csharp\npublic double GetArea()\n{\n    return System.Math.PI * radius * radius;\n}\n```"
BAD = "```csharp\npublic double GetArea()\n{\n    return Math.PI * radius * radius\n}\n```"


def method(side: str, type_id: str, name: str, signature: str, body: str) -> Method:
    return Method(id=f"{type_id}.{name}()", side=side, type_id=type_id, kind="method", name=name, params=[],
                  return_type="double", modifiers=["public"], annotations=[], type_params=[], signature=signature,
                  body=body, path="X", start_line=1, end_line=3, start_byte=0, end_byte=10)


class FakeServices:
    """Tools answer from a table; tests return scripted results; every call is recorded."""

    def __init__(self, results: list[Result]):
        self.results = list(results)
        self.tool_calls: list[tuple[str, dict]] = []
        self.tested: list[str] = []
        self.retrieved = 0

    def run_tool(self, name: str, args: dict) -> dict:
        self.tool_calls.append((name, args))
        if name == "find_target_class_info" and args.get("class_name") != "Point":
            return {"error": f"no C# class named {args.get('class_name')!r}", "did_you_mean": ["Point"]}
        return {"tool": name, "args": args, "text": f"facts from {name}"}

    def run_test(self, code: str) -> Result:
        self.tested.append(code)
        return self.results.pop(0)

    def retrieve(self, k: int) -> tuple[list, str]:
        self.retrieved += 1
        return [PairHit("source:a.Sq.area()", "target:A.Sq.Area()", "double area()", "{ return s * s; }",
                          "public double Area()", "{ return s * s; }"),
                PairHit("source:a.B.name()", "target:A.B.Name()", "String name()", "{ return n; }",
                          "public string Name()", "{ return n; }")], "2 pairs"

    def bound(self) -> Services:
        return Services(run_tool=self.run_tool, run_test=self.run_test, retrieve=self.retrieve)


@pytest.fixture(autouse=True)
def schemas(monkeypatch):
    fake = {n: {"name": n, "description": f"{n} tool", "parameters": {"type": "object", "properties": (
        {"class_name": {"type": "string"}} if n.startswith("find_target_") and n != "find_target_imports" else {})}}
        for n in TOOLS}
    monkeypatch.setattr(repotrans.tools, "load_schemas", lambda: fake, raising=False)


def make_state(results: list[Result], **switches) -> tuple[TaskBrief, FakeServices]:
    config = AgentConfig().overlay({"agents": switches})
    services = FakeServices(results)
    java = method("source", "source:org.acme.Circle", "getArea", "public double getArea()",
                  "{ return Math.PI * radius * radius; }")
    target = method("target", "target:Acme.Circle", "GetArea", "public double GetArea()", "{ " + GROUND_TRUTH + " }")
    task = TranslationTask(target_method_id=target.id, source_method_id=java.id)
    return TaskBrief(task=task, java_method=java, target_method=target, lang_version="6", config=config,
                     services=services.bound()), services


def passed() -> Result:
    return Result(status="passed", tests_run=3)


def compile_error() -> Result:
    return Result(status="compile_error", diagnostics=[
        Diagnostic(code="CS1002", message="; expected", file="Circle.cs", line=12, column=40, candidate_line=3)])


class ScriptedModel(ReplayChatCompletionClient):
    """The replay client as a model: its answers are fresh (autogen marks replayed answers cached)."""

    async def create(self, *args, **kwargs):
        result = await super().create(*args, **kwargs)
        return result.model_copy(update={"cached": False})


def replay(answers: list[str]) -> ReplayChatCompletionClient:
    return ScriptedModel(answers, model_info=INFO)


def call(tool: str, **args) -> str:
    return json.dumps({"tool": tool, "arguments": args})


def run(state, client, tmp_path):
    return asyncio.run(run_translation(state, client, tmp_path / "run"))


def prompts(client: ReplayChatCompletionClient) -> list[str]:
    return [c["messages"][-1].content for c in client.create_calls]


def test_happy_path_uses_all_five_tools(tmp_path):
    state, services = make_state([passed()])
    client = replay([
        '{"retrieve": true, "reason": "uses fields"}',
        '{"decisions": [{"candidate": 1, "keep": true, "reason": "same"}, {"candidate": 2, "keep": false, "reason": "no"}]}',
        call("get_source_class_info"), call("get_target_class_info"), call("find_target_imports"),
        call("find_target_class_info", class_name="Point"),
        call("find_target_method_body", class_name="Point", method_name="X"),
        '{"tool": "enough", "reason": "all names known"}',
        GOOD,
    ])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed" and outcome.attempts == 1 and outcome.repair_rounds == 0
    assert [c[0] for c in services.tool_calls] == TOOLS
    assert [e.source_id for e in outcome.run.handoff.examples] == ["source:a.Sq.area()"]
    assert outcome.code == "public double GetArea()\n{\n    return System.Math.PI * radius * radius;\n}"
    assert outcome.tokens["calls"] == 9 and outcome.tokens["prompt"] > 0
    steps = [e["step"] for e in Trajectory.entries(_traj(tmp_path)) if e["kind"] == "model"]
    assert steps == ["rag_decide", "rag_filter"] + ["context"] * 6 + ["generate"]
    generate = prompts(client)[-1]
    assert "double area() { return s * s; }" in generate and "String name()" not in generate
    assert generate.count("facts from ") == 5
    assert all(GROUND_TRUTH not in p for p in prompts(client))


def _traj(tmp_path: Path) -> Trajectory:
    t = Trajectory.__new__(Trajectory)
    t.path = tmp_path / "run" / "trajectory.jsonl"
    return t


def test_stream_is_autogen_events(tmp_path):
    state, _ = make_state([passed()], rag=False)
    client = replay([call("get_source_class_info"), '{"tool": "enough"}', GOOD])

    async def collect():
        team, _ = build_team(state, client, Trajectory(tmp_path / "run"))
        return [m async for m in team.run_stream(task="translate")]

    items = asyncio.run(collect())
    kinds = [type(m).__name__ for m in items]
    assert kinds.count("ToolCallRequestEvent") == kinds.count("ToolCallExecutionEvent") == 2   # a tool, run_tests
    requests = [m.content[0].name for m in items if isinstance(m, ToolCallRequestEvent)]
    assert requests == ["get_source_class_info", "run_tests"]
    assert any(isinstance(m, ThoughtEvent) and m.source == "context" for m in items)
    assert items[-1].stop_reason.startswith("Text 'TRANSLATION_DONE'")


def test_compile_error_reaches_reflection_then_repair_passes(tmp_path):
    state, services = make_state([compile_error(), passed()], rag=False)
    client = replay([
        '{"tool": "enough", "reason": "simple"}',
        BAD,
        "Line 3 lacks a semicolon after the expression (CS1002).\nMORE_CONTEXT: "
        + call("find_target_class_info", class_name="Point"),
        GOOD,
    ])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed" and outcome.attempts == 2 and outcome.repair_rounds == 1
    reflect, repair = prompts(client)[2], prompts(client)[3]
    assert "- CS1002 at candidate line 3: ; expected" in reflect
    assert "return Math.PI * radius * radius\n}" in reflect
    assert "## Reflection\nLine 3 lacks a semicolon" in repair and "MORE_CONTEXT" not in repair.split("## Reflection")[1]
    assert services.tool_calls == [("find_target_class_info", {"class_name": "Point"})]
    assert outcome.run.attempts[0].reflection.startswith("Line 3 lacks")


def test_garbage_and_unknown_tool_get_corrections_and_count_against_limit(tmp_path):
    state, services = make_state([passed()], rag=False, max_context_iterations=4)
    client = replay(["I think we should look at the class first.", call("get_target_class_info"),
                     call("read_file", path="Circle.cs"), '{"tool": "enough"}', GOOD])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed"
    assert services.tool_calls == [("get_target_class_info", {})]
    second, fourth = client.create_calls[1]["messages"], client.create_calls[3]["messages"]
    assert "your answer is prose with no JSON object" in second[-1].content and second[-2].content.startswith("I think")
    assert "unknown tool 'read_file'" in fourth[-1].content
    assert any("unknown tool" in n for n in outcome.run.notes) and outcome.run.progress["fallbacks"] == []


def test_two_unusable_answers_in_a_row_end_gathering_with_the_tools_plan(tmp_path):
    state, services = make_state([passed()], rag=False, max_context_iterations=8)
    client = replay(["I think we should look at the class first.", call("read_file", path="Circle.cs"), GOOD])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed" and len(client.create_calls) == 3
    assert [c[0] for c in services.tool_calls] == ["get_source_class_info", "get_target_class_info",
                                                   "find_target_imports"]
    assert outcome.run.progress["fallbacks"] == [{
        "step": "context", "default": "the tools' deterministic plan",
        "reason": "2 unusable answers in a row, the last: unknown tool 'read_file'; the tools are "
                  + ", ".join(sorted(TOOLS))}]


def test_repeated_call_is_refused(tmp_path):
    state, services = make_state([passed()], rag=False, max_context_iterations=3)
    client = replay([call("get_target_class_info"), call("get_target_class_info"), '{"tool": "enough"}', GOOD])
    run(state, client, tmp_path)
    assert services.tool_calls == [("get_target_class_info", {})]
    assert "already called" in client.create_calls[2]["messages"][-1].content


def test_rag_skips_retrieval_for_simple_functions(tmp_path):
    state, services = make_state([passed()], context=False)
    client = replay(['{"retrieve": false, "reason": "trivial"}', GOOD])
    outcome = run(state, client, tmp_path)
    assert services.retrieved == 0 and outcome.run.handoff.examples == []
    assert "## Examples from this repository\n(none)" in prompts(client)[-1]


def test_ablation_rag_and_context_off_is_one_prompt(tmp_path):
    state, services = make_state([passed()], rag=False, context=False)
    client = replay([GOOD])
    run(state, client, tmp_path)
    assert services.tool_calls == [] and services.retrieved == 0
    assert "(nothing gathered yet)" in prompts(client)[0] and "## Tools" not in prompts(client)[0]


def test_ablation_refine_off_is_single_shot(tmp_path):
    state, services = make_state([compile_error()], rag=False, context=False, refine=False)
    outcome = run(state, replay([BAD]), tmp_path)
    assert outcome.status == "compile_error" and outcome.attempts == 1 and len(services.tested) == 1


def test_ablation_reflection_off_repairs_from_raw_errors(tmp_path):
    state, _ = make_state([compile_error(), passed()], rag=False, context=False, reflection=False)
    client = replay([BAD, GOOD])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed"
    repair = prompts(client)[1]
    assert repair.startswith("# Step: repair") and "## Reflection" not in repair and "CS1002" in repair


def test_ablation_static_prompt_uses_fixed_context(tmp_path):
    state, services = make_state([compile_error(), passed()], rag=False, dynamic_prompt=False)
    client = replay([BAD, "Missing semicolon.\nMORE_CONTEXT: " + call("find_target_imports"), GOOD])
    run(state, client, tmp_path)
    assert [c[0] for c in services.tool_calls] == TOOLS[:3]        # no model-chosen tools at all
    generate, reflect = prompts(client)[0], prompts(client)[1]
    assert "No tools in this configuration" in generate or "## Tools" not in generate
    assert "MORE_CONTEXT" not in reflect and generate.count("facts from ") == 3


def test_repair_rounds_are_bounded_and_best_candidate_kept(tmp_path):
    failing = Result(status="test_failure", tests_run=3, tests_failed=1)
    state, services = make_state([compile_error(), failing, compile_error()], rag=False, context=False,
                                 reflection=False, max_repair_rounds=2)
    outcome = run(state, replay([BAD, GOOD, BAD.replace("radius * radius", "radius * radius * 1")]), tmp_path)
    assert len(services.tested) == 3 and outcome.repair_rounds == 2
    assert outcome.status == "test_failure" and "System.Math" in outcome.code


def test_a_repeated_candidate_is_not_tested_again_and_ends_the_repairs(tmp_path):
    failing = Result(status="test_failure", tests_run=3, tests_failed=1)
    state, services = make_state([compile_error(), failing], rag=False, context=False, reflection=False,
                                 max_repair_rounds=4)
    same_as_good = GOOD.replace("    return", "  // the same\n  return")    # whitespace and comments aside
    client = replay([BAD, GOOD, same_as_good, same_as_good, BAD, GOOD])
    outcome = run(state, client, tmp_path)
    assert len(services.tested) == 2 and outcome.attempts == 2 and outcome.repair_rounds == 2
    correction = client.create_calls[3]["messages"][-1].content
    assert correction.startswith("This is the same as attempt 2, which failed with test_failure (1/3 tests failed)")
    assert any("repairs stopped: candidate of repair repeats attempt 2" in note for note in outcome.run.notes)
    assert outcome.progress["repeated_candidates_avoided"] == 2 and outcome.status == "test_failure"
    repeated = [e for e in Trajectory.entries(_traj(tmp_path)) if e["kind"] == "repeated_candidate"]
    assert [(e["same_as"], e["result"]["status"]) for e in repeated] == [(2, "test_failure")] * 2


def test_a_candidate_repeated_after_its_correction_gets_a_new_one_tested(tmp_path):
    failing = Result(status="test_failure", tests_run=3, tests_failed=1)
    state, services = make_state([failing, passed()], rag=False, context=False, reflection=False)
    fixed = GOOD.replace("System.Math.PI", "Math.PI")
    client = replay([GOOD, "```csharp\n" + GOOD.split("\n", 1)[1].replace("{", "{ /* again */", 1), fixed])
    outcome = run(state, client, tmp_path)
    assert services.tested == [parse.code_blocks(GOOD)[0], parse.code_blocks(fixed)[0]]
    assert outcome.status == "passed" and outcome.progress["repeated_candidates_avoided"] == 1


def test_code_block_missing_is_reasked(tmp_path):
    state, _ = make_state([passed()], rag=False, context=False)
    client = replay(["Here is the method: return 1;", GOOD])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed"
    assert "No ```csharp code block found" in client.create_calls[1]["messages"][-1].content


def test_model_failure_is_a_task_error_and_trajectory_is_written(tmp_path):
    state, _ = make_state([passed()], rag=False, context=False)
    with pytest.raises(TaskError, match=r"^model server \S+ \(model None\): ValueError: No more mock responses"):
        run(state, replay([]), tmp_path)
    done = [e for e in _traj(tmp_path).entries() if e["kind"] == "done"]
    assert done and "No more mock responses" in done[0]["error"]


def test_trajectory_has_prompts_responses_tools_results_tokens(tmp_path):
    state, _ = make_state([compile_error(), passed()], rag=False)
    client = replay([call("get_target_class_info"), '{"tool": "enough"}', BAD, "No semicolon.\nMORE_CONTEXT: none",
                     GOOD])
    run(state, client, tmp_path)
    entries = _traj(tmp_path).entries()
    kinds = [e["kind"] for e in entries]
    assert kinds[0] == "task" and kinds[-1] == "done"
    assert kinds.count("model") == 5 and kinds.count("attempt") == 2
    assert [e["tool"] for e in entries if e["kind"] == "tool"] == ["get_target_class_info", "run_tests", "run_tests"]
    model = next(e for e in entries if e["kind"] == "model")
    assert model["messages"][0]["role"] == "SystemMessage" and model["messages"][0]["content"].startswith("You are")
    assert model["messages"][1]["content"].startswith("# Step: gather") and model["usage"]["prompt"] > 0
    assert [e["result"]["status"] for e in entries if e["kind"] == "attempt"] == ["compile_error", "passed"]
    assert json.loads((tmp_path / "run" / "result.json").read_text())["status"] == "passed"
    assert set(json.loads((tmp_path / "run" / "config.json").read_text())) == {"model", "agents", "execution", "retrieval",
                                                                               "prompts", "mapping", "tasks", "cache"}


# -- model clients -------------------------------------------------------------------------------------
def test_no_model_says_what_to_set():
    state, _ = make_state([])
    with pytest.raises(ConfigError) as err:
        make_client(AgentConfig())
    assert str(err.value) == NO_MODEL and "--model" in NO_MODEL and "REPOTRANS_API_KEY" in NO_MODEL


def test_hosted_model_without_key_is_a_config_error(monkeypatch):
    monkeypatch.delenv("REPOTRANS_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    state, _ = make_state([])
    with pytest.raises(ConfigError, match="REPOTRANS_API_KEY or OPENAI_API_KEY"):
        make_client(AgentConfig().overlay({"model": {"name": "gpt-4o-mini"}}))


def test_config_precedence_file_env_cli(tmp_path):
    toml = tmp_path / "repotrans.toml"
    toml.write_text('[model]\nname = "file-model"\nbase_url = "http://file"\n[agents]\nrag = false\n'
                    'max_repair_rounds = 5\n')
    config = load_config(toml, cli={"model": {"name": "cli-model"}, "agents": {"max_repair_rounds": None}},
                         env={"REPOTRANS_BASE_URL": "http://env"})
    assert (config.model.name, config.model.base_url) == ("cli-model", "http://env")
    assert (config.agents.rag, config.agents.max_repair_rounds, config.agents.context) == (False, 5, True)


def test_config_errors_are_one_line(tmp_path):
    bad = tmp_path / "repotrans.toml"
    bad.write_text("[agents]\nrga = false\n")
    with pytest.raises(ConfigError, match=r"unknown setting agents.rga \(did you mean: rag"):
        load_config(bad, env={})
    bad.write_text('[model]\napi_key = "sk-123"\n')
    with pytest.raises(ConfigError, match="REPOTRANS_API_KEY"):
        load_config(bad, env={})
    with pytest.raises(ConfigError, match="is not a int"):
        AgentConfig().overlay({"agents": {"max_repair_rounds": "many"}})


def test_real_openai_client_retries_500_and_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    answers = ['{"tool": "enough"}', GOOD]
    with FakeOpenAIServer(answers, fail_first=1) as server:
        config = AgentConfig().overlay({"model": {"name": "local-coder", "base_url": server.base_url},
                                        "agents": {"rag": False}})
        state, _ = make_state([passed()], rag=False)
        state.config = config
        client = make_client(config, cache_path=tmp_path / "cache.sqlite")
        outcome = run(state, client, tmp_path)
        assert outcome.status == "passed" and server.statuses == [500, 200, 200]
        assert server.requests[1]["model"] == "local-coder" and server.requests[1]["temperature"] == 0.0
        assert server.requests[1]["messages"][0]["role"] == "system"
        assert server.requests[1]["messages"][1]["content"].startswith("# Step: gather")
        # a rerun with the same prompts costs nothing and gives the same result
        state2, _ = make_state([passed()], rag=False)
        state2.config = config
        again = run(state2, make_client(config, cache_path=tmp_path / "cache.sqlite"), tmp_path / "2")
        assert len(server.requests) == 3 and again.code == outcome.code
        assert again.run.usage["generate"].cached_calls == 1


def test_parse_helpers():
    assert json_obj('Sure:\n```json\n{"tool": "x", "arguments": {}}\n```') == {"tool": "x", "arguments": {}}
    assert json_obj("no braces") is None
    assert first_block("a\n```cs\nint X() { return 1; }\n```\n") == "int X() { return 1; }"
    assert first_block("```java\nint x;\n```") is None
    text = 'why\nMORE_CONTEXT: {"tool": "find_target_imports", "arguments": {}}\nMORE_CONTEXT: junk\n'
    assert parse.more_context(text) == [{"tool": "find_target_imports", "arguments": {}}]
    assert parse.reflection_text(text) == "why"


def test_console_streams_every_message_and_tool_call(tmp_path, capsys):
    state, _ = make_state([passed()], rag=False)
    client = replay([call("find_target_imports"), '{"tool": "enough"}', GOOD])
    outcome = asyncio.run(run_translation(state, client, tmp_path / "run", console=True))
    out = capsys.readouterr().out
    assert outcome.status == "passed"
    for header in ("TextMessage (user)", "ThoughtEvent (context)", "ToolCallRequestEvent (context)",
                   "ToolCallExecutionEvent (context)", "ToolCallRequestEvent (refine)", "HandoffMessage (refine)"):
        assert f"---------- {header} ----------" in out
    assert "TRANSLATION_DONE status=passed attempts=1 repair_rounds=0" in out


def test_candidate_that_cannot_be_applied_is_a_failed_attempt(tmp_path):
    from repotrans.errors import InputError

    state, services = make_state([passed()], rag=False, context=False, reflection=False)

    def run_test(code: str):
        if code.startswith("namespace"):
            raise InputError("the candidate is not a member")
        return services.run_test(code)

    state.services.run_test = run_test
    outcome = run(state, replay(["```csharp\nnamespace Acme { int x; }\n```", GOOD]), tmp_path)
    assert outcome.run.attempts[0].result.status == "compile_error"
    assert "candidate not applied: the candidate is not a member" in outcome.run.attempts[0].result.brief()
    assert outcome.status == "passed" and outcome.attempts == 2


def test_tokens_per_step_and_cost_when_prices_are_configured(tmp_path):
    state, _ = make_state([compile_error(), passed()], rag=False, context=False, reflection=False)
    state.config = state.config.overlay({"model": {"price_prompt": 2.0, "price_completion": 10.0}})
    outcome = run(state, replay([BAD, GOOD]), tmp_path)
    gen, rep = outcome.run.usage["generate"], outcome.run.usage["repair"]
    assert (gen.calls, rep.calls) == (1, 1) and gen.prompt_tokens > 0 and rep.completion_tokens > 0
    expected = ((gen.prompt_tokens + rep.prompt_tokens) * 2.0 + (gen.completion_tokens + rep.completion_tokens) * 10.0) / 1e6
    assert outcome.cost == pytest.approx(expected) and outcome.tokens["calls"] == 2
    assert TranslationRun().cost(make_state([])[0].config) is None


def test_several_text_calls_in_one_answer_run_in_order(tmp_path):
    state, services = make_state([passed()], rag=False)
    client = replay([call("get_source_class_info") + "\nand then\n" + call("get_target_class_info")
                     + '\n{"tool": "enough", "reason": "done"}', GOOD])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed" and outcome.tokens["calls"] == 2
    assert [c[0] for c in services.tool_calls] == ["get_source_class_info", "get_target_class_info"]


def test_an_unforeseen_failure_is_a_task_error_with_a_trajectory(tmp_path):
    state, _ = make_state([passed()], rag=False, context=False)

    def broken(code: str):
        raise KeyError("surprise")

    state.services.run_test = broken
    with pytest.raises(TaskError, match="refine agent failed on generate: KeyError"):
        run(state, replay([GOOD]), tmp_path)
    assert (tmp_path / "run" / "result.json").is_file()


def test_a_tool_call_where_json_was_asked_is_read_from_its_arguments(tmp_path):
    from autogen_core import FunctionCall
    from autogen_core.models import CreateResult, RequestUsage

    state, services = make_state([passed()], context=False)
    answer = CreateResult(finish_reason="function_calls", usage=RequestUsage(prompt_tokens=5, completion_tokens=5),
                          cached=False, content=[FunctionCall(id="c1", name="decide",
                                                              arguments='{"retrieve": false, "reason": "simple",}')])
    outcome = run(state, replay([answer, GOOD]), tmp_path)
    assert outcome.status == "passed" and services.retrieved == 0
    assert outcome.run.rag_decision == {"retrieve": False, "reason": "simple"}
    assert outcome.run.handoff.native_tools is True
