"""Static reachability over the index's target members: which members a test's code can reach.

A test reaches a member when its identifiers, followed through the bodies of the members they reach,
name it: a method or property by its name, when a type of the member's family (its declaring type,
that type's supertypes and subtypes) is named somewhere on the way (so `git.Pull().Call()` reaches
PullCommand.Call: Pull's return type and the `new PullCommand` in its body are on the way); a
constructor by `new Type` (and the base constructors it chains to); a type's field types and
initialisers (a static initializer) when any of its members is reached; an indexer when its type is
named; an extension method by its name alone.

Dispatch is class-hierarchy analysis on the types named: a member reached through its own type or a
supertype (a receiver of that static type, which may hold any subtype) names its type, so its overrides
follow; a member reached only through a subtype that inherits it (`new A().Run()` running Base.Run)
runs on that subtype's objects: it does not name its own type, and the overrides of its siblings
(B.Step beside A.Step) are not reached through it. A base constructor reached by chaining is such a
member too. Receivers' declared types (locals, parameters, fields, return types) are named on the way.

Types are identities, not simple names: each type named in a member's code (or a test fixture's) is
bound from that code's scope by index.typename (nested types, namespaces, usings, aliases, `using
static`, qualified chains), so a test of ZXing.QrCode's Decoder does not reach ZXing.Aztec's. A name
those rules do not bind falls back to every project type of its simple name (counted in
`TypeNames.fallbacks`). Families and overrides follow `Index.supertypes` and `Index.subtypes`.
"""
from __future__ import annotations

import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable

from repotrans.index.model import Method, TypeDecl
from repotrans.index.typename import TypeNames, simple_name

_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|@"(?:[^"]|"")*"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NEW = re.compile(r"\bnew\s+((?:[A-Za-z_]\w*\s*::\s*)?(?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*)")
_CHAIN = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*\s*::\s*)?[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)+")


@dataclass
class CallGraph:
    """The target's members as a call graph over names and bound types (see the module doc). Tokens are
    identifiers (member names), type ids ("target:Ns.T") and "new <type id>"."""
    by_name: dict[str, list[str]] = field(default_factory=dict)      # token -> member ids it may name
    name_of: dict[str, str] = field(default_factory=dict)            # member id -> its token
    tokens: dict[str, frozenset[str]] = field(default_factory=dict)  # member id -> tokens it reaches onwards
    family: dict[str, frozenset[str]] = field(default_factory=dict)  # member id -> type ids that admit it
    overriders: dict[str, list[str]] = field(default_factory=dict)   # member id -> same-name members in subtypes
    own: dict[str, str] = field(default_factory=dict)                # member id -> its declaring type's id
    upward: dict[str, frozenset[str]] = field(default_factory=dict)  # member id -> its type and supertypes
    _grouped: "_Groups | None" = field(default=None, repr=False, compare=False)

    def reach(self, start: set[str]) -> set[str]:
        """The member ids reachable from the tokens in `start` (a test's, see Reachability.start_tokens)."""
        return set(self.distances(start))

    def distances(self, start: set[str]) -> dict[str, int]:
        """The member ids reachable from the tokens in `start`, each with the fewest calls between the
        start and it (reach_all of one start set)."""
        return {mid: level for mid, parts in self.reach_all([start]).items() for level, _ in parts}

    def reach_all(self, starts: list[set[str]]) -> dict[str, list[tuple[int, int]]]:
        """Every start set's reach at once: member id -> [(calls, bitmask of the start sets, bit i for
        starts[i], that reach it with that many calls and no fewer)]. Level by level: at level L a member is
        reached by the start sets that named its token and (a method or property) a type of its family by
        level L-1 (1: the start names both); its tokens are then named at level L. Reached through its own
        type or a supertype (one named by level L-1), or as a constructor by `new`, it is whole: its type is
        named and its overrides are reached with it; else (a subtype that inherits it, a chained base
        constructor) neither. A member keeps its first level and its first way (whole or not)."""
        tok: dict[str, int] = defaultdict(int)            # token -> start sets that named it by now
        new: dict[str, int] = defaultdict(int)            # token -> start sets that named it at the last level
        for i, start in enumerate(starts):
            for token in start:
                new[token] |= 1 << i
        groups = self._groups()
        mask = [0] * len(groups.types)                    # group -> start sets that named one of its types
        seen: dict[str, int] = defaultdict(int)           # member -> start sets that reached it
        found: dict[str, list[tuple[int, int]]] = defaultdict(list)
        level = 0
        while new:
            level += 1
            todo: set[str] = set()
            for token, bits in new.items():
                tok[token] |= bits
                todo.update(self.by_name.get(token, ()))
                for g in groups.holding.get(token, ()):
                    if bits & ~mask[g]:
                        mask[g] |= bits
                        todo.update(groups.gated.get(g, ()))
            named: dict[str, int] = {}                     # token -> start sets naming it at this level
            for mid in sorted(todo):
                token = self.name_of[mid]
                if token.startswith("new "):
                    whole = tok.get(token, 0)
                    bits = whole | tok.get("base " + token[4:], 0)
                elif mid in groups.family:
                    bits = tok.get(token, 0) & mask[groups.family[mid]]
                    whole = mask[groups.upward[mid]]
                else:
                    bits, whole = tok.get(token, 0), -1
                self._visit(mid, bits, whole, level, seen, found, named)
            new = {}
            for token, bits in named.items():
                bits &= ~tok.get(token, 0)
                if bits:
                    new[token] = bits
        return found

    def _visit(self, mid: str, bits: int, whole: int, level: int, seen: dict[str, int],
               found: dict[str, list[tuple[int, int]]], named: dict[str, int]) -> None:
        """Reach `mid` for the start sets `bits` not there yet (`whole`: those reaching it whole), at `level`:
        its tokens are named for them (in `named`, this level's; reach_all keeps for the next level the start
        sets that had not named a token before), its type and overrides for the whole."""
        todo = [(mid, bits, whole)]
        while todo:
            cur, bits, whole = todo.pop()
            bits &= ~seen[cur]
            if not bits:
                continue
            seen[cur] |= bits
            found[cur].append((level, bits))
            for token in self.tokens.get(cur, ()):
                named[token] = named.get(token, 0) | bits
            bits &= whole
            if bits:
                token = self.own.get(cur, "")
                named[token] = named.get(token, 0) | bits
                todo += [(o, bits, -1) for o in self.overriders.get(cur, [])]

    def _groups(self) -> "_Groups":
        """The families and upward sets as numbered groups (members share them by content), built once."""
        if self._grouped is None:
            self._grouped = _Groups.of(self)
        return self._grouped


@dataclass
class _Groups:
    """Type sets that gate members: a member's family (one of its types named: it may be reached) and its
    upward set (its type or a supertype named: reached whole), each numbered once by content."""
    types: list[frozenset[str]] = field(default_factory=list)         # group -> its type ids
    holding: dict[str, list[int]] = field(default_factory=dict)       # type id -> the groups holding it
    gated: dict[int, list[str]] = field(default_factory=dict)         # group -> members it is the family of
    family: dict[str, int] = field(default_factory=dict)              # member -> its family's group
    upward: dict[str, int] = field(default_factory=dict)              # member -> its upward set's group

    @classmethod
    def of(cls, graph: "CallGraph") -> "_Groups":
        out = cls()
        number: dict[frozenset[str], int] = {}

        def group(types: frozenset[str]) -> int:
            if types not in number:
                number[types] = len(out.types)
                out.types.append(types)
                for t in sorted(types):
                    out.holding.setdefault(t, []).append(number[types])
            return number[types]

        for mid, fam in graph.family.items():
            if fam and not graph.name_of[mid].startswith("new "):
                out.family[mid] = group(fam)
                out.gated.setdefault(out.family[mid], []).append(mid)
                out.upward[mid] = group(graph.upward.get(mid, fam))
        return out


def build_graph(index, names: TypeNames | None = None, skip_paths: set[str] = frozenset()) -> CallGraph:
    """The call graph of the index's target members (members in files under `skip_paths` prefixes, the
    test projects, are left out: a test's own helpers are followed by the fixture scan)."""
    names = names or TypeNames(index)
    methods = [m for m in index.all_methods("target") if not any(m.path.startswith(p) for p in skip_paths)]
    kept = {m.type_id: names.type(m.type_id) for m in methods}
    supers = {tid: [s.id for s in index.supertypes(t)] for tid, t in kept.items() if t is not None}   # per type,
    subs = {tid: [s.id for s in index.subtypes(t)] for tid, t in kept.items() if t is not None}       # not member
    fams = {tid: frozenset([tid, *supers[tid], *subs[tid]]) for tid in supers}
    inits = {tid: mentions(names, t, " ".join(f"{f.type} {f.initializer or ''}" for f in index.fields(tid)))
             for tid, t in kept.items()}
    graph = CallGraph()
    by_type_name: dict[tuple[str, str], list[str]] = defaultdict(list)
    for m in methods:
        t = kept[m.type_id]
        if m.kind == "constructor":
            token, fam = f"new {m.type_id}", frozenset()
        elif m.kind == "indexer":
            token, fam = m.type_id, frozenset()
        else:
            token = m.name.rsplit(".", 1)[-1]
            fam = frozenset() if _extension(m) else fams.get(m.type_id, frozenset({m.type_id}))
        graph.name_of[m.id], graph.family[m.id] = token, fam
        graph.by_name.setdefault(token, []).append(m.id)
        if m.kind == "constructor":
            graph.by_name.setdefault(f"base {m.type_id}", []).append(m.id)
        graph.own[m.id] = m.type_id
        graph.upward[m.id] = frozenset([m.type_id, *supers.get(m.type_id, ())])
        written = " ".join([m.body or "", m.return_type or ""] + [p.type for p in m.params])
        onward = mentions(names, t, written) | inits[m.type_id]
        if t is not None:
            onward |= names.using_static(t)
            if m.kind == "constructor":
                onward |= {f"base {sid}" for sid in supers[m.type_id]}
        graph.tokens[m.id] = frozenset(onward - {""})
        by_type_name[(m.type_id, token)].append(m.id)
    for m in methods:
        t = kept[m.type_id]
        if m.kind in ("method", "property") and t is not None:
            token = graph.name_of[m.id]
            graph.overriders[m.id] = [o for sub in subs[m.type_id] for o in by_type_name.get((sub, token), [])]
    return graph


def mentions(names: TypeNames, scope: TypeDecl | None, text: str) -> set[str]:
    """The tokens of code written in `scope`: its identifiers, the ids of the types they and its dotted
    chains bind to, and "new <type id>" per creation (comments and string literals left out)."""
    code = _COMMENT_OR_STRING.sub(" ", text)
    idents = set(_IDENT.findall(code))
    chained = qualified_types(names, scope, code)
    found = set(idents) | {tid for _, tid in chained}
    found |= bind_names(names, scope, idents, chained)
    for created in {re.sub(r"\s", "", n) for n in _NEW.findall(code)}:
        found |= {f"new {tid}" for tid in names.bind(scope, created)}
    return found


def qualified_types(names: TypeNames, scope: TypeDecl | None, code: str) -> list[tuple[str, str]]:
    """(last identifier, type id) of each dotted chain in `code` (or a prefix of it) that binds to a
    project type from `scope` ("Internal.Encoder", "Version.ECB", "global::A.B")."""
    found = []
    for chain in {re.sub(r"\s", "", c) for c in _CHAIN.findall(code)}:
        parts = chain.split(".")
        found += [(parts[i - 1], tid) for i in range(2, len(parts) + 1) if names.known(parts[i - 1])
                  for tid in names.bind(scope, ".".join(parts[:i]), strict=True)]
    return found


def bind_names(names: TypeNames, scope: TypeDecl | None, idents: set[str],
               chained: list[tuple[str, str]]) -> set[str]:
    """The type ids the identifiers `idents` of code in `scope` denote: each as C# binds it; one the
    rules do not bind alone but a dotted chain of the same code ends with (`new Version.ECB(3)`) is that
    chain's type; else every type of its simple name (TypeNames.bind's fallback)."""
    by_last: dict[str, set[str]] = defaultdict(set)
    for last, tid in chained:
        by_last[last].add(tid)
    found: set[str] = set()
    trusted = names.complete(scope)
    for ident in idents:
        if not names.known(ident):
            continue
        exact = names.bind(scope, ident, strict=True) if trusted else frozenset()
        found |= exact or (by_last[ident] if trusted and ident in by_last else names.bind(scope, ident))
    return found


def body_tokens(text: str) -> set[str]:
    """Identifiers of code (comments and string literals left out), plus "new <Type>" per creation,
    by simple name (what selection's name walk matches)."""
    code = _COMMENT_OR_STRING.sub(" ", text)
    return set(_IDENT.findall(code)) | {"new " + simple_name(n) for n in _NEW.findall(code)}


def _extension(m: Method) -> bool:
    return "static" in m.modifiers and m.kind == "method" and bool(m.params) and \
        re.search(r"\(\s*this\s", m.signature) is not None


class Reachability:
    """The call graph of an index's target as its files are now (built again when a file changes), and
    what each start set reaches on it (memoised for that state). An instance belongs to one runner or
    schemata build; never a module global."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._graph: CallGraph | None = None
        self._names: TypeNames | None = None
        self._bound = None                   # the Index object _names reads
        self._searches = _Searches()
        self._chains: dict[str, list[tuple[str, str]]] = {}
        self._all = threading.Lock()         # one reach_all of a state at a time (the others wait for it)

    def reaching(self, index, starts: list[tuple[frozenset[str], tuple[str, ...]]]) -> Callable[[str], dict[int, int]]:
        """The start sets `starts` (a test's identifiers; the qualified names of the classes they are written
        in: the fixture and the fixtures it derives from, none known: every type name falls back to its simple
        name) all at once, on the index's target as it is now (CallGraph.reach_all of the token sets not
        searched on this state yet: a question about fewer tests, after a build quarantined some, searches
        nothing again): a function from a member id to {i: the fewest calls between starts[i] and it}, for each
        start set reaching it."""
        graph, names, searches = self._state(index)
        with self._all:
            for start in starts:
                if start not in searches.tokens:
                    searches.tokens[start] = frozenset(self._start_tokens(index, names, *start))
            tokens = [searches.tokens[start] for start in starts]
            searches.search(graph, tokens)
        return searches.answer(tokens)

    def type_names(self, index) -> TypeNames:
        """The binder of the current state (its `fallbacks` say how often a name fell back)."""
        return self._state(index)[1]

    def _state(self, index) -> tuple[CallGraph, TypeNames, "_Searches"]:
        """The graph and memo of the target's state (its files' contents), and a binder over `index` itself:
        the binder reads its index later, so one kept from another Index object over the same files (a
        stage's own, or a group's scratch copy, closed since) is never handed out."""
        key = tuple((f.path, f.sha256) for f in index.files("target"))
        with self._lock:
            if key != self._key:
                names = TypeNames(index)
                self._key, self._graph, self._names, self._searches, self._chains = \
                    key, build_graph(index, names), names, _Searches(), {}
            elif self._bound is not index:
                self._names = TypeNames(index)
            self._bound = index
            return self._graph, self._names, self._searches

    def _start_tokens(self, index, names: TypeNames, start: frozenset[str], scopes: tuple[str, ...]) -> set[str]:
        """A test's identifiers with the type ids they bind to from its fixture classes (and "new <id>"
        for its creations; the fixture scan keeps a creation's simple name)."""
        decls = [d for d in (names.type(f"target:{s}") for s in scopes) if d is not None] or [None]
        out = set(start)
        plain = {t for t in start if not t.startswith("new ")}
        created = {t[4:] for t in start if t.startswith("new ")}
        for d in decls:
            chained = [(last, tid) for last, tid in self._qualified(index, names, d) if last in start or
                       last in created] if d is not None else []
            out |= {tid for last, tid in chained if last in start}
            out |= bind_names(names, d, plain, chained)
            out |= {f"new {tid}" for tid in bind_names(names, d, created, chained)}
            out |= names.using_static(d) if d is not None else set()
        return out

    def _qualified(self, index, names: TypeNames, decl: TypeDecl) -> list[tuple[str, str]]:
        """qualified_types of a fixture class's text (`new Ns.Other.T()` in a file whose usings see
        another T), read once per state."""
        found = self._chains.get(decl.id)
        if found is None:
            try:
                lines = (index.root("target") / decl.path).read_text(errors="replace").splitlines()
            except OSError:
                lines = []
            code = _COMMENT_OR_STRING.sub(" ", "\n".join(lines[decl.start_line - 1:decl.end_line]))
            found = self._chains[decl.id] = qualified_types(names, decl, code)
        return found


def reaching_tests(fixtures: dict[str, dict],
                   reaching: Callable[[list[tuple[frozenset[str], tuple[str, ...]]]], Callable[[str], dict[int, int]]],
                   member_id: str, own_type: str = "") -> tuple[list[str], int, int]:
    """Test ids whose static reach includes `member_id`: a whole fixture ("<project>:<Ns.Fixture>") when
    its per-test plumbing (with the tests and plumbing of the fixtures it derives from: an abstract
    base's tests run as the derived fixture's) reaches it, else each of its tests that does. `reaching`
    takes every start set (identifiers, the qualified names of the classes they are written in) at once
    and answers, for a member, the fewest calls from each start set reaching it (Reachability.reaching:
    one search of the call graph for all tests, then a look-up per member). Nearest first: fixtures by
    their nearest test, then their tests by distance (a failing candidate fails in the first tests run);
    among fixtures as near, those named after the member's `own_type` (its unit tests: TestBitField,
    BitFieldTests) first. Returns (tests, fixtures used, test methods selected)."""
    by_simple: dict[tuple[str, str], str] = {}
    for key in fixtures:
        project, name = key.split(":", 1)
        by_simple[(project, name.replace("+", ".").rsplit(".", 1)[-1])] = key
    starts: list[tuple[frozenset[str], tuple[str, ...]]] = []
    entries: list[tuple[str, dict, int, list[tuple[str, int]]]] = []   # fixture, its plumbing's start, its tests'
    for key, fx in sorted(fixtures.items()):
        if fx["abstract"]:
            continue
        bases, inherited = _inherited(key, fixtures, by_simple)
        scopes = tuple(k.split(":", 1)[1].replace("+", ".") for k in [key] + bases)
        shared = set(fx["shared"]) | inherited
        tests = []
        starts.append((frozenset(shared), scopes))
        for test, idents in sorted(fx["tests"].items()):
            tests.append((test, len(starts)))
            starts.append((frozenset(set(idents) | shared), scopes))
        entries.append((key, fx, len(starts) - len(tests) - 1, tests))
    calls = reaching(starts)(member_id) if starts else {}
    groups: list[tuple[int, str, list[str]]] = []      # (nearest distance, fixture, its tests nearest first)
    used = size = 0
    for key, fx, whole, tests in entries:
        if whole in calls:
            groups.append((calls[whole], key, [key]))
            used += 1
            size += max(1, len(fx["tests"]))
            continue
        near = sorted((calls[i], f"{key}.{test}") for test, i in tests if i in calls)
        if near:
            groups.append((near[0][0], key, [test for _, test in near]))
        used += bool(near)
        size += len(near)
    def named_after(key: str) -> bool:
        return bool(own_type) and own_type in key.split(":", 1)[1].replace("+", ".").rsplit(".", 1)[-1]

    picked = [test for _, _, tests in sorted(groups, key=lambda g: (g[0], not named_after(g[1]), g[1]))
              for test in tests]
    return picked, used, size


class _Searches:
    """Every start token set searched on one state, each a bit of one reach_all (tests with the same tokens share
    one), and each search's answer per member, decoded once."""

    def __init__(self) -> None:
        self.tokens: dict[tuple, frozenset[str]] = {}               # a start (identifiers, scopes) -> its tokens
        self._at: dict[frozenset[str], tuple[int, int]] = {}        # token set -> (search, its bit)
        self._found: list[dict[str, list[tuple[int, int]]]] = []    # per search: reach_all's answer
        self._decoded: dict[tuple[int, str], dict[int, int]] = {}   # (search, member) -> {bit: calls}

    def search(self, graph: CallGraph, tokens: list[frozenset[str]]) -> None:
        """reach_all of the token sets among `tokens` not searched yet (the caller holds the state's lock)."""
        missing = [t for t in dict.fromkeys(tokens) if t not in self._at]
        if missing:
            self._found.append(graph.reach_all([set(t) for t in missing]))
            self._at.update({t: (len(self._found) - 1, bit) for bit, t in enumerate(missing)})

    def answer(self, tokens: list[frozenset[str]]) -> Callable[[str], dict[int, int]]:
        """Member id -> {i: the fewest calls between tokens[i] and it}, for each token set reaching it."""
        slots = [self._at[t] for t in tokens]

        def calls(member_id: str) -> dict[int, int]:
            out = {}
            for i, (search, bit) in enumerate(slots):
                level = self._decode(search, member_id).get(bit)
                if level is not None:
                    out[i] = level
            return out
        return calls

    def _decode(self, search: int, member_id: str) -> dict[int, int]:
        out = self._decoded.get((search, member_id))
        if out is None:
            out = {}
            for level, bits in self._found[search].get(member_id, ()):
                while bits:
                    low = bits & -bits
                    out[low.bit_length() - 1] = level
                    bits ^= low
            self._decoded[(search, member_id)] = out
        return out


def _inherited(key: str, fixtures: dict[str, dict],
               by_simple: dict[tuple[str, str], str]) -> tuple[list[str], set[str]]:
    """The fixtures `key` derives from (transitively, by simple name in its project: the fixture scan
    keeps bases as written) and their identifiers."""
    project = key.split(":", 1)[0]
    found: set[str] = set()
    seen = {key}
    todo = list(fixtures[key].get("bases", []))
    while todo:
        base = by_simple.get((project, todo.pop()))
        if base is None or base in seen:
            continue
        seen.add(base)
        fx = fixtures[base]
        found |= set(fx["shared"]) | {i for idents in fx["tests"].values() for i in idents}
        todo += fx.get("bases", [])
    return sorted(seen - {key}), found
