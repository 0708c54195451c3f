"""The dry run's closing `next:` line asks for a model only when none is named (repotrans.toml, the
environment or --model): a stranger who ran `init --model builtin` was told to add `--model MODEL`."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.cli.main import main

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair"


def _next_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("next: "))


def test_the_next_line_names_a_model_only_when_none_is_set(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("REPOTRANS_MODEL", raising=False)
    monkeypatch.chdir(tmp_path)
    shutil.copytree(PAIR, tmp_path / "pair")
    java, cs = str(tmp_path / "pair" / "java"), str(tmp_path / "pair" / "csharp")
    base = ["--workdir", str(tmp_path / "wd"), "batch", "--source", java, "--target", cs, "--dry-run"]
    assert main(base) == 0
    assert _next_line(capsys.readouterr().out).endswith("--run-dir RUN_DIR --model MODEL")
    assert main(base + ["--model", "builtin"]) == 0
    assert _next_line(capsys.readouterr().out) == f"next: repotrans batch --source {java} --target {cs} --run-dir RUN_DIR"
