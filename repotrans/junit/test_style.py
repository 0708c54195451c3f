"""How the port's own test project writes tests: learned from its files, used for translated JUnit tests.

NUnit major version, test method casing, the exception idiom (`Assert.Throws`/`Catch` or
`[ExpectedException]`), the assertion style (`Assert.That(x, Is.EqualTo(y))` or classic
`Assert.AreEqual`), one of its own test files as an example for a model, fixture name suffix, the test
namespace for a class's namespace and whether test files mirror the library's folders.
"""
from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.execution.toolchains.api import Project

_TEST_METHOD = re.compile(r"\[(?:Test|TestCase[^\]]*)\]\s*(?:\[[^\]]*\]\s*)*public\s+(?:async\s+)?\w+\s+(\w+)\s*\(")
EXAMPLE_LINES = 60          # a port test file longer than this is not shown to a model as the example
_NAMESPACE = re.compile(r"^\s*namespace\s+([\w.]+)", re.M)


@dataclass
class TestStyle:
    project: Project
    nunit_major: int = 3
    lower_case_methods: bool = False
    expected_exception_attribute: bool = False
    fixture_suffix: Counter = field(default_factory=Counter)       # "TestCase" / "Tests" / "Test"
    namespace_suffix: Counter = field(default_factory=Counter)     # ".Test" when tests add a segment
    namespace_heads: Counter = field(default_factory=Counter)      # ("NSoup", "Test") when NSoup.Nodes's tests
                                                                   # are in Test.Nodes (the head replaced)
    mirrored: Counter = field(default_factory=Counter)             # test folders mirror the library's
    libraries: list[Project] = field(default_factory=list)         # the projects the test project builds on
    assert_that: bool = False                                      # constraint model (Assert.That) over classic
    example: str = ""                                              # a short test file of the port, as written

    def fixture_name(self, java_name: str) -> str:
        """The C# fixture for a JUnit class (`FooTest` -> `FooTests` where the port says Tests)."""
        stem = re.sub(r"(TestCase|Tests|Test)$", "", java_name)
        suffix = self.fixture_suffix.most_common(1)[0][0] if self.fixture_suffix else "Tests"
        return stem + suffix if stem != java_name else java_name

    def namespace(self, class_namespace: str) -> str:
        """The test namespace for a class's: with a suffix the port adds, or with the head it replaces."""
        heads = [(n, lib, test) for (lib, test), n in self.namespace_heads.items()
                 if class_namespace == lib or class_namespace.startswith(lib + ".")]
        if heads and max(heads)[0] > sum(self.namespace_suffix.values()):
            _, lib, test = max(heads)
            return test + class_namespace[len(lib):]
        suffix = self.namespace_suffix.most_common(1)[0][0] if self.namespace_suffix else ""
        return class_namespace + suffix

    def folder(self, class_path: str, library: Project | None, root: Path) -> str:
        """Test file folder (target-relative) for a class file (target-relative path)."""
        base = self.project.dir.resolve().relative_to(root.resolve()).as_posix()
        if library is None or not self.mirrored or self.mirrored.most_common(1)[0][0] is False:
            return base
        lib = library.dir.resolve().relative_to(root.resolve()).as_posix()
        inner = posixpath.relpath(posixpath.dirname(class_path), lib)
        return base if inner == "." else posixpath.join(base, inner)


def learn_style(test_project: Project, class_files: dict[str, tuple[str, str]], root: Path) -> TestStyle:
    """`class_files`: C# simple type name -> (namespace, target-relative file) of the library's types."""
    style = TestStyle(test_project, test_project.nunit_major or 2)
    casing = Counter()
    idioms = Counter()
    examples: list[tuple[int, str]] = []
    root = root.resolve()
    for src in test_project.sources:
        if test_project.dir not in src.parents:
            continue
        text = src.read_text(encoding="utf-8", errors="replace")
        for name in _TEST_METHOD.findall(text):
            casing[name[:1].islower()] += 1
        idioms["attribute"] += text.count("[ExpectedException")
        idioms["assert"] += len(re.findall(r"Assert\.(?:Throws|Catch)\b", text))
        idioms["that"] += len(re.findall(r"Assert\.That\s*\(", text))
        idioms["classic"] += len(re.findall(r"Assert\.(?:AreEqual|AreNotEqual|IsTrue|IsFalse|IsNull|IsNotNull|AreSame)\b",
                                            text))
        if _TEST_METHOD.search(text) and text.count("\n") <= EXAMPLE_LINES and "RepotransTranslated" not in text:
            examples.append((text.count("\n"), text.strip()))
        m = re.fullmatch(r"(\w+?)(TestCase|Tests|Test)", src.stem)
        if m is None or m.group(1) not in class_files:
            continue
        style.fixture_suffix[m.group(2)] += 1
        cls_ns, cls_file = class_files[m.group(1)]
        ns = _NAMESPACE.search(text)
        if ns and ns.group(1).startswith(cls_ns):
            style.namespace_suffix[ns.group(1)[len(cls_ns):]] += 1
        elif ns:
            style.namespace_heads[_heads(cls_ns, ns.group(1))] += 1
        rel = src.resolve().relative_to(root).as_posix()
        inner = posixpath.relpath(posixpath.dirname(rel), test_project.dir.resolve().relative_to(root).as_posix())
        style.mirrored[inner != "." and posixpath.dirname(cls_file).endswith(inner)] += 1
    style.lower_case_methods = casing[True] > casing[False]
    style.expected_exception_attribute = idioms["attribute"] > idioms["assert"]
    style.assert_that = idioms["that"] > idioms["classic"]
    style.example = max(examples)[1] if examples else ""          # the longest short one shows the most
    return style


def _heads(class_namespace: str, test_namespace: str) -> tuple[str, str]:
    """(library head, test head) around the namespaces' common trailing segments: NSoup.Nodes, Test.Nodes ->
    (NSoup, Test)."""
    lib, test = class_namespace.split("."), test_namespace.split(".")
    while len(lib) > 1 and len(test) > 1 and lib[-1] == test[-1]:
        lib.pop()
        test.pop()
    return ".".join(lib), ".".join(test)
