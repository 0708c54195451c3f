"""Renames along a hierarchy: a port renames an overridable method and every override with it (Java's
abstract `computeSurface()` and its overrides are the port's `Area()`). A Java method left unpaired is paired
with its type's C# counterpart's member of the name the port gave the methods it overrides or that override
it (same arity, not claimed by another pairing), when they agree on one name; the evidence names them.
A body-less abstract method has nothing for body evidence to read, and an override whose body the port
rewrote little of its name; their relatives in the hierarchy say it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from repotrans.index.model import Method
from repotrans.mapping.matches import MethodMatch
from repotrans.mapping.neighbours import Sides

if TYPE_CHECKING:
    from repotrans.index.store import Index

CONFIDENCE = 0.8
ROUNDS = 3          # a chain of renamed relatives (base, then its overrides, then theirs) is walked this far


def _relatives(index: "Index", sides: Sides, jm: Method) -> list[tuple[str, Method]]:
    """("overrides" | "overridden by", the Java method) for each method of the same name and arity declared
    in a Java supertype or subtype of jm's type."""
    decl = sides.types.get(jm.type_id)
    if decl is None:
        return []
    out: list[tuple[str, Method]] = []
    for relation, types in (("overrides", index.supertypes(decl)), ("overridden by", index.subtypes(decl))):
        for t in types:
            out += [(relation, m) for m in sides.java.get(t.id, [])
                    if m.name == jm.name and len(m.params) == len(jm.params) and m.kind == "method"]
    return out


def match_inherited(index: "Index", sides: Sides, matches: list[MethodMatch],
                    unmatched: dict[str, str]) -> list[MethodMatch]:
    """Pairings of the Java methods in `unmatched` (their type paired) through the renames of their relatives."""
    cs_by_id = {m.id: m for ms in sides.cs.values() for m in ms}
    java_by_id = {m.id: m for ms in sides.java.values() for m in ms}
    paired = {m.source_id: cs_by_id[m.target_id] for m in matches if m.target_id in cs_by_id}
    claimed = {m.target_id for m in matches}
    found: list[MethodMatch] = []
    for _ in range(ROUNDS):
        new: list[MethodMatch] = []
        for source_id in sorted(unmatched):
            jm = java_by_id.get(source_id)
            twin = sides.counterpart.get(jm.type_id) if jm is not None and jm.kind == "method" else None
            if twin is None or "static" in jm.modifiers or "private" in jm.modifiers:
                continue
            named = [(relation, rel, paired[rel.id]) for relation, rel in _relatives(index, sides, jm)
                     if rel.id in paired and paired[rel.id].kind == "method"]
            names = {cs.name for _, _, cs in named}
            if len(names) != 1 or jm.name in names:
                continue
            name = names.pop()
            fits = [m for m in sides.cs.get(twin, []) if m.kind == "method" and m.name == name
                    and len(m.params) == len(jm.params) and m.id not in claimed]
            if len(fits) != 1:
                continue
            evidence = tuple(f"{relation} {sides.types[rel.type_id].name}.{rel.name}, the port's {cs.name}"
                             for relation, rel, cs in named)
            new.append(MethodMatch(jm.id, fits[0].id, CONFIDENCE, "inherited rename", evidence))
            claimed.add(fits[0].id)
        for m in new:
            del unmatched[m.source_id]
            paired[m.source_id] = cs_by_id[m.target_id]
        found += new
        if not new:
            break
    return found
