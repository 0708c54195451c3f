"""The bundled upstream history (datasets/sample_history), laid out once per session as a git repository."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKE_HISTORY = ROOT / "datasets" / "sample_history" / "make_history.py"
SAMPLE = ROOT / "datasets" / "sample"


@pytest.fixture(scope="session")
def history(tmp_path_factory) -> Path:
    """A git repository: v1 = the sample's Java side, six upstream commits, v2."""
    dest = tmp_path_factory.mktemp("history") / "acme-geometry"
    subprocess.run([sys.executable, str(MAKE_HISTORY), str(dest)], check=True, capture_output=True)
    return dest
