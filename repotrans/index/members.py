"""Which C# member a Java method became, inside one matched type pair.

Naming rules (camelCase -> PascalCase, getX()/isX() -> property X, setX(v) -> property X's setter,
get(i) -> indexer, constructors to constructors, renames from data/java_cs_names.json) propose
candidates; overloads are told apart by parameter types mapped through the name table, then by
return type. Members that moved to a C# companion class (extension methods, a static factory in
`Pairs`) are looked up when the type itself has none. Ambiguity leaves the method unmatched.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TypeVar

from repotrans.index.matches import MethodMatch, TypeMatch
from repotrans.index.model import Method, Param, TypeDecl
from repotrans.index.typenames import compat, java_param_type, name_table, parse_type


M = TypeVar("M", TypeMatch, MethodMatch)


def unique_best(props: list[M]) -> M | None:
    """The proposal with the highest confidence, or None on a tie."""
    top = max(p.confidence for p in props)
    best = [p for p in props if p.confidence == top]
    return best[0] if len(best) == 1 else None


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


def group_by_type(methods: list[Method]) -> dict[str, list[Method]]:
    """type id -> its members, in the given (source) order."""
    out: dict[str, list[Method]] = defaultdict(list)
    for m in methods:
        out[m.type_id].append(m)
    return out


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
    params: tuple[Param, ...]
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
    for prefix, replacements in table.method_prefixes.items():
        rest = _accessor_name(m.name, prefix)
        if rest:
            rules.append(_Rule(tuple(r + rest for r in replacements), ("method",), True, 0.85,
                               f"{prefix}X -> {'/'.join(replacements)}X"))
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


def match_methods(java: list[Method], cs: list[Method], companions: list[tuple[TypeDecl, list[Method]]],
                  jt: TypeDecl, ct: TypeDecl, project: dict[str, set[str]]
                  ) -> tuple[list[MethodMatch], dict[str, str]]:
    """Match the Java type `jt`'s methods to members of its C# counterpart `ct` (then its companions).

    One C# member takes one Java method, except a property, which takes a getter and a setter.
    """
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
        best = unique_best(props)
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
            named = [c for c in named if c.member.kind == "property" or not c.params]
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
            if len({c.member.id for c in best}) > 1:
                return "ambiguous: " + ", ".join(sorted({c.member.id for c in best}))
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
