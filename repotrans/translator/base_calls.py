"""A constructor's base call, one the port's base class has (HdrHistogram's copy constructors).

Java's Histogram(AbstractHistogram source) calls `super(source)`; HdrHistogram.NET's AbstractHistogram has only
the three-value constructor, so `: base(source)` is CS1729. From the index: when no constructor of the port's
base class takes Java's arguments (their count, and the C# types of those that are the constructor's own
parameters), the call goes through the Java superclass constructor of that arity that begins with `this(...)`,
its parameters replaced by the call's arguments (`super(source.getLowestTrackableValue(), ...)`), and on
through the next such constructor, until the port's base takes the call; each arity is tried once, so no
chain of delegations loops, and the call only ever names the base, never the class's own constructors. When
none fits, the call is kept as Java writes it. The base constructor's statements after `this(...)` are not
carried (skeleton.base_calls, which shapes the skeleton's header the same way, reports them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tree_sitter import Node

from repotrans.index.model import Method
from repotrans.translator.java2cs import parse_java_method
from repotrans.translator.tool_outputs import split_top

if TYPE_CHECKING:
    from repotrans.index.model import TypeDecl
    from repotrans.index.store import Index

_NUMERIC = ["sbyte", "byte", "short", "ushort", "char", "int", "uint", "long", "ulong", "float", "double", "decimal"]
_WIDER = {"sbyte": {"short", "int", "long", "float", "double", "decimal"},
          "byte": {"short", "ushort", "int", "uint", "long", "ulong", "float", "double", "decimal"},
          "short": {"int", "long", "float", "double", "decimal"},
          "ushort": {"int", "uint", "long", "ulong", "float", "double", "decimal"},
          "char": {"ushort", "int", "uint", "long", "ulong", "float", "double", "decimal"},
          "int": {"long", "float", "double", "decimal"}, "uint": {"long", "ulong", "float", "double", "decimal"},
          "long": {"float", "double", "decimal"}, "ulong": {"float", "double", "decimal"}, "float": {"double"}}


@dataclass(frozen=True)
class Delegation:
    """A Java constructor of the superclass that begins with `this(args)`."""
    params: tuple[str, ...]
    args: tuple[str, ...]          # the Java texts of this(...)'s arguments
    rest: tuple[str, ...]          # the Java texts of the statements after it


def delegations(index: "Index", t: "TypeDecl") -> dict[int, Delegation]:
    """Arity -> the delegation of each constructor of `t`'s Java superclass that begins with `this(...)`."""
    sup = next((s for s in index.supertypes(t, depth=1) if s.kind == "class"), None)
    out: dict[int, Delegation] = {}
    for m in index.methods(sup.id) if sup is not None else []:
        if m.kind != "constructor" or not m.body:
            continue
        node, source = parse_java_method(m)
        statements = _statements(node)
        call = _invocation(statements, "this", source)
        if call is not None:
            out[len(m.params)] = Delegation(tuple(p.name for p in m.params), tuple(_args(call, source)),
                                            tuple(_text(s, source) for s in statements[1:]))
    return out


def delegated(given: list[str], d: Delegation) -> list[str] | None:
    """The arguments of `d`'s this(...) with its parameters replaced by `given` (a super(...) call's); None
    when the counts differ."""
    if len(given) != len(d.params):
        return None
    by_param = {p: a if re.fullmatch(r"[\w.]+", a) else f"({a})" for p, a in zip(d.params, given)}
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, d.params)) + r")\b") if d.params else None
    return [pattern.sub(lambda m: by_param[m.group(1)], a) if pattern else a for a in d.args]


def base_arguments(index: "Index", java: Method, target: Method) -> tuple[str, ...] | None:
    """The Java arguments constructor `java` (the port's `target`) should pass its base, when they are not the
    ones its `super(...)` passes (module doc); None to keep the call as written."""
    if java.kind != "constructor" or target.kind != "constructor" or not java.body:
        return None
    node, source = parse_java_method(java)
    call = _invocation(_statements(node), "super", source)
    base = _port_base(index, target)
    if call is None or base is None:
        return None
    constructors = [m for m in index.methods(base.id) if m.kind == "constructor"]
    known = _argument_types(java, target)
    args = _args(call, source)
    if _takes(index, constructors, args, known):
        return None
    java_type = index.type(java.type_id)
    through = delegations(index, java_type) if java_type is not None else {}
    tried: set[int] = set()
    while len(args) in through and len(args) not in tried:
        tried.add(len(args))
        args = delegated(args, through[len(args)])
        if _takes(index, constructors, args, known):
            return tuple(args)
    return None


def with_base_arguments(java: Method, args: tuple[str, ...] | None) -> Method:
    """The constructor `java` with its `super(...)` passing `args` (base_arguments); itself when None."""
    if args is None or not java.body:
        return java
    node, source = parse_java_method(java)
    call = _invocation(_statements(node), "super", source)
    if call is None:
        return java
    arguments = call.child_by_field_name("arguments")
    body = node.child_by_field_name("body")
    text = source[body.start_byte:arguments.start_byte] + f"({', '.join(args)})".encode("utf-8") \
        + source[arguments.end_byte:body.end_byte]
    return replace(java, body=text.decode("utf-8"))


def _port_base(index: "Index", target: Method) -> "TypeDecl | None":
    """The C# class the port's class derives from, when the index holds it."""
    t = index.type(target.type_id)
    return next((s for s in index.supertypes(t, depth=1) if s.kind == "class"), None) if t is not None else None


def _argument_types(java: Method, target: Method) -> dict[str, str]:
    """Java parameter name -> the port's C# type of it (the constructor's parameters, in order)."""
    if len(java.params) != len(target.params):
        return {}
    return {j.name: c.type for j, c in zip(java.params, target.params)}


def _takes(index: "Index", constructors: list[Method], args: list[str], known: dict[str, str]) -> bool:
    """Whether one of the port's base constructors (none declared: the implicit parameterless one) takes
    `args`: their count, and each argument that is a parameter of known C# type convertible to its type."""
    if not constructors:
        return not args
    for ctor in constructors:
        required, variadic = _arity(ctor)
        if len(args) < required or (len(args) > len(ctor.params) and not variadic):
            continue
        if all(_convertible(index, known[a], p.type) for a, p in zip(args, ctor.params) if a in known):
            return True
    return False


def _arity(ctor: Method) -> tuple[int, bool]:
    """(parameters without a default value, whether the last is `params`)."""
    text = re.sub(r"/\*.*?\*/", "", ctor.signature, flags=re.S)
    head = re.search(r"\b" + re.escape(ctor.name) + r"\s*\(", text)     # past any attribute's parentheses
    start = head.end() if head else text.find("(") + 1
    depth, end = 1, start
    while end < len(text) and depth:       # the parameter list's own closing parenthesis, not an initializer's
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    inner = text[start:end - 1]
    parts = split_top(inner) if inner.strip() else []
    defaults = sum(1 for p in parts if "=" in p)
    variadic = bool(ctor.params) and ctor.params[-1].varargs
    return len(ctor.params) - defaults - int(variadic), variadic


def _convertible(index: "Index", given: str, wanted: str) -> bool:
    """Whether a value of C# type `given` converts implicitly to `wanted` (by name: the same type, object,
    a wider number, or one of the port's supertypes of it); an unknown type is taken to convert."""
    given, wanted = _simple(given), _simple(wanted)
    if given == wanted or wanted == "object" or wanted in _WIDER.get(given, set()):
        return True
    if given in _NUMERIC or wanted in _NUMERIC:
        return False
    found = index.find_types("target", given)
    if not found:
        return True
    return any(wanted in {_simple(s.name) for s in index.supertypes(t)} for t in found)


def _simple(name: str) -> str:
    """`System.Int64` -> long, `HdrHistogram.NET.AbstractHistogram` -> AbstractHistogram, `List<int>` -> List (C#
    aliases for the common System types; type arguments aside)."""
    name = re.sub(r"\s+", "", name).split("<", 1)[0].rsplit(".", 1)[-1]
    return {"Int64": "long", "Int32": "int", "Int16": "short", "Byte": "byte", "Double": "double",
            "Single": "float", "Boolean": "bool", "String": "string", "Object": "object", "Char": "char"}.get(name, name)


def _statements(node: Node) -> list[Node]:
    body = node.child_by_field_name("body")
    return [c for c in body.named_children if "comment" not in c.type] if body is not None else []


def _invocation(statements: list[Node], keyword: str, source: bytes) -> Node | None:
    """The first statement when it is `this(...)` or `super(...)` (`keyword`)."""
    first = statements[0] if statements else None
    if first is None or first.type != "explicit_constructor_invocation":
        return None
    return first if _text(first.child_by_field_name("constructor"), source) == keyword else None


def _args(call: Node, source: bytes) -> list[str]:
    return [_text(a, source) for a in call.child_by_field_name("arguments").named_children if "comment" not in a.type]


def _text(node: Node, source: bytes) -> str:
    return source[node.start_byte:node.end_byte].decode("utf-8")
