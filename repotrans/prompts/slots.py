"""Build template slots from what an agent knows: static slots (tools) and dynamic ones (input, context)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, Sequence


class SlotSource(Protocol):
    """What the slots read (an agent's view of its task, e.g. agents.state.PromptView)."""
    java_method: Any                    # index.model.Method
    target_method: Any                  # only its signature is ever shown
    lang_version: str
    config: Any                         # agents.config.AgentConfig: .agents switches
    context: Sequence[Any]              # gathered entries with .tool, .args, .output
    last_commands: Sequence[dict]
    kept_examples: Sequence[Any]
    conventions: Sequence[str]
    port_calls: Sequence[dict]          # how the port writes this method's calls (mapping.api_hints)


def tool_slots() -> list[dict]:
    """The five tools as the Tools slot sees them, from the tool schemas."""
    from repotrans.tools import load_schemas

    out = []
    for name, schema in sorted(load_schemas().items()):
        params = schema.get("parameters", {})
        props = params.get("properties", {})
        required = set(params.get("required", []))
        out.append({
            "name": name,
            "description": " ".join(schema.get("description", "").split()),
            "args": [{"name": p, "type": spec.get("type", "string"), "required": p in required,
                      "description": " ".join(spec.get("description", "").split())}
                     for p, spec in props.items()],
        })
    return out


def function_tools(step: str) -> list[dict]:
    """The tools a step offers as OpenAI function definitions (name, description, parameters), from
    the tool schemas: the context tools (+ `enough` while gathering), or `run_tests` for code steps."""
    from repotrans.tools import load_schemas
    from repotrans.tools.registry import load_step_schema

    if step in ("generate", "repair"):
        return [load_step_schema("run_tests")]
    tools = [load_schemas()[name] for name in sorted(load_schemas())]
    if step == "context":
        tools.append(load_step_schema("enough"))
    return tools if step in ("context", "reflect") else []


def system_prompt(state: SlotSource, templates: Path | None = None) -> str:
    """The stable instructions of every call: byte-identical for every task of one target repository
    (`templates`: the user's prompt templates folder, [prompts] dir)."""
    from repotrans.prompts.language import language_notes
    from repotrans.prompts.render import render_system

    return render_system({"language": language_notes(state.lang_version)}, templates)


def method_text(method: Any) -> str:
    """Declaration plus body, as written in the file."""
    body = method.body or ";"
    return f"{method.signature.rstrip()} {body}".strip()


KIND_WORDS = {"method": "method", "constructor": "constructor", "property": "property", "indexer": "indexer"}


def accessors(target: Any) -> list[str]:
    """The accessors a property or indexer must implement (`get`, `set`), from its placeholder."""
    from repotrans.tools.describe import accessor_summary

    if target.kind not in ("property", "indexer") or not target.body:
        return []
    summary = accessor_summary(target.body).strip("{} ")
    return [a.strip() for a in summary.split(";") if a.strip()] or ["get"]


def member_phrase(state: SlotSource) -> str:
    """How the output format names what to write, per kind of member."""
    target = state.target_method
    if target.kind in ("property", "indexer"):
        acc = " and ".join(f"`{a}`" for a in accessors(target))
        return f"the whole {target.kind} (its declaration with the {acc} accessor bodies written out)"
    if target.kind == "constructor":
        return "the whole constructor (declaration, any `: this(...)`/`: base(...)` initializer, and body)"
    return "the whole method (signature and body)"


def input_slot(state: SlotSource) -> dict:
    java, target = state.java_method, state.target_method
    return {
        "java_class": java.type_id.split(":", 1)[1],
        "java_method": method_text(java),
        "target_class": target.type_id.split(":", 1)[1],
        "target_signature": target.signature.strip(),
        "target_kind": KIND_WORDS.get(target.kind, target.kind),
        "accessors": accessors(target),
        "member_phrase": member_phrase(state),
        "lang_version": state.lang_version,
    }


def context_slot(state: SlotSource) -> list[dict]:
    return [{"tool": e.tool, "args": e.args, "output": e.output} for e in state.context]


def build_slots(state: SlotSource, step: str, **extra: Any) -> dict:
    """All slots a template may use; step-specific values come in `extra`."""
    dynamic = state.config.agents.dynamic_prompt and state.config.agents.context
    slots = {
        "tools": tool_slots() if dynamic else [],
        "input": input_slot(state),
        "gathered_context": context_slot(state),
        "last_command": list(state.last_commands) if dynamic else [],
        "examples": [example_slot(c) for c in state.kept_examples],
        "conventions": list(state.conventions),
        "port_calls": list(state.port_calls) if state.config.agents.api_map else [],
        "max_iterations": state.config.agents.max_context_iterations,
    }
    slots.update(extra)
    return slots


def example_slot(candidate: Any) -> dict:
    """A retrieved pair as the prompt shows it: each side dedented, Java braces K&R, C# braces Allman
    (the layout the repositories themselves use)."""
    return {"source_id": candidate.source_id, "target_id": candidate.target_id,
            "java": member_layout(candidate.java_signature, candidate.java_body, allman=False),
            "csharp": member_layout(candidate.cs_signature, candidate.cs_body, allman=True)}


def member_layout(signature: str, body: str, allman: bool) -> str:
    """Signature and body at column 0: a multi-line block body goes on the next line when `allman`."""
    from repotrans.tools.describe import dedent_body

    sig = " ".join(signature.split())
    body = dedent_body(body.strip())
    if allman and "\n" in body and body.startswith("{"):
        return f"{sig}\n{body}"
    return f"{sig} {body}".strip()
