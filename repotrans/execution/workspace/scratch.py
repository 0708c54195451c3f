"""Scratch copies of the target, one per target state, with their cached baseline builds.

workdir/runner/<toolchain>-<state>/src   copy of the target (bin/obj/.git left out)
                                   /base  baseline build outputs, one folder per project
                                   /runs/<id>  one candidate: patched file, rebuilt outputs

Sandboxed commands see the workspace read-only (test steps) or may write only their own output
folders (build steps). Source files are readable by the build uid only (when we are root): the
test process sees the built assemblies and the data files, not the tests' sources nor the ground truth
of a masked member. The baseline is sealed: its marker lists every file's hash, and a base that
no longer matches it is built again rather than trusted.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from repotrans.errors import ConfigError
from repotrans.execution.sandboxes import BUILD_UID
from repotrans.execution.workspace.real_paths import RealPaths

IGNORED = {"bin", "obj", ".git", ".vs", ".repotrans", "TestResults", "__pycache__"}
SOURCE_SUFFIXES = (".cs", ".java")
KEEP_STATES = 3


@dataclass
class Workspace:
    root: Path
    target: Path
    key: str
    paths: RealPaths = field(default_factory=RealPaths, repr=False, compare=False)   # its folders' real paths

    def rel(self, path: Path | str) -> str:
        """`path` relative to the workspace's root, resolved (as the sandbox's commands name it); as given when
        it is outside the root."""
        try:
            return self.paths.real(path).relative_to(self.paths.real(self.root)).as_posix()
        except ValueError:
            return str(path)

    @property
    def src(self) -> Path:
        return self.root / "src"

    @property
    def base(self) -> Path:
        return self.root / "base"

    @contextmanager
    def lock(self) -> Iterator[None]:
        with open(self.root / ".lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextmanager
    def run_dir(self, keep: bool = False) -> Iterator[Path]:
        path = self.root / "runs" / uuid.uuid4().hex[:12]
        path.mkdir(parents=True)
        try:
            yield path
        finally:
            if not keep:
                shutil.rmtree(path, ignore_errors=True)


MARKER = ".ok"


def seal_base(ws: Workspace, info: dict) -> None:
    """Mark the baseline built: root-owned (when we are root), read-only, hashes in the marker."""
    files = {}
    for path in sorted(p for p in ws.base.rglob("*") if p.is_file() and p.name != MARKER):
        if os.geteuid() == 0:
            os.lchown(path, 0, 0)
        path.chmod(0o444)
        files[path.relative_to(ws.base).as_posix()] = _sha256(path)
    if os.geteuid() == 0:
        for path in [ws.base, *(p for p in ws.base.rglob("*") if p.is_dir())]:
            os.lchown(path, 0, 0)
            path.chmod(0o755)
    write_atomically(ws.base / MARKER, json.dumps({**info, "files": files}))


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that a concurrent reader sees the old file or the new one, never a
    truncated one (the runner's threads read the baseline marker and the test index as others write)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def baseline_stamp(ws: Workspace) -> float:
    """When the baseline was last sealed (0.0: never): a key for what depends on its state."""
    marker = ws.base / MARKER
    return marker.stat().st_mtime if marker.exists() else 0.0


def sealed(ws: Workspace) -> bool:
    """The baseline is built and every file is as sealed (none missing, changed or added)."""
    try:
        files = json.loads((ws.base / MARKER).read_text())["files"]
    except (OSError, ValueError, KeyError):
        return False
    present = {p.relative_to(ws.base).as_posix() for p in ws.base.rglob("*") if p.is_file() and p.name != MARKER}
    if present != set(files):
        return False
    return all(_sha256(ws.base / rel) == digest for rel, digest in files.items())


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def state_key(target: Path) -> str:
    """Content hash of every file the build can see."""
    digest = hashlib.sha256()
    for path in sorted(_files(target)):
        digest.update(path.relative_to(target).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def prepare_workspace(target: Path, workdir: Path, toolchain: str) -> Workspace:
    target = Path(target).resolve()
    if not target.is_dir():
        raise ConfigError(f"target repository {target} is not a folder")
    key = state_key(target)
    parent = Path(workdir).resolve() / "runner"
    root = parent / f"{toolchain}-{key}"
    ws = Workspace(root=root, target=target, key=key)
    if not (root / "src").is_dir():
        parent.mkdir(parents=True, exist_ok=True)
        # one copy at a time: a runner asking while another copies (a dataset build's validation beside the
        # port's build) waits for that copy instead of making its own
        with open(parent / f".{toolchain}-{key}.lock", "w") as making:
            fcntl.flock(making, fcntl.LOCK_EX)
            if not (root / "src").is_dir():
                tmp = parent / f".tmp-{uuid.uuid4().hex[:8]}"
                copy_tree(target, tmp / "src")
                hide_sources(tmp)
                try:
                    tmp.rename(root)
                except OSError:              # another process made it first
                    shutil.rmtree(tmp, ignore_errors=True)
                _prune(parent, toolchain, keep=root)
    if not sources_hidden(root):        # made before sources were hidden, or copied (ownership lost)
        with ws.lock():
            hide_sources(root)
    return ws


def copy_tree(target: Path, dest: Path) -> None:
    """`target`'s files into `dest` (a new folder), IGNORED names left out at any depth, links kept as links,
    by tar outside Python: copied in Python beside a busy thread (a dataset build's mapping), each of the ~15
    system calls per file waits for the interpreter lock (NPOI's 4,000 files: 8.4 s against 0.3 s alone).
    Where tar is missing, shutil's copy."""
    if shutil.which("tar") is None:
        shutil.copytree(target, dest, ignore=lambda d, names: [n for n in names if n in IGNORED], symlinks=True)
        return
    dest.mkdir(parents=True)
    with tempfile.TemporaryFile() as said:
        pack = subprocess.Popen(["tar", "-C", str(target), "-cf", "-", *(f"--exclude={n}" for n in sorted(IGNORED)),
                                 "."], stdout=subprocess.PIPE, stderr=said)
        unpack = subprocess.run(["tar", "-C", str(dest), "-xf", "-", "--no-same-owner"], stdin=pack.stdout,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        pack.stdout.close()
        packed = pack.wait()
        said.seek(0)
        why = (said.read() + unpack.stderr).decode(errors="replace").strip().splitlines()
    if packed or unpack.returncode:
        raise ConfigError(f"cannot copy the target {target} into the workspace: "
                          f"{why[-1] if why else f'tar exit {packed or unpack.returncode}'}")


def sources_hidden(root: Path) -> bool:
    """The first source file of the copy is as hide_sources leaves it (cheap: one stat)."""
    if os.geteuid() != 0:
        return True
    for dirpath, _, filenames in os.walk(root / "src"):
        for name in filenames:
            if name.lower().endswith(SOURCE_SUFFIXES):
                st = os.lstat(os.path.join(dirpath, name))
                return st.st_gid == BUILD_UID and not st.st_mode & 0o004
    return True


def hide_sources(root: Path) -> None:
    """Source files of the copy readable by the build uid alone (group BUILD_UID, mode 0640): a test
    step, run as another uid, cannot read the tests' sources nor any ground truth. Needs root."""
    if os.geteuid() != 0:
        return
    for dirpath, _, filenames in os.walk(root / "src"):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name.lower().endswith(SOURCE_SUFFIXES) and not os.path.islink(path):
                os.chown(path, 0, BUILD_UID)
                os.chmod(path, 0o640)


def _files(target: Path) -> Iterator[Path]:
    for path in target.iterdir():
        if path.name in IGNORED:
            continue
        if path.is_dir() and not path.is_symlink():
            yield from _files(path)
        elif path.is_file():
            yield path


def _prune(parent: Path, toolchain: str, keep: Path) -> None:
    states = sorted(parent.glob(f"{toolchain}-*"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in [p for p in states if p != keep][KEEP_STATES - 1:]:
        shutil.rmtree(old, ignore_errors=True)
        (parent / f".{old.name}.lock").unlink(missing_ok=True)
