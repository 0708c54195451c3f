"""Java and C# type names as written, parsed into a small tree and compared across languages.

The Java -> C# correspondence table is data (data/java_cs_names.json), e.g. String -> string,
boolean -> bool, List<T> -> IList<T> | List<T>.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from repotrans.index.typename import without_annotations

NAMES_FILE = Path(__file__).parent / "data" / "java_cs_names.json"


@dataclass(frozen=True)
class TypeName:
    """`base<args>[]...`; base is the last segment of a qualified name, `?` for a Java wildcard."""
    base: str
    args: tuple["TypeName", ...] = ()
    dims: int = 0
    nullable: bool = False
    qualifier: str = ""


@dataclass(frozen=True)
class NameTable:
    types: dict[str, frozenset[str]]
    methods: dict[str, tuple[str, ...]]
    method_prefixes: dict[str, tuple[str, ...]]
    getter_prefixes: tuple[str, ...]
    setter_prefixes: tuple[str, ...]
    indexer_getters: tuple[str, ...]
    indexer_setters: tuple[str, ...]
    companion_suffixes: tuple[str, ...]
    type_suffixes: dict[str, tuple[str, ...]] = field(default_factory=dict)   # XUtil -> XUtility
    type_added_suffixes: tuple[str, ...] = ()                                  # X -> XComputer
    accessor_suffixes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # xSize() -> XCount
    interface_prefix: str = "I"
    fingerprint: str = field(default="")


@lru_cache(maxsize=1)
def name_table() -> NameTable:
    """The Java -> C# name table, loaded once from its JSON file."""
    text = NAMES_FILE.read_text(encoding="utf-8")
    data = json.loads(text)
    return NameTable(
        types={k: frozenset(v) for k, v in data["types"].items()},
        methods={k: tuple(v) for k, v in data["methods"].items()},
        method_prefixes={k: tuple(v) for k, v in data["method_prefixes"].items()},
        getter_prefixes=tuple(data["getter_prefixes"]),
        setter_prefixes=tuple(data["setter_prefixes"]),
        indexer_getters=tuple(data["indexer_getters"]),
        indexer_setters=tuple(data["indexer_setters"]),
        companion_suffixes=tuple(data["companion_suffixes"]),
        type_suffixes={k: tuple(v) for k, v in data["type_renames"]["suffixes"].items()},
        type_added_suffixes=tuple(data["type_renames"]["added_suffixes"]),
        interface_prefix=data["type_renames"]["interface_prefix"],
        accessor_suffixes={k: tuple(v) for k, v in data["accessor_suffixes"].items()},
        fingerprint=hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
    )


@lru_cache(maxsize=65536)
def parse_type(text: str) -> TypeName:
    """Parse a type as written ("Map<String, List<Integer>>[]", "int?", "? extends T") leniently."""
    text = without_annotations(text).replace("...", "[]").strip()
    node, _ = _parse(text, 0)
    return node


def _parse(text: str, pos: int) -> tuple[TypeName, int]:
    n = len(text)
    while pos < n and text[pos] == " ":
        pos += 1
    start = pos
    while pos < n and text[pos] not in "<>,[]? ":
        pos += 1
    name = text[start:pos]
    if name == "" and pos < n and text[pos] == "?":          # Java wildcard
        pos += 1
        rest = text[pos:].lstrip()
        for kw in ("extends ", "super "):
            if rest.startswith(kw):
                bound, end = _parse(text, n - len(rest) + len(kw))
                return (bound if kw == "extends " else TypeName("?")), end
        return TypeName("?"), pos
    args: list[TypeName] = []
    if pos < n and text[pos] == "<":
        pos += 1
        while pos < n and text[pos] != ">":
            arg, pos = _parse(text, pos)
            args.append(arg)
            while pos < n and text[pos] in ", ":
                pos += 1
        pos += 1
    dims, nullable = 0, False
    while pos < n and text[pos] in "[]?* ":
        if text[pos] == "[":
            dims += 1
        elif text[pos] == "?":
            nullable = True
        pos += 1
    qualifier, _, base = name.replace("::", ".").rpartition(".")
    return TypeName(base, tuple(args), dims, nullable, qualifier), pos


@lru_cache(maxsize=65536)
def java_param_type(text: str, varargs: bool) -> TypeName:
    """A Java parameter's type; varargs `T...` counts as an array like C# `params T[]`."""
    t = parse_type(text)
    if varargs and "..." not in text and "[" not in text:
        t = TypeName(t.base, t.args, t.dims + 1, t.nullable, t.qualifier)
    return t


def compat(java: TypeName, cs: TypeName, project: dict[str, set[str]],
           java_tparams: frozenset[str], cs_tparams: frozenset[str]) -> float:
    """How well a C# type corresponds to a Java type: 1 exact, 0.5 loose (raw vs generic), 0 no.

    `project` maps a Java simple type name to the C# simple names it was matched to.
    """
    if java.base == "?":
        return 1.0
    if java.dims != cs.dims:
        return 0.0
    if java.base in java_tparams:
        return 1.0 if (cs.base in cs_tparams or cs.base == java.base) and not cs.args else 0.0
    if not _base_ok(java.base, cs.base, project):
        return 0.0
    if len(java.args) != len(cs.args):         # raw vs generic, or Predicate<T> vs Func<T, bool>
        return 0.5
    score = 1.0
    for ja, ca in zip(java.args, cs.args):
        score = min(score, compat(ja, ca, project, java_tparams, cs_tparams))
    return score


CS_ALIASES = {"String": "string", "Object": "object", "Boolean": "bool", "Int32": "int", "Int64": "long",
              "Int16": "short", "Byte": "byte", "SByte": "sbyte", "Char": "char", "Double": "double",
              "Single": "float", "Decimal": "decimal", "UInt32": "uint", "UInt64": "ulong", "UInt16": "ushort"}


def _base_ok(java: str, cs: str, project: dict[str, set[str]]) -> bool:
    if java in project and cs in project[java]:
        return True
    table = name_table().types
    if java in table:            # a JDK name a project type shares (Code128Writer's nested enum Charset)
        keyword = CS_ALIASES.get(cs, cs)          # System.String is string
        return any(c in table[java] for c in (cs, cs + "?", keyword, keyword + "?"))
    if java in project:
        return False
    return java == cs
