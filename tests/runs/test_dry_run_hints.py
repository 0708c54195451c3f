"""The dry run speaks of the user's library: its hints name the user's packages, --create-missing never
adds a member the port has re-typed nor a skeleton of a JUnit class, and a pair that matches nothing
stops the dry run and the batch with exit 1, saying what was seen and tried."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.mapping.load import load_mapping
from repotrans.cli.main import main
from repotrans.index.store import Index
from repotrans.runs.batch_plan import BatchPlan, plan_batch

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair"


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(PAIR, tmp_path / "pair")
    return tmp_path / "pair" / "java", tmp_path / "pair" / "csharp"


def test_hints_name_the_users_own_packages(tmp_path):
    java, cs = _pair(tmp_path)
    index = Index.open(tmp_path / "wd")
    index.build(java, cs, progress=False)
    text = plan_batch(index, load_mapping(index)).render()
    assert "--create-missing 'com.example.ring.*'" in text and "org.acme" not in text
    assert BatchPlan([], [], packages=["com.example.ring", "com.example.ring.io"]).glob() == "com.example.ring.*"
    assert BatchPlan([], [], packages=["com.a", "org.b"]).glob() == "com.a.*"


def test_create_missing_adds_neither_test_skeletons_nor_members_the_port_has_retyped(tmp_path, capsys):
    java, cs = _pair(tmp_path)
    code = main(["--workdir", str(tmp_path / "wd"), "batch", "--dry-run", "--source", str(java), "--target", str(cs),
                 "--create-missing", "com.example.*"])
    out = capsys.readouterr().out
    assert code == 0
    assert "would create 0 missing type(s) in 0 file(s) and 1 missing member(s)" in out
    assert "Example.Ring.Counter <- Counter.reset()" in out
    for retyped in ("addAll", "before", "describe()", "RingBufferTest", "RingHarness"):
        assert f"<- RingBuffer.{retyped}" not in out and f"{retyped}.cs" not in out


def _stranger_target(tmp_path: Path) -> Path:
    other = tmp_path / "other" / "Zed"
    other.mkdir(parents=True)
    (other / "Alpha.cs").write_text("namespace Zed { public class Alpha { public void Go() "
                                    "{ throw new System.NotImplementedException(); } } }\n")
    return tmp_path / "other"


def test_a_dry_run_that_matches_nothing_stops_with_exit_1_and_says_what_it_saw(tmp_path, capsys):
    java, _ = _pair(tmp_path)
    code = main(["--workdir", str(tmp_path / "wd"), "batch", "--dry-run", "--source", str(java),
                 "--target", str(_stranger_target(tmp_path))])
    out = capsys.readouterr()
    assert code == 1
    assert "next:" not in out.out
    assert ("nothing matched: no C# type pairs with a Java type; saw 2 Java type(s) of library code (5 more in test "
            "code) in package com.example.ring and 1 C# type(s) of library code (0 more in test code) in namespace "
            "Zed. Tried each Java type's name") in out.err


def test_a_batch_that_matches_nothing_stops_with_exit_1(tmp_path, capsys):
    java, _ = _pair(tmp_path)
    run = tmp_path / "run"
    code = main(["batch", "--source", str(java), "--target", str(_stranger_target(tmp_path)), "--run-dir", str(run),
                 "--model", "builtin", "--quiet"])
    assert code == 1 and "nothing matched: no C# type pairs with a Java type" in capsys.readouterr().err
    assert not run.exists()
