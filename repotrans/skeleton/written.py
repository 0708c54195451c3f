"""Members a skeleton writes with bodies, because batch pairs no Java method with them or translates
only their getter: property and indexer setters, enum constants with bodies (a private nested subclass
per constant, in the class shape the port gives Java enums with members) and interface default methods
(copied into the classes that implement the interface: C# interfaces before C# 8 hold no bodies).
Mixed into TypeRenderer (render.py)."""
from __future__ import annotations

import re

from tree_sitter import Node

from repotrans.translator.java2cs import MethodTranslator, parse_java_method
from repotrans.skeleton.lines import (INDENT, OBJECT_MEMBERS, PLACEHOLDER, Line, cs_ident, modifiers_of, node_text,
                                      params_of, pascal_word)


class WrittenMembers:
    """Needs TypeRenderer's ctx, conv, owner, sealed, constant_overrides, _access and _members."""

    def _defaults(self, node: Node, java_path: str) -> list[Line]:
        """The default methods of the Java interfaces a class implements and does not declare itself,
        translated into the class (the C# interface declares them without a body); the interfaces are
        those the index binds the class's declaration to (ctx.defaults, by the class's id)."""
        top = java_path.split(".", 1)[0]
        package = self.owner[:-len(top)] if self.owner.endswith(top) else ""
        body = node.child_by_field_name("body")
        own = {(node_text(m.child_by_field_name("name")), len(params_of(m))) for m in body.named_children
               if m.type == "method_declaration"} if body is not None else set()
        out: list[Line] = []
        for interface, text in self.ctx.defaults.get(f"source:{package}{java_path}", []):
            method, _ = parse_java_method(text)
            key = (node_text(method.child_by_field_name("name")), len(params_of(method)))
            if key in own:
                continue
            own.add(key)
            out += self._translated(method, f"{java_path}.{key[0]} (default of {interface})", "public", "")
        return out

    def _translated(self, m: Node, origin: str, access: str, dispatch: str) -> list[Line]:
        """A whole Java method translated now (for members batch pairs with no Java method)."""
        tr = MethodTranslator(self.ctx.resolver, b"")
        name = node_text(m.child_by_field_name("name"))
        header = tr.header(m, None)
        try:
            code = tr.block(m.child_by_field_name("body"))
        except Exception as exc:     # noqa: BLE001 - an untranslatable body stays a placeholder
            self.ctx.notes.append(f"{origin}: not translated ({type(exc).__name__})")
            code = ["{", INDENT + PLACEHOLDER, "}"]
        if (name, len(params_of(m))) in OBJECT_MEMBERS:
            returns, cs_method = OBJECT_MEMBERS[(name, len(params_of(m)))]
            access = "public"
        else:
            returns = tr.cs_type(node_text(m.child_by_field_name("type")))
            cs_method = cs_ident(name[:1].upper() + name[1:] if self.conv.pascal_methods.holds(True) else name)
        words = " ".join(w for w in (access, dispatch, returns, cs_method) if w)
        return [Line(f"{INDENT}{words}{header[header.index('('):]}", origin)] + \
            [Line(INDENT + part, origin) for line in code for part in line.split("\n")]

    def _accessor(self, node: Node, kind: str, indexer_header: str | None = None) -> list[str]:
        """A get or set accessor translated from the Java getter or setter (an indexer's setter: its
        last parameter is `value`, the others keep the names of the indexer's getter)."""
        tr = MethodTranslator(self.ctx.resolver, b"")
        tr.static_context = "static" in modifiers_of(node)
        try:
            tr.header(node, None)
            if kind == "set":
                tr.declare(params_of(node)[-1][1], params_of(node)[-1][0], "value")
            if indexer_header is not None:
                getter_names = re.findall(r"(\w+)\s*(?:,|$)", indexer_header[indexer_header.index("(") + 1:
                                                                              indexer_header.rindex(")")])
                for (jtype, jname), cs_name in zip(params_of(node)[:-1], getter_names):
                    tr.declare(jname, jtype, cs_name)
            lines = tr.block(node.child_by_field_name("body"))
        except Exception as exc:     # noqa: BLE001 - an untranslatable accessor stays a placeholder
            self.ctx.notes.append(f"{node_text(node.child_by_field_name('name'))}: not translated ({type(exc).__name__})")
            return [f"{kind} {{ {PLACEHOLDER} }}"]
        return [kind] + [part for line in lines for part in line.split("\n")]

    def _indexer_setter(self, getter: Node, methods: list[Node]) -> Node | None:
        """The Java `void set(<the getter's indices>, T value)` beside a `T get(...)` turned indexer."""
        want = [t for t, _ in params_of(getter)] + [node_text(getter.child_by_field_name("type"))]
        return next((m for m in methods if node_text(m.child_by_field_name("name")) == "set"
                     and [t for t, _ in params_of(m)] == want and "static" not in modifiers_of(m)), None)

    def _constant_class(self, constant: Node, sub: str, cs_name: str, arg_text: str, java_path: str) -> list[Line]:
        """A Java enum constant with a body: a private nested subclass of the enum class whose methods
        override the enum's, translated now (batch pairs no Java member with them)."""
        origin = f"{java_path}.{node_text(constant.child_by_field_name('name'))}"
        out = [Line(f"{INDENT}private sealed class {sub} : {cs_name}", origin), Line(INDENT + "{", origin),
               Line(f"{INDENT * 2}internal {sub}() : base({arg_text}) {{ }}", origin)]
        for m in constant.child_by_field_name("body").named_children:
            if m.type != "method_declaration":
                if "comment" not in m.type:
                    self.ctx.notes.append(f"{origin}: {m.type} in the constant's body not generated")
                continue
            name = node_text(m.child_by_field_name("name"))
            out += [Line(INDENT + line.text, line.origin) for line in
                    self._translated(m, f"{origin}.{name}", self._access(modifiers_of(m), True), "override")]
        return out + [Line(INDENT + "}", origin)]

    def _declared_names(self, body: Node) -> set:
        """Names and (name, arity) of the methods an enum body declares itself."""
        decls = next((c for c in body.named_children if c.type == "enum_body_declarations"), None)
        out: set = set()
        for d in decls.named_children if decls is not None else []:
            if d.type == "method_declaration":
                name = node_text(d.child_by_field_name("name"))
                out |= {name, (name, len(params_of(d)))}
            elif d.type == "field_declaration":
                out |= {node_text(v.child_by_field_name("name")) for v in d.children_by_field_name("declarator")}
        return out

    def _enum_class(self, node: Node, cs_name: str, mods: list[str], bases: list[str], depth: int,
                    java_path: str) -> list[Line]:
        """A Java enum with fields or methods in the shape the port gives them: a sealed class with one
        static readonly instance per constant, `values()`, `ordinal()`, `name()` and `ToString()`."""
        body = node.child_by_field_name("body")
        tr = MethodTranslator(self.ctx.resolver, b"")
        tr.static_context = True
        constants = [c for c in body.named_children if c.type == "enum_constant"]
        bodied = [c for c in constants if c.child_by_field_name("body") is not None]
        decls = next((c for c in body.named_children if c.type == "enum_body_declarations"), None)
        abstract = any("abstract" in modifiers_of(d) for d in (decls.named_children if decls is not None else [])
                       if d.type == "method_declaration")
        shape = "abstract" if abstract else "sealed" if not bodied else ""
        header = f"{self._access(mods, depth > 0)} {shape + ' ' if shape else ''}class {cs_name}" + \
            (f" : {', '.join(bases)}" if bases else "")
        lines = [Line(header, java_path, "type"), Line("{")]
        nested: list[Line] = []
        for i, c in enumerate(constants):
            cname = node_text(c.child_by_field_name("name"))
            args = c.child_by_field_name("arguments")
            arg_text = ", ".join(tr.ex(a) for a in args.named_children if "comment" not in a.type) \
                if args is not None else ""
            made = f"new {cs_name}({arg_text})"
            if c.child_by_field_name("body") is not None:
                sub = f"{cs_name}{pascal_word(cname)}"
                nested += self._constant_class(c, sub, cs_name, arg_text, java_path)
                made = f"new {sub}()"
            lines.append(Line(f"{INDENT}public static readonly {cs_name} {cname} = {made}"
                              f".Named(\"{cname}\", {i});", f"{java_path}.{cname}"))
        names = ", ".join(node_text(c.child_by_field_name("name")) for c in constants)
        helpers = [
            f"private static readonly {cs_name}[] enumValues = {{ {names} }};",
            "private string enumName;",
            "private int enumOrdinal;",
            f"private {cs_name} Named(string name, int ordinal) {{ enumName = name; enumOrdinal = ordinal; return this; }}",
        ]
        implicit = {"values": (f"static {cs_name}[]", f"return ({cs_name}[])enumValues.Clone();", ""),
                    "valueOf": (f"static {cs_name}", "foreach (var v in enumValues) if (v.enumName == name) return v; "
                                "throw new ArgumentException(name);", "string name"),
                    "ordinal": ("int", "return enumOrdinal;", ""), "name": ("string", "return enumName;", "")}
        declared = self._declared_names(body)
        for java_name, (returns, code, param) in implicit.items():
            kind, member = self.conv.enum_member(java_name)
            if member in declared or java_name in declared or (java_name, 1 if param else 0) in declared:
                continue
            if kind == "property" and not param:
                helpers.append(f"public {returns} {member} {{ get {{ {code} }} }}")
            else:
                helpers.append(f"public {returns} {member}({param}) {{ {code} }}")
        lines += [Line(INDENT + h, java_path) for h in helpers]
        self.sealed.append(not bodied)
        overridden = {(node_text(m.child_by_field_name("name")), len(params_of(m))) for c in bodied
                      for m in c.child_by_field_name("body").named_children if m.type == "method_declaration"}
        self.constant_overrides.append(overridden)      # what a constant overrides is virtual in the enum class
        members = self.members(body, cs_name, "class", depth, java_path, enum=True) + nested
        self.constant_overrides.pop()
        self.sealed.pop()
        if not any(line.text.strip().startswith("public override string ToString()") for line in members):
            members.append(Line(INDENT + "public override string ToString() { return enumName; }", java_path))
        if not any(line.origin and "(" in line.origin and line.text.strip().startswith(("private " + cs_name + "("))
                   for line in members):
            members.append(Line(f"{INDENT}private {cs_name}() {{ }}", java_path))
        lines += members
        lines.append(Line("}"))
        return lines
