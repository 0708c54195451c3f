"""Which C# type and member corresponds to which Java type and method.

Types are matched by their nested name (enclosing types + simple name, `I`-prefixed for interfaces
when the port renamed them); a Java package -> C# namespace map is learned by majority over those
name matches and settles types whose name occurs in several namespaces. Methods are matched inside
matched type pairs by naming rules (camelCase -> PascalCase, getX()/isX() -> property X, setX(v) ->
property X's setter, constructors to constructors, a few renames from data/java_cs_names.json) and
overloads are told apart by parameter types mapped through the same table. Anything ambiguous stays
unmatched, with the reason. The result is cached in the index's SQLite file (mapping_cache.py).
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from repotrans.index.model import Method, TypeDecl
from repotrans.index.typenames import TypeName, compat, java_param_type, name_table, parse_type

MIN_NAMESPACE_SHARE = 0.5       # a package maps to a namespace holding more than half of its votes


@dataclass(frozen=True)
class TypeMatch:
    source_id: str
    target_id: str
    confidence: float
    reason: str


@dataclass(frozen=True)
class MethodMatch:
    source_id: str
    target_id: str
    confidence: float
    reason: str


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


def build_mapping(index) -> Mapping:
    """Align the two indexed repositories (no caching; see load_mapping)."""
    src_types, tgt_types = index.types("source"), index.types("target")
    votes, namespace_map = _learn_namespaces(src_types, tgt_types)
    type_matches, unmatched_types = _match_types(src_types, tgt_types, namespace_map)
    project = _project_names(type_matches)
    by_id = {t.id: t for t in src_types + tgt_types}
    members = {side: _group_by_type(index.all_methods(side)) for side in ("source", "target")}
    fwd = {m.source_id: m for m in type_matches}
    companions = _companions(tgt_types, members["target"])
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
        found, missed = _match_methods(java_methods, members["target"].get(target.id, []), hosts,
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


def load_mapping(index) -> Mapping:
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
    if t.kind == "interface":
        head, _, simple = name.rpartition(".")
        keys.append(((head + "." if head else "") + "I" + simple, 0.95, "interface renamed I" + simple))
    return keys


def _candidates(t: TypeDecl, by_name: dict[str, list[TypeDecl]]) -> tuple[list[TypeDecl], float, str]:
    """C# types with the first name key that exists; case-insensitively as a last resort."""
    for key, conf, reason in _name_keys(t):
        if key in by_name:
            return by_name[key], conf, reason
    folded = nested_name(t).lower()
    hits = [c for k, cs in by_name.items() if k.lower() == folded for c in cs]
    return hits, 0.8, "same name ignoring case"


def _learn_namespaces(src: list[TypeDecl], tgt: list[TypeDecl]
                      ) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    by_name = _by_nested_name(tgt)
    votes: dict[str, Counter] = defaultdict(Counter)
    for t in src:
        if t.outer_id is not None:
            continue
        cands, _, _ = _candidates(t, by_name)
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


def _by_nested_name(types: list[TypeDecl]) -> dict[str, list[TypeDecl]]:
    out: dict[str, list[TypeDecl]] = defaultdict(list)
    for t in types:
        out[nested_name(t)].append(t)
    return out


def _match_types(src: list[TypeDecl], tgt: list[TypeDecl], namespace_map: dict[str, str]
                 ) -> tuple[list[TypeMatch], dict[str, str]]:
    by_name = _by_nested_name(tgt)
    proposals: dict[str, list[TypeMatch]] = defaultdict(list)   # target id -> proposals
    unmatched: dict[str, str] = {}
    for t in src:
        cands, conf, reason = _candidates(t, by_name)
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
        best = _unique_best(props)
        if best is None:
            for p in props:
                unmatched[p.source_id] = f"several Java types claim {target_id}"
        else:
            matches.append(best)
            for p in props:
                if p is not best:
                    unmatched[p.source_id] = f"{target_id} taken by {best.source_id}"
    return sorted(matches, key=lambda m: m.source_id), unmatched


def _unique_best(props: list):
    top = max(p.confidence for p in props)
    best = [p for p in props if p.confidence == top]
    return best[0] if len(best) == 1 else None


def _companions(tgt: list[TypeDecl], members: dict[str, list[Method]]) -> dict[str, list[TypeDecl]]:
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


def _group_by_type(methods: list[Method]) -> dict[str, list[Method]]:
    out: dict[str, list[Method]] = defaultdict(list)
    for m in methods:
        out[m.type_id].append(m)
    return out


def _project_names(type_matches: list[TypeMatch]) -> dict[str, set[str]]:
    """Java simple type name -> C# simple names it was matched to (for parameter comparison)."""
    out: dict[str, set[str]] = defaultdict(set)
    for m in type_matches:
        out[_simple(m.source_id)].add(_simple(m.target_id))
    return out


def _simple(type_id: str) -> str:
    return type_id.rsplit(".", 1)[-1].split(":")[-1]


# --- methods ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Rule:
    names: tuple[str, ...]      # C# member names to look for
    kinds: tuple[str, ...]      # C# member kinds accepted
    compare_params: bool        # False: accessor -> property, no parameter list to compare
    confidence: float
    reason: str
    drop_last: bool = False     # Java setter whose last parameter is the value (set(i, v) -> this[i])


@dataclass(frozen=True)
class _Cand:
    """A C# member as a candidate: the parameters to compare and the kinds it can stand for."""
    member: Method
    params: tuple
    kinds: frozenset[str]
    via: str = ""               # "" (own member) or how a companion class holds it


def _rules(m: Method) -> list[_Rule]:
    """The C# members a Java method may have become, by naming rule, best first."""
    if m.kind == "constructor":
        return [_Rule(("<init>",), ("constructor",), True, 1.0, "constructor")]
    table = name_table()
    n = len(m.params)
    pascal = m.name[:1].upper() + m.name[1:]
    rules = []
    if m.name in table.methods:
        rules.append(_Rule(table.methods[m.name], ("method", "property"), True, 0.95, "renamed member"))
    for prefix in table.getter_prefixes:
        prop = _accessor_name(m.name, prefix)
        if prop and n == 0:
            names = (prop,) if prefix == "get" else (prop, pascal)     # isEmpty() -> Empty | IsEmpty
            rules.append(_Rule(names, ("property",), False, 0.95, "getter -> property"))
    for prefix in table.setter_prefixes:
        prop = _accessor_name(m.name, prefix)
        if prop and n == 1:
            rules.append(_Rule((prop,), ("property",), False, 0.95, "setter -> property"))
    if m.name in table.indexer_getters and n >= 1:
        rules.append(_Rule(("this",), ("indexer",), True, 0.9, "getter -> indexer"))
    if m.name in table.indexer_setters and n >= 2:
        rules.append(_Rule(("this",), ("indexer",), True, 0.9, "setter -> indexer", drop_last=True))
    rules.append(_Rule((pascal,), ("method",), True, 1.0, "PascalCase name"))
    if pascal != m.name:
        rules.append(_Rule((m.name,), ("method",), True, 0.9, "same name"))
    if n == 0:
        rules.append(_Rule((pascal,), ("property",), False, 0.9, "method -> property"))
        rules.append(_Rule(("Get" + pascal,), ("method",), True, 0.85, "method -> Get method"))
    return rules


def _accessor_name(name: str, prefix: str) -> str | None:
    rest = name[len(prefix):]
    if name.startswith(prefix) and rest[:1].isupper():
        return rest
    return None


_TYPE_PARAM_NAME = re.compile(r"^\s*(\w+)")


def _tparams(*decls) -> frozenset[str]:
    out = set()
    for d in decls:
        for tp in d.type_params:
            match = _TYPE_PARAM_NAME.match(tp)
            if match:
                out.add(match.group(1))
    return frozenset(out)


class _Scorer:
    """Parameter and return-type comparison for one matched type pair."""

    def __init__(self, jt: TypeDecl, ct: TypeDecl, project: dict[str, set[str]]):
        self.jt, self.ct, self.project = jt, ct, project

    def _compat(self, jtext: str | None, varargs: bool, ctext: str | None, jm: Method, cm: Method) -> float:
        if jtext is None or ctext is None:
            return 1.0 if jtext == ctext else 0.0
        return compat(java_param_type(jtext, varargs), parse_type(ctext), self.project,
                      _tparams(self.jt, jm), _tparams(self.ct, cm))

    def params(self, jm: Method, cand: _Cand, drop_last: bool) -> float:
        jparams = jm.params[:-1] if drop_last else jm.params
        if len(jparams) != len(cand.params):
            return 0.0
        score = 1.0
        for jp, cp in zip(jparams, cand.params):
            score = min(score, self._compat(jp.type, jp.varargs, cp.type, jm, cand.member))
        return score

    def returns(self, jm: Method, cand: _Cand) -> float:
        return self._compat(jm.return_type, False, cand.member.return_type, jm, cand.member)


def _own_candidates(cs: list[Method]) -> dict[str, list[_Cand]]:
    out: dict[str, list[_Cand]] = defaultdict(list)
    for c in cs:
        out[c.name].append(_Cand(c, tuple(c.params), frozenset({c.kind})))
    return out


def _companion_candidates(companions: list[tuple[TypeDecl, list[Method]]], ct: TypeDecl,
                          static: bool) -> dict[str, list[_Cand]]:
    """Members of C# static classes that took over a Java type's methods.

    A Java instance method may become an extension method (`this T` first parameter, compared
    without it; with no other parameter it may stand for a getter); a Java static method may move
    to a companion class (Pairs.Of for Pair.of).
    """
    out: dict[str, list[_Cand]] = defaultdict(list)
    for host, members in companions:
        for c in members:
            if c.kind != "method":
                continue
            extension = bool(c.params) and "this" in c.params[0].modifiers \
                and parse_type(c.params[0].type).base == ct.name
            if extension and not static:
                kinds = frozenset({"method", "property"}) if len(c.params) == 1 else frozenset({"method"})
                out[c.name].append(_Cand(c, tuple(c.params[1:]), kinds, f"extension method in {host.name}"))
            elif not extension and static and host.id != ct.id:
                out[c.name].append(_Cand(c, tuple(c.params), frozenset({"method"}), f"moved to {host.name}"))
    return out


def _match_methods(java: list[Method], cs: list[Method], companions: list[tuple[TypeDecl, list[Method]]],
                   jt: TypeDecl, ct: TypeDecl, project: dict[str, set[str]]
                   ) -> tuple[list[MethodMatch], dict[str, str]]:
    scorer = _Scorer(jt, ct, project)
    own = _own_candidates(cs)
    moved = {static: _companion_candidates(companions, ct, static) for static in (False, True)}
    proposals: dict[str, list[MethodMatch]] = defaultdict(list)
    unmatched: dict[str, str] = {}
    arity_count = Counter((m.name, len(m.params)) for m in java)
    for jm in java:
        found = _propose(jm, own, scorer, arity_count)
        if isinstance(found, str) and jm.kind == "method":
            elsewhere = _propose(jm, moved["static" in jm.modifiers], scorer, arity_count)
            if not isinstance(elsewhere, str):
                found = elsewhere
        if isinstance(found, str):
            unmatched[jm.id] = found
        else:
            proposals[found.target_id].append(found)
    matches = []
    for target_id, props in proposals.items():
        accessors = [p for p in props if p.reason.startswith(("getter", "setter"))]
        kinds = Counter(p.reason.split(" ")[0] for p in accessors)
        if len(accessors) == len(props) and all(v == 1 for v in kinds.values()):
            matches += props                   # getX + setX -> one property: both are right
            continue
        best = _unique_best(props)
        for p in props:
            if best is None:
                unmatched[p.source_id] = f"several Java methods claim {target_id}"
            elif p is not best:
                unmatched[p.source_id] = f"{target_id} taken by {best.source_id}"
        if best is not None:
            matches.append(best)
    return matches, unmatched


def _propose(jm: Method, by_name: dict[str, list[_Cand]], scorer: _Scorer,
             arity_count: Counter) -> MethodMatch | str:
    """The one C# member for a Java method, or why there is none."""
    loose: dict[str, tuple[_Cand, _Rule]] = {}
    for rule in _rules(jm):
        named = [c for name in rule.names for c in by_name.get(name, []) if c.kinds & set(rule.kinds)]
        if not rule.compare_params:            # accessor -> property: no parameter list to compare
            named = [c for c in named if "property" in c.member.kind or not c.params]
            if len({c.member.id for c in named}) == 1:
                return _match(jm, named[0], rule, 1.0)
            continue
        scored = [(c, scorer.params(jm, c, rule.drop_last)) for c in named]
        good = [(c, s) for c, s in scored if s > 0]
        if good:
            top = max(s for _, s in good)
            best = [c for c, s in good if s == top]
            if len(best) > 1:                  # overloads equal on parameters: the return type decides
                ret = [(c, scorer.returns(jm, c)) for c in best]
                top_ret = max(r for _, r in ret)
                best = [c for c, r in ret if r == top_ret]
            if len(best) > 1:
                return "ambiguous: " + ", ".join(sorted(c.member.id for c in best))
            return _match(jm, best[0], rule, top)
        for c in named:
            if len(c.params) == len(jm.params) - rule.drop_last:
                loose.setdefault(c.member.id, (c, rule))
    if len(loose) == 1 and arity_count[(jm.name, len(jm.params))] == 1:
        c, rule = next(iter(loose.values()))
        return _match(jm, c, rule, 0.0)
    if loose:
        return "ambiguous: " + ", ".join(sorted(loose))
    return "no C# member by the naming rules"


def _match(jm: Method, c: _Cand, rule: _Rule, param_score: float) -> MethodMatch:
    """MethodMatch with confidence = rule x parameter fit (1 exact, 0.5 raw/generic, 0 only overload)."""
    factor, note = {1.0: (1.0, ""), 0.5: (0.8, ", raw/generic parameter types")}.get(
        param_score, (0.6, ", only overload of this arity (parameter types differ)"))
    conf = rule.confidence * factor * (0.9 if c.via else 1.0)
    reason = rule.reason + note + (f", {c.via}" if c.via else "")
    return MethodMatch(jm.id, c.member.id, round(conf, 3), reason)
