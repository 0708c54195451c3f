"""Which indexed files are test code, so product types are only ever paired with product types and
test types with test types (a C# `ECPointTest.F2m` is never the counterpart of Java's `ECPoint.F2m`).

A file is test code when it imports a test framework (JUnit, TestNG; NUnit, xUnit, MSTest), when a
folder on its path is a test source root (Java: `src/test/...`, `test/`, `tests/`), or, in C#, when
it lies under the folder of a test project (a .csproj that references a test framework).
"""
from __future__ import annotations

import re
from pathlib import Path

from repotrans.index.model import FileInfo, Side, TypeDecl

TEST_IMPORTS = {"source": ("org.junit", "junit.framework", "org.testng", "org.hamcrest"),
                "target": ("NUnit.Framework", "Xunit", "Microsoft.VisualStudio.TestTools", "NUnit.")}
TEST_DIRS = {"test", "tests", "testcases", "testing", "unittests", "unittest", "test-framework"}
TEST_PROJECT_RE = re.compile(r'Include\s*=\s*"(nunit|nunitlite|xunit|xunit\.core|mstest\.testframework|'
                             r'nunit\.framework|microsoft\.visualstudio\.qualitytools\.unittestframework)[",\s]',
                             re.IGNORECASE)
SKIP = {"bin", "obj", ".git", "node_modules", "packages"}


def test_files(side: Side, files: list[FileInfo], root: Path | None) -> set[str]:
    """Paths (relative, '/') of this side's test files."""
    marked = set()
    project_dirs = _test_project_dirs(root) if side == "target" and root is not None else []
    for info in files:
        parts = info.path.lower().split("/")[:-1]
        if any(i.name.startswith(TEST_IMPORTS[side]) for i in info.imports):
            marked.add(info.path)
        elif side == "source" and any(p in TEST_DIRS for p in parts):
            marked.add(info.path)
        elif any(info.path == d or info.path.startswith(d + "/") for d in project_dirs):
            marked.add(info.path)
    return marked


def split_types(types: list[TypeDecl], tests: set[str]) -> tuple[list[TypeDecl], list[TypeDecl]]:
    """(product types, test types)."""
    return [t for t in types if t.path not in tests], [t for t in types if t.path in tests]


def _test_project_dirs(root: Path) -> list[str]:
    """Folders (relative to root) of the C# projects that reference a test framework, when the repository
    has a project that does not (its library): where every project references one, a project holds its
    library and its tests together, and only the files importing a test framework are test code."""
    out, library = [], False
    for path in sorted(root.rglob("*.csproj")):
        rel = path.relative_to(root)
        if any(p in SKIP or p.startswith(".") for p in rel.parts[:-1]):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if not TEST_PROJECT_RE.search(text):
            library = True
        elif rel.parent.as_posix() != ".":
            out.append(rel.parent.as_posix())
    return out if library else []
