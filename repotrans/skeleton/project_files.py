"""Minimal project files for a port that ships only .cs files (`repotrans init --write-project`).

The port's files are split by what they import: a file that uses a test framework (NUnit, MSTest, xUnit) is
test code, anything else is the library. The library project sits at the port's root; the tests get their own
project in the folder that holds them all (SDK-style, the default globbing picks them up), referencing the
library and the framework their `using`s name (the one most test files name). Both are what mono (NUnit 2.6,
MSTest through repotrans's layer) and `dotnet build` read; nothing else is guessed.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.errors import ConfigError

SKIP = {"bin", "obj", ".git", ".repotrans"}
TEST_USING = re.compile(r"^\s*using\s+(NUnit\.Framework|Xunit|Microsoft\.VisualStudio\.TestTools)\b", re.M)
# The package each framework's `using` asks for (MSTest's is read by repotrans's MSTest layer on mono).
PACKAGES = {"NUnit.Framework": ("NUnit", "NUnit", "2.6.4"),
            "Microsoft.VisualStudio.TestTools": ("MSTest", "MSTest.TestFramework", "2.2.10"),
            "Xunit": ("xUnit", "xunit", "2.4.2")}
NAMESPACE = re.compile(r"^\s*namespace\s+([\w.]+)", re.M)
FRAMEWORK = "net48"


@dataclass
class ProjectFiles:
    """The files to write (path relative to the port's root -> text), and what was found."""
    files: dict[str, str] = field(default_factory=dict)
    library: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    framework: str = "NUnit.Framework"       # the `using` most test files name (a key of PACKAGES)

    def render(self) -> str:
        lines = [f"{len(self.library)} library file(s), {len(self.tests)} test file(s) "
                 f"(they use {PACKAGES[self.framework][0]})"]
        for path, text in self.files.items():
            lines += [f"--- {path}", text.rstrip()]
        return "\n".join(lines)


def plan_projects(root: Path) -> ProjectFiles:
    """The minimal library and test projects for the .cs files under `root` (ConfigError when it already
    has a project, or holds no .cs file)."""
    found = _cs_files(root)
    if any(_walk(root, ".csproj")):
        raise ConfigError(f"{root} already has a .csproj; --write-project is for a folder of .cs files only")
    if not found:
        raise ConfigError(f"no .cs file under {root}")
    plan = ProjectFiles()
    frameworks: dict[str, int] = {}
    for path in found:
        text = path.read_text(encoding="utf-8", errors="replace")
        used = TEST_USING.search(text)
        (plan.tests if used else plan.library).append(path.relative_to(root).as_posix())
        if used:
            frameworks[used.group(1)] = frameworks.get(used.group(1), 0) + 1
    if frameworks:
        plan.framework = max(frameworks, key=lambda f: frameworks[f])
    package = PACKAGES[plan.framework][1:]
    name = _name(root, plan.library)
    test_dir = _common_folder(plan.tests)
    if plan.tests and test_dir and not any(f.startswith(test_dir + "/") for f in plan.library):
        removed = [test_dir]
        plan.files[f"{name}.csproj"] = _library(removed)
        plan.files[f"{test_dir}/{name}.Tests.csproj"] = _tests(os.path.relpath(root / f"{name}.csproj", root / test_dir),
                                                                 package)
    elif plan.tests:                     # tests beside the library: each project lists its files
        plan.files[f"{name}.csproj"] = _library([], explicit=plan.library)
        plan.files[f"{name}.Tests/{name}.Tests.csproj"] = _tests(f"../{name}.csproj", package,
                                                                 explicit=[f"../{t}" for t in plan.tests])
    else:
        plan.files[f"{name}.csproj"] = _library([])
    return plan


def write_projects(root: Path, plan: ProjectFiles) -> list[Path]:
    """Write the planned files under `root` (never over an existing file)."""
    written = []
    for rel, text in plan.files.items():
        path = root / rel
        if path.exists():
            raise ConfigError(f"{path} exists; not overwritten")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _library(removed: list[str], explicit: list[str] | None = None) -> str:
    items = "".join(f'    <Compile Remove="{d}/**" />\n' for d in removed)
    if explicit is not None:
        items = "".join(f'    <Compile Include="{f}" />\n' for f in explicit)
    default = "    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>\n" if explicit is not None else ""
    return ('<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
            f"    <TargetFramework>{FRAMEWORK}</TargetFramework>\n{default}  </PropertyGroup>\n"
            + (f"  <ItemGroup>\n{items}  </ItemGroup>\n" if items else "") + "</Project>\n")


def _tests(library: str, package: tuple[str, str], explicit: list[str] | None = None) -> str:
    default = "    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>\n" if explicit is not None else ""
    files = "".join(f'    <Compile Include="{f}" />\n' for f in explicit or ())
    return ('<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n'
            f"    <TargetFramework>{FRAMEWORK}</TargetFramework>\n{default}  </PropertyGroup>\n"
            + (f"  <ItemGroup>\n{files}  </ItemGroup>\n" if files else "")
            + f'  <ItemGroup>\n    <PackageReference Include="{package[0]}" Version="{package[1]}" />\n  </ItemGroup>\n'
            f'  <ItemGroup>\n    <ProjectReference Include="{library.replace("/", chr(92))}" />\n  </ItemGroup>\n'
            "</Project>\n")


def _name(root: Path, library: list[str]) -> str:
    """The library's name: its files' common namespace prefix, else the folder's name."""
    spaces = []
    for rel in library:
        m = NAMESPACE.search((root / rel).read_text(encoding="utf-8", errors="replace"))
        if m:
            spaces.append(m.group(1).split("."))
    common: list[str] = []
    for parts in zip(*spaces) if spaces else ():
        if len(set(parts)) > 1:
            break
        common.append(parts[0])
    return ".".join(common) or re.sub(r"\W", "", root.resolve().name) or "Library"


def _common_folder(paths: list[str]) -> str:
    """The deepest folder holding every path ('' for the root)."""
    if not paths:
        return ""
    return os.path.commonpath([os.path.dirname(p) or "." for p in paths]).replace(os.sep, "/").strip(".")


def _cs_files(root: Path) -> list[Path]:
    return sorted(_walk(root, ".cs"))


def _walk(root: Path, suffix: str):
    for path in root.rglob(f"*{suffix}"):
        if not any(part in SKIP or part.startswith(".") for part in path.relative_to(root).parts[:-1]):
            yield path
