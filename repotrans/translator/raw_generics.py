"""Raw Java generics get their type arguments from the declarations and uses around them.

Java code older than generics writes `List names = new ArrayList();`; C# has no raw `List`. The port's
own declaration is the contract: a raw parameter or field takes the type arguments the C# member declares
(`List items` ~ `IList<string> items` -> `List<String>`), and a raw local takes them from what it meets:
its initializer (`names.iterator()`, `new ArrayList(names)`), assignments to and from typed names, the
value it returns, the casts its elements are read through (`(String) it.next()`), what it is filled with.
A concrete collection with no evidence at all holds `Object`, as Java's raw type does.
"""
from __future__ import annotations

from typing import Callable

from tree_sitter import Node

from repotrans.translator.cs_types import java_type_of, jdk_table, split_type

ARITY = {**dict.fromkeys(("List", "ArrayList", "LinkedList", "Collection", "Iterable", "Iterator", "Set", "HashSet",
                          "LinkedHashSet", "TreeSet", "Stack", "Queue", "Deque", "ArrayDeque"), 1),
         **dict.fromkeys(("Map", "HashMap", "LinkedHashMap", "TreeMap"), 2)}   # those jdk_map.toml makes generic
_ELEMENT_READS = {"next", "get", "previous", "nextElement", "elementAt", "firstElement", "lastElement", "pop",
                  "peek", "poll", "remove", "getFirst", "getLast", "removeFirst", "removeLast"}
_VIEWS = {"iterator": 0, "listIterator": 0, "elements": 0, "keySet": 0, "values": 1}


def is_raw(java_type: str | None) -> bool:
    """A generic JDK collection type written without type arguments (`List`, `HashMap`)."""
    return bool(java_type) and "<" not in java_type and "[" not in java_type and java_type in ARITY


def with_args(java_raw: str, cs_declared: str | None) -> str | None:
    """`List` and the port's `IList<string>` -> `List<String>`: the Java base, the port's arguments."""
    if not cs_declared:
        return None
    args = split_type(java_type_of(cs_declared))[1]
    return f"{java_raw}<{', '.join(args)}>" if len(args) == ARITY[java_raw] else None


def _args(java_type: str | None) -> list[str]:
    return split_type(java_type)[1] if java_type else []


def raw_locals(body: Node, text: Callable[[Node], str], typed: Callable[[str], str | None],
               returns: str | None) -> dict[str, str]:
    """Raw local -> its Java type with type arguments. `typed(name)` is the Java type of a parameter or
    field (None when unknown); `returns` the port's C# return type."""
    raw: dict[str, str] = {}
    for node in _walk(body):
        if node.type == "local_variable_declaration" and is_raw(text(node.child_by_field_name("type"))):
            for decl in node.children_by_field_name("declarator"):
                if decl.child_by_field_name("dimensions") is None:
                    raw[text(decl.child_by_field_name("name"))] = text(node.child_by_field_name("type"))
    found: dict[str, list[str | None]] = {name: [None] * ARITY[base] for name, base in raw.items()}
    created: dict[str, str] = {}        # raw local -> the (non-generic) type its initializer creates
    for node in _walk(body):
        value = node.child_by_field_name("value") if node.type == "variable_declarator" else None
        if value is not None and value.type == "object_creation_expression" and text(node.child_by_field_name("name")) in raw:
            created[text(node.child_by_field_name("name"))] = split_type(text(value.child_by_field_name("type")))[0]

    def type_of(node: Node | None) -> str | None:
        """The (generic) Java type of an expression evidence can use."""
        if node is None:
            return None
        if node.type == "parenthesized_expression" and node.named_children:
            return type_of(node.named_children[0])
        if node.type == "identifier":
            name = text(node)
            if name in raw:
                args = found[name]
                return f"{raw[name]}<{', '.join(args)}>" if all(args) else None
            return typed(name)
        if node.type == "field_access" and text(node.child_by_field_name("object")) == "this":
            return typed(text(node.child_by_field_name("field")))
        if node.type == "method_invocation" and node.child_by_field_name("object") is not None:
            owner = _args(type_of(node.child_by_field_name("object")))
            name = text(node.child_by_field_name("name"))
            if name in _VIEWS and len(owner) > _VIEWS[name]:
                return f"Iterator<{owner[_VIEWS[name] if len(owner) == 2 else 0]}>"
            if name == "entrySet" and len(owner) == 2:
                return f"Iterator<Map.Entry<{owner[0]}, {owner[1]}>>"
        if node.type == "object_creation_expression":
            args = node.child_by_field_name("arguments").named_children
            return type_of(args[0]) if len(args) == 1 else None
        if node.type == "string_literal":
            return "String"
        return None

    def learn(name: str, args: list[str | None], at: int = 0) -> None:
        for i, arg in enumerate(args):
            if at + i < len(found[name]) and found[name][at + i] is None and arg:
                found[name][at + i] = arg

    def meet(name: str, other: Node | None) -> None:
        args = _args(type_of(other))
        if len(args) == len(found[name]):
            learn(name, args)
        elif len(args) == 1 and raw[name] == "Iterator":
            learn(name, args)

    for _ in range(2):          # a second pass lets one local's arguments reach another's
        for node in _walk(body):
            if node.type == "variable_declarator" and text(node.child_by_field_name("name")) in raw:
                meet(text(node.child_by_field_name("name")), node.child_by_field_name("value"))
            elif node.type == "assignment_expression":
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if text(left) in raw:
                    meet(text(left), right)
                if text(right) in raw:
                    meet(text(right), left)
            elif node.type == "return_statement" and node.named_children and text(node.named_children[0]) in raw \
                    and returns:
                name = text(node.named_children[0])
                learn(name, _args(with_args(raw[name], returns)))
            elif node.type == "cast_expression":
                call = node.child_by_field_name("value")
                obj = call.child_by_field_name("object") if call is not None and call.type == "method_invocation" \
                    else None
                if obj is not None and text(obj) in raw and text(call.child_by_field_name("name")) in _ELEMENT_READS:
                    learn(text(obj), [text(node.child_by_field_name("type"))], len(found[text(obj)]) - 1)
            elif node.type == "method_invocation" and text(node.child_by_field_name("object")) in raw:
                name, args = text(node.child_by_field_name("object")), node.child_by_field_name("arguments")
                method = text(node.child_by_field_name("name"))
                values = args.named_children if args is not None else []
                if method in ("addAll", "putAll") and len(values) == 1:
                    meet(name, values[0])
                elif method in ("add", "push", "addElement", "offer") and len(values) == 1:
                    learn(name, [type_of(values[0])])
                elif method == "put" and len(values) == 2:
                    learn(name, [type_of(v) for v in values])
    keep_raw = jdk_table()["raw_types"]
    out = {}
    for name, args in found.items():
        own = created.get(name)
        if not all(args) and own is not None and own not in ARITY:
            out[name] = "var"           # `Iterator iter = new DatasetIterator();`: the created type's own
        elif all(args) or raw[name] not in keep_raw:
            out[name] = f"{raw[name]}<{', '.join(a or 'Object' for a in args)}>"
    return out


def _walk(node: Node):
    yield node
    for child in node.named_children:
        yield from _walk(child)
