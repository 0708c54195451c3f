"""Deterministic, syntax-directed Java -> C# 6 method translation (the offline built-in policy).

    translate_method(java_method, resolver, target=None) -> C# method text

`java_method` is a model.Method (Java side) or the method's source text. `target` (a model.Method
on the C# side, or its signature text) fixes the header and parameter names; without it the
header is translated from the Java one. Statements are translated here, expressions in java_expr.
"""
from __future__ import annotations

import re

import tree_sitter_java
from tree_sitter import Language, Node, Parser

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.policy.java_expr import ExprTranslator, prim
from repotrans.policy.resolver import ConventionResolver, NameResolver, element_type, jdk_table, split_type

JAVA = Language(tree_sitter_java.language())
INDENT = "    "
WRAPPER = "class __Wrapper__ {\n"
JUMPS = {"break_statement", "continue_statement", "return_statement", "throw_statement", "yield_statement"}
INTERFACES = frozenset({"Map", "Set", "List", "Collection", "Queue", "Deque", "Iterable"})
KEPT_MODIFIERS = ("public", "protected", "private", "static", "abstract")
_STRING = re.compile(r'@"(?:[^"]|"")*"|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
_CTOR_INITIALIZER = re.compile(r"\)\s*:\s*(?:base|this)\s*\(.*$", re.S)
_PARAM_NAME = re.compile(r"(\w+)\s*(?:=[^,]*)?$")


def _indent(lines: list[str]) -> list[str]:
    return [INDENT + part if part else part for line in lines for part in line.split("\n")]


class MethodTranslator(ExprTranslator):
    """Statements, scopes, labels and the method header."""

    def __init__(self, resolver: NameResolver, source: bytes):
        super().__init__(resolver, source)
        self.return_type: str | None = None
        self.labels: dict[str, str] = {}         # Java label -> C# label stem
        self.used_labels: set[str] = set()       # "<stem>_break" / "<stem>_continue" actually jumped to
        self.ctor_init = ""
        self.target_return: str | None = None       # the C# return type of the target signature
        self.returned_locals: set[str] = set()      # locals returned as they are (`return result;`)

    # ---- blocks ----------------------------------------------------------------------------
    def block(self, node: Node) -> list[str]:
        self.scopes.append({})
        lines: list[str] = []
        for child in node.named_children:
            lines.extend(self.stmt(child))
        self.scopes.pop()
        return ["{", *_indent(lines), "}"]

    def lambda_block(self, block: Node) -> str:
        saved = self.return_type
        self.return_type = None
        text = "\n".join(self.block(block))
        self.return_type = saved
        return text

    def body(self, node: Node) -> list[str]:
        """A statement used as a loop/if body, always as a braced block."""
        return self.block(node) if node.type == "block" else ["{", *_indent(self.stmt(node)), "}"]

    # ---- statements ------------------------------------------------------------------------
    def stmt(self, node: Node) -> list[str]:
        handler = getattr(self, "_s_" + node.type, None)
        if handler is not None:
            return handler(node)
        if node.type in ("comment", "line_comment", "block_comment"):
            return [self.text(node)]
        return [f"/* untranslated {node.type} */ {self.text(node)}"]

    def _s_block(self, node: Node) -> list[str]:
        return self.block(node)

    def _s_expression_statement(self, node: Node) -> list[str]:
        inner = node.named_children[0]
        if inner.type == "method_invocation":
            text = self._call(inner, None, statement=True)[0]
        else:
            text = self.ex(inner)
        return [text if text.endswith("}") else text + ";"]

    def _s_local_variable_declaration(self, node: Node) -> list[str]:
        java_type = self.text(node.child_by_field_name("type"))
        parts = []
        for decl in node.children_by_field_name("declarator"):
            name = self.text(decl.child_by_field_name("name"))
            dims = decl.child_by_field_name("dimensions")
            decl_type = java_type + (self.text(dims) if dims is not None else "")
            value = decl.child_by_field_name("value")
            if value is not None:
                text, ty = self.expr(value, None if decl_type == "var" else decl_type)
                if decl_type == "var":
                    decl_type = ty or "var"
                elif value.type == "object_creation_expression" and ty and split_type(decl_type)[0] in INTERFACES:
                    decl_type = ty      # Map<K, V> m = new TreeMap<>() -> SortedDictionary<K, V> m
                parts.append((name, decl_type, f"{self.ident(name)} = {self.coerce(text, ty, decl_type)}"))
            else:
                parts.append((name, decl_type, self.ident(name)))
        lines = []
        for name, decl_type, text in parts:
            self.declare(name, decl_type)
            cs = "var" if java_type == "var" else self.cs_type(decl_type)
            if name in self.returned_locals and self.target_return and "<" in cs:
                # List<List<T>> result ... return result;  with target IList<IList<T>>: C# generics are
                # invariant, so keep our concrete outer type and take the target's type arguments.
                wanted = cs.split("<", 1)[0] + self.target_return[self.target_return.find("<"):]
                if "<" in self.target_return and wanted != cs:
                    text = text.replace(f"new {cs}(", f"new {wanted}(", 1)
                    cs = wanted
            lines.append(f"{cs} {text};")
        return lines

    def _s_return_statement(self, node: Node) -> list[str]:
        if not node.named_children:
            return ["return;"]
        text, ty = self.expr(node.named_children[0], self.return_type)
        return [f"return {self.coerce(text, ty, self.return_type)};"]

    def _s_throw_statement(self, node: Node) -> list[str]:
        return [f"throw {self.ex(node.named_children[0])};"]

    def _s_if_statement(self, node: Node) -> list[str]:
        lines = [f"if {self.ex(node.child_by_field_name('condition'))}", *self.body(node.child_by_field_name("consequence"))]
        alt = node.child_by_field_name("alternative")
        if alt is not None:
            if alt.type == "if_statement":
                nested = self.stmt(alt)
                lines += ["else " + nested[0], *nested[1:]]
            else:
                lines += ["else", *self.body(alt)]
        return lines

    def _s_while_statement(self, node: Node, label: str | None = None) -> list[str]:
        head = f"while {self.ex(node.child_by_field_name('condition'))}"
        return [head, *self.loop_body(node.child_by_field_name("body"), label)]

    def _s_do_statement(self, node: Node, label: str | None = None) -> list[str]:
        body = self.loop_body(node.child_by_field_name("body"), label)
        return ["do", *body, f"while {self.ex(node.child_by_field_name('condition'))};"]

    def _s_for_statement(self, node: Node, label: str | None = None) -> list[str]:
        self.scopes.append({})
        inits = node.children_by_field_name("init")
        if inits and inits[0].type == "local_variable_declaration":
            decls = self._s_local_variable_declaration(inits[0])
            cs_type = decls[0].split(" ", 1)[0]
            init = cs_type + " " + ", ".join(d.split(" ", 1)[1].rstrip(";") for d in decls)
        else:
            init = ", ".join(self.ex(i) for i in inits)
        cond = node.child_by_field_name("condition")
        updates = ", ".join(self.ex(u) for u in node.children_by_field_name("update"))
        head = f"for ({init}; {self.ex(cond) if cond is not None else ''}; {updates})"
        lines = [head, *self.loop_body(node.child_by_field_name("body"), label)]
        self.scopes.pop()
        return lines

    def _s_enhanced_for_statement(self, node: Node, label: str | None = None) -> list[str]:
        java_type = self.text(node.child_by_field_name("type"))
        name = self.text(node.child_by_field_name("name"))
        source, source_type = self.expr(node.child_by_field_name("value"))
        if java_type == "var":
            java_type = element_type(source_type) or "var"
        self.scopes.append({})
        self.declare(name, java_type)
        cs = "var" if java_type == "var" else self.cs_type(java_type)
        lines = [f"foreach ({cs} {self.ident(name)} in {source})", *self.loop_body(node.child_by_field_name("body"), label)]
        self.scopes.pop()
        return lines

    def loop_body(self, body: Node, label: str | None) -> list[str]:
        lines = self.body(body)
        if label is not None and f"{label}_continue" in self.used_labels:
            lines = [*lines[:-1], f"{INDENT}{label}_continue: ;", "}"]
        return lines

    def _s_labeled_statement(self, node: Node) -> list[str]:
        java_label = self.text(node.named_children[0])
        inner = node.named_children[1]
        stem = java_label if java_label not in self.labels.values() else self.temp(java_label)
        saved = self.labels.get(java_label)
        self.labels[java_label] = stem
        handler = getattr(self, "_s_" + inner.type)
        lines = handler(inner, stem) if inner.type in (
            "for_statement", "enhanced_for_statement", "while_statement", "do_statement") else handler(inner)
        if f"{stem}_break" in self.used_labels:
            lines.append(f"{stem}_break: ;")
        if saved is None:
            del self.labels[java_label]
        else:
            self.labels[java_label] = saved
        return lines

    def _jump(self, node: Node, kind: str) -> list[str]:
        if not node.named_children:
            return [f"{kind};"]
        stem = self.labels.get(self.text(node.named_children[0]), self.text(node.named_children[0]))
        self.used_labels.add(f"{stem}_{kind}")
        return [f"goto {stem}_{kind};"]

    def _s_break_statement(self, node: Node) -> list[str]:
        return self._jump(node, "break")

    def _s_continue_statement(self, node: Node) -> list[str]:
        return self._jump(node, "continue")

    def _s_switch_expression(self, node: Node) -> list[str]:
        condition = node.child_by_field_name("condition")
        subject, subject_type = self.expr(condition.named_children[0] if condition.type == "parenthesized_expression"
                                          else condition)
        enum_owner = None
        if subject_type and prim(subject_type) not in ("int", "char", "String", "long", "short", "byte"):
            enum_owner = split_type(subject_type)[0]
        groups = [g for g in node.child_by_field_name("body").named_children if g.type != "comment"]
        sections: list[tuple[list[str], list[str], bool]] = []   # (labels, statements, can_fall_through)
        for group in groups:
            labels = [self._case_label(l, enum_owner) for l in group.named_children if l.type == "switch_label"]
            labels = [lab for group_labels in labels for lab in group_labels]
            stmts = [c for c in group.named_children if c.type != "switch_label"]
            body: list[str] = []
            for s in stmts:
                body.extend(self.stmt(s))
            rule = group.type == "switch_rule"
            falls = bool(stmts) and not rule and self.completes(stmts[-1])
            if rule:
                body.append("break;")
            sections.append((labels, body, falls))
        lines = [f"switch ({subject})", "{"]
        for i, (labels, body, falls) in enumerate(sections):
            lines += _indent(labels)
            if not body:
                continue
            if falls:
                following = next((s[0][0] for s in sections[i + 1:] if s[0]), None)
                body.append("break;" if following is None else
                            ("goto default;" if following == "default:" else f"goto {following[:-1]};"))
            lines += _indent(_indent(body))
        return lines + ["}"]

    def _case_label(self, label: Node, enum_owner: str | None) -> list[str]:
        values = label.named_children
        if not values:
            return ["default:"]
        out = []
        for value in values:
            if enum_owner and value.type == "identifier":
                out.append(f"case {self.cs_type(enum_owner)}.{self.r.field_name(enum_owner, self.text(value))}:")
            else:
                out.append(f"case {self.ex(value)}:")
        return out

    def completes(self, node: Node) -> bool:
        """Conservative: False only when the statement certainly jumps away."""
        if node.type in JUMPS:
            return True if node.type == "break_statement" and node.named_children else False
        if node.type == "block":
            kids = [c for c in node.named_children if c.type != "comment"]
            return not kids or self.completes(kids[-1])
        if node.type == "if_statement":
            alt = node.child_by_field_name("alternative")
            return alt is None or self.completes(node.child_by_field_name("consequence")) or self.completes(alt)
        return True

    def _s_try_statement(self, node: Node) -> list[str]:
        lines = ["try", *self.block(node.child_by_field_name("body"))]
        return lines + self._handlers(node)

    def _handlers(self, node: Node) -> list[str]:
        lines = []
        for clause in node.named_children:
            if clause.type == "catch_clause":
                param = next(c for c in clause.named_children if c.type == "catch_formal_parameter")
                types = [self.text(t) for t in param.named_children if t.type == "catch_type"][0].split("|")
                types = [t.strip() for t in types]
                name = self.text(param.child_by_field_name("name"))
                self.scopes.append({})
                cs_name = self.ident(name)
                self.declare(name, types[0] if len(types) == 1 else "Exception")
                if len(types) == 1:
                    head = f"catch ({self.cs_type(types[0])} {cs_name})"
                else:
                    tests = " || ".join(f"{cs_name} is {self.cs_type(t)}" for t in types)
                    head = f"catch (Exception {cs_name}) when ({tests})"
                lines += [head, *self.block(clause.child_by_field_name("body"))]
                self.scopes.pop()
            elif clause.type == "finally_clause":
                lines += ["finally", *self.block(clause.named_children[0])]
        return lines

    def _s_try_with_resources_statement(self, node: Node) -> list[str]:
        self.scopes.append({})
        heads = []
        for res in node.child_by_field_name("resources").named_children:
            if res.type != "resource":
                continue
            name_node = res.child_by_field_name("name")
            if name_node is None:
                heads.append(f"using ({self.ex(res.named_children[0])})")
                continue
            java_type = self.text(res.child_by_field_name("type"))
            text, ty = self.expr(res.child_by_field_name("value"), java_type)
            self.declare(self.text(name_node), java_type if java_type != "var" else ty)
            cs = "var" if java_type == "var" else self.cs_type(java_type)
            heads.append(f"using ({cs} {self.ident(self.text(name_node))} = {text})")
        inner = heads + self.block(node.child_by_field_name("body"))
        self.scopes.pop()
        handlers = self._handlers(node)
        if not handlers:
            return inner
        return ["try", "{", *_indent(inner), "}", *handlers]

    def _s_synchronized_statement(self, node: Node) -> list[str]:
        lock = node.named_children[0]
        return [f"lock {self.ex(lock)}", *self.block(node.child_by_field_name("body"))]

    def _s_assert_statement(self, node: Node) -> list[str]:
        return []      # Java runs with assertions disabled by default

    def _s_explicit_constructor_invocation(self, node: Node) -> list[str]:
        ctor = node.child_by_field_name("constructor")
        args = ", ".join(self.ex(a) for a in self.args(node.child_by_field_name("arguments")))
        self.ctor_init = f" : {'base' if self.text(ctor) == 'super' else 'this'}({args})"
        return []

    def _s_local_class_declaration(self, node: Node) -> list[str]:
        return [f"/* untranslated local class */ {self.text(node)}"]

    def _s_empty_statement(self, node: Node) -> list[str]:
        return [";"]

    # ---- header ----------------------------------------------------------------------------
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


def qualify(code: str, usings: frozenset[str]) -> str:
    """Qualify table types whose namespace the target file does not import (outside string literals)."""
    missing = {name: ns for name, ns in jdk_table()["namespaces"].items() if ns not in usings}
    if not missing:
        return code
    generic = [n for n, ns in missing.items() if ns == "System.Collections.Generic"]
    other = [n for n in missing if n not in generic]
    alternatives = [r"(?:" + "|".join(map(re.escape, other)) + r")\b(?=\s*[<.(\[{]|\s+\w)"] if other else []
    if generic:   # a bare IEnumerable is the non-generic System.Collections one: qualify only `Name<`
        alternatives.append(r"(?:" + "|".join(map(re.escape, generic)) + r")(?=\s*<)")
    pattern = re.compile(r"(?<![\w.])(" + "|".join(alternatives) + r")")
    pieces, last = [], 0
    for literal in _STRING.finditer(code):
        pieces.append(pattern.sub(lambda m: f"{missing[m.group(1)]}.{m.group(1)}", code[last:literal.start()]))
        pieces.append(literal.group(0))
        last = literal.end()
    pieces.append(pattern.sub(lambda m: f"{missing[m.group(1)]}.{m.group(1)}", code[last:]))
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


def _is_auto_getter(tr: MethodTranslator, node: Node, body: Node, header: str) -> bool:
    """`getX() { return x; }` where x maps to the property itself (no separate field on the target):
    the C# property is a getter-only auto-property, so its accessor list must stay `{ get; }`."""
    params = node.child_by_field_name("parameters")
    stmts = [c for c in body.named_children if c.type != "comment"]
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
    if params:
        name = tr.text(params[0].child_by_field_name("name"))
        tr.declare(name, tr.text(params[0].child_by_field_name("type")), "value")
        return ["{", *_indent(["set", *tr.block(body)]), "}"]
    return ["{", *_indent(["get", *tr.block(body)]), "}"]


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
    body = node.child_by_field_name("body")
    is_property = (target.kind == "property" if isinstance(target, Method)
                   else isinstance(target, str) and "(" not in target and "[" not in target)
    if body is None:
        return header + (" { get; }" if is_property else ";")
    if is_property and _is_auto_getter(tr, node, body, header):
        return header + " { get; }"
    if is_property:
        return header + "\n" + qualify("\n".join(_accessor(tr, node, body)), resolver.usings())
    lines = tr.block(body)
    if node.type == "constructor_declaration":
        header = _CTOR_INITIALIZER.sub(")", header) + tr.ctor_init   # ours, from Java's this(...)/super(...)
    body_text = qualify("\n".join(lines), resolver.usings())
    return (header if target is not None else qualify(header, resolver.usings())) + "\n" + body_text
