"""Evaluate .csproj files the way MSBuild does, far enough to compile them with mcs or hand them to dotnet.

SDK-style and classic projects. Evaluated like MSBuild (msbuild_eval): every property first (in file
order through imports: the project's own <Import>s, Directory.Build.props/.targets, relative,
$(SolutionDir) and $(MSBuildThisFileDirectory) paths), then every item with the final properties;
Conditions and property functions (msbuild_expr); items on disk (msbuild_items). Toolset imports (Microsoft.CSharp.targets, the SDK's files) are
not on disk here: they are skipped, and their effects that matter for compiling are modelled (SDK
default Compile globs, implicit DEBUG/TRACE and framework symbols). A project that multi-targets is
evaluated again for the framework chosen for the toolchain (frameworks.choose_framework).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.toolchains.frameworks import choose_framework, classic_tfm, implicit_defines
from repotrans.execution.toolchains.msbuild_eval import Evaluation, local_name, parse_project
from repotrans.execution.toolchains.msbuild_items import (compile_items, copied_items, excludes, glob_files, item_metadata,
                                                       manifest_name, resolve_path)

SKIP_DIRS = {"bin", "obj", ".git", ".vs", "node_modules", "packages"}
TEST_FRAMEWORKS = {"nunit": "nunit", "nunitlite": "nunit", "nunit.framework": "nunit", "xunit": "xunit",
                   "xunit.core": "xunit", "xunit.assert": "xunit", "mstest.testframework": "mstest",
                   "microsoft.visualstudio.qualitytools.unittestframework": "mstest"}


@dataclass
class Project:
    path: Path                                # absolute path of the .csproj
    name: str                                 # file stem
    assembly_name: str
    output_type: str                          # "Library" | "Exe"
    target_framework: str                     # the one chosen ("" when none could be)
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
    sdk: bool = True
    target_frameworks: list[str] = field(default_factory=list)
    framework_note: str = ""                  # why target_framework (or why none)
    notes: list[str] = field(default_factory=list)  # skipped imports and the like, for `doctor`
    extra_references: list[str] = field(default_factory=list)  # resolved package assemblies (paths or names)
    build_only_packages: list[str] = field(default_factory=list)  # nothing to compile against (by metadata)
    unresolved: list[str] = field(default_factory=list)  # packages found nowhere: built without them
    output_dir: Path | None = None            # $(OutputPath) / $(OutDir), resolved ("bin/..." when unset)
    runtime_siblings: list[Path] = field(default_factory=list)  # built into the same folder: copied beside it
    # what the build copies beside the assembly (CopyToOutputDirectory items, App.config): (file, path there)
    copied: list[tuple[Path, str]] = field(default_factory=list)

    @property
    def dir(self) -> Path:
        return self.path.parent

    @property
    def test_framework(self) -> str | None:
        """nunit | xunit | mstest | None, from the package and assembly references."""
        names = [n for n, _ in self.package_refs] + [n for n, _ in self.references]
        for name in names:
            kind = TEST_FRAMEWORKS.get(name.lower())
            if kind:
                return kind
        return None

    @property
    def nunit_major(self) -> int | None:
        """NUnit's major version when the project references NUnit (3 for a PackageReference without one)."""
        for name, version in self.package_refs:
            if name.lower() in ("nunit", "nunitlite"):
                m = re.match(r"\[?\s*(\d+)", version)
                return int(m.group(1)) if m else 3
        for name, hint in self.references:
            if name.lower() == "nunit.framework":
                m = re.search(r"nunit[.\w-]*?(\d)\.\d", str(hint or "").lower())
                return int(m.group(1)) if m else 2
        return None

    @property
    def own_sources(self) -> list[Path]:
        """Its sources in its own folder (not linked in from elsewhere); for a variant project whose folder
        holds none (NetFramework/X.csproj compiling ..\\Diff\\*.cs), those in the nearest folder above
        that holds some."""
        folder = self.dir
        while True:
            own = [s for s in self.sources if folder in s.parents]
            if own or folder.parent == folder:
                return own
            folder = folder.parent

    @property
    def is_test(self) -> bool:
        return self.test_framework is not None or self.properties.get("IsTestProject", "").lower() == "true"

    @property
    def package_id(self) -> str:
        return self.properties.get("PackageId") or self.assembly_name

    @property
    def dll_name(self) -> str:
        return self.assembly_name + (".exe" if self.output_type.lower() in ("exe", "winexe") else ".dll")


def find_projects(root: Path) -> list[Path]:
    """Every .csproj under root, bin/obj/packages and hidden folders excluded, sorted."""
    out = []
    for path in sorted(root.rglob("*.csproj")):
        rel = path.relative_to(root).parts
        if any(p in SKIP_DIRS or p.startswith(".") for p in rel[:-1]):
            continue
        out.append(path)
    return out


def load_projects(root: Path, toolchain: str = "mono", framework: str | None = None) -> list[Project]:
    """All projects of a repository in build order (references first); any error is a ConfigError."""
    root = root.resolve()
    projects = {p.resolve(): load_project(p.resolve(), root, toolchain, framework) for p in find_projects(root)}
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
        for ref in projects[path].project_refs + [r for r in projects[path].runtime_siblings if r in projects]:
            visit(ref, chain + (path.name,))
        state[path] = "done"
        ordered.append(projects[path])

    for path in sorted(projects):
        visit(path, ())
    return ordered


def load_project(path: Path, root: Path, toolchain: str = "mono", framework: str | None = None) -> Project:
    """Evaluate one project; a multi-targeting one for the framework chosen for `toolchain`."""
    project_root = parse_project(path)
    sdk = bool(project_root.get("Sdk")) or any(
        local_name(e.tag) == "Sdk" or (local_name(e.tag) == "Import" and e.get("Sdk")) for e in project_root)
    ev = Evaluation(path, root, sdk, {})
    ev.run(project_root)
    tfms = [t.strip() for t in ev.props.get("TargetFrameworks", "").split(";") if t.strip()]
    single = ev.props.get("TargetFramework", "").strip()
    if sdk and tfms and not single:
        chosen, note = choose_framework(tfms, toolchain, framework)
        if chosen:
            ev = Evaluation(path, root, sdk, {"TargetFramework": chosen})
            ev.run(project_root)
    elif sdk:
        chosen, note = choose_framework([single] if single else [], toolchain, None)
        tfms = [single] if single else []
    else:
        single = classic_tfm(ev.props)
        tfms = [single]
        chosen, note = choose_framework(tfms, toolchain, None)
    return _project(ev, chosen or "", tfms, note)


def _project(ev: Evaluation, tfm: str, tfms: list[str], note: str) -> Project:
    """The evaluated project for the framework `tfm`: its items resolved on disk, its settings read."""
    props, d = ev.props, ev.path.parent
    items = ev.item_ops()

    def flag(name: str) -> bool:
        return props.get(name, "").strip().lower() == "true"

    default = ev.sdk and props.get("EnableDefaultItems", "true").lower() != "false" and \
        props.get("EnableDefaultCompileItems", "true").lower() != "false"
    sources = compile_items(d, items.get("Compile", []), default)
    resources = []
    for op, spec, meta, base in items.get("EmbeddedResource", []):
        if op != "Include":
            continue
        for file in glob_files(base, spec, excludes(base, meta)):
            if file.suffix.lower() == ".resx":
                continue
            own = item_metadata(base, spec, file, meta)
            logical = own.get("LogicalName") or manifest_name(props.get("RootNamespace", ""), d, file, own)
            resources.append((file, logical))
    key = props.get("AssemblyOriginatorKeyFile", "").strip()
    defines: list[str] = []
    extra = implicit_defines(tfm) if ev.sdk and tfm else []
    for sym in re.split(r"[;,]", props.get("DefineConstants", "")) + extra:
        if sym.strip() and sym.strip() not in defines:
            defines.append(sym.strip())
    return Project(
        path=ev.path, name=ev.path.stem, assembly_name=props.get("AssemblyName") or ev.path.stem,
        output_type=props.get("OutputType", "Library") or "Library", target_framework=tfm,
        lang_version=props.get("LangVersion") or None, defines=defines, sign=flag("SignAssembly"),
        key_file=resolve_path(d, key) if key else None, unsafe=flag("AllowUnsafeBlocks"),
        sources=sources, resources=resources,
        project_refs=_unique(resolve_path(base, spec)
                             for op, spec, _, base in items.get("ProjectReference", []) if op == "Include"),
        package_refs=_packages(items.get("PackageReference", [])),
        build_only_packages=_build_only(items.get("PackageReference", [])),
        references=[(spec.split(",")[0].strip(),
                     resolve_path(base, meta["HintPath"]) if meta.get("HintPath") else None)
                    for op, spec, meta, base in items.get("Reference", []) if op == "Include"],
        properties=dict(props), sdk=ev.sdk, target_frameworks=tfms, framework_note=note, notes=ev.notes,
        output_dir=_output_dir(d, props),
        copied=copied_items(d, items, _assembly_file(props, ev.path.stem), props.get("AppConfig", "").strip()))


def _packages(ops: list[tuple[str, str, dict[str, str], Path]]) -> list[tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for op, spec, meta, _ in ops:
        if op == "Include":
            found[spec.lower()] = (spec, meta.get("Version", "") or meta.get("VersionOverride", ""))
        elif op == "Update" and spec.lower() in found and meta.get("Version"):
            found[spec.lower()] = (found[spec.lower()][0], meta["Version"])
        elif op == "Remove":
            found.pop(spec.lower(), None)
    return list(found.values())


def _build_only(ops: list[tuple[str, str, dict[str, str], Path]]) -> list[str]:
    """PackageReferences whose metadata says they give nothing to compile against: compile assets
    excluded (ExcludeAssets, or IncludeAssets without compile), or a private (PrivateAssets="all")
    analyzer or weaver (*.Fody): those act at build time only."""
    out: dict[str, str] = {}
    for op, spec, meta, _ in ops:
        if op == "Remove":
            out.pop(spec.lower(), None)
            continue
        lower = {k.lower(): v.lower() for k, v in meta.items()}
        exclude = {a.strip() for a in lower.get("excludeassets", "").split(";")}
        include = {a.strip() for a in lower.get("includeassets", "").split(";") if a.strip()}
        private = "all" in {a.strip() for a in lower.get("privateassets", "").split(";")}
        name = spec.lower()
        if exclude & {"compile", "all"} or (include and not include & {"compile", "all"}) or \
                (private and (name.endswith((".fody", "analyzers", ".analyzer")) or name == "fody")):
            out[name] = spec
        elif op == "Include":
            out.pop(name, None)
    return list(out.values())


def _assembly_file(props: dict[str, str], stem: str) -> str:
    """The assembly's file name, as Project.dll_name spells it."""
    exe = (props.get("OutputType") or "Library").lower() in ("exe", "winexe")
    return (props.get("AssemblyName") or stem) + (".exe" if exe else ".dll")


def _output_dir(project_dir: Path, props: dict[str, str]) -> Path | None:
    """Where MSBuild puts the project's assembly: $(OutDir), else $(OutputPath); None when neither is
    set (the SDK's per-project bin/ folder, shared with nothing)."""
    spec = (props.get("OutDir") or props.get("OutputPath") or "").strip()
    return resolve_path(project_dir, spec) if spec else None


def _unique(paths) -> list[Path]:
    return list(dict.fromkeys(paths))
