"""The builtin policy's decision for each agent step, as plain functions over a StepRequest: what the
step's prompt shows (policy.reading), with the repository lookups it names.

Each returns the answer text in the format the step's template asks a model for:
rag_decide / rag_filter / context -> one JSON object; generate / repair -> a ```csharp block;
reflect -> a short analysis plus `MORE_CONTEXT: none`.
The translator ignores retrieved examples: it is syntax-directed and uses only the gathered context.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from repotrans.errors import InputError
from repotrans.verdicts.results import TestResult
from repotrans.index.model import Field, Method
from repotrans.mapping.api_map import ApiMap
from repotrans.translator.base_calls import with_base_arguments
from repotrans.translator.boundary import StoredValue, store_values
from repotrans.translator.byte_views import element_accessors
from repotrans.translator.constants import add_constants
from repotrans.translator.java2cs import extension_param, parse_java_method, translate_method
from repotrans.translator.helpers import add_helpers
from repotrans.translator.no_counterpart import missing_reasons
from repotrans.translator.removed_types import inline_removed_calls
from repotrans.translator.repair import repair_with_reason
from repotrans.translator.cs_types import jdk_table
from repotrans.translator.resolver import ContextResolver
from repotrans.translator.timestamps import translate_with_dates
from repotrans.translator.tool_outputs import declared_member

FIRST_TOOLS = ("get_source_class_info", "get_target_class_info", "find_target_imports")
FILTER_THRESHOLD = 0.2     # Jaccard overlap of identifier sets for keeping a retrieved example
_WORD = re.compile(r"[A-Za-z_]\w*")


def class_name(method: Method) -> str:
    """Simple name of the type declaring `method`."""
    return method.type_id.split(":", 1)[-1].rsplit(".", 1)[-1]


@dataclass
class StepRequest:
    """One step as the policy reads it: the prompt's Input, the gathered tool calls with their outputs,
    the calls made so far, the candidates to judge, the candidate under repair and its test result."""
    step: str
    java_method: Method
    target_method: Method
    outputs: list[tuple[str, dict, dict]] = field(default_factory=list)   # Gathered Context
    called: list[tuple[str, dict]] = field(default_factory=list)          # Last Command
    candidate_bodies: list[str] = field(default_factory=list)             # rag_filter: their Java bodies
    code: str | None = None
    result: TestResult | None = None
    renames: dict[str, str] = field(default_factory=dict)                 # callees the port renamed
    suggested: dict[str, list[str]] = field(default_factory=dict)         # ambiguous class -> qualified names
    api: ApiMap | None = None                                             # learned API map, without this pair
    helpers: list[Method] = field(default_factory=list)                   # Java helpers the port removed
    constants: list[Field] = field(default_factory=list)                  # Java constants the port removed
    jdk_names: frozenset[str] = frozenset()                               # simple names the Java file imports
                                                                          # from the JDK: never port types
    libraries: frozenset[str] = frozenset()                               # library packages it imports from
                                                                          # (the table's [libraries])
    stored: list[StoredValue] = field(default_factory=list)               # values the port's base class stores
    base_args: tuple[str, ...] | None = None                              # what a constructor's super(...) passes
                                                                          # where the port's base cannot take
                                                                          # Java's arguments (base_calls)


def resolver_for(req: StepRequest) -> ContextResolver:
    resolver = ContextResolver.from_tool_outputs(class_name(req.java_method), req.outputs)
    resolver.renames = req.renames      # callees the port renamed, as the mapping aligned them
    resolver.api = req.api              # how the port writes JDK calls and removed helpers
    resolver.libraries = req.libraries  # library tables that join the JDK's for this file
    return resolver


def jdk_imports(imports) -> frozenset[str]:
    """Simple names a Java file imports from the JDK (`import java.util.Calendar;`): bound there, so never
    a port type of the same simple name (Calendar is not the port's ICalendar)."""
    return frozenset(i.name.rsplit(".", 1)[-1] for i in imports
                     if not i.wildcard and not i.static and i.name.startswith(("java.", "javax.")))


def library_imports(imports) -> frozenset[str]:
    """The library packages of the table ([libraries]) a Java file imports from (by name or with `*`)."""
    libraries = jdk_table().get("libraries", {})
    found = set()
    for i in imports:
        if i.static:
            continue
        package = i.name if i.wildcard else i.name.rpartition(".")[0]
        if package in libraries:
            found.add(package)
    return frozenset(found)


def project_types(java_method: Method, java_fields: dict[str, str] | None = None,
                  jdk_names: frozenset[str] = frozenset()) -> list[str]:
    """Capitalised type names the Java method uses (directly or through fields of its class) that are
    neither JDK types (the table's, and `jdk_names`, those its file imports from the JDK) nor its own class."""
    node, _ = parse_java_method(java_method)
    table = jdk_table()
    known = set(table["types"]) | set(table["statics"]) | set(table["functional"]) | {"System", "Override"}
    # a JDK name the Java file imports is the JDK's where the table maps it; one it does not map (java.nio's
    # ByteBuffer) is the port's own stand-in when the port has a type of that name, so it is looked up
    known = (known - set(table["jdk_when_imported"]["names"])) | (jdk_names & known)
    own = class_name(java_method)
    found: list[str] = []

    def visit(n: Node) -> None:
        name = None
        if n.type == "type_identifier":
            name = n.text.decode()
        elif n.type in ("method_invocation", "field_access") and (obj := n.child_by_field_name("object")) \
                is not None and obj.type == "identifier" and obj.text.decode()[:1].isupper():
            name = obj.text.decode()
        if n.type == "identifier" and java_fields and n.text.decode() in java_fields:
            for part in _WORD.findall(java_fields[n.text.decode()]):
                if part[:1].isupper() and part not in known and part != own and part not in found:
                    found.append(part)
        if name and name not in known and name != own and name not in found and not name.isupper():
            found.append(name)
        for child in n.children:
            visit(child)

    visit(node)
    type_params = set(java_method.type_params)
    return [n for n in found if n not in type_params and len(n) > 1]


def decide_rag(req: StepRequest) -> str:
    used = project_types(req.java_method, jdk_names=req.jdk_names)
    if used:
        return json.dumps({"retrieve": True, "reason": f"uses project types {', '.join(used[:3])}"})
    return json.dumps({"retrieve": False, "reason": "uses only JDK types and its own class"})


def filter_examples(req: StepRequest) -> str:
    mine = set(_WORD.findall(req.java_method.body or ""))
    decisions = []
    for i, body in enumerate(req.candidate_bodies, 1):
        theirs = set(_WORD.findall(body or ""))
        overlap = len(mine & theirs) / max(1, len(mine | theirs))
        keep = overlap >= FILTER_THRESHOLD
        decisions.append({"candidate": i, "keep": keep, "reason": f"identifier overlap {overlap:.2f}"})
    return json.dumps({"decisions": decisions})


def wanted_calls(java_method: Method, outputs: list[tuple[str, dict, dict]],
                 target: Method | None = None, jdk_names: frozenset[str] = frozenset()) -> list[tuple[str, dict[str, Any]]]:
    """The fixed tools, then find_target_class_info for the project types the method uses, for the
    target class's base types (their members are inherited) and for an extension method's `this` type."""
    got = {tool: out for tool, _, out in outputs if isinstance(out, dict) and "error" not in out}
    java_fields = dict(declared_member(f) for f in got.get("get_source_class_info", {}).get("fields", [])
                       if declared_member(f))
    names = project_types(java_method, java_fields, jdk_names)
    extension = extension_param(target) if target is not None else None
    if extension is not None and extension[1] not in names:
        names.insert(0, extension[1])
    for base in got.get("get_target_class_info", {}).get("supertypes", []):
        if base.rsplit(".", 1)[-1] not in names:
            names.append(base)
    return [(tool, {}) for tool in FIRST_TOOLS] + [("find_target_class_info", {"class_name": n}) for n in names]


def missing_owners(java_method: Method, outputs: list[tuple[str, dict, dict]], target: Method | None,
                   jdk_names: frozenset[str] = frozenset()) -> list[str]:
    """Types a dry translation asked about (e.g. the result type of `p.getAccount()`) that the context
    does not describe yet; looking them up lets the next translation use their members."""
    resolver = ContextResolver.from_tool_outputs(class_name(java_method), outputs)
    try:
        translate_method(java_method, resolver, target)
    except InputError:
        return []
    known = set(jdk_table()["types"]) | set(jdk_table()["statics"]) | jdk_names
    return [m for m in resolver.missing if m not in known]


def disambiguated(outputs: list[tuple[str, dict, dict]], suggested: dict[str, list[str]]) -> list[dict[str, str]]:
    """find_target_class_info asked again with a qualified name where a simple one was ambiguous, the
    one C# name lookup finds first: in the target class's own namespace (or nested in a type there),
    then in an enclosing namespace (innermost first), then in a namespace the file imports."""
    got = {tool: out for tool, _, out in outputs if isinstance(out, dict) and "error" not in out}
    own = str(got.get("get_target_class_info", {}).get("class", "")).rpartition(".")[0]
    imports = got.get("find_target_imports", {})
    imported = [*imports.get("namespaces", []), *(u.get("namespace", "") for u in imports.get("usings", []))]
    out = []
    for names in suggested.values():
        ranked = sorted(names, key=lambda n: _lookup_rank(n, own, imported))
        if ranked:
            out.append({"class_name": ranked[0]})
    return out


def _lookup_rank(qualified: str, own: str, imported: list[str]) -> tuple[int, int]:
    container = qualified.rpartition(".")[0]
    if container == own or (own and container.startswith(own + ".")):
        return 0, container.count(".")
    if own == container or own.startswith(container + "."):
        return 1, -container.count(".")
    if container in imported:
        return 2, 0
    return 3, 0


def next_context_call(req: StepRequest) -> str:
    done = {(tool, json.dumps(args, sort_keys=True)) for tool, args in req.called}
    done |= {(tool, json.dumps(args, sort_keys=True)) for tool, args, _ in req.outputs}
    for tool, args in wanted_calls(req.java_method, req.outputs, req.target_method, req.jdk_names):
        if (tool, json.dumps(args, sort_keys=True)) not in done:
            return json.dumps({"tool": tool, "arguments": args})
    for owner in missing_owners(req.java_method, req.outputs, req.target_method, req.jdk_names):
        args = {"class_name": owner}
        if ("find_target_class_info", json.dumps(args, sort_keys=True)) not in done:
            return json.dumps({"tool": "find_target_class_info", "arguments": args})
    for args in disambiguated(req.outputs, req.suggested):
        if ("find_target_class_info", json.dumps(args, sort_keys=True)) not in done:
            return json.dumps({"tool": "find_target_class_info", "arguments": args})
    return json.dumps({"tool": "enough", "reason": "every project type the method uses has been looked up"})


def generate(req: StepRequest) -> str:
    resolver = resolver_for(req)
    own = resolver.members(None)       # the C# class's members (None when the context does not describe it)
    java = with_base_arguments(req.java_method, req.base_args)
    java = element_accessors(java, set(resolver.members("ByteBuffer")), set(own) if own else None)
    code = translate_with_dates(java, resolver, req.target_method, translate_method)
    own = req.java_method.type_id
    code = add_helpers(code, [h for h in req.helpers if h.type_id == own], resolver, translate_method)
    code = inline_removed_calls(code, [h for h in req.helpers if h.type_id != own], resolver, translate_method)
    code = add_constants(code, req.constants, resolver, translate_method)
    code = store_values(code, req.stored, resolver, translate_method, [p.name for p in req.target_method.params])
    return f"```csharp\n{code}\n```"


def reflect(req: StepRequest) -> str:
    if req.code is None or req.result is None:
        return "No tested candidate to reflect on.\nMORE_CONTEXT: none"
    outcome = repair_with_reason(req.code, req.result, resolver_for(req))
    lines = [f"The candidate ended with status {req.result.status}."]
    lines += [f"- {d.code} at candidate line {d.candidate_line}: {d.message}"
              for d in req.result.diagnostics[:5] if d.severity == "error"]
    lines.append(("Fix: " if outcome.code else "No rule applies: ") + outcome.reason)
    lines += [f"- no counterpart: {r}" for r in missing_reasons(req.result, resolver_for(req))[:3]]
    return "\n".join(lines[:13]) + "\nMORE_CONTEXT: none"


def repair(req: StepRequest) -> str:
    if req.code is None:
        raise InputError("the repair prompt shows no previous candidate")
    outcome = repair_with_reason(req.code, req.result, resolver_for(req)) if req.result else None
    code = outcome.code if outcome is not None and outcome.code else req.code
    return f"```csharp\n{code}\n```"


ANSWERS = {"rag_decide": decide_rag, "rag_filter": filter_examples, "context": next_context_call,
           "generate": generate, "reflect": reflect, "repair": repair}
