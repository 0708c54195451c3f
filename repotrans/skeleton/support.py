"""The support classes a regenerated type carries: a JDK class .NET has no counterpart for (jdk_map.toml's
[support]: LinkedHashMap's access order and eviction), which the Java file constructs in a way only the
support class stands for (translator.support_types), is declared nested and private in the file's first
type, and the file's declarations of that JDK class name it (a field `LinkedHashMap<K, V> map`)."""
from __future__ import annotations

from tree_sitter import Node

from repotrans.skeleton.lines import INDENT, Line, node_text
from repotrans.translator.cs_types import jdk_table, split_type
from repotrans.translator.support_types import needs_support


def support_classes(root: Node) -> list[str]:
    """The JDK classes the Java file creates as only their support classes can stand for, in order."""
    table = jdk_table()
    found: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "object_creation_expression":
            base = split_type(node_text(node.child_by_field_name("type")))[0].rsplit(".", 1)[-1]
            args = node.child_by_field_name("arguments")
            argc = len([a for a in args.named_children if "comment" not in a.type]) if args is not None else 0
            body = any(c.type == "class_body" for c in node.named_children)
            if base not in found and needs_support(table, base, argc, body):
                found.append(base)
        stack.extend(reversed(node.named_children))
    return found


def with_support(lines: list[Line], names: list[str]) -> list[Line]:
    """The first type's lines (ending with its closing brace) with the support classes declared inside it."""
    if not names or not lines or lines[-1].text != "}":
        return lines
    support = jdk_table()["support"]
    added: list[Line] = []
    for name in names:
        added.append(Line(""))
        added += [Line(INDENT + text if text else "", None) for text in support[name]["cs"].strip("\n").split("\n")]
    return lines[:-1] + added + lines[-1:]
