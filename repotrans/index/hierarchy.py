"""A type's supertypes in the index: each base as written is bound to the declaration its compiler
would bind, then followed upwards (breadth first, nearest first, each type once, so a cycle in broken
code ends). Served by `Index.supertypes` (depth 1: the direct bases), `Index.subtypes` (the same edges
followed downwards), `Index.resolve_type` and `Index.overridden_methods`.

A base's simple name is looked up as Java (JLS 6.4-6.5) and C# (namespace and type names) do:
  1. a type nested in a type enclosing the declaring type, innermost first, or inherited by one;
  2. Java: a single-type import, the declaring type's package, then an on-demand import (`a.b.*`);
     C#: the enclosing namespaces, innermost first, then the file's using aliases, `using static`
     types and using namespaces.
A qualified base (`a.b.Foo`, `Outer.Inner`, `global::A.Foo`, `Alias.Inner`) binds its first segment so,
or is read as fully qualified (C#: also relative to an enclosing namespace or behind a namespace alias).
A name these rules do not bind is not a project type (`java.lang.Exception`, `System.IDisposable`): the
walk stops there, where a lookup by simple name would take any project type that shares the name.
Only in a file tree-sitter parsed in part (its namespace or usings may be missing from the index, as
in Lucene.Net's QueryParser.cs) does a name the rules cannot bind fall back to the one project type
of that simple name.
"""
from __future__ import annotations

import threading
from repotrans.index.model import FileInfo, Method, Side, TypeDecl
from repotrans.index.typename import erased_name



class Hierarchy:
    """Base resolution over one index snapshot (lookup.Snapshot's dicts); each type's direct bases are
    bound once."""

    def __init__(self, types: dict[str, TypeDecl], by_side: dict[Side, list[TypeDecl]],
                 by_name: dict[tuple[Side, str], list[TypeDecl]], files: dict[Side, dict[str, FileInfo]],
                 methods: dict[str, list[Method]]):
        self._types, self._by_side, self._by_name, self._files, self._methods = types, by_side, by_name, files, methods
        self._bases: dict[str, list[TypeDecl]] = {}
        self._local = threading.local()     # per thread: the types whose bases are being bound
        self._known_namespaces: dict[Side, set[str]] = {}
        self._overridden: dict[Side, frozenset[str]] = {}
        self._derived: dict[Side, dict[str, list[TypeDecl]]] = {}

    def supertypes(self, t: TypeDecl, depth: int | None = None) -> list[TypeDecl]:
        """The superclasses and interfaces of `t` in the index, transitively, nearest first (breadth
        first), `t` itself left out; `depth` bounds the levels followed (1: the direct bases)."""
        out: dict[str, TypeDecl] = {}
        level, n = [t], 0
        while level and (depth is None or n < depth):
            n += 1
            upper = []
            for cur in level:
                for base in self.bases(cur):
                    if base.id != t.id and base.id not in out:
                        out[base.id] = base
                        upper.append(base)
            level = upper
        return list(out.values())

    def subtypes(self, t: TypeDecl) -> list[TypeDecl]:
        """The types of `t`'s side deriving from `t` in the index, transitively, nearest first (the
        inverse of `supertypes`, inverted once per snapshot), `t` itself left out."""
        derived = self._derived.get(t.side)
        if derived is None:
            derived = {}
            for sub in self._by_side[t.side]:
                for base in self.bases(sub):
                    derived.setdefault(base.id, []).append(sub)
            self._derived[t.side] = derived
        out: dict[str, TypeDecl] = {}
        level = [t]
        while level:
            lower = []
            for cur in level:
                for sub in derived.get(cur.id, ()):
                    if sub.id != t.id and sub.id not in out:
                        out[sub.id] = sub
                        lower.append(sub)
            level = lower
        return list(out.values())

    def bases(self, t: TypeDecl) -> list[TypeDecl]:
        """`t`'s direct bases in the index, in the order written (one outside the index is left out)."""
        known = self._bases.get(t.id)
        if known is not None:
            return known
        busy = self._busy()
        top = not busy
        busy.add(t.id)
        try:
            out: dict[str, TypeDecl] = {}
            for text in t.bases:
                found = self.resolve_type(t, text)
                if found is not None and found.id != t.id:
                    out.setdefault(found.id, found)
        finally:
            busy.discard(t.id)
        if top:                 # an answer found while another type's bases were half bound may lack a type
            self._bases[t.id] = list(out.values())
        return list(out.values())

    def resolve_type(self, t: TypeDecl, text: str) -> TypeDecl | None:
        """The project type the name `text`, written in `t`'s declaration, binds to; None outside the index."""
        name = erased_name(text)
        if not name:
            return None
        if name.startswith("global::"):
            return self._type(f"{t.side}:{name[len('global::'):]}")
        head, _, rest = name.partition(".")
        head = head.split("::", 1)[-1]
        if rest and t.side == "target":
            namespace = self._namespace_named(t, head)
            if namespace is not None:                  # `A.B.Foo` with a namespace `A` nearer than a type `A`
                return self._type(f"{t.side}:{namespace}.{rest}")
        found = self._simple(t, head)
        for part in rest.split(".") if rest and found is not None else ():
            found = self._type(f"{found.id}.{part}") if found is not None else None
        if found is None and rest:
            found = self._qualified(t, name)
        return found if found is not None else self._by_simple_name(t, name)

    def overridden_methods(self, side: Side) -> frozenset[str]:
        """Ids of the methods of `side` that a subtype in the index declares again (same name and arity),
        walked once per snapshot."""
        found = self._overridden.get(side)
        if found is None:
            out: set[str] = set()
            methods = self._methods
            for t in self._by_side[side]:
                own = {(m.name, len(m.params)) for m in methods.get(t.id, ()) if m.kind == "method"}
                if own:
                    out |= {m.id for base in self.supertypes(t) for m in methods.get(base.id, ())
                            if m.kind == "method" and (m.name, len(m.params)) in own}
            found = self._overridden[side] = frozenset(out)
        return found

    def _busy(self) -> set[str]:
        """The types whose bases this thread is binding: a lookup through one of them stops (a cycle)."""
        busy = getattr(self._local, "busy", None)
        if busy is None:
            busy = self._local.busy = set()
        return busy

    # ---- lookup --------------------------------------------------------------------------------------
    def _type(self, type_id: str) -> TypeDecl | None:
        return self._types.get(type_id)

    def _top(self, side: Side, container: str, name: str) -> TypeDecl | None:
        found = self._type(f"{side}:{container}.{name}" if container else f"{side}:{name}")
        return found if found is not None and found.outer_id is None else None

    def _namespaces(self, side: Side) -> set[str]:
        known = self._known_namespaces.get(side)
        if known is None:
            known = {".".join(parts[:i]) for t in self._by_side[side] if t.container
                     for parts in [t.container.split(".")] for i in range(1, len(parts) + 1)}
            self._known_namespaces[side] = known
        return known

    def _namespace_named(self, t: TypeDecl, head: str) -> str | None:
        """C#: the namespace `head` binds to from `t` when an enclosing namespace holds one of that name
        before any type of that name (C# looks up namespace members, then the usings)."""
        for ns in _enclosing_namespaces(t.container):
            if self._top(t.side, ns, head) is not None:
                return None
            full = f"{ns}.{head}" if ns else head
            if full in self._namespaces(t.side):
                return full
        return None

    def _by_simple_name(self, t: TypeDecl, name: str) -> TypeDecl | None:
        """The one project type of that simple name, when `t`'s file was parsed only in part (its
        namespace or imports may be missing from the index); else None."""
        info = self._files[t.side].get(t.path)
        if info is not None and not info.syntax_errors:
            return None
        found = self._by_name.get((t.side, name.rsplit(".", 1)[-1]), [])
        return found[0] if len(found) == 1 and found[0].id != t.id else None

    def _imports(self, t: TypeDecl) -> list:
        info = self._files[t.side].get(t.path)
        return info.imports if info is not None else []

    def _simple(self, t: TypeDecl, name: str) -> TypeDecl | None:
        found = self._member_type(t, name)
        if found is not None:
            return found
        side, imports = t.side, self._imports(t)
        if side == "source":
            for imp in imports:
                if not imp.wildcard and imp.name.rsplit(".", 1)[-1] == name:
                    found = self._type(f"{side}:{imp.name}")
                    if found is not None or not imp.static:     # `import static` may name a method
                        return found
            found = self._top(side, t.container, name)
            for imp in imports if found is None else ():
                if imp.wildcard:
                    found = found or self._type(f"{side}:{imp.name.removesuffix('.*')}.{name}")
            return found
        for ns in _enclosing_namespaces(t.container):
            found = self._top(side, ns, name)
            if found is not None:
                return found
        for imp in imports:
            if imp.alias == name:
                return self._type(f"{side}:{erased_name(imp.name)}")
        for imp in imports:
            if imp.alias is None:
                found = self._type(f"{side}:{imp.name}.{name}")
                if found is not None and (imp.static or found.outer_id is None):   # `using static` brings nested types
                    return found
        return None

    def _member_type(self, t: TypeDecl, name: str) -> TypeDecl | None:
        """A type named `name` nested in a type enclosing `t` (innermost first) or in one of its supertypes."""
        scope = self._type(t.outer_id) if t.outer_id else None
        while scope is not None:
            found = self._type(f"{scope.id}.{name}")
            if found is None and scope.id not in self._busy():
                found = next((x for above in self.supertypes(scope)
                              if (x := self._type(f"{above.id}.{name}")) is not None), None)
            if found is not None:
                return found
            scope = self._type(scope.outer_id) if scope.outer_id else None
        return None

    def _qualified(self, t: TypeDecl, name: str) -> TypeDecl | None:
        """A dotted name whose first segment is no type in scope: fully qualified (C#: or relative to an
        enclosing namespace, or behind a using alias of a namespace)."""
        side = t.side
        if side == "source":
            return self._type(f"{side}:{name}")
        head, _, rest = name.partition(".")
        alias = next((imp for imp in self._imports(t) if imp.alias == head), None)
        if alias is not None:
            return self._type(f"{side}:{erased_name(alias.name)}.{rest}")
        for ns in _enclosing_namespaces(t.container):
            found = self._type(f"{side}:{ns}.{name}" if ns else f"{side}:{name}")
            if found is not None:
                return found
        return None


def _enclosing_namespaces(container: str) -> list[str]:
    """"A.B.C" -> ["A.B.C", "A.B", "A", ""]."""
    parts = container.split(".") if container else []
    return [".".join(parts[:i]) for i in range(len(parts), -1, -1)]
