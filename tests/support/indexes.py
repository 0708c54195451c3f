"""A small index of C# files (and a one-class Java side) for tests that need real index rows."""
from __future__ import annotations

from pathlib import Path

from repotrans.index.store import Index


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
