"""Deterministic, syntax-directed Java -> C# 6 method translation (the offline built-in policy).

    translate_method(java_method, resolver, target=None) -> C# method text

`java_method` is a model.Method (Java side) or the method's source text. `target` (a model.Method
on the C# side, or its signature text) fixes the header and parameter names; without it the
header is translated from the Java one. Statements are translated in java_stmt, expressions in java_expr.
"""
from __future__ import annotations

import re

import tree_sitter_java
from tree_sitter import Language, Node, Parser

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.translator.contract_types import contract_locals, param_types
from repotrans.translator.raw_generics import is_raw, raw_locals, with_args
from repotrans.translator.java_stmt import StatementTranslator, indent
from repotrans.translator.cs_types import jdk_table, split_type
from repotrans.translator.resolver import ConventionResolver, NameResolver
from repotrans.translator.scopes import redeclarations
from repotrans.translator.tool_outputs import signature_head

JAVA = Language(tree_sitter_java.language())
WRAPPER = "class __Wrapper__ {\n"
KEPT_MODIFIERS = ("public", "protected", "private", "static", "abstract")
_STRING = re.compile(r'@"(?:[^"]|"")*"|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
_CTOR_INITIALIZER = re.compile(r"\)\s*:\s*(?:base|this)\s*\(.*$", re.S)
_PARAM_NAME = re.compile(r"(\w+)\s*(?:=[^,]*)?$")


class MethodTranslator(StatementTranslator):
    """A whole method: its header (from the target signature, or translated) over the statements."""

    def header(self, method: Node, target: Method | str | None) -> str:
        params = [p for p in method.child_by_field_name("parameters").named_children
                  if p.type in ("formal_parameter", "spread_parameter")]
        target_names = _target_param_names(target)
        java_static = "static" in self.text(next((c for c in method.children if c.type == "modifiers"), None))
        extension = extension_param(target)
        target_static = isinstance(target, Method) and "static" in target.modifiers
        self.static_context = (java_static or target_static) and extension is None
        if extension is not None and not java_static:
            # a Java instance method that became a C# extension method: `this` is the first parameter
            self.this_alias = extension
            target_names = target_names[1:]
        parts = []
        for i, p in enumerate(params):
            if p.type == "spread_parameter":
                java_type = self.text(p.named_children[0]) + "[]"
                name = self.text(p.named_children[-1].child_by_field_name("name"))
            else:
                java_type = self.text(p.child_by_field_name("type"))
                dims = p.child_by_field_name("dimensions")
                java_type += self.text(dims) if dims is not None else ""
                name = self.text(p.child_by_field_name("name"))
            cs_name = target_names[i] if i < len(target_names) else self.ident(name)
            if is_raw(java_type) and target is not None:     # the port's declaration is the contract
                declared = param_types(target.signature if isinstance(target, Method) else target)
                java_type = with_args(java_type, declared[i] if i < len(declared) else None) or java_type
            self.declare(name, java_type, cs_name)
            parts.append(("params " if p.type == "spread_parameter" else "") + f"{self.cs_type(java_type)} {cs_name}")
        if isinstance(target, Method) and target.type_params:
            java_params = [self.text(tp.named_children[0]) for tp in
                           (method.child_by_field_name("type_parameters") or method).named_children
                           if tp.type == "type_parameter"]
            self.type_map.update(zip(java_params, target.type_params))
        type_node = method.child_by_field_name("type")
        self.return_type = self.text(type_node) if type_node is not None else None
        if target is not None:
            return (target.signature if isinstance(target, Method) else target).strip()
        mods_node = next((c for c in method.children if c.type == "modifiers"), None)
        mods = [m for m in self.text(mods_node).split() if m in KEPT_MODIFIERS] if mods_node else []
        name = self.text(method.child_by_field_name("name"))
        tparams, constraints = self._type_params(method.child_by_field_name("type_parameters"))
        if method.type == "constructor_declaration":
            return " ".join(mods + [name]) + f"({', '.join(parts)})"
        returns = self.cs_type(self.return_type or "void")
        cs_name = self.r.method_name(None, name, len(params))
        return " ".join(mods + [returns, cs_name]) + f"{tparams}({', '.join(parts)}){constraints}"

    def _type_params(self, node: Node | None) -> tuple[str, str]:
        if node is None:
            return "", ""
        names, constraints = [], []
        for tp in node.named_children:
            name = self.text(tp.named_children[0])
            names.append(name)
            bound = next((c for c in tp.named_children if c.type == "type_bound"), None)
            if bound is not None:
                cs_bounds = []
                for b in bound.named_children:
                    cs = self.cs_type(self.text(b))
                    cs_bounds.append("I" + cs if split_type(self.text(b))[0] == "Comparable" and not cs.startswith("I") else cs)
                constraints.append(f" where {name} : {', '.join(cs_bounds)}")
        return "<" + ", ".join(names) + ">", "".join(constraints)


def _target_param_names(target: Method | str | None) -> list[str]:
    if target is None:
        return []
    if isinstance(target, Method):
        return [p.name for p in target.params]
    target = _CTOR_INITIALIZER.sub(")", target)
    inside = target[target.find("(") + 1: target.rfind(")")] if "(" in target else ""
    names, depth, start = [], 0, 0
    for i, ch in enumerate(inside + ","):
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        elif ch == "," and depth == 0:
            match = _PARAM_NAME.search(inside[start:i].strip())
            if match:
                names.append(match.group(1))
            start = i + 1
    return names


def extension_param(target: Method | str | None) -> tuple[str, str] | None:
    """(name, simple type) of an extension method's `this` parameter."""
    if isinstance(target, Method):
        first = target.params[0] if target.params else None
        if first is not None and "this" in first.modifiers:
            return first.name, split_type(first.type)[0]
        return None
    match = re.search(r"\(\s*this\s+([\w.]+)(?:<[^()]*>)?\s+(\w+)", target or "")
    return (match.group(2), match.group(1).rsplit(".", 1)[-1]) if match else None


def parse_java_method(java_method: Method | str) -> tuple[Node, bytes]:
    """The method_declaration / constructor_declaration node of a Java method (text or Method)."""
    text = java_method if isinstance(java_method, str) else java_method.signature + " " + (java_method.body or ";")
    source = (WRAPPER + text + "\n}\n").encode("utf-8")
    tree = Parser(JAVA).parse(source)
    body = tree.root_node.named_children[0].child_by_field_name("body") if tree.root_node.named_children else None
    nodes = [c for c in (body.named_children if body is not None else [])
             if c.type in ("method_declaration", "constructor_declaration")]
    if len(nodes) != 1:
        raise InputError(f"expected exactly one Java method, found {len(nodes)}")
    return nodes[0], source


def qualify(code: str, usings: frozenset[str], members: frozenset[str] = frozenset()) -> str:
    """Qualify table types whose namespace the target file does not import (outside string literals).

    As C# looks names up: a member of the enclosing class (`members`) wins over an imported type, and
    `Name(` without `new` is a call, not a type (the class's own static `Random(...)` helper
    became `System.Random(...)`, CS0119)."""
    missing = {name: ns for name, ns in jdk_table()["namespaces"].items() if ns not in usings and name not in members}
    if not missing:
        return code
    generic = [n for n, ns in missing.items() if ns == "System.Collections.Generic"]
    other = [n for n in missing if n not in generic]
    alternatives = [r"(?:" + "|".join(map(re.escape, other)) + r")\b(?=\s*[<.(\[{]|\s+@?\w)"] if other else []
    if generic:   # a bare IEnumerable is the non-generic System.Collections one: qualify only `Name<`
        alternatives.append(r"(?:" + "|".join(map(re.escape, generic)) + r")(?=\s*<)")
    pattern = re.compile(r"(?<![\w.])(" + "|".join(alternatives) + r")")

    def one(text: str) -> str:
        def sub(m: re.Match) -> str:
            after = text[m.end():].lstrip()
            if after.startswith("(") and not re.search(r"\bnew\s+$", text[:m.start()]):
                return m.group(1)         # a call of a method of that name
            return f"{missing[m.group(1)]}.{m.group(1)}"
        return pattern.sub(sub, text)

    pieces, last = [], 0
    for literal in _STRING.finditer(code):
        pieces.append(one(code[last:literal.start()]))
        pieces.append(literal.group(0))
        last = literal.end()
    pieces.append(one(code[last:]))
    return "".join(pieces)


def _returned_identifiers(node: Node) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "return_statement" and current.named_children \
                and current.named_children[0].type == "identifier":
            found.add(current.named_children[0].text.decode("utf-8"))
        elif current.type not in ("lambda_expression", "class_body"):
            stack.extend(current.named_children)
    return found


def _assigned_identifiers(node: Node) -> set[str]:
    """Names assigned to after their declaration (`x = ...`, `x += ...`) anywhere in the method."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        left = current.child_by_field_name("left") if current.type == "assignment_expression" else None
        if left is not None and left.type == "identifier":
            found.add(left.text.decode("utf-8"))
        stack.extend(current.named_children)
    return found


def format_only_locals(node: Node) -> frozenset[str]:
    """Locals whose every read is the format of a `format`/`printf` call (after a leading Locale): their
    string values are Java format strings, converted where they are assigned (`String f = "%12." + d + "f";
    out.format(Locale.US, f, v)`)."""
    as_format: set[str] = set()
    read: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        fmt = _format_argument(current)
        if fmt is not None and fmt.type == "identifier":
            as_format.add(fmt.text.decode())
        if current.type == "identifier" and current.parent is not None and not (
                current.parent.type in ("variable_declarator", "assignment_expression")
                and current.parent.child_by_field_name("name" if current.parent.type == "variable_declarator"
                                                       else "left") == current):
            read.append(current.text.decode())
        stack.extend(current.named_children)
    return frozenset(n for n in as_format if read.count(n) == _format_reads(node, n))


def _format_argument(node: Node) -> Node | None:
    """The format argument of a `format`/`printf` call (after a leading Locale), else None."""
    if node.type != "method_invocation" or node.child_by_field_name("name").text.decode() not in ("format", "printf"):
        return None
    args = node.child_by_field_name("arguments").named_children
    if args and args[0].text.decode().startswith("Locale."):
        args = args[1:]
    return args[0] if args else None


def _format_reads(node: Node, name: str) -> int:
    """How many times `name` is the format argument of a format/printf call."""
    count, stack = 0, [node]
    while stack:
        current = stack.pop()
        fmt = _format_argument(current)
        count += fmt is not None and fmt.type == "identifier" and fmt.text.decode() == name
        stack.extend(current.named_children)
    return count


def _is_auto_getter(tr: MethodTranslator, node: Node, body: Node, header: str) -> bool:
    """`getX() { return x; }` where x maps to the property itself (no separate field on the target):
    the C# property is a getter-only auto-property, so its accessor list must stay `{ get; }`."""
    params = node.child_by_field_name("parameters")
    stmts = [c for c in body.named_children if "comment" not in c.type]
    if params.named_children or len(stmts) != 1 or stmts[0].type != "return_statement" or not stmts[0].named_children:
        return False
    value = stmts[0].named_children[0]
    if value.type == "field_access" and value.child_by_field_name("object").type == "this":
        value = value.child_by_field_name("field")
    if value.type != "identifier" or tr.lookup(tr.text(value)) is not None:
        return False
    prop = header.split()[-1]
    return tr.r.field_name(None, tr.text(value)) == prop


def _accessor(tr: MethodTranslator, node: Node, body: Node) -> list[str]:
    """A Java getter (no parameters) or setter (one) as the body of a C# property."""
    params = [p for p in node.child_by_field_name("parameters").named_children if p.type == "formal_parameter"]
    returns = node.child_by_field_name("type")
    if params and (returns is None or tr.text(returns) == "void"):     # an indexer's getter has parameters
        name = tr.text(params[0].child_by_field_name("name"))
        tr.declare(name, tr.text(params[0].child_by_field_name("type")), "value")
        return ["{", *indent(["set", *tr.block(body)]), "}"]
    return ["{", *indent(["get", *tr.block(body)]), "}"]


def _declared_return(target: Method | str | None) -> str | None:
    """The port's return type of the member (None for a constructor or no target)."""
    if isinstance(target, Method):
        return target.return_type
    head = signature_head(target) if isinstance(target, str) and "(" in target else None
    return head[1] if head else None


def translate_method(java_method: Method | str, resolver: NameResolver | None = None,
                     target: Method | str | None = None) -> str:
    """Translate one Java method to C# text (header from `target` when given)."""
    resolver = resolver or ConventionResolver()
    node, source = parse_java_method(java_method)
    tr = MethodTranslator(resolver, source)
    header = tr.header(node, target)
    if isinstance(target, Method) and target.return_type:
        tr.target_return = target.return_type
        tr.returned_locals = _returned_identifiers(node)
    elif isinstance(target, str) and re.search(r"\bvoid\s+[\w.]+\s*(<[^()]*>)?\s*\(", target):
        tr.target_return = "void"
    elif isinstance(target, str):
        tr.target_return = _declared_return(target)
    tr.reassigned = _assigned_identifiers(node)
    tr.format_locals = format_only_locals(node)
    tr.redeclared = redeclarations(node)
    body = node.child_by_field_name("body")
    own = getattr(resolver, "_type", None)
    if isinstance(target, Method) and body is not None and own is not None:
        tr.contract = contract_locals(body, tr.text, own(None),
                                      lambda name, argc: resolver.method_name(None, name, argc), tr.cs_type)
    if body is not None:
        tr.raw_args = raw_locals(body, tr.text, lambda name: (tr.lookup(name) or (None, None))[1]
                                 or resolver.field_type(None, name), _declared_return(target))
    is_property = (target.kind in ("property", "indexer") if isinstance(target, Method)
                   else isinstance(target, str) and "(" not in target and "[" not in target)
    if body is None:
        return header + (" { get; }" if is_property else ";")
    if is_property and "this[" not in header and _is_auto_getter(tr, node, body, header):
        return header + " { get; }"
    if is_property:
        return header + "\n" + qualify("\n".join(_accessor(tr, node, body)), resolver.usings(),
                                        frozenset(resolver.members(None)))
    lines = tr.block(body)
    if node.type == "constructor_declaration":
        header = _CTOR_INITIALIZER.sub(")", header) + tr.ctor_init   # ours, from Java's this(...)/super(...)
    body_text = qualify("\n".join(lines), resolver.usings(), frozenset(resolver.members(None)))
    return (header if target is not None else qualify(header, resolver.usings())) + "\n" + body_text
