"""What the CLI says about a test outcome: the reason and the selection of a failure, `blocked` for a
candidate whose tests fail only in other placeholders (translate and run-tests), global options after
the subcommand. Real mcs/mono runs on a masked copy of the sample."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from repotrans.cli import build_parser, main
from tests.support.fake_openai_server import FakeOpenAIServer
from tests.support.sample_masking import masked_sample

CTOR, AREA, REPEAT = ("Acme.Geo.Shapes.Circle.<init>(Point2D, double)", "Acme.Geo.Shapes.Circle.Area()",
                      "Acme.Common.StringUtils.Repeat(string, int)")
WRONG_REPEAT = "```csharp\npublic static string Repeat(string text, int times)\n{\n    return text;\n}\n```"


def test_global_options_are_accepted_after_the_subcommand():
    parser = build_parser()
    assert parser.parse_args(["index", "--source", "j", "--target", "c", "--workdir", "W"]).workdir == "W"
    assert parser.parse_args(["--workdir", "X", "index", "--source", "j", "--target", "c"]).workdir == "X"
    assert parser.parse_args(["mapping"]).workdir == ".repotrans"
    assert parser.parse_args(["translate", "--function", "f", "--mapping", "m.toml"]).mapping == "m.toml"
    assert parser.parse_args(["dataset", "build", "--source", "j", "--target", "c", "--out", "o",
                              "--workdir", "Z"]).workdir == "Z"


@pytest.fixture(scope="module")
def masked(tmp_path_factory) -> tuple[Path, Path]:
    return masked_sample(tmp_path_factory.mktemp("outcomes"), CTOR, AREA, REPEAT)


@pytest.mark.slow
def test_run_tests_says_blocked_when_only_other_placeholders_fail(masked, tmp_path, capsys):
    java, cs = masked
    code = tmp_path / "area.cs"
    code.write_text("public override double Area()\n{\n    return Math.PI * radius * radius;\n}\n")
    rc = main(["run-tests", "--target", str(cs), "--source", str(java), "--method", "Circle.Area()",
               "--code", str(code), "--workdir", str(tmp_path / "ws")])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and out["status"] == "blocked", out
    assert "fail only inside members that are not translated yet" in out["reason"]
    assert "Acme.Geo.Shapes.Circle.<init>(Point2D, double)" in out["reason"] and "covering test(s)" in out["selection"]
    # a candidate throwing the placeholder's exception itself is not blocked: the frame is its own
    code.write_text("public static string Repeat(string text, int times)\n{\n"
                    "    throw new NotImplementedException(\"not translated yet\");\n}\n")
    rc = main(["run-tests", "--target", str(cs), "--source", str(java), "--method", "StringUtils.Repeat",
               "--code", str(code), "--workdir", str(tmp_path / "ws")])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and out["status"] == "runtime_error", out


@pytest.mark.slow
def test_translate_says_blocked_and_stops_repairing(masked, tmp_path, capsys, monkeypatch):
    java, cs = masked
    monkeypatch.chdir(tmp_path)
    rc = main(["translate", "--source", str(java), "--target", str(cs), "--function", "Circle.Area()",
               "--model", "builtin", "--no-rag", "--run-dir", str(tmp_path / "run"), "--workdir", str(tmp_path / "ws")])
    out = capsys.readouterr().out
    assert rc == 1
    assert "test outcome: blocked (" in out and "fail only inside members that are not translated yet" in out
    assert "rounds: 0 repair round(s), 1 candidate(s)" in out and "  tests: " in out
    assert "model calls (estimated: the offline builtin policy counts words, not tokens)" in out


@pytest.mark.slow
def test_a_failed_outcome_prints_its_reason_and_the_selection(masked, tmp_path, capsys, monkeypatch):
    java, cs = masked
    monkeypatch.setenv("REPOTRANS_API_KEY", "test-key")
    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer(['{"tool": "enough"}', WRONG_REPEAT]) as server:
        rc = main(["translate", "--source", str(java), "--target", str(cs), "--function", "StringUtils.Repeat",
                   "--model", "local-coder", "--base-url", server.base_url, "--no-rag", "--no-refine",
                   "--run-dir", str(tmp_path / "run"), "--workdir", str(tmp_path / "ws")])
    out = capsys.readouterr().out
    assert rc == 1
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("test outcome: "))
    assert lines[at].startswith("test outcome: ")
    details = lines[at + 1:at + 8]
    assert any(line.startswith("  - test ") and "failed" in line for line in details), out
    assert any(line.startswith("  tests: ") and "covering test(s)" in line for line in details), out


@pytest.mark.slow
def test_a_401_that_echoes_the_key_is_reported_without_it(masked, tmp_path, capsys, monkeypatch):
    """The server's error names the key it was sent; no console line or run file may hold it."""
    java, cs = masked
    key = "sk-test-4f1c9a7e2b6d-secret"
    monkeypatch.setenv("REPOTRANS_API_KEY", key)
    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer([], fail_first=50, fail_status=401) as server:
        rc = main(["translate", "--source", str(java), "--target", str(cs), "--function", "StringUtils.Repeat",
                   "--model", "local-coder", "--base-url", server.base_url, "--no-rag", "--no-refine",
                   "--run-dir", str(tmp_path / "run"), "--workdir", str(tmp_path / "ws")])
        assert 401 in server.statuses
    captured = capsys.readouterr()
    assert rc != 0
    assert "401" in captured.out + captured.err or "API key" in captured.out + captured.err
    assert key not in captured.out + captured.err
    written = [p for p in (tmp_path / "run").rglob("*") if p.is_file()]
    assert written, "the failed task still leaves its run folder"
    assert all(key.encode() not in p.read_bytes() for p in written)
