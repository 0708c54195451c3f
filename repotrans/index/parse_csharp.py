"""C# declarations -> symbol model (fields of the tree-sitter-c-sharp grammar)."""
from __future__ import annotations

import tree_sitter as ts

from repotrans.index.extractor import Extractor, norm_space, norm_type
from repotrans.index.model import Import, Method, Param


class CSharpExtractor(Extractor):

    def depth(self, container):
        """One level deeper when the container's body holds a `#if` block: the members the block's first
        branch declares (what the build compiles by default: `#if !SILVERLIGHT`) are its members too."""
        body = next((c for c in container.named_children if c.type == "declaration_list"), container)
        return super().depth(container) + any(c.type == "preproc_if" for c in body.named_children)

    def on_module(self, node, namespace):
        """Record a namespace; a block namespace returns the namespace path its body is in."""
        name = norm_type(self.text(node.child_by_field_name("name")))
        inner = None
        if node.type == "file_scoped_namespace_declaration":
            self.file_namespace = full = name
        else:
            inner = [*namespace, name]
            full = ".".join(p for p in [self.file_namespace, *inner] if p)
        if full not in self.namespaces:
            self.namespaces.append(full)
        return inner

    def on_import(self, node):
        alias = node.child_by_field_name("name")
        targets = [c for c in node.named_children if alias is None or c.id != alias.id]
        self.imports.append(Import(
            text=norm_space(self.text(node)), name=norm_type(self.text(targets[-1])) if targets else "",
            static=any(c.type == "static" for c in node.children),
            alias=self.text(alias) if alias is not None else None))

    def modifiers(self, node):
        """(modifiers, attributes): the attribute lists and modifiers that open a declaration
        (preprocessor lines between them, such as `#pragma warning disable`, are skipped)."""
        modifiers, annotations = [], []
        for child in node.children:
            if child.type == "modifier":
                modifiers.append(self.text(child))
            elif child.type == "attribute_list":
                annotations += [norm_space(self.text(a)) for a in child.named_children if a.type == "attribute"]
            elif child.is_named and not child.type.startswith("preproc_"):
                break
        return modifiers, annotations

    def bases(self, node):
        for child in node.named_children:
            if child.type == "base_list":
                return [norm_type(self.text(c)) for c in child.named_children]
        return []

    def type_params(self, node):
        for child in node.named_children:
            if child.type == "type_parameter_list":
                return [norm_type(self.text(p)) for p in child.named_children if p.type == "type_parameter"]
        return []

    def params(self, node: ts.Node | None) -> list[Param]:
        """Parameters of a parameter_list; `params T[] xs` sits directly on the list in this grammar."""
        if node is None:
            return []
        if self.src.find(b"params", node.start_byte, node.end_byte) < 0:
            return [self.param(c) for c in node.named_children if c.type == "parameter"]
        out: list[Param] = []
        loose: dict[str, str] = {}
        for i, child in enumerate(node.children):
            if child.type == "parameter":
                out.append(self.param(child))
            elif child.type == "params":
                loose = {"params": ""}
            elif loose and node.field_name_for_child(i) in ("type", "name"):
                loose[node.field_name_for_child(i)] = self.text(child)
                if "name" in loose:
                    out.append(Param(loose["name"], norm_type(loose.get("type", "")), True, []))
                    loose = {}
        return out

    def param(self, node: ts.Node) -> Param:
        mods = [self.text(m) for m in node.children if m.type == "modifier"] if node.child_count > 2 else []
        return Param(self.text(node.child_by_field_name("name")), norm_type(self.text(node.child_by_field_name("type"))),
                     "params" in mods, [m for m in mods if m != "params"])

    def on_record(self, node, owner, namespace):
        decl = self.add_type("record", node, owner, namespace, self.bases(node), self.type_params(node))
        plist = next((c for c in node.named_children if c.type == "parameter_list"), None)
        for param in self.params(plist):
            line = node.start_point[0] + 1
            self.methods.append(Method(
                id=f"{decl.id}.{param.name}", side=self.side, type_id=decl.id, kind="property",
                name=param.name, params=[], return_type=param.type, modifiers=["public"], annotations=[],
                type_params=[], signature=f"{param.type} {param.name}", body=None, path=self.path,
                start_line=line, end_line=line, start_byte=plist.start_byte, end_byte=plist.end_byte))
        return decl

    def on_delegate(self, node, owner, namespace):
        """A delegate is a type whose one member is `Invoke`, with the delegate's parameters and return
        type and no body (what a Java single-method interface's method becomes)."""
        decl = self.add_type("delegate", node, owner, namespace, [], self.type_params(node))
        invoke = self.add_method(node, decl, "method", "Invoke", self.params(node.child_by_field_name("parameters")),
                                 norm_type(self.text(node.child_by_field_name("type"))), [], None, None)
        invoke.modifiers = ["public"]
        return decl

    def on_field(self, node, owner):
        extra = ("event",) if node.type == "event_field_declaration" else ()
        declaration = next(c for c in node.named_children if c.type == "variable_declaration")
        type_text = self.text(declaration.child_by_field_name("type"))
        for declarator in declaration.named_children:
            if declarator.type != "variable_declarator":
                continue
            self.add_field(owner, node, self.text(declarator.child_by_field_name("name")), type_text,
                           self.initializer(declarator), declarator.start_point[0] + 1, extra)

    def initializer(self, declarator: ts.Node) -> str | None:
        children = declarator.children
        for i, child in enumerate(children):
            if child.type == "equals_value_clause":
                return self.text(child.named_children[0]) if child.named_children else None
            if child.type == "=" and i + 1 < len(children):
                return self.slice(children[i + 1].start_byte, declarator.end_byte)
        return None

    def body_range(self, node):
        """Block body, or `=> expr;` through the declaration's end; None for abstract members."""
        body = node.child_by_field_name("body")
        if body is None:
            return None, None
        if body.type == "arrow_expression_clause":
            return body.start_byte, node.end_byte
        return body.start_byte, body.end_byte

    def on_method(self, node, owner):
        params = self.params(node.child_by_field_name("parameters"))
        start, end = self.body_range(node)
        if node.type == "method_declaration":
            name, returns = self.text(node.child_by_field_name("name")), node.child_by_field_name("returns")
        elif node.type == "destructor_declaration":
            name, returns = "~" + self.text(node.child_by_field_name("name")), None
        else:
            returns = node.child_by_field_name("type")
            name = self.operator_name(node, returns)
        self.add_method(node, owner, "method", self.explicit_interface(node) + name, params,
                        norm_type(self.text(returns)) if returns is not None else "void",
                        self.type_params(node), start, end)

    def operator_name(self, node: ts.Node, returns: ts.Node | None) -> str:
        """"operator +" for operators, "implicit operator int" for conversions."""
        tokens = [c.type for c in node.children if not c.is_named]
        if node.type == "conversion_operator_declaration":
            keyword = "implicit" if "implicit" in tokens else "explicit"
            return f"{keyword} operator {norm_type(self.text(returns))}"
        after = tokens.index("operator") + 1 if "operator" in tokens else len(tokens)
        return f"operator {tokens[after]}" if after < len(tokens) else "operator"

    def explicit_interface(self, node: ts.Node) -> str:
        """"IEnumerable." for `IEnumerator IEnumerable.GetEnumerator()` (the interface as written), else ""."""
        for child in node.children:
            if child.type == "explicit_interface_specifier":
                return norm_type(self.text(child).rstrip().rstrip(".")) + "."
        return ""

    def on_constructor(self, node, owner):
        start, end = self.body_range(node)
        # a static constructor is its own member (Java's static initializer), never an instance one
        name = "<clinit>" if "static" in self.modifiers(node)[0] else "<init>"
        self.add_method(node, owner, "constructor", name,
                        self.params(node.child_by_field_name("parameters")), None, [], start, end)

    def accessor_range(self, node: ts.Node) -> tuple[int | None, int | None]:
        """Accessor list or `=> expr` through the declaration's end (incl. `= init;`)."""
        body = node.child_by_field_name("accessors")
        if body is None:
            body = next((c for c in node.children_by_field_name("value")
                         if c.type == "arrow_expression_clause"), None)
        return (body.start_byte, node.end_byte) if body is not None else (None, None)

    def on_property(self, node, owner):
        """A property, or an event with add/remove accessors (modifiers then include "event")."""
        start, end = self.accessor_range(node)
        method = self.add_method(node, owner, "property",
                                 self.explicit_interface(node) + self.text(node.child_by_field_name("name")), [],
                                 norm_type(self.text(node.child_by_field_name("type"))), [], start, end)
        if node.type == "event_declaration":
            method.modifiers.insert(0, "event")

    def on_indexer(self, node, owner):
        start, end = self.accessor_range(node)
        self.add_method(node, owner, "indexer", self.explicit_interface(node) + "this",
                        self.params(node.child_by_field_name("parameters")), norm_type(self.text(node.child_by_field_name("type"))), [], start, end)
