"""Mapping overrides (repotrans.toml [mapping], --mapping FILE, an edited jsonl export) and
`repotrans mapping --format jsonl`."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from repotrans.cli import build_parser, main
from repotrans.cli.options import load_settings
from repotrans.errors import ConfigError
from repotrans.mapping.mapping import MappingOverrides
from repotrans.mapping.load import load_mapping
from repotrans.mapping.overrides import read_file
from repotrans.index.store import Index
from repotrans.mapping.task import resolve_task

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "mini_pair"
CIRCLE_J = "source:org.acme.geometry.shapes.Circle"
CIRCLE_C = "target:Acme.Geo.Shapes.Circle"


@pytest.fixture()
def work(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)                   # the CLI reads ./repotrans.toml from the working directory
    shutil.copytree(PAIR / "java", tmp_path / "java")
    shutil.copytree(PAIR / "csharp", tmp_path / "csharp")
    assert main(["--workdir", "w", "index", "--source", "java", "--target", "csharp", "--quiet"]) == 0
    return tmp_path


def _mapping(work: Path, overrides: MappingOverrides | None = None):
    return load_mapping(Index.open(work / "w", must_exist=True), overrides)


def _configured(*argv: str) -> MappingOverrides:
    """The overrides a command's configuration carries (what the CLI hands every load_mapping)."""
    return load_settings(build_parser().parse_args([*argv] or ["mapping"]), env={}).mapping


def test_repotrans_toml_overrides_a_method_and_declares_one_without_counterpart(work, capsys):
    before = _mapping(work)
    assert before.target_method(f"{CIRCLE_J}.debugDump()") is None
    assert before.target_method(f"{CIRCLE_J}.scale(int)").target_id == f"{CIRCLE_C}.Scale(int)"
    (work / "repotrans.toml").write_text(
        '[mapping.methods]\n"org.acme.geometry.shapes.Circle.debugDump()" = "Circle.ToString()"\n'
        '"Circle.scale(int)" = ""\n')
    after = _mapping(work, _configured())         # the cache notices the overrides
    fixed = after.target_method(f"{CIRCLE_J}.debugDump()")
    assert (fixed.target_id, fixed.reason, fixed.confidence) == (f"{CIRCLE_C}.ToString()", "mapping override", 1.0)
    assert after.unmatched_methods[f"{CIRCLE_J}.toString()"] == \
        f"{CIRCLE_C}.ToString() given to {CIRCLE_J}.debugDump() by a mapping override"
    assert after.target_method(f"{CIRCLE_J}.scale(int)") is None
    assert after.unmatched_methods[f"{CIRCLE_J}.scale(int)"] == "no counterpart (mapping override)"
    index = Index.open(work / "w", must_exist=True)   # every command resolves tasks through the same mapping
    assert resolve_task(index, load_mapping(index, _configured()),
                        "Circle.debugDump()").target_method_id == f"{CIRCLE_C}.ToString()"
    assert main(["--workdir", "w", "mapping", "--verbose"]) == 0
    assert f"  {CIRCLE_J}.debugDump() -> {CIRCLE_C}.ToString()  [1.00 mapping override]" in \
        capsys.readouterr().out.splitlines()


def test_type_override_applies_before_members_are_matched(work):
    mapping = _mapping(work, MappingOverrides(types={"org.acme.misc.Helper": "Acme.A.Helper"}, origin="test"))
    assert mapping.target_type("source:org.acme.misc.Helper").target_id == "target:Acme.A.Helper"
    twice = mapping.target_method("source:org.acme.misc.Helper.twice(int)")
    assert twice is not None and twice.target_id.startswith("target:Acme.A.Helper.")


def test_caller_overrides_go_on_top_of_the_configured_ones(work):
    (work / "repotrans.toml").write_text('[mapping.methods]\n"Circle.debugDump()" = ""\n')
    extra = MappingOverrides(methods={"Circle.debugDump()": "Circle.ToString()"}, origin="--target-member")
    assert _mapping(work, _configured().merged(extra)).target_method(
        f"{CIRCLE_J}.debugDump()").target_id == f"{CIRCLE_C}.ToString()"


def test_bad_override_entries_are_one_clear_error(work, capsys):
    (work / "bad.toml").write_text('[mapping.methods]\n"Circle.nothing()" = "Circle.Area"\n')
    assert main(["--workdir", "w", "--mapping", "bad.toml", "mapping"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("repotrans: error: mapping override in ") and "no Java member 'Circle.nothing()'" in err
    (work / "bad.toml").write_text("[mapping.methods]\nx = 3\n")
    with pytest.raises(ConfigError, match=r"must map names to names"):
        read_file(work / "bad.toml")


def test_jsonl_export_lists_matches_with_evidence_and_misses_and_reads_back_as_overrides(work, capsys):
    assert main(["--workdir", "w", "mapping", "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = {r["kind"] for r in rows}
    assert kinds == {"namespace", "type", "method"}
    scale = next(r for r in rows if r["source"] == "org.acme.geometry.shapes.Circle.scale(int)")
    assert scale["target"] == "Acme.Geo.Shapes.Circle.Scale(int)" and scale["reason"] == "PascalCase name"
    assert scale["source_location"].endswith(".java:" + scale["source_location"].rsplit(":", 1)[1])
    dump = next(r for r in rows if r["source"] == "org.acme.geometry.shapes.Circle.debugDump()")
    assert dump["target"] is None and dump["reason"] == "no C# member by the naming rules"
    dump["target"] = "Acme.Geo.Shapes.Circle.ToString()"          # the user corrects one line
    (work / "fixed.jsonl").write_text(json.dumps(dump) + "\n")
    assert main(["--workdir", "w", "--mapping", "fixed.jsonl", "mapping", "--verbose"]) == 0
    assert (f"  {CIRCLE_J}.debugDump() -> {CIRCLE_C}.ToString()  [1.00 mapping override]"
            in capsys.readouterr().out.splitlines())


def test_config_file_and_mapping_file_are_read_in_order(work):
    (work / "cfg.toml").write_text('[model]\nname = "builtin"\n[mapping.methods]\n"Circle.debugDump()" = "Circle.ToString()"\n'
                                   '"Circle.scale(int)" = "Circle.Scale(int)"\n')
    (work / "more.toml").write_text('[mapping.methods]\n"Circle.scale(int)" = ""\n')
    mapping = _mapping(work, _configured("--mapping", "more.toml", "doctor", "--config", "cfg.toml"))
    assert mapping.target_method(f"{CIRCLE_J}.debugDump()").target_id == f"{CIRCLE_C}.ToString()"
    assert mapping.unmatched_methods[f"{CIRCLE_J}.scale(int)"] == "no counterpart (mapping override)"


def test_agent_configuration_accepts_the_mapping_section(work):
    from repotrans.agents.config import load_config

    (work / "cfg.toml").write_text('[model]\nname = "builtin"\n[mapping.methods]\n"Circle.debugDump()" = ""\n')
    assert load_config(work / "cfg.toml", resolve=False).model.name == "builtin"
