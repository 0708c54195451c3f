"""MSBuild items on disk: wildcard globs (`**`), Exclude/Remove, well-known item metadata
(%(RecursiveDir), %(Filename), ...) and where a Compile item and an embedded resource land."""
from __future__ import annotations

import re
from pathlib import Path

from repotrans.execution.toolchains.msbuild_expr import slashes
from repotrans.execution.workspace.real_paths import RealPaths


def glob_regex(pattern: str) -> re.Pattern:
    """MSBuild wildcard -> regex over '/'-separated relative paths (** spans folders)."""
    out, i, pattern = [], 0, slashes(pattern)
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


def all_files(folder: Path) -> list[str]:
    out = []
    for path in folder.rglob("*"):
        rel = path.relative_to(folder).parts
        if path.is_file() and not any(p in ("bin", "obj") or p.startswith(".") for p in rel[:-1]):
            out.append("/".join(rel))
    return sorted(out)


def resolve_path(base: Path, spec: str, paths: RealPaths | None = None) -> Path:
    """base/spec resolved (through `paths` when given); when it does not exist as written, matched
    case-insensitively one component at a time, as on the Windows file systems project files are written for."""
    path = (paths or RealPaths()).real(base / slashes(spec))
    if path.exists():
        return path
    cur = Path(path.anchor)
    for part in path.parts[1:]:
        nxt = cur / part
        if not nxt.exists() and cur.is_dir():
            low = part.lower()
            nxt = next((c for c in cur.iterdir() if c.name.lower() == low), nxt)
        cur = nxt
    return cur


def glob_files(base: Path, spec: str, exclude: list[Path] | None = None, paths: RealPaths | None = None) -> list[Path]:
    """The files `spec` (MSBuild wildcards) names under `base`, resolved (through `paths`: one project's items
    share their folders), less `exclude`."""
    paths = paths or RealPaths()
    spec = slashes(spec)
    if not any(ch in spec for ch in "*?"):
        path = resolve_path(base, spec, paths)
        found = [path] if path.is_file() else []
    else:
        parts = spec.split("/")
        fixed = 0
        while fixed < len(parts) - 1 and not any(ch in parts[fixed] for ch in "*?"):
            fixed += 1
        root = (base / "/".join(parts[:fixed])).resolve() if fixed else base.resolve()
        if not root.is_dir():
            return []
        rx = glob_regex("/".join(parts[fixed:]))
        found = [paths.real(root / rel) for rel in all_files(root) if rx.match(rel)]
    if exclude:
        drop = set(exclude)
        found = [f for f in found if f not in drop]
    return found


def matches_spec(base: Path, spec: str, path: Path) -> bool:
    """Does `path` match the (possibly wildcard) item spec relative to `base`?"""
    spec = slashes(spec)
    if not any(ch in spec for ch in "*?"):
        return path == resolve_path(base, spec)
    parts = spec.split("/")
    fixed = 0
    while fixed < len(parts) - 1 and not any(ch in parts[fixed] for ch in "*?"):
        fixed += 1
    root = (base / "/".join(parts[:fixed])).resolve() if fixed else base.resolve()
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        return False
    return bool(glob_regex("/".join(parts[fixed:])).match(rel))


def excludes(base: Path, meta: dict[str, str], paths: RealPaths | None = None) -> list[Path]:
    out = []
    for spec in (s.strip() for s in meta.get("__exclude", "").split(";") if s.strip()):
        out += glob_files(base, spec, paths=paths)
    return out


def compile_items(project_dir: Path, ops: list[tuple[str, str, dict[str, str], Path]], default: bool) -> list[Path]:
    """The project's compiled files: the default glob (SDK-style) and its Compile items, in order."""
    files: dict[Path, None] = {}
    paths = RealPaths()
    if default:
        for path in glob_files(project_dir, "**/*.cs", paths=paths):
            files[path] = None
    for op, spec, meta, base in ops:
        if op == "Include":
            for path in glob_files(base, spec, excludes(base, meta, paths), paths):
                if path.suffix.lower() == ".cs":
                    files[path] = None
        elif op == "Remove":
            for path in list(files):
                if matches_spec(base, spec, path):
                    del files[path]
    return sorted(files)


METADATA_RE = re.compile(r"%\(\s*(\w+)\s*\)")


def item_metadata(base: Path, spec: str, file: Path, meta: dict[str, str]) -> dict[str, str]:
    """The item's metadata for one file it matched, with MSBuild's well-known metadata
    (%(Identity), %(Filename), %(Extension), %(RecursiveDir), %(RelativeDir), %(FullPath), %(Directory),
    %(RootDir)) and its own metadata substituted in every value, as MSBuild batches them per item."""
    spec = slashes(spec)
    parts = spec.split("/")
    wild = next((i for i, part in enumerate(parts[:-1]) if any(c in part for c in "*?")), None)
    try:
        rel = file.relative_to((base / "/".join(parts[:len(parts) - 1 if wild is None else wild])).resolve())
        recursive = "" if wild is None else (rel.parent.as_posix() + "/" if rel.parent.as_posix() != "." else "")
    except ValueError:
        recursive = ""
    fixed = "/".join(parts[:wild if wild is not None else len(parts) - 1])
    identity = spec if not any(c in spec for c in "*?") else \
        (fixed + "/" if fixed else "") + recursive + file.name
    relative_dir = identity.rsplit("/", 1)[0] + "/" if "/" in identity else ""
    known = {"identity": identity, "filename": file.stem, "extension": file.suffix, "recursivedir": recursive,
             "relativedir": relative_dir, "fullpath": str(file), "rootdir": file.anchor,
             "directory": str(file.parent).lstrip("/") + "/", "definingprojectdirectory": str(base) + "/"}
    own = {k.lower(): v for k, v in meta.items() if not k.startswith("__")}

    def value(name: str, depth: int = 0) -> str:
        low = name.lower()
        if low in known:
            return known[low]
        text = own.get(low, "")
        return METADATA_RE.sub(lambda m: value(m.group(1), depth + 1), text) if depth < 4 else text

    return {k: METADATA_RE.sub(lambda m: value(m.group(1)), v) if not k.startswith("__") else v
            for k, v in meta.items()}


def manifest_name(root_namespace: str, project_dir: Path, file: Path, meta: dict[str, str]) -> str:
    """MSBuild's default manifest name for a non-.resx resource: RootNamespace.folder.file (Link wins)."""
    rel = slashes(meta["Link"]) if meta.get("Link") else (
        file.relative_to(project_dir).as_posix() if project_dir in file.parents else file.name)
    rel = rel.replace("/", ".")
    return f"{root_namespace}.{rel}" if root_namespace else rel


COPIED = ("always", "preservenewest")


def copied_items(project_dir: Path, ops: dict[str, list[tuple[str, str, dict[str, str], Path]]],
                 assembly_file: str, app_config: str = "") -> list[tuple[Path, str]]:
    """What a build copies beside the assembly: None and Content items with CopyToOutputDirectory Always
    or PreserveNewest (Include, or Update of the SDK's default items), each at its Link (or TargetPath),
    else at its path in the project folder (its file name when outside it); and the project's App.config
    (or $(AppConfig)) as <assembly file>.config. Returns (file, path under the output folder)."""
    found: dict[Path, str] = {}
    paths = RealPaths()
    for kind in ("None", "Content"):
        for op, spec, meta, base in ops.get(kind, []):
            if op == "Remove":
                for path in [p for p in found if matches_spec(base, spec, p)]:
                    del found[path]
                continue
            copy = meta.get("CopyToOutputDirectory", "").strip().lower()
            for file in glob_files(base, spec, excludes(base, meta, paths), paths):
                if copy in COPIED:
                    own = item_metadata(base, spec, file, meta)
                    link = own.get("TargetPath") or own.get("Link")
                    found[file] = slashes(link).lstrip("/") if link else (
                        file.relative_to(project_dir).as_posix() if project_dir in file.parents else file.name)
                elif copy == "never":
                    found.pop(file, None)
    config = resolve_path(project_dir, app_config) if app_config else next(
        (p for p in project_dir.glob("*") if p.name.lower() == "app.config" and p.is_file()), None)
    if config is not None and config.is_file():
        found[config] = assembly_file + ".config"
    return sorted(found.items(), key=lambda kv: kv[1])
