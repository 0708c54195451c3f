"""What a sync leaves in the user's port: a unified diff of the work copy against the port (`git apply`
takes it, new and deleted files included) and, with --write, the changed files copied in, except a file
the user changed after the sync read it (compared by digest), which is named and left alone."""
from __future__ import annotations

import difflib
import hashlib
import shutil
from pathlib import Path

SKIP = {"bin", "obj", ".git", ".repotrans"}


def _files(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*"))
            if p.is_file() and not SKIP & set(p.relative_to(root).parts[:-1])}


def file_digests(root: Path) -> dict[str, str]:
    """sha256 of every file of the port when the sync starts."""
    return {rel: hashlib.sha256(p.read_bytes()).hexdigest() for rel, p in _files(root).items()}


def changed_files(original: Path, work: Path) -> list[str]:
    """Relative paths that differ between the port and the work copy (added and deleted ones too)."""
    a, b = _files(original), _files(work)
    return sorted(rel for rel in a.keys() | b.keys()
                  if rel not in a or rel not in b or a[rel].read_bytes() != b[rel].read_bytes())


def unified_patch(original: Path, work: Path) -> str:
    """The work copy's changes as a git-style unified diff with a/ and b/ paths."""
    out = []
    for rel in changed_files(original, work):
        old, new = original / rel, work / rel
        a = old.read_bytes().decode("utf-8").splitlines(keepends=True) if old.is_file() else []
        b = new.read_bytes().decode("utf-8").splitlines(keepends=True) if new.is_file() else []
        head = [f"diff --git a/{rel} b/{rel}\n"]
        if not old.is_file():
            head.append("new file mode 100644\n")
        elif not new.is_file():
            head.append("deleted file mode 100644\n")
        lines = list(difflib.unified_diff(a, b, "a/" + rel if a or old.is_file() else "/dev/null",
                                          "b/" + rel if new.is_file() else "/dev/null", n=3))
        for i, line in enumerate(lines):
            if not line.endswith("\n"):
                lines[i] = line + "\n\\ No newline at end of file\n"
        out += head + lines
    return "".join(out)


def write_back(work: Path, target: Path, digests: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """Copy the changed files into the port; (written, refused: path -> why)."""
    written, refused = [], {}
    for rel in changed_files(target, work):
        dest, src = target / rel, work / rel
        now = hashlib.sha256(dest.read_bytes()).hexdigest() if dest.is_file() else None
        if now != digests.get(rel):
            refused[rel] = "changed in the port since the sync read it; apply RUN/changes.patch by hand"
            continue
        if src.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
        else:
            dest.unlink()
        written.append(rel)
    return written, refused
