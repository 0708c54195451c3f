"""Which C# names matter to the function under translation, for cutting tool answers by relevance.

As aider's repo map ranks definitions by the references to them, a member the Java method uses
(directly by name, through the mapping's Java -> C# alignment, or as a property of a Java getter)
ranks first, its neighbours in the declaration next, the rest last.
"""
from __future__ import annotations

import re
from typing import Callable

from repotrans.mapping.fields import field_key
from repotrans.tools.context import ToolContext

_WORD = re.compile(r"[A-Za-z_]\w*")
_NAME = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*(?:\(|\[|\{|=|$)")
ACCESSOR_PREFIXES = ("get", "is", "has", "set")
_ASSIGN = re.compile(r"(?<![=!<>])=(?![=>])")


def referenced_names(ctx: ToolContext) -> frozenset[str]:
    """C# names the Java method under translation refers to (empty without a task)."""
    if ctx.task is None:
        return frozenset()
    memo = ctx._memo()
    key = ("referenced", ctx.task.source_method_id)
    if key in memo:
        return memo[key]
    source, target = ctx.task_methods()
    words = set(_WORD.findall(source.body or ""))
    names = {target.name}
    for w in words:
        names |= {w, w[:1].upper() + w[1:]}
        for prefix in ACCESSOR_PREFIXES:
            if w.startswith(prefix) and len(w) > len(prefix) and w[len(prefix)].isupper():
                names.add(w[len(prefix):])
    for match in ctx.mapping.method_matches:
        java_name = match.source_id.split("(", 1)[0].rsplit(".", 1)[-1]
        if java_name in words:
            names.add(match.target_id.split("(", 1)[0].rsplit(".", 1)[-1])
    for match in ctx.mapping.type_matches:
        if match.source_id.rsplit(".", 1)[-1] in words:
            names.add(match.target_id.rsplit(".", 1)[-1])
    memo[key] = result = frozenset(names)
    return result


def member_name(text: str) -> str:
    """The declared name in a signature or field text (`public int Count { get; }` -> Count)."""
    if re.search(r"\boperator\b", text):
        return "operator"
    head = text.split("=>", 1)[0]
    head = re.sub(r"\[[^\]]*\]\s*", "", head, count=1) if head.lstrip().startswith("[") else head
    assign = _ASSIGN.search(head)                  # a field's initializer: its calls name no member of the type
    if assign is not None and ("(" not in head or assign.start() < head.index("(")):
        head = head[:assign.start()]
    m = None
    for m in _NAME.finditer(head.split("(", 1)[0] + ("(" if "(" in head else "")):
        pass
    return m.group(1) if m else text.split()[-1] if text.split() else ""


def scorer(ctx: ToolContext) -> Callable[[str], int] | None:
    """2 for an item naming something the Java method uses (a field also under the port's spelling of its name:
    libphonenumber's `instance` is `instance_`), else 0; None when there is no task."""
    names = referenced_names(ctx)
    if not names:
        return None
    keys = {field_key(n) for n in names}
    return lambda text: 2 if (name := member_name(text)) in names or field_key(name) in keys else 0
