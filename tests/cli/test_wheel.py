"""The package carries its own data: a wheel built from this checkout, installed into a fresh venv
outside it, translates the bundled sample with the builtin policy from a folder outside the checkout.
The wheel must hold every data file the package keeps in git (schemas, templates, queries, tables),
and the top-level user-editable folders (tools/, prompt_templates/) where pyproject's package-dir maps
them into the package."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "datasets" / "sample"


def _tracked_package_data() -> set[str]:
    """Each data file in git as the wheel must name it: repotrans/... as is, a mapped folder's file
    under the package it is mapped to (tools/x.json -> repotrans/tools/schemas/x.json)."""
    mapped = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    folders = {folder: package.replace(".", "/") for package, folder in mapped.items()}
    assert {"tools", "prompt_templates"} <= set(folders), mapped
    out = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "repotrans", *folders], capture_output=True,
                         check=True)
    wanted = set()
    for path in (p for p in out.stdout.decode().split("\0") if p and not p.endswith(".py")):
        folder, name = path.rsplit("/", 1)
        wanted.add(f"{folders[folder]}/{name}" if folder in folders else path)
    return wanted


@pytest.mark.slow
def test_a_wheel_installed_outside_the_checkout_translates_the_sample(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["HF_HUB_OFFLINE"] = "1"
    dist = tmp_path / "dist"
    build = REPO if shutil.which("git") is None else tmp_path / "src"
    if build != REPO:                     # build from a clean export: no stray build/ or egg-info in the checkout
        archive = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True)
        for rel in [p for p in archive.stdout.decode().split("\0") if p]:
            if (REPO / rel).is_file():
                (build / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / rel, build / rel)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(dist), str(build)], check=True, env=env, cwd=tmp_path)
    [wheel] = dist.glob("repotrans-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(_tracked_package_data() - shipped)
    assert not missing, f"package data left out of the wheel (pyproject package-data): {missing}"

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True,
                   env=env, cwd=tmp_path)
    where = subprocess.run([str(python), "-c", "import repotrans; print(repotrans.__file__)"], capture_output=True,
                           text=True, check=True, env=env, cwd=tmp_path).stdout.strip()
    assert where.startswith(str(venv)), f"repotrans imported from {where}, not from the venv"

    work = tmp_path / "elsewhere"
    shutil.copytree(SAMPLE / "java", work / "java")
    shutil.copytree(SAMPLE / "csharp", work / "csharp", ignore=shutil.ignore_patterns("bin", "obj"))
    run = subprocess.run([str(venv / "bin" / "repotrans"), "--workdir", "wd", "translate", "--source", "java",
                          "--target", "csharp", "--function", "Circle.Scale(double)", "--model", "builtin",
                          "--no-rag", "--sandbox", "local", "--run-dir", "run"],
                         capture_output=True, text=True, env={**env, "REPOTRANS_CACHE_DIR": str(tmp_path / "cache")},
                         cwd=work, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "test outcome: passed" in run.stdout, run.stdout
    assert (work / "run" / "trajectory.jsonl").is_file()
