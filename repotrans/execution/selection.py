"""Test selection: the NUnit fixtures whose source mentions the target's class (or a subclass),
or the method itself when it is static. A tree-sitter scan of the test sources, cached per state."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import tree_sitter_c_sharp
from tree_sitter import Language, Node, Parser

from repotrans.execution.workspace import Workspace

TEST_ATTRIBUTES = {"Test", "TestCase", "TestCaseSource", "TestFixture", "Theory", "Fact"}
SKIP_DIRS = {"bin", "obj"}
NAMESPACE_NODES = ("namespace_declaration", "file_scoped_namespace_declaration")


@cache
def _parser() -> Parser:
    return Parser(Language(tree_sitter_c_sharp.language()))


def fixture_index(ws: Workspace, test_projects: dict[str, Path]) -> dict[str, list[str]]:
    """"<project>:<Ns.Fixture>" -> identifiers used in the fixture (cached in the workspace)."""
    cache_file = ws.root / "fixtures.json"
    if cache_file.exists():
        return json.loads(cache_file.read_text())
    fixtures: dict[str, list[str]] = {}
    for project, folder in sorted(test_projects.items()):
        for path in sorted(folder.rglob("*.cs")):
            if any(part in SKIP_DIRS for part in path.relative_to(folder).parts[:-1]):
                continue
            tree = _parser().parse(path.read_bytes())
            for name, idents in _fixtures(tree.root_node, ""):
                key = f"{project}:{name}"
                fixtures[key] = sorted(set(fixtures.get(key, [])) | idents)
    cache_file.write_text(json.dumps(fixtures, indent=1))
    return fixtures


def select_fixtures(fixtures: dict[str, list[str]], names: set[str]) -> list[str]:
    """Fixtures mentioning any of `names` (class names, static method name)."""
    return sorted(key for key, idents in fixtures.items() if names & set(idents))


def _fixtures(node: Node, prefix: str) -> list[tuple[str, set[str]]]:
    out: list[tuple[str, set[str]]] = []
    for child in node.named_children:
        if child.type in NAMESPACE_NODES:
            name = child.child_by_field_name("name").text.decode()
            ns = f"{prefix}.{name}" if prefix else name
            if child.type == "file_scoped_namespace_declaration":
                out += _fixtures(child, ns)
                continue
            body = child.child_by_field_name("body")
            if body is not None:
                out += _fixtures(body, ns)
        elif child.type == "class_declaration":
            name = child.child_by_field_name("name").text.decode()
            qualified = f"{prefix}.{name}" if prefix else name
            if _is_fixture(child):
                out.append((qualified, _identifiers(child)))
            body = child.child_by_field_name("body")
            if body is not None:
                out += [(f"{qualified}+{n.split('.')[-1]}", ids) for n, ids in _fixtures(body, qualified)]
    return out


def _is_fixture(cls: Node) -> bool:
    if _attributes(cls) & TEST_ATTRIBUTES:
        return True
    body = cls.child_by_field_name("body")
    return body is not None and any(c.type == "method_declaration" and _attributes(c) & TEST_ATTRIBUTES
                                    for c in body.named_children)


def _attributes(node: Node) -> set[str]:
    names = set()
    for child in node.named_children:
        if child.type == "attribute_list":
            for attr in child.named_children:
                if attr.type == "attribute":
                    text = attr.child_by_field_name("name").text.decode().split(".")[-1]
                    names.add(text[:-9] if text.endswith("Attribute") else text)
    return names


def _identifiers(node: Node) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            found.add(n.text.decode())
        stack.extend(n.children)
    return found
