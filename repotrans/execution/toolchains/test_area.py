"""The test area of one test run: a private, writable folder laid out as the project's build lays it out,
discarded after the run.

Real suites write beside themselves (a scratch repository under the assembly's folder, golden outputs,
caches, files relative to the current directory, which the runner sets to the assembly's folder). Each
run therefore gets its own copy of the test assembly's output folder: the baseline outputs with the
rebuilt assemblies laid over them, at the path the build would give it relative to the source tree
(`$(OutputPath)`, else bin/Debug[/<framework>]), with every other entry along that path a link into the
workspace's source copy, so a data folder reached by a relative path (`../../TestData`) is found as in
the build. The sandbox lets the test uid write the area and nothing else of the workspace; the verdict
never comes from a file (the runner reports on a nonce-tagged stdout), and the area is deleted when the
run ends, so nothing written there reaches the next run.

Assemblies (.dll, .exe and their symbols) and data files over COPY_LIMIT bytes are hard links to the sealed
baseline when the test runs under a uid that does not own them (we are root): it can delete or replace them
in the area but not change them in place. Every other file, and every file when we are not root, is a copy
it may change.
"""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from repotrans.execution.toolchains.msbuild import Project

SHARED_SUFFIXES = (".dll", ".exe", ".pdb", ".mdb")
AREA = "area"
COPY_LIMIT = 1 << 20          # bytes: a bigger data file is linked, not copied, on every run


def output_folder(project: Project) -> Path:
    """Where the project's build puts its assembly: $(OutDir)/$(OutputPath), else bin/Debug/ (classic)
    or bin/Debug/<framework>/ (SDK-style)."""
    if project.output_dir is not None:
        return project.output_dir
    folder = project.dir / "bin" / "Debug"
    return folder / project.target_framework if project.sdk and project.target_framework else folder


def area_root(run_dir: Path, project: Project, slot: int = 0) -> Path:
    """The folder a run of `project`'s tests may write (the sandbox's scratch); runs under way at once each
    have their own `slot` (test_runs.Slots), under a folder of its own."""
    return run_dir / (AREA if not slot else f"{AREA}{slot}") / project.name


@contextmanager
def test_area(src: Path, run_dir: Path, project: Project, items: dict[str, Path], slot: int = 0) -> Iterator[Path]:
    """Lay out the test area of one run of `project` in `slot` (its assembly folder holding `items`, name ->
    file or folder) and yield that folder; the area is removed afterwards."""
    root = area_root(run_dir, project, slot)
    shutil.rmtree(root, ignore_errors=True)
    folder = _mirror(src.resolve(), root, output_folder(project).resolve(), project)
    share = os.geteuid() == 0
    try:
        for name, item in items.items():
            _place(item, folder / name, share)
        yield folder
    finally:
        shutil.rmtree(root, ignore_errors=True)
        try:
            root.parent.rmdir()                # the last project's area: the folder goes too
        except OSError:
            pass


def _mirror(src: Path, root: Path, output: Path, project: Project) -> Path:
    """root/<output relative to src>, each folder along the way real and writable, its other entries links
    into src; an output outside the source tree gets root/bin/<project> (no relative data path reaches
    out of the tree either)."""
    if not output.is_relative_to(src) or output == src:
        folder = root / "bin" / project.name
        folder.mkdir(parents=True)
        return folder
    parts = output.relative_to(src).parts
    here, there = root, src
    here.mkdir(parents=True)
    for part in parts:
        if there.is_dir():
            for entry in there.iterdir():
                if entry.name != part:
                    (here / entry.name).symlink_to(entry)
        here, there = here / part, there / part
        here.mkdir()
    return here


def _place(item: Path, dest: Path, share: bool) -> None:
    if item.is_dir():
        dest.mkdir(exist_ok=True)
        for child in item.iterdir():
            _place(child, dest / child.name, share)
        return
    if dest.exists() or dest.is_symlink():
        dest.unlink()
    if share and (item.suffix.lower() in SHARED_SUFFIXES or item.stat().st_size > COPY_LIMIT):
        try:
            os.link(item, dest)
            return
        except OSError:
            pass
    shutil.copyfile(item, dest)
    dest.chmod(0o644)
