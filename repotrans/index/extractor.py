"""Shared part of the Java and C# extractors: walk the query matches and build the symbol model.

Each language subclass (parse_java.py, parse_csharp.py) reads a declaration's parts through its
grammar's fields; this class places declarations in their namespace/type and builds the model objects.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import tree_sitter as ts

from repotrans.index.model import Field, FileInfo, Import, Method, Param, Side, TypeDecl

_WS = re.compile(r"\s+")
_TIGHT = re.compile(r"\s*([<>\[\](),.])\s*")
_COMMA = re.compile(r",(?=[^\],])")


def norm_type(text: str) -> str:
    """Whitespace-normalise a type as written: "Map< K ,V >" -> "Map<K, V>", "int [ , ]" -> "int[,]"."""
    if " " not in text and "," not in text and "\n" not in text and "\t" not in text and "\r" not in text:
        return text                                   # most types: nothing to normalise
    bare = text.replace(", ", "")
    if "," not in bare and " " not in bare and "\n" not in bare and "\t" not in bare and "\r" not in bare:
        return text
    text = _TIGHT.sub(r"\1", _WS.sub(" ", text).strip())
    return _COMMA.sub(", ", text)


def norm_space(text: str) -> str:
    return " ".join(text.split())


class Extractor:
    """Shared walk: run the query, place each declaration, build the model objects."""

    def __init__(self, side: Side, path: str, src: bytes, query: ts.Query):
        self.side, self.path, self.src, self.query = side, path, src, query
        self.chars = src.decode("utf-8", "replace") if src.isascii() else None   # byte offset == char offset
        self.types: list[TypeDecl] = []
        self.fields: list[Field] = []
        self.methods: list[Method] = []
        self.imports: list[Import] = []
        self.namespaces: list[str] = []
        self.file_namespace = ""                  # Java package / C# file-scoped namespace
        self.cursor = ts.QueryCursor(query)
        self.handlers = _handlers(type(self), query)

    def text(self, node: ts.Node | None) -> str:
        if node is None:
            return ""
        if self.chars is not None:
            return self.chars[node.start_byte:node.end_byte]
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def slice(self, start: int, end: int) -> str:
        """The file's text between two byte offsets."""
        if self.chars is not None:
            return self.chars[start:end]
        return self.src[start:end].decode("utf-8", "replace")

    def run(self, tree: ts.Tree) -> tuple[FileInfo, list[TypeDecl], list[Field], list[Method]]:
        self.visit(tree.root_node, None, [])
        return FileInfo(self.side, self.path, "", self.namespaces, self.imports), self.types, self.fields, self.methods

    def visit(self, container: ts.Node, owner: TypeDecl | None, namespace: list[str]) -> None:
        """Handle the declarations in `container` (file, namespace or type), recursing into each.

        Matches start at most two levels below the container (type -> body -> member; three for
        Java enums), so tree-sitter never walks into method bodies, and whatever a match finds
        belongs to `owner` (None: a top-level declaration inside `namespace`).
        Members of local and anonymous classes lie deeper and are not indexed.
        """
        cursor = self.cursor
        cursor.set_max_start_depth(self.depth(container))
        top = container.id
        found = [(node.start_byte, cap, node) for cap, nodes in cursor.captures(container).items()
                 for node in nodes if node.id != top]
        found.sort(key=_first)
        handlers = self.handlers
        for _, cap, node in found:
            kind, handler = handlers[cap]
            if kind == "import":
                handler(self, node)
            elif kind == "module":
                inner = handler(self, node, namespace)
                if inner is not None:
                    self.visit(node, None, inner)
            elif kind in TYPE_KINDS:
                self.visit(node, handler(self, node, owner, namespace), namespace)
            elif owner is not None:
                handler(self, node, owner)

    def depth(self, container: ts.Node) -> int:
        """How far below `container` its declarations start (see visit)."""
        return DEPTH.get(container.type, 2)

    # ---- types -----------------------------------------------------------------------------------
    def add_type(self, kind: str, node: ts.Node, owner: TypeDecl | None, namespace: list[str],
                 bases: list[str], type_params: list[str]) -> TypeDecl:
        name = self.text(node.child_by_field_name("name"))
        if owner is not None:
            container, qualified = owner.container, f"{owner.qualified_name}.{name}"
        else:
            container = ".".join(p for p in [self.file_namespace, *namespace] if p)
            qualified = f"{container}.{name}" if container else name
        modifiers, annotations = self.modifiers(node)
        decl = TypeDecl(
            id=f"{self.side}:{qualified}", side=self.side, kind=kind, name=name, qualified_name=qualified,
            container=container, outer_id=owner.id if owner else None, type_params=type_params,
            bases=bases, modifiers=modifiers, annotations=annotations, path=self.path,
            start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1)
        self.types.append(decl)
        return decl

    def on_class(self, node, owner, namespace):
        return self.add_type("class", node, owner, namespace, self.bases(node), self.type_params(node))

    def on_interface(self, node, owner, namespace):
        return self.add_type("interface", node, owner, namespace, self.bases(node), self.type_params(node))

    def on_enum(self, node, owner, namespace):
        return self.add_type("enum", node, owner, namespace, self.bases(node), [])

    def on_struct(self, node, owner, namespace):
        return self.add_type("struct", node, owner, namespace, self.bases(node), self.type_params(node))

    def on_annotation(self, node, owner, namespace):
        return self.add_type("annotation", node, owner, namespace, [], [])

    def on_enum_constant(self, node, owner):
        owner.enum_constants.append(self.text(node.child_by_field_name("name")))

    # ---- members ---------------------------------------------------------------------------------
    def add_method(self, node: ts.Node, owner: TypeDecl, kind: str, name: str, params: list[Param],
                   return_type: str | None, type_params: list[str], body_start: int | None,
                   body_end: int | None) -> Method:
        if kind == "property":
            member = name
        elif kind == "indexer":
            member = f"{name}[{', '.join([p.type for p in params])}]"
        else:
            member = f"{name}({', '.join([p.type for p in params])})"
        modifiers, annotations = self.modifiers(node)
        start, end = node.start_byte, node.end_byte
        if body_start is None:
            signature, body = self.slice(start, end).rstrip().rstrip(";"), None
        else:
            signature, body = self.slice(start, body_start), self.slice(body_start, body_end)
        method = Method(
            id=f"{owner.id}.{member}", side=self.side, type_id=owner.id, kind=kind, name=name,
            params=params, return_type=return_type, modifiers=modifiers, annotations=annotations,
            type_params=type_params, signature=norm_space(signature), body=body, path=self.path,
            start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1,
            start_byte=start, end_byte=end, body_start_byte=body_start, body_end_byte=body_end)
        self.methods.append(method)
        return method

    def add_field(self, owner: TypeDecl, decl_node: ts.Node, name: str, type_text: str,
                  initializer: str | None, line: int, extra_modifiers: tuple[str, ...] = ()) -> None:
        modifiers, annotations = self.modifiers(decl_node)
        self.fields.append(Field(
            id=f"{owner.id}.{name}", type_id=owner.id, name=name, type=norm_type(type_text),
            modifiers=[*extra_modifiers, *modifiers], initializer=initializer, line=line,
            annotations=annotations))

    def body_range(self, node: ts.Node) -> tuple[int | None, int | None]:
        body = node.child_by_field_name("body")
        return (body.start_byte, body.end_byte) if body is not None else (None, None)

    # ---- language specifics ----------------------------------------------------------------------
    def modifiers(self, node: ts.Node) -> tuple[list[str], list[str]]:
        raise NotImplementedError

    def bases(self, node: ts.Node) -> list[str]:
        raise NotImplementedError

    def type_params(self, node: ts.Node) -> list[str]:
        raise NotImplementedError


@lru_cache(maxsize=None)
def _handlers(cls: type, query: ts.Query) -> dict[str, tuple[str, Callable]]:
    """Capture name -> (kind, the class's on_<kind> function), e.g. "definition.method" -> ("method", on_method).

    Functions, not bound methods: an extractor holding its own bound methods would be a reference
    cycle, freed only by the cyclic GC (which the store pauses while indexing)."""
    out = {}
    for i in range(query.capture_count):
        cap = query.capture_name(i)
        if cap != "name":
            kind = cap.split(".", 1)[1]
            out[cap] = (kind, getattr(cls, f"on_{kind}"))
    return out


def _first(item: tuple) -> int:
    return item[0]


TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "struct", "annotation", "delegate"})
DEPTH = {"enum_declaration": 3}      # enum -> enum_body -> enum_body_declarations -> constructor
