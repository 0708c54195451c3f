"""Java declarations -> symbol model (fields of the tree-sitter-java grammar)."""
from __future__ import annotations

import tree_sitter as ts

from repotrans.index.extractor import Extractor, norm_space, norm_type
from repotrans.index.model import Field, Import, Param


class JavaExtractor(Extractor):
    _ANNOTATIONS = frozenset({"annotation", "marker_annotation"})

    def on_module(self, node, namespace):
        name = next(c for c in node.named_children if c.type in ("identifier", "scoped_identifier"))
        self.file_namespace = norm_type(self.text(name))
        self.namespaces.append(self.file_namespace)

    def on_import(self, node):
        names = [c for c in node.named_children if c.type in ("identifier", "scoped_identifier")]
        kinds = {c.type for c in node.children}
        self.imports.append(Import(
            text=norm_space(self.text(node)), name=norm_type(self.text(names[0])) if names else "",
            static="static" in kinds, wildcard="asterisk" in kinds))

    def modifiers(self, node):
        """(keywords, annotations) of the `modifiers` node, which comes first when present."""
        first = node.child(0)
        if first is None or first.type != "modifiers":
            return [], []
        modifiers, annotations = [], []
        for mod in first.children:
            if mod.type in self._ANNOTATIONS:
                annotations.append(norm_space(self.text(mod)))
            elif not mod.is_named:
                modifiers.append(mod.type)
        return modifiers, annotations

    def bases(self, node):
        out = []
        for child in node.named_children:
            if child.type == "superclass":
                out += [norm_type(self.text(c)) for c in child.named_children]
            elif child.type in ("super_interfaces", "extends_interfaces"):
                for type_list in child.named_children:
                    out += [norm_type(self.text(c)) for c in type_list.named_children]
        return out

    def type_params(self, node):
        params = node.child_by_field_name("type_parameters")
        if params is None:
            return []
        return [norm_type(self.text(p)) for p in params.named_children if p.type == "type_parameter"]

    def params(self, node: ts.Node | None) -> list[Param]:
        out: list[Param] = []
        text = self.text
        for child in node.named_children if node is not None else []:
            kind = child.type
            if kind == "formal_parameter":
                dims = child.child_by_field_name("dimensions")
                type_text = text(child.child_by_field_name("type"))
                first = child.child(0)
                out.append(Param(text(child.child_by_field_name("name")),
                                 norm_type(type_text + text(dims) if dims is not None else type_text), False,
                                 [m.type for m in first.children if not m.is_named] if first.type == "modifiers"
                                 else []))
            elif kind == "spread_parameter":
                parts = child.named_children
                declarator = next(c for c in parts if c.type == "variable_declarator")
                type_node = next(c for c in parts if c.type not in ("modifiers", "variable_declarator"))
                out.append(Param(self.text(declarator.child_by_field_name("name")),
                                 norm_type(self.text(type_node)) + "...", True, self.keywords(parts[0])))
        return out

    def keywords(self, node: ts.Node | None) -> list[str]:
        """Keyword modifiers of a `modifiers` node (annotations left out); [] for any other node."""
        if node is None or node.type != "modifiers":
            return []
        return [m.type for m in node.children if not m.is_named]

    def on_record(self, node, owner, namespace):
        decl = self.add_type("record", node, owner, namespace, self.bases(node), self.type_params(node))
        for param in self.params(node.child_by_field_name("parameters")):
            line = node.start_point[0] + 1
            self.fields.append(Field(f"{decl.id}.{param.name}", decl.id, param.name, param.type.replace(
                "...", "[]"), ["private", "final"], None, line))
        return decl

    def on_field(self, node, owner):
        type_text = self.text(node.child_by_field_name("type"))
        for declarator in node.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value")
            self.add_field(owner, node, self.text(declarator.child_by_field_name("name")),
                           type_text + self.text(declarator.child_by_field_name("dimensions")),
                           self.text(value) if value is not None else None, declarator.start_point[0] + 1)

    def on_method(self, node, owner):
        start, end = self.body_range(node)
        self.add_method(node, owner, "method", self.text(node.child_by_field_name("name")),
                        self.params(node.child_by_field_name("parameters")),
                        norm_type(self.text(node.child_by_field_name("type"))), self.type_params(node),
                        start, end)

    def on_constructor(self, node, owner):
        if node.type == "compact_constructor_declaration":
            record = node.parent.parent
            params = self.params(record.child_by_field_name("parameters"))
        else:
            params = self.params(node.child_by_field_name("parameters"))
        start, end = self.body_range(node)
        self.add_method(node, owner, "constructor", "<init>", params, None, self.type_params(node), start, end)
