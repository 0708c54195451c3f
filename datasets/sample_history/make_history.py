#!/usr/bin/env python3
"""Lay out the bundled upstream history: a git repository of the sample's Java side at two revisions.

    python3 datasets/sample_history/make_history.py DEST            # DEST becomes a git repository
    python3 datasets/sample_history/make_history.py DEST --after-tree AFTER   # also v2 as a plain tree

Commit 1 (tag v1) is datasets/sample/java as it is, the revision the port datasets/sample/csharp
follows; commits/*.patch are applied on top with `git am` (one upstream commit each: change body,
change signature, rename, move, remove, add) and the last is tagged v2. Author and dates come from
the patches and the committer is fixed, so every checkout gets the same commit ids.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE_JAVA = HERE.parent / "sample" / "java"
IDENTITY = {"GIT_AUTHOR_NAME": "Acme Upstream", "GIT_AUTHOR_EMAIL": "upstream@acme.example",
            "GIT_COMMITTER_NAME": "Acme Upstream", "GIT_COMMITTER_EMAIL": "upstream@acme.example",
            "GIT_AUTHOR_DATE": "2026-01-05T10:00:00Z", "GIT_COMMITTER_DATE": "2026-01-05T10:00:00Z"}


def _git(dest: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(["git", "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false", *args], cwd=dest,
                          env={**os.environ, **IDENTITY, **(env or {})}, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"make_history: git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def make_history(dest: Path) -> Path:
    """Create the repository at `dest` (must not exist); returns it."""
    if dest.exists():
        sys.exit(f"make_history: {dest} exists; give a new folder")
    shutil.copytree(SAMPLE_JAVA, dest, ignore=shutil.ignore_patterns("target", "*.class"))
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "acme-geometry 1.0")
    _git(dest, "tag", "v1")
    for patch in sorted((HERE / "commits").glob("*.patch")):
        # the committer date follows each patch's author date: the same ids on every machine
        _git(dest, "am", "-q", "--committer-date-is-author-date", str(patch))
    _git(dest, "tag", "v2")
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", help="new folder for the git repository")
    parser.add_argument("--after-tree", help="also write revision v2 as a plain folder here")
    args = parser.parse_args()
    repo = make_history(Path(args.dest))
    if args.after_tree:
        out = Path(args.after_tree)
        out.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", "v2"], cwd=repo, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    print(_git(repo, "log", "--oneline", "v1~0..v2").rstrip() + f"\n{repo}: v1 -> v2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
