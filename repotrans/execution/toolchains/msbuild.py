"""Read SDK-style .csproj files the way MSBuild would, far enough to build them with mcs.

Evaluated: Directory.Build.props (nearest above the project, inside the repository), properties
with $(X) expansion and simple conditions, default Compile globbing plus Compile Include/Remove,
EmbeddedResource, ProjectReference, PackageReference, Reference, DefineConstants, SignAssembly,
AssemblyOriginatorKeyFile, AllowUnsafeBlocks, LangVersion, OutputType, AssemblyName.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.errors import ConfigError

SKIP_DIRS = {"bin", "obj", ".git", ".vs", "node_modules"}
DEFAULT_PROPERTIES = {"Configuration": "Debug", "Platform": "AnyCPU"}
TEST_PACKAGES = {"nunit", "nunitlite"}
PROP_RE = re.compile(r"\$\(([A-Za-z_][\w.]*)\)")
COND_RE = re.compile(r"^\s*'([^']*)'\s*(==|!=)\s*'([^']*)'\s*$")
EXISTS_RE = re.compile(r"^\s*(!)?\s*Exists\(\s*'([^']*)'\s*\)\s*$", re.IGNORECASE)


@dataclass
class Project:
    path: Path                                # absolute path of the .csproj
    name: str                                 # file stem
    assembly_name: str
    output_type: str                          # "Library" | "Exe"
    target_framework: str
    lang_version: str | None
    defines: list[str]
    sign: bool
    key_file: Path | None
    unsafe: bool
    sources: list[Path]                       # absolute, sorted
    resources: list[tuple[Path, str]]         # (file, manifest resource name)
    project_refs: list[Path]                  # absolute .csproj paths
    package_refs: list[tuple[str, str]]       # (name, version)
    references: list[tuple[str, Path | None]]  # (assembly name, HintPath)
    properties: dict[str, str] = field(default_factory=dict)

    @property
    def dir(self) -> Path:
        return self.path.parent

    @property
    def is_test(self) -> bool:
        return (any(name.lower() in TEST_PACKAGES for name, _ in self.package_refs)
                or any(name.lower().startswith("nunit.framework") for name, _ in self.references))

    @property
    def dll_name(self) -> str:
        return self.assembly_name + (".exe" if self.output_type.lower() in ("exe", "winexe") else ".dll")


def find_projects(root: Path) -> list[Path]:
    """Every .csproj under root, bin/obj and hidden folders excluded, sorted."""
    out = []
    for path in sorted(root.rglob("*.csproj")):
        rel = path.relative_to(root).parts
        if any(p in SKIP_DIRS or p.startswith(".") for p in rel[:-1]):
            continue
        out.append(path)
    return out


def load_projects(root: Path) -> list[Project]:
    """All projects of a repository in build order (references first)."""
    root = root.resolve()
    projects = {p.resolve(): load_project(p.resolve(), root) for p in find_projects(root)}
    if not projects:
        raise ConfigError(f"no .csproj file under {root}")
    return build_order(projects)


def build_order(projects: dict[Path, Project]) -> list[Project]:
    ordered: list[Project] = []
    state: dict[Path, str] = {}

    def visit(path: Path, chain: tuple[str, ...]) -> None:
        if state.get(path) == "done":
            return
        if state.get(path) == "active":
            raise ConfigError(f"project reference cycle: {' -> '.join(chain + (path.name,))}")
        if path not in projects:
            raise ConfigError(f"{chain[-1]} references {path}, which does not exist")
        state[path] = "active"
        for ref in projects[path].project_refs:
            visit(ref, chain + (path.name,))
        state[path] = "done"
        ordered.append(projects[path])

    for path in sorted(projects):
        visit(path, ())
    return ordered


def load_project(path: Path, root: Path) -> Project:
    try:
        tree = ET.parse(path)
    except (ET.ParseError, OSError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    project_dir = path.parent
    props = dict(DEFAULT_PROPERTIES)
    props.update({"MSBuildProjectDirectory": str(project_dir), "MSBuildProjectName": path.stem,
                  "MSBuildProjectFile": path.name, "AssemblyName": path.stem, "RootNamespace": path.stem,
                  "DefineConstants": "", "MSBuildThisFileDirectory": str(project_dir) + "/"})
    items: dict[str, list[tuple[str, str, dict[str, str]]]] = {}
    props_file = _directory_build_props(project_dir, root)
    if props_file is not None:
        _evaluate(_parse(props_file), props, items, props_file.parent)
    props["MSBuildThisFileDirectory"] = str(project_dir) + "/"
    _evaluate(tree.getroot(), props, items, project_dir)

    def flag(name: str) -> bool:
        return props.get(name, "").strip().lower() == "true"

    sources = _compile_items(project_dir, items.get("Compile", []),
                             default=props.get("EnableDefaultCompileItems", "true").lower() != "false")
    resources = []
    for op, spec, meta in items.get("EmbeddedResource", []):
        if op != "Include":
            continue
        for file in _glob(project_dir, spec):
            logical = meta.get("LogicalName") or _manifest_name(props["RootNamespace"], project_dir, file)
            resources.append((file, logical))
    key = props.get("AssemblyOriginatorKeyFile", "").strip()
    defines = ["DEBUG", "TRACE"] if props["Configuration"] == "Debug" else ["TRACE"]
    for d in re.split(r"[;,]", props.get("DefineConstants", "")):
        if d.strip() and d.strip() not in defines:
            defines.append(d.strip())
    return Project(
        path=path, name=path.stem, assembly_name=props["AssemblyName"],
        output_type=props.get("OutputType", "Library") or "Library",
        target_framework=props.get("TargetFramework") or props.get("TargetFrameworks", "").split(";")[0],
        lang_version=props.get("LangVersion") or None, defines=defines, sign=flag("SignAssembly"),
        key_file=(project_dir / _slashes(key)).resolve() if key else None, unsafe=flag("AllowUnsafeBlocks"),
        sources=sources, resources=resources,
        project_refs=[(project_dir / _slashes(spec)).resolve()
                      for op, spec, _ in items.get("ProjectReference", []) if op == "Include"],
        package_refs=[(spec, meta.get("Version", "")) for op, spec, meta in items.get("PackageReference", [])
                      if op == "Include"],
        references=[(spec.split(",")[0].strip(),
                     (project_dir / _slashes(meta["HintPath"])).resolve() if meta.get("HintPath") else None)
                    for op, spec, meta in items.get("Reference", []) if op == "Include"],
        properties=props,
    )


def _directory_build_props(project_dir: Path, root: Path) -> Path | None:
    d = project_dir
    while True:
        candidate = d / "Directory.Build.props"
        if candidate.is_file():
            return candidate
        if d == root or root not in d.parents:
            return None
        d = d.parent


def _parse(path: Path) -> ET.Element:
    try:
        return ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _evaluate(root: ET.Element, props: dict[str, str],
              items: dict[str, list[tuple[str, str, dict[str, str]]]], file_dir: Path) -> None:
    props["MSBuildThisFileDirectory"] = str(file_dir) + "/"
    for group in root:
        kind = _local(group.tag)
        if not _condition(group.get("Condition"), props, file_dir):
            continue
        if kind == "PropertyGroup":
            for prop in group:
                if _condition(prop.get("Condition"), props, file_dir):
                    props[_local(prop.tag)] = _expand((prop.text or "").strip(), props)
        elif kind == "ItemGroup":
            for item in group:
                if not _condition(item.get("Condition"), props, file_dir):
                    continue
                meta = {_local(m.tag): _expand((m.text or "").strip(), props) for m in item}
                meta.update({k: _expand(v, props) for k, v in item.attrib.items()
                             if k not in ("Include", "Remove", "Update", "Condition")})
                for op in ("Include", "Remove", "Update"):
                    if item.get(op) is not None:
                        for spec in _expand(item.get(op), props).split(";"):
                            if spec.strip():
                                items.setdefault(_local(item.tag), []).append((op, spec.strip(), meta))


def _expand(text: str, props: dict[str, str]) -> str:
    return PROP_RE.sub(lambda m: props.get(m.group(1), ""), text)


def _condition(cond: str | None, props: dict[str, str], file_dir: Path) -> bool:
    """Simple MSBuild conditions: '..'=='..', '..'!='..', Exists('..'), joined by and/or."""
    if not cond or not cond.strip():
        return True
    text = _expand(cond, props).strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    for joiner, combine in ((" or ", any), (" and ", all)):
        parts = re.split(joiner, text, flags=re.IGNORECASE)
        if len(parts) > 1:
            return combine(_condition(p, {}, file_dir) for p in parts)
    m = COND_RE.match(text)
    if m:
        equal = m.group(1).strip().lower() == m.group(3).strip().lower()
        return equal if m.group(2) == "==" else not equal
    m = EXISTS_RE.match(text)
    if m:
        exists = (file_dir / _slashes(m.group(2))).exists()
        return not exists if m.group(1) else exists
    raise ConfigError(f"unsupported MSBuild condition: {cond}")


def _slashes(spec: str) -> str:
    return spec.replace("\\", "/")


def glob_regex(pattern: str) -> re.Pattern:
    """MSBuild wildcard -> regex over '/'-separated relative paths (** spans folders)."""
    out, i, pattern = [], 0, _slashes(pattern)
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z", re.IGNORECASE)


def _all_files(project_dir: Path) -> list[str]:
    out = []
    for path in project_dir.rglob("*"):
        rel = path.relative_to(project_dir).parts
        if path.is_file() and not any(p in ("bin", "obj") or p.startswith(".") for p in rel[:-1]):
            out.append("/".join(rel))
    return sorted(out)


def _glob(project_dir: Path, spec: str) -> list[Path]:
    spec = _slashes(spec)
    if not any(ch in spec for ch in "*?"):
        path = (project_dir / spec).resolve()
        return [path] if path.is_file() else []
    parts = spec.split("/")
    fixed = 0
    while fixed < len(parts) - 1 and not any(ch in parts[fixed] for ch in "*?"):
        fixed += 1
    base = (project_dir / "/".join(parts[:fixed])).resolve() if fixed else project_dir
    if not base.is_dir():
        return []
    rx = glob_regex("/".join(parts[fixed:]))
    return [(base / rel).resolve() for rel in _all_files(base) if rx.match(rel)]


def _compile_items(project_dir: Path, ops: list[tuple[str, str, dict[str, str]]], default: bool) -> list[Path]:
    files: dict[Path, None] = {}
    if default:
        for path in _glob(project_dir, "**/*.cs"):
            files[path] = None
    for op, spec, _ in ops:
        if op == "Include":
            for path in _glob(project_dir, spec):
                files[path] = None
        elif op == "Remove":
            rx = glob_regex(spec)
            for path in list(files):
                try:
                    rel = path.relative_to(project_dir).as_posix()
                except ValueError:
                    rel = path.as_posix()
                if rx.match(rel) or path == (project_dir / _slashes(spec)).resolve():
                    del files[path]
    return sorted(files)


def _manifest_name(root_namespace: str, project_dir: Path, file: Path) -> str:
    """MSBuild's default manifest name for a non-.resx resource: RootNamespace.folder.file."""
    rel = file.relative_to(project_dir).as_posix().replace("/", ".")
    return f"{root_namespace}.{rel}" if root_namespace else rel
