"""The C# declaration is the contract at a class's boundary: where the port turned a
value Java computes on demand into one the base class stores.

ZXing's ParsedResult declares `abstract String getDisplayResult()` and every subclass overrides it;
ZXing.Net's ParsedResult declares `virtual String DisplayResult { get { return displayResultValue; } }`
over a protected field, and its subclasses fill that field in their constructors (EmailAddressParsedResult
with the override's statements, AddressBookParsedResult by calling the private method it kept). A Java
constructor translated as written leaves the field null: every test that reads the value fails.

The rule, from the declarations alone: for a Java constructor of class C (not chained to `this(...)`),
each parameterless override m() in C of a Java base method whose port counterpart is a property of the
port's base returning a field of that base, which the port's C does not override, is stored: the
constructor ends with `field = m();` when the port kept m as a method of C, else with m's statements,
its final `return X;` becoming `field = X;`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.translator.helpers import substitute

_GETTER = re.compile(r"^\s*\{\s*get\s*\{\s*return\s+(?:this\.)?(\w+)\s*;\s*\}\s*\}\s*$", re.S)
_EXPRESSION_GETTER = re.compile(r"^\s*=>\s*(?:this\.)?(\w+)\s*;\s*$", re.S)
_CHAINED = re.compile(r"^\s*\{\s*this\s*\(")
_RETURN = re.compile(r"\breturn\b")


@dataclass(frozen=True)
class StoredValue:
    """A value the port's base class stores where Java's subclass computes it on demand."""
    field: str                  # the port base's field its property returns ("displayResultValue")
    getter: Method              # the Java override that computes the value
    kept: str | None = None     # the port's name of its own method paired with the getter, if it kept one


def stored_values(index, mapping, java: Method, target: Method) -> list[StoredValue]:
    """The values a translation of constructor `java` (port constructor `target`) must store, as the
    port's base class declares them (see the module doc); [] for anything but such a constructor."""
    if java.kind != "constructor" or target.kind != "constructor" or not java.body or _CHAINED.match(java.body):
        return []
    java_type = index.type(java.type_id)
    if java_type is None:
        return []
    overriding = {m.name for m in index.methods(target.type_id)}
    out: list[StoredValue] = []
    for getter in index.methods(java.type_id):
        if getter.kind != "method" or getter.params or not getter.body or "static" in getter.modifiers:
            continue
        field = _stored_field(index, mapping, java_type, getter.name, overriding)
        if field is None:
            continue
        pair = mapping.target_method(getter.id)
        kept = index.method(pair.target_id) if pair is not None else None
        out.append(StoredValue(field, getter, kept.name if kept is not None and kept.kind == "method"
                               and kept.type_id == target.type_id and not kept.params else None))
    return out


def _stored_field(index, mapping, java_type, name: str, overriding: set[str]) -> str | None:
    """The field a port base stores Java's `name()` in: the base method it overrides is paired with a
    property that returns a non-private instance field of the property's own class, and the port's
    subclass (members `overriding`) does not override that property."""
    for base in index.supertypes(java_type):
        for method in index.methods(base.id):
            if method.kind != "method" or method.name != name or method.params:
                continue
            pair = mapping.target_method(method.id)
            prop = index.method(pair.target_id) if pair is not None else None
            if prop is None or prop.kind != "property" or prop.name in overriding or not prop.body:
                continue
            found = _GETTER.match(prop.body) or _EXPRESSION_GETTER.match(prop.body)
            fields = {f.name: f for f in index.fields(prop.type_id)}
            field = fields.get(found.group(1)) if found else None
            if field is not None and not {"private", "static", "readonly", "const"} & set(field.modifiers):
                return field.name
    return None


def store_values(code: str, stored: list[StoredValue], resolver, translate, params: list[str]) -> str:
    """The constructor `code` with each stored value assigned at its end; `translate(java, resolver)`
    renders a getter (java2cs.translate_method without a target), `params` are the constructor's
    parameter names (a getter's field of the same name is read as `this.name`)."""
    for value in stored:
        lines = [f"{value.field} = {value.kept}();"] if value.kept else _inlined(value, resolver, translate, params)
        if lines is None:
            continue
        head, close = code.rstrip().rsplit("\n", 1) if "\n" in code.rstrip() else (None, None)
        if head is None or close.strip() != "}":
            return code
        indent = re.match(r"\s*", close).group(0) + "    "
        code = head + "\n" + "\n".join(indent + line if line.strip() else "" for line in lines) + "\n" + close
    return code


def _inlined(value: StoredValue, resolver, translate, params: list[str]) -> list[str] | None:
    """The getter's statements with its one, final `return X;` as `field = X;` (None otherwise)."""
    try:
        text = translate(value.getter, resolver)
    except InputError:
        return None
    body = text.split("\n", 1)[1] if "\n" in text else ""
    lines = body.rstrip().split("\n")
    if len(lines) < 3 or lines[0].strip() != "{" or lines[-1].strip() != "}":
        return None
    inner = lines[1:-1]
    width = min((len(l) - len(l.lstrip()) for l in inner if l.strip()), default=0)
    inner = [l[width:] for l in inner]
    last = inner[-1].strip() if inner else ""
    if not last.startswith("return ") or not last.endswith(";") \
            or sum(len(_RETURN.findall(l)) for l in inner) != 1:
        return None
    inner[-1] = f"{value.field} = {last[len('return '):-1].strip()};"
    text = "\n".join(inner)
    shadowed = {p: f"this.{p}" for p in params if re.search(rf"(?<![\w.]){re.escape(p)}\b", text)
                and not re.search(rf"[\w>\]]\s+{re.escape(p)}\s*[=;]", text)}      # not a getter's own local
    return [substitute(l, shadowed) if shadowed else l for l in inner]
