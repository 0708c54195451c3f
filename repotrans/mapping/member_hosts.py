"""Where else a Java type's members may live in C#: companion static classes (extension methods, a
static factory in `Pairs`), C# base classes that have no Java counterpart (a `BaseLuminanceSource`
the port introduced holds the members its Java subclasses each declared), and the builder of an
immutable C# type (protobuf-csharp's nested `Builder`, whose `Build()` returns it), which holds the
mutators of a mutable Java class (`setPattern` -> `NumberFormat.Builder.SetPattern`)."""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from repotrans.index.model import Method, TypeDecl
from repotrans.mapping.signatures import Cand
from repotrans.mapping.typenames import name_table, parse_type

if TYPE_CHECKING:
    from repotrans.index.store import Index

BASE_DEPTH = 3          # base classes followed upwards


def group_by_type(methods: list[Method]) -> dict[str, list[Method]]:
    """type id -> its members, in the given (source) order."""
    out: dict[str, list[Method]] = defaultdict(list)
    for m in methods:
        out[m.type_id].append(m)
    return out


def companion_classes(tgt: list[TypeDecl], members: dict[str, list[Method]]) -> dict[str, list[TypeDecl]]:
    """C# type id -> static classes that may hold its methods: `<Name><suffix>` in the same
    namespace (suffixes from the name table: Extensions, s, Helper, ...) or any class declaring
    extension methods on it."""
    by_qualified = {t.qualified_name: t for t in tgt}
    by_simple: dict[str, list[TypeDecl]] = defaultdict(list)
    for t in tgt:
        by_simple[t.name].append(t)
    out: dict[str, list[TypeDecl]] = defaultdict(list)
    for host in tgt:
        if host.kind != "class":
            continue
        owners = set()
        for suffix in name_table().companion_suffixes:
            stem = host.qualified_name[:-len(suffix)] if host.qualified_name.endswith(suffix) else None
            if stem and stem in by_qualified:
                owners.add(by_qualified[stem].id)
        for m in members.get(host.id, []):
            if m.params and "this" in m.params[0].modifiers:
                hits = by_simple.get(parse_type(m.params[0].type).base, [])
                if len(hits) == 1:
                    owners.add(hits[0].id)
        for owner in sorted(owners - {host.id}):
            out[owner].append(host)
    return out


BUILD_METHODS = ("Build", "BuildPartial")


def builder_classes(tgt: list[TypeDecl], members: dict[str, list[Method]]) -> dict[str, TypeDecl]:
    """C# type id -> the class nested in it that builds it: a parameterless `Build()` (or `BuildPartial()`)
    returning that type."""
    by_id = {t.id: t for t in tgt}
    out: dict[str, TypeDecl] = {}
    for t in tgt:
        outer = by_id.get(t.outer_id or "")
        if t.kind != "class" or outer is None:
            continue
        if any(m.kind == "method" and m.name in BUILD_METHODS and not m.params and m.return_type
               and parse_type(m.return_type).base == outer.name for m in members.get(t.id, [])):
            out[outer.id] = t
    return out


def unmatched_bases(index: "Index", ct: TypeDecl, matched: set[str]) -> list[TypeDecl]:
    """C# base classes of `ct` (nearest first) that no Java type was matched to."""
    out: list[TypeDecl] = []
    current = ct
    for _ in range(BASE_DEPTH):
        parent = next((b for b in index.supertypes(current, 1) if b.kind == "class"), None)
        if parent is None or parent.id in matched or parent.id == ct.id:
            break
        current = parent
        out.append(current)
    return out


def own_candidates(cs: list[Method], via: str = "") -> dict[str, list[Cand]]:
    """A type's members by name; a C# method with `out`/`ref` parameters (often a Java return value)
    also as one without them."""
    out: dict[str, list[Cand]] = defaultdict(list)
    for c in cs:
        if c.kind == "constructor" and "static" in c.modifiers:
            continue                            # a static constructor stands for no Java constructor
        out[c.name].append(Cand(c, tuple(c.params), frozenset({c.kind}), via))
        if c.kind == "method" and any(_by_reference(p) for p in c.params):
            kept = tuple(p for p in c.params if not _by_reference(p))
            out[c.name].append(Cand(c, kept, frozenset({"method"}), via, "C# adds out/ref parameters"))
    return out


def _by_reference(p) -> bool:
    return "out" in p.modifiers or "ref" in p.modifiers


def companion_candidates(companions: list[tuple[TypeDecl, list[Method]]], ct: TypeDecl,
                         static: bool) -> dict[str, list[Cand]]:
    """Members of C# static classes that took over a Java type's methods.

    A Java instance method may become an extension method (`this T` first parameter, compared
    without it; with no other parameter it may stand for a getter); a Java static method may move
    to a companion class (Pairs.Of for Pair.of). A C# enum holds no methods: a Java enum's instance
    method may become a method of a class holding the enum that takes the enum value first
    (`Leniency.verify(n, c, u)` -> `PhoneNumberUtil.Verify(Leniency, n, c, u)`).
    """
    out: dict[str, list[Cand]] = defaultdict(list)
    for host, members in companions:
        for c in members:
            if c.kind != "method":
                continue
            extension = bool(c.params) and "this" in c.params[0].modifiers \
                and parse_type(c.params[0].type).base == ct.name
            if extension and not static:
                kinds = frozenset({"method", "property"}) if len(c.params) == 1 else frozenset({"method"})
                out[c.name].append(Cand(c, tuple(c.params[1:]), kinds, f"extension method in {host.name}"))
            elif not extension and static and host.id != ct.id:
                out[c.name].append(Cand(c, tuple(c.params), frozenset({"method"}), f"moved to {host.name}"))
            elif not static and ct.kind == "enum" and c.params and parse_type(c.params[0].type).base == ct.name:
                out[c.name].append(Cand(c, tuple(c.params[1:]), frozenset({"method"}),
                                        f"moved to {host.name}, the enum value its first parameter"))
    return out


def folded(by_name: dict[str, list[Cand]]) -> dict[str, list[Cand]]:
    """The same candidates keyed by case-folded name."""
    out: dict[str, list[Cand]] = defaultdict(list)
    for name, cands in by_name.items():
        out[name.lower()] += cands
    return out
