"""Build template slots from a TranslationState: static slots (tools) and dynamic ones (input, context)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from repotrans.agents.state import TranslationState


def tool_slots() -> list[dict]:
    """The five tools as the Tools slot sees them, from tools/*.json."""
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


def method_text(method: Any) -> str:
    """Declaration plus body, as written in the file."""
    body = method.body or ";"
    return f"{method.signature.rstrip()} {body}".strip()


def input_slot(state: "TranslationState") -> dict:
    java, target = state.java_method, state.target_method
    return {
        "java_class": java.type_id.split(":", 1)[1],
        "java_method": method_text(java),
        "target_class": target.type_id.split(":", 1)[1],
        "target_signature": target.signature.strip(),
        "lang_version": state.lang_version,
    }


def context_slot(state: "TranslationState") -> list[dict]:
    return [{"tool": e.tool, "args": e.args, "output": e.output} for e in state.context]


def build_slots(state: "TranslationState", step: str, **extra: Any) -> dict:
    """All slots a template may use; step-specific values come in `extra`."""
    dynamic = state.config.agents.dynamic_prompt and state.config.agents.context
    slots = {
        "tools": tool_slots() if dynamic else [],
        "input": input_slot(state),
        "gathered_context": context_slot(state),
        "last_command": list(state.last_commands) if dynamic else [],
        "examples": [example_slot(c) for c in state.kept_examples],
        "max_iterations": state.config.agents.max_context_iterations,
    }
    slots.update(extra)
    return slots


def example_slot(candidate: Any) -> dict:
    return {"source_id": candidate.source_id, "target_id": candidate.target_id,
            "java": f"{candidate.java_signature.rstrip()} {candidate.java_body}".strip(),
            "csharp": f"{candidate.cs_signature.rstrip()} {candidate.cs_body}".strip()}
