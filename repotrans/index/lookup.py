"""In-memory view of the index for lookups: dicts keyed by id and by (side, name), built from the store.

Objects handed out are shared between calls: treat them as read-only.
"""
from __future__ import annotations

import re
from collections import defaultdict

from repotrans.index.extractor import norm_type
from repotrans.index.hierarchy import Hierarchy
from repotrans.index.model import Field, FileInfo, Method, Side, TypeDecl
from repotrans.index.typename import without_type_arguments


class Snapshot:
    """Every file, type, field and member of one index state, in source order."""

    def __init__(self, files: list[FileInfo], types: list[TypeDecl], fields: list[Field], methods: list[Method]):
        self.files: dict[Side, dict[str, FileInfo]] = defaultdict(dict)
        for f in files:
            self.files[f.side][f.path] = f
        parts: dict[str, list[TypeDecl]] = defaultdict(list)
        for t in types:
            parts[t.id].append(t)
        self.types: dict[str, TypeDecl] = {type_id: _merge(same) for type_id, same in parts.items()}
        self.types_by_side: dict[Side, list[TypeDecl]] = defaultdict(list)
        self.types_by_name: dict[tuple[Side, str], list[TypeDecl]] = defaultdict(list)
        self.nested: dict[str, list[TypeDecl]] = defaultdict(list)
        for t in self.types.values():
            self.types_by_side[t.side].append(t)
            self.types_by_name[(t.side, t.name)].append(t)
            if t.outer_id is not None:
                self.nested[t.outer_id].append(t)
        self.fields: dict[str, list[Field]] = defaultdict(list)
        for f in fields:
            self.fields[f.type_id].append(f)
        self.methods: dict[str, Method] = {}
        self.methods_by_side: dict[Side, list[Method]] = defaultdict(list)
        self.methods_by_type: dict[str, list[Method]] = defaultdict(list)
        self.methods_by_name: dict[tuple[Side, str], list[Method]] = defaultdict(list)
        self.explicit: dict[tuple[Side, str], list[Method]] = defaultdict(list)   # by member name after the interface
        for m in methods:
            self.methods.setdefault(m.id, m)
            self.methods_by_side[m.side].append(m)
            self.methods_by_type[m.type_id].append(m)
            self.methods_by_name[(m.side, m.name)].append(m)
            member = _explicit_member(m.name)
            if member is not None:
                self.explicit[(m.side, member)].append(m)
        for same_name in self.methods_by_name.values():
            same_name.sort(key=_by_id)
        for type_id in (type_id for type_id, same in parts.items() if len(same) > 1):
            main = self.types[type_id].path          # a partial type lists its main part's members first
            self.methods_by_type[type_id].sort(key=lambda member: member.path != main)
        self.hierarchy = Hierarchy(self.types, self.types_by_side, self.types_by_name, self.files, self.methods_by_type)

    def find_types(self, side: Side, name: str) -> list[TypeDecl]:
        query = without_type_arguments(name.split(":", 1)[1] if name.startswith(f"{side}:") else name)
        query = query.replace("$", ".").replace(" ", "")
        if not query:
            return []
        return [t for t in self.types_by_name.get((side, query.rsplit(".", 1)[-1]), [])
                if t.qualified_name == query or t.qualified_name.endswith("." + query)]

    def find_methods(self, side: Side, query: str) -> list[Method]:
        parsed = parse_member_query(query.split(":", 1)[1] if query.startswith(f"{side}:") else query)
        if parsed is None:
            return []
        owner, name, params = parsed
        if owner:
            found = [m for t in self.find_types(side, owner) for m in self.methods_by_type.get(t.id, ())
                     if m.name == name]
        else:
            found = list(self.methods_by_name.get((side, name), ()))
        if name not in ("<init>", "this"):         # "Circle(int)", "Shapes.Circle.Circle(int)": constructors
            owners = {f"{owner}.{name}" if owner else name}
            if owner.rsplit(".", 1)[-1] == name:
                owners.add(owner)
            ctors = [m for type_name in owners for t in self.find_types(side, type_name)
                     for m in self.methods_by_type.get(t.id, ()) if m.kind == "constructor"]
            if ctors:
                found = sorted({id(m): m for m in found + ctors}.values(), key=_by_id)
        if owner:       # "ShapeCollection.IEnumerable.GetEnumerator": an explicit interface implementation
            path = f"{owner}.{name}"
            found += [m for m in self.explicit.get((side, name), ()) if _explicit_matches(m, path)]
        if params is not None:
            exact = [m for m in found if m.param_types == params]
            erased = [_erase(p) for p in params]
            found = exact or [m for m in found if [_erase(p) for p in m.param_types] == erased]
        return found if not owner else sorted(found, key=_by_id)


def _explicit_member(name: str) -> str | None:
    """"IEnumerable<T>.GetEnumerator" -> "GetEnumerator"; None unless an explicit interface implementation."""
    head, space, rest = without_type_arguments(name).partition(" ")     # "IOps.operator +", "implicit operator A.B"
    return head.rsplit(".", 1)[1] + space + rest if "." in head else None


def _explicit_matches(m: Method, path: str) -> bool:
    """Whether "Type.Interface.Member" names `m`; the interface may be written qualified or not."""
    head, space, rest = without_type_arguments(m.name).partition(" ")
    iface, member = head.rsplit(".", 1)
    owner = m.type_id.split(":", 1)[1]
    for full in (f"{owner}.{head}{space}{rest}", f"{owner}.{iface.rsplit('.', 1)[-1]}.{member}{space}{rest}"):
        if full == path or full.endswith("." + path):
            return True
    return False


def _by_id(m: Method) -> str:
    return m.id


def _merge(parts: list[TypeDecl]) -> TypeDecl:
    """One TypeDecl for the parts of a partial type: the largest part, plus the others' headers."""
    main = max(parts, key=lambda t: t.end_line - t.start_line)
    for other in parts:
        if other is not main:
            for attr in ("bases", "modifiers", "annotations", "type_params", "enum_constants"):
                values = getattr(main, attr)
                values += [v for v in getattr(other, attr) if v not in values]
    return main


# ---- member queries --------------------------------------------------------------------------------
_PARAM_PREFIX = re.compile(r"^(?:(?:final|ref|out|in|params|this|scoped|readonly)\s+|@\w+(?:\.\w+)*\s+)+")
_NAMED_PARAM = re.compile(r"^(.*[\w>\]?.])\s+[A-Za-z_@]\w*$")
_ARRAY_SUFFIX = re.compile(r"^(.*?)((?:\[[,\s]*\])*)$")


def split_top(text: str) -> list[str]:
    """Split on commas outside <>, [] and ()."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _param_type(text: str) -> str:
    """"final List<String> xs" -> "List<String>"; "ref int" -> "int"; a bare type is kept."""
    text = _PARAM_PREFIX.sub("", text.strip())
    named = _NAMED_PARAM.match(text)
    if named and not re.search(r"\b(extends|super)\s*$", named.group(1)):
        text = named.group(1)
    return norm_type(text)


def parse_member_query(query: str) -> tuple[str, str, list[str] | None] | None:
    """"Ns.Type.Name(int, string)" -> ("Ns.Type", "Name", ["int", "string"]); no parentheses -> None
    parameters; "Type.this[int]" -> ("Type", "this", ["int"]). Leading modifiers/return type are ignored."""
    query = query.strip()
    params: list[str] | None = None
    head = query
    if query.endswith("]") and (query.startswith("this[") or ".this[" in query):
        cut = query.rindex("this[")
        head, params = query[:cut] + "this", [_param_type(p) for p in split_top(query[cut + 5:-1])]
    elif "(" in query:
        cut = query.index("(")
        inner = query[cut + 1:query.rindex(")")] if ")" in query else query[cut + 1:]
        head, params = query[:cut], [_param_type(p) for p in split_top(inner)]
    words = without_type_arguments(head).split()
    if not words:
        return None
    owner, _, name = words[-1].rpartition(".")
    return (owner, name, params) if name else None



def _erase(type_text: str) -> str:
    """"java.util.List<String>" -> "List"; "String..." -> "String[]"."""
    base, brackets = _ARRAY_SUFFIX.match(without_type_arguments(type_text).replace("...", "[]")).groups()
    return base.rsplit(".", 1)[-1] + brackets.replace(" ", "")
