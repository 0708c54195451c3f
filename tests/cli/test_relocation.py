"""The repository works wherever it is checked out: datasets hold no machine paths, and the README's
main command (scripts/run_sample.sh) runs in a copy that lives somewhere else."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repotrans.datasets.build import build_dataset
from repotrans.datasets.dataset import load_dataset

REPO = Path(__file__).resolve().parents[2]


def _tracked_files() -> list[str]:
    out = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def test_committed_datasets_hold_no_machine_paths():
    for manifest in sorted((REPO / "datasets").rglob("dataset.json")):
        data = json.loads(manifest.read_text())
        for key in ("source", "target"):
            assert not Path(data[key]).is_absolute(), f"{manifest}: {key} is {data[key]}"
        assert load_dataset(manifest.parent).source_dir.is_dir()
    for report in sorted((REPO / "datasets").rglob("report.md")):
        assert str(REPO) not in report.read_text() and "/work/" not in report.read_text(), report


def test_build_writes_paths_relative_to_the_dataset_folder(tmp_path):
    pair = tmp_path / "pair"
    (pair / "java" / "demo").mkdir(parents=True)
    (pair / "java" / "demo" / "Counter.java").write_text("package demo;\npublic class Counter { }\n")
    (pair / "cs").mkdir()
    (pair / "cs" / "Counter.cs").write_text("namespace Demo { public class Counter { } }\n")
    out = tmp_path / "datasets" / "mine"
    ds = build_dataset(pair / "java", pair / "cs", out, validate=False, progress=False)
    assert (ds.source, ds.target) == ("../../pair/java", "../../pair/cs")
    moved = tmp_path / "elsewhere"
    shutil.move(str(tmp_path / "datasets"), moved / "datasets")
    shutil.move(str(pair), moved / "pair")
    again = load_dataset(moved / "datasets" / "mine")
    assert again.source_dir == (moved / "pair" / "java").resolve() and again.target_dir.is_dir()
    assert str(tmp_path) not in (moved / "datasets" / "mine" / "report.md").read_text()


@pytest.mark.slow
def test_main_command_runs_in_a_copy_elsewhere(tmp_path):
    copy = tmp_path / "checkout" / "repotrans"
    for rel in _tracked_files():
        dest = copy / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, dest)
    env = {**os.environ, "PYTHONPATH": str(copy), "HF_HUB_OFFLINE": "1"}
    env.pop("REPOTRANS_MODEL", None)
    bindir = Path(sys.executable).parent
    env["PATH"] = f"{bindir}:{env.get('PATH', '')}"
    proc = subprocess.run(["bash", "scripts/run_sample.sh"], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (copy / "runs" / "sample" / "batch" / "report.html").is_file()
    summary = json.loads((copy / "runs" / "sample" / "batch" / "summary.json").read_text())
    assert summary["tasks"] == 32 and summary["passed"] > 0
    assert (copy / "runs" / "sample" / "view" / "target").is_dir()
    from repotrans.index.store import Index
    oracle = Index.open(copy / "runs" / "sample" / "view" / "oracle-index", must_exist=True)
    assert oracle.root("target").resolve() == (copy / "datasets" / "sample" / "csharp").resolve()
