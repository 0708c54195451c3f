"""Program entry points: a Java `public static void main(String[])` and the port's C# `Main`.

A Java library often gives each tool or benchmark class its own `main`; a C# program has one entry point
(`static Main(string[])`, usually in a `Program` class) that runs what those did. A Java `main` the port
has no member for is therefore not missing when the port's entry point's class calls into the Java type's
C# counterpart (`Benchmark.test(...)` from `Program.Main`'s class).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from repotrans.index.model import Method, TypeDecl

if TYPE_CHECKING:
    from repotrans.index.store import Index

_ARGS = {"String[]", "java.lang.String[]", "String...", "java.lang.String..."}
_RETURNS = {"void", "int", "Task", "Task<int>", "System.Threading.Tasks.Task"}


class PortPrograms:
    """The port's entry points outside its tests (found once, when first asked) and the Java `main`s whose
    work they run: one rule for parity, the batch plan and --create-missing."""

    def __init__(self, index: "Index", tests: set[str] | frozenset[str]) -> None:
        self._index, self._tests = index, tests
        self._points: list[Method] | None = None

    def running(self, m: Method, cs_type: TypeDecl | None) -> Method | None:
        """The port's entry point that runs Java `main` `m`'s work (its class uses `cs_type`, the C#
        counterpart of `m`'s class); None for any other method or when no entry point does."""
        if cs_type is None or not _java_entry_point(m):
            return None
        if self._points is None:
            self._points = _cs_entry_points(self._index, self._tests)
        return _entry_point_running(self._index, self._points, cs_type)


def _java_entry_point(m: Method) -> bool:
    """`static void main(String[] args)` (or `String... args`)."""
    return (m.name == "main" and m.kind == "method" and "static" in m.modifiers and m.return_type == "void"
            and len(m.params) == 1 and m.params[0].type in _ARGS)


def _cs_entry_points(index: "Index", excluded_paths: set[str] | frozenset[str] = frozenset()) -> list[Method]:
    """The port's `static Main()` / `static Main(string[])` methods outside `excluded_paths` (its tests)."""
    return [m for m in index.all_methods("target")
            if m.name == "Main" and m.kind == "method" and "static" in m.modifiers and m.path not in excluded_paths
            and m.return_type in _RETURNS and (not m.params or (len(m.params) == 1 and m.params[0].type == "string[]"))]


def _entry_point_running(index: "Index", entry_points: list[Method], cs_type: TypeDecl) -> Method | None:
    """The first entry point whose class uses `cs_type` (`Name.member` or `new Name(`) in a body."""
    used = re.compile(rf"(?<![\w.])(?:{re.escape(cs_type.name)}\s*\.|new\s+{re.escape(cs_type.name)}\s*[(<])")
    for main in entry_points:
        if any(used.search(m.body or "") for m in index.methods(main.type_id)):
            return main
    return None
