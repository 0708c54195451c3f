"""The symbol model shared by the index, the tools, retrieval, the runner and the agents.

Both repositories are indexed into the same model. `side` is "source" (Java) or "target" (C#).
Ids are stable strings, unique across both sides, e.g.
  type   "target:Acme.Geo.Shapes.Circle"            (qualified name, nested types joined with '.')
  method "target:Acme.Geo.Shapes.Circle.Area()"     (type id + member name + parameter types)
Paths are relative to the repository root, with '/' separators.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Side = Literal["source", "target"]
SIDES: tuple[Side, Side] = ("source", "target")
LANG_OF_SIDE = {"source": "java", "target": "csharp"}


@dataclass
class Param:
    name: str
    type: str                     # as written, whitespace-normalised ("List<String>", "int[]")
    varargs: bool = False         # Java `T... xs` or C# `params T[] xs`
    modifiers: list[str] = field(default_factory=list)   # final, ref, out, in, this


@dataclass
class Import:
    text: str                     # the directive as written, e.g. "using Foo = Acme.Bar;"
    name: str                     # the imported package/namespace/type, e.g. "Acme.Bar"
    static: bool = False          # Java `import static`, C# `using static`
    alias: str | None = None      # C# using alias
    wildcard: bool = False        # Java `import a.b.*`


@dataclass
class FileInfo:
    side: Side
    path: str
    sha256: str
    namespaces: list[str]         # Java: [package]; C#: every namespace declared in the file
    imports: list[Import]
    syntax_errors: int = 0        # ERROR/MISSING nodes tree-sitter recovered from


@dataclass
class Field:
    id: str
    type_id: str
    name: str
    type: str
    modifiers: list[str]
    initializer: str | None
    line: int
    annotations: list[str] = field(default_factory=list)


@dataclass
class Method:
    """A method, constructor, C# property or indexer (`kind`)."""
    id: str
    side: Side
    type_id: str
    kind: Literal["method", "constructor", "property", "indexer"]
    name: str
    params: list[Param]
    return_type: str | None       # None for constructors; property/indexer type for those
    modifiers: list[str]
    annotations: list[str]        # Java annotations / C# attributes, as written
    type_params: list[str]
    signature: str                # declaration text up to (not including) the body
    body: str | None              # body text incl. braces, `=> expr;`, accessor list; None if abstract
    path: str
    start_line: int               # 1-based, inclusive
    end_line: int
    start_byte: int               # declaration byte range in the file (incl. attributes)
    end_byte: int
    body_start_byte: int | None = None
    body_end_byte: int | None = None

    @property
    def param_types(self) -> list[str]:
        return [p.type for p in self.params]


@dataclass
class TypeDecl:
    id: str
    side: Side
    kind: Literal["class", "interface", "enum", "record", "struct", "annotation", "delegate"]   # C# delegate: one member, Invoke
    name: str                     # simple name
    qualified_name: str           # namespace/package + enclosing types + name
    container: str                # package or namespace ("" if none)
    outer_id: str | None          # enclosing type's id for nested types
    type_params: list[str]
    bases: list[str]              # superclass and interfaces as written
    modifiers: list[str]
    annotations: list[str]
    path: str
    start_line: int
    end_line: int
    enum_constants: list[str] = field(default_factory=list)


def to_json(obj) -> dict:
    """Dataclass -> plain dict (JSON-able)."""
    return asdict(obj)
