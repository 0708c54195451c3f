"""C#'s local scopes where Java's differ (C# name lookup as the compiler does it).

Java lets a block declare a local that an enclosing block declares later (`if (..) { Element el = ..; }
Element el = ..;`, jsoup's HtmlTreeBuilder.insert); C# rejects it (CS0136: the name of the enclosing
block's local covers the whole block, nested ones included). The nested declaration takes a fresh name."""
from __future__ import annotations

from tree_sitter import Node

_FUNCTIONS = ("lambda_expression", "class_body")      # own scopes C# checks apart: left alone


def redeclarations(method: Node) -> dict[int, str]:
    """Declarator node id -> a fresh C# name, for each local declared in a scope nested in one that also
    declares its name (anywhere in it)."""
    declared: list[tuple[str, Node, Node]] = []       # (name, declarator, scope)
    used: set[str] = set()
    for node in _walk(method):
        if node.type == "identifier":
            used.add(node.text.decode("utf-8"))
        elif node.type == "local_variable_declaration" and node.parent is not None:
            for decl in node.children_by_field_name("declarator"):
                name = decl.child_by_field_name("name")
                if name is not None:
                    declared.append((name.text.decode("utf-8"), decl, node.parent))
    out: dict[int, str] = {}
    for name, decl, scope in declared:
        outer = {s.id for n, _, s in declared if n == name and s.id != scope.id}
        if any(a.id in outer for a in _ancestors(scope, method)):
            fresh = next(f"{name}{k}" for k in range(2, 100) if f"{name}{k}" not in used)
            used.add(fresh)
            out[decl.id] = fresh
    return out


def _ancestors(node: Node, top: Node):
    current = node.parent
    while current is not None:
        yield current
        if current.id == top.id or current.type in _FUNCTIONS:
            return
        current = current.parent


def _walk(node: Node):
    yield node
    for child in node.named_children:
        if child.type not in _FUNCTIONS:
            yield from _walk(child)
