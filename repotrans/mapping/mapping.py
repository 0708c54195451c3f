"""Which C# type and member corresponds to which Java type and method.

Types and the Java package -> C# namespace map come from typematch.py (names, the rename vocabulary,
namespace path affinity, member overlap); members are then matched inside each type pair
(members.py). Anything ambiguous stays unmatched, with the reason. load.py reads it from the cache
in the index's SQLite file (mapping_cache.py) or builds it here.
"""
from __future__ import annotations

import gc
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from repotrans.index.typename import simple_name
from repotrans.mapping.doc_comments import DocComments
from repotrans.mapping.matches import MethodMatch, TypeMatch
from repotrans.mapping.inherited import match_inherited
from repotrans.mapping.overrides import MappingOverrides, resolve
from repotrans.mapping.member_hosts import builder_classes, companion_classes, group_by_type, unmatched_bases
from repotrans.mapping.members import match_methods, one_java_twin
from repotrans.mapping.neighbours import Sides, match_by_neighbours, match_orphans
from repotrans.mapping.test_code import index_test_files, split_types
from repotrans.mapping.test_fixtures import match_fixtures
from repotrans.mapping.test_names import match_by_test_names, test_renames
from repotrans.mapping.typematch import TargetNames, learn_namespaces, match_types, nested_name, tested_renamed

if TYPE_CHECKING:
    from repotrans.index.store import Index

__all__ = ["Mapping", "MappingOverrides", "MethodMatch", "TypeMatch", "build_mapping", "nested_name"]

@dataclass
class Mapping:
    namespace_map: dict[str, str]                   # java package -> C# namespace
    type_matches: list[TypeMatch]
    method_matches: list[MethodMatch]
    namespace_votes: dict[str, dict[str, float]] = field(default_factory=dict)
    unmatched_types: dict[str, str] = field(default_factory=dict)     # source type id -> reason
    unmatched_methods: dict[str, str] = field(default_factory=dict)   # source method id -> reason
    counts: dict[str, int] = field(default_factory=dict)              # totals per side, for render

    def __post_init__(self) -> None:
        self._type_fwd = {m.source_id: m for m in self.type_matches}
        self._type_rev = {m.target_id: m for m in self.type_matches}
        self._method_fwd = {m.source_id: m for m in self.method_matches}
        self._method_rev: dict[str, MethodMatch] = {}
        for m in sorted(self.method_matches, key=lambda m: m.reason.startswith("setter")):
            self._method_rev.setdefault(m.target_id, m)   # a property maps back to its getter first

    def target_type(self, source_type_id: str) -> TypeMatch | None:
        return self._type_fwd.get(source_type_id)

    def source_type(self, target_type_id: str) -> TypeMatch | None:
        return self._type_rev.get(target_type_id)

    def target_method(self, source_method_id: str) -> MethodMatch | None:
        return self._method_fwd.get(source_method_id)

    def source_method(self, target_method_id: str) -> MethodMatch | None:
        return self._method_rev.get(target_method_id)

    def render(self, verbose: bool = False) -> str:
        """Package -> namespace map and alignment counts; with verbose every pair and every miss."""
        lines = ["package -> namespace (share of name-matched types):"]
        for pkg in sorted(self.namespace_votes):
            votes = self.namespace_votes[pkg]
            total = sum(votes.values())
            ns = self.namespace_map.get(pkg)
            if ns:
                lines.append(f"  {pkg} -> {ns}  ({votes[ns]:g}/{total:g})")
            else:
                lines.append(f"  {pkg} -> (no majority: {', '.join(sorted(votes))})")
        c = self.counts
        lines.append(f"types:   {len(self.type_matches)} matched of {c.get('source_types', 0)} Java types"
                     f" ({c.get('target_types', 0)} C# types), {len(self.unmatched_types)} unmatched")
        lines.append(f"methods: {len(self.method_matches)} matched of {c.get('source_methods', 0)} Java methods"
                     f" ({c.get('target_methods', 0)} C# members), {len(self.unmatched_methods)} unmatched")
        if verbose:
            for title, matches, misses in (("types", self.type_matches, self.unmatched_types),
                                           ("methods", self.method_matches, self.unmatched_methods)):
                lines.append(f"{title}:")
                for m in sorted(matches, key=lambda m: m.source_id):
                    lines.append(f"  {m.source_id} -> {m.target_id}  [{m.confidence:.2f} {m.reason}]")
                for sid in sorted(misses):
                    lines.append(f"  {sid} -> (unmatched: {misses[sid]})")
        return "\n".join(lines)


def build_mapping(index: Index, overrides: MappingOverrides | None = None) -> Mapping:
    """Align the two indexed repositories (no caching; see mapping.load.load_mapping), then apply the overrides:
    type overrides before the members are matched, method overrides after."""
    index.types("source")                       # load the snapshot before the collector pauses
    enabled = gc.isenabled()
    gc.disable()                                # many small acyclic objects: full collections over
    try:                                        # the index snapshot would cost more than the matching
        return _build(index, overrides)
    finally:
        if enabled:
            gc.enable()


def _build(index: Index, overrides: MappingOverrides | None) -> Mapping:
    src_types, tgt_types = index.types("source"), index.types("target")
    members = {side: group_by_type(index.all_methods(side)) for side in ("source", "target")}
    # product code pairs only with product code, test code with test code
    tests = {side: index_test_files(index, side, overrides.java_tests if overrides else ())
             for side in ("source", "target")}
    (src_main, src_test), (tgt_main, tgt_test) = split_types(src_types, tests["source"]), \
        split_types(tgt_types, tests["target"])
    names = TargetNames(tgt_main)
    votes, namespace_map = learn_namespaces(src_main, names)
    type_matches, unmatched_types = match_types(src_main, tgt_main, names, namespace_map, members)
    if src_test and tgt_test:
        test_names = TargetNames(tgt_test)
        test_votes, test_map = learn_namespaces(src_test, test_names)
        found, missed = match_types(src_test, tgt_test, test_names, test_map, members)
        found += tested_renamed(src_test, missed, {m.target_id for m in found}, test_names,
                                _project_names(type_matches))
        type_matches, unmatched_types = sorted(type_matches + found, key=lambda m: m.source_id), \
            {**unmatched_types, **{t: f"test code: {why}" for t, why in missed.items()}}
        for pkg, ns in test_map.items():
            namespace_map.setdefault(pkg, ns)
        for pkg, counts in test_votes.items():
            votes.setdefault(pkg, counts)
    else:
        unmatched_types.update((t.id, "test code: no C# test type to pair with") for t in src_test)
    fixed = resolve(index, overrides) if overrides else None
    if fixed:
        type_matches = _apply(type_matches, unmatched_types, fixed.types, TypeMatch, lambda _: True)
    project = _project_names(type_matches)
    by_id = {t.id: t for t in src_types + tgt_types}
    fwd = {m.source_id: m for m in type_matches}
    companions = companion_classes(tgt_types, members["target"])
    builders = builder_classes(tgt_types, members["target"])
    matched_targets = {m.target_id for m in type_matches}
    enums = frozenset(t.name for t in tgt_types if t.kind == "enum")
    docs = DocComments(index)

    def overridden(jm) -> bool:
        """Whether a Java subtype of jm's type declares jm again (same name and arity)."""
        return any(m.name == jm.name and len(m.params) == len(jm.params)
                   for sub in index.subtypes(by_id[jm.type_id]) for m in members["source"].get(sub.id, []))

    method_matches: list[MethodMatch] = []
    unmatched_methods: dict[str, str] = {}
    for t in src_types:
        java_methods = members["source"].get(t.id, [])
        match = fwd.get(t.id)
        if match is None:
            unmatched_methods.update((m.id, "enclosing type unmatched") for m in java_methods)
            continue
        target = by_id[match.target_id]
        hosts = [(h, members["target"].get(h.id, [])) for h in companions.get(target.id, [])]
        if target.kind == "enum" and target.outer_id in by_id:       # C# enums hold no methods
            hosts.append((by_id[target.outer_id], members["target"].get(target.outer_id, [])))
        bases = [(b, members["target"].get(b.id, []))
                 for b in unmatched_bases(index, target, matched_targets)]
        builder = builders.get(target.id)
        found, missed = match_methods(java_methods, members["target"].get(target.id, []), hosts, bases,
                                      by_id[t.id], target, project, enums, docs, overridden,
                                      (builder, members["target"].get(builder.id, [])) if builder else None)
        method_matches += found
        unmatched_methods.update(missed)
    methods = {m.id: m for side in members.values() for ms in side.values() for m in ms}
    method_matches = one_java_twin(method_matches, unmatched_methods, methods,
                                   {m.source_id: m.target_id for m in type_matches})
    renames = test_renames(method_matches, methods, by_id, {t.id for t in src_test})
    if renames:
        found = match_by_test_names(unmatched_methods, methods, by_id, {m.source_id: m.target_id for m in type_matches},
                                    members["target"], renames, {m.target_id for m in method_matches}, project, enums)
        for m in found:
            del unmatched_methods[m.source_id]
        method_matches += found
    found = match_fixtures(unmatched_methods, methods, {m.source_id: m.target_id for m in type_matches},
                           members["target"], {t.id for t in src_test}, {m.target_id for m in method_matches})
    for m in found:
        del unmatched_methods[m.source_id]
    method_matches += found
    sides = Sides(members["source"], members["target"], by_id, {m.source_id: m.target_id for m in type_matches},
                  project, enums)
    found, reasons = match_by_neighbours(sides, method_matches, unmatched_methods, docs)
    for m in found:
        del unmatched_methods[m.source_id]
    unmatched_methods.update(reasons)
    method_matches += found
    method_matches += match_inherited(index, sides, method_matches, unmatched_methods)
    found = match_orphans(sides, method_matches, unmatched_methods)
    for m in found:
        del unmatched_methods[m.source_id]
    method_matches += found
    if fixed:
        exclusive = {m.id for ms in members["target"].values() for m in ms if m.kind in ("method", "constructor")}
        method_matches = _apply(method_matches, unmatched_methods, fixed.methods, MethodMatch,
                                lambda target_id: target_id in exclusive)
    counts = {
        "source_types": len(src_types), "target_types": len(tgt_types),
        "source_methods": sum(map(len, members["source"].values())),
        "target_methods": sum(map(len, members["target"].values())),
    }
    return Mapping(namespace_map, type_matches, method_matches, votes, unmatched_types,
                   unmatched_methods, counts)


def _apply(matches: list, unmatched: dict[str, str], table: dict[str, str | None], cls,
           exclusive) -> list:
    """Matches with the overrides in `table` put in: each overridden Java declaration takes its C# one
    (or none), and a C# one taken away from another Java declaration leaves that one unmatched."""
    given = {tid: sid for sid, tid in table.items() if tid}
    out = []
    for m in matches:
        if m.source_id in table:
            continue
        if m.target_id in given and exclusive(m.target_id):
            unmatched[m.source_id] = f"{m.target_id} given to {given[m.target_id]} by a mapping override"
            continue
        out.append(m)
    for sid, tid in table.items():
        unmatched.pop(sid, None)
        if tid is None:
            unmatched[sid] = "no counterpart (mapping override)"
        else:
            out.append(cls(sid, tid, 1.0, "mapping override"))
    return sorted(out, key=lambda m: m.source_id) if cls is TypeMatch else out


def _project_names(type_matches: list[TypeMatch]) -> dict[str, set[str]]:
    """Java simple type name -> C# simple names it was matched to (for parameter comparison)."""
    out: dict[str, set[str]] = defaultdict(set)
    for m in type_matches:
        out[simple_name(m.source_id)].add(simple_name(m.target_id))
    return out


