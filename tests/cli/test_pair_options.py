"""Commands that read the index take --source/--target as every other command does (issue 35): given,
the pair is indexed first; one without the other is a one-line error."""
from __future__ import annotations

from pathlib import Path

from repotrans.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "sample"


def test_mapping_and_skeleton_index_the_pair_they_are_given(tmp_path, capsys):
    pair = ["--source", str(SAMPLE / "java"), "--target", str(SAMPLE / "csharp")]
    assert main(["--workdir", str(tmp_path / "wd"), "mapping", *pair]) == 0
    assert "org.acme.geometry.shapes -> Acme.Geo.Shapes" in capsys.readouterr().out
    assert main(["--workdir", str(tmp_path / "wd2"), "skeleton", "--types", "org.none.*", "--dry-run", *pair]) == 0
    assert main(["--workdir", str(tmp_path / "wd3"), "mapping", "--source", str(SAMPLE / "java")]) == 2
    assert "give --source and --target together" in capsys.readouterr().err
