"""The builtin policy's decision for each agent step, as plain functions over the TranslationState.

Each returns the answer text in the format the step's template asks a model for:
rag_decide / rag_filter / context -> one JSON object; generate / repair -> a ```csharp block;
reflect -> a short analysis plus `MORE_CONTEXT: none`.
The translator ignores retrieved examples: it is syntax-directed and uses only the gathered context.
"""
from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from repotrans.policy.java2cs import parse_java_method, translate_method
from repotrans.policy.repair import repair_with_reason
from repotrans.policy.resolver import ContextResolver, jdk_table

if TYPE_CHECKING:
    from repotrans.agents.state import TranslationState

FIRST_TOOLS = ("get_source_class_info", "get_target_class_info", "find_target_imports")
FILTER_THRESHOLD = 0.2     # Jaccard overlap of identifier sets for keeping a retrieved example
_WORD = re.compile(r"[A-Za-z_]\w*")


def java_class_name(state: "TranslationState") -> str:
    return state.java_method.type_id.split(":", 1)[-1].rsplit(".", 1)[-1]


def resolver_for(state: "TranslationState") -> ContextResolver:
    outputs = [(e.tool, e.args, e.output) for e in state.context]
    return ContextResolver.from_tool_outputs(java_class_name(state), outputs)


def project_types(state: "TranslationState") -> list[str]:
    """Capitalised type names the Java method uses that are neither JDK types nor its own class."""
    node, _ = parse_java_method(state.java_method)
    table = jdk_table()
    known = set(table["types"]) | set(table["statics"]) | set(table["functional"]) | {"System", "Override"}
    own = java_class_name(state)
    found: list[str] = []

    def visit(n: Node) -> None:
        name = None
        if n.type == "type_identifier":
            name = n.text.decode()
        elif n.type == "method_invocation" and (obj := n.child_by_field_name("object")) is not None \
                and obj.type == "identifier" and obj.text.decode()[:1].isupper():
            name = obj.text.decode()
        if name and name not in known and name != own and name not in found and not name.isupper():
            found.append(name)
        for child in n.children:
            visit(child)

    visit(node)
    type_params = {tp for tp in state.java_method.type_params}
    return [n for n in found if n not in type_params and len(n) > 1]


def decide_rag(state: "TranslationState") -> str:
    used = project_types(state)
    if used:
        return json.dumps({"retrieve": True, "reason": f"uses project types {', '.join(used[:3])}"})
    return json.dumps({"retrieve": False, "reason": "uses only JDK types and its own class"})


def filter_examples(state: "TranslationState") -> str:
    mine = set(_WORD.findall(state.java_method.body or ""))
    decisions = []
    for i, cand in enumerate(state.rag_candidates, 1):
        theirs = set(_WORD.findall(getattr(cand, "java_body", "") or ""))
        overlap = len(mine & theirs) / max(1, len(mine | theirs))
        keep = overlap >= FILTER_THRESHOLD
        decisions.append({"candidate": i, "keep": keep, "reason": f"identifier overlap {overlap:.2f}"})
    return json.dumps({"decisions": decisions})


def next_context_call(state: "TranslationState") -> str:
    done = {(c["tool"], json.dumps(c.get("args", {}), sort_keys=True)) for c in state.last_commands}
    done |= {(e.tool, json.dumps(e.args, sort_keys=True)) for e in state.context}
    wanted: list[tuple[str, dict[str, Any]]] = [(tool, {}) for tool in FIRST_TOOLS]
    wanted += [("find_target_class_info", {"class_name": name}) for name in project_types(state)]
    for tool, args in wanted:
        if (tool, json.dumps(args, sort_keys=True)) not in done:
            return json.dumps({"tool": tool, "arguments": args})
    return json.dumps({"tool": "enough", "reason": "every project type the method uses has been looked up"})


def generate(state: "TranslationState") -> str:
    code = translate_method(state.java_method, resolver_for(state), state.target_method)
    return f"```csharp\n{code}\n```"


def reflect(state: "TranslationState") -> str:
    attempt = state.attempts[-1] if state.attempts else None
    if attempt is None or attempt.result is None:
        return "No tested candidate to reflect on.\nMORE_CONTEXT: none"
    outcome = repair_with_reason(attempt.code, attempt.result, resolver_for(state))
    lines = [f"The candidate ended with status {attempt.result.status}."]
    lines += [f"- {d.code} at candidate line {d.candidate_line}: {d.message}"
              for d in attempt.result.diagnostics[:5] if d.severity == "error"]
    lines.append(("Fix: " if outcome.code else "No rule applies: ") + outcome.reason)
    return "\n".join(lines[:10]) + "\nMORE_CONTEXT: none"


def repair(state: "TranslationState") -> str:
    attempt = state.attempts[-1]
    outcome = repair_with_reason(attempt.code, attempt.result, resolver_for(state)) if attempt.result else None
    code = outcome.code if outcome is not None and outcome.code else attempt.code
    return f"```csharp\n{code}\n```"


ANSWERS = {"rag_decide": decide_rag, "rag_filter": filter_examples, "context": next_context_call,
           "generate": generate, "reflect": reflect, "repair": repair}
