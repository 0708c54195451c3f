"""What the package imports is declared, and imports in the environment the README's install makes.

Run in CI's fresh virtual environment (.ci/run), these fail fast with the module's name when a
dependency is only present because a machine collected it over earlier sessions.
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import repotrans
from repotrans import extras

ROOT = Path(repotrans.__file__).parent
PYPROJECT = ROOT.parent / "pyproject.toml"


def package_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(repotrans.__path__, "repotrans.")
                  if not m.name.endswith("__main__"))


def test_every_module_of_the_package_imports():
    failed = {}
    for name in package_modules():
        try:
            importlib.import_module(name)
        except Exception as exc:            # any failure is a finding: name the module and the cause
            failed[name] = f"{type(exc).__name__}: {exc}"
    assert failed == {}


@pytest.mark.parametrize("backend", [b.name for b in extras.BACKENDS])
def test_every_optional_backend_the_readme_offers_imports(backend):
    assert extras.missing(backend) is None


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def third_party_imports() -> set[str]:
    """Top-level names of every module the package imports that is neither stdlib nor its own."""
    found = set()
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {name for name in found if name not in sys.stdlib_module_names and name not in ("repotrans", "__future__")}


def test_every_third_party_import_is_a_declared_dependency():
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    requirements = project["dependencies"] + [r for group in project["optional-dependencies"].values() for r in group]
    declared = {_canonical(re.match(r"[A-Za-z0-9_.\-]+", r).group(0)) for r in requirements}
    providers = metadata.packages_distributions()
    undeclared = {}
    for module in sorted(third_party_imports()):
        dists = {_canonical(d) for d in providers.get(module, [])}
        if not dists:
            undeclared[module] = "not installed"
        elif not dists & declared:
            undeclared[module] = f"provided by {', '.join(sorted(dists))}, which pyproject.toml does not declare"
    assert undeclared == {}


def test_a_missing_module_is_named_with_its_install_command(monkeypatch):
    real_import = importlib.import_module

    def no_ml_dtypes(name, *args):
        if name == "onnxruntime.quantization":
            raise ModuleNotFoundError("No module named 'ml_dtypes'", name="ml_dtypes")
        return real_import(name, *args)

    monkeypatch.setattr(extras.importlib, "import_module", no_ml_dtypes)
    problem = extras.missing("onnx-int8")
    assert problem is not None and "'ml_dtypes'" in problem
    assert f"pip install 'onnxruntime" in problem and f"'{extras.declared('ml_dtypes')}'" in problem
    with pytest.raises(repotrans.errors.ConfigError, match="ml_dtypes"):
        extras.require("onnx-int8")
    assert extras.missing("onnx") is None


def test_doctor_names_a_missing_backend_and_fails_only_for_the_one_in_force(monkeypatch):
    from types import SimpleNamespace

    from repotrans.doctor import backends_section

    monkeypatch.setattr(extras, "missing", lambda name: f"{name} cannot import 'x': install it with: pip install x"
                        if name in ("torch", "ray") else None)

    title, lines = backends_section(SimpleNamespace(retrieval=SimpleNamespace(backend="torch")))
    assert title == "optional backends"
    assert lines == [(True, "onnx: importable (embedding backend (the default))"),
                     (True, "onnx-int8: importable (embedding backend, int8-quantised)"),
                     (False, "torch cannot import 'x': install it with: pip install x"),
                     (None, "ray cannot import 'x': install it with: pip install x")]
