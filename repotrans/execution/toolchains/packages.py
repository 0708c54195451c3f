"""PackageReference -> what to compile against: assemblies from a local NuGet packages folder
(~/.nuget/packages, $NUGET_PACKAGES, --packages DIR), else a project (in the target tree or under
--project-path DIR) whose PackageId or AssemblyName is the package's id. No network: a package
found nowhere is a one-line reason naming the package and the two options."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from repotrans.execution.toolchains.frameworks import compatible, parse_tfm

# Packages that only matter to a build server or an IDE: nothing to compile against.
BUILD_ONLY = ("microsoft.net.test.sdk", "nunit3testadapter", "nunit.analyzers", "coverlet.", "microsoft.sourcelink.",
              "stylecop.analyzers", "microsoft.codeanalysis.", "nerdbank.gitversioning", "minver", "gitversion",
              "microsoft.netframework.referenceassemblies", "netstandard.library", "microsoft.net.compilers",
              "microsoft.codecoverage", "roslynator.", "sonaranalyzer.", "xunit.runner.", "mstest.testadapter",
              "microsoft.dotnet.", "microsoft.build.", "githublink", "fody", "costura.", "jetbrains.annotations",
              "appveyor.testlogger", "junitxml.testlogger", "nunitxml.testlogger", "dotnet-")
# Test frameworks the toolchain brings itself (mono: NUnit 2.6 plus the NUnit 3 and MSTest compatibility layers).
TOOLCHAIN_PROVIDED = ("nunit", "nunitlite", "nunit.console", "nunit.consolerunner", "mstest.testframework", "mstest")
# Packages whose assembly mono ships under another name (the package brings .NET Framework's assembly).
FRAMEWORK_PACKAGES = {"system.drawing.common": "System.Drawing",
                      "system.componentmodel.annotations": "System.ComponentModel.DataAnnotations",
                      "system.xml.xdocument": "System.Xml.Linq", "system.xml.xmldocument": "System.Xml",
                      "system.data.datasetextensions": "System.Data.DataSetExtensions",
                      "system.configuration.configurationmanager": "System.Configuration",
                      "system.security.permissions": "System.Security",
                      "system.runtime.caching": "System.Runtime.Caching",
                      "system.serviceprocess.servicecontroller": "System.ServiceProcess"}
MONO_DIRS = (Path("/usr/lib/mono/4.5"), Path("/usr/lib/mono/4.5/Facades"))


@dataclass
class Resolution:
    assemblies: list[Path] = field(default_factory=list)   # dlls to reference
    projects: list[Path] = field(default_factory=list)     # .csproj files that stand in for packages
    framework_refs: list[str] = field(default_factory=list)  # assembly names the toolchain has
    notes: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)       # one line per package found nowhere


def package_dirs(extra: list[Path]) -> list[Path]:
    """Where local NuGet packages are looked for, in order."""
    dirs = list(extra)             # --packages, then $NUGET_PACKAGES (added by the CLI's settings)
    dirs.append(Path.home() / ".nuget" / "packages")
    return [d for d in dict.fromkeys(dirs)]


def mono_assembly(name: str) -> Path | None:
    """A framework assembly mono ships (System.Drawing, WindowsBase, System.ValueTuple facade, ...)."""
    low = name.lower().removesuffix(".dll")
    for d in MONO_DIRS:
        if d.is_dir():
            for f in d.iterdir():
                if f.name.lower() == low + ".dll":
                    return f
    return None


def resolve_packages(refs: list[tuple[str, str]], target_framework: str, dirs: list[Path],
                     project_for: Callable[[str], Path | None], toolchain: str,
                     build_only: tuple[str, ...] = ()) -> Resolution:
    """Resolve a project's PackageReferences (name, version) for its chosen framework; project_for
    names the project in the tree that builds a package id (None: none does)."""
    res = Resolution()
    skip = {b.lower() for b in build_only}
    for name, version in refs:
        low = name.lower()
        if low.startswith(BUILD_ONLY) or low in BUILD_ONLY or low in skip:
            continue
        if low in TOOLCHAIN_PROVIDED:
            continue
        folder = _package_folder(low, version, dirs)
        if folder is not None:
            dlls = _lib_assemblies(folder, target_framework)
            res.assemblies += dlls
            res.notes.append(f"package {name} {version}: {folder}" + ("" if dlls else " (no lib assets)"))
            continue
        project = project_for(low)
        if project is not None:
            res.projects.append(project)
            res.notes.append(f"package {name}: built from {project}")
            continue
        if toolchain == "mono" and (mono_assembly(name) or mono_assembly(FRAMEWORK_PACKAGES.get(low, ""))):
            res.framework_refs.append(FRAMEWORK_PACKAGES.get(low, name))
            continue
        where = ", ".join(str(d) for d in dirs)
        res.missing.append(f"PackageReference {name} {version}".rstrip() +
                           f" is not in a local NuGet folder ({where}) and no project in the target tree has "
                           f"PackageId/AssemblyName/.nuspec id {name}: pass --packages DIR (a NuGet packages "
                           f"folder) or --project-path DIR (a checkout of its source)")
    return res


def _package_folder(low: str, version: str, dirs: list[Path]) -> Path | None:
    want = version.strip().strip("[]()").split(",")[0].strip()
    for d in dirs:
        base = d / low
        if not base.is_dir():
            continue
        versions = sorted((v for v in base.iterdir() if v.is_dir()), key=lambda v: _vkey(v.name), reverse=True)
        exact = [v for v in versions if v.name.lower() == want.lower()]
        at_least = [v for v in versions if _vkey(v.name) >= _vkey(want)] if want else versions
        for choice in (exact, at_least, versions):
            if choice:
                return choice[0] if choice is not at_least else choice[-1]
    return None


def _lib_assemblies(folder: Path, target_framework: str) -> list[Path]:
    """The dlls of lib/<the best compatible framework>/ (ref/ when there is no lib/)."""
    for kind in ("lib", "ref"):
        base = folder / kind
        if not base.is_dir():
            continue
        subs = [s for s in base.iterdir() if s.is_dir()]
        fitting = [s for s in subs if target_framework and compatible(target_framework, s.name)]
        if not fitting:
            fitting = [s for s in subs if not parse_tfm(s.name).platform]
        if not fitting:
            dlls = sorted(base.glob("*.dll"))
            if dlls:
                return dlls
            continue
        best = max(fitting, key=lambda s: (parse_tfm(s.name).identifier == parse_tfm(target_framework).identifier,
                                           parse_tfm(s.name).version))
        return sorted(best.glob("*.dll"))
    return []


def _vkey(text: str) -> tuple:
    return tuple(int(n) for n in re.findall(r"\d+", text.split("-")[0])[:4]) or (0,)


NAME_IN_NS_RE = re.compile(r"`([\w.]+)' does not exist in the namespace `([\w.]+)'")
NAME_RE = re.compile(r"`([\w.]+)(?:<[^']*>)?'")


def blamed_packages(messages: list[str], unresolved: list[str]) -> list[str]:
    """The packages built without whose namespaces or types the compiler errors name (a package id
    and a namespace that are prefixes of one another: `Acme.Geo.Api` and `Acme.Geo`)."""
    names: set[str] = set()
    for message in messages:
        for inner, outer in NAME_IN_NS_RE.findall(message):
            names.add(f"{outer}.{inner}".lower())
        names.update(n.lower() for n in NAME_RE.findall(message))
    blamed = []
    for package in unresolved:
        low = package.lower()
        if any(n == low or low.startswith(n + ".") or n.startswith(low + ".") for n in names if "." in n or n == low):
            blamed.append(package)
    return blamed
