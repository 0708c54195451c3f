"""Tests a suite says not to run, read from its C# sources, for a toolchain whose runner cannot be asked
(dotnet: `dotnet test --filter`). A VSTest filter that names a test runs it even when it is [Explicit]: the
NUnit adapter takes a name match for an explicit selection, as NUnit's own console does. So the filter
repotrans builds leaves such tests out by name, whatever the selection names: [Explicit] (NUnit 2 and 3) and
[Ignore] (NUnit, MSTest) on a test method or on its fixture, and a [Category]/[TestCategory] the run excludes
(the filter's TestCategory!= terms leave those out too; naming them here makes the run's record say why).
Repotrans's own NUnit 2.6 runner reads the same attributes from the compiled assembly (nunit_declared.cs)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from repotrans.execution.workspace.selection import runner_classes
from repotrans.index.parse import thread_parser

ALWAYS = ("Explicit", "Ignore")                     # left out whatever the configuration says
CATEGORY_ATTRIBUTES = ("Category", "TestCategory")  # NUnit, MSTest
STRING_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class Skip:
    """Why the suite says not to run a fixture or a test method ("[Explicit]", '[Category("Slow")]')."""
    why: str
    fixture: bool               # the whole fixture (its every test), else one test method and its cases


def declared_skips(sources: list[Path], exclude_categories: tuple[str, ...] = ()) -> dict[str, Skip]:
    """"Ns.Fixture" or "Ns.Fixture.Test" -> what leaves it out, for every fixture and test method of `sources`
    the suite says not to run: ALWAYS, or a category in `exclude_categories` (compared case aside). Nested
    fixtures are named as the runners name them ("Ns.Outer+Inner")."""
    excluded = {c.lower() for c in exclude_categories}
    out: dict[str, Skip] = {}
    for path in sources:
        try:
            tree = thread_parser("csharp").parse(Path(path).read_bytes())
        except OSError:
            continue
        for name, cls in runner_classes(tree.root_node):
            why = _skip(cls, excluded)
            if why:
                out[name] = Skip(why, fixture=True)
                continue
            body = cls.child_by_field_name("body")
            for member in body.named_children if body is not None else []:
                method = member.child_by_field_name("name")
                if member.type == "method_declaration" and method is not None:
                    why = _skip(member, excluded)
                    if why:
                        out[f"{name}.{method.text.decode()}"] = Skip(why, fixture=False)
    return out


def filter_terms(skips: dict[str, Skip]) -> list[str]:
    """VSTest filter terms leaving each of `skips` out by name: a fixture's tests ("FullyQualifiedName!~Ns.F."),
    a test method and its cases ("FullyQualifiedName!=Ns.F.T", "FullyQualifiedName!~Ns.F.T(")."""
    terms: list[str] = []
    for name in sorted(skips):
        escaped = escape(name)
        if skips[name].fixture:
            terms.append(f"FullyQualifiedName!~{escaped}.")
        else:
            terms += [f"FullyQualifiedName!={escaped}", f"FullyQualifiedName!~{escaped}\\("]
    return terms


def within(skips: dict[str, Skip], names: list[str] | None) -> dict[str, str]:
    """The skipped fixtures and tests a selection reaches (None: the whole suite) -> why: those it names, those
    inside a fixture it names, and the fixture-wide skips over a test it names."""
    if names is None:
        return {skip: s.why for skip, s in skips.items()}
    return {skip: s.why for skip, s in skips.items()
            if any(skip == n or skip.startswith(n + ".") or n.startswith(skip + ".") for n in names)}


def escape(text: str) -> str:
    """VSTest's own filter escape set (FilterHelper.Escape): \\ ( ) & | = ! ~"""
    return re.sub(r"([\\()&|=!~])", r"\\\1", text)


def _skip(node: Node, excluded: set[str]) -> str:
    """The first attribute of `node` that leaves it out, as written ("[Explicit]", '[Category("Slow")]'); ""."""
    for attr_list in (c for c in node.named_children if c.type == "attribute_list"):
        for attr in (a for a in attr_list.named_children if a.type == "attribute"):
            name = attr.child_by_field_name("name").text.decode().split(".")[-1]
            name = name[:-len("Attribute")] if name.endswith("Attribute") else name
            if name in ALWAYS:
                return f"[{name}]"
            if name in CATEGORY_ATTRIBUTES:
                for value in STRING_RE.findall(attr.text.decode()):
                    if value.lower() in excluded:
                        return f'[{name}("{value}")]'
    return ""
