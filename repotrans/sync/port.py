"""Structural edits of a port's C# text for `repotrans sync`: rename a member with its call sites, move
a member to another type, take a member out. Each works on the files under `root` as the index read
them (byte offsets of the index) and returns the files it changed; the caller re-indexes and judges.
A FileSnapshot puts files back when a judged edit failed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.index.model import Method, TypeDecl

SKIP_DIRS = {"bin", "obj", ".git", ".repotrans"}


@dataclass
class FileSnapshot:
    """Bytes of files before an edit (None: the file did not exist), to put them back."""
    root: Path
    saved: dict[str, bytes | None] = field(default_factory=dict)

    def keep(self, rel: str) -> None:
        if rel not in self.saved:
            path = self.root / rel
            self.saved[rel] = path.read_bytes() if path.is_file() else None

    def restore(self) -> None:
        for rel, data in self.saved.items():
            path = self.root / rel
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)


def cs_files(root: Path) -> list[str]:
    """The C# files of a tree (relative paths), build output left out."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.cs")
                  if not SKIP_DIRS & set(p.relative_to(root).parts[:-1]))


def _read(root: Path, rel: str) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def _write(root: Path, rel: str, text: str, snap: FileSnapshot) -> None:
    snap.keep(rel)
    (root / rel).write_bytes(text.encode("utf-8"))


def rename_member(root: Path, member: Method, new_name: str, unique: bool, snap: FileSnapshot) -> list[str]:
    """Rename `member`'s declaration and, when its name is `unique` among the port's members, every call
    site in the tree (`Name(` for methods, `.Name` for properties). Returns the changed files."""
    old = member.name
    raw = (root / member.path).read_bytes()
    head_end = member.body_start_byte if member.body_start_byte is not None else member.end_byte
    head = raw[member.start_byte:head_end].decode("utf-8")
    renamed = re.sub(rf"\b{re.escape(old)}\b(?=\s*[(<{{]|\s*$)", new_name, head, count=1)
    text = (raw[:member.start_byte].decode("utf-8") + renamed + raw[head_end:].decode("utf-8"))
    changed = {member.path}
    _write(root, member.path, text, snap)
    if not unique:
        return sorted(changed)
    call = (rf"(?<=\.){re.escape(old)}\b" if member.kind == "property"
            else rf"(?<![\w]){re.escape(old)}(?=\s*\()")
    for rel in cs_files(root):
        text = _read(root, rel)
        new = re.sub(call, new_name, text)
        if new != text:
            _write(root, rel, new, snap)
            changed.add(rel)
    return sorted(changed)


def _member_span(raw: bytes, member: Method) -> tuple[int, int]:
    """Bytes of a member with its doc comment and attribute lines above and one blank line after."""
    start = raw.rfind(b"\n", 0, member.start_byte) + 1
    while start > 0:
        prev = raw.rfind(b"\n", 0, start - 1) + 1
        line = raw[prev:start].strip()
        if line.startswith((b"///", b"//", b"[")) and not line.startswith(b"//-"):
            start = prev
        else:
            break
    end = raw.find(b"\n", member.end_byte)
    end = len(raw) if end < 0 else end + 1
    nxt = raw.find(b"\n", end)
    if nxt >= 0 and not raw[end:nxt].strip():
        end = nxt + 1
    elif start > 0:                               # the last member: take the blank line before it instead
        prev = raw.rfind(b"\n", 0, start - 1) + 1
        if not raw[prev:start].strip():
            start = prev
    return start, end


def remove_member(root: Path, member: Method, snap: FileSnapshot) -> list[str]:
    """Take `member` (with its doc comment) out of its file."""
    raw = (root / member.path).read_bytes()
    start, end = _member_span(raw, member)
    _write(root, member.path, (raw[:start] + raw[end:]).decode("utf-8"), snap)
    return [member.path]


def move_member(root: Path, member: Method, owner: TypeDecl, dest: TypeDecl, snap: FileSnapshot) -> list[str]:
    """Move `member` from its type `owner` to the end of type `dest`; `Owner.Name(` call sites become
    `Dest.Name(` and unqualified calls left in the owner's file are qualified with the new type."""
    raw = (root / member.path).read_bytes()
    start, end = _member_span(raw, member)
    block = raw[start:end].decode("utf-8").strip("\n")
    _write(root, member.path, (raw[:start] + raw[end:]).decode("utf-8"), snap)
    lines = _read(root, dest.path).split("\n")
    close = dest.end_line - 1
    while close >= 0 and "}" not in lines[close]:
        close -= 1
    if close < 0:
        raise ValueError(f"cannot find the closing brace of {dest.id}")
    pad = re.match(r"\s*", lines[close]).group() + "    "
    old_pad = re.match(r"\s*", next(line for line in block.split("\n") if line.strip())).group()
    moved = [pad + line[len(old_pad):] if line.startswith(old_pad) else line for line in block.split("\n")]
    lines[close:close] = [""] + moved if lines[close - 1].strip() not in ("{", "") else moved
    _write(root, dest.path, "\n".join(lines), snap)
    changed = {member.path, dest.path}
    qualified = re.compile(rf"\b{re.escape(owner.name)}\.{re.escape(member.name)}(?=\s*\()")
    for rel in cs_files(root):
        text = _read(root, rel)
        new = qualified.sub(f"{dest.name}.{member.name}", text)
        if rel == member.path:
            new = re.sub(rf"(?<![\w.]){re.escape(member.name)}(?=\s*\()", f"{dest.name}.{member.name}", new)
        if new != text:
            _write(root, rel, new, snap)
            changed.add(rel)
    return sorted(changed)


ACCESS = ("public", "internal", "protected", "private")


def widen_member(root: Path, member: Method, snap: FileSnapshot) -> list[str]:
    """Make `member` reachable from its assembly, as Java's package access reaches it: `private` becomes
    `internal`, `protected` becomes `protected internal`, a declaration with no access modifier (C#'s
    private) gets `internal`. Returns the changed file ([] when it is reachable already)."""
    raw = (root / member.path).read_bytes()
    head_end = member.body_start_byte if member.body_start_byte is not None else member.end_byte
    head = raw[member.start_byte:head_end].decode("utf-8")
    attrs = re.match(r"\s*(?:\[[^\]]*\]\s*)*", head).end()
    decl = head[attrs:]
    if "public" in member.modifiers or "internal" in member.modifiers:
        return []
    if "private" in member.modifiers:
        decl = re.sub(r"\bprivate\b", "internal", decl, count=1)
    elif "protected" in member.modifiers:
        decl = re.sub(r"\bprotected\b", "protected internal", decl, count=1)
    else:
        decl = "internal " + decl
    text = raw[:member.start_byte].decode("utf-8") + head[:attrs] + decl + raw[head_end:].decode("utf-8")
    _write(root, member.path, text, snap)
    return [member.path]
