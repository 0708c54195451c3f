"""A new user's first commands: --version, init (a commented repotrans.toml, then doctor), batch --dry-run
(tasks in levels, what the mapping could not match), and help that describes every subcommand."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from repotrans.agents.config import load_config
from repotrans.cli import build_parser, main
from tests.support.sample_masking import masked_sample

REPO = Path(__file__).resolve().parents[2]
CTOR, SCALE, AREA = ("Acme.Geo.Shapes.Circle.<init>(Point2D, double)", "Acme.Geo.Shapes.Circle.Scale(double)",
                     "Acme.Geo.Shapes.Circle.Area()")


def test_version_is_printed(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("repotrans ")


def test_every_subcommand_has_a_description_and_every_argument_help():
    parser = build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)][0]
    for name, sub in subs.choices.items():
        nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        for cmd, p in ([(f"{name} {n}", s) for n, s in nested[0].choices.items()] if nested else [(name, sub)]):
            assert p.description, f"{cmd} has no description"
            for action in p._actions:
                assert action.help, f"{cmd} {action.option_strings or action.dest} has no help"


def test_init_writes_a_commented_config_that_loads_and_runs_doctor(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    java, cs = REPO / "datasets" / "sample" / "java", REPO / "datasets" / "sample" / "csharp"
    rc = main(["init", "--source", str(java), "--target", str(cs), "--model", "qwen2.5-coder:7b",
               "--base-url", "http://127.0.0.1:9/v1", "--sandbox", "local"])
    out = capsys.readouterr().out
    text = (tmp_path / "repotrans.toml").read_text()
    assert text.startswith(f"# repotrans.toml: porting {java} (Java) to {cs} (C#).")
    assert f"#   repotrans batch --source {java} --target {cs} --dry-run" in text
    config = load_config(tmp_path / "repotrans.toml", resolve=False)
    assert (config.model.name, config.model.base_url, config.execution.sandbox) == \
        ("qwen2.5-coder:7b", "http://127.0.0.1:9/v1", "local")
    assert out.startswith("wrote repotrans.toml\nsandbox:\n")
    assert "model:\n  [!!] model server http://127.0.0.1:9/v1 (model 'qwen2.5-coder:7b'): unreachable" in out
    assert "chosen: Acme.Geo.Tests [tests" in out
    *_, after_next, last = out.rstrip().splitlines()
    assert after_next == f"next: repotrans batch --source {java} --target {cs} --dry-run"
    assert rc == 1                                       # the model does not answer, and the last line says why
    assert re.fullmatch(r"exit 1: \d+ problem\(s\) marked \[!!\] above; the first: .+", last), last
    assert main(["init", "--source", str(java), "--target", str(cs), "--no-doctor"]) == 2
    assert "repotrans.toml exists; pass --force" in capsys.readouterr().err


def test_dry_run_prints_levels_callees_first_and_makes_no_run_folder(tmp_path, capsys):
    java, cs = masked_sample(tmp_path / "pair", CTOR, SCALE, AREA)
    rc = main(["batch", "--source", str(java), "--target", str(cs), "--dry-run", "--workdir", str(tmp_path / "ws")])
    out = capsys.readouterr().out
    assert rc == 0
    why = ": its body throws NotImplementedException"
    assert out.startswith("3 tasks in 2 level(s), callees first:\n  level 0:\n"
                          f"    {CTOR}{why}\n    {AREA}{why}\n  level 1:\n    {SCALE}{why}  (calls {CTOR})\n")
    assert "Java method(s) of matched types have no C# member" in out
    assert "Acme.Geo.Measure.LengthUnit: <init>(String, double, boolean)" in out
    assert not any(p.name.startswith("run") for p in tmp_path.iterdir())
    assert main(["batch", "--source", str(java), "--target", str(cs)]) == 2
    assert "batch needs --run-dir DIR" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["batch", "--source", "j", "--target", "c", "--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
    (["--framework", "net99", "doctor"], "argument --framework: unknown target framework 'net99'; known: net20,"),
    (["retrieve", "--k", "x"], "argument --k: expected a whole number, not 'x'"),
])
def test_numbers_and_frameworks_are_checked_with_accurate_messages(argv, message, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and message in capsys.readouterr().err


def test_a_zero_timeout_says_what_is_allowed(tmp_path, capsys):
    code = tmp_path / "c.cs"
    code.write_text("return 1;")
    rc = main(["run-tests", "--target", str(tmp_path), "--function", "A.B()", "--code", str(code), "--timeout", "0"])
    assert rc == 2
    assert "execution.timeout (--timeout) must be more than 0 and at most 86400 seconds, not 0" in \
        capsys.readouterr().err
