"""The framework's own declarations, for the allowlist's signature closure (il_refs): a framework type's base class
and the types its public members' signatures name, read from the assembly files of mono's framework folder and its
Facades, type forwarders followed (cecil_framework.cs's FrameworkTypes reads the same files the same way). A type
found in none of them has no base class and no members here. Nothing is loaded or run.
A type is (assembly name, full name with nested types joined by '/'), as a port's references name it.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.execution.capability.il_metadata import Assembly, blob_bytes

FORWARDS = 8                # forwarders followed per type (netstandard -> mscorlib is one)
PUBLIC, ACCESS = 0x6, 0x7   # MethodDef and Field flags (ECMA-335 II.23.1.10, II.23.1.5)
Named = tuple[str, str]     # (assembly name, full name)


def framework_dirs() -> tuple[Path, ...]:
    """mono's framework folder (where the mscorlib it runs on lives) and its Facades, as cecil_allowlist.cs finds
    them from typeof(object)'s assembly; none when there is no mono (then no type has bases or members here)."""
    mono = shutil.which("mono")
    if mono is None:
        return ()
    root = Path(mono).resolve().parent.parent / "lib" / "mono" / "4.5"
    return (root, root / "Facades")


class Framework:
    """The framework assemblies read so far, by name; one per port_refs call (it reads a few of them)."""

    def __init__(self, dirs: tuple[Path, ...] | None = None):
        self.dirs = framework_dirs() if dirs is None else dirs
        self._assemblies: dict[str, Assembly | None] = {}
        self._types: dict[str, dict[str, int]] = {}
        self._forwards: dict[str, dict[str, str]] = {}
        self._members: dict[str, dict[int, tuple[list[int], list[int]]]] = {}

    def _assembly(self, name: str) -> Assembly | None:
        if name not in self._assemblies:
            found = next((d / f"{name}.dll" for d in self.dirs if (d / f"{name}.dll").is_file()), None)
            try:
                self._assemblies[name] = Assembly(found) if found is not None else None
            except ValueError:
                self._assemblies[name] = None
            a = self._assemblies[name]
            self._types[name] = {} if a is None else {a.type_name("TypeDef", i): i
                                                      for i in range(1, len(a.rows("TypeDef")) + 1)}
            self._forwards[name] = {} if a is None else _forwarders(a)
            members: dict[int, tuple[list[int], list[int]]] = {}
            for table, owners in (() if a is None else ((0, a.method_owner), (1, a.field_owner))):
                for row, owner in owners.items():
                    members.setdefault(owner, ([], []))[table].append(row)
            self._members[name] = members
        return self._assemblies[name]

    def find(self, t: Named) -> tuple[Assembly, str, int] | None:
        """The assembly, its name and the TypeDef row declaring `t`, forwarders followed; None if not read."""
        scope, full = t
        for _ in range(FORWARDS):
            a = self._assembly(scope)
            if a is None:
                return None
            if full in self._types[scope]:
                return a, scope, self._types[scope][full]
            scope = self._forwards[scope].get(full.split("/", 1)[0], "")
            if not scope:
                return None
        return None

    def base(self, t: Named) -> Named | None:
        """The base class of `t` (None for an interface, System.Object or a type not read)."""
        found = self.find(t)
        if found is None:
            return None
        a, scope, index = found
        extends = a.row("TypeDef", index).Extends
        if extends.table is None:
            return None
        ref = a.spec(extends.row_index) if extends.table.name == "TypeSpec" else ("named", extends.table.name,
                                                                                  extends.row_index)
        return elements(a, scope, ref[1] if ref[0] == "generic" else ref)[0]

    def signature_types(self, t: Named) -> list[Named]:
        """The types the signatures of `t`'s public methods and fields name (generic arguments, array elements)."""
        found = self.find(t)
        if found is None:
            return []
        a, scope, index = found
        methods, fields = self._members[scope].get(index, ([], []))
        out: list[Named] = []
        for row in (a.row("MethodDef", m) for m in methods):
            if row.Flags & ACCESS == PUBLIC:
                ret, params = a.method_sig(blob_bytes(row.Signature))[0]
                for p in (ret, *params):
                    out += elements(a, scope, p)
        for row in (a.row("Field", f) for f in fields):
            if row.Flags & ACCESS == PUBLIC:
                out += elements(a, scope, a.sig_type(blob_bytes(row.Signature), 1)[0])
        return out


def _forwarders(a: Assembly) -> dict[str, str]:
    """An assembly's type forwarders: top-level type full name -> the assembly it lives in."""
    out = {}
    for i in range(1, len(a.rows("ExportedType")) + 1):
        row = a.row("ExportedType", i)
        impl = row.Implementation
        if impl.table is not None and impl.table.name == "AssemblyRef":
            ns = str(row.TypeNamespace or "")
            out[f"{ns}.{row.TypeName}" if ns else str(row.TypeName)] = str(a.row("AssemblyRef", impl.row_index).Name)
    return out


def elements(a: Assembly, scope: str, t: tuple) -> list[Named]:
    """The named types a signature type of assembly `a` (named `scope`) is made of, each with its assembly."""
    t = a.resolve(t)
    kind = t[0]
    if kind == "generic":
        return [x for part in (t[1], *t[2]) for x in elements(a, scope, part)]
    if kind in ("byref", "array", "pinned", "ptr"):
        return elements(a, scope, t[1])
    if kind == "prim":
        return [("mscorlib" if t[1] != "<Module>" else scope, t[1])]
    if kind != "named":
        return []
    return [(_scope(a, scope, t[1], t[2]), a.type_name(t[1], t[2]))]


def _scope(a: Assembly, own: str, table: str, index: int) -> str:
    """The assembly a TypeDef or TypeRef of `a` (named `own`) lives in."""
    for _ in range(len(a.rows("TypeRef")) + 1):
        if table != "TypeRef":
            return own
        scope = a.row("TypeRef", index).ResolutionScope
        if scope.table is None or scope.table.name != "TypeRef":
            return str(a.row("AssemblyRef", scope.row_index).Name) if scope.table is not None \
                and scope.table.name == "AssemblyRef" else own
        index = scope.row_index
    return own
