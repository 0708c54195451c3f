"""Fixtures shared by the mapping tests."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "mini_pair"


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the mini pair: (Java root, C# root)."""
    java, cs = tmp_path / "java", tmp_path / "csharp"
    shutil.copytree(PAIR / "java", java)
    shutil.copytree(PAIR / "csharp", cs)
    return java, cs
