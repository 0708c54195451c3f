"""Members a matched C# type lacks: Java methods of a type the port has, with no C# member, added to
that C# type as placeholders in the port's conventions (`batch --create-missing`).

    plan = plan_missing_members(index, mapping, ["org.acme.geo.*"])
    report = write_missing_members(index.root("target"), plan)

Each member is rendered by the skeleton's TypeRenderer (properties, PascalCase, virtual habits as the
port has them) and inserted before the closing brace of its C# type. A compile check with the port
takes out again a member that does not compile, naming its Java origin.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tree_sitter import Node, Parser

from repotrans.execution.toolchains.api import BuildSettings
from repotrans.translator.cs_types import DEFAULT_USINGS
from repotrans.skeleton.check import build_libraries, member_errors
from repotrans.skeleton.conventions import learn
from repotrans.skeleton.generate import JAVA, TYPE_NODES, inherited_overrides, overridden_members
from repotrans.skeleton.names import learn_names
from repotrans.skeleton.render import SkeletonResolver, TypeContext, TypeRenderer
from repotrans.mapping.drift import drifted_in_port
from repotrans.mapping.entry_points import PortPrograms
from repotrans.mapping.test_code import index_test_files

if TYPE_CHECKING:
    from repotrans.index.model import Method, TypeDecl
    from repotrans.index.store import Index
    from repotrans.mapping.mapping import Mapping

MAX_ROUNDS = 4          # builds of the compile check (each takes out the members that failed)
MEMBER_NAME = re.compile(r"(\w+)\s*(?:<[^()]*>)?\s*\(|(\w+)\s*$|this\s*\[")


@dataclass
class MemberAddition:
    cs_type: str                 # C# qualified name
    path: str                    # target-relative file
    end_line: int                # 1-based line of the type's closing brace
    members: dict[str, list[str]] = field(default_factory=dict)   # Java origin -> rendered lines


@dataclass
class MissingMembers:
    additions: list[MemberAddition] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)          # Java method -> why not added
    dropped: list[str] = field(default_factory=list)               # added, then taken out by the compile check
    compiled: bool | None = None

    def count(self) -> int:
        return sum(len(a.members) for a in self.additions)

    def render(self) -> str:
        lines = [f"{self.count()} member(s) to add to {len(self.additions)} existing C# type(s)"
                 + (":" if self.additions or self.skipped or self.dropped else "")]
        for a in self.additions:
            lines += [f"  {a.cs_type} <- {origin}" for origin in a.members]
        lines += [f"  skipped {m}: {why}" for m, why in sorted(self.skipped.items())]
        lines += [f"  left out {d}" for d in self.dropped]
        if self.compiled is not None:
            lines.append(f"added members compile with the port: {'yes' if self.compiled else 'no'}")
        return "\n".join(lines)


def _hidden_constructor(m: "Method") -> bool:
    """A private parameterless Java constructor (a utility class's): C# has static classes instead."""
    return m.kind == "constructor" and not m.params and "private" in m.modifiers


def plan_missing_members(index: "Index", mapping: "Mapping", patterns: list[str]) -> MissingMembers:
    """Placeholder members for the selected Java types' methods that their matched C# types lack."""
    plan = MissingMembers()
    wanted: dict[str, list[Method]] = {}
    cs_tests: set[str] | None = None
    programs: PortPrograms | None = None
    for source_id, why in mapping.unmatched_methods.items():
        m = index.method(source_id)
        if m is None or why == "enclosing type unmatched" or _hidden_constructor(m) or not m.type_id:
            continue
        java_type = index.type(m.type_id)
        if java_type is None or mapping.target_type(java_type.id) is None or \
                not any(fnmatch.fnmatchcase(java_type.qualified_name, p) for p in patterns):
            continue
        if cs_tests is None:
            cs_tests = index_test_files(index, "target")
        if getattr(index.type(mapping.target_type(java_type.id).target_id), "path", None) in cs_tests:
            continue                                # a JUnit class's members: test code, never placeholders
        drift = drifted_in_port(index, mapping, source_id)
        if drift is not None:                       # the port has it, re-typed: never a duplicate
            where = drift.target.id.split(":", 1)[1] if drift.target else "the implicit constructor"
            plan.skipped[_java_name(m)] = f"the port has it as {where} ({drift.reason})"
            continue
        programs = programs or PortPrograms(index, cs_tests)
        main = programs.running(m, index.type(mapping.target_type(java_type.id).target_id))
        if main is not None:                        # a second entry point would not build (CS0017)
            plan.skipped[_java_name(m)] = f"the port's program starts at {main.id.split(':', 1)[1]}, which runs it"
            continue
        wanted.setdefault(java_type.id, []).append(m)
    if not wanted:
        return plan
    conv = learn(index, mapping)
    names = learn_names(index, mapping)
    resolver = SkeletonResolver(frozenset(DEFAULT_USINGS), {**conv.port_types(), **names.types, **names.paths}, conv)
    overridden = overridden_members(index)
    root = index.root("source")
    for type_id, methods in sorted(wanted.items()):
        java_type = index.type(type_id)
        cs_type = index.type(mapping.target_type(type_id).target_id)
        node = _type_node(Parser(JAVA).parse((root / java_type.path).read_bytes()).root_node, java_type)
        if cs_type is not None and cs_type.kind == "enum":
            for m in methods:
                plan.skipped[_java_name(m)] = f"{cs_type.qualified_name} is a C# enum, which holds no members"
            continue
        if node is None or cs_type is None:
            for m in methods:
                plan.skipped[_java_name(m)] = f"declaration of {java_type.qualified_name} not found"
            continue
        path = java_type.qualified_name[len(java_type.container) + 1:] if java_type.container else java_type.qualified_name
        ctx = TypeContext(conv, resolver, {}, overridden)
        ctx.overrides.update(inherited_overrides(index, mapping, node, path, dict(names.types), {},
                                                  java_type.container))
        renderer = TypeRenderer(ctx, java_type.qualified_name)
        renderer.sealed.append("sealed" in cs_type.modifiers or "final" in java_type.modifiers)
        kind = {"interface_declaration": "interface"}.get(node.type, "class")
        rendered = _by_origin(renderer.members(node.child_by_field_name("body"), cs_type.name, kind, 1, path,
                                                enum=node.type == "enum_declaration"))
        existing = {(c.name, len(c.params)) for c in index.methods(cs_type.id)} | \
            {(c.name, None) for c in index.methods(cs_type.id) if c.kind in ("property", "indexer")}
        addition = MemberAddition(cs_type.qualified_name, cs_type.path, cs_type.end_line)
        for m in methods:
            origin = f"{path}.{java_type.name if m.kind == 'constructor' else m.name}(" \
                     f"{', '.join(p.type for p in m.params)})"
            lines = rendered.get(origin)
            if lines is None:
                plan.skipped[_java_name(m)] = "no C# member rendered for it (a setter goes with its getter)"
                continue
            name = _member_name(lines[0])
            if (name, len(m.params)) in existing or (name, None) in existing:
                plan.skipped[_java_name(m)] = f"{cs_type.qualified_name} already has a member {name}"
                continue
            addition.members[origin] = lines
        if addition.members:
            plan.additions.append(addition)
    return plan


def write_missing_members(target: Path, plan: MissingMembers, check: bool = True,
                          settings: BuildSettings = BuildSettings()) -> MissingMembers:
    """Insert the planned members into their C# files; with `check`, compile the port and take out
    the members that fail (a few builds: a parse error hides the rest), naming their Java origin."""
    if not plan.additions:
        return plan
    originals = {a.path: (target / a.path).read_bytes() for a in plan.additions}
    spans = _insert(target, plan.additions)
    if not check:
        return plan
    ok = False
    for _ in range(MAX_ROUNDS):           # a parse error hides the semantic ones: build again after each
        build = build_libraries(target, settings, changed=[target / a.path for a in plan.additions])
        ok, output = build.ok, build.output
        failing: dict[tuple[str, str], str] = {}
        for e in member_errors(output, target.resolve(), {}) if not ok else []:
            for (path, origin), (start, end) in spans.items():
                if path == e.file and start <= e.line <= end:
                    failing.setdefault((path, origin), f"{e.code} {e.message}")
        if not failing:
            break
        for a in plan.additions:
            for origin in [o for o in a.members if (a.path, o) in failing]:
                plan.dropped.append(f"{a.cs_type} <- {origin}: {failing[(a.path, origin)]}")
                del a.members[origin]
        touched = {p for p, _ in failing}
        for path in touched:                       # put the files back, then insert what is left
            (target / path).write_bytes(originals[path])
        spans.update(_insert(target, [a for a in plan.additions if a.path in touched and a.members]))
        spans = {k: v for k, v in spans.items() if k not in failing}
        plan.additions = [a for a in plan.additions if a.members]
    plan.compiled = ok
    return plan


def _insert(target: Path, additions: list[MemberAddition]) -> dict[tuple[str, str], tuple[int, int]]:
    """Write the members before each type's closing brace (bottom-up per file, keeping BOM and line
    ends); (path, Java origin) -> the 1-based line range the member took in the written file."""
    by_path: dict[str, list[MemberAddition]] = {}
    for a in additions:
        by_path.setdefault(a.path, []).append(a)
    spans: dict[tuple[str, str], tuple[int, int]] = {}
    for path, adds in by_path.items():
        raw = (target / path).read_bytes()
        bom = raw.startswith(b"\xef\xbb\xbf")
        text = raw.decode("utf-8-sig")
        newline = "\r\n" if "\r\n" in text else "\n"
        lines = text.split(newline)
        for a in sorted(adds, key=lambda a: -a.end_line):
            close = a.end_line - 1
            indent = re.match(r"\s*", lines[close]).group(0) if close < len(lines) else ""
            block: list[str] = []
            for member in a.members.values():
                block += [""] + [(indent + ln) if ln.strip() else "" for ln in member]
            lines[close:close] = block
        if not any(re.match(r"\s*using\s+System\s*;", ln) for ln in lines):
            lines.insert(0, "using System;")
        (target / path).write_bytes((b"\xef\xbb\xbf" if bom else b"") + newline.join(lines).encode("utf-8"))
        for a in adds:
            for origin, member in a.members.items():
                spans[(path, origin)] = _span(lines, member)
    return spans


def _span(lines: list[str], member: list[str]) -> tuple[int, int]:
    """The 1-based line range where `member`'s first line stands in `lines`."""
    head = member[0].strip()
    for i, ln in enumerate(lines):
        if ln.strip() == head:
            return i + 1, i + len(member)
    return 0, -1


def _by_origin(lines) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in lines:
        if line.origin is not None and line.kind != "type":
            out.setdefault(line.origin, []).append(line.text)
    return out


def _member_name(header: str) -> str:
    m = MEMBER_NAME.search(header.strip())
    if m is None:
        return ""
    return m.group(1) or m.group(2) or "this"


def _type_node(root: Node, t: "TypeDecl") -> Node | None:
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in TYPE_NODES and n.start_point[0] + 1 <= t.start_line <= n.end_point[0] + 1 and \
                (n.child_by_field_name("name").text or b"").decode() == t.name:
            if n.start_point[0] + 1 == t.start_line or not any(c.type in TYPE_NODES for c in _descendants(n)):
                return n
        stack.extend(n.named_children)
    return None


def _descendants(n: Node):
    stack = list(n.named_children)
    while stack:
        c = stack.pop()
        yield c
        stack.extend(c.named_children)


def _java_name(m: "Method") -> str:
    return m.id.split(":", 1)[1]
