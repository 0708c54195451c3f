"""Put generated C# files into the target the way its projects compile files.

An SDK-style project picks a new file up by its default glob; a classic project (or an SDK one with
`EnableDefaultCompileItems=false`) needs a `<Compile Include=...>` item, added next to the items of
its other files. Which projects get the file: every project that compiles a file of the same folder
(or, for a new folder, of the nearest parent folder that has compiled files).
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath

from repotrans.errors import ConfigError
from repotrans.execution.toolchains.api import Project, find_projects, load_project

_COMPILE = re.compile(r'^([ \t]*)<Compile\s+Include="([^"]+)"\s*(/>|>)', re.M)


@dataclass
class Placement:
    written: list[str] = field(default_factory=list)                 # target-relative files written
    projects: dict[str, list[str]] = field(default_factory=dict)     # project -> files added to its Compile list
    globbed: dict[str, list[str]] = field(default_factory=dict)      # project -> files its glob picks up
    notes: list[str] = field(default_factory=list)


def load_target_projects(root: Path) -> list[Project]:
    """Every project under the target that can be evaluated (the others cannot take files)."""
    out = []
    for path in find_projects(root):
        try:
            out.append(load_project(path.resolve(), root.resolve()))
        except ConfigError:
            continue
    return out


def owners(rel_path: str, root: Path, projects: list[Project]) -> list[Project]:
    """Projects that compile files of rel_path's folder (nearest folder up that any project compiles, or
    whose project file it holds: a test project whose only file so far is Properties/AssemblyInfo.cs)."""
    folder = (root / rel_path).resolve().parent
    root = root.resolve()
    while True:
        found = [p for p in projects if any(s.parent == folder for s in p.sources)] or \
            [p for p in projects if p.path.resolve().parent == folder]
        if found or folder == root or root not in folder.parents:
            return found
        folder = folder.parent


def place_files(root: Path, files: dict[str, str], projects: list[Project] | None = None) -> Placement:
    """Write `files` (target-relative path -> text) and add each to the projects that should compile it."""
    root = root.resolve()
    projects = projects if projects is not None else load_target_projects(root)
    placement = Placement()
    additions: dict[Path, list[str]] = {}
    for rel, text in sorted(files.items()):
        owning = owners(rel, root, projects)
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        placement.written.append(rel)
        if not owning:
            placement.notes.append(f"{rel}: no project compiles files in or above its folder; add it by hand")
        for p in owning:
            if _globbed(p, path):
                placement.globbed.setdefault(p.name, []).append(rel)
            else:
                additions.setdefault(p.path, []).append(rel)
    for csproj, rels in additions.items():
        add_compile_items(csproj, [root / r for r in rels])
        placement.projects[csproj.stem] = sorted(rels)
    return placement


def _globbed(project: Project, path: Path) -> bool:
    """Does the project compile `path` without an explicit item (SDK default items)?"""
    if not project.sdk:
        return False
    enabled = project.properties.get("EnableDefaultCompileItems", "true").strip().lower() != "false"
    return enabled and project.dir in path.parents


def add_compile_items(csproj: Path, files: list[Path]) -> None:
    """Insert `<Compile Include="...">` items after the project's last Compile item (or a new ItemGroup)."""
    raw = csproj.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    items = list(_COMPILE.finditer(text))
    backslash = not items or "\\" in items[-1].group(2) or "/" not in items[-1].group(2)
    rels = []
    for f in files:
        rel = posixpath.relpath(f.as_posix(), csproj.parent.resolve().as_posix())
        rels.append(str(PureWindowsPath(rel)) if backslash else rel)
    if items:
        last = items[-1]
        indent = last.group(1)
        end = text.index("/>", last.start()) + 2 if last.group(3) == "/>" else \
            text.index("</Compile>", last.start()) + len("</Compile>")
        insert = "".join(f'\n{indent}<Compile Include="{r}" />' for r in rels)
        text = text[:end] + insert + text[end:]
    else:
        group = "  <ItemGroup>\n" + "".join(f'    <Compile Include="{r}" />\n' for r in rels) + "  </ItemGroup>\n"
        cut = text.rindex("</Project>")
        text = text[:cut] + group + text[cut:]
    if "\r\n" in text:
        text = re.sub(r"(?<!\r)\n", "\r\n", text)
    csproj.write_bytes(("\ufeff" if bom else "").encode("utf-8") + text.encode("utf-8"))
