"""Render a type as the tools show it: declaration, field definitions and member signatures, no bodies."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from repotrans.index.model import Field, Method, TypeDecl

if TYPE_CHECKING:
    from repotrans.index.store import Index

MAX_INITIALIZER = 120
_CTOR_INITIALIZER = re.compile(r"\s*:\s*(?:this|base)\s*\(.*$")
_EXPR_ACCESSOR = re.compile(r"=>[^;]*;")
_ACCESSOR = re.compile(r"((?:(?:public|private|protected|internal)\s+)*)(?<![.\w])(get|set|init)\b")


def one_line(text: str) -> str:
    return " ".join(text.split())


def dedent_body(body: str) -> str:
    """A body as the tools show it: the lines after the first lose their common indentation."""
    first, *rest = body.split("\n")
    indents = [len(line) - len(line.lstrip()) for line in rest if line.strip()]
    cut = min(indents, default=0)
    return "\n".join([first] + [line[cut:] for line in rest])


def field_text(f: Field) -> str:
    """`private readonly double radius = 1.0` (long initializers cut)."""
    text = " ".join([*f.modifiers, f.type, f.name])
    if f.initializer is not None:
        init = one_line(f.initializer)
        if len(init) > MAX_INITIALIZER:
            init = init[:MAX_INITIALIZER] + " ..."
        text += f" = {init}"
    return text


def member_text(m: Method, hidden: bool = False) -> str:
    """The member's signature; properties and indexers get their accessor list (`{ get; set; }`).

    For the member under translation (`hidden`) a constructor initializer (`: this(...)`) is code of
    the translation, so it is left out.
    """
    sig = one_line(m.signature)
    if hidden and m.kind == "constructor":
        sig = _CTOR_INITIALIZER.sub("", sig)
    if m.kind in ("property", "indexer") and m.body is not None:
        summary = accessor_summary(m.body)
        if hidden and not m.body.strip().startswith("=>"):   # accessors with bodies to write, not an auto-property
            summary = summary.replace(";", " { ... }")
        elif hidden:
            summary = "=> ..."
        sig += " " + summary
    return sig


def accessor_summary(body: str) -> str:
    """`{ get; private set; }` from a property body, without showing any accessor's code."""
    body = body.strip()
    if body.startswith("=>"):
        return "{ get; }"
    depth, top = 0, []
    for ch in body:
        if ch == "{":
            depth += 1
            top.append(" " if depth > 1 else "")
        elif ch == "}":
            depth -= 1
        elif depth == 1:
            top.append(ch)
    flat = _EXPR_ACCESSOR.sub(";", "".join(top))
    parts = [one_line(mods + kw) for mods, kw in _ACCESSOR.findall(flat)]
    return "{ " + " ".join(p + ";" for p in parts) + " }" if parts else "{ }"


def declaration(t: TypeDecl) -> str:
    head = " ".join([*t.modifiers, t.kind, t.name])
    if t.type_params:
        head += "<" + ", ".join(t.type_params) + ">"
    return head


def describe_type(index: Index, t: TypeDecl, hidden_method_id: str | None) -> dict:
    """Declaration, fields and member signatures of one type; marks the member under translation."""
    members = index.methods(t.id)
    out: dict = {
        "class": t.qualified_name,
        "kind": t.kind,
        "file": t.path,
        "declaration": declaration(t),
        "bases": list(t.bases),
    }
    inherited = index.supertypes(t)
    if inherited:                   # the project types it inherits from, as the compiler binds them
        out["supertypes"] = [x.qualified_name for x in inherited]
    if t.annotations:
        out["annotations"] = list(t.annotations)
    if t.enum_constants:
        out["enum_constants"] = list(t.enum_constants)
    out["fields"] = [field_text(f) for f in index.fields(t.id)]
    out["members"] = [member_text(m, hidden=m.id == hidden_method_id) for m in members]
    nested = index.nested_types(t.id)
    if nested:
        out["nested_types"] = [f"{n.kind} {n.qualified_name}" for n in nested]
    hidden = next((m for m in members if m.id == hidden_method_id), None)
    if hidden is not None:
        text = member_text(hidden, hidden=True)
        if hidden.kind in ("property", "indexer"):
            text += f"  ({hidden.kind} with accessor bodies to write; not an auto-property)"
        out["under_translation"] = text
    return out
