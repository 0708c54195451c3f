"""Folders as bytes, to send a repository, an index or a task's outputs to another machine.

A bundle is a gzip'd tar with fixed owners and times, so the same content gives the same bytes and
the same `digest` (a node keeps one copy per digest). SQLite files go in through SQLite's backup API,
so a database with an open writer (WAL journal) is copied consistently; build outputs, VCS folders
and the runner's scratch copies stay out.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import os
import shutil
import sqlite3
import tarfile
import tempfile
import uuid
from pathlib import Path

SKIPPED = {"bin", "obj", ".git", ".vs", ".repotrans", "TestResults", "__pycache__"}
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def pack(root: Path, skip: frozenset[str] = frozenset()) -> bytes:
    """The files under `root` (sorted; SKIPPED folders at any depth and the `skip` paths, relative
    to `root`, left out) as a bundle."""
    buf = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="repotrans-pack-") as tmp, \
            gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=1, mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w") as tar:
        for rel in _files(root, skip):
            path = root / rel
            if path.suffix == ".sqlite":
                path = _snapshot(path, Path(tmp) / uuid.uuid4().hex)
            info = tar.gettarinfo(str(path), arcname=rel)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            with open(path, "rb") as handle:
                tar.addfile(info, handle)
    return buf.getvalue()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def unpack(data: bytes, dest: Path) -> Path:
    """Write a bundle's files under `dest` (created; files of the same names are replaced)."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(dest, filter="data")
    return dest


def unpack_once(data_of, dest: Path) -> Path:
    """`dest` holding the bundle that `data_of()` returns, unpacked only if it is not there yet
    (into a sibling folder first, then renamed: a half-written copy is never used)."""
    if dest.is_dir():
        return dest
    part = dest.with_name(dest.name + f".part-{uuid.uuid4().hex[:8]}")
    unpack(data_of(), part)
    try:
        os.rename(part, dest)
    except OSError:                  # another process got there first
        shutil.rmtree(part, ignore_errors=True)
    return dest


def _files(root: Path, skip: frozenset[str]) -> list[str]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath).relative_to(root)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED and (here / d).as_posix() not in skip)
        for name in sorted(filenames):
            if name.endswith(SQLITE_SIDE_FILES) or (here / name).as_posix() in skip:
                continue
            path = Path(dirpath) / name
            if path.is_file():
                out.append(str(path.relative_to(root)))
    return out


def _snapshot(path: Path, dest: Path) -> Path:
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    dst = sqlite3.connect(dest)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    return dest
