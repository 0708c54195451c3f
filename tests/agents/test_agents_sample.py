"""The agents on the sample pair, with real indexing, tools, retrieval, mcs compiles and NUnit runs.

The target method is masked with a placeholder in a tmp copy of datasets/sample/csharp before indexing,
so its ground truth can reach no prompt; the tests check that it does not.
"""
from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
from autogen_core.models import ModelInfo
from autogen_ext.models.replay import ReplayChatCompletionClient

from repotrans.execution.judge.runner import Runner
from repotrans.agents.config import AgentConfig
from repotrans.agents.models import make_client
from repotrans.agents.session import open_view, prepare
from repotrans.agents.team import run_translation
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.sample_masking import masked_sample

pytestmark = pytest.mark.slow

FUNCTION = "Acme.Geo.Shapes.Circle.Scale(double)"
TRUTH = 'radius * Preconditions.CheckPositive(factor, "factor")'
INFO = ModelInfo(vision=False, function_calling=True, json_output=False, family="unknown", structured_output=False)
GOOD = ("```csharp\npublic Circle Scale(double factor)\n{\n"
        '    return new Circle(center, radius * Preconditions.CheckPositive(factor, "factor"));\n}\n```')
JAVA_NAMES = ("```csharp\npublic Circle Scale(double factor)\n{\n"
              '    return new Circle(center, radius * Preconditions.checkPositive(factor, "factor"));\n}\n```')


def call(tool: str, **args) -> str:
    return json.dumps({"tool": tool, "arguments": args})


@pytest.fixture(scope="module")
def masked(tmp_path_factory) -> tuple[Path, Path]:
    """(java root, masked C# root) with Circle.Scale's body replaced by a placeholder."""
    java, csharp = masked_sample(tmp_path_factory.mktemp("sample"), FUNCTION)
    assert TRUTH not in (csharp / "src" / "Acme.Geo" / "Shapes" / "Circle.cs").read_text()
    return java, csharp


def translate(masked, tmp_path, client_or_answers, **switches):
    config = AgentConfig().overlay({"agents": switches})
    workdir = tmp_path / "work"
    client = client_or_answers
    if isinstance(client_or_answers, list):
        client = ReplayChatCompletionClient(client_or_answers, model_info=INFO)
    view = open_view(workdir, masked[0], masked[1])
    try:
        with Runner(config.execution, workdir) as runner:
            state = prepare(workdir, FUNCTION, config, runner, view=view)
            outcome = asyncio.run(run_translation(state, client, tmp_path / "run"))
    finally:
        view.index.close()
    entries = [json.loads(l) for l in (tmp_path / "run" / "trajectory.jsonl").read_text().splitlines()]
    prompts = [m["content"] for e in entries if e["kind"] == "model" for m in e["messages"]
               if m["role"] != "SystemMessage"]
    assert prompts and not any(TRUTH in p for p in prompts)          # no ground truth in any prompt
    return outcome.run, outcome, entries, prompts


def test_happy_path_all_five_tools_and_rag(masked, tmp_path):
    run, outcome, entries, prompts = translate(masked, tmp_path, [
        '{"retrieve": true, "reason": "uses a project helper"}',
        '{"decisions": [{"candidate": 1, "keep": true, "reason": "same class"}, '
        '{"candidate": 2, "keep": false, "reason": "unrelated"}]}',
        call("get_source_class_info"), call("get_target_class_info"), call("find_target_imports"),
        call("find_target_class_info", class_name="Preconditions"),
        call("find_target_method_body", class_name="Preconditions", method_name="CheckPositive"),
        '{"tool": "enough", "reason": "CheckPositive is known"}',
        GOOD,
    ])
    assert outcome.status == "passed", outcome.result
    assert outcome.result["tests_run"] > 0 and outcome.attempts == 1
    tools = [e["tool"] for e in entries if e["kind"] == "tool"]
    assert tools == ["retrieve", "get_source_class_info", "get_target_class_info", "find_target_imports",
                     "find_target_class_info", "find_target_method_body", "run_tests"]
    assert not any("error" in e["output"] for e in entries if e["kind"] == "tool")
    assert len(run.handoff.examples) == 1 and len(run.handoff.context) == 5
    generate = prompts[-1]
    assert "public static double CheckPositive(double value, string name)" in generate
    assert f"`{run.handoff.examples[0].source_id}`" in generate
    assert "Circle.Scale" not in " ".join(c.target_id for c in run.rag_candidates)


def test_compile_error_reaches_reflection_then_repair_passes(masked, tmp_path):
    run, outcome, entries, prompts = translate(masked, tmp_path, [
        call("get_target_class_info"), '{"tool": "enough", "reason": "ok"}',
        JAVA_NAMES,
        "The Java name checkPositive does not exist in C#; the helper is PascalCase.\n"
        + "MORE_CONTEXT: " + call("find_target_class_info", class_name="Preconditions"),
        GOOD,
    ], rag=False)
    first = run.attempts[0].result
    assert first.status == "compile_error" and any(d.code == "CS0117" for d in first.diagnostics)
    reflect = next(p for p in prompts if p.startswith("# Step: reflect"))
    assert "CS0117" in reflect and "checkPositive" in reflect and "candidate line 3" in reflect
    repair = next(p for p in prompts if p.startswith("# Step: repair"))
    assert "CheckPositive(double value" in repair and "## Reflection\nThe Java name" in repair
    assert outcome.status == "passed" and outcome.attempts == 2 and outcome.repair_rounds == 1


def test_garbage_unknown_tool_and_500_through_real_client(masked, tmp_path, monkeypatch):
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    answers = ["Let me think about which class to read.", call("find_target_class_info", class_name="Precondition"),
               call("open_file", path="Circle.cs"),
               call("find_target_class_info", class_name="Preconditions"), '{"tool": "enough"}', GOOD]
    with FakeOpenAIServer(answers, fail_first=1) as server:
        config = AgentConfig().overlay({"model": {"name": "local-coder", "base_url": server.base_url}})
        client = make_client(config, cache_path=tmp_path / "cache.sqlite")
        run, outcome, entries, prompts = translate(masked, tmp_path, client, rag=False)
    assert server.statuses[0] == 500 and server.statuses[1:] == [200] * 6
    assert outcome.status == "passed"
    assert any("prose with no JSON object" in n for n in run.notes) and any("unknown tool" in n for n in run.notes)
    errors = [e["output"] for e in entries if e["kind"] == "tool" and "error" in e["output"]]
    assert len(errors) == 1 and "Acme.Common.Preconditions" in errors[0]["did_you_mean"]
    fourth = [p for p in prompts if p.startswith("# Step: gather")][3]     # after the misspelt class
    assert "-> error: no C# type named 'Precondition' (did you mean: Acme.Common.Preconditions" in fourth


def test_static_prompt_ablation_on_sample(masked, tmp_path):
    run, outcome, entries, prompts = translate(masked, tmp_path, [GOOD], rag=False, dynamic_prompt=False)
    assert [e.tool for e in run.handoff.context] == ["get_source_class_info", "get_target_class_info",
                                               "find_target_imports"]
    assert len(prompts) == 1 and "No tools in this configuration" not in prompts[0]
    assert "## Tools" not in prompts[0] and "Acme.Common" in prompts[0]
    assert outcome.status == "passed"


def test_cli_translate_with_write(masked, tmp_path, monkeypatch, capsys):
    from repotrans.cli import main

    java, cs = tmp_path / "java", tmp_path / "csharp"
    shutil.copytree(masked[0], java)
    shutil.copytree(masked[1], cs)
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer(['{"tool": "enough"}', GOOD]) as server:
        code = main(["--workdir", str(tmp_path / "ws"), "translate", "--source", str(java), "--target", str(cs),
                     "--function", "Circle.Scale(double)", "--model", "local-coder", "--base-url", server.base_url,
                     "--no-rag", "--run-dir", str(tmp_path / "run"), "--write"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("```csharp\npublic Circle Scale(double factor)\n")
    assert "test outcome: passed (" in out and "rounds: 0 repair round(s), 1 candidate(s)" in out
    assert "in 2 model calls" in out and f"run: {tmp_path / 'run'}" in out
    written = (cs / "src/Acme.Geo/Shapes/Circle.cs").read_text()
    assert TRUTH in written and "NotImplementedException" not in written
    assert (tmp_path / "run" / "result.json").is_file()


def test_cli_without_model_says_what_to_set(masked, tmp_path, monkeypatch, capsys):
    from repotrans.cli import main

    monkeypatch.delenv("REPOTRANS_MODEL", raising=False)
    monkeypatch.chdir(tmp_path)
    code = main(["--workdir", str(tmp_path / "ws"), "translate", "--source", str(masked[0]), "--target",
                 str(masked[1]), "--function", "Circle.Scale(double)"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("repotrans: error: no model configured: pass --model NAME")
    assert not (tmp_path / "ws").exists()


HELPER = ("```csharp\nusing System.Linq;\n\npublic Circle Scale(double factor)\n{\n"
          '    return new Circle(center, Times(radius, Preconditions.CheckPositive(factor, "factor"))){end}\n}}\n\n'
          "private static double Times(double a, double b)\n{{\n    return new[] {{ a, b }}.Aggregate((x, y) => x * y);\n}}\n```")


def test_usings_and_helpers_are_added_marked_and_gone_with_a_rejected_candidate(masked, tmp_path):
    """Both candidates bring `using System.Linq;` and the private helper Times; the first does not
    compile, and the second compiles only if the first one's helper did not stay behind."""
    run, outcome, entries, prompts = translate(masked, tmp_path, [
        '{"tool": "enough"}', HELPER.replace("{end}", "").replace("{{", "{").replace("}}", "}"),
        HELPER.replace("{end}", ";").replace("{{", "{").replace("}}", "}")], rag=False, reflection=False)
    first, second = run.attempts
    assert first.result.status == "compile_error" and second.result.status == "passed", second.result.brief()
    assert first.additions["helpers"] == second.additions["helpers"] == ["method Times"]
    assert second.additions["usings"] == ["using System.Linq;"]
    assert outcome.status == "passed" and outcome.additions["helpers"] == ["method Times"]
    attempts = [e for e in entries if e["kind"] == "attempt"]
    assert [a["additions"]["helpers"] for a in attempts] == [["method Times"], ["method Times"]]
    repair = next(p for p in prompts if p.startswith("# Step: repair"))
    assert "Added beside the member: method Times." in repair
