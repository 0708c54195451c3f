"""The API sites of one method body, in source order: what the learned API map (api_map.py) aligns.

Java: calls, constructions and static field reads (`Integer.MAX_VALUE`), each with a key the builtin
can compute while translating (`new IndexOutOfBoundsException/1`, `Integer.parseInt/1`,
`String#getBytes/1`, `BitMatrix#get/2`, `Code128Writer.appendPattern/4` for the class's own helpers),
its receiver and argument texts. Receiver types come from the method's parameters, its locals and its
class's fields (no further inference: an unknown receiver type is `?`).
C#: invocations, constructions, member and element accesses, with their receiver and argument spans.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter as ts

from repotrans.index.model import Method
from repotrans.index.parse import parser_for

_WRAP = "class __W__ {\n"
_GENERIC = re.compile(r"<.*>", re.S)
_LITERALS = ("string_literal", "character_literal", "decimal_integer_literal", "hex_integer_literal",
             "decimal_floating_point_literal", "true", "false", "null_literal", "octal_integer_literal",
             "binary_integer_literal")


_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")
_NOISE = {"this", "new", "m"}


def tokens(text: str) -> frozenset[str]:
    """The words of an expression, lower-cased (names, numbers, literals), without `this` and `new`."""
    return frozenset(t.lower() for t in _TOKEN.findall(text) if t not in _NOISE)


@dataclass(frozen=True)
class Part:
    """A receiver or argument of a site: its text, byte span (relative to the site's text), tokens."""
    text: str
    start: int
    end: int
    literal: bool = False
    tokens: frozenset[str] = frozenset()
    node: str = ""            # tree-sitter node type (a C# cast is no Java argument that was not one)


@dataclass(frozen=True)
class Site:
    """One API use. `key` is empty on the C# side; `recv` is None for a construction, an unqualified
    call or a static call (the type is then part of the key)."""
    kind: str                 # java: new | call | static | field; c#: new | call | member | index
    name: str                 # callee, constructed type or member name
    key: str
    text: str
    recv: Part | None
    args: tuple[Part, ...]
    arg_type: str = ""        # Java: the first argument's type where it is plain to see ('' unknown)
    statement: bool = False   # the whole of an expression statement (its value, if any, discarded)


def simple_type(text: str) -> str:
    """`java.util.List<String>[]` -> `List`; `Map.Entry<K, V>` -> `Map.Entry`."""
    base = _GENERIC.sub("", text or "").replace("[]", "").replace("...", "").strip()
    parts = base.split(".")
    while len(parts) > 1 and parts[0][:1].islower():
        parts.pop(0)          # a package qualifier
    return ".".join(parts)


def _parse(side: str, method: Method) -> tuple[ts.Node, bytes] | None:
    if not method.body:
        return None
    source = (_WRAP + method.signature + " " + method.body + "\n}\n").encode("utf-8")
    tree = parser_for(side).parse(source)   # type: ignore[arg-type]
    return tree.root_node, source


def _part(node: ts.Node, site: ts.Node, source: bytes) -> Part:
    text = source[node.start_byte:node.end_byte].decode("utf-8", "replace")
    return Part(text, node.start_byte - site.start_byte, node.end_byte - site.start_byte, node.type in _LITERALS,
                tokens(text), node.type)


def _walk(node: ts.Node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def java_env(root: ts.Node, source: bytes, fields: dict[str, str], arrays: bool = False) -> dict[str, str]:
    """Identifier -> declared Java type (simple), from the class's `fields`, then parameters and locals;
    with `arrays`, an array keeps its dimensions (`char[] out` -> `char[]`, as `char out[]`)."""
    def typed(written: str, extra: str = "") -> str:
        if not arrays:
            return simple_type(written) + ("[]" if extra else "")
        plain = _GENERIC.sub("", written)
        return simple_type(written) + "[]" * (plain.count("[") + plain.count("...") + extra.count("["))

    env = {name: typed(t) for name, t in fields.items()}

    def text(n: ts.Node | None) -> str:
        return "" if n is None else source[n.start_byte:n.end_byte].decode("utf-8", "replace")

    for n in _walk(root):
        if n.type in ("formal_parameter", "catch_formal_parameter", "enhanced_for_statement", "spread_parameter"):
            name, kind = n.child_by_field_name("name"), n.child_by_field_name("type")
            if n.type == "spread_parameter":
                kind = n.named_children[0] if n.named_children else None
                decl = n.named_children[-1] if n.named_children else None
                name = decl.child_by_field_name("name") if decl is not None else None
            if n.type == "catch_formal_parameter":
                kind = next((c for c in n.named_children if c.type == "catch_type"), None)
            if name is not None and kind is not None:
                written = text(kind).split("|")[0] + ("..." if n.type == "spread_parameter" else "")
                env[text(name)] = typed(written, text(n.child_by_field_name("dimensions")) if arrays else "")
        elif n.type in ("local_variable_declaration", "field_declaration"):
            kind = n.child_by_field_name("type")
            for d in n.children_by_field_name("declarator"):
                env[text(d.child_by_field_name("name"))] = typed(text(kind), text(d.child_by_field_name("dimensions")))
    return env


def java_sites(method: Method, fields: dict[str, str], own_class: str) -> tuple[list[Site], frozenset[str]]:
    """The API sites of a Java method body (pre-order) and the names of its parameters and locals;
    `fields` are its class's field name -> type."""
    parsed = _parse("source", method)
    if parsed is None:
        return [], frozenset()
    root, source = parsed
    env = java_env(root, source, fields)
    arrays = java_env(root, source, fields, arrays=True)     # argument types keep their dimensions
    local_names = frozenset(java_env(root, source, {}))
    sites: list[Site] = []
    for n in _walk(root):
        if n.type not in ("method_invocation", "object_creation_expression", "field_access"):
            continue
        text = source[n.start_byte:n.end_byte].decode("utf-8", "replace")
        args_node = n.child_by_field_name("arguments")
        args = tuple(_part(a, n, source) for a in (args_node.named_children if args_node else [])
                     if "comment" not in a.type)
        if n.type == "object_creation_expression":
            if n.child_by_field_name("object") is not None or any(c.type == "class_body" for c in n.children):
                continue      # inner-class creation and anonymous classes: no API correspondence
            kind_node = n.child_by_field_name("type")
            name = simple_type(source[kind_node.start_byte:kind_node.end_byte].decode())
            sites.append(Site("new", name, f"new {name}/{len(args)}", text, None, args, _arg_type(args_node, arrays, source)))
            continue
        obj = n.child_by_field_name("object")
        name_node = n.child_by_field_name("name" if n.type == "method_invocation" else "field")
        if name_node is None:
            continue
        name = source[name_node.start_byte:name_node.end_byte].decode()
        obj_text = "" if obj is None else source[obj.start_byte:obj.end_byte].decode("utf-8", "replace")
        static_owner = _static_owner(obj, obj_text, env)
        if n.type == "field_access":
            if static_owner and name[:1].isupper():
                sites.append(Site("field", name, f"{static_owner}.{name}", text, None, ()))
            continue
        first = _arg_type(args_node, arrays, source)
        if obj is None or obj.type == "this":
            sites.append(Site("static", name, f"{own_class}.{name}/{len(args)}", text, None, args, first,
                              _statement(n)))
        elif static_owner:
            sites.append(Site("static", name, f"{static_owner}.{name}/{len(args)}", text, None, args, first,
                              _statement(n)))
        elif obj.type != "super":
            recv_type = _receiver_type(obj, obj_text, env)
            sites.append(Site("call", name, f"{recv_type}#{name}/{len(args)}", text, _part(obj, n, source), args,
                              first, _statement(n)))
    return sites, local_names


def _static_owner(obj: ts.Node | None, obj_text: str, env: dict[str, str]) -> str:
    """The type a call or field read is made on statically (`Integer`, `Map.Entry`), else ''."""
    if obj is None or obj.type not in ("identifier", "field_access", "scoped_type_identifier"):
        return ""
    first = obj_text.split(".")[0]
    if first in env or not re.fullmatch(r"[A-Za-z_][\w.]*", obj_text):
        return ""
    owner = simple_type(obj_text)
    return owner if owner[:1].isupper() else ""


_LITERAL_TYPES = {"string_literal": "String", "character_literal": "char", "decimal_integer_literal": "int",
                  "hex_integer_literal": "int", "decimal_floating_point_literal": "double", "true": "boolean",
                  "false": "boolean"}


def _arg_type(args: ts.Node | None, env: dict[str, str], source: bytes) -> str:
    """The simple Java type of a call's first argument where it is plain: a declared name, a literal,
    an array creation; '' otherwise."""
    first = next((a for a in (args.named_children if args else []) if "comment" not in a.type), None)
    if first is None:
        return ""
    if first.type == "identifier":
        return env.get(source[first.start_byte:first.end_byte].decode(), "")
    if first.type == "array_creation_expression":
        kind = first.child_by_field_name("type")
        return simple_type(source[kind.start_byte:kind.end_byte].decode()) + "[]" if kind is not None else ""
    if first.type == "object_creation_expression":
        kind = first.child_by_field_name("type")
        return simple_type(source[kind.start_byte:kind.end_byte].decode()) if kind is not None else ""
    return _LITERAL_TYPES.get(first.type, "")


def _receiver_type(obj: ts.Node, obj_text: str, env: dict[str, str]) -> str:
    if obj.type == "identifier":
        return env.get(obj_text, "?")
    if obj.type == "field_access" and obj_text.startswith("this."):
        return env.get(obj_text[5:], "?")
    if obj.type == "string_literal":
        return "String"
    return "?"


def _statement(node: ts.Node) -> bool:
    return node.parent is not None and node.parent.type == "expression_statement"


def cs_sites(method: Method) -> list[Site]:
    """The API sites of a C# member body (pre-order)."""
    parsed = _parse("target", method)
    if parsed is None:
        return []
    root, source = parsed
    called = set()
    sites: list[Site] = []
    for n in _walk(root):
        if n.type == "invocation_expression":
            fn = n.child_by_field_name("function")
            called.add(fn.id if fn is not None else None)
    for n in _walk(root):
        text = source[n.start_byte:n.end_byte].decode("utf-8", "replace")
        if n.type == "invocation_expression":
            fn = n.child_by_field_name("function")
            args = _cs_args(n.child_by_field_name("arguments"), n, source)
            if fn is not None and fn.type == "member_access_expression":
                recv, name = fn.child_by_field_name("expression"), fn.child_by_field_name("name")
                sites.append(Site("call", _name(name, source), "", text, _part(recv, n, source), args,
                                  statement=_statement(n)))
            elif fn is not None:
                sites.append(Site("call", _name(fn, source), "", text, None, args, statement=_statement(n)))
        elif n.type == "object_creation_expression":
            kind = n.child_by_field_name("type")
            args = _cs_args(n.child_by_field_name("arguments"), n, source)
            sites.append(Site("new", simple_type(_name(kind, source)), "", text, None, args))
        elif n.type == "member_access_expression" and n.id not in called:
            recv, name = n.child_by_field_name("expression"), n.child_by_field_name("name")
            if recv is not None and name is not None:
                sites.append(Site("member", _name(name, source), "", text, _part(recv, n, source), ()))
        elif n.type == "element_access_expression":
            recv = n.child_by_field_name("expression")
            sub = n.child_by_field_name("subscript")
            args = _cs_args(sub, n, source)
            if recv is not None:
                sites.append(Site("index", "[]", "", text, _part(recv, n, source), args))
    return sites


def _name(node: ts.Node | None, source: bytes) -> str:
    if node is None:
        return ""
    text = source[node.start_byte:node.end_byte].decode("utf-8", "replace")
    return _GENERIC.sub("", text).rsplit(".", 1)[-1].strip()


def _cs_args(node: ts.Node | None, site: ts.Node, source: bytes) -> tuple[Part, ...]:
    if node is None:
        return ()
    out = []
    for a in node.named_children:
        if a.type != "argument":
            continue
        expr = a.named_children[-1] if a.named_children else a
        out.append(_part(expr, site, source))
    return tuple(out)
