"""Which Java types get a skeleton, and the C# file each becomes (text, path, member origins).

    plan = plan_skeleton(index, mapping, ["org.acme.geo.*"])

A selected Java type without a C# counterpart becomes a C# type in the namespace and folder the
mapping's package -> namespace map implies (names.py), in the port's conventions (conventions.py);
a nested type goes with its enclosing type. Nothing is written here (see place.py and check.py).
"""
from __future__ import annotations

import fnmatch
import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tree_sitter_java
from tree_sitter import Language, Node, Parser

from repotrans.translator.base_calls import delegations
from repotrans.translator.cs_types import DEFAULT_USINGS, jdk_table
from repotrans.skeleton.conventions import Conventions, learn
from repotrans.skeleton.names import Names, learn_names
from repotrans.skeleton.base_calls import BaseFallback
from repotrans.skeleton.lines import Line, node_text
from repotrans.skeleton.support import support_classes, with_support
from repotrans.skeleton.render import Inherited, SkeletonResolver, TypeContext, TypeRenderer, cs_type_name

if TYPE_CHECKING:
    from repotrans.index.model import TypeDecl
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping

JAVA = Language(tree_sitter_java.language())
TYPE_NODES = ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration")
VIRTUAL = frozenset({"virtual", "abstract", "override"})


@dataclass
class SkeletonFile:
    path: str                          # relative to the target root
    namespace: str
    java_types: list[str]              # Java qualified names of the top-level types in it
    lines: list[Line]
    header: list[str]                  # usings and the namespace line (before `lines`)
    fallbacks: dict[str, BaseFallback] = field(default_factory=dict)   # constructor origin -> its base call
                                       # through Java's this(...) delegation, if the port's base cannot take its own

    @property
    def text(self) -> str:
        body = [("    " + line.text) if line.text else "" for line in self.lines]
        return "\n".join(self.header + body + ["}", ""])

    def origin_at(self, line_no: int) -> str | None:
        """The Java origin of the 1-based line `line_no` of `text`."""
        i = line_no - 1 - len(self.header)
        return self.lines[i].origin if 0 <= i < len(self.lines) else None


@dataclass
class SkeletonPlan:
    files: list[SkeletonFile] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)       # Java type -> why no skeleton
    notes: list[str] = field(default_factory=list)
    conventions: Conventions | None = None

    def render(self) -> str:
        lines = [f"{len(self.files)} file(s) to generate:"]
        for f in self.files:
            lines.append(f"  {f.path}  ({f.namespace}: {', '.join(t.rsplit('.', 1)[-1] for t in f.java_types)})")
        lines += [f"  skipped {t}: {why}" for t, why in sorted(self.skipped.items())]
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


def namesake_elsewhere(match) -> bool:
    """A pair the mapping made only by name, outside the namespace the Java package maps to (e.g. an
    interop type of the same name): for a skeleton that type is still missing from the package."""
    return "not the package's majority" in match.reason


def missing_types(index: "Index", mapping: "Mapping", patterns: list[str]) -> tuple[list["TypeDecl"], dict[str, str]]:
    """Top-level Java types to generate (selected, or enclosing a selected nested type) and skips."""
    matched = {m.source_id for m in mapping.type_matches if not namesake_elsewhere(m)}
    by_id = {t.id: t for t in index.types("source")}
    chosen: dict[str, TypeDecl] = {}
    skipped: dict[str, str] = {}
    for t in index.types("source"):
        if not any(fnmatch.fnmatchcase(t.qualified_name, p) for p in patterns) or t.id in matched:
            continue
        if mapping.unmatched_types.get(t.id, "").startswith("test code"):
            continue                    # JUnit classes and their support: --junit translates tests
        top = t
        while top.outer_id is not None and top.outer_id in by_id:
            outer = by_id[top.outer_id]
            if outer.id in matched:
                skipped[t.qualified_name] = (f"nested in {outer.qualified_name}, which the port has: "
                                             "add it to that C# type by hand or with a mapping override")
                top = None
                break
            top = outer
        if top is not None:
            chosen[top.id] = top
    return sorted(chosen.values(), key=lambda t: t.qualified_name), skipped


def plan_skeleton(index: "Index", mapping: "Mapping", patterns: list[str]) -> SkeletonPlan:
    """The C# files for every selected Java type the port lacks."""
    conv = learn(index, mapping)
    names = learn_names(index, mapping)
    tops, skipped = missing_types(index, mapping, patterns)
    plan = SkeletonPlan(skipped=skipped, conventions=conv)
    new_types = {t.name: cs_type_name(t.name, t.kind, conv) for t in tops}
    for t in index.types("source"):        # nested types of new types keep their Java name
        if t.outer_id is not None and any(t.qualified_name.startswith(top.qualified_name + ".") for top in tops):
            new_types.setdefault(t.name, cs_type_name(t.name, t.kind, conv))
    project_types = {**conv.port_types(), **names.types, **names.paths, **new_types}
    namespace_of = dict(names.namespace_of)
    declared = Counter(t.name for t in index.types("target") if t.outer_id is None)
    port_namespaces = {t.name: t.container for t in index.types("target")
                       if t.outer_id is None and declared[t.name] == 1 and t.container}
    homes = {t.id: split_home(index, t, names) for t in tops if t.container in names.split}
    for t in tops:
        namespace_of[t.name] = homes.get(t.id) or names.namespace(t.container)
    overridden = overridden_members(index)
    defaults = _interface_defaults(index)
    root = index.root("source")
    by_path: dict[str, list[TypeDecl]] = {}
    for t in tops:
        by_path.setdefault(t.path, []).append(t)
    for java_path, types in sorted(by_path.items()):
        tree = Parser(JAVA).parse((root / java_path).read_bytes())
        nodes = {node_text(n.child_by_field_name("name")): n for n in tree.root_node.named_children if n.type in TYPE_NODES}
        package = types[0].container
        namespace = homes.get(types[0].id) or names.namespace(package)
        segments = set(namespace.split("."))
        shadowed = {cs: f"{namespace_of[java]}.{cs}" for java, cs in project_types.items()
                    if cs in segments and java in namespace_of}
        shadowed = {**dotnet_shadowed(namespace, {*port_namespaces.values(), *namespace_of.values()}), **shadowed}
        support = support_classes(tree.root_node)
        resolver = SkeletonResolver(frozenset(DEFAULT_USINGS), {**project_types, **{n: n for n in support}}, conv,
                                    shadowed)
        ctx = TypeContext(conv, resolver, {}, overridden, defaults=defaults)
        lines: list[Line] = []
        for t in types:
            node = nodes.get(t.name)
            if node is None:
                plan.skipped[t.qualified_name] = f"declaration not found in {java_path}"
                continue
            ctx.overrides.update(inherited_overrides(index, mapping, node, t.name, project_types, new_types,
                                                      t.container))
            ctx.delegations[t.name] = delegations(index, t)
            if lines:
                lines.append(Line(""))
            rendered = TypeRenderer(ctx, t.qualified_name).type_decl(node)
            lines += rendered if lines else with_support(rendered, support)
        if not lines:
            continue
        first = types[0]
        cs_name = new_types[first.name]
        usings = _usings(tree.root_node, lines, namespace, project_types, namespace_of, conv.type_usings,
                         port_namespaces)
        header = [f"using {u};" for u in usings] + ([""] if usings else []) + [f"namespace {namespace}", "{"]
        folder = names.split[package][namespace] if homes.get(types[0].id) else names.folder(package)
        path = posixpath.join(folder, cs_name + ".cs")
        plan.files.append(SkeletonFile(path, namespace, [t.qualified_name for t in types], lines, header,
                                       dict(ctx.fallbacks)))
        plan.notes += ctx.notes
    return plan


def split_home(index: "Index", t: "TypeDecl", names: Names) -> str | None:
    """For a type of a package the port split over namespaces (HdrHistogram.NET keeps org.HdrHistogram's
    iterators in HdrHistogram.NET.Iteration): the namespace of its superclass's or interfaces' counterparts
    when one of the package's (of a superclass regenerated too, where that one goes), else the one where most of
    the package's aligned types that name it are (a tie: None, the package's plurality decides)."""
    spaces = names.split[t.container]
    for sup in index.supertypes(t):
        ns = names.namespace_of.get(sup.name)
        if ns is None and sup.container == t.container and sup.id != t.id:
            ns = split_home(index, sup, names)      # a superclass regenerated too: where it goes
        if ns in spaces and sup.container == t.container:
            return ns
    word = re.compile(rf"\b{re.escape(t.name)}\b")
    root = index.root("source")
    votes: Counter = Counter()
    seen: set[str] = set()
    for other in index.types("source"):
        ns = names.namespace_of.get(other.name)
        if other.container != t.container or other.outer_id is not None or other.name == t.name \
                or ns not in spaces or other.path in seen:
            continue
        seen.add(other.path)
        text = (root / other.path).read_text(encoding="utf-8", errors="replace")
        if word.search(text):
            votes[ns] += 1
    ranked = votes.most_common(2)
    return ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) else None


def dotnet_shadowed(namespace: str, namespaces: set[str]) -> dict[str, str]:
    """.NET type names (those the JDK table writes) that a namespace hides in a file of `namespace`, each
    qualified: C# looks a simple name up in the enclosing namespaces first, so in `A.Format.Exception`
    (or in `A.Format`, beside it) `Exception` names the namespace, not System.Exception (CS0118)."""
    hiding = set(namespace.split("."))
    for ns in namespaces:
        outer, _, last = ns.rpartition(".")
        if outer == namespace or namespace.startswith(outer + ".") or not outer:
            hiding.add(last)
    table = jdk_table()
    dotnet = {cs.split("<")[0] for cs in table["types"].values() if isinstance(cs, str)} | set(table["namespaces"])
    return {name: f"{table['namespaces'].get(name, 'System')}.{name}" for name in hiding & dotnet
            if name[:1].isupper()}


def _usings(root: Node, lines: list[Line], namespace: str, project_types: dict[str, str],
            namespace_of: dict[str, str], port_usings: dict[str, set[str]],
            port_namespaces: dict[str, str] | None = None) -> list[str]:
    """System namespaces the rendered text needs (those of the JDK table, and those the port's files import
    where they declare a type the port writes for a JDK type), the namespaces of the project types it names,
    and those of the port's own types it names (HdrHistogram.NET's Utilities.ByteBuffer for Java's)."""
    words = set(re.findall(r"\b[A-Z]\w*", "\n".join(line.text for line in lines)))
    table = jdk_table()["namespaces"]
    out = {"System"} | {ns for name, ns in table.items() if name in words}
    out |= {ns for name, namespaces in port_usings.items() if name in words for ns in namespaces}
    out |= {ns for name, ns in (port_namespaces or {}).items()
            if name in words and ns != namespace and not namespace.startswith(ns + ".")}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "type_identifier" or (node.type == "identifier" and node.parent is not None
                                               and node.parent.type in ("field_access", "method_invocation")):
            ns = namespace_of.get(node_text(node))
            if ns and ns != namespace and not namespace.startswith(ns + "."):
                out.add(ns)
        stack.extend(node.named_children)
    return sorted(out, key=lambda u: (not u.startswith("System"), u))


def _interface_defaults(index: "Index") -> dict[str, list[tuple[str, str]]]:
    """Java class id -> (interface, the text of one of its default methods) for each interface its
    declaration names, bound as Java binds it (Index.supertypes: imports and package, not simple names)."""
    texts: dict[str, list[str]] = {}
    for t in index.types("source"):
        if t.kind == "interface":
            found = [m.signature + " " + m.body for m in index.methods(t.id) if "default" in m.modifiers and m.body]
            if found:
                texts[t.id] = found
    out: dict[str, list[tuple[str, str]]] = {}
    for t in index.types("source") if texts else ():
        if t.kind != "interface":
            found = [(i.name, text) for i in index.supertypes(t, depth=1) for text in texts.get(i.id, ())]
            if found:
                out[t.id] = found
    return out


def overridden_members(index: "Index") -> set[tuple[str, str, int]]:
    """(Java type, method, arity) for every Java method some subtype in the source overrides."""
    out: set[tuple[str, str, int]] = set()
    for method_id in index.overridden_methods("source"):
        m = index.method(method_id)
        owner = index.type(m.type_id) if m is not None else None
        if owner is not None:
            out.add((owner.name, m.name, len(m.params)))
    return out


def inherited_overrides(index: "Index", mapping: "Mapping", node: Node, java_name: str, project_types: dict[str, str],
                        new_types: dict[str, str], container: str = "") -> dict[str, dict[tuple[str, int], Inherited]]:
    """Java type path (`java_name` in the package `container`) -> (method name, arity) that a C# base
    class already declares virtual or abstract (for nested types too), walking the Java superclass
    chain through the type map."""
    out: dict[str, dict[tuple[str, int], Inherited]] = {}
    stack = [(node, java_name)]
    while stack:
        n, path = stack.pop()
        sup = n.child_by_field_name("superclass")
        found: dict[tuple[str, int], Inherited] = {}
        if sup is not None:
            found = _virtuals_of(index, mapping, _superclass(index, container, path, node_text(sup.named_children[0])))
        out[path] = found
        body = n.child_by_field_name("body")
        for c in body.named_children if body is not None else []:
            if c.type in TYPE_NODES:
                stack.append((c, f"{path}.{node_text(c.child_by_field_name('name'))}"))
            if c.type == "enum_body_declarations":
                stack += [(d, f"{path}.{node_text(d.child_by_field_name('name'))}") for d in c.named_children
                          if d.type in TYPE_NODES]
    return out


def _superclass(index: "Index", container: str, path: str, written: str) -> list["TypeDecl"]:
    """The Java class `written` names as the superclass of `path`: the one the declaration binds to when
    it is indexed, else every class of that simple name."""
    declared = index.type(f"source:{container}.{path}" if container else f"source:{path}")
    if declared is not None:
        found = index.resolve_type(declared, written)
        return [found] if found is not None else []
    simple = re.sub(r"<.*", "", written).rsplit(".", 1)[-1]
    return [t for t in index.find_types("source", simple) if t.name == simple and t.kind == "class"]


def _virtuals_of(index: "Index", mapping: "Mapping", starts: list["TypeDecl"]) -> dict[tuple[str, int], Inherited]:
    """Members a subclass of the Java classes `starts` must `override` in C#: the virtual/abstract
    members of each one's C# counterpart and that type's bases (a property stays a property), or, for a
    type the port lacks too, the Java type's own overridable methods (the skeleton makes those virtual);
    their superclasses likewise."""
    out: dict[tuple[str, int], Inherited] = {}
    seen: set[str] = set()
    javas = {t.id: t for start in starts for t in [start, *index.supertypes(start)] if t.kind == "class"}
    for java in javas.values():
        match = mapping.target_type(java.id)
        if match is None:
            for m in index.methods(java.id):
                if m.kind == "method" and not {"static", "private", "final"} & set(m.modifiers):
                    out.setdefault((m.name, len(m.params)), Inherited(None))
            continue
        cs_top = index.type(match.target_id)
        for cs in [cs_top, *index.supertypes(cs_top)] if cs_top is not None else []:
            if cs.kind != "class" or cs.id in seen:
                continue
            seen.add(cs.id)
            for m in index.methods(cs.id):
                if VIRTUAL & set(m.modifiers):
                    found = Inherited(m.return_type, m.name if m.kind == "property" else None)
                    out.setdefault((m.name, len(m.params)), found)
                    out.setdefault((m.name[:1].lower() + m.name[1:], len(m.params)), found)
    return out


