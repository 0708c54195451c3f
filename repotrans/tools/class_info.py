"""get_source_class_info, get_target_class_info, find_target_class_info."""
from __future__ import annotations

from repotrans.tools.context import ToolContext, ToolError
from repotrans.tools.describe import describe_type
from repotrans.tools.lookup import resolve_target_class


def get_source_class_info(ctx: ToolContext) -> dict:
    """Fields and method signatures of the Java class holding the function under translation."""
    source, _ = ctx.task_methods()
    return _describe_owner(ctx, source.type_id, source.id)


def get_target_class_info(ctx: ToolContext) -> dict:
    """Fields and member signatures of the C# class that will hold the translation (no bodies)."""
    _, target = ctx.task_methods()
    return _describe_owner(ctx, target.type_id, target.id)


def find_target_class_info(ctx: ToolContext, class_name: str) -> dict:
    """Fields and member signatures of any C# type, by simple or qualified name."""
    t, note = resolve_target_class(ctx, class_name)
    out = describe_type(ctx.index, t, ctx.hidden_method_id)
    if note:
        out["note"] = note
    return out


def _describe_owner(ctx: ToolContext, type_id: str, method_id: str) -> dict:
    t = ctx.index.type(type_id)
    if t is None:
        raise ToolError(f"type {type_id} is not in the index; re-index")
    return describe_type(ctx.index, t, method_id)
