"""Find a C# type by the name a model wrote: simple, qualified, dotted suffix, or a Java name."""
from __future__ import annotations

import difflib
import re

from repotrans.index.model import TypeDecl
from repotrans.tools.context import ToolContext, ToolError

MAX_SUGGESTIONS = 5
_GENERIC_ARGS = re.compile(r"<.*>$")


def resolve_target_class(ctx: ToolContext, class_name: str) -> tuple[TypeDecl, str | None]:
    """The one C# type `class_name` names, and a note when it was reached through the Java name."""
    name = _GENERIC_ARGS.sub("", class_name.strip()).removeprefix("target:")
    if not name:
        raise ToolError("class_name is empty")
    hits = ctx.index.find_types("target", name)
    exact = [t for t in hits if t.qualified_name == name]
    if len(exact) == 1 or len(hits) == 1:
        return (exact or hits)[0], None
    if len(hits) > 1:
        hits.sort(key=lambda t: t.qualified_name)
        raise ToolError(
            f"class name '{class_name}' is ambiguous: {len(hits)} C# types match; use a qualified name",
            did_you_mean=[t.qualified_name for t in hits],
            extra={"candidates": [{"class": t.qualified_name, "namespace": t.container, "kind": t.kind}
                                  for t in hits]})
    mapped = [ctx.mapping.target_type(t.id) for t in ctx.index.find_types("source", name)]
    mapped = [m for m in mapped if m is not None]
    if len({m.target_id for m in mapped}) == 1:
        target = ctx.index.type(mapped[0].target_id)
        if target is not None:
            return target, f"'{class_name}' is a Java name; its C# counterpart is {target.qualified_name}"
    raise ToolError(f"no C# type named '{class_name}'", did_you_mean=suggest_types(ctx, name))


def suggest_types(ctx: ToolContext, name: str) -> list[str]:
    """Qualified names of C# types whose simple or qualified name is close to `name`."""
    forms: dict[str, str] = {}
    for t in ctx.index.types("target"):
        forms.setdefault(t.qualified_name.lower(), t.qualified_name)
        forms.setdefault(t.name.lower(), t.qualified_name)
    simple = name.rsplit(".", 1)[-1].lower()
    close = difflib.get_close_matches(name.lower(), list(forms), n=MAX_SUGGESTIONS * 2, cutoff=0.6)
    close += difflib.get_close_matches(simple, list(forms), n=MAX_SUGGESTIONS * 2, cutoff=0.6)
    out: list[str] = []
    for form in close:
        if forms[form] not in out:
            out.append(forms[form])
    return out[:MAX_SUGGESTIONS]
