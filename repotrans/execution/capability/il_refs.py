"""What a port's own build references of the framework, for the allowlist: every framework
type and member its code names, each with up to four of the members naming it ("Ns.Type::Method", "*"
for declarations: base types, interfaces, fields), and the non-framework assemblies it references (the
port's other projects and its packages). A candidate may use a framework member the port's code already
uses outside the candidate's own member (cecil_checker.cs's PortRefs computes the same from Mono.Cecil).

The signature closure widens that by the data the port already handles: the types a framework member the
port uses returns or takes, and the base classes of those and of its declaring type, are `closure` types (any
member of theirs may be used, under the same deny rules), and so, in turn, are the types their public members'
signatures name. A type enters only when it lies in a family's namespace (System.Xml, System.Xml.Linq,
System.Xml.XPath: the in-memory API families rules.tsv audits whole, which a Java original using org.w3c.dom
gets entire) and no rule names it (il_allow.admitted), so no capability, nor a type the rules open member by
member (XmlDocument, XmlReader, the resolvers), enters this way (cecil_framework.cs does the same).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from repotrans.execution.capability.il_allow import admitted
from repotrans.execution.capability.il_framework import Framework, Named, elements
from repotrans.execution.capability.il_metadata import TOKEN, Assembly, blob_bytes
from repotrans.execution.capability.il_rules import Rules

GROUPS = 4                  # members kept per reference: more than any job excludes (a property's two accessors)
CHAIN = 32                  # base classes followed per type (no framework nests deeper)
FRAMEWORK = re.compile(r"^(?:mscorlib|netstandard|system|system\..*|microsoft\..*|mono\..*|windowsbase|presentation.*"
                       r"|nunit.*|xunit.*|mstest.*)$", re.I)


class Checker(Protocol):
    """What this module reads of il_check.Checker."""
    asm: Assembly
    rules: Rules
    methods_of: dict[int, list[int]]
    fields_of: dict[int, list[int]]

    def method_def(self, index: int) -> Any: ...
    def member(self, token: int) -> Any: ...
    def body(self, index: int) -> Any: ...
    def element(self, t: tuple) -> tuple: ...


@dataclass
class PortRefs:
    types: dict[str, set[str]] = field(default_factory=dict)
    members: dict[str, set[str]] = field(default_factory=dict)
    assemblies: set[str] = field(default_factory=set)
    # framework value types the port's code holds (an enum like HttpStatusCode: data, no capability, even in a
    # capability's namespace), known from the signatures that encode them as value types
    value_types: dict[str, set[str]] = field(default_factory=dict)
    # the signature closure: framework types whose members may be used
    closure: dict[str, set[str]] = field(default_factory=dict)

    def allows(self, table: dict[str, set[str]], key: str, excluded: frozenset[str]) -> bool:
        """Whether code other than the excluded members references `key`."""
        return any(g not in excluded for g in table.get(key, ()))

    def to_json(self) -> dict:
        return {"types": {k: sorted(v) for k, v in self.types.items()},
                "members": {k: sorted(v) for k, v in self.members.items()}, "assemblies": sorted(self.assemblies),
                "value_types": {k: sorted(v) for k, v in self.value_types.items()},
                "closure": {k: sorted(v) for k, v in self.closure.items()}}

    @classmethod
    def from_json(cls, data: dict) -> "PortRefs":
        return cls({k: set(v) for k, v in data["types"].items()}, {k: set(v) for k, v in data["members"].items()},
                   set(data["assemblies"]), {k: set(v) for k, v in data.get("value_types", {}).items()},
                   {k: set(v) for k, v in data.get("closure", {}).items()})


def framework(name: str) -> bool:
    """An assembly of the framework (or a test framework): its members are allowed one by one, never whole."""
    return bool(FRAMEWORK.match(name))


def scope_name(asm: Assembly, t: tuple) -> str:
    """The assembly a named type comes from ("" for this module's own types)."""
    if t[0] == "prim":
        return "mscorlib"
    if t[0] != "named" or t[1] != "TypeRef":
        return ""
    index = t[2]
    for _ in range(len(asm.rows("TypeRef")) + 1):
        scope = asm.row("TypeRef", index).ResolutionScope
        if scope.table is None:
            return ""
        if scope.table.name != "TypeRef":
            return str(asm.row("AssemblyRef", scope.row_index).Name) if scope.table.name == "AssemblyRef" else ""
        index = scope.row_index
    return ""


def own(t: tuple) -> bool:
    return t[0] == "named" and t[1] == "TypeDef"


def _bracketed(name: str) -> str:
    return name[1:name.index(">")] if name.startswith("<") and ">" in name else ""


def _generated(name: str) -> bool:
    return name.startswith("<") or "$" in name


def group(c: Checker, index: int) -> str:
    """The member a method's code belongs to (cecil_checker.cs's Group): "Ns.Outer.Inner::Name"."""
    a = c.asm
    t = a.method_owner.get(index, 1)
    name = None
    while a.enclosing.get(t) and _generated(str(a.row("TypeDef", t).TypeName)):
        if name is None and _bracketed(str(a.row("TypeDef", t).TypeName)):
            name = _bracketed(str(a.row("TypeDef", t).TypeName))
        t = a.enclosing[t]
    if _generated(str(a.row("TypeDef", t).TypeName)):
        return "*"
    method = c.method_def(index).name
    if name is None:
        name = _bracketed(method) if method.startswith("<") and _bracketed(method) else method
    if not name.startswith(".") and "." in name:
        name = name.rsplit(".", 1)[-1]
    return f"{a.plain_name(t)}::{name}"


def _add(table: dict, key, g: str) -> None:
    groups = table.setdefault(key, set())
    if len(groups) < GROUPS:
        groups.add(g)


def port_refs(c: Checker, fw: Framework | None = None) -> PortRefs:
    """Every framework type and member the module's code references, with the members naming each, and the
    signature closure of those members (`fw`: the framework assemblies it reads; default mono's)."""
    a = c.asm
    names = (str(a.row("AssemblyRef", i).Name) for i in range(1, len(a.rows("AssemblyRef")) + 1))
    refs = PortRefs(assemblies={n for n in names if not framework(n)})
    seeds: dict[tuple[Named, bool], set[str]] = {}     # (a type, only its bases) -> the members reaching it

    add = _add

    def add_type(t: tuple | None, g: str) -> None:
        if t is None:
            return
        t = a.resolve(t)
        if t[0] == "generic":
            for arg in t[2]:
                add_type(arg, g)
            add_type(t[1], g)
        elif t[0] in ("byref", "array", "pinned", "ptr"):
            add_type(t[1], g)
        elif t[0] in ("named", "prim") and not own(t):
            add(refs.types, a.render(t).replace("/", "."), g)
            if t[0] == "named" and (t[1], t[2]) in a.value_types:
                add(refs.value_types, a.render(t).replace("/", "."), g)

    def add_member(m, g: str) -> None:
        add_type(m.ret, g)
        for p in m.params:
            add_type(p, g)
        for arg in m.generic_args:
            add_type(arg, g)
        add_type(m.declaring, g)
        elem = c.element(m.declaring)
        if elem[0] in ("named", "prim") and not own(elem):
            add(refs.members, f"{a.render(elem).replace('/', '.')}::{m.name}", g)
            for t in elements(a, "", elem):
                seeds.setdefault((t, True), set()).add(g)
            for t in (x for p in (m.ret, *m.params, *m.generic_args) if p is not None for x in elements(a, "", p)):
                seeds.setdefault((t, False), set()).add(g)

    for i in range(1, len(a.rows("TypeDef")) + 1):
        extends = a.row("TypeDef", i).Extends
        if extends.table is not None:
            add_type(a.spec(extends.row_index) if extends.table.name == "TypeSpec"
                     else ("named", extends.table.name, extends.row_index), "*")
        for f in c.fields_of.get(i, []):
            add_type(a.sig_type(blob_bytes(a.row("Field", f).Signature), 1)[0], "*")
    for r in range(1, len(a.rows("InterfaceImpl")) + 1):
        iface = a.row("InterfaceImpl", r).Interface
        if iface.table is not None:
            add_type(a.spec(iface.row_index) if iface.table.name == "TypeSpec"
                     else ("named", iface.table.name, iface.row_index), "*")
    for index in range(1, len(a.rows("MethodDef")) + 1):
        g = group(c, index)
        m = c.method_def(index)
        add_type(m.ret, g)
        for p in m.params:
            add_type(p, g)
        body = c.body(index)
        if body is None:
            continue
        for t in a.locals(body.locals_token):
            add_type(t, g)
        for ins in body.instructions:
            if not ins[TOKEN] or ins[1] in ("calli", "ldstr"):
                continue
            target = c.member(ins[TOKEN])
            if isinstance(target, tuple):
                add_type(target, g)
            elif target is not None:
                add_member(target, g)
    _closure(refs, seeds, c.rules, fw if fw is not None else Framework())
    return refs


def _closure(refs: PortRefs, seeds: dict[tuple[Named, bool], set[str]], rules: Rules, fw: Framework) -> None:
    """The signature closure of the port's framework members (cecil_framework.cs Close): each seed type (only
    its bases, for a member's declaring type) and its base classes up to the first outside the family namespaces,
    where admitted, with the seeds' groups; then, until nothing changes, each admitted type a closure type's public
    members' signatures name, and its bases, with that closure type's groups."""
    known: dict[Named, bool] = {}

    def ok(t: Named) -> bool:
        if t not in known:
            known[t] = framework(t[0]) and admitted(rules, _dotted(t), t[1].split("/", 1)[0].rpartition(".")[0])
        return known[t]

    families = {name for _, name in rules.families}

    def outside(t: Named) -> bool:
        """Outside the family namespaces, where no type is admitted: its bases are not read."""
        return t[1].split("/", 1)[0].rpartition(".")[0] not in families

    members: dict[Named, set[str]] = {}

    def reach(current: Named | None, groups: set[str]) -> list[Named]:
        """`current` and its bases within the families, where admitted: those whose groups grew."""
        grew = []
        for _ in range(CHAIN):
            if current is None or outside(current):
                break
            if ok(current):
                before = len(members.get(current, ()))
                for g in sorted(groups):
                    _add(members, current, g)
                if len(members[current]) > before:
                    grew.append(current)
            current = fw.base(current)
        return grew

    work: list[Named] = []
    for (t, bases_only), groups in sorted(seeds.items()):
        if not outside(t):
            work += reach(fw.base(t) if bases_only else t, groups)
    while work:
        t = work.pop(0)
        for x in fw.signature_types(t):
            if ok(x):
                work += reach(x, members[t])
    for t, groups in sorted(members.items()):
        for g in sorted(groups):
            _add(refs.closure, _dotted(t), g)


def _dotted(t: Named) -> str:
    return t[1].replace("/", ".")
