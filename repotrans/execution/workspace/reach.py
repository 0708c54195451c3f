"""Static reachability over the index's target members: which members a test's code can reach (issue 35).

A test reaches a member when its identifiers, followed through the bodies of the members they reach,
name it: a method or property by its name, when a type of the member's family (its declaring type,
that type's supertypes and subtypes) is named somewhere on the way (so `git.Pull().Call()` reaches
PullCommand.Call: Pull's return type and the `new PullCommand` in its body are on the way); a
constructor by `new Type` (and the base constructors it chains to); a reached virtual member reaches
its overrides in subtypes; a type's field initialisers (a static initializer) when any of its members
is reached; an indexer when its type is named; an extension method by its name alone.

Only the target's members are followed; the walk over a type's supertypes and subtypes is `family`,
the one place that would switch to the index's own subtype walk.
"""
from __future__ import annotations

import re
import threading
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Callable

from repotrans.index.model import Method, TypeDecl

_COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|@"(?:[^"]|"")*"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_NEW = re.compile(r"\bnew\s+((?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*)")
_GENERIC = re.compile(r"<[^<>]*>")


@dataclass
class CallGraph:
    """The target's members as a name-resolved call graph (see the module doc)."""
    by_name: dict[str, list[str]] = field(default_factory=dict)      # token -> member ids it may name
    name_of: dict[str, str] = field(default_factory=dict)            # member id -> its token
    tokens: dict[str, frozenset[str]] = field(default_factory=dict)  # member id -> names it reaches onwards
    family: dict[str, frozenset[str]] = field(default_factory=dict)  # member id -> type names that admit it
    overriders: dict[str, list[str]] = field(default_factory=dict)   # member id -> same-name members in subtypes

    def reach(self, start: set[str]) -> set[str]:
        """The member ids reachable from the names in `start` (a test's identifiers)."""
        names: set[str] = set()
        reached: set[str] = set()
        waiting: dict[str, list[str]] = defaultdict(list)     # type name -> members waiting for it
        queue: deque[str] = deque()

        def add(name: str) -> None:
            if name not in names:
                names.add(name)
                queue.append(name)

        def visit(mid: str) -> None:
            todo = [mid]
            while todo:
                cur = todo.pop()
                if cur in reached:
                    continue
                reached.add(cur)
                for token in self.tokens.get(cur, ()):
                    add(token)
                todo += self.overriders.get(cur, [])

        for name in start:
            add(name)
        while queue:
            name = queue.popleft()
            for mid in self.by_name.get(name, ()):
                if mid in reached:
                    continue
                fam = self.family[mid]
                if not fam or fam & names:
                    visit(mid)
                else:
                    for type_name in fam:
                        waiting[type_name].append(mid)
            for mid in waiting.pop(name, ()):
                if mid not in reached and self.name_of[mid] in names:
                    visit(mid)
        return reached


def family(types: dict[str, TypeDecl], supertypes: dict[str, list[TypeDecl]], type_id: str) -> set[str]:
    """Simple names of `type_id`'s type, its supertypes and its subtypes (transitively) in the index."""
    t = types.get(type_id)
    if t is None:
        return set()
    names = {t.name} | {s.name for s in supertypes.get(type_id, [])}
    names |= {types[sub].name for sub, ups in supertypes.items() if any(u.id == type_id for u in ups)}
    return names


def build_graph(index, skip_paths: set[str] = frozenset()) -> CallGraph:
    """The call graph of the index's target members (members in files under `skip_paths` prefixes, the
    test projects, are left out: a test's own helpers are followed by the fixture scan)."""
    types = {t.id: t for t in index.types("target")}
    supertypes = {tid: index.supertypes(t) for tid, t in types.items()}
    methods = [m for m in index.all_methods("target") if not any(m.path.startswith(p) for p in skip_paths)]
    kept_types = {m.type_id for m in methods}
    fams = {tid: frozenset(family(types, supertypes, tid)) for tid in kept_types}
    inits: dict[str, set[str]] = {}
    for tid in kept_types:
        for f in index.fields(tid):
            inits.setdefault(tid, set()).update(body_tokens(f.initializer or ""))
    graph = CallGraph()
    by_type_name: dict[tuple[str, str], list[str]] = defaultdict(list)
    for m in methods:
        t = types.get(m.type_id)
        own = t.name if t is not None else _simple(m.type_id)
        if m.kind == "constructor":
            token, fam = f"new {own}", frozenset()
        elif m.kind == "indexer":
            token, fam = own, frozenset()
        else:
            token = m.name.rsplit(".", 1)[-1]
            fam = frozenset() if _extension(m) else fams.get(m.type_id, frozenset({own}))
        graph.name_of[m.id], graph.family[m.id] = token, fam
        graph.by_name.setdefault(token, []).append(m.id)
        onward = body_tokens(m.body or "") | inits.get(m.type_id, set()) | {own}
        onward |= {_simple(m.return_type)} if m.return_type else set()
        onward |= {_simple(p.type) for p in m.params}
        if m.kind == "constructor" and t is not None:
            onward |= {f"new {s.name}" for s in supertypes.get(t.id, [])}
        graph.tokens[m.id] = frozenset(onward - {""})
        by_type_name[(m.type_id, token)].append(m.id)
    for m in methods:
        if m.kind in ("method", "property") and m.type_id in types:
            token = graph.name_of[m.id]
            graph.overriders[m.id] = [o for sub, ups in supertypes.items() if any(u.id == m.type_id for u in ups)
                                      for o in by_type_name.get((sub, token), [])]
    return graph


def body_tokens(text: str) -> set[str]:
    """Identifiers of code (comments and string literals left out), plus "new <Type>" per creation."""
    code = _COMMENT_OR_STRING.sub(" ", text)
    found = set(_IDENT.findall(code))
    found |= {"new " + re.sub(r"\s", "", n).rsplit(".", 1)[-1] for n in _NEW.findall(code)}
    return found


def _extension(m: Method) -> bool:
    return "static" in m.modifiers and m.kind == "method" and bool(m.params) and \
        re.search(r"\(\s*this\s", m.signature) is not None


def _simple(type_name: str) -> str:
    name = type_name.split(":", 1)[-1]
    while _GENERIC.search(name):
        name = _GENERIC.sub("", name)
    name = name.replace("[]", "").replace("?", "").strip()
    return name.rsplit(".", 1)[-1].strip()


class Reachability:
    """The call graph of an index's target as its files are now (built again when a file changes), and
    what each start set reaches on it (memoised for that state). An instance belongs to one runner or
    schemata build; never a module global."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._graph: CallGraph | None = None
        self._memo: dict[frozenset[str], frozenset[str]] = {}

    def reached(self, index, start: frozenset[str]) -> frozenset[str]:
        """Member ids reachable from `start` on the index's target as it is now."""
        key = tuple((f.path, f.sha256) for f in index.files("target"))
        with self._lock:
            if key != self._key:
                self._key, self._graph, self._memo = key, build_graph(index), {}
            graph, memo = self._graph, self._memo
        found = memo.get(start)
        if found is None:
            found = memo[start] = frozenset(graph.reach(set(start)))
        return found


def reaching_tests(fixtures: dict[str, dict], reached: Callable[[frozenset[str]], frozenset[str]],
                   member_id: str) -> tuple[list[str], int, int]:
    """Test ids whose static reach includes `member_id`: a whole fixture ("<project>:<Ns.Fixture>") when
    its per-test plumbing (with the tests and plumbing of the fixtures it derives from: an abstract
    base's tests run as the derived fixture's) reaches it, else each of its tests that does. Returns
    (tests, fixtures used, test methods selected)."""
    by_simple: dict[tuple[str, str], str] = {}
    for key in fixtures:
        project, name = key.split(":", 1)
        by_simple[(project, name.replace("+", ".").rsplit(".", 1)[-1])] = key
    picked: list[str] = []
    used = size = 0
    for key, fx in sorted(fixtures.items()):
        if fx["abstract"]:
            continue
        shared = set(fx["shared"]) | _inherited(key, fixtures, by_simple)
        if member_id in reached(frozenset(shared)):
            picked.append(key)
            used += 1
            size += max(1, len(fx["tests"]))
            continue
        tests = [f"{key}.{test}" for test, idents in sorted(fx["tests"].items())
                 if member_id in reached(frozenset(set(idents) | shared))]
        picked += tests
        used += bool(tests)
        size += len(tests)
    return picked, used, size


def _inherited(key: str, fixtures: dict[str, dict], by_simple: dict[tuple[str, str], str]) -> set[str]:
    """Identifiers of the fixtures `key` derives from (transitively, by simple name in its project)."""
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
    return found
