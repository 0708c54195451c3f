"""Which indexed files are test code, so product types are only ever paired with product types and
test types with test types (a C# `ECPointTest.F2m` is never the counterpart of Java's `ECPoint.F2m`).

A file is test code when it imports a test framework (JUnit, TestNG; NUnit, xUnit, MSTest), when a
folder on its path is a test source root (Java: `src/test/...`, `test/`, `tests/`, a folder the user
names with `--junit DIR`), or, in C#, when it lies under the folder of a test project (a .csproj that
references a test framework). On the Java side a file beside the library is test code too when one of
its types carries a JUnit/TestNG annotation, extends `TestCase` or another test type, or is test
support: named as such (`*Test*`, `*Harness*`, `Mock*`, `Fake*`, `Stub*`, `*Fixture*`), used by test
code and by no library code (`java_test_files`).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.errors import ConfigError

from repotrans.index.model import Field, FileInfo, Method, Side, TypeDecl

if TYPE_CHECKING:
    from repotrans.index.store import Index

TEST_IMPORTS = {"source": ("org.junit", "junit.framework", "org.testng", "org.hamcrest"),
                "target": ("NUnit.Framework", "Xunit", "Microsoft.VisualStudio.TestTools", "NUnit.")}
TEST_DIRS = {"test", "tests", "testcases", "testing", "unittests", "unittest", "test-framework"}
TEST_PROJECT_RE = re.compile(r'Include\s*=\s*"(nunit|nunitlite|xunit|xunit\.core|mstest\.testframework|'
                             r'nunit\.framework|microsoft\.visualstudio\.qualitytools\.unittestframework)[",\s]',
                             re.IGNORECASE)
SKIP = {"bin", "obj", ".git", "node_modules", "packages"}
# JUnit 3/4/5 and TestNG annotations a test type or its methods carry, with or without their package
TEST_ANNOTATION_RE = re.compile(r"@(?:org\.junit(?:\.jupiter\.api|\.jupiter\.params|\.runner)?\.|"
                                r"org\.testng\.annotations\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|"
                                r"Before|After|BeforeClass|AfterClass|BeforeEach|AfterEach|BeforeAll|AfterAll|"
                                r"RunWith|Nested)\b")
TEST_BASES = {"TestCase", "TestSuite", "GroovyTestCase", "AbstractJUnit4SpringContextTests"}
SUPPORT_NAME_RE = re.compile(r"Test|Harness|Fixture|^(?:Mock|Fake|Stub)[A-Z]")
WORD_RE = re.compile(r"[A-Za-z_$][\w$]*")


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


def index_test_files(index: Index, side: Side, folders: tuple[str, ...] = ()) -> set[str]:
    """Paths of `side`'s test files in an index (Java: java_test_files, with the user's `folders`)."""
    try:
        root = index.root(side)
    except ConfigError:           # an index without recorded roots: imports and paths only
        root = None
    files = index.files(side)
    if side == "target":
        return test_files(side, files, root)
    types = index.types(side)
    return java_test_files(files, types, index.all_methods(side), {t.id: index.fields(t.id) for t in types},
                           root, folders)


def java_test_files(files: list[FileInfo], types: list[TypeDecl], methods: list[Method],
                    fields: dict[str, list[Field]], root: Path | None, folders: tuple[str, ...] = ()) -> set[str]:
    """Paths of the Java files that are test code: test_files' rule, the user's `folders` (absolute, or
    relative to `root`), then, beside the library, files whose types carry a test annotation, extend a
    test type, or are test support used only by test code (repeated until nothing changes)."""
    marked = test_files("source", files, root)
    given = [_relative(f, root) for f in folders]
    marked |= {f.path for f in files if any(g in ("", ".") or f.path.startswith(g.rstrip("/") + "/") for g in given)}
    by_path: dict[str, list[TypeDecl]] = {}
    for t in types:
        by_path.setdefault(t.path, []).append(t)
    annotated = {m.path for m in methods if any(TEST_ANNOTATION_RE.match(a) for a in m.annotations)}
    annotated |= {t.path for t in types if any(TEST_ANNOTATION_RE.match(a) for a in t.annotations)}
    marked |= annotated & set(by_path)
    named = any(SUPPORT_NAME_RE.search(t.name) for t in types if t.path not in marked)
    words = _words_by_path(methods, types, fields) if named else {}     # who uses what: only for support names
    while True:
        test_names = {t.name for t in types if t.path in marked} | TEST_BASES
        more = {path for path, ts in by_path.items() if path not in marked and (
            any(_base_name(b) in test_names for t in ts for b in t.bases)
            or _support_only(path, ts, words, marked))}
        if not more:
            return marked
        marked |= more


def _relative(folder: str, root: Path | None) -> str:
    """A --junit folder as a path relative to the Java root ('/'-separated)."""
    path = Path(folder)
    if path.is_absolute() and root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()
    return path.as_posix()


def _base_name(written: str) -> str:
    """'junit.framework.TestCase' / 'Base<T>' -> the simple name."""
    return written.split("<", 1)[0].strip().rsplit(".", 1)[-1]


def _words_by_path(methods: list[Method], types: list[TypeDecl], fields: dict[str, list[Field]]) -> dict[str, set[str]]:
    """The identifiers each file's members use (signatures, bodies, field types and initialisers, bases)."""
    out: dict[str, set[str]] = {}
    for m in methods:
        out.setdefault(m.path, set()).update(WORD_RE.findall(f"{m.signature} {m.body or ''}"))
    for t in types:
        seen = out.setdefault(t.path, set())
        seen.update(_base_name(b) for b in t.bases)
        for f in fields.get(t.id, ()):
            seen.update(WORD_RE.findall(f"{f.type} {f.initializer or ''}"))
    return out


def _support_only(path: str, types: list[TypeDecl], words: dict[str, set[str]], tests: set[str]) -> bool:
    """A file of test support: its types are named as such, test code uses one, library code none."""
    names = {t.name for t in types}
    if not any(SUPPORT_NAME_RE.search(n) for n in names):
        return False
    users = {p for p, seen in words.items() if p != path and names & seen}
    return bool(users) and users <= tests


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
