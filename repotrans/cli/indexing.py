"""The index a command works on, one function per way a command names it: the pair it must (re)index
first, the pair it may, the port it judges, or the index already in --workdir. The command line is
where a one-shot command builds its index; everything below receives the opened index."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from repotrans.errors import ConfigError

if TYPE_CHECKING:
    from repotrans.index.store import Index


def indexed_pair(args: argparse.Namespace, *, show_summary: bool = False) -> "Index":
    """--source and --target (both given) indexed incrementally in --workdir; progress unless --quiet, and what
    was parsed with `show_summary`. A first index that fails leaves no index file behind."""
    from repotrans.index.store import Index

    for name in ("source", "target"):
        if not Path(getattr(args, name)).is_dir():
            raise ConfigError(f"--{name}: {name} repository not found: {getattr(args, name)}")
    path = Index.file_in(Path(args.workdir))
    new = not path.exists()
    index = Index.open(Path(args.workdir))
    try:
        summary = index.build(Path(args.source), Path(args.target),
                              progress=not getattr(args, "quiet", False) and sys.stderr.isatty())
    except BaseException:
        index.close()
        if new:
            for leftover in path.parent.glob(path.name + "*"):
                leftover.unlink()
        raise
    if show_summary:
        print(summary.render())
    return index


def pair_index(args: argparse.Namespace) -> "Index":
    """The index in --workdir, built first for --source/--target when they are given (options.add_pair)."""
    from repotrans.index.store import Index

    source, target = getattr(args, "source", None), getattr(args, "target", None)
    if bool(source) != bool(target):
        raise ConfigError("give --source and --target together (or neither, to use the index in --workdir)")
    if not source:
        return Index.open(Path(args.workdir), must_exist=True)
    return indexed_pair(args)


def judged_port_index(args: argparse.Namespace) -> "Index":
    """The index for judging in --target (run-tests): rebuilt incrementally so byte ranges match the files;
    --source may be left out once an index knows it."""
    from repotrans.index.store import Index

    target = Path(args.target).resolve()
    if not target.is_dir():
        raise ConfigError(f"--target: {target} is not a folder")
    index = Index.open(Path(args.workdir))
    known_source = None
    try:
        known_source = index.root("source")
    except ConfigError:
        pass
    source = Path(args.source).resolve() if args.source else known_source
    if source is None:
        index.close()
        raise ConfigError(f"no index in {args.workdir} yet: pass --source <java repo> once to build it")
    index.build(source, target, progress=False)
    return index


def workdir_index(workdir: Path) -> "Index":
    """The index already built in `workdir` (ConfigError saying how to build it when there is none)."""
    from repotrans.index.store import Index

    return Index.open(workdir, must_exist=True)
