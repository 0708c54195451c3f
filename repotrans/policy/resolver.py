"""Names on the C# side: JDK table lookups plus a resolver for project members.

`ConventionResolver` knows only conventions (PascalCase methods, fields kept, no properties).
`ContextResolver` is built from gathered target context (a dict, see `ContextResolver.from_dict`),
so Java `getRadius()` can become the property `Radius` and `count` the field `_count`.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

TABLE_FILE = Path(__file__).parent / "jdk_map.toml"
DEFAULT_USINGS = frozenset({"System", "System.Collections.Generic", "System.Linq", "System.Text"})
_ANNOTATION = re.compile(r"@[\w.]+(\([^)]*\))?\s*")
_SIG_NAME = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*\(([^)]*)\)")


@lru_cache(maxsize=1)
def jdk_table() -> dict[str, Any]:
    """The JDK -> .NET table (jdk_map.toml), loaded once."""
    with TABLE_FILE.open("rb") as handle:
        return tomllib.load(handle)


def split_type(text: str) -> tuple[str, list[str], int]:
    """`Map<K, List<V>>[]` -> ("Map", ["K", "List<V>"], 1); lenient, never raises."""
    text = _ANNOTATION.sub("", text or "").replace("...", "[]").strip()
    dims = 0
    while text.endswith("[]"):
        dims += 1
        text = text[:-2].rstrip()
    if "<" not in text or not text.endswith(">"):
        return text, [], dims
    base, inner = text[: text.index("<")].strip(), text[text.index("<") + 1:-1]
    args, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(inner[start:i].strip())
            start = i + 1
    if inner.strip():
        args.append(inner[start:].strip())
    return base, args, dims


def element_type(java_type: str | None) -> str | None:
    """Element of an array or first type argument of a generic; None when unknown."""
    if not java_type:
        return None
    base, args, dims = split_type(java_type)
    if dims:
        return base + ("<" + ", ".join(args) + ">" if args else "") + "[]" * (dims - 1)
    return args[0] if args else None


def pascal(name: str) -> str:
    return name[:1].upper() + name[1:] if name else name


def _norm(name: str) -> str:
    return re.sub(r"^(m_|_)", "", name).replace("_", "").lower()


class NameResolver(Protocol):
    """What the translator asks about the target side. `owner` is a Java simple type name, None = own class."""

    def type_name(self, java_type: str) -> str: ...
    def method_name(self, owner: str | None, name: str, argc: int) -> str: ...
    def property_name(self, owner: str | None, name: str, argc: int) -> str | None: ...
    def field_name(self, owner: str | None, name: str) -> str: ...
    def field_type(self, owner: str | None, name: str) -> str | None: ...
    def method_return(self, owner: str | None, name: str, argc: int) -> str | None: ...
    def usings(self) -> frozenset[str]: ...
    def members(self, owner: str | None) -> list[str]: ...
    def signatures(self, owner: str | None, name: str) -> list[str]: ...


class ConventionResolver:
    """Conventions only: PascalCase methods, fields unchanged, JDK types from the table."""

    def __init__(self, usings: frozenset[str] | set[str] = DEFAULT_USINGS, project_types: dict[str, str] | None = None):
        self._usings = frozenset(usings)
        self._project_types = dict(project_types or {})

    def type_name(self, java_type: str) -> str:
        table = jdk_table()
        base, args, dims = split_type(java_type)
        if base.startswith("?"):
            bound = base.split("extends", 1)[1] if "extends" in base else ""
            base, args, dims = split_type(bound) if bound.strip() else ("object", [], 0)
        if base in table["functional"]:
            spec = table["functional"][base]["cs"]
            for i, arg in enumerate(args):
                spec = spec.replace("{A%d}" % i, self.type_name(arg))
            return spec + "[]" * dims
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

    def method_return(self, owner: str | None, name: str, argc: int) -> str | None:
        return None

    def usings(self) -> frozenset[str]:
        return self._usings

    def members(self, owner: str | None) -> list[str]:
        return []

    def signatures(self, owner: str | None, name: str) -> list[str]:
        return []


@dataclass
class TargetType:
    """What is known about one target type: fields (name -> C# type), properties, method signatures."""
    name: str
    fields: dict[str, str] = field(default_factory=dict)
    java_fields: dict[str, str] = field(default_factory=dict)     # Java field name -> Java type
    properties: dict[str, str] = field(default_factory=dict)
    methods: list[str] = field(default_factory=list)              # C# signatures as written
    java_methods: dict[str, str] = field(default_factory=dict)    # "name/argc" -> Java return type

    def method_names(self) -> dict[str, list[str]]:
        names: dict[str, list[str]] = {}
        for sig in self.methods:
            match = _SIG_NAME.search(sig)
            if match:
                names.setdefault(match.group(1), []).append(sig)
        return names


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

    def __init__(self, current: str | None, types: dict[str, TargetType], usings: frozenset[str] = DEFAULT_USINGS):
        super().__init__(usings, {k: v.name for k, v in types.items() if v.name != k})
        self.current = current
        self.types = types

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ContextResolver":
        types = {}
        for java_name, info in (data.get("types") or {}).items():
            types[java_name] = TargetType(
                name=info.get("target") or java_name,
                fields=_named(info.get("fields")),
                properties=_named(info.get("properties")),
                methods=[m if isinstance(m, str) else m.get("signature", "") for m in info.get("methods") or []],
                java_fields=dict(info.get("java_fields") or {}),
                java_methods=dict(info.get("java_methods") or {}),
            )
        usings = frozenset(data.get("usings") or DEFAULT_USINGS)
        return cls(data.get("class"), types, usings)

    def _type(self, owner: str | None) -> TargetType | None:
        return self.types.get(owner or self.current or "")

    def method_name(self, owner: str | None, name: str, argc: int) -> str:
        info = self._type(owner)
        if info is None:
            return pascal(name)
        names = info.method_names()
        for candidate in (pascal(name), name):
            if candidate in names:
                return candidate
        lowered = {n.lower(): n for n in names}
        return lowered.get(name.lower(), pascal(name))

    def property_name(self, owner: str | None, name: str, argc: int) -> str | None:
        info = self._type(owner)
        if info is None:
            return None
        stems = []
        for prefix, arity in (("get", 0), ("is", 0), ("set", 1)):
            if name.startswith(prefix) and name[len(prefix):][:1].isupper() and argc == arity:
                stems.append(name[len(prefix):])
        for stem in stems:
            for prop in info.properties:
                if prop == stem or prop.lower() == stem.lower():
                    return prop
        return None

    def field_name(self, owner: str | None, name: str) -> str:
        info = self._type(owner)
        if info is None:
            return name
        members = list(info.fields) + list(info.properties)
        if name in members:
            return name
        for member in members:
            if _norm(member) == _norm(name):
                return member
        return name

    def field_type(self, owner: str | None, name: str) -> str | None:
        info = self._type(owner)
        return info.java_fields.get(name) if info else None

    def method_return(self, owner: str | None, name: str, argc: int) -> str | None:
        info = self._type(owner)
        return info.java_methods.get(f"{name}/{argc}") if info else None

    def members(self, owner: str | None) -> list[str]:
        info = self._type(owner)
        if info is None:
            return []
        return list(info.fields) + list(info.properties) + list(info.method_names())

    def signatures(self, owner: str | None, name: str) -> list[str]:
        info = self._type(owner)
        return info.method_names().get(name, []) if info else []

    def owner_of_member(self, member: str) -> str | None:
        """The Java type name whose target type declares `member` (first match)."""
        for java_name, info in self.types.items():
            if member in info.fields or member in info.properties or member in info.method_names():
                return java_name
        return None


def _named(items: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        if isinstance(item, str):
            out[item] = ""
        elif isinstance(item, dict) and item.get("name"):
            out[item["name"]] = item.get("type", "")
    return out
