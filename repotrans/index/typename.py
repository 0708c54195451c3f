"""Type names as identities, not strings: a `TypeName` is a type's namespace, its path of enclosing types
and its generic arity; `TypeNames` binds a name written in the target's code (a C# identifier, a dotted
chain, `global::A.B`, `Alias.Inner`, `Box<int>`) to the project types it can denote from one scope.

A name is bound once per (scope type, text) as C# binds it: a type nested in the scope type or in one of
its supertypes, then the rules of `Index.resolve_type` (types nested in enclosing types, the enclosing
namespaces innermost first, using aliases, `using static` types, using namespaces). Only when these
rules bind nothing, or the scope's file was parsed only in part (its usings may be missing), does a name
fall back to every project type of its simple name (and arity, when written): the old simple-name match,
never narrower, and counted in `fallbacks` so that a caller can say how often it happened.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from repotrans.index.model import Side, TypeDecl

_GENERIC = re.compile(r"<[^<>]*>")
_ANNOTATION = re.compile(r"@[\w.]+(?:\([^()]*\))?\s*")


@dataclass(frozen=True)
class TypeName:
    """A type's identity: `namespace` ("" for the global one), `name` (enclosing types and the type,
    '.'-joined: "Outer.Inner") and `arity` (its number of type parameters: Box and Box<T> differ)."""
    namespace: str
    name: str
    arity: int = 0

    @property
    def simple(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    @property
    def qualified(self) -> str:
        return f"{self.namespace}.{self.name}" if self.namespace else self.name

    def type_id(self, side: Side) -> str:
        """The index's id of this type ("target:Ns.Outer.Inner"; the index does not key on arity)."""
        return f"{side}:{self.qualified}"

    @classmethod
    def of(cls, t: TypeDecl) -> TypeName:
        """The TypeName of an indexed type."""
        name = t.qualified_name[len(t.container) + 1:] if t.container else t.qualified_name
        return cls(t.container, name, len(t.type_params))


def written_parts(text: str) -> tuple[list[str], int | None]:
    """A type name as written -> (its segments, the last segment's arity when written):
    "global::A.B<int>.C<K, V>[]?" -> (["A", "B", "C"], 2); "Foo" -> (["Foo"], None)."""
    text = text.split(":", 1)[-1] if text.startswith(("source:", "target:")) else text
    text = text.split("::", 1)[-1].strip()
    tail = re.search(r"<([^<>]*(?:<[^<>]*>[^<>]*)*)>\s*(?:\[[,\s]*\]|\?|\*|\s)*$", text)
    arity = None
    if tail is not None:
        depth, arity = 0, 1
        for ch in tail.group(1):
            depth += ch == "<"
            depth -= ch == ">"
            arity += ch == "," and depth == 0
    while _GENERIC.search(text):
        text = _GENERIC.sub("", text)
    text = re.sub(r"\[[,\s]*\]|\?|\*|\s", "", text)
    return [p for p in text.split(".") if p], arity


def without_annotations(text: str) -> str:
    """A type as written without its annotations: "@NonNull List<@Foo(1) T>" -> "List<T>"."""
    return _ANNOTATION.sub("", text)


def without_type_arguments(text: str) -> str:
    """"Map<K, List<V>>.Entry" -> "Map.Entry": every type argument list removed, innermost first; a
    constructor's "<init>" is kept."""
    text = text.replace("<init>", "\0")
    while (stripped := _GENERIC.sub("", text)) != text:
        text = stripped
    return text.replace("\0", "<init>").strip()


def erased_name(text: str) -> str:
    """"java.util.Map<K, List<V>>" -> "java.util.Map": annotations, type arguments and white space dropped."""
    return re.sub(r"\s+", "", without_type_arguments(without_annotations(text)).split("<", 1)[0])


def simple_name(text: str) -> str:
    """The simple name of a type as written or of a type id: "target:A.B<T>.C[]" -> "C"."""
    parts, _ = written_parts(text)
    return parts[-1] if parts else ""


class TypeNames:
    """Binds names written in one side's code to its project types (see the module doc); one instance per
    index state (answers are memoised per scope and text)."""

    def __init__(self, index, side: Side = "target"):
        self._index, self._side = index, side
        self._types: dict[str, TypeDecl] = {t.id: t for t in index.types(side)}
        self._by_simple: dict[str, list[TypeDecl]] = defaultdict(list)
        for t in self._types.values():
            self._by_simple[t.name].append(t)
        self._partial: set[str] = set()
        self._aliases: dict[str, set[str]] = defaultdict(set)     # using alias -> project types it names
        for f in index.files(side):
            if f.syntax_errors:
                self._partial.add(f.path)
            for imp in f.imports:
                parts, _ = written_parts(imp.name) if imp.alias else ([], None)
                if parts and f"{side}:{'.'.join(parts)}" in self._types:
                    self._aliases[imp.alias].add(f"{side}:{'.'.join(parts)}")
        self._statics: dict[str, frozenset[str]] = {}
        self._memo: dict[tuple[str | None, str, bool], frozenset[str]] = {}
        self.fallbacks: Counter[str] = Counter()      # simple name -> times it fell back
        self.resolved = 0                               # names bound by the rules

    def type(self, type_id: str) -> TypeDecl | None:
        return self._types.get(type_id)

    def known(self, simple: str) -> bool:
        """Whether some project type has this simple name, or some using alias names a project type
        (only such names are worth binding)."""
        return simple in self._by_simple or simple in self._aliases

    def bind(self, scope: TypeDecl | None, text: str, strict: bool = False) -> frozenset[str]:
        """Ids of the project types `text`, written inside `scope` (None: an unknown scope), can denote:
        the one C# binds, else (unbound, or a file parsed in part) every type of that simple name.
        `strict`: only the one C# binds (for a dotted chain, which may as well be a member access whose
        last identifier is bound on its own)."""
        key = (scope.id if scope is not None else None, text, strict)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._bind(scope, text, strict)
        return found

    def complete(self, scope: TypeDecl | None) -> bool:
        """Whether the rules' answers in `scope` are trusted (a known scope in a file parsed whole)."""
        return scope is not None and scope.path not in self._partial

    def using_static(self, scope: TypeDecl) -> frozenset[str]:
        """Ids of the types a `using static` of `scope`'s file brings into scope (their static members are
        called without naming them)."""
        found = self._statics.get(scope.path)
        if found is None:
            info = self._index.file(self._side, scope.path)
            found = frozenset(f"{self._side}:{imp.name}" for imp in (info.imports if info is not None else [])
                              if imp.static and f"{self._side}:{imp.name}" in self._types)
            self._statics[scope.path] = found
        return found

    def _bind(self, scope: TypeDecl | None, text: str, strict: bool) -> frozenset[str]:
        parts, arity = written_parts(text)
        if not parts or (parts[-1] not in self._by_simple and not (len(parts) == 1 and parts[0] in self._aliases)):
            return frozenset()
        found = self._rules(scope, text, parts) if scope is not None else None
        if strict:
            return frozenset({found.id} if found is not None else ())
        if found is not None and scope.path not in self._partial:
            self.resolved += 1
            return frozenset({found.id})
        self.fallbacks[parts[-1]] += 1
        wide = {t.id for t in self._by_simple.get(parts[-1], ()) if arity is None or len(t.type_params) == arity}
        wide |= self._aliases.get(parts[-1], set()) if len(parts) == 1 else set()
        return frozenset(wide | ({found.id} if found is not None else set()))

    def _rules(self, scope: TypeDecl, text: str, parts: list[str]) -> TypeDecl | None:
        """C#'s binding from inside `scope`'s body: its own nested types (and its supertypes') first."""
        if not text.lstrip().startswith("global::"):
            found = self._nested(scope, parts[0])
            for part in parts[1:] if found is not None else ():
                found = self._types.get(f"{found.id}.{part}") if found is not None else None
            if found is not None:
                return found
        return self._index.resolve_type(scope, text)

    def _nested(self, scope: TypeDecl, name: str) -> TypeDecl | None:
        found = self._types.get(f"{scope.id}.{name}")
        if found is None:
            found = next((x for above in self._index.supertypes(scope)
                          if (x := self._types.get(f"{above.id}.{name}")) is not None), None)
        return found
