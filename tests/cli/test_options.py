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
    ex = load_settings(run_tests, env={}).execution
    assert (ex.toolchain, ex.sandbox, ex.timeout, ex.memory_mb, ex.scope) == ("dotnet", "local", 12.0, 700, "all")
    build = parser.parse_args(["dataset", "build", "--source", "j", "--target", "c", "--out", "o"])
    assert load_settings(build, env={}).execution.toolchain == "dotnet"
    flagged = parser.parse_args(["run-tests", "--target", "t", "--method", "M()", "--code", "c.cs",
                                 "--toolchain", "mono", "--timeout", "5"])
    ex = load_settings(flagged, env={}).execution
    assert (ex.toolchain, ex.timeout, ex.memory_mb) == ("mono", 5.0, 700)


def test_translate_flags_reach_their_sections():
    args = build_parser().parse_args(["translate", "--function", "f", "--model", "m", "--no-cache", "--no-rag",
                                      "--max-repair-rounds", "1", "--sandbox", "docker"])
    given = given_settings(args)
    assert given["model"] == {"name": "m", "base_url": None, "timeout": None, "cache": False}
    assert given["cache"] == {"embeddings": False}                 # --no-cache: the embedding cache too
    assert given["agents"]["rag"] is False and given["agents"]["context"] is None
    assert given["agents"]["max_repair_rounds"] == 1 and given["execution"]["sandbox"] == "docker"


def test_build_settings_mapping_and_cache_folder_are_values_of_the_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nuget").mkdir()
    (tmp_path / "libs").mkdir()
    (tmp_path / "more.toml").write_text('[mapping.types]\n"org.x.Foo" = "X.Foo"\n')
    args = build_parser().parse_args(["--framework", "net48", "--packages", "nuget", "--mapping", "more.toml",
                                      "doctor", "--project-path", "libs"])
    (tmp_path / "global").mkdir()
    config = load_settings(args, env={"NUGET_PACKAGES": str(tmp_path / "global"), "REPOTRANS_CACHE_DIR": "/tmp/c"})
    ex = config.execution
    assert (ex.framework, ex.packages) == ("net48", (str(tmp_path / "nuget"), str(tmp_path / "global")))
    assert ex.project_paths == (str(tmp_path / "libs"),)
    assert ex.build_settings().project_paths == (tmp_path / "libs",)
    assert config.mapping.types == {"org.x.Foo": "X.Foo"} and config.model.cache_dir == "/tmp/c"
    assert load_settings(build_parser().parse_args(["doctor"]), env={"HOME": "/h"}).model.cache_dir == \
        "/h/.cache/repotrans"
    assert load_settings(build_parser().parse_args(["doctor"]), env={}).model.cache_dir is None


def test_the_cache_root_is_its_own_setting_and_no_cache_turns_off_both_caches(tmp_path, monkeypatch):
    """[cache] root is composed once (a [model] cache_dir given, else the environment) and the response
    cache's folder follows it; the model's `cache = false` no longer takes the embedding cache with it,
    `--no-cache` (README: "keeps it in memory (with the response cache off too") turns off both."""
    from pathlib import Path

    from repotrans.agents.cache import cache_folder

    monkeypatch.chdir(tmp_path)
    env = {"REPOTRANS_CACHE_DIR": str(tmp_path / "env")}
    doctor = build_parser().parse_args(["doctor"])
    config = load_settings(doctor, env=env)
    assert config.cache.root == str(tmp_path / "env") == config.model.cache_dir
    assert config.cache.embedding_folder() == cache_folder(config.model) == tmp_path / "env"
    (tmp_path / "repotrans.toml").write_text(f'[model]\ncache = false\n[cache]\nroot = "{tmp_path / "root"}"\n')
    config = load_settings(doctor, env=env)
    assert cache_folder(config.model) is None and config.cache.embedding_folder() == tmp_path / "root"
    assert config.model.cache_dir == str(tmp_path / "root")
    (tmp_path / "repotrans.toml").write_text(f'[model]\ncache_dir = "{tmp_path / "old"}"\n'
                                             '[cache]\nembeddings = false\n')
    config = load_settings(doctor, env=env)                        # an older file's folder is the root
    assert config.cache.root == str(tmp_path / "old") and cache_folder(config.model) == tmp_path / "old"
    assert config.cache.embedding_folder() is None
    (tmp_path / "repotrans.toml").unlink()
    off = load_settings(build_parser().parse_args(["translate", "--function", "f", "--no-cache"]), env=env)
    assert cache_folder(off.model) is None and off.cache.embedding_folder() is None
    root = Path(__file__).parents[2]          # the README and its reference pages (docs/)
    readme = "\n".join(p.read_text(encoding="utf-8") for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))])
    assert "`--no-cache` keeps it in\nmemory (with the response cache off too; `[cache] embeddings = false`" in readme


def test_a_build_folder_that_is_not_there_is_one_clear_error(tmp_path, capsys):
    from repotrans.cli import main

    assert main(["--packages", str(tmp_path / "nope"), "doctor"]) == 2
    assert capsys.readouterr().err.strip() == f"repotrans: error: --packages: {tmp_path / 'nope'} is not a folder"


def test_an_old_option_name_still_works_and_says_its_new_name_once(capsys):
    parser = build_parser()
    args = parser.parse_args(["run-tests", "--target", "t", "--method", "M()", "--code", "c.cs"])
    assert args.function == "M()"
    assert capsys.readouterr().err == "repotrans: --method is an old name and will go: use --function\n"
    args = parser.parse_args(["run-tests", "--target", "t", "--function", "M()", "--code", "c.cs"])
    assert args.function == "M()" and capsys.readouterr().err == ""
    args = parser.parse_args(["retrieve", "--function", "f", "--model", "all-MiniLM-L6-v2"])
    assert args.model == "all-MiniLM-L6-v2"
    assert "use --embedding-model" in capsys.readouterr().err


def test_test_processes_default_to_the_cores_each_job_leaves(tmp_path, monkeypatch):
    """0 (the default): one test process per core --jobs leaves (a candidate's runs side by side,
    toolchains.test_runs); a number given is kept; a negative one is a one-line error naming the setting."""
    import pytest
    from repotrans.errors import ConfigError

    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    batch = ["batch", "--source", "j", "--target", "c"]
    assert load_settings(parser.parse_args(batch), env={}, cores=2).execution.test_processes == 2
    assert load_settings(parser.parse_args(batch + ["--jobs", "2"]), env={}, cores=2).execution.test_processes == 1
    assert load_settings(parser.parse_args(batch + ["--jobs", "3"]), env={}, cores=8).execution.test_processes == 2
    given = parser.parse_args(batch + ["--test-processes", "3"])
    assert load_settings(given, env={}, cores=2).execution.test_processes == 3
    with pytest.raises(ConfigError, match="test_processes"):
        load_settings(parser.parse_args(batch + ["--test-processes", "-1"]), env={}, cores=2)
