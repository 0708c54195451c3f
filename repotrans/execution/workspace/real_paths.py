"""Real paths of files, each folder resolved once: `Path.resolve()` walks every component of a path with a
system call, and a big port's build plan resolves thousands of files in a few folders."""
from __future__ import annotations

from pathlib import Path


class RealPaths:
    """`real(path)` is `path.resolve()`, with the real path of each absolute folder kept by this instance
    (its owner's lifetime: a build plan's evaluation, a workspace)."""

    def __init__(self) -> None:
        self._folders: dict[Path, Path] = {}

    def real(self, path: Path | str) -> Path:
        """`path` resolved as Path.resolve() resolves it: its folder's kept real path, the name joined, and a
        name that is itself a link followed."""
        path = Path(path)
        if not path.is_absolute() or path.name in ("", ".", ".."):
            return path.resolve()
        folder = self._folders.get(path.parent)
        if folder is None:
            folder = self._folders[path.parent] = path.parent.resolve()
        found = folder / path.name
        return found.resolve() if found.is_symlink() else found
