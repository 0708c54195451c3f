"""The upstream side of `repotrans sync`: revisions of a Java git repository as plain trees, and its
commits between two revisions with the Java files each one touched (read with the `git` command)."""
from __future__ import annotations

import io
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from repotrans.errors import ConfigError


@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str
    files: tuple[str, ...]          # .java paths the commit added, changed or deleted (both sides of a rename)

    @property
    def short(self) -> str:
        return self.sha[:7]


def git(repo: Path, *args: str) -> str:
    """stdout of `git -C repo ARGS`; a ConfigError naming the command when git fails."""
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise ConfigError("sync needs the git command on PATH (or --source-before DIR)") from exc
    if done.returncode:
        raise ConfigError(f"git {' '.join(args)} in {repo} failed: "
                          f"{done.stderr.decode('utf-8', 'replace').strip().splitlines()[-1:] or ['?']}")
    return done.stdout.decode("utf-8", "replace")


def resolve(repo: Path, rev: str) -> str:
    """The full commit id of `rev` (ConfigError naming the revision when it is none)."""
    try:
        return git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").strip()
    except ConfigError:
        raise ConfigError(f"{rev!r} is no revision of {repo} (try `git -C {repo} log --oneline`)") from None


def export(repo: Path, rev: str, dest: Path) -> Path:
    """Write the tree of `rev` into `dest` (created, must be empty or absent)."""
    data = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev], capture_output=True,
                          check=False)
    if data.returncode:
        raise ConfigError(f"git archive {rev} in {repo} failed: {data.stderr.decode('utf-8', 'replace').strip()}")
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data.stdout)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def commits(repo: Path, since: str, until: str) -> list[Commit]:
    """The commits in since..until, oldest first (first-parent history), with their .java files."""
    out = []
    log = git(repo, "log", "--reverse", "--first-parent", "--format=%H%x00%s", f"{since}..{until}")
    for line in log.splitlines():
        if "\x00" not in line:
            continue
        sha, subject = line.split("\x00", 1)
        names = git(repo, "diff-tree", "--no-commit-id", "--name-only", "-r", "-m", "--first-parent", sha)
        files = tuple(sorted({n for n in names.splitlines() if n.endswith(".java")}))
        out.append(Commit(sha, subject, files))
    return out


def show(repo: Path, rev: str, path: str) -> bytes | None:
    """The bytes of `path` at `rev`, None when the file does not exist there."""
    done = subprocess.run(["git", "-C", str(repo), "show", f"{rev}:{path}"], capture_output=True, check=False)
    return done.stdout if done.returncode == 0 else None
