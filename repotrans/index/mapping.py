"""Which C# type and member corresponds to which Java type and method.

Types are matched by their nested name (enclosing types + simple name; `I`-prefixed for interfaces,
nested types moved to the top level, case-insensitively as a last resort); a Java package -> C#
namespace map is learned by majority over those name matches and settles types whose name occurs in
several namespaces. Members are then matched inside each type pair (members.py). Anything ambiguous
stays unmatched, with the reason. The result is cached in the index's SQLite file (mapping_cache.py).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from repotrans.index.matches import MethodMatch, TypeMatch
from repotrans.index.members import companion_classes, group_by_type, match_methods, unique_best
from repotrans.index.model import TypeDecl

if TYPE_CHECKING:
    from repotrans.index.store import Index

__all__ = ["Mapping", "MethodMatch", "TypeMatch", "build_mapping", "load_mapping", "nested_name"]

MIN_NAMESPACE_SHARE = 0.5       # a package maps to a namespace holding more than half of its votes


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


def build_mapping(index: Index) -> Mapping:
    """Align the two indexed repositories (no caching; see load_mapping)."""
    src_types, tgt_types = index.types("source"), index.types("target")
    votes, namespace_map = _learn_namespaces(src_types, tgt_types)
    type_matches, unmatched_types = _match_types(src_types, tgt_types, namespace_map)
    project = _project_names(type_matches)
    by_id = {t.id: t for t in src_types + tgt_types}
    members = {side: group_by_type(index.all_methods(side)) for side in ("source", "target")}
    fwd = {m.source_id: m for m in type_matches}
    companions = companion_classes(tgt_types, members["target"])
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
        found, missed = match_methods(java_methods, members["target"].get(target.id, []), hosts,
                                      by_id[t.id], target, project)
        method_matches += found
        unmatched_methods.update(missed)
    counts = {
        "source_types": len(src_types), "target_types": len(tgt_types),
        "source_methods": sum(map(len, members["source"].values())),
        "target_methods": sum(map(len, members["target"].values())),
    }
    return Mapping(namespace_map, type_matches, method_matches, votes, unmatched_types,
                   unmatched_methods, counts)


def load_mapping(index: Index) -> Mapping:
    """The mapping for this index: from the cache in the index's SQLite file, rebuilt when the index changed."""
    from repotrans.index import mapping_cache

    fingerprint = mapping_cache.fingerprint(index)
    cached = mapping_cache.read(index, fingerprint)
    if cached is not None:
        return cached
    mapping = build_mapping(index)
    mapping_cache.write(index, fingerprint, mapping)
    return mapping


# --- types -----------------------------------------------------------------------------------

def nested_name(t: TypeDecl) -> str:
    """Enclosing types + simple name ("Circle", "Circle.Builder")."""
    if t.container and t.qualified_name.startswith(t.container + "."):
        return t.qualified_name[len(t.container) + 1:]
    return t.qualified_name


def _name_keys(t: TypeDecl) -> list[tuple[str, float, str]]:
    """C# nested names a Java type may have become, with a confidence and a reason, best first."""
    name = nested_name(t)
    keys = [(name, 1.0, "same name")]
    head, _, simple = name.rpartition(".")
    if t.kind == "interface":
        keys.append(((head + "." if head else "") + "I" + simple, 0.95, "interface renamed I" + simple))
    if head:                                   # a nested type the port moved to the top level
        outer = head.rsplit(".", 1)[-1]
        keys.append((outer + simple, 0.85, f"nested type moved out as {outer + simple}"))
        keys.append((simple, 0.8, "nested type moved out"))
    return keys


class _TargetNames:
    """C# types by nested name, exactly and case-folded."""

    def __init__(self, types: list[TypeDecl]):
        self.exact: dict[str, list[TypeDecl]] = defaultdict(list)
        self.folded: dict[str, list[TypeDecl]] = defaultdict(list)
        for t in types:
            self.exact[nested_name(t)].append(t)
            self.folded[nested_name(t).lower()].append(t)

    def candidates(self, t: TypeDecl) -> tuple[list[TypeDecl], float, str]:
        """C# types with the first name key that exists; case-insensitively as a last resort."""
        for key, conf, reason in _name_keys(t):
            if key in self.exact:
                return self.exact[key], conf, reason
        return self.folded.get(nested_name(t).lower(), []), 0.8, "same name ignoring case"


def _learn_namespaces(src: list[TypeDecl], tgt: list[TypeDecl]
                      ) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    names = _TargetNames(tgt)
    votes: dict[str, Counter] = defaultdict(Counter)
    for t in src:
        if t.outer_id is not None:
            continue
        cands, _, _ = names.candidates(t)
        for c in cands:
            votes[t.container][c.container] += 1.0 / len(cands)
    namespace_map = {}
    for pkg, counter in votes.items():
        ranked = counter.most_common(2)
        total = sum(counter.values())
        best, n = ranked[0]
        if n / total > MIN_NAMESPACE_SHARE and (len(ranked) == 1 or n > ranked[1][1]):
            namespace_map[pkg] = best
    return {p: {ns: round(v, 3) for ns, v in c.items()} for p, c in votes.items()}, namespace_map


def _match_types(src: list[TypeDecl], tgt: list[TypeDecl], namespace_map: dict[str, str]
                 ) -> tuple[list[TypeMatch], dict[str, str]]:
    names = _TargetNames(tgt)
    proposals: dict[str, list[TypeMatch]] = defaultdict(list)   # target id -> proposals
    unmatched: dict[str, str] = {}
    for t in src:
        cands, conf, reason = names.candidates(t)
        if not cands:
            unmatched[t.id] = "no C# type with this name"
            continue
        expected_ns = namespace_map.get(t.container)
        in_ns = [c for c in cands if c.container == expected_ns]
        if len(in_ns) == 1:
            pick, why = in_ns[0], f"{reason}, namespace {expected_ns}"
        elif len(cands) == 1:
            pick, conf = cands[0], conf * 0.8
            why = f"{reason}, only candidate (namespace {pick.container} not the package's majority)"
        else:
            unmatched[t.id] = "ambiguous: " + ", ".join(sorted(c.id for c in cands))
            continue
        proposals[pick.id].append(TypeMatch(t.id, pick.id, round(conf, 3), why))
    matches = []
    for target_id, props in proposals.items():
        best = unique_best(props)
        if best is None:
            for p in props:
                unmatched[p.source_id] = f"several Java types claim {target_id}"
        else:
            matches.append(best)
            for p in props:
                if p is not best:
                    unmatched[p.source_id] = f"{target_id} taken by {best.source_id}"
    return sorted(matches, key=lambda m: m.source_id), unmatched


def _project_names(type_matches: list[TypeMatch]) -> dict[str, set[str]]:
    """Java simple type name -> C# simple names it was matched to (for parameter comparison)."""
    out: dict[str, set[str]] = defaultdict(set)
    for m in type_matches:
        out[_simple(m.source_id)].add(_simple(m.target_id))
    return out


def _simple(type_id: str) -> str:
    return type_id.rsplit(".", 1)[-1].split(":")[-1]
