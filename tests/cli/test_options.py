"""Shared options: every setting flag fills its configuration value, and a flag left out falls back
to the configuration (file < environment), never to a default of the command's own."""
from __future__ import annotations

from repotrans.cli import build_parser
from repotrans.cli.options import SETTINGS, given_settings, load_settings
from repotrans.agents.config import AgentConfig


def test_every_setting_flag_names_a_real_configuration_value():
    config = AgentConfig()
    for setting in SETTINGS.values():
        assert hasattr(getattr(config, setting.section), setting.key), setting.flag


def test_run_tests_and_dataset_build_take_their_execution_defaults_from_the_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "repotrans.toml").write_text('[execution]\ntoolchain = "dotnet"\nsandbox = "local"\n'
                                             'timeout = 12\nmemory_mb = 700\nscope = "all"\n')
    parser = build_parser()
    run_tests = parser.parse_args(["run-tests", "--target", "t", "--method", "M()", "--code", "c.cs"])
    ex = load_settings(run_tests, resolve=False).execution
    assert (ex.toolchain, ex.sandbox, ex.timeout, ex.memory_mb, ex.scope) == ("dotnet", "local", 12.0, 700, "all")
    build = parser.parse_args(["dataset", "build", "--source", "j", "--target", "c", "--out", "o"])
    assert load_settings(build, resolve=False).execution.toolchain == "dotnet"
    flagged = parser.parse_args(["run-tests", "--target", "t", "--method", "M()", "--code", "c.cs",
                                 "--toolchain", "mono", "--timeout", "5"])
    ex = load_settings(flagged, resolve=False).execution
    assert (ex.toolchain, ex.timeout, ex.memory_mb) == ("mono", 5.0, 700)


def test_translate_flags_reach_their_sections():
    args = build_parser().parse_args(["translate", "--function", "f", "--model", "m", "--no-cache", "--no-rag",
                                      "--max-repair-rounds", "1", "--sandbox", "docker"])
    given = given_settings(args)
    assert given["model"] == {"name": "m", "base_url": None, "cache": False}
    assert given["agents"]["rag"] is False and given["agents"]["context"] is None
    assert given["agents"]["max_repair_rounds"] == 1 and given["execution"]["sandbox"] == "docker"
