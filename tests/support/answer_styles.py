"""How real models answer the same thing: each style renders one step's intended answer as server replies.

A step's intended answer is a JSON object (rag_decide, rag_filter, context), C# code (generate,
repair) or (analysis, tool requests) (reflect). A style returns the list of replies the fake server
sends for it (usually one; a cut-off answer and its re-ask are two). Replies are strings (content) or
the dicts tests/support/fake_openai_server.py understands (tool_calls, reasoning_content, finish_reason, ...).
"""
from __future__ import annotations

import json
import re
from typing import Callable

Intended = dict | str | tuple[str, list[dict]]
Style = Callable[[str, Intended], list]


def _json(obj: dict) -> str:
    return json.dumps(obj)


def _sloppy(obj: dict) -> str:
    """Single quotes and trailing commas, as small models write JSON."""
    def render(v):
        if isinstance(v, dict):
            return "{" + ", ".join(f"'{k}': {render(x)}" for k, x in v.items()) + (", }" if v else "}")
        if isinstance(v, list):
            return "[" + ", ".join(render(x) for x in v) + ",]"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return "'" + v.replace("'", "\\'") + "'"
        return json.dumps(v)
    return render(obj)


def _fence(code: str, tag: str = "csharp") -> str:
    return f"```{tag}\n{code}\n```"


def _reflection(value: tuple[str, list[dict]], marker: str = "MORE_CONTEXT:", next_line: bool = False,
                dump=_json) -> str:
    analysis, requests = value
    if not requests:
        return f"{analysis}\n{marker} none"
    sep = "\n```json\n" if next_line else " "
    end = "\n```" if next_line else ""
    return analysis + "\n" + "\n".join(f"{marker}{sep}{dump(r)}{end}" for r in requests)


def oracle(step: str, value: Intended) -> list:
    if step in ("generate", "repair"):
        return [_fence(value)]
    if step == "reflect":
        return [_reflection(value)]
    return [_json(value)]


def r1_think() -> str:
    """A reasoning block with a draft fence, JSON and braces in it, as R1-style models write."""
    return ("<think>\nThe user wants the step done. Maybe {\"tool\": \"get_source_class_info\"} first? "
            "A draft:\n```csharp\npublic void Draft() { throw new System.Exception(\"DRAFT\"); }\n```\n"
            "Braces { } balance. Final answer below.\n</think>\n\n")


def r1(step: str, value: Intended) -> list:
    """DeepSeek-R1 / Qwen3 / QwQ: a <think> block with a draft fence and braces, then ```cs, trailing commas."""
    think = r1_think()
    if step in ("generate", "repair"):
        return [think + _fence(value, "cs")]
    if step == "reflect":
        return [think + _reflection(value, dump=_sloppy)]
    return [think + _sloppy(value)]


def reasoning_field(step: str, value: Intended) -> list:
    """DeepSeek's API: the reasoning in `reasoning_content`, with code and braces in it."""
    reasoning = "Draft: ```csharp\npublic void Draft() { }\n``` and {\"tool\": \"x\"}"
    return [{"content": oracle(step, value)[0], "reasoning_content": reasoning}]


def ollama_thinking(step: str, value: Intended) -> list:
    """Ollama's CLI format for thinking models."""
    return ["Thinking...\nLet me see { } and ```csharp\nint Draft() { }\n```\n...done thinking.\n\n"
            + oracle(step, value)[0]]


def native(step: str, value: Intended) -> list:
    """Ollama/vLLM with tool parsers: tool calls with content null (arguments as an object, Ollama-style)."""
    if step == "context":
        name = value["tool"]
        args = {"reason": value.get("reason", "")} if name == "enough" else value.get("arguments", {})
        return [{"content": None, "tool_calls": [{"name": name, "arguments": args}]}]
    if step in ("generate", "repair"):
        return [{"content": None, "tool_calls": [{"name": "run_tests", "arguments": json.dumps({"code": value})}]}]
    if step == "reflect":
        analysis, requests = value
        return [{"content": analysis, "tool_calls": [{"name": r["tool"], "arguments": r["arguments"]}
                                                     for r in requests]}]
    return oracle(step, value)


def sloppy_json(step: str, value: Intended) -> list:
    if step in ("generate", "repair", "reflect"):
        return oracle(step, value)
    return [_sloppy(value)]


def llama(step: str, value: Intended) -> list:
    """Llama 3 style tool calls in text: {"name": ..., "parameters": {...}}."""
    if step == "context":
        if value["tool"] == "enough":
            return [_json(value)]
        return [_json({"name": value["tool"], "parameters": value.get("arguments", {})})]
    if step == "reflect":
        analysis, requests = value
        return [_reflection((analysis, [{"name": r["tool"], "parameters": r["arguments"]} for r in requests]))]
    return oracle(step, value)


def bold_markers(step: str, value: Intended) -> list:
    if step == "reflect":
        return [_reflection(value, marker="**MORE_CONTEXT:**", next_line=True)]
    return oracle(step, value)


def whole_class(step: str, value: Intended) -> list:
    """The member inside usings + namespace + class, with an existing member repeated."""
    if step not in ("generate", "repair"):
        return oracle(step, value)
    body = "\n".join("        " + line if line else "" for line in value.split("\n"))
    return ["Here is the complete class:\n" + _fence(
        "using System;\nusing System.Collections.Generic;\n\nnamespace Acme\n{\n    public class Circle\n    {\n"
        "        private double radius;\n\n" + body + "\n    }\n}")]


def usage_snippet(step: str, value: Intended) -> list:
    if step not in ("generate", "repair"):
        return oracle(step, value)
    return ["You would call it like this:\n" + _fence("var area = circle.GetArea();\nConsole.WriteLine(area);")
            + "\n\nThe implementation:\n" + _fence(value)]


def truncated(step: str, value: Intended) -> list:
    """The generate answer is cut off at max_tokens (finish_reason length); the re-ask gets it whole."""
    if step != "generate":
        return oracle(step, value)
    full = oracle(step, value)[0]
    return [{"content": full[:len(full) // 2], "finish_reason": "length"}, full]


def no_usage(step: str, value: Intended) -> list:
    return [{"content": oracle(step, value)[0], "usage": None}]


def empty_choices(step: str, value: Intended) -> list:
    """An overloaded server answers once without choices before the real answer."""
    if step != "generate":
        return oracle(step, value)
    return [{"choices": []}] + oracle(step, value)


STYLES: dict[str, Style] = {f.__name__: f for f in (
    oracle, r1, reasoning_field, ollama_thinking, native, sloppy_json, llama, bold_markers, whole_class,
    usage_snippet, truncated, no_usage, empty_choices)}


def script(style: Style, flow: list[tuple[str, Intended]]) -> list:
    """The fake server's replies for a whole conversation flow."""
    return [reply for step, value in flow for reply in style(step, value)]


def normalise(code: str) -> str:
    return re.sub(r"\s+", " ", code).strip()
