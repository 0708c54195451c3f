"""Names on the C# side: a resolver for project members over the JDK table (cs_types).

`ConventionResolver` knows only conventions (PascalCase methods, fields kept, no properties).
`ContextResolver` is built from the outputs of the target tools (`ContextResolver.from_tool_outputs`),
so Java `getRadius()` can become the property `Radius` and `count` the field `_count`.
"""
from __future__ import annotations

import re
from typing import Protocol

from repotrans.index.lookup import split_top
from repotrans.mapping.api_map import ApiMap
from repotrans.translator.cs_types import DEFAULT_USINGS, java_type_of, jdk_table, pascal, split_type, table_for
from repotrans.translator.raw_generics import is_raw, with_args
from repotrans.translator.tool_outputs import TargetType, declared_type_params, java_members, signature_head, target_type

def name_key(name: str) -> str:
    """A member name without the port's spelling (m_/_ prefix, underscores, case): `_count` ~ `COUNT`."""
    return re.sub(r"^(m_|_)", "", name).replace("_", "").lower()


class NameResolver(Protocol):
    """What the translator asks about the target side. `owner` is a Java simple type name, None = own class."""

    def type_name(self, java_type: str) -> str: ...
    def method_name(self, owner: str | None, name: str, argc: int) -> str: ...
    def property_name(self, owner: str | None, name: str, argc: int) -> str | None: ...
    def field_name(self, owner: str | None, name: str) -> str: ...
    def field_type(self, owner: str | None, name: str) -> str | None: ...
    def declared_field_type(self, owner: str | None, name: str) -> str | None: ...
    def getter_field(self, owner: str | None, name: str, argc: int) -> str | None: ...
    def method_return(self, owner: str | None, name: str, argc: int) -> str | None: ...
    def usings(self) -> frozenset[str]: ...
    def type_params(self) -> dict[str, str]: ...
    def members(self, owner: str | None) -> list[str]: ...
    def signatures(self, owner: str | None, name: str) -> list[str]: ...
    def is_enum(self, owner: str | None) -> bool: ...
    def enum_of(self, constants: list[str]) -> str | None: ...
    def enum_type(self, owner: str) -> str: ...


class ConventionResolver:
    """Conventions only: PascalCase methods, fields unchanged, JDK types from the table."""

    def __init__(self, usings: frozenset[str] | set[str] = DEFAULT_USINGS, project_types: dict[str, str] | None = None):
        self.api: ApiMap | None = None     # the port's learned API map, without the task's own pair
        self.libraries: frozenset[str] = frozenset()   # library packages the Java file imports (table_for)
        self._usings = frozenset(usings)
        self._project_types = dict(project_types or {})

    def type_name(self, java_type: str) -> str:
        table = table_for(self.libraries)
        base, args, dims = split_type(java_type)
        if base.startswith("?"):
            bound = base.split("extends", 1)[1] if "extends" in base else ""
            base, args, dims = split_type(bound) if bound.strip() else ("object", [], 0)
        if base in table["functional"]:
            spec = table["functional"][base]["cs"]
            for i, arg in enumerate(args):
                spec = spec.replace("{A%d}" % i, self.type_name(arg))
            return re.sub(r"\{A\d\}", "object", spec) + "[]" * dims
        if not args and not dims and base in table["raw_types"]:
            return table["raw_types"][base]
        mapped = self._project_types.get(base) or table["types"].get(base)
        if mapped is None:
            mapped = table["types"].get(base.rsplit(".", 1)[-1], base)
        text = mapped
        if args:
            text += "<" + ", ".join(self.type_name(a) for a in args) + ">"
        return text + "[]" * dims

    def method_name(self, owner: str | None, name: str, argc: int) -> str:
        return pascal(name)

    def property_name(self, owner: str | None, name: str, argc: int) -> str | None:
        return None

    def field_name(self, owner: str | None, name: str) -> str:
        return name

    def field_type(self, owner: str | None, name: str) -> str | None:
        return None

    def declared_field_type(self, owner: str | None, name: str) -> str | None:
        return None

    def getter_field(self, owner: str | None, name: str, argc: int) -> str | None:
        return None

    def method_return(self, owner: str | None, name: str, argc: int) -> str | None:
        return None

    def usings(self) -> frozenset[str]:
        return self._usings

    def type_params(self) -> dict[str, str]:
        """Java type parameter -> C# type parameter of the class (e.g. A -> TFirst)."""
        return {}

    def members(self, owner: str | None) -> list[str]:
        return []

    def is_enum(self, owner: str | None) -> bool:
        """Whether the owner's C# type is a C# enum (Java's enum API then maps onto System.Enum)."""
        return False

    def signatures(self, owner: str | None, name: str) -> list[str]:
        return []

    def enum_of(self, constants: list[str]) -> str | None:
        """The enum (a Java type key) declaring every one of these constants, when the context knows one."""
        return None

    def enum_type(self, owner: str) -> str:
        """An enum's C# name as a case label qualifies its constants with it."""
        return self.type_name(owner)


def renamed_members(method_matches) -> dict[str, str]:
    """ContextResolver.renames from a mapping's method matches: "JavaClass.method/argc" -> C# member
    name, for the pairs the naming conventions would not find (`bar` -> `Combine`, `getX` -> `Y`, and a
    port that kept Java's lower-case names). A key two Java types of one simple name map to different
    C# names (`Version.getVersionNumber/0` -> `VersionNumber` and `getVersionNumber`) is left out."""
    targets: dict[str, set[str]] = {}
    for match in method_matches:
        java_head, _, params = match.source_id.split(":", 1)[-1].partition("(")
        owner, _, name = java_head.rpartition(".")
        target = match.target_id.split(":", 1)[-1].split("(", 1)[0].split("[", 1)[0].rsplit(".", 1)[-1]
        if name == "<init>" or target == "this":
            continue
        argc = 0 if not params.rstrip(")").strip() else len(split_top(params.rstrip(')')))
        targets.setdefault(f"{owner.rsplit('.', 1)[-1]}.{name}/{argc}", set()).add(target)
    out: dict[str, str] = {}
    for key, found in targets.items():
        name = key.rsplit(".", 1)[1].split("/", 1)[0]
        conventional = {pascal(name), "Get" + pascal(name)} | {name[len(p):] for p in ("get", "is", "has", "set")
                                                               if name.startswith(p) and name[len(p):][:1].isupper()}
        if len(found) == 1 and not found <= conventional:
            out[key] = next(iter(found))
    return out


class ContextResolver(ConventionResolver):
    """Resolver over gathered target context.

    Input dict (every key optional):
      {"class": "Circle",                      # the Java class being translated (owner None)
       "usings": ["System", "System.Text"],    # namespaces in scope in the target file
       "types": {"Circle": {"target": "Circle",
                            "fields": [{"name": "_radius", "type": "double"}],
                            "properties": [{"name": "Radius", "type": "double"}],
                            "methods": ["public double Area()"],
                            "java_fields": {"radius": "double"},
                            "java_methods": {"area/0": "double"}}}}
    `fields`, `properties` and `methods` entries may also be plain strings (a name or a signature).
    """

    def __init__(self, current: str | None, types: dict[str, TargetType], usings: frozenset[str] = DEFAULT_USINGS,
                 type_params: dict[str, str] | None = None):
        super().__init__(usings, {k: v.name for k, v in types.items() if v.name != k})
        self.current = current
        self.types = types
        self._type_params = dict(type_params or {})
        self.missing: list[str] = []      # owners asked about but not in the context (to look up next)
        self.renames: dict[str, str] = {}  # "JavaClass.method/argc" (or "JavaClass.FIELD") -> the C# member
                                           # the mapping aligned it with

    def type_params(self) -> dict[str, str]:
        return self._type_params

    def _chain(self, owner: str | None) -> list[TargetType]:
        """The owner's target type, then the project types it inherits from that the context describes,
        nearest first (the tools list them: Index.supertypes); one not described yet is `missing`."""
        out: list[TargetType] = []
        for key in [owner or self.current or "", *self._supertypes(owner)]:
            info = self._info(key)
            if info is None and key and key[:1].isupper() and key not in self.missing:
                self.missing.append(key)
            if info is not None and info not in out:
                out.append(info)
        return out

    def _supertypes(self, owner: str | None) -> list[str]:
        key = owner or self.current or ""
        info = self._info(key)
        return info.supertypes if info is not None else []

    def _info(self, key: str) -> TargetType | None:
        """The described type of a Java name; a nested type named through its outer type (`Token.StartTag`,
        as Java code names it) is the nested type the tools describe by its simple name."""
        info = self.types.get(key) or self.types.get(self.java_name_of(key))
        if info is None and "." in key:
            info = self.types.get(key.rsplit(".", 1)[-1])
        return info

    def _type(self, owner: str | None) -> TargetType | None:
        return self.types.get(owner or self.current or "")

    def renamed(self, owner: str | None, name: str, argc: int) -> str | None:
        """The C# member the mapping aligned `owner.name/argc` with, when the port renamed it."""
        return self.renames.get(f"{owner or self.current}.{name}/{argc}")

    def method_name(self, owner: str | None, name: str, argc: int) -> str:
        renamed = self.renamed(owner, name, argc)
        if renamed is not None:
            return renamed
        for info in self._chain(owner):
            names = info.method_names()
            for candidate in (pascal(name), name, "Get" + pascal(name)):
                if candidate in names:
                    return candidate
            lowered = {n.lower(): n for n in names}
            if name.lower() in lowered:
                return lowered[name.lower()]
        return pascal(name)

    def property_name(self, owner: str | None, name: str, argc: int) -> str | None:
        renamed = self.renamed(owner, name, argc)
        if renamed is not None:
            is_property = any(renamed in info.properties for info in self._chain(owner))
            return renamed if is_property else None
        stems = [pascal(name)] if argc == 0 else []
        for prefix, arity in (("get", 0), ("is", 0), ("has", 0), ("set", 1)):
            if name.startswith(prefix) and name[len(prefix):][:1].isupper() and argc == arity:
                stems.append(name[len(prefix):])
        for info in self._chain(owner):
            if pascal(name) in info.method_names():
                return None
            for stem in stems:
                for prop in info.properties:
                    if prop.lower() == stem.lower():
                        return prop
        return None

    def field_name(self, owner: str | None, name: str) -> str:
        """The C# field or property a Java field is read through: the same name, else the port's renaming
        (prefix, case); from another type or a base class, a private field is reached through its property
        (NSoup's Node keeps `_attributes` private behind `Attributes`, its subclasses use that)."""
        renamed = self.renames.get(f"{owner or self.current}.{name}")     # the mapping's (mapping.fields)
        if renamed is not None:
            return renamed
        foreign = owner is not None and owner != self.current
        chain = self._chain(owner)
        if not foreign and chain and not any(name_key(f) == name_key(name) for f in chain[0].fields):
            # a field Java reads in a base class is that base's field where the code can reach it, before any
            # property: NSoup's TextNode overrides the Attributes property whose getter calls ensureAttributes(),
            # which reads Node's `attributes` field; through the property it recursed, Node's protected
            # _attributes does not
            for info in chain[1:]:
                reachable = [f for f in info.fields if f not in info.private and name_key(f) == name_key(name)]
                if reachable:
                    return reachable[0]
        for depth, info in enumerate(chain):
            members = list(info.fields) + list(info.properties)
            enclosing = not foreign and (self.current or "") in info.nested
            if (foreign or depth > 0) and not enclosing:
                # another type's, or a base class's: its private fields are out of reach, except to a type
                # nested in it (C#: NSoup's Token.Comment derives from Token and writes Token's private `_type`)
                hidden = [m for m in members if m in info.private and name_key(m) == name_key(name)]
                prop = next((p for p in info.properties if name_key(p) == name_key(name)), None)
                if hidden and prop is not None:
                    return prop
            if name in members:
                return name
            for member in members:
                if name_key(member) == name_key(name):
                    return member
        return name

    def field_type(self, owner: str | None, name: str) -> str | None:
        """The Java field's type; for another type whose Java side the context lacks, the type of the C#
        field or property it is read through, read back as Java (NSoup's `token.type` is `TokenType Type`)."""
        info = self._type(owner)
        if info is not None and name in info.java_fields:
            java = info.java_fields[name]
            if is_raw(java):            # a raw Java field takes the type arguments the port declares
                member = self.field_name(owner, name)
                declared = next((t.properties.get(member) or t.fields.get(member) for t in self._chain(owner)
                                 if t.properties.get(member) or t.fields.get(member)), None)
                return with_args(java, declared) or java
            return java
        member = self.field_name(owner, name)
        own = owner is None or owner == self.current
        for target in self._chain(owner)[1 if own else 0:]:   # own: the Java side knows its fields; a base's
            # field (NSoup's Comment reads Node's `attributes`) is typed by the C# declaration it is read through
            declared = target.properties.get(member) or target.fields.get(member)
            if declared:
                return java_type_of(declared)
        return None

    def getter_field(self, owner: str | None, name: str, argc: int) -> str | None:
        """The field a Java getter of another type reads where the port exposes the field itself and no
        member of the getter's name (pinyin4j's `GwoyeuRomatzyhResource.getInstance()` is Pinyin4j.Net's
        `GwoyeuRomatzyhResource.Instance`, a static readonly field)."""
        if argc or not re.match(r"(get|is)[A-Z]", name) or owner is None or owner == self.current:
            return None       # (the class's own removed getters are inlined from their Java bodies)
        stem = re.sub(r"^(get|is)", "", name).lower()
        for info in self._chain(owner):
            if pascal(name) in info.method_names() or name in info.method_names():
                return None
            for f in info.fields:
                if f.lower() == stem and f not in info.private:
                    return f
        return None

    def declared_field_type(self, owner: str | None, name: str) -> str | None:
        """The C# type the port declares for the field or property a Java field is read through."""
        member = self.field_name(owner, name)
        return next((t.properties.get(member) or t.fields.get(member) for t in self._chain(owner)
                     if t.properties.get(member) or t.fields.get(member)), None)

    def enum_of(self, constants: list[str]) -> str | None:
        wanted = {name_key(c) for c in constants}
        for key, info in self.types.items():
            if info.kind == "enum" and wanted and wanted <= {name_key(f) for f in info.fields}:
                return key
        return None

    def enum_type(self, owner: str) -> str:
        """Qualified by its declaring type when the enum is nested in another type than this one (NSoup's
        `Token.TokenType`, read from XmlTreeBuilder); C# finds a nested type by its simple name only inside."""
        name = self.type_name(owner)
        inside = {self.current or "", *self._supertypes(None)}
        for key, info in self.types.items():
            if name in info.nested and key not in inside and info.name not in inside:
                return f"{self.type_name(key)}.{name}"
        return name

    def method_return(self, owner: str | None, name: str, argc: int) -> str | None:
        """Java return type when the Java class is known, else the target member's type read back as Java."""
        info = self._type(owner)
        if info is not None and f"{name}/{argc}" in info.java_methods:
            return info.java_methods[f"{name}/{argc}"]
        prop = self.property_name(owner, name, argc)
        for target in self._chain(owner):
            if prop is not None and target.properties.get(prop):
                return java_type_of(target.properties[prop])
            for sig in target.method_names().get(self.method_name(owner, name, argc), []):
                head = signature_head(sig)
                if head and head[1] and head[2] == argc:
                    return java_type_of(head[1])
        return None

    def indexer(self, owner: str | None) -> tuple[str, int] | None:
        """(element type, arity) of the owner's `this[...]` indexer: what a Java get(i)/set(i, v)
        became in C#; None without one."""
        return next((info.indexer for info in self._chain(owner) if info.indexer is not None), None)

    def members(self, owner: str | None) -> list[str]:
        out: list[str] = []
        for info in self._chain(owner):
            out += [m for m in [*info.fields, *info.properties, *info.method_names()] if m not in out]
        return out

    def is_enum(self, owner: str | None) -> bool:
        info = self.types.get(owner or self.current or "") or self.types.get(self.java_name_of(owner or ""))
        return info is not None and info.kind == "enum"

    def signatures(self, owner: str | None, name: str) -> list[str]:
        info = self._type(owner)
        return info.method_names().get(name, []) if info else []

    def java_name_of(self, cs_name: str) -> str:
        """The Java type key whose target type is `cs_name` (itself when unknown)."""
        return next((k for k, v in self.types.items() if v.name == cs_name), cs_name)

    @classmethod
    def from_tool_outputs(cls, java_class: str, outputs: list[tuple[str, dict, dict]]) -> "ContextResolver":
        """Build from (tool name, args, output) triples of the repotrans tools.

        get_target_class_info describes the class of `java_class`; find_target_class_info(class_name)
        describes `class_name`; get_source_class_info gives the Java field and return types;
        find_target_imports gives the usings. Error outputs are ignored.
        """
        types: dict[str, TargetType] = {}
        usings: set[str] = set()
        java_info: dict | None = None
        for tool, args, out in outputs:
            if not isinstance(out, dict) or "error" in out:
                continue
            if tool == "get_source_class_info":
                java_info = out
            elif tool == "find_target_imports":
                usings.update(u["using"].removeprefix("using").strip(" ;") for u in out.get("usings", [])
                              if "=" not in u.get("using", "") and " static " not in u.get("using", ""))
            elif tool in ("get_target_class_info", "find_target_class_info"):
                key = java_class if tool == "get_target_class_info" else str(args.get("class_name", ""))
                types[key.rsplit(".", 1)[-1]] = target_type(out)
        type_params: dict[str, str] = {}
        if java_info is not None and java_class in types:
            java_fields, java_methods = java_members(java_info)
            types[java_class].java_fields.update(java_fields)
            types[java_class].java_methods.update(java_methods)
            java_params = declared_type_params(str(java_info.get("declaration", "")))
            type_params = dict(zip(java_params, types[java_class].type_params))
        return cls(java_class, types, frozenset(usings) if usings else DEFAULT_USINGS, type_params)
