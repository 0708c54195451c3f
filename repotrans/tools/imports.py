"""find_target_imports: the usings of the C# file that will hold the translation, resolved."""
from __future__ import annotations

from repotrans.index.model import Import
from repotrans.tools.context import ToolContext, ToolError
from repotrans.tools.describe import one_line


def find_target_imports(ctx: ToolContext) -> dict:
    """Each using with the project types it brings in; namespaces not in the C# repo are external."""
    _, target = ctx.task_methods()
    info = ctx.index.file("target", target.path)
    if info is None:
        raise ToolError(f"file {target.path} is not in the index; re-index")
    by_ns = ctx.target_types_by_namespace()
    usings = [_describe_using(ctx, imp, by_ns) for imp in info.imports]
    visible = {}
    for ns in info.namespaces:
        parts = ns.split(".")
        for i in range(len(parts), 0, -1):
            enclosing = ".".join(parts[:i])
            if enclosing in by_ns and enclosing not in visible:
                visible[enclosing] = _names(by_ns[enclosing])
    return {
        "file": info.path,
        "namespaces": list(info.namespaces),
        "usings": usings,
        "namespace_types": visible,
    }


def _names(types) -> list[str]:
    return sorted(t.name for t in types)


def _describe_using(ctx: ToolContext, imp: Import, by_ns: dict) -> dict:
    out: dict = {"using": one_line(imp.text)}
    if imp.alias:
        out["alias"] = imp.alias
    if imp.name in by_ns:
        out["namespace"] = imp.name
        out["project_types"] = _names(by_ns[imp.name])
        return out
    if any(ns.startswith(imp.name + ".") for ns in by_ns):
        out["namespace"] = imp.name
        out["project_types"] = []
        return out
    hits = [t for t in ctx.index.find_types("target", imp.name) if t.qualified_name == imp.name]
    if hits:
        out["type"] = imp.name
        if imp.static:                      # `using static T;` brings in T's static members
            out["static_members"] = sorted(
                {m.name for m in ctx.index.methods(hits[0].id) if "static" in m.modifiers}
                | {f.name for f in ctx.index.fields(hits[0].id) if {"static", "const"} & set(f.modifiers)})
        return out
    out["namespace" if not imp.static else "type"] = imp.name
    out["external"] = True
    return out
