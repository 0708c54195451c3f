"""Java statements -> C# statements: blocks, locals, loops with labels, switch, try/catch, resources.

Expressions are translated by java_expr.ExprTranslator; the method header and the whole method by java2cs.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from repotrans.translator.cursors import CursorsMixin
from repotrans.translator.java_expr import ExprTranslator, prim
from repotrans.translator.catch_types import catch_head, caught_types
from repotrans.translator.contract_types import REF, retyped
from repotrans.translator.cs_types import element_type, split_type
from repotrans.translator.resolver import NameResolver
from repotrans.translator.templates import as_net_format, fill

INDENT = "    "
_EFFECTS = ("method_invocation", "object_creation_expression", "assignment_expression", "update_expression")
JUMPS = {"break_statement", "continue_statement", "return_statement", "throw_statement", "yield_statement"}
INTERFACES = frozenset({"Map", "Set", "List", "Collection", "Queue", "Deque", "Iterable"})
COLLECTIONS = INTERFACES - {"Iterable"}     # Java interfaces the table writes as a concrete C# class


def indent(lines: list[str]) -> list[str]:
    return [INDENT + part if part else part for line in lines for part in line.split("\n")]


_LOGGERS = frozenset({"Logger", "Log"})     # java.util.logging, slf4j, log4j, commons-logging


class StatementTranslator(CursorsMixin, ExprTranslator):
    """Statements, scopes and labels (the method header: java2cs.MethodTranslator)."""

    def __init__(self, resolver: NameResolver, source: bytes):
        super().__init__(resolver, source)
        self.return_type: str | None = None
        self.labels: dict[str, str] = {}         # Java label -> C# label stem
        self.used_labels: set[str] = set()       # "<stem>_break" / "<stem>_continue" actually jumped to
        self.ctor_init = ""
        self.target_return: str | None = None       # the C# return type of the target signature
        self.returned_locals: set[str] = set()      # locals returned as they are (`return result;`)
        self.contract: dict[str, str] = {}          # local -> the C# type the port's members declare for it
        self.raw_args: dict[str, str] = {}          # raw generic local -> its Java type with type arguments
        self.reassigned: set[str] = set()           # locals assigned after their declaration
        self.format_locals: frozenset[str] = frozenset()    # locals read only as a format string
        self.redeclared: dict[int, str] = {}        # declarator node id -> its C# name (scopes.redeclarations)

    # ---- blocks ----------------------------------------------------------------------------
    def block(self, node: Node) -> list[str]:
        self.scopes.append({})
        lines: list[str] = []
        for child in node.named_children:
            lines.extend(self.stmt(child))
        self.scopes.pop()
        return ["{", *indent(lines), "}"]

    def lambda_block(self, block: Node) -> str:
        saved = self.return_type
        self.return_type = None
        text = "\n".join(self.block(block))
        self.return_type = saved
        return text

    def body(self, node: Node) -> list[str]:
        """A statement used as a loop/if body, always as a braced block."""
        return self.block(node) if node.type == "block" else ["{", *indent(self.stmt(node)), "}"]

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
        dropped = self._dropped_logging(inner)
        if dropped is not None:
            return [dropped]
        if inner.type == "method_invocation":
            text = self._call(inner, None, statement=True)[0]
        else:
            text = self.ex(inner)
        block = text.endswith("}") and re.match(r"(?:\{|(?:if|for|foreach|while|lock|using|try|switch)\b)", text)
        return [text if block else text + ";"]    # `c = new float[] { 0, 1 }` is an assignment: `;`

    def _dropped_logging(self, call: Node) -> str | None:
        """A call on the class's logger (a Java field of a Logger/Log type) that the port dropped with the
        field (libphonenumber-csharp has no LOGGER): a comment where the call was, never a name C# lacks."""
        obj = call.child_by_field_name("object") if call.type == "method_invocation" else None
        if obj is None or obj.type != "identifier" or self.lookup(self.text(obj)) is not None:
            return None
        name = self.text(obj)
        java = split_type(self.r.field_type(None, name) or "")[0]
        if java not in _LOGGERS or getattr(self.r, "declared_field_type", lambda o, n: None)(None, name):
            return None
        return f"// {self.text(call)}: logging the port dropped with {name}"

    def _s_local_variable_declaration(self, node: Node) -> list[str]:
        cursor = self.cursor_declaration(node)
        if cursor is None:
            cursor = self.matcher_declaration(node)
        if cursor is not None:
            return cursor
        java_type = self.text(node.child_by_field_name("type"))
        parts, inferred = [], set()
        for decl in node.children_by_field_name("declarator"):
            name = self.text(decl.child_by_field_name("name"))
            dims = decl.child_by_field_name("dimensions")
            decl_type = java_type + (self.text(dims) if dims is not None else "")
            decl_type = self.raw_args.get(name, decl_type) if dims is None else decl_type
            value = decl.child_by_field_name("value")
            if value is not None:
                text, ty = self.expr(value, None if decl_type == "var" else decl_type)
                if name in self.format_locals:
                    text = as_net_format(text)
                if decl_type == "var":
                    decl_type = ty or "var"
                elif self.creates_support(text) and dims is None and name not in self.reassigned:
                    inferred.add(name)      # a support class (LinkedHashMap's order) is no .NET Dictionary
                elif value.type == "object_creation_expression" and ty and split_type(decl_type)[0] in INTERFACES:
                    decl_type = ty      # Map<K, V> m = new TreeMap<>() -> SortedDictionary<K, V> m
                elif self._declared_elsewhere(value) and dims is None and split_type(decl_type)[0] in COLLECTIONS \
                        and name not in self.reassigned | self.returned_locals | set(self.raw_args):
                    # the C# declaration of what is called or read is the contract: NSoup's
                    # ParseFragment returns IList<Node>, its Children an Elements, Node's field childNodes is
                    # an IList<Node>, where Java declared List<...> (CS0266/CS0029)
                    inferred.add(name)
                elif self._declared_elsewhere(value) and dims is None and ty and self._unported(decl_type) \
                        and name not in self.reassigned:
                    # a type of Java's the port replaced (pinyin4j's sparta Document, Pinyin4j.Net's
                    # XmlDocument): the local is what the port's member declares
                    inferred.add(name)
                parts.append((name, decl_type, f"{self.local_name(decl, name)} = {self.coerce(text, ty, decl_type)}"))
            else:
                parts.append((name, decl_type, self.local_name(decl, name)))
        lines = []
        for (name, decl_type, text), decl in zip(parts, node.children_by_field_name("declarator")):
            self.declare(name, decl_type, self.local_name(decl, name))
            cs = "var" if java_type == "var" or (name in inferred and len(parts) == 1) else self.cs_type(decl_type)
            if name in self.contract:          # the port's members want another signedness or width
                cs, text = self.contract[name].removeprefix(REF), retyped(text, cs, self.contract[name])
            if name in self.returned_locals and self.target_return and "<" in cs:
                # List<List<T>> result ... return result;  with target IList<IList<T>>: C# generics are
                # invariant, so keep our concrete outer type and take the target's type arguments.
                wanted = cs.split("<", 1)[0] + self.target_return[self.target_return.find("<"):]
                if "<" in self.target_return and wanted != cs:
                    text = text.replace(f"new {cs}(", f"new {wanted}(", 1)
                    cs = wanted
            lines.append(f"{cs} {text};")
        return lines

    def local_name(self, declarator: Node, name: str) -> str:
        """The C# name of a declared local: its own, or a fresh one where C# forbids the Java one (CS0136)."""
        return self.redeclared.get(declarator.id, self.ident(name))

    def _unported(self, java_type: str) -> bool:
        """A project type of Java's (not the JDK's) that the port has no type of: neither described by the
        context nor named by the mapping."""
        base = split_type(java_type)[0]
        types = getattr(self.r, "types", None)
        if types is None or not base[:1].isupper() or base in self.table["types"] or base in self.table["kinds"]:
            return False
        return base not in types and self.r.type_name(base) == base

    def _declared_elsewhere(self, value: Node) -> bool:
        """A call's result or a field read (`parentNode.childNodes`, an own field): its C# type is the one
        the port declares for that member, not the Java-mapped one."""
        if value.type in ("method_invocation", "field_access"):
            return True
        return value.type == "identifier" and self.lookup(self.text(value)) is None \
            and self.r.field_type(None, self.text(value)) is not None

    def _s_return_statement(self, node: Node) -> list[str]:
        if not node.named_children:
            return ["return;"]
        if self.target_return == "void" and self.return_type not in (None, "void"):
            # the C# declaration is the contract: Java returns a value the port's void member
            # drops; an effect in the expression stays as a statement
            value = node.named_children[0]
            if value.type in _EFFECTS:
                return [f"{self.ex(value)};", "return;"]
            return ["return;"]
        value = node.named_children[0]
        if self.target_return == "StringBuilder" and self.return_type == "String" and value.type == "method_invocation" \
                and self.text(value.child_by_field_name("name")) == "toString" and not self.args(
                    value.child_by_field_name("arguments")) and value.child_by_field_name("object") is not None:
            builder, builder_type = self.expr(value.child_by_field_name("object"))
            if builder_type in ("StringBuilder", "StringBuffer"):
                return [f"return {builder};"]     # NSoup's Token.Doctype.Name hands out the builder Java copied
        if value.type == "cast_expression" and self.return_type and self.target_return not in (None, "void") \
                and self.text(value.child_by_field_name("type")) == self.return_type \
                and self.cs_type(self.return_type) != self.target_return:
            # the C# declaration is the contract: jsoup's `return (T) this;` in a method returning
            # its type parameter T, where NSoup declares `IConnectionBase<T>` (a cast to T: CS0030)
            return [f"return ({self.target_return}){self.ex(value.child_by_field_name('value'))};"]
        text, ty = self.expr(value, self.return_type)
        return [f"return {self.coerce(text, ty, self.return_type)};"]

    def _s_throw_statement(self, node: Node) -> list[str]:
        thrown = node.named_children[0]
        check = self._argument_check(node, thrown)
        return [f"throw {check if check is not None else self.ex(thrown)};"]

    def _argument_check(self, node: Node, thrown: Node) -> str | None:
        """.NET's argument exception for a Java exception thrown when a parameter is null (the table's
        [argument_checks]: `if (x == null) throw new NullPointerException()` is ArgumentNullException, as .NET
        code validates arguments), or None: another throw, or a guard on no parameter."""
        if thrown.type != "object_creation_expression":
            return None
        checks = self.table["argument_checks"].get(split_type(self.text(thrown.child_by_field_name("type")))[0])
        args = self.args(thrown.child_by_field_name("arguments"))
        template = checks.get(str(len(args))) if checks else None
        guard, method = node.parent, node.parent
        while guard is not None and guard.type != "if_statement":
            guard = guard.parent if guard.type == "block" and len(guard.named_children) == 1 else None
        while method is not None and method.type not in ("method_declaration", "constructor_declaration"):
            method = method.parent
        if template is None or guard is None or method is None:
            return None
        params = {self.text(p.child_by_field_name("name")) for p in method.child_by_field_name("parameters").named_children
                  if p.type in ("formal_parameter", "spread_parameter") and p.child_by_field_name("name") is not None}
        condition = self.text(guard.child_by_field_name("condition"))
        if not any(re.search(rf"(?<![\w.]){re.escape(p)}\s*==\s*null\b|\bnull\s*==\s*{re.escape(p)}(?![\w.])", condition)
                   for p in params):
            return None
        return fill(template, {str(i + 1): self.ex(a) for i, a in enumerate(args)})

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
        groups = [g for g in node.child_by_field_name("body").named_children if "comment" not in g.type]
        enum_owner = enum_owner or self.label_enum([v for g in groups for l in g.named_children
                                                    if l.type == "switch_label" for v in l.named_children])
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
            lines += indent(labels)
            if not body:
                continue
            if falls:
                following = next((s[0][0] for s in sections[i + 1:] if s[0]), None)
                body.append("break;" if following is None else
                            ("goto default;" if following == "default:" else f"goto {following[:-1]};"))
            lines += indent(indent(body))
        return lines + ["}"]

    def _case_label(self, label: Node, enum_owner: str | None) -> list[str]:
        values = label.named_children
        if not values:
            return ["default:"]
        out = []
        return [f"case {self.case_constant(value, enum_owner)}:" for value in values]

    def completes(self, node: Node) -> bool:
        """Conservative: False only when the statement certainly jumps away."""
        if node.type in JUMPS:
            return True if node.type == "break_statement" and node.named_children else False
        if node.type == "block":
            kids = [c for c in node.named_children if "comment" not in c.type]
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
        clauses = [c for c in node.named_children if c.type == "catch_clause"]
        named = [self._catch_types(c) for c in clauses]
        caught = caught_types(named, self.cs_type, self.table)
        for clause in node.named_children:
            if clause.type == "catch_clause":
                test, java = caught[clauses.index(clause)], named[clauses.index(clause)]
                param = next(c for c in clause.named_children if c.type == "catch_formal_parameter")
                name = self.text(param.child_by_field_name("name"))
                self.scopes.append({})
                cs_name = self.ident(name)
                self.declare(name, java[0] if len(test.types) == 1 and len(java) == 1 else "Exception")
                lines += [catch_head(test, cs_name), *self.block(clause.child_by_field_name("body"))]
                self.scopes.pop()
            elif clause.type == "finally_clause":
                lines += ["finally", *self.block(clause.named_children[0])]
        return lines

    def _catch_types(self, clause: Node) -> list[str]:
        """The types a catch clause names (recorded as caught), with the port's own type for each where it
        throws one (learned: caught beside the runtime's, which still throws IndexOutOfRangeException for an
        array index) and what a translated argument check throws for it (ArgumentNullException for NPE)."""
        param = next(c for c in clause.named_children if c.type == "catch_formal_parameter")
        types = [t.strip() for t in [self.text(t) for t in param.named_children if t.type == "catch_type"][0].split("|")]
        self.caught.update(split_type(t)[0] for t in types)
        types += [p for p in map(self._ported_exception, types) if p is not None and p not in types]
        checks = [self.table["argument_checks"].get(split_type(t)[0], {}).get("type") for t in types]
        return types + [c for c in checks if c is not None and c not in types]

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
        return ["try", "{", *indent(inner), "}", *handlers]

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
