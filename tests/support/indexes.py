"""Small real indexes for tests: C# files beside a trivial Java side, a mini Java/C# pair with its mapping
(fixtures written inline by each test), or the stranger pair fixture with files of a test's own added."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from repotrans.index.store import Index
from repotrans.mapping.mapping import Mapping, build_mapping
from tests.support.solutions import write_tree


def csharp_index(root: Path, files: dict[str, str]) -> Index:
    """Index `files` (name -> C# text) as the target under `root`, beside a trivial Java source."""
    (root / "java").mkdir()
    (root / "java" / "A.java").write_text("class A {}\n")
    (root / "cs").mkdir()
    for name, text in files.items():
        (root / "cs" / name).write_text(text)
    index = Index.open(root / "wd")
    index.build(root / "java", root / "cs", progress=False)
    return index


def mapped_pair(root: Path, java: dict[str, str], cs: dict[str, str]) -> tuple[Mapping, Index]:
    """Write a Java tree (root/j) and a C# tree (root/c), index them (root/w) and map them."""
    write_tree(root / "j", java)
    write_tree(root / "c", cs)
    index = Index.open(root / "w")
    index.build(root / "j", root / "c", progress=False)
    return build_mapping(index), index


def target_of(mapping: Mapping, java_id: str) -> str | None:
    """The C# id (without its side prefix) the mapping gives a Java type or, with "(", a Java method."""
    match = mapping.target_method("source:" + java_id) if "(" in java_id else mapping.target_type("source:" + java_id)
    return match.target_id.split(":", 1)[1] if match else None


STRANGER_PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair"


@contextmanager
def stranger_pair_with(root: Path, java: dict[str, str], cs: dict[str, str]) -> Iterator[Index]:
    """The stranger pair copied to root/pair with `java` (file name -> text, in its com.example.ring package)
    and `cs` (in its Ring folder) added, indexed under root/wd; the index is closed after."""
    shutil.copytree(STRANGER_PAIR, root / "pair")
    for folder, files in (("java/src/com/example/ring", java), ("csharp/Ring", cs)):
        for name, text in files.items():
            (root / "pair" / folder / name).write_text(text)
    index = Index.open(root / "wd")
    try:
        index.build(root / "pair" / "java", root / "pair" / "csharp", progress=False)
        yield index
    finally:
        index.close()
