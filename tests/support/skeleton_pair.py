"""The skeleton tests' Java/C# pair (tests/fixtures/skeleton_pair): a copy to change, and its index."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.index.store import Index

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "skeleton_pair"


def copy_pair(root: Path) -> tuple[Path, Path]:
    """A copy of the Java side (root/java) and of the SDK-style port (root/cs)."""
    java, cs = root / "java", root / "cs"
    shutil.copytree(FIXTURE / "java", java)
    shutil.copytree(FIXTURE / "sdk", cs)
    return java, cs


def index_pair(root: Path, java: Path, cs: Path) -> Index:
    """`java` and `cs` indexed in root/work."""
    index = Index.open(root / "work")
    index.build(java, cs, progress=False)
    return index
