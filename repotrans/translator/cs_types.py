"""Type names as the translator reasons with them: the JDK -> .NET table (jdk_map.toml), written types
split into base, arguments and array rank (mapping.typenames.parse_type), C# types read back as Java."""
from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from repotrans.mapping.typenames import TypeName, parse_type

TABLE_FILE = Path(__file__).parent / "jdk_map.toml"
DEFAULT_USINGS = frozenset({"System", "System.Collections.Generic", "System.Linq", "System.Text"})


@lru_cache(maxsize=1)
def jdk_table() -> dict[str, Any]:
    """The JDK -> .NET table (jdk_map.toml), loaded once."""
    with TABLE_FILE.open("rb") as handle:
        return tomllib.load(handle)


@lru_cache(maxsize=16)
def table_for(libraries: frozenset[str]) -> dict[str, Any]:
    """The JDK table extended by the [libraries] tables of these Java packages (those a file imports:
    steps.library_imports): their types, kinds, namespaces and method and static sections join the JDK's."""
    table = jdk_table()
    if not libraries:
        return table
    merged = {**table, "types": dict(table["types"]), "kinds": dict(table["kinds"]), "methods": dict(table["methods"]),
              "statics": dict(table["statics"]), "namespaces": dict(table["namespaces"])}
    for package in sorted(libraries):
        library = table.get("libraries", {}).get(package, {})
        for section in ("types", "kinds", "namespaces", "methods", "statics"):
            merged[section].update(library.get(section, {}))
    return merged


def split_type(text: str) -> tuple[str, list[str], int]:
    """`Map<K, List<V>>[]` -> ("Map", ["K", "List<V>"], 1); lenient, never raises (mapping.typenames.parse_type)."""
    node = parse_type(text or "")
    return _qualified(node), [type_text(a) for a in node.args], node.dims


def type_text(node: TypeName) -> str:
    """A parsed type written back: `java.util.Map<K, V>[]`."""
    args = "<" + ", ".join(type_text(a) for a in node.args) + ">" if node.args else ""
    return _qualified(node) + args + ("?" if node.nullable else "") + "[]" * node.dims


def _qualified(node: TypeName) -> str:
    return f"{node.qualifier}.{node.base}" if node.qualifier else node.base


def element_type(java_type: str | None) -> str | None:
    """Element of an array or first type argument of a generic; None when unknown."""
    if not java_type:
        return None
    base, args, dims = split_type(java_type)
    if dims:
        return base + ("<" + ", ".join(args) + ">" if args else "") + "[]" * (dims - 1)
    return args[0] if args else None


def java_type_of(cs_type: str) -> str:
    """A C# type read back as the Java type the translator reasons with (string -> String, IList<T> -> List<T>);
    generated code's `global::` alias prefix is dropped (`global::Ns.T` is the type `Ns.T`)."""
    back = jdk_table()["cs_to_java"]
    base, args, dims = split_type(cs_type.replace("?", "").replace("global::", ""))
    text = back.get(base, base)
    if args:
        text += "<" + ", ".join(java_type_of(a) for a in args) + ">"
    return text + "[]" * dims


def pascal(name: str) -> str:
    return name[:1].upper() + name[1:] if name else name
