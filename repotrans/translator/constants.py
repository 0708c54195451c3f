"""Java constants the port removed: a `static final` field of the Java class with an initializer, no C#
counterpart in the mapping and no C# member of its name in any case. A candidate that reads one gets it
added after the member, translated from the Java initializer, with the removed constants that value reads:
a private `const` for a literal string or primitive value, else a private static getter of a value built
once, when first read (a static readonly field would read the class's later static fields before they are
set). libphonenumber-csharp dropped
`UNWANTED_END_CHAR_PATTERN`, which `extractPossibleNumber` still reads."""
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
_IDENTIFIER = re.compile(r"(?<![\w.])[A-Za-z_]\w*")          # a name (not a number's suffix, not a member)
_LITERALS = frozenset(("true", "false", "null"))
_LAZY = "__lazy"                                               # the field that holds a value built once, when read
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


def _value(constant: Field, resolver: NameResolver,
           translate: Callable[[str, NameResolver], str]) -> tuple[str, str] | None:
    """(C# type, C# value) of the constant, translated from its Java initializer."""
    initializer = (constant.initializer or "").strip()
    if initializer.startswith("{"):              # `static final char[] X = {'a', 'b'}`: the array it stands for
        initializer = f"new {constant.type} {initializer}"
    try:
        text = translate(f"static {constant.type} valueOf{constant.name}() {{ return {initializer}; }}", resolver)
    except InputError:
        return None
    header, _, body = text.partition("\n")
    match, typed = _RETURN.match(body), _HEADER.match(header)
    if match is None or typed is None:
        return None
    return typed.group(1), match.group(1).strip()


def _constant_names(values: dict[str, tuple[str, str]]) -> set[str]:
    """The added constants C# takes as `const`: a string or primitive value made of literals, operators and
    other such constants (no call, no `new`, no member of anything else)."""
    names: set[str] = set()
    while True:
        more = {name for name, (cs_type, value) in values.items() if name not in names and cs_type in _CONST_TYPES
                and "(" not in code_only(value) and not re.search(r"\bnew\b", value)
                and set(_IDENTIFIER.findall(code_only(value))) <= names | _LITERALS}
        if not more:
            return names
        names |= more


def add_constants(code: str, constants: list[Field], resolver: NameResolver,
                  translate: Callable[[str, NameResolver], str]) -> str:
    """The candidate with each removed constant it reads (directly or through another added constant's
    value) declared after it: a `const`, else a static getter of a value built once, when first read (one
    shared object as Java's, and never built before the class's other static fields are set)."""
    values: dict[str, tuple[str, str]] = {}
    reading = code
    for _ in range(MAX_ROUNDS):
        found = {c.name: _value(c, resolver, translate) for c in constants
                 if c.name not in values and _reads(reading, c.name)}
        new = {name: value for name, value in found.items() if value is not None}
        if not new:
            break
        values.update(new)
        reading = "\n".join(value for _, value in new.values())
    constant = _constant_names(values)
    declarations = [f"private const {cs_type} {name} = {value};" if name in constant
                    else f"private static readonly System.Lazy<{cs_type}> {name}{_LAZY} = "
                         f"new System.Lazy<{cs_type}>(() => {value});\n"
                         f"private static {cs_type} {name} {{ get {{ return {name}{_LAZY}.Value; }} }}"
                    for name, (cs_type, value) in values.items()]
    return code + "".join(f"\n\n{ADDED_MARK.format(name=name)}\n{declaration}"
                          for name, declaration in zip(values, declarations))
