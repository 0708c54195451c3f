"""The deleted-class benchmark's member comparison (scripts/bench_whole_types.py): the API of a C# type as
its callers depend on it (kind, name, arity, parameter types, static-ness, accessibility), the members a
regenerated class lacks or declares otherwise, classified, and why a member the hidden tests use is missing."""
from __future__ import annotations

import re
from collections import Counter

from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping

ACCESS = ("public", "protected", "internal", "private")
ALIASES = {"String": "string", "Object": "object", "Int32": "int", "Int64": "long", "Boolean": "bool",
           "Byte": "byte", "Char": "char", "Double": "double", "Single": "float", "Int16": "short"}


def _type_text(text: str) -> str:
    """A parameter type as the compiler sees it: no spaces, no namespace, keyword aliases."""
    text = re.sub(r"\s+", "", text or "")
    return re.sub(r"(?:\w+\.)*(\w+)", lambda m: ALIASES.get(m.group(1), m.group(1)), text)


def shape(modifiers: list[str], param_types: list[str]) -> tuple[tuple[str, ...], bool, str]:
    """What a caller depends on besides kind, name and arity: parameter types, static-ness, accessibility."""
    access = " ".join(m for m in modifiers if m in ACCESS) or "(default)"
    return tuple(_type_text(t) for t in param_types), "static" in modifiers or "const" in modifiers, access


def api(index: Index, type_id: str, prefix: str = "") -> dict[tuple, tuple[str, tuple]]:
    """The non-private API of a C# type and its nested types: (nested path, kind, name, arity, parameter
    types) -> (member id, shape)."""
    out = {}
    t = index.type(type_id)
    if t is None:
        return out
    for m in index.methods(type_id):
        if "private" not in m.modifiers and not (m.kind == "constructor" and "static" in m.modifiers):
            out[(prefix, m.kind, m.name, len(m.params), tuple(_type_text(x) for x in m.param_types))] = \
                (m.id, shape(m.modifiers, m.param_types))
    for f in index.fields(type_id):
        if "private" not in f.modifiers:
            out[(prefix, "field", f.name, 0, ())] = (f.id, shape(f.modifiers, []))
    for nested in index.nested_types(type_id):
        out.update(api(index, nested.id, f"{prefix}.{nested.name}" if prefix else nested.name))
    return out


def api_mismatches(original: Index, regenerated: Index, files: dict, dropped: list[str]) -> list[tuple[str, str, str]]:
    """Members of the port's deleted classes the regenerated API lacks or declares otherwise (parameter
    types, static-ness, accessibility): (class, member, why)."""
    mapping = load_mapping(original)
    out = []
    for java, (tid, _, _) in files.items():
        before, after = api(original, tid), api(regenerated, tid)
        if regenerated.type(tid) is None:
            cls = tid.split(":", 1)[1]
            out += [(cls, f"{cls}.{k[2]}", "class not regenerated")
                    for k in before]
            continue
        private_after = {(m.name.lower(), len(m.params)) for m in regenerated.methods(tid) if "private" in m.modifiers}
        simple_after = {(k[0], k[2].lower()): k for k in after}
        by_arity = {k[:4]: k for k in after}
        cls = tid.split(":", 1)[1].rsplit(".", 1)[-1]
        for key, (member_id, was) in sorted(before.items()):
            nested, kind, name, arity, _types = key
            label = f"{cls}{'.' + nested if nested else ''}.{name}" + ("" if kind in ("field", "property") else f"/{arity}")
            if key in after:
                now = after[key][1]
                if now[1] != was[1]:
                    out.append((cls, label, "static in one, instance in the other"))
                elif now[2] != was[2]:
                    out.append((cls, label, f"accessibility differs ({was[2]} in the port, {now[2]} regenerated)"))
                continue
            same = simple_after.get((nested, name.lower()))
            java_twin = mapping.source_method(member_id) if kind != "field" else None
            if key[:4] in by_arity:
                why = "parameter types differ"
            elif any(d.startswith(f"{cls}.") and name.lower() in d.lower().split(":")[0] for d in dropped):
                why = "left out of the skeleton (did not compile)"
            elif kind == "method" and re.match(r"(get|is)[A-Z]", name) and \
                    any(k[:3] == (nested, "property", re.sub(r"^(get|is)", "", name)) for k in after):
                why = "getter made a property where the port kept the method"
            elif kind == "indexer":
                why = "indexer in the port (Java get/set methods kept as methods)"
            elif same is not None and same[1] != kind:
                why = f"{kind} in the port, {same[1]} in the skeleton"
            elif same is not None and same[3] != arity:
                why = "other parameter count (overload the port added or merged)"
            elif same is not None:
                why = "casing differs"
            elif (name.lower(), arity) in private_after:
                why = "private in the skeleton (Java visibility), visible in the port"
            elif kind == "constructor":
                why = "constructor the port added or changed"
            elif kind == "field":
                why = "field the port exposes (Java keeps it private or has none)"
            elif java_twin is None:
                why = "port-specific member (no Java counterpart)"
            else:
                why = "named differently from the Java member"
            out.append((cls, label, why))
    return out


def classify(member: str, java_names: set[str], skeleton_text: str) -> str:
    """Why a member the hidden tests use is missing from the regenerated API."""
    low = {n.lower() for n in java_names}
    if re.search(r"\b" + re.escape(member) + r"\b", skeleton_text, re.I) and not re.search(r"\b" + re.escape(member) + r"\b", skeleton_text):
        return "casing differs from the port"
    if ("get" + member).lower() in low or ("is" + member).lower() in low:
        return "getter kept as a method where the port has a property" if ("get" + member) in skeleton_text or \
            ("is" + member) in skeleton_text else "property left out (did not compile)"
    if member.lower() in low:
        return "member left out of the skeleton (did not compile)"
    if member[:1].lower() + member[1:] in java_names or member.lower() in {n.lower() for n in java_names}:
        return "renamed member"
    return "port-specific API (no Java counterpart)"


def print_mismatches(mismatches: list[tuple[str, str, str]], total: int) -> None:
    print(f"\nAPI of the deleted classes: {total - len(mismatches)}/{total} non-private members regenerated "
          f"with the port's kind, name and arity ({100 * (total - len(mismatches)) / max(1, total):.0f}%)")
    kinds = Counter(why for _, _, why in mismatches)
    print("skeleton mismatches by class (most frequent first):")
    for why, count in kinds.most_common(10):
        examples = [label for _, label, w in mismatches if w == why][:4]
        print(f"  {count:3d}  {why}: {', '.join(examples)}")
