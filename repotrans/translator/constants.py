"""Java constants the port removed: a `static final` field of the Java class with an initializer, no C#
counterpart in the mapping and no C# member of its name in any case. A candidate that reads one gets it
added after the member as a private constant (`const` for a string or primitive value, else `static
readonly`), translated from the Java initializer, with the removed constants that initializer reads
declared first; libphonenumber-csharp dropped `UNWANTED_END_CHAR_PATTERN`, which `extractPossibleNumber`
still reads."""
from __future__ import annotations

import re
from typing import Callable

from repotrans.errors import InputError
from repotrans.index.model import Field, Method
from repotrans.index.store import Index
from repotrans.translator.helpers import code_only
from repotrans.translator.resolver import NameResolver, name_key

_CONST_TYPES = frozenset(("string", "bool", "char", "byte", "sbyte", "short", "ushort", "int", "uint", "long",
                          "ulong", "float", "double", "decimal"))
ADDED_MARK = "// added by repotrans: the Java constant {name}, which the port does not have"
_HEADER = re.compile(r"^.*?\bstatic\s+(.+?)\s+\w+\s*\(\s*\)\s*$")   # the type of the value's getter
_RETURN = re.compile(r"^\s*\{\s*return\s+(.*?);\s*\}\s*$", re.S)
MAX_ROUNDS = 4


def constants_of(index: Index, renames: dict[str, str], java: Method, target: Method) -> list[Field]:
    """The removed constants of `java`'s class beside the C# `target` (renames: the resolver's, whose
    "JavaClass.FIELD" keys are the fields the mapping paired with a C# member of another name)."""
    cs_names = {m.name for m in index.methods(target.type_id)} | {f.name for f in index.fields(target.type_id)}
    owner = java.type_id.split(":", 1)[-1].rsplit(".", 1)[-1] + "."
    renamed = {key.removeprefix(owner) for key in renames if key.startswith(owner) and "/" not in key}
    return removed_constants(index.fields(java.type_id), cs_names, renamed)


def removed_constants(java_fields: list[Field], cs_names: set[str], renamed: set[str]) -> list[Field]:
    """The Java class's static final fields with an initializer that the port has no member for: none of
    `cs_names` (the C# type's fields, properties and methods) in any spelling, and not in `renamed` (the
    Java field names the mapping paired with a C# member of another name)."""
    taken = {name_key(n) for n in cs_names}
    return [f for f in java_fields if {"static", "final"} <= set(f.modifiers) and f.initializer
            and f.name not in renamed and name_key(f.name) not in taken]


def _reads(code: str, name: str) -> bool:
    """Whether the code reads `name` as a bare value (not a call, not another type's member, outside strings
    and comments)."""
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w(])", code_only(code)) is not None


def _declaration(constant: Field, resolver: NameResolver,
                 translate: Callable[[str, NameResolver], str]) -> str | None:
    """`private const T NAME = value;` (or `private static readonly`), the value translated from Java."""
    try:
        text = translate(f"static {constant.type} valueOf{constant.name}() {{ return {constant.initializer}; }}",
                         resolver)
    except InputError:
        return None
    header, _, body = text.partition("\n")
    match, typed = _RETURN.match(body), _HEADER.match(header)
    if match is None or typed is None:
        return None
    cs_type = typed.group(1)
    value = match.group(1).strip()
    constant_value = cs_type in _CONST_TYPES and "(" not in code_only(value) \
        and not re.search(r"\bnew\b", value)
    modifiers = "private const" if constant_value else "private static readonly"
    return f"{ADDED_MARK.format(name=constant.name)}\n{modifiers} {cs_type} {constant.name} = {value};"


def add_constants(code: str, constants: list[Field], resolver: NameResolver,
                  translate: Callable[[str, NameResolver], str]) -> str:
    """The candidate with each removed constant it reads (directly or through another added constant's
    value) declared after it; a constant is declared before the ones whose values read it."""
    added: dict[str, str] = {}
    reading = code
    for _ in range(MAX_ROUNDS):
        found = [c for c in constants if c.name not in added and _reads(reading, c.name)]
        declared = {c.name: _declaration(c, resolver, translate) for c in found}
        added.update({name: text for name, text in declared.items() if text is not None})
        reading = "\n".join(text for text in declared.values() if text is not None)
        if not reading:
            break
    order: list[str] = []

    def place(name: str, seen: frozenset[str]) -> None:
        if name in order or name in seen:
            return
        for other in added:
            if other != name and _reads(added[name].partition("\n")[2], other):
                place(other, seen | {name})
        order.append(name)

    for name in added:
        place(name, frozenset())
    return code + "".join("\n\n" + added[name] for name in order)
