"""One MSBuild evaluation pass over a project and its imports (msbuild.py turns it into a Project):
every property first, in file order through the project's own <Import>s, Directory.Build.props/.targets
and the toolset files' implied imports, then the item operations (Include/Remove/Update with their
metadata) read with the final properties."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.toolchains.msbuild_expr import TOOLSET, evaluate_condition, expand, slashes
from repotrans.execution.toolchains.msbuild_items import glob_files, resolve_path

TOOLSET_PROPS = ("MSBuildToolsPath", "MSBuildBinPath", "MSBuildExtensionsPath", "MSBuildExtensionsPath32",
                 "MSBuildExtensionsPath64", "VSToolsPath", "MSBuildFrameworkToolsPath", "MSBuildSDKsPath")
# Toolset files that bring Directory.Build.props / .targets with them.
IMPLIES = {"microsoft.common.props": "Directory.Build.props", "microsoft.csharp.targets": "Directory.Build.targets",
           "microsoft.common.targets": "Directory.Build.targets"}
ITEM_TYPES = ("Compile", "EmbeddedResource", "ProjectReference", "PackageReference", "Reference", "None", "Content")


class Evaluation:
    """One evaluation pass over a project and its imports: properties, then items."""

    def __init__(self, path: Path, root: Path, sdk: bool, globals_: dict[str, str]):
        self.path, self.root, self.sdk, self.globals = path, root, sdk, globals_
        d = path.parent
        sln_dir = _solution_dir(d, root)
        self.props: dict[str, str] = {
            "Configuration": "Debug", "Platform": "AnyCPU", "OS": "Unix", "MSBuildRuntimeType": "Mono",
            "MSBuildProjectDirectory": str(d), "MSBuildProjectName": path.stem, "MSBuildProjectFile": path.name,
            "MSBuildProjectFullPath": str(path), "MSBuildProjectExtension": path.suffix,
            "MSBuildStartupDirectory": str(d), "SolutionDir": str(sln_dir) + "/",
            "MSBuildToolsVersion": "Current", "VisualStudioVersion": "17.0", "DefineConstants": "",
        }
        self.props.update({name: TOOLSET for name in TOOLSET_PROPS})
        if sdk:
            self.props.update({"AssemblyName": path.stem, "RootNamespace": path.stem, "OutputType": "Library",
                               "EnableDefaultItems": "true", "EnableDefaultCompileItems": "true",
                               "DefineConstants": "DEBUG;TRACE", "BaseIntermediateOutputPath": "obj/",
                               "BaseOutputPath": "bin/"})
        self.props.update(globals_)
        self.items: list[tuple[ET.Element, Path]] = []     # item elements with the file they came from
        self.notes: list[str] = []
        self.imported: set[Path] = set()

    # -- pass 1: properties (and the item elements, in order) -----------------------------------
    def run(self, project_root: ET.Element) -> None:
        if self.sdk:
            self._implied("Directory.Build.props")
        self._file(project_root, self.path)
        if self.sdk:
            self._implied("Directory.Build.targets")

    def _this_file(self, file: Path) -> None:
        self.props.update({"MSBuildThisFileDirectory": str(file.parent) + "/", "MSBuildThisFile": file.name,
                           "MSBuildThisFileFullPath": str(file), "MSBuildThisFileName": file.stem,
                           "MSBuildThisFileExtension": file.suffix})

    def _file(self, element: ET.Element, file: Path) -> None:
        self.imported.add(file)
        self._this_file(file)
        for child in element:
            kind = local_name(child.tag)
            if kind in ("PropertyGroup", "ItemGroup", "Import", "ImportGroup", "Choose"):
                self._this_file(file)
            if kind == "PropertyGroup" and self._holds(child, file):
                for prop in child:
                    if isinstance(prop.tag, str) and self._holds(prop, file):
                        name = local_name(prop.tag)
                        if name not in self.globals:
                            self.props[name] = self._property_value(name, (prop.text or "").strip(), file)
            elif kind == "ItemGroup":
                self.items.append((child, file))
            elif kind == "Import" and self._holds(child, file):
                self._import(child, file)
            elif kind == "ImportGroup" and self._holds(child, file):
                self._file(child, file)
            elif kind == "Choose":
                self._choose(child, file)

    def _property_value(self, name: str, text: str, file: Path) -> str:
        """A property's value; one whose expression uses a function repotrans does not model (a
        build date, a registry key) is left empty with a note, as it rarely bears on compiling."""
        try:
            return expand(text, self.props)
        except ConfigError as exc:
            self.notes.append(f"property {name} left empty: {exc} (in {file.name})")
            return ""

    def _choose(self, element: ET.Element, file: Path) -> None:
        for branch in element:
            kind = local_name(branch.tag)
            if kind == "When" and self._holds(branch, file) or kind == "Otherwise":
                self._file(branch, file)
                return

    def _holds(self, element: ET.Element, file: Path) -> bool:
        return evaluate_condition(element.get("Condition"), self.props, file.parent)

    def _import(self, element: ET.Element, file: Path) -> None:
        if element.get("Sdk"):
            name = (element.get("Project") or "").lower()
            self._implied("Directory.Build.props" if name.endswith(".props") else "Directory.Build.targets")
            return
        spec = expand(element.get("Project") or "", self.props)
        for part in (s.strip() for s in spec.split(";") if s.strip()):
            if slashes(part).startswith(TOOLSET):
                implied = IMPLIES.get(slashes(part).rsplit("/", 1)[-1].lower())
                if implied:
                    self._implied(implied)
                continue
            targets = glob_files(file.parent, part) if any(c in part for c in "*?") else \
                [resolve_path(file.parent, part)]
            for target in targets:
                if not target.is_file():
                    self.notes.append(f"import not found: {part} (in {file.name})")
                    continue
                if target in self.imported:
                    continue
                self._file(parse_project(target), target)
                self._this_file(file)

    def _implied(self, name: str) -> None:
        found = _file_above(self.path.parent, name, self.root)
        if found is not None and found not in self.imported:
            self._file(parse_project(found), found)
            self._this_file(self.path)

    # -- pass 2: items with the final properties -----------------------------------------------
    def item_ops(self) -> dict[str, list[tuple[str, str, dict[str, str], Path]]]:
        out: dict[str, list[tuple[str, str, dict[str, str], Path]]] = {}
        for group, file in self.items:
            self._this_file(file)
            if not self._holds(group, file):
                continue
            for item in group:
                if not isinstance(item.tag, str) or local_name(item.tag) not in ITEM_TYPES or not self._holds(item, file):
                    continue
                meta = {local_name(m.tag): expand((m.text or "").strip(), self.props) for m in item
                        if isinstance(m.tag, str)}
                meta.update({k: expand(v, self.props) for k, v in item.attrib.items()
                             if k not in ("Include", "Remove", "Update", "Condition", "Exclude")})
                if item.get("Exclude"):
                    meta["__exclude"] = expand(item.get("Exclude"), self.props)
                for op in ("Include", "Remove", "Update"):
                    if item.get(op) is not None:
                        for spec in expand(item.get(op), self.props).split(";"):
                            if spec.strip() and not spec.strip().startswith(("@(", "%(")):
                                # relative item paths are the project's, even in an imported file
                                out.setdefault(local_name(item.tag), []).append((op, spec.strip(), meta, self.path.parent))
        self._this_file(self.path)
        return out


def _solution_dir(project_dir: Path, root: Path) -> Path:
    """$(SolutionDir) as Visual Studio sets it: the folder of the nearest .sln above the project
    (the repository root when there is none)."""
    for folder in (project_dir, *project_dir.parents):
        if any(folder.glob("*.sln")):
            return folder
        if folder == root:
            break
    return root


def _file_above(start: Path, name: str, root: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / name).is_file():
            return (folder / name).resolve()
        if folder == root or root not in folder.parents:
            return None
    return None


def parse_project(path: Path) -> ET.Element:
    try:
        return ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc


def local_name(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
