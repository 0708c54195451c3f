"""A local model server's limits, against the fake OpenAI server: its context window (told at /props,
named only by a 400, too small for the step), a slow generation and a time limit, answers cut at
max_tokens, an escaping chat template, a wrong member, `{}` in JSON mode, and the cache key."""
from __future__ import annotations

import asyncio
import json

import pytest
from autogen_core.models import SystemMessage, UserMessage

from repotrans.agents.candidate import Candidate, Mismatch, extract, unescape
from repotrans.agents.config import ModelConfig
from repotrans.agents.models import make_client
from repotrans.agents.team import run_translation
from repotrans.agents.window import ServerLimits, overflow_from
from repotrans.errors import TaskError
from repotrans.runs.batch_summary import BatchSummary
from repotrans.retrieval.stores import PairHit
from tests.agents.test_agents import GOOD, FakeServices, make_state, passed, replay, run
from tests.support.fake_openai_server import FakeOpenAIServer

BIG_BODY = "{\n" + "    total = total + step(i);\n" * 120 + "}"          # ~840 tokens by the server's count
DECIDE = '{"retrieve": true, "reason": "loops"}'
KEEP_BOTH = '{"decisions": [{"candidate": 1, "keep": true}, {"candidate": 2, "keep": true}]}'
ENOUGH = '{"tool": "enough", "reason": "simple"}'
WRONG = ("```csharp\npublic static void CheckPositive(double value, string name)\n{\n"
         "    if (value <= 0) throw new System.ArgumentException(name);\n}\n```")


class BigExamples(FakeServices):
    """Retrieval returns two long pairs: together they do not fit a 4,096-token window with the prompt."""

    def retrieve(self, k: int):
        self.retrieved += 1
        return [PairHit("source:a.Sum.run()", "target:A.Sum.Run()", "int run()", BIG_BODY, "public int Run()", BIG_BODY),
                PairHit("source:a.Sum.all()", "target:A.Sum.All()", "int all()", BIG_BODY, "public int All()", BIG_BODY)
                ], "2 pairs"


def local(server: FakeOpenAIServer, state, **model) -> None:
    state.config = state.config.overlay({"model": {"name": "local", "base_url": server.base_url, "cache": False,
                                                    **model}})


def prompt_tokens(request: dict) -> int:
    return len("".join(str(m.get("content") or "") for m in request["messages"])) // 4


def budgets(run_dir) -> list[dict]:
    lines = (run_dir / "trajectory.jsonl").read_text().splitlines()
    return [e["budget"] for e in map(json.loads, lines) if e["kind"] == "model" and e.get("budget")]


def test_a_400_naming_the_window_refits_the_call_and_every_step_is_reached(tmp_path):
    state, _ = make_state([passed()])
    services = BigExamples([passed()])
    state.services = services.bound()
    with FakeOpenAIServer([DECIDE, KEEP_BOTH, ENOUGH, GOOD], window=4096) as server:
        local(server, state)
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed"
    assert server.statuses.count(400) == 1 and server.statuses[-1] == 200
    sent = [r for r, s in zip(server.requests, server.statuses) if s == 200]
    assert len(sent) == 4 and all(prompt_tokens(r) + r["max_tokens"] <= 4096 for r in sent)
    assert any("context window is 4096 tokens" in n for n in outcome.run.notes)
    cuts = [c for b in budgets(tmp_path / "run") for c in b["cuts"]]
    assert "retrieval candidates shown 2 -> 1" in cuts and any(c.startswith("retrieved examples 2 ->") for c in cuts)
    assert budgets(tmp_path / "run")[-1]["window_source"] == "named by the server's 400"


def test_a_window_told_at_props_is_used_before_any_call_and_counted_with_the_servers_tokenizer(tmp_path):
    state, _ = make_state([passed()], rag=False)
    with FakeOpenAIServer([ENOUGH, GOOD], window=3000, props=True, tokenize=True) as server:
        local(server, state)
        client = make_client(state.config)
        outcome = asyncio.run(run_translation(state, client, tmp_path / "run"))
    assert outcome.status == "passed" and 400 not in server.statuses and server.tokenized > 0
    generate = server.requests[-1]
    assert generate["max_tokens"] < 2048 and prompt_tokens(generate) + generate["max_tokens"] <= 3000
    assert budgets(tmp_path / "run")[0]["window_source"] == "llama.cpp /props n_ctx"


def test_a_step_whose_required_part_does_not_fit_fails_with_one_line_naming_window_prompt_and_setting(tmp_path):
    state, _ = make_state([passed()])
    with FakeOpenAIServer([ENOUGH, GOOD], window=600, props=True) as server:
        local(server, state)
        with pytest.raises(TaskError) as err:
            asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    message = str(err.value)
    assert "\n" not in message and "context window is 600 tokens (llama.cpp /props n_ctx)" in message
    assert "the prompt needs" in message and "[model] context_window" in message
    assert server.requests == []                     # nothing that cannot fit is sent
    notes = err.value.run.notes
    assert any(n.startswith("rag_decide: given up (optional step)") for n in notes)
    assert any(n.startswith("context: stopped gathering") for n in notes)     # gathering is cut short, not fatal


def test_cuts_go_in_the_stated_order_and_shorten_ranked_lists_from_their_tail():
    from repotrans.agents.budget import slot_levels, trim_slots

    slots = {"examples": ["e1", "e2"], "gathered_context": [{"tool": "t", "args": {}, "output": {"members": list(range(8))}}],
             "last_command": ["c1", "c2"], "conventions": ["x"], "tools": ["t"], "result": "l1\nl2\nl3\nl4"}
    cuts = [cut for _, cut in slot_levels(slots, "reflect")]
    assert cuts[:2] == ["retrieved examples 2 -> 1", "retrieved examples 2 -> 0"]
    assert cuts.index("gathered context outputs cut to 1/2 of each list") < cuts.index("tool-call history 2 -> 1")
    assert cuts[-4:] == ["tool descriptions left out (the reflection asks for no more context)",
                         "test result cut to its first 1/2", "test result cut to its first 1/4",
                         "test result cut to its first 1/8"]
    trimmed = trim_slots(slots, {"shorten": 2, "result": 1, "last_command": 1})
    assert trimmed["gathered_context"][0]["output"]["members"] == [0, 1, "... 6 more left out to fit the context window"]
    assert trimmed["result"].startswith("l1\nl2\n... 2 more lines") and trimmed["last_command"] == ["c2"]


def test_a_slow_server_times_out_once_with_the_limit_and_setting_named_and_is_never_asked_twice(tmp_path):
    slow_decide = '{"retrieve": false, "reason": "' + "very " * 100 + '"}'
    state, _ = make_state([passed()])
    with FakeOpenAIServer([slow_decide, ENOUGH, GOOD], seconds_per_token=0.02) as server:
        local(server, state, timeout=1.0)
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed" and len(server.requests) == 3     # rag_decide sent once, given up
    note = next(n for n in outcome.run.notes if n.startswith("rag_decide: given up"))
    assert "did not answer within 1 s ([model] timeout = 1)" in note


def test_the_time_limit_scales_with_max_tokens_and_the_measured_speed():
    limits = ServerLimits(ModelConfig(name="m", base_url="http://127.0.0.1:9/v1"), ask_server=False)
    seconds, how = limits.timeout(2048)
    assert seconds == 30 + 2 * 2048 / 8 and "8 tokens/s assumed" in how and "[model] timeout" in how
    limits.observe(200, 10.0)
    limits.observe(5, 10.0)                       # too short to say anything about speed
    assert limits.timeout(1000)[0] == 30 + 2 * 1000 / 20
    assert limits.timeout(1000, prompt_tokens=400)[0] == 30 + 2 * (400 / 20 + 1000 / 20)
    limits.abandoned(400)
    assert 19 < limits.busy_for() <= 20           # the server may go on with an abandoned request


def test_window_400_messages_of_real_servers_are_read():
    llama_cpp_python = {"error": {"message": "This model's maximum context length is 2048 tokens. However, you "
                                             "requested 4175 tokens (2127 in the messages, 2048 in the completion)."}}
    found = overflow_from(400, llama_cpp_python)
    assert (found.window, found.prompt_tokens) == (2048, 2127)
    vllm = {"message": "'max_tokens' is too large: 2048. This model's maximum context length is 4096 tokens and your "
                       "request has 3000 input tokens (2048 > 4096 - 3000)."}
    assert (overflow_from(400, {"error": vllm}).window, overflow_from(400, {"error": vllm}).prompt_tokens) == (4096, 3000)
    llama_cpp = {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                           "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}
    assert (overflow_from(400, llama_cpp).window, overflow_from(400, llama_cpp).prompt_tokens) == (4096, 5000)
    assert overflow_from(400, {"error": {"message": "model does not support tools"}}) is None
    assert overflow_from(500, llama_cpp_python) is None


def test_a_cut_json_answer_of_a_small_model_is_not_asked_again_with_more_room(tmp_path):
    looping = {"content": '{"retrieve": true, "reason": "' + "and " * 300, "finish_reason": "length"}
    state, services = make_state([passed()])
    with FakeOpenAIServer([looping, '{"decisions": []}', ENOUGH, GOOD]) as server:
        local(server, state)
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed"
    assert server.requests[0]["max_tokens"] == 256                 # a yes/no step needs no 2,048 tokens
    decide = [r for r in server.requests if "keep or drop" not in r["messages"][1]["content"]
              and "Step: decide" in r["messages"][1]["content"]]
    assert len(decide) == 1 and any("rag_decide: answer cut off; given up" in n for n in outcome.run.notes)


def test_cut_code_is_asked_briefly_when_the_window_has_no_more_room(tmp_path):
    cut = {"content": "```csharp\npublic double GetArea()\n{\n    // " + "x" * 6000, "finish_reason": "length"}
    state, _ = make_state([passed()], rag=False)
    with FakeOpenAIServer([ENOUGH, cut, GOOD], window=2600, props=True) as server:
        local(server, state)
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed"
    first, again = server.requests[1], server.requests[2]
    assert again["max_tokens"] <= first["max_tokens"]              # never more than the window has
    assert "cut off at" in again["messages"][-1]["content"] and "briefly" in again["messages"][-1]["content"]


def test_a_wrong_member_is_asked_again_and_never_tested(tmp_path):
    state, services = make_state([passed()], rag=False)
    client = replay([ENOUGH, WRONG, GOOD])
    outcome = run(state, client, tmp_path)
    assert outcome.status == "passed" and len(services.tested) == 1 and "GetArea" in services.tested[0]
    correction = client.create_calls[2]["messages"][-1].content
    assert correction.startswith("You wrote `static void CheckPositive(double, string)`; translate `double GetArea()`")


def test_identity_by_parameters_and_static_and_no_prose_candidates():
    state, _ = make_state([])
    target = state.target_method
    assert isinstance(extract("```csharp\npublic double GetArea(int scale) { return 0; }\n```", target), Mismatch)
    assert isinstance(extract("```csharp\npublic static double GetArea() { return 0; }\n```", target), Mismatch)
    prose_after_wrong = f"{WRONG.replace('csharp', '')}\n## Output\n```\ntrue\nfalse\n```"
    assert isinstance(extract(prose_after_wrong, target), Mismatch)
    assert extract("## Output\n```\ntrue\nfalse\n```", target) is None
    assert isinstance(extract("```csharp\npublic double GetArea() => 1.0;\n```", target), Candidate)
    assert extract("```cs\nreturn radius * radius;\n```", target).shape == "body"


def test_html_entities_from_an_escaping_template_are_decoded_only_where_code_needs_it():
    escaped = ("```csharp\npublic string Name(int n)\n{\n    return n &gt; 0 ? &quot;a&quot; : &#39;b&#39;.ToString();\n}\n"
               "```")
    text, found = unescape(escaped)
    assert "n > 0 ? \"a\" : 'b'.ToString()" in text and found == {"&gt;": 1, "&quot;": 2, "&#39;": 2}
    twice, _ = unescape("```csharp\nchar C() { return &amp;#39;x&amp;#39;; }\n```")
    assert "return 'x';" in twice
    literal = '```csharp\nstring Esc(string s) { return s.Replace("&", "&amp;"); }\n```'
    assert unescape(literal) == (literal, {})


def test_escaped_generate_answer_reaches_the_tests_decoded_and_noted(tmp_path):
    state, services = make_state([passed()], rag=False)
    escaped = "```csharp\npublic double GetArea()\n{\n    return radius &gt; 0 ? System.Math.PI * radius * radius : 0;\n}\n```"
    outcome = run(state, replay([ENOUGH, escaped]), tmp_path)
    assert outcome.status == "passed" and "radius > 0" in services.tested[0] and "&gt;" not in services.tested[0]
    assert any("HTML entities decoded" in n and "&gt; x1" in n for n in outcome.run.notes)


def test_an_empty_object_in_json_mode_is_no_answer_and_json_mode_goes_off(tmp_path):
    state, _ = make_state([passed()])
    with FakeOpenAIServer(["{\n}", '{"retrieve": false, "reason": "simple"}', ENOUGH, GOOD]) as server:
        local(server, state, json_output=True)
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed"
    assert server.requests[0]["response_format"] == {"type": "json_object"}
    assert all("response_format" not in r for r in server.requests[1:])
    assert any("answered {} in JSON mode" in n for n in outcome.run.notes)


def test_the_cache_key_holds_the_servers_window_and_the_calls_max_tokens(tmp_path):
    messages = [SystemMessage(content="s"), UserMessage(content="u", source="user")]
    state, _ = make_state([])
    with FakeOpenAIServer(["a", "b", "c"]) as server:
        def ask(window: int, max_tokens: int) -> str:
            local(server, state, context_window=window, cache=True)
            client = make_client(state.config, cache_path=tmp_path / "c.sqlite")
            return asyncio.run(client.create(messages, extra_create_args={"max_tokens": max_tokens})).content

        assert [ask(2048, 100), ask(8192, 100), ask(2048, 100), ask(2048, 50)] == ["a", "b", "a", "c"]
    assert len(server.requests) == 3


def test_the_batch_line_adds_up():
    line = BatchSummary(tasks=3, passed=0, compiled=1, failed=3, errors=0, blocked=0, prompt_tokens=0,
                        completion_tokens=0, seconds=1.0).render()
    assert "= 0 passed, 3 failed, 0 blocked, 0 errors of 3 tasks in 1.0 s =" in line



def test_tool_definitions_that_do_not_fit_go_as_text_instead(tmp_path):
    """Function calling on, a small window (as llama-cpp-python's chatml-function-calling at n_ctx 2048):
    a required step whose prompt fits only without the tool definitions is sent without them (the
    prompt's Tools slot describes them as text), never failed for want of room."""
    state, _ = make_state([passed()], rag=False)
    with FakeOpenAIServer([ENOUGH, GOOD], window=2000, props=True) as server:
        local(server, state, function_calling=True)
        outcome = asyncio.run(run_translation(state, make_client(state.config), tmp_path / "run"))
    assert outcome.status == "passed" and 400 not in server.statuses
    assert any(not r.get("tools") for r in server.requests)
    assert "generate: the tool definitions do not fit the context window; this call uses the text protocol" \
        in outcome.run.notes
