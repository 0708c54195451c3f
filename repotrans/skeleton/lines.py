"""What skeleton rendering shares: the rendered line with its Java origin, the placeholder body, and
small readers of Java tree-sitter nodes (text, modifiers, parameters)."""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from repotrans.translator.cs_types import jdk_table
from repotrans.skeleton.conventions import Conventions

PLACEHOLDER = "throw new NotImplementedException();"
INDENT = "    "
ACCESS = ("public", "protected", "private")
OBJECT_MEMBERS = {("toString", 0): ("string", "ToString"), ("hashCode", 0): ("int", "GetHashCode"),
                  ("equals", 1): ("bool", "Equals")}
HIDES_OBJECT = frozenset({("GetType", 0)})    # object members a Java method's C# name hides (non-virtual: `new`)
CONST_TYPES = frozenset({"int", "long", "short", "byte", "char", "float", "double", "boolean", "String"})
KEYWORDS = frozenset(jdk_table()["csharp"]["keywords"])


@dataclass
class Line:
    text: str
    origin: str | None = None          # Java declaration this line belongs to ("Foo.bar(int)")
    kind: str = "member"               # "type" for a type's header line


def node_text(node: Node | None) -> str:
    return node.text.decode("utf-8") if node is not None else ""


def modifiers_of(node: Node) -> list[str]:
    mods = next((c for c in node.children if c.type == "modifiers"), None)
    if mods is None:
        return []
    return [node_text(c) for c in mods.children if c.type not in ("marker_annotation", "annotation")]


def params_of(node: Node) -> list[tuple[str, str]]:
    """(Java type, name) of each parameter."""
    params = node.child_by_field_name("parameters")
    out = []
    for p in params.named_children if params is not None else []:
        if p.type == "formal_parameter":
            out.append((node_text(p.child_by_field_name("type")) + node_text(p.child_by_field_name("dimensions")),
                        node_text(p.child_by_field_name("name"))))
        elif p.type == "spread_parameter":
            out.append((node_text(p.named_children[0]) + "...", node_text(p.named_children[-1])))
    return out


def trivial_getter(node: Node) -> bool:
    """`T getX() { return x; }` (or `return this.x;`)."""
    body = node.child_by_field_name("body")
    stmts = [c for c in body.named_children if "comment" not in c.type] if body is not None else []
    if len(stmts) != 1 or stmts[0].type != "return_statement" or not stmts[0].named_children:
        return False
    value = stmts[0].named_children[0]
    return value.type == "identifier" or (value.type == "field_access" and node_text(value).startswith("this."))


def prop_name(getter: str, conv: Conventions) -> str:
    if getter.startswith("is"):
        return ("Is" + getter[2:]) if conv.is_prefix_kept.holds(False) else getter[2:]
    if getter.startswith("has"):
        return "Has" + getter[3:]
    return getter[3:]


def pascal_word(constant: str) -> str:
    """`MINUS_ONE` -> `MinusOne`: a constant's name as a nested class name."""
    return "".join(w[:1].upper() + w[1:].lower() for w in constant.split("_") if w) or constant


def cs_ident(name: str) -> str:
    return "@" + name if name in KEYWORDS else name
