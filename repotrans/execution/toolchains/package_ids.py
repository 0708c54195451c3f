"""Which project in the tree builds a package or an assembly, from every packaging source there is:
a project's PackageId and AssemblyName, and each `.nuspec` file's `<id>` with the dlls its `<files>`
ship (a nuspec that packs `bin/**/Acme.Geo.dll` under id `Acme.Geo.Api` makes the project whose
AssemblyName is `Acme.Geo` stand in for that package). Several projects may build one id (a
classic solution per framework): the planner takes the one whose framework fits the referencing
project best."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from repotrans.execution.toolchains.frameworks import compatible, parse_tfm
from repotrans.execution.toolchains.msbuild import SKIP_DIRS, Project

DLL_RE = re.compile(r"([^/\\*?$]+)\.(dll|exe)$", re.IGNORECASE)


def project_ids(found: dict[Path, Project], roots: list[Path]) -> tuple[dict[str, list[Path]], list[str]]:
    """id (lower case) -> the projects that build it, and one note per nuspec id mapped to projects."""
    by_id: dict[str, list[Path]] = {}

    def add(key: str, path: Path) -> None:
        paths = by_id.setdefault(key.lower(), [])
        if path not in paths:
            paths.append(path)

    by_assembly: dict[str, list[Path]] = {}
    for project in sorted(found.values(), key=lambda p: p.path):
        add(project.package_id, project.path)
        add(project.assembly_name, project.path)
        by_assembly.setdefault(project.assembly_name.lower(), []).append(project.path)
    notes = []
    for nuspec in _nuspecs(roots):
        package, dlls = read_nuspec(nuspec)
        if not package or package.lower() in by_id:
            continue
        builders = [path for dll in dlls for path in by_assembly.get(dll.lower(), [])]
        for path in builders:
            add(package, path)
        if builders:
            notes.append(f"package {package} ({nuspec.name}) is built by "
                         + ", ".join(sorted({found[p].name for p in builders})))
    return by_id, notes


def read_nuspec(path: Path) -> tuple[str, list[str]]:
    """(package id, assembly names of the dlls its <files> ship); ("", []) when it cannot be read."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError):
        return "", []
    package, dlls = "", []
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag == "id" and not package:
            package = (element.text or "").strip()
        elif tag == "file":
            m = DLL_RE.search((element.get("src") or "").strip())
            if m and m.group(1) not in dlls:
                dlls.append(m.group(1))
    return ("" if "$" in package else package), dlls


def best_project(paths: list[Path], found: dict[Path, Project], target_framework: str) -> Path:
    """Of several projects building one id, the one whose framework the referencing project can use,
    newest first; the first listed when none fits."""
    def fit(path: Path) -> tuple:
        tfm = found[path].target_framework
        ok = bool(tfm) and (not target_framework or compatible(target_framework, tfm))
        return (ok, parse_tfm(tfm).version if tfm else ())
    return max(paths, key=fit)


def _nuspecs(roots: list[Path]) -> list[Path]:
    out = []
    for root in roots:
        for path in sorted(root.rglob("*.nuspec")):
            if not any(p in SKIP_DIRS or p.startswith(".") for p in path.relative_to(root).parts[:-1]):
                out.append(path)
    return out
