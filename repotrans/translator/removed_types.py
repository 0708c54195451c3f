"""Static helpers of Java classes the port removed: jsoup calls `Validate.notNull(child)` in 25
files; NSoup has no Validate and writes the guard where the call was: `if (child == null) { throw new
ArgumentNullException("child"); }`. A call statement of such a helper is replaced by the helper's own
translated statements over the call's arguments, as the port inlined it; a null guard on an argument throws
.NET's ArgumentNullException naming it (an ArgumentException, as Java's IllegalArgumentException was).
Helpers that return a value or declare locals are left as they are (nothing is guessed). A null guard on a
value C# declares as a value type (Java's `Integer index = ...; Validate.notNull(index);` where the port writes
`int index`, or a parameter of an enum type: NSoup's `Method method`) is dropped, as the port drops it: the test is always false in C# (CS0472)."""
from __future__ import annotations

import re

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.translator.cs_types import pascal
from repotrans.translator.helpers import argument_value, call_args, substitute
from repotrans.translator.resolver import NameResolver

_CALLED_TYPE = re.compile(r"(?<![\w.])([A-Z]\w*)\s*\.\s*[a-z]\w*\s*\(")
_DECLARES = re.compile(r"^\s*(?:[\w.<>\[\], ]+)\s+\w+\s*(?:=|;)")
_VALUE_TYPES = "bool|byte|sbyte|char|short|ushort|int|uint|long|ulong|float|double|decimal"
_VALUE_DECL = re.compile(rf"\b(?:{_VALUE_TYPES})\s+(?P<name>[A-Za-z_]\w*)\s*[=;,)]")
_DECL = re.compile(r"\b(?P<type>[A-Z]\w*)\s+(?P<name>[A-Za-z_]\w*)\s*[=;,)]")   # an enum is a value too
_NULL_GUARD_BLOCK = re.compile(r"^[ \t]*if \((?P<arg>[A-Za-z_]\w*) == null\)\n[ \t]*\{\n[ \t]*throw new \w+\([^;]*\);\n[ \t]*\}\n",
                              re.M)
_NULL_GUARD = re.compile(r"^(\s*)if \((?P<arg>[A-Za-z_]\w*) == null\)\n(\s*)\{\n(\s*)throw new ArgumentException\([^;]*\);\n")


def removed_type_helpers(index, mapping, java: Method) -> list[Method]:
    """Static methods of the Java project types `java` calls by type name (`Validate.notNull(x)`) that the
    port removed: the mapping pairs the type with none and no C# type has its name; or the type is kept but
    the mapping pairs the method with nothing and its C# type has no member of its name (a call to a Java
    member with no counterpart is never left as it is)."""
    out: list[Method] = []
    for name in dict.fromkeys(_CALLED_TYPE.findall(java.body or "")):
        for decl in index.find_types("source", name):
            statics = [m for m in index.methods(decl.id) if m.kind == "method" and m.body and "static" in m.modifiers]
            kept = mapping.target_type(decl.id)
            if kept is not None:
                names = {m.name for m in index.methods(kept.target_id)}
                out += [m for m in statics if mapping.target_method(m.id) is None
                        and not {m.name, pascal(m.name)} & names]
            elif not (index.find_types("target", name) or index.find_types("target", pascal(name))):
                out += statics
    return out


def inline_removed_calls(code: str, helpers: list[Method], resolver: NameResolver, translate) -> str:
    """`Owner.Name(args);` statements of removed types' helpers replaced by the helpers' statements;
    `translate(java_method, resolver)` renders a helper (java2cs.translate_method without a target)."""
    for helper in helpers:
        owner = helper.type_id.split(":", 1)[-1].rsplit(".", 1)[-1]
        name = resolver.method_name(owner, helper.name, len(helper.params))
        owners = "|".join(re.escape(o) for o in dict.fromkeys((owner, resolver.type_name(owner))))
        call = re.compile(rf"^(?P<indent>[ \t]*)(?:{owners})\.{re.escape(name)}\s*\(", re.M)
        if call.search(code) is None:
            continue
        statements = _statements(helper, resolver, translate)
        if statements is None:
            continue
        code = _replace(code, call, [p.name for p in helper.params], statements, resolver.is_enum)
    return code


def _statements(helper: Method, resolver: NameResolver, translate) -> list[str] | None:
    """The helper's body lines (without its braces), when it returns nothing and declares no local."""
    try:
        text = translate(helper, resolver)
    except InputError:
        return None
    lines = text.split("\n")
    if len(lines) < 3 or lines[1].strip() != "{" or lines[-1].strip() != "}":
        return None
    body = [line[4:] if line.startswith("    ") else line.lstrip() for line in lines[2:-1]]
    if any(re.match(r"\s*return\b", b) and b.strip() != "return;" for b in body) \
            or any(_DECLARES.match(b) and not b.strip().startswith(("throw", "return")) for b in body):
        return None
    return body


def _replace(code: str, call: re.Pattern, params: list[str], statements: list[str], is_enum) -> str:
    out, pos = [], 0
    for found in call.finditer(code):
        if found.start() < pos:
            continue
        args, end = call_args(code, found.end())
        rest = code[end:].split("\n", 1)
        if args is None or len(args) != len(params) or rest[0].strip() != ";":
            continue
        body = "\n".join(statements)
        values = {}
        for p, a in zip(params, args):       # a keyword-named parameter is written @string: only that form
            values["@" + p if "@" + p in body else p] = argument_value(a)
        text = substitute(body, values)
        text = _NULL_GUARD.sub(lambda m: m.group(0).split("throw new", 1)[0]
                               + f'throw new ArgumentNullException("{m.group("arg")}");\n', text + "\n").rstrip("\n")
        values_typed = set(_VALUE_DECL.findall(code[:found.start()])) \
            | {m.group("name") for m in _DECL.finditer(code[:found.start()]) if is_enum(m.group("type"))}
        text = _NULL_GUARD_BLOCK.sub(lambda m: "" if m.group("arg") in values_typed else m.group(0), text + "\n").rstrip("\n")
        indent = found.group("indent")
        out.append(code[pos:found.start()] + "\n".join(indent + line if line else line for line in text.split("\n")))
        pos = end + len(rest[0])
    return "".join(out) + code[pos:]
