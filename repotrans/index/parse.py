"""Parse one Java or C# file into the symbol model.

tree-sitter finds the declarations through the queries in queries/<lang>.scm (tags-style captures:
@definition.<kind> on a declaration, @name on its name); this module reads each declaration's parts
through the grammar's fields and places it in its enclosing namespace/type.
Byte offsets refer to the file's bytes (for a file that is not valid UTF-8: to the UTF-8 encoding of
its text decoded with replacement characters).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import tree_sitter as ts
import tree_sitter_c_sharp
import tree_sitter_java

from repotrans.index.model import LANG_OF_SIDE, Field, FileInfo, Import, Method, Param, Side, TypeDecl

_WS = re.compile(r"\s+")
_TIGHT = re.compile(r"\s*([<>\[\](),.])\s*")
_COMMA = re.compile(r",(?=[^\],])")


def norm_type(text: str) -> str:
    """Whitespace-normalise a type as written: "Map< K ,V >" -> "Map<K, V>", "int [ , ]" -> "int[,]"."""
    bare = text.replace(", ", "")
    if "," not in bare and " " not in bare and "\n" not in bare and "\t" not in bare and "\r" not in bare:
        return text
    text = _TIGHT.sub(r"\1", _WS.sub(" ", text).strip())
    return _COMMA.sub(", ", text)


def norm_space(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Grammar:
    language: ts.Language
    query: ts.Query               # queries/<lang>.scm


_LANGUAGES = {"java": tree_sitter_java.language, "csharp": tree_sitter_c_sharp.language}


@lru_cache(maxsize=None)
def grammar(lang: str) -> Grammar:
    language = ts.Language(_LANGUAGES[lang]())
    source = resources.files("repotrans.index").joinpath("queries", f"{lang}.scm").read_text("utf-8")
    return Grammar(language, ts.Query(language, source))


def parser_for(side: Side) -> ts.Parser:
    return ts.Parser(grammar(LANG_OF_SIDE[side]).language)


@dataclass
class ParsedFile:
    info: FileInfo
    types: list[TypeDecl]
    fields: list[Field]
    methods: list[Method]
    decode_errors: bool = False      # the file was not valid UTF-8


def decode(data: bytes) -> tuple[bytes, bool]:
    """Return UTF-8 bytes to parse and whether the input had to be decoded with replacement."""
    try:
        data.decode("utf-8")
        return data, False
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8"), True


def parse_file(side: Side, path: str, data: bytes, sha256: str) -> ParsedFile:
    """Parse one file's bytes into its FileInfo, types, fields and members."""
    data, replaced = decode(data)
    g = grammar(LANG_OF_SIDE[side])
    tree = ts.Parser(g.language).parse(data)
    extractor = (_JavaExtractor if side == "source" else _CSharpExtractor)(side, path, data, g)
    result = extractor.run(tree)
    result.info.sha256 = sha256
    result.info.syntax_errors = count_errors(tree)
    result.decode_errors = replaced
    return result


def count_errors(tree: ts.Tree) -> int:
    """Number of ERROR and MISSING nodes tree-sitter recovered from."""
    if not tree.root_node.has_error:
        return 0
    count, cursor = 0, tree.walk()
    while True:
        node = cursor.node
        if node.is_error or node.is_missing:
            count += 1
        if node.has_error and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return count


class _Extractor:
    """Shared walk: run the query, place each declaration, build the model objects."""

    def __init__(self, side: Side, path: str, src: bytes, g: Grammar):
        self.side, self.path, self.src, self.g = side, path, src, g
        self.types: list[TypeDecl] = []
        self.fields: list[Field] = []
        self.methods: list[Method] = []
        self.imports: list[Import] = []
        self.namespaces: list[str] = []
        self.file_namespace = ""                  # Java package / C# file-scoped namespace

    def text(self, node: ts.Node | None) -> str:
        if node is None:
            return ""
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def run(self, tree: ts.Tree) -> ParsedFile:
        self.visit(tree.root_node, None, [])
        info = FileInfo(self.side, self.path, "", self.namespaces, self.imports)
        return ParsedFile(info, self.types, self.fields, self.methods)

    def visit(self, container: ts.Node, owner: TypeDecl | None, namespace: list[str]) -> None:
        """Handle the declarations in `container` (file, namespace or type), recursing into each.

        Matches start at most two levels below the container (type -> body -> member; three for
        Java enums), so tree-sitter never walks into method bodies, and whatever a match finds
        belongs to `owner` (None: a top-level declaration inside `namespace`).
        Members of local and anonymous classes lie deeper and are not indexed.
        """
        cursor = ts.QueryCursor(self.g.query)
        cursor.set_max_start_depth(_DEPTH.get(container.type, 2))
        top = container.id
        found = sorted(((node.start_byte, cap, node) for cap, nodes in cursor.captures(container).items()
                        if cap != "name" for node in nodes if node.id != top), key=lambda item: item[0])
        for _, cap, node in found:
            kind = cap.split(".", 1)[1]
            if kind == "import":
                self.on_import(node)
            elif kind == "module":
                inner = self.on_module(node, namespace)
                if inner is not None:
                    self.visit(node, None, inner)
            elif kind in _TYPE_KINDS:
                self.visit(node, getattr(self, f"on_{kind}")(node, owner, namespace), namespace)
            elif owner is not None:
                getattr(self, f"on_{kind}")(node, owner)

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
            member = f"this[{', '.join(p.type for p in params)}]"
        else:
            member = f"{name}({', '.join(p.type for p in params)})"
        modifiers, annotations = self.modifiers(node)
        if body_start is None:
            signature, body = self.text(node).rstrip().rstrip(";"), None
        else:
            signature = self.src[node.start_byte:body_start].decode("utf-8", "replace")
            body = self.src[body_start:body_end].decode("utf-8", "replace")
        method = Method(
            id=f"{owner.id}.{member}", side=self.side, type_id=owner.id, kind=kind, name=name,
            params=params, return_type=return_type, modifiers=modifiers, annotations=annotations,
            type_params=type_params, signature=norm_space(signature), body=body, path=self.path,
            start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1,
            start_byte=node.start_byte, end_byte=node.end_byte,
            body_start_byte=body_start, body_end_byte=body_end)
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


_TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "struct", "annotation"})
_DEPTH = {"enum_declaration": 3}      # enum -> enum_body -> enum_body_declarations -> constructor


class _JavaExtractor(_Extractor):
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
        modifiers, annotations = [], []
        for child in node.children:
            if child.type != "modifiers":
                continue
            for mod in child.children:
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
        for child in node.named_children if node is not None else []:
            kind = child.type
            if kind == "formal_parameter":
                dims = child.child_by_field_name("dimensions")
                type_text = self.text(child.child_by_field_name("type"))
                out.append(Param(self.text(child.child_by_field_name("name")),
                                 norm_type(type_text + self.text(dims) if dims is not None else type_text),
                                 False, self.keywords(child.child(0))))
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


class _CSharpExtractor(_Extractor):

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
        modifiers, annotations = [], []
        for child in node.children:
            if child.type == "modifier":
                modifiers.append(self.text(child))
            elif child.type == "attribute_list":
                annotations += [norm_space(self.text(a)) for a in child.named_children if a.type == "attribute"]
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
                return self.src[children[i + 1].start_byte:declarator.end_byte].decode("utf-8", "replace")
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
        self.add_method(node, owner, "method", name, params,
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

    def on_constructor(self, node, owner):
        start, end = self.body_range(node)
        self.add_method(node, owner, "constructor", "<init>",
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
        method = self.add_method(node, owner, "property", self.text(node.child_by_field_name("name")), [],
                                 norm_type(self.text(node.child_by_field_name("type"))), [], start, end)
        if node.type == "event_declaration":
            method.modifiers.insert(0, "event")

    def on_indexer(self, node, owner):
        start, end = self.accessor_range(node)
        self.add_method(node, owner, "indexer", "this", self.params(node.child_by_field_name("parameters")),
                        norm_type(self.text(node.child_by_field_name("type"))), [], start, end)
