"""find_target_method_body: every overload of a C# member with its body, except the one being written."""
from __future__ import annotations

import difflib

from repotrans.index.model import Method, TypeDecl
from repotrans.tools.context import ToolContext, ToolError
from repotrans.tools.describe import dedent_body, member_text
from repotrans.tools.lookup import resolve_target_class

MAX_BASE_DEPTH = 4
WITHHELD = "this is the function under translation: its body is not shown"


def find_target_method_body(ctx: ToolContext, class_name: str, method_name: str) -> dict:
    """Bodies of `class_name.method_name` (all overloads); inherited members are looked up in project bases."""
    t, note = resolve_target_class(ctx, class_name)
    name = method_name.strip().split("(")[0].strip().rsplit(".", 1)[-1]     # "Circle.Scale(double)" -> "Scale"
    owner, found = _find_members(ctx, t, name)
    if not found:
        members = ctx.index.methods(t.id)
        names = sorted({_display_name(m, t) for m in members})
        close = difflib.get_close_matches(name.lower(), [n.lower() for n in names], n=5, cutoff=0.6)
        raise ToolError(f"{t.qualified_name} has no member named '{method_name}'",
                        did_you_mean=[n for n in names if n.lower() in close])
    out: dict = {"class": t.qualified_name}
    if owner.id != t.id:
        out["declared_in"] = owner.qualified_name
    out["file"] = owner.path
    out["overloads"] = [_overload(ctx, m) for m in found]
    if note:
        out["note"] = note
    return out


def _overload(ctx: ToolContext, m: Method) -> dict:
    hidden = m.id == ctx.hidden_method_id
    entry: dict = {"signature": member_text(m, hidden), "lines": [m.start_line, m.end_line]}
    if hidden:
        entry["body"] = None
        entry["note"] = WITHHELD
    else:
        entry["body"] = dedent_body(m.body) if m.body is not None else None
    return entry


def _display_name(m: Method, t: TypeDecl) -> str:
    if m.kind == "constructor":
        return t.name
    if m.kind == "indexer":
        return "this"
    return m.name


def _matches(m: Method, t: TypeDecl, name: str) -> bool:
    if m.kind == "constructor":
        return name in (t.name, "<init>", ".ctor", "constructor")
    return _display_name(m, t) == name


def _find_members(ctx: ToolContext, t: TypeDecl, name: str) -> tuple[TypeDecl, list[Method]]:
    """Members named `name` in `t`, else in its project base types (nearest first), else case-insensitively in `t`."""
    for owner in [t, *ctx.index.supertypes(t, MAX_BASE_DEPTH)]:
        found = [m for m in ctx.index.methods(owner.id) if _matches(m, owner, name)
                 and (owner is t or m.kind != "constructor")]
        if found:
            return owner, found
    folded = [m for m in ctx.index.methods(t.id) if _display_name(m, t).lower() == name.lower()]
    return t, folded
