"""Which C# type a Java type became, and which C# namespace a Java package became.

Round 1, names: a Java type's nested name (enclosing types + simple name) is looked up in C# under
the names a port gives it, best first: the same name; for an interface the `I`-prefixed name (kept
when the same-named C# type is no interface); the rename vocabulary of the name table (XUtil ->
XUtility, XIterator -> XEnumerator, X -> XComputer); a nested type moved out (Outer.X -> OuterX or X);
the same simple name anywhere (moved into a holder class); the same name ignoring case; a test class
named the other framework's way (`RegexCacheTest` -> `TestRegexCache`), or after its tested type's counterpart
(tested_renamed); a nested type of the same name inside its outer type's counterpart; an interface of one method
made a delegate named after it; each key again ignoring case (`EWAHIterator` -> `EwahEnumerator`).
Namespaces: a package maps to the namespace holding the majority of its types' name matches; among
candidates in several namespaces the one whose path shares most segments with the package's wins
(`...aztec.decoder` -> `ZXing.Aztec.Internal`, not `ZXing.QrCode.Internal`).
Round 2, inside the namespace its package maps to, a Java type still unmatched takes the one unmatched
C# type of its kind named like it plus a word (`Writer` -> `WriterBase`) whose members do not
disagree, else the one whose members carry most of its member names (and enum constants), else (a port of an
older, smaller version) the one most of whose member names the Java type has, named with half its words.
Anything ambiguous stays unmatched, with the reason.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache

from repotrans.mapping.evidence import dice, name_words
from repotrans.mapping.matches import TypeMatch
from repotrans.index.model import Method, TypeDecl
from repotrans.mapping.typenames import name_table

MIN_NAMESPACE_SHARE = 0.5       # a package maps to a namespace holding more than half of its votes
MIN_NAMESPACE_SUPPORT = 2       # ... cast by this many of its types, unless the namespace is named like
                                # the package (its last segment): one coincidental match never decides
MIN_MEMBER_OVERLAP = 0.6        # share of a Java type's member names found in the C# type
MIN_OVERLAP_MEMBERS = 3         # member-overlap evidence needs at least this many Java member names
MIN_OLDER_SHARED = 10           # an older port's type shares at least this many member names
KINDS = {"class": {"class", "struct", "record"}, "interface": {"interface", "delegate"}, "enum": {"enum", "class", "struct"},
         "record": {"class", "struct", "record"}, "annotation": {"class"}}


def nested_name(t: TypeDecl) -> str:
    """Enclosing types + simple name ("Circle", "Circle.Builder")."""
    if t.container and t.qualified_name.startswith(t.container + "."):
        return t.qualified_name[len(t.container) + 1:]
    return t.qualified_name


@dataclass(frozen=True)
class _Key:
    name: str                   # a C# nested name, or a simple name at any nesting (anywhere)
    confidence: float
    reason: str
    anywhere: bool = False


def name_keys(t: TypeDecl) -> list[_Key]:
    """C# names a Java type may have become, with a confidence and a reason, best first."""
    table = name_table()
    name = nested_name(t)
    head, _, simple = name.rpartition(".")
    prefix = head + "." if head else ""
    keys = [_Key(name, 1.0, "same name")]
    if t.kind == "interface":
        keys.append(_Key(prefix + table.interface_prefix + simple, 0.95,
                         f"interface renamed {table.interface_prefix}{simple}"))
    for ending, replacements in table.type_suffixes.items():
        if simple.endswith(ending) and len(simple) > len(ending):
            keys += [_Key(prefix + simple[:-len(ending)] + r, 0.85, f"renamed {ending} -> {r}")
                     for r in replacements]
    keys += [_Key(prefix + simple + s, 0.8, f"renamed with suffix {s}") for s in table.type_added_suffixes
             if not simple.endswith(s)]
    stem = test_stem(simple)
    keys += [_Key(prefix + n, 0.85, f"test class renamed {n}") for n in ("Test" + stem, stem + "Tests", stem + "Test")
             if stem and n != simple]
    if head:                                   # a nested type the port moved to the top level
        outer = head.rsplit(".", 1)[-1]
        keys.append(_Key(outer + simple, 0.85, f"nested type moved out as {outer + simple}"))
        keys.append(_Key(simple, 0.8, "nested type moved out"))
    keys.append(_Key(simple, 0.75, "same simple name, moved", anywhere=True))
    return keys


def test_stem(name: str) -> str:
    """The tested type's name in a test class's name (`RegexCacheTest`, `RegexCacheTests`, `TestRegexCache`
    -> RegexCache), or ""."""
    m = re.fullmatch(r"([A-Z]\w*?)Tests?|Test([A-Z]\w*)", name)
    return (m.group(1) or m.group(2)) if m else ""


class TargetNames:
    """C# types by nested name (exactly and case-folded) and by simple name."""

    def __init__(self, types: list[TypeDecl]):
        self.exact: dict[str, list[TypeDecl]] = defaultdict(list)
        self.folded: dict[str, list[TypeDecl]] = defaultdict(list)
        self.simple: dict[str, list[TypeDecl]] = defaultdict(list)
        self.nested: dict[str, dict[str, list[TypeDecl]]] = defaultdict(lambda: defaultdict(list))
        for t in types:
            self.exact[nested_name(t)].append(t)
            self.folded[nested_name(t).lower()].append(t)
            self.simple[t.name].append(t)
            if t.outer_id is not None:
                self.nested[t.name][t.outer_id.rsplit(".", 1)[-1]].append(t)
        self.outers = {simple: sorted(by_outer) for simple, by_outer in self.nested.items()}

    def candidates(self, t: TypeDecl) -> tuple[list[TypeDecl], float, str]:
        """C# types under the first name key that exists (kind-compatible ones first); case-insensitively
        as a last resort."""
        keys = name_keys(t)
        name = nested_name(t)
        held: tuple[list[TypeDecl], float, str] | None = None     # a same-named type of another kind
        for i, key in enumerate(keys):
            if held is not None and i > 1:
                break
            hits = self._moved(t, key.name, name) if key.anywhere else self.exact.get(key.name, [])
            if not hits:
                continue
            agree = [c for c in hits if c.kind in KINDS.get(t.kind, {c.kind})]
            if agree:
                return agree, key.confidence, key.reason
            if held is None:
                held = hits, round(key.confidence * 0.9, 3), key.reason + f" ({hits[0].kind})"
            if not (t.kind == "interface" and i == 0):
                break                          # only the I-prefixed interface outranks a same-named class
        if held is not None:
            return held
        for key in keys:                       # each name key again, ignoring case (EWAHIterator -> EwahEnumerator)
            hits = [] if key.anywhere else self.folded.get(key.name.lower(), [])
            if hits:
                return hits, 0.8, ("same name" if key.name == name else key.reason) + " ignoring case"
        return [], 0.8, "same name ignoring case"

    def _moved(self, t: TypeDecl, simple: str, name: str) -> list[TypeDecl]:
        """C# types of this simple name elsewhere: for a nested Java type, nested in a holder named like
        its outer type (`Rule.X` -> `Rules.X`: one name starts with the other); for a top-level one, the
        only such type (moved inside another)."""
        if t.outer_id is None:
            hits = [c for c in self.simple.get(simple, []) if nested_name(c) != name]
            return hits if len(hits) == 1 else []
        by_outer = self.nested.get(simple)
        if not by_outer:
            return []
        outer = nested_name(t).rsplit(".", 2)[-2]
        keys = self.outers[simple]
        related = keys[bisect_left(keys, outer):bisect_left(keys, outer + "\uffff")]     # names starting with it
        related += [outer[:i] for i in range(1, len(outer)) if outer[:i] in by_outer]     # names it starts with
        return [c for key in related for c in by_outer[key] if nested_name(c) != name]


def affinity(package: str, namespace: str) -> int:
    """Segments a package and a namespace share, case-folded (com.x.aztec.decoder ~ X.Aztec.Internal: 2)."""
    return len({p.lower() for p in package.split(".")} & {n.lower() for n in namespace.split(".")})


def closest(cands: list[TypeDecl], package: str) -> list[TypeDecl]:
    """The candidates whose namespace shares most segments with the package."""
    scores = [affinity(package, c.container) for c in cands]
    top = max(scores, default=0)
    return [c for c, s in zip(cands, scores) if s == top]


def learn_namespaces(src: list[TypeDecl], names: TargetNames
                     ) -> tuple[dict[str, dict[str, float]], dict[str, str]]:
    """Votes (package -> namespace -> share of its top-level types' name matches) and the majority map."""
    votes: dict[str, Counter] = defaultdict(Counter)
    voters: dict[str, Counter] = defaultdict(Counter)          # package -> namespace -> types voting
    for t in src:
        if t.outer_id is not None:
            continue
        cands, _, _ = names.candidates(t)
        if len(cands) > 1:
            cands = closest(cands, t.container)
        for c in cands:
            votes[t.container][c.container] += 1.0 / len(cands)
        for ns in {c.container for c in cands}:
            voters[t.container][ns] += 1
    namespace_map = {}
    for pkg, counter in votes.items():
        ranked = counter.most_common(2)
        total = sum(counter.values())
        best, n = ranked[0]
        if n / total > MIN_NAMESPACE_SHARE and (len(ranked) == 1 or n > ranked[1][1]) and \
                (voters[pkg][best] >= MIN_NAMESPACE_SUPPORT or _named_alike(pkg, best)):
            namespace_map[pkg] = best
    return {p: {ns: round(v, 3) for ns, v in c.items()} for p, c in votes.items()}, namespace_map


def _named_alike(package: str, namespace: str) -> bool:
    """The package's own (last) segment is a segment of the namespace (p.qr ~ X.Qr)."""
    return package.rsplit(".", 1)[-1].lower() in {n.lower() for n in namespace.split(".")}


def match_types(src: list[TypeDecl], tgt: list[TypeDecl], names: TargetNames, namespace_map: dict[str, str],
                members: dict[str, dict[str, list[Method]]]) -> tuple[list[TypeMatch], dict[str, str]]:
    """Round 1 (names), then round 2 (member overlap) for the Java types still unmatched."""
    proposals: dict[str, list[TypeMatch]] = defaultdict(list)   # target id -> proposals
    unmatched: dict[str, str] = {}
    fwd: dict[str, str] = {}                                     # java id -> C# id proposed (for nesting)
    for t in src:                                                # outer types come before their nested ones
        found = _by_name(t, names, namespace_map, fwd)
        if isinstance(found, str):
            unmatched[t.id] = found
        else:
            proposals[found.target_id].append(found)
            fwd[t.id] = found.target_id
    matches = []
    src_ns = {t.id: t.container for t in src}
    tgt_ns = {c.id: c.container for c in tgt}
    for target_id, props in proposals.items():
        # a contested type goes to the Java type whose package maps to its namespace
        home = [p for p in props if namespace_map.get(src_ns.get(p.source_id, "")) == tgt_ns.get(target_id)]
        top = max(p.confidence for p in props)
        best = home if len(home) == 1 and len(props) > 1 else [p for p in props if p.confidence == top]
        if len(best) > 1:
            for p in props:
                unmatched[p.source_id] = f"several Java types claim {target_id}"
            continue
        matches.append(best[0])
        for p in props:
            if p is not best[0]:
                unmatched[p.source_id] = f"{target_id} taken by {best[0].source_id}"
    taken = {m.target_id for m in matches}
    fwd = {m.source_id: m.target_id for m in matches}
    for t in (t for t in src if unmatched.get(t.id, "").startswith("no C# type")):
        found = _delegate_named_after(t, members, names, namespace_map.get(t.container), fwd, taken)
        if found is not None:
            matches.append(found)
            taken.add(found.target_id)
            fwd[t.id] = found.target_id
            del unmatched[t.id]
    overlap = _MemberIndex([c for c in tgt if c.id not in taken], members["target"])
    by_id = {t.id: t for t in src}
    for sid in sorted(unmatched):
        if not unmatched[sid].startswith("no C# type"):
            continue
        found = overlap.best(by_id[sid], type_words(by_id[sid], members["source"].get(sid, [])), namespace_map)
        if found is not None:
            matches.append(found)
            del unmatched[sid]
            overlap.remove(found.target_id)
    return sorted(matches, key=lambda m: m.source_id), unmatched


def tested_renamed(src_test: list[TypeDecl], unmatched: dict[str, str], taken: set[str], names: TargetNames,
                   counterpart_names: dict[str, set[str]]) -> list[TypeMatch]:
    """Test classes still unmatched named after a type the port renamed: the C# test class named after that
    type's counterpart the same ways (`EWAHCompressedBitmapTest` -> `EwahCompressedBitArrayTest`, as
    EWAHCompressedBitmap -> EwahCompressedBitArray); `counterpart_names`: Java simple name -> its C# ones."""
    out = []
    for t in src_test:
        stem = test_stem(t.name)
        if t.id not in unmatched or t.outer_id is not None or len(counterpart_names.get(stem, ())) != 1:
            continue
        cs = next(iter(counterpart_names[stem]))
        hits = {c.id: c for n in ("Test" + cs, cs + "Test", cs + "Tests") for c in names.exact.get(n, [])
                if c.id not in taken and c.kind in KINDS.get(t.kind, ())}
        if len(hits) == 1:
            c = next(iter(hits.values()))
            out.append(TypeMatch(t.id, c.id, 0.8, "test class of a renamed type", (f"tests {stem}, the port's {cs}",)))
            taken.add(c.id)
            del unmatched[t.id]
    return out


def _delegate_named_after(t: TypeDecl, members: dict[str, dict[str, list[Method]]], names: TargetNames,
                          namespace: str | None, fwd: dict[str, str], taken: set[str]) -> TypeMatch | None:
    """A Java interface of one abstract method the port made a delegate named after that method
    (`NumberGroupingChecker.checkGroups(...)` -> `delegate bool CheckGroups(...)`): the one free C# delegate of
    that name, nested in the outer type's counterpart (or in the package's namespace for a top-level
    interface), whose Invoke takes as many parameters."""
    abstract = [m for m in members["source"].get(t.id, []) if m.kind == "method" and m.body is None
                and "static" not in m.modifiers]
    if t.kind != "interface" or len(abstract) != 1:
        return None
    method = abstract[0]
    pascal = method.name[:1].upper() + method.name[1:]
    outer = fwd.get(t.outer_id or "")
    fits = [c for c in names.simple.get(pascal, []) if c.kind == "delegate" and c.id not in taken
            and (c.outer_id == outer if t.outer_id else c.outer_id is None and c.container == namespace)
            and any(len(i.params) == len(method.params) for i in members["target"].get(c.id, []))]
    if len(fits) != 1 or (t.outer_id and outer is None):
        return None
    return TypeMatch(t.id, fits[0].id, 0.8, "interface made a delegate named after its one method",
                     (f"{method.name} -> delegate {pascal}", f"{len(method.params)} parameters",
                      f"nested in {outer.split(':', 1)[1]}" if outer else f"namespace {namespace}"))


def _by_name(t: TypeDecl, names: TargetNames, namespace_map: dict[str, str], fwd: dict[str, str]
             ) -> TypeMatch | str:
    cands, conf, reason = names.candidates(t)
    outer = fwd.get(t.outer_id or "")
    if outer and not any(c.outer_id == outer for c in cands):
        nested = [c for c in names.simple.get(t.name, []) if c.outer_id == outer and c.kind in KINDS.get(t.kind, ())]
        if len(nested) == 1:               # its outer type renamed (`FooTest.Case` -> `TestFoo.Case`)
            return TypeMatch(t.id, nested[0].id, 0.9, f"same name, nested in {outer.split(':')[1]}, "
                                                      "its outer type's counterpart")
    if not cands:
        return "no C# type with this name"
    expected_ns = namespace_map.get(t.container)
    in_outer = [c for c in cands if outer and c.outer_id == outer]
    in_ns = [c for c in cands if c.container == expected_ns]
    if len(in_outer) == 1:
        return TypeMatch(t.id, in_outer[0].id, round(conf, 3), f"{reason}, nested in {outer.split(':')[1]}")
    if len(in_ns) == 1:
        return TypeMatch(t.id, in_ns[0].id, round(conf, 3), f"{reason}, namespace {expected_ns}")
    if len(cands) == 1:
        return TypeMatch(t.id, cands[0].id, round(conf * 0.8, 3),
                         f"{reason}, only candidate (namespace {cands[0].container} not the package's majority)")
    near = closest(in_ns or cands, t.container)
    if len(near) == 1:
        return TypeMatch(t.id, near[0].id, round(conf * 0.8, 3),
                         f"{reason}, namespace {near[0].container} closest to the package")
    return "ambiguous: " + ", ".join(sorted(c.id for c in cands))


def type_words(t: TypeDecl, methods: list[Method]) -> set[str]:
    """A type's member names (member_words) and enum constants, case-folded."""
    return member_words(methods) | {c.lower() for c in t.enum_constants}


def member_words(methods: list[Method]) -> set[str]:
    """Member names without accessor prefixes, case-folded (constructors left out)."""
    out = set()
    for m in methods:
        if m.kind in ("constructor", "indexer"):
            continue
        name = m.name.rsplit(".", 1)[-1]
        for prefix in ("get", "set", "is", "has", "Get", "Set", "Is", "Has"):
            if name.startswith(prefix) and name[len(prefix):][:1].isupper():
                name = name[len(prefix):]
                break
        out.add(name.lower())
    return out


class _MemberIndex:
    """Free C# types by the member names they declare, for the member-overlap round."""

    def __init__(self, free: list[TypeDecl], members: dict[str, list[Method]]):
        self.types = {c.id: c for c in free}
        self.words = {c.id: type_words(c, members.get(c.id, [])) for c in free}
        self.by_ns: dict[str, set[str]] = defaultdict(set)
        for c in free:
            self.by_ns[c.container].add(c.id)
        self.by_word: dict[tuple[str, str], set[str]] = defaultdict(set)     # (namespace, word) -> type ids
        for cid, words in self.words.items():
            for w in words:
                self.by_word[(self.types[cid].container, w)].add(cid)

    def remove(self, cid: str) -> None:
        for w in self.words.pop(cid, ()):
            self.by_word[(self.types[cid].container, w)].discard(cid)
        self.by_ns[self.types[cid].container].discard(cid)

    def _affixed(self, t: TypeDecl, words: set[str], ns: str) -> TypeMatch | None:
        """The one free C# type in the namespace named the Java name plus a word before or after it
        (`Writer` -> `WriterBase`, `ZXingWriter`) whose members, if both have some, mostly agree."""
        hits = []
        for cid in self.by_ns.get(ns, ()):
            c = self.types[cid]
            if c.outer_id is not None or c.kind not in KINDS.get(t.kind, ()) or len(c.name) <= len(t.name):
                continue
            if (c.name.startswith(t.name) and c.name[len(t.name)].isupper()) or \
                    (c.name.endswith(t.name) and c.name[0].isupper() and t.name[0].isupper()):
                hits.append(c)
        if len(hits) != 1:
            return None
        c = hits[0]
        theirs = self.words[c.id]
        share = len(words & theirs) / len(words) if words else 0.0
        if len(words) >= MIN_OVERLAP_MEMBERS and len(theirs) >= MIN_OVERLAP_MEMBERS and share < 0.5:
            return None
        return TypeMatch(t.id, c.id, 0.7, f"renamed with an added word, namespace {ns}",
                         (f"member overlap {share:.2f} of {len(words)} member names",) if words else ())

    def best(self, t: TypeDecl, words: set[str], namespace_map: dict[str, str]) -> TypeMatch | None:
        """The one free C# type of a compatible kind, in the namespace the Java package maps to, whose
        members carry most of the Java type's member names."""
        expected_ns = namespace_map.get(t.container)
        if expected_ns is None:
            return None
        affixed = self._affixed(t, words, expected_ns)
        if affixed is not None or len(words) < MIN_OVERLAP_MEMBERS:
            return affixed
        shared = Counter(cid for w in words for cid in self.by_word.get((expected_ns, w), ()))
        scored = []
        for cid, n in shared.items():
            c = self.types[cid]
            if n / len(words) < MIN_MEMBER_OVERLAP or n / len(self.words[cid]) < MIN_MEMBER_OVERLAP / 2:
                continue
            if c.kind in KINDS.get(t.kind, ()):
                scored.append((n / len(words), c))
        if not scored:
            return self._older_port(t, words, shared)
        if len(scored) != 1:
            return None
        share, c = scored[0]
        return TypeMatch(t.id, c.id, round(0.7 * share, 3), f"member overlap, namespace {c.container}",
                         (f"member overlap {share:.2f} of {len(words)} member names",))

    def _older_port(self, t: TypeDecl, words: set[str], shared: Counter) -> TypeMatch | None:
        """The one free C# type most of whose member names the Java type has (MIN_MEMBER_OVERLAP of them, at
        least MIN_OLDER_SHARED), named with half of its words at least (case aside): the port of an older,
        smaller version (javaewah's EWAHCompressedBitmap -> csharpewah's EwahCompressedBitArray)."""
        fits = []
        for cid, n in shared.items():
            c = self.types[cid]
            if n >= MIN_OLDER_SHARED and n / len(self.words[cid]) >= MIN_MEMBER_OVERLAP \
                    and c.kind in KINDS.get(t.kind, ()) and dice(name_words(t.name), name_words(c.name)) >= 0.5:
                fits.append((n, c))
        if len(fits) != 1:
            return None
        n, c = fits[0]
        return TypeMatch(t.id, c.id, 0.6, f"an older port's type, namespace {c.container}",
                         (f"{n} of its {len(self.words[c.id])} member names are the Java type's",
                          f"name words {', '.join(sorted(name_words(t.name) & name_words(c.name)))}"))
