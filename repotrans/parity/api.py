"""API parity of a port: the public and protected API of the Java side against the C# port.

Every entry rests on the mapping (no new guessing): a visible Java type or member the mapping pairs
with a C# one is `matched` (or a `signature` difference when its parameter, return or static-ness
plainly disagree through the type map, or when the C# counterpart is less visible; a Java accessor
the port exposes as a public field is one too, as is addXListener(l)/removeXListener(l) the port made an event, and so is a member the counterpart type has by name and arity
that the mapping could not pair, and a Java inner class's constructor the port gave the outer instance as a
first parameter, never missing, as is a Java `main` whose type the port's own `Main` runs; a
constructor the C# type has implicitly is matched); one it
does not pair is `missing` (with the mapping's reason); a visible C# member of the port's product code that no
Java member maps to is `port_only`. Test code is left out on both sides (mapping.test_code).
Entries are grouped by Java package (port-only ones by the package whose namespace holds them).
Exclusions (parity_exclude.py) take entries out of the counts and say which rule did.
"""
from __future__ import annotations

from collections import defaultdict
from difflib import SequenceMatcher
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from repotrans.index.typename import simple_name
from repotrans.parity.exclude import Exclusions
from repotrans.index.model import Field, Method, TypeDecl
from repotrans.mapping.entry_points import PortPrograms
from repotrans.mapping.mapping import Mapping
from repotrans.mapping.signatures import Scorer
from repotrans.mapping.typenames import name_table
from repotrans.mapping.test_code import index_test_files

if TYPE_CHECKING:
    from repotrans.index.store import Index

CATEGORIES = ("matched", "missing", "signature", "port_only")
IMPLICIT = "implicit constructor"       # the mapping's drift reason: the C# type declares no constructor (drift.py)


@dataclass(frozen=True)
class Entry:
    """One API declaration's standing: `java`/`cs` qualified names (no side prefix), its kind
    (type, method, constructor, property, indexer) and, for missing and signature entries, why."""
    category: str
    kind: str
    java: str | None
    cs: str | None
    detail: tuple[str, ...] = ()


@dataclass
class Group:
    package: str | None           # Java package (None: a C# namespace no Java package maps to)
    namespace: str | None         # the C# namespace the mapping gives it
    entries: list[Entry] = field(default_factory=list)

    def of(self, category: str) -> list[Entry]:
        return [e for e in self.entries if e.category == category]


@dataclass
class ParityReport:
    groups: list[Group]
    excluded: list[tuple[Entry, str, str]]          # (entry, pattern, reason)
    unused_exclusions: list[str]

    def counts(self) -> dict[str, int]:
        out = {c: 0 for c in CATEGORIES}
        for g in self.groups:
            for e in g.entries:
                out[e.category] += 1
        out["excluded"] = len(self.excluded)
        return out

    def problems(self) -> int:
        """What CI counts against `--fail-over`: missing declarations and signature differences."""
        c = self.counts()
        return c["missing"] + c["signature"]

    def to_json(self) -> dict:
        return {"summary": self.counts(),
                "groups": [{"package": g.package, "namespace": g.namespace,
                            **{c: [_entry_json(e) for e in g.of(c)] for c in CATEGORIES}} for g in self.groups],
                "excluded": [{**_entry_json(e), "category": e.category, "pattern": p, "reason": r}
                             for e, p, r in self.excluded],
                "unused_exclusions": list(self.unused_exclusions)}


def _entry_json(e: Entry) -> dict:
    d = asdict(e)
    d.pop("category")
    d["detail"] = list(e.detail)
    return d


def parity(index: Index, mapping: Mapping, exclusions: Exclusions | None = None,
           java_tests: tuple[str, ...] = ()) -> ParityReport:
    """The parity report of an indexed pair under its mapping; `java_tests`: folders of Java test code
    the layout does not show (mapping.test_code)."""
    exclusions = exclusions or Exclusions([])
    tests = {side: index_test_files(index, side, java_tests) for side in ("source", "target")}
    java_types = [t for t in index.types("source") if t.path not in tests["source"]]
    cs_types = [t for t in index.types("target") if t.path not in tests["target"]]
    by_id = {t.id: t for t in java_types + cs_types}
    entries: list[tuple[str | None, Entry]] = []      # (Java package or None, entry)
    scorer = _Scorers(mapping, index)
    claimed: set[str] = set()          # C# members paired here by name and arity: not port-only
    programs = PortPrograms(index, tests["target"])
    renamed = _renamed_types(index, mapping, [t for t in java_types if mapping.target_type(t.id) is None], cs_types)
    for jt in java_types:
        if not _visible_type(jt, by_id):
            continue
        tm = mapping.target_type(jt.id)
        ct = by_id.get(tm.target_id) if tm else None
        pkg = jt.container
        if ct is None:
            reason = mapping.unmatched_types.get(jt.id, "no C# type")
            likely = renamed.get(jt.id)
            if likely:
                reason += (f"; the port's {_bare(likely[0].id)}, which pairs with no Java type, has {likely[1]} of its "
                           f"{likely[2]} method names: if it is this type, name it under [mapping.types]")
            entries.append((pkg, Entry("missing", "type", _bare(jt.id), None, (reason,))))
        else:
            extra = () if _visible_type(ct, by_id) else ("less visible in the port",)
            entries.append((pkg, Entry("signature" if extra else "matched", "type", _bare(jt.id), _bare(ct.id),
                                       extra)))
        for jm in index.methods(jt.id):
            if not _visible_member(jm, jt):
                continue
            mm = mapping.target_method(jm.id)
            cm = index.method(mm.target_id) if mm else None
            if cm is None:
                backing = (_backing_field(index, jm, ct) or _event(index, jm, ct)) if ct is not None else None
                if backing is not None:       # getX()/setX(v) -> a public field X: present, as a field
                    kind = "an event" if "event" in backing.modifiers else "a field"
                    entries.append((pkg, Entry("signature", jm.kind, _bare(jm.id), _bare(backing.id),
                                               (f"{kind} in the port ({backing.type} {backing.name})",))))
                    continue
                reason = "type missing in the port" if ct is None else \
                    mapping.unmatched_methods.get(jm.id, "no C# member")
                if ct is not None and jm.kind == "constructor" and IMPLICIT in reason:
                    entries.append((pkg, Entry("matched", jm.kind, _bare(jm.id), f"{_bare(ct.id)}.<init>()")))
                    continue
                named = _same_name(index, mapping, jm, ct) if ct is not None else []
                outer = _outer_constructor(index, mapping, jm, jt, ct) if ct is not None and not named else None
                if outer is not None:         # a Java inner class's constructor: C# passes the outer instance
                    claimed.add(outer.id)
                    less = () if _visible_member(outer, ct) else ("less visible in the port",)
                    entries.append((pkg, Entry("signature", jm.kind, _bare(jm.id), _bare(outer.id), (
                        "the outer instance is an explicit first parameter in the port",) + less)))
                    continue
                if named:                     # overloads the mapping could not tell apart, drifted parameters
                    claimed.add(named[0].id)
                    entries.append((pkg, Entry("signature", jm.kind, _bare(jm.id), _bare(named[0].id), (
                        "present by name and arity, not paired by the mapping"
                        + (f" (one of {', '.join(_bare(m.id) for m in named)})" if len(named) > 1 else "")
                        + f": {reason}",))))
                    continue
                main = programs.running(jm, ct)
                if main is not None:          # the port's program runs this type from its own entry point
                    entries.append((pkg, Entry("signature", jm.kind, _bare(jm.id), _bare(main.id), (
                        f"a program entry point: the port's program starts at {_bare(main.id)}, whose class "
                        f"uses {_bare(ct.id)}",))))
                    continue
                entries.append((pkg, Entry("missing", jm.kind, _bare(jm.id), None, (reason,))))
                continue
            diffs = scorer.differences(jm, cm, mm.reason, jt, by_id.get(cm.type_id) or index.type(cm.type_id))
            if not _visible_member(cm, by_id.get(cm.type_id) or index.type(cm.type_id)):
                diffs = diffs + ("less visible in the port",)
            entries.append((pkg, Entry("signature" if diffs else "matched", jm.kind, _bare(jm.id), _bare(cm.id),
                                       diffs)))
    package_of = {ns: pkg for pkg, ns in sorted(mapping.namespace_map.items(), reverse=True)}
    for ct in cs_types:
        if not _visible_type(ct, by_id):
            continue
        members = [cm for cm in index.methods(ct.id) if _visible_member(cm, ct)]
        unmapped = [cm for cm in members if mapping.source_method(cm.id) is None and cm.id not in claimed
                    and not _restates_base(index, mapping, ct, cm)]
        pkg = package_of.get(ct.container)
        if mapping.source_type(ct.id) is None and len(unmapped) == len(members):
            entries.append((pkg, Entry("port_only", "type", None, _bare(ct.id))))
        for cm in unmapped:
            if not _object_plumbing(cm):
                entries.append((pkg, Entry("port_only", cm.kind, None, _bare(cm.id))))
    return _grouped(entries, mapping, exclusions)


def _grouped(entries: list[tuple[str | None, Entry]], mapping: Mapping, exclusions: Exclusions) -> ParityReport:
    groups: dict[tuple, Group] = {}
    excluded = []
    for pkg, e in entries:
        hit = exclusions.match(e.category, e.cs if e.category == "port_only" else e.java)
        if hit is not None:
            excluded.append((e, hit.pattern, hit.reason))
            continue
        ns = mapping.namespace_map.get(pkg) if pkg else _namespace(e)
        groups.setdefault((pkg or "~", ns or ""), Group(pkg, ns)).entries.append(e)
    ordered = [groups[k] for k in sorted(groups)]
    for g in ordered:
        g.entries.sort(key=lambda e: (CATEGORIES.index(e.category), e.java or "", e.cs or ""))
    return ParityReport(ordered, excluded, exclusions.unused())


def _namespace(e: Entry) -> str | None:
    return (e.cs or "").rsplit(".", 1)[0] or None


class _Scorers:
    """Signature comparison through the mapping's type map (signatures.Scorer), one scorer per type pair."""

    def __init__(self, mapping: Mapping, index: Index):
        project: dict[str, set[str]] = defaultdict(set)
        for m in mapping.type_matches:
            project[simple_name(m.source_id)].add(simple_name(m.target_id))
        self.project = dict(project)
        self.enums = frozenset(t.name for t in index.types("target") if t.kind == "enum")

    def differences(self, jm: Method, cm: Method, reason: str, jt: TypeDecl, ct: TypeDecl | None) -> tuple[str, ...]:
        """What plainly disagrees between a Java member and its C# counterpart (empty: nothing)."""
        if ct is None:
            return ()
        s = Scorer(jt, ct, self.project, self.enums)
        cparams = [p for p in cm.params if "this" not in p.modifiers]
        if "moved to" in reason or "extension method" in reason:
            instance_java = "static" not in jm.modifiers
            if instance_java and len(cparams) == len(cm.params) and cm.params and "static" in cm.modifiers:
                cparams = cparams[1:]          # a static companion taking the instance first
        out = []
        if cm.kind in ("property", "indexer"):
            setter = reason.startswith("setter")
            jparams = jm.params[:-1] if setter else jm.params
            jvalue = jm.params[-1].type if setter and jm.params else jm.return_type
            if len(jparams) != len(cparams):
                out.append(f"parameters: {len(jparams)} in Java, {len(cparams)} in the port")
            else:
                out += self._params(s, jm, jparams, cm, cparams)
            if jvalue is not None and cm.return_type is not None:
                if s.param_agreement(jm, _param(jvalue), cm, _param(cm.return_type)) == 0:
                    out.append(f"type: {jvalue} in Java, {cm.return_type} in the port")
        else:
            if len(jm.params) != len(cparams):
                out.append(f"parameters: {len(jm.params)} in Java, {len(cparams)} in the port")
            else:
                out += self._params(s, jm, list(jm.params), cm, cparams)
            if jm.kind == "method" and jm.return_type and cm.return_type and \
                    s.return_agreement(jm, cm) == 0 and not _renamed_object_method(jm, cm):
                out.append(f"returns: {jm.return_type} in Java, {cm.return_type} in the port")
        jstatic, cstatic = "static" in jm.modifiers, "static" in cm.modifiers
        if not jstatic and ("extension method" in reason or "moved to" in reason):
            cstatic = False               # the instance comes first, as a parameter of a static companion
        if jstatic != cstatic and cm.kind != "constructor":
            out.append("static in Java, instance in the port" if jstatic else "instance in Java, static in the port")
        return tuple(out)

    @staticmethod
    def _params(s: Scorer, jm: Method, jparams, cm: Method, cparams) -> list[str]:
        out = []
        for i, (jp, cp) in enumerate(zip(jparams, cparams), 1):
            if s.param_agreement(jm, jp, cm, cp) == 0:
                out.append(f"parameter {i}: {jp.type}{'...' if jp.varargs else ''} in Java, {cp.type} in the port")
        return out


def _param(type_text: str):
    from repotrans.index.model import Param
    return Param("", type_text)


def _renamed_object_method(jm: Method, cm: Method) -> bool:
    """iterator() -> GetEnumerator() and the like return the platform's own type."""
    return cm.name in ("GetEnumerator",)


def _renamed_types(index: Index, mapping: Mapping, missing: list[TypeDecl], cs_types: list[TypeDecl]
                   ) -> dict[str, tuple[TypeDecl, int, int]]:
    """Java type id -> (the C# type the port may have renamed it to, method names shared, its method names):
    a C# type no Java type pairs with that has at least 3 and a third of the Java type's method names
    (PascalCase), twice as many as any other such C# type, and suits no other missing Java type better
    (more names, then a larger share, then a closer name): EWAHCompressedBitmap -> EwahCompressedBitArray
    (21 of 49; EWAHCompressedBitmap32 shares 21 of 50)."""
    free = [ct for ct in cs_types if mapping.source_type(ct.id) is None]
    own = {ct.id: {m.name for m in index.methods(ct.id)} for ct in free}
    best: dict[str, tuple] = {}
    for jt in missing:
        names = {m.name[:1].upper() + m.name[1:] for m in index.methods(jt.id) if m.kind == "method"}
        scored = sorted(((len(names & own[ct.id]), ct.id, ct) for ct in free
                         if ct.kind == jt.kind or {ct.kind, jt.kind} == {"class", "struct"}), key=lambda e: (-e[0], e[1]))
        if not scored:
            continue
        shared, _, ct = scored[0]
        runner_up = scored[1][0] if len(scored) > 1 else 0
        if shared >= 3 and 3 * shared >= len(names) and shared >= 2 * runner_up:
            rank = (shared, shared / len(names), SequenceMatcher(None, jt.name.lower(), ct.name.lower()).ratio())
            if ct.id not in best or rank > best[ct.id][0]:
                best[ct.id] = (rank, jt.id, (ct, shared, len(names)))
    return {jid: found for _, jid, found in best.values()}


def _same_name(index: Index, mapping: Mapping, jm: Method, ct: TypeDecl) -> list[Method]:
    """The visible C# members of the counterpart type with the Java method's name (PascalCase, or as it is; a
    constructor for a constructor) and parameter count that no Java member pairs with: the member is there,
    whatever the mapping could not decide between them (overloads over DOM types it does not know, drifted
    parameter types); one another Java overload took is never offered."""
    names = {"<init>"} if jm.kind == "constructor" else {jm.name, jm.name[:1].upper() + jm.name[1:]}
    found = [cm for cm in index.methods(ct.id) if cm.name in names and len(cm.params) == len(jm.params)
             and cm.kind in ("method", "constructor") and _visible_member(cm, ct) and mapping.source_method(cm.id) is None]
    return sorted(found, key=lambda cm: -_name_overlap(jm, cm))


def _outer_constructor(index: Index, mapping: Mapping, jm: Method, jt: TypeDecl, ct: TypeDecl) -> Method | None:
    """The C# constructor of a Java inner (non-static nested) class's counterpart that takes the enclosing
    instance first, then the Java constructor's parameters (C# has no inner classes), when no Java member
    pairs with it."""
    if jm.kind != "constructor" or not jt.outer_id or "static" in jt.modifiers or jt.kind != "class" \
            or not ct.outer_id:
        return None
    outer = index.type(ct.outer_id)
    for cm in index.methods(ct.id):
        if cm.kind == "constructor" and len(cm.params) == len(jm.params) + 1 and outer is not None \
                and cm.params[0].type.split("<", 1)[0] == outer.name and mapping.source_method(cm.id) is None:
            return cm
    return None


def _name_overlap(jm: Method, cm: Method) -> int:
    """How many parameters' Java type names the C# parameter's type name contains (Node in XmlNode, Source in
    ISource): the likeliest of several overloads first."""
    def base(t: str) -> str:
        return t.split("<", 1)[0].rstrip("[].").rsplit(".", 1)[-1].lower()
    return sum(1 for jp, cp in zip(jm.params, cm.params) if base(jp.type) and base(jp.type) in base(cp.type))


def _backing_field(index: Index, jm: Method, ct: TypeDecl) -> Field | None:
    """The visible C# field a Java accessor became (getX()/isX() with no parameter, setX(v) with one; the field
    named X, or isX's IsX), when the mapping paired it with no member: ports often expose a bean's state as
    public fields."""
    table = name_table()
    names: list[str] = []
    prefixes = table.getter_prefixes if not jm.params else table.setter_prefixes if len(jm.params) == 1 else ()
    for prefix in prefixes:
        rest = jm.name[len(prefix):]
        if jm.name.startswith(prefix) and rest[:1].isupper():
            names += [rest] + [p[:1].upper() + p[1:] + rest for p in table.getter_prefixes if p != "get"]
    if not names:
        return None
    for f in index.fields(ct.id):
        if f.name in names and ("public" in f.modifiers or "protected" in f.modifiers) and "const" not in f.modifiers:
            return f
    return None


def _event(index: Index, jm: Method, ct: TypeDecl) -> Field | None:
    """The C# event a Java listener registration became: addXListener(l)/removeXListener(l) -> `event ...
    XListener` of the counterpart type (C# subscribes with += and -=)."""
    if len(jm.params) != 1:
        return None
    for prefix in ("add", "remove"):
        rest = jm.name[len(prefix):]
        if jm.name.startswith(prefix) and rest[:1].isupper():
            return next((f for f in index.fields(ct.id) if "event" in f.modifiers and f.name == rest
                         and ("public" in f.modifiers or ct.kind == "interface")), None)
    return None


def _visible_type(t: TypeDecl, by_id: dict[str, TypeDecl]) -> bool:
    """Public (or protected, when nested) here and in every enclosing type; interface members are public."""
    while t is not None:
        outer = by_id.get(t.outer_id) if t.outer_id else None
        implicit = outer is not None and outer.kind == "interface"
        if not (implicit or "public" in t.modifiers or (outer is not None and "protected" in t.modifiers)):
            return False
        t = outer
    return True


def _visible_member(m: Method, owner: TypeDecl | None) -> bool:
    if "private" in m.modifiers:
        return False
    if "public" in m.modifiers or "protected" in m.modifiers:
        return True
    return owner is not None and owner.kind == "interface"


def _restates_base(index: Index, mapping: Mapping, ct: TypeDecl, cm: Method) -> bool:
    """An abstract or override member whose base member (same name and parameters) is mapped already:
    C# restates an interface member in an abstract class, Java need not; it adds no API of its own."""
    if not {"abstract", "override"} & set(cm.modifiers):
        return False
    for base in index.supertypes(ct):
        for bm in index.methods(base.id):
            if bm.name == cm.name and bm.param_types == cm.param_types and mapping.source_method(bm.id):
                return True
    return False


def _object_plumbing(cm: Method) -> bool:
    """C# members a port adds for the platform, not for the Java API: operators and conversions."""
    return cm.name.startswith("operator") or cm.name in ("implicit", "explicit")


def _bare(declaration_id: str) -> str:
    return declaration_id.split(":", 1)[1]


