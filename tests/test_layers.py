"""The package's import structure: no import cycle between modules, and no import from a lower layer
into a higher one. Imports are read with ast from every module, including those inside functions and
under `if TYPE_CHECKING:` (a type-only import is still a dependency a reader must follow).

The layers, lowest first (a package may import its own modules and any package of a lower layer;
packages on one line are peers that do not import each other):

  errors, redact,    the error family; secret redaction; where the user-editable
  shipped            top-level folders (tools/, prompt_templates/) are found
  verdicts           the verdict vocabulary (statuses, TestResult): every layer may speak it
  extras             optional backends: what each imports, how to install it
  index              tree-sitter parse + SQLite store
  mapping            Java <-> C# alignment over the index (its cache is keyed by index + mapping code)
  tools, retrieval   the five tools; bm25/dense retrieval of aligned pairs
  execution          msbuild evaluation, toolchains, sandboxes, the test runner
  prompts            templates and slots
  agents             the AutoGen agents, model clients, sessions
  translator         the deterministic Java -> C# translator (the offline builtin model, sync's editor,
                     skeleton bodies; agents.providers.PROVIDERS names its client, imported on first use)
  skeleton           C# skeletons of Java types the port lacks (renders with the translator)
  junit              JUnit -> NUnit translation of tests (deterministic or by a model)
  datasets, parity   evaluation datasets and their validation; API parity of a port
  runs               the run and its variants: batch, ablate, executors, the run folder and its store
  sync, reports      carrying upstream commits (a run variant); reports read run folders
  experiments        ablation configurations only
  doctor             the environment check
  cli                the command line
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

import repotrans
from repotrans.runs.ordering import strongly_connected

LAYERS: list[tuple[str, ...]] = [
    ("errors", "redact", "shipped"),
    ("verdicts",),
    ("extras",),
    ("index",),
    ("mapping",),
    ("tools", "retrieval"),
    ("execution",),
    ("prompts",),
    ("agents",),
    ("translator",),
    ("skeleton",),
    ("junit",),
    ("datasets", "parity"),
    ("runs",),
    ("sync", "reports"),
    ("experiments",),
    ("doctor",),
    ("cli",),
]
RANK = {name: rank for rank, group in enumerate(LAYERS) for name in group}
ROOT = Path(repotrans.__file__).parent


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ["repotrans", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the repotrans modules it imports (a name imported from a package counts as its
    submodule when there is one, else as the package)."""
    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        found: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found |= {known(a.name) for a in node.names if a.name.split(".")[0] == "repotrans"}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
                    package = package[:len(package) - node.level + 1]
                    base = ".".join(package + ([base] if base else []))
                if base.split(".")[0] != "repotrans":
                    continue
                found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in mods else known(base) for a in node.names}
        graph[mod] = {m for m in found if m is not None and m != mod}
    return graph


def layer(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else "repotrans"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (the batch ordering's Tarjan walk)."""
    members: dict[int, list[str]] = defaultdict(list)
    for mod, component in strongly_connected(graph).items():
        members[component].append(mod)
    return sorted(sorted(group) for group in members.values() if len(group) > 1)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return imports(modules())


def test_every_package_has_a_layer(graph):
    unplaced = sorted({layer(m) for m in graph} - set(RANK) - {"repotrans"})
    assert unplaced == [], f"add {unplaced} to LAYERS in tests/test_layers.py (and to its docstring)"


def test_no_import_cycle(graph):
    assert cycles(graph) == []


def test_no_upward_or_sideways_import(graph):
    bad = sorted(f"{mod} -> {dep}" for mod, deps in graph.items() for dep in deps
                 if layer(mod) != layer(dep) and layer(mod) in RANK and RANK[layer(dep)] >= RANK[layer(mod)])
    assert bad == []


def test_the_mapping_cache_hashes_every_package_a_mapping_depends_on(graph):
    """mapping_cache keys the cache by the code of CODE_PACKAGES: the mapping must import nothing else
    of repotrans that could change a mapping (errors and redact decide none)."""
    from repotrans.mapping.mapping_cache import CODE_PACKAGES

    hashed = {p.split(".")[1] for p in CODE_PACKAGES} | {"errors", "redact"}
    outside = sorted(f"{mod} -> {dep}" for mod, deps in graph.items() if layer(mod) == "mapping"
                     for dep in deps if layer(dep) not in hashed)
    assert outside == []


def test_the_checker_sees_cycles_and_function_level_imports(tmp_path):
    """The checker itself: an import inside a function closing a cycle is found."""
    graph = {"repotrans.a.x": {"repotrans.a.y"}, "repotrans.a.y": {"repotrans.b.z"}, "repotrans.b.z": {"repotrans.a.x"},
             "repotrans.c": set()}
    assert cycles(graph) == [["repotrans.a.x", "repotrans.a.y", "repotrans.b.z"]]
    pkg = tmp_path / "repotrans"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "one.py").write_text("def f():\n    from repotrans.sub import two\n")
    (pkg / "sub" / "two.py").write_text("from . import one\n")
    mods = {}
    for path in pkg.rglob("*.py"):
        parts = ["repotrans", *path.relative_to(pkg).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    found = imports(mods)
    assert found["repotrans.sub.one"] == {"repotrans.sub.two"} and found["repotrans.sub.two"] == {"repotrans.sub.one"}
    assert cycles(found) == [["repotrans.sub.one", "repotrans.sub.two"]]


TOOLCHAIN_SURFACE = {"repotrans.execution.toolchains", "repotrans.execution.toolchains.api"}


def test_only_the_toolchains_public_surface_is_imported_from_outside(graph):
    """Outside execution/toolchains/, a toolchain is reached through the package (Toolchain, Limits,
    PatchedFile, Verdict, TargetBuildError) and toolchains.api only, never a toolchain's own modules."""
    inside = "repotrans.execution.toolchains."
    bad = sorted(f"{mod} -> {dep}" for mod, deps in graph.items() for dep in deps
                 if not (mod + ".").startswith(inside) and dep.startswith(inside) and dep not in TOOLCHAIN_SURFACE)
    assert bad == [], "import these through repotrans.execution.toolchains.api: " + ", ".join(bad)
