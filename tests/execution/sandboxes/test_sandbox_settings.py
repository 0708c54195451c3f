"""Execution settings checked up front, the sandbox `auto` stands for, `repotrans doctor`, and the
small CLI defects (a --workdir that is a file, a failed first index)."""
from __future__ import annotations

import pytest

from repotrans import cli
from repotrans.agents.config import load_config
from repotrans.doctor import report
from repotrans.errors import ConfigError
from repotrans.execution import sandboxes
from repotrans.execution.sandboxes import docker as docker_box


@pytest.mark.parametrize("execution,message", [
    ({"timeout": -1}, r"execution.timeout \(--timeout\) must be more than 0"),
    ({"timeout": 0}, r"execution.timeout \(--timeout\) must be more than 0"),
    ({"memory_mb": 0}, "execution.memory_mb must be at least 256"),
    ({"sandbox": "chroot"}, "unknown sandbox 'chroot'"),
    ({"toolchain": "gcc"}, "unknown toolchain 'gcc'"),
    ({"scope": "some"}, "unknown test scope 'some'"),
    ({"clock": "moon"}, "execution.clock must be cpu or wall, not 'moon'"),
])
def test_bad_execution_values_are_config_errors_before_anything_runs(execution, message):
    with pytest.raises(ConfigError, match=message):
        load_config(cli={"model": {"name": "builtin"}, "execution": execution}, env={})


def test_a_top_level_scalar_in_the_file_is_an_error(tmp_path):
    toml = tmp_path / "repotrans.toml"
    toml.write_text('sandbox = "local"\n[model]\nname = "builtin"\n')
    with pytest.raises(ConfigError, match="'sandbox' is outside any section"):
        load_config(toml, env={})


@pytest.mark.parametrize("engine,model,expected", [
    (True, "builtin", "docker"), (True, "qwen2.5-coder:7b", "docker"),
    (False, "builtin", "local"), (False, "qwen2.5-coder:7b", ConfigError),
])
def test_auto_is_docker_when_an_engine_answers_and_local_only_for_builtin(monkeypatch, engine, model, expected):
    monkeypatch.setattr(docker_box, "engine_status", lambda image: (engine, "scripted engine"))
    if expected is ConfigError:
        with pytest.raises(ConfigError, match="explicit --sandbox local"):
            load_config(cli={"model": {"name": model}}, env={})
    else:
        assert load_config(cli={"model": {"name": model}}, env={}).execution.sandbox == expected
    named = load_config(cli={"model": {"name": model}, "execution": {"sandbox": "local"}}, env={})
    assert named.execution.sandbox == "local"                      # asked for by name: always honoured


@pytest.mark.parametrize("engine,model,expected", [
    (True, "builtin", "docker"), (False, "builtin", "local"), (False, "qwen2.5-coder:7b", ConfigError),
])
def test_auto_is_resolved_once_where_the_workload_is_built_and_never_by_the_sandbox(monkeypatch, tmp_path, engine,
                                                                                 model, expected):
    """A Workload (what every executor, thread or Ray node, runs) carries the concrete sandbox; make_sandbox
    refuses `auto`; a judge built straight from an unresolved configuration resolves it once."""
    from types import SimpleNamespace

    from repotrans.agents.config import AgentConfig
    from repotrans.execution.judge import runner as runner_module
    from repotrans.execution.sandboxes.choice import make_sandbox
    from repotrans.execution.settings import ExecutionConfig
    from repotrans.runs.workload import Workload

    asked = []
    monkeypatch.setattr(docker_box, "engine_status", lambda image: (asked.append(image), (engine, "scripted"))[1])
    config = AgentConfig().overlay({"model": {"name": model}})
    assert config.execution.sandbox == "auto"
    if expected is ConfigError:
        with pytest.raises(ConfigError, match="explicit --sandbox local"):
            Workload(dirs={}, config=config, config_name="c", dataset="d")
    else:
        work = Workload(dirs={}, config=config, config_name="c", dataset="d")
        assert work.config.execution.sandbox == expected and len(asked) == 1
    with pytest.raises(ConfigError, match="sandbox 'auto' reached the judge unresolved"):
        make_sandbox("auto", tmp_path, "img")
    monkeypatch.setattr(docker_box, "engine_status", lambda image: (asked.append(image), (False, "scripted"))[1])
    asked.clear()
    untrusted = runner_module.Runner(ExecutionConfig(), tmp_path / "wd0")      # nobody vouched for the code
    try:
        with pytest.raises(ConfigError, match="explicit --sandbox local"):
            untrusted.sandbox(SimpleNamespace(root=tmp_path / "x" / "copy"))
    finally:
        untrusted.close()
    asked.clear()
    judge = runner_module.Runner(ExecutionConfig(), tmp_path / "wd", trusted=True)     # e.g. the user's own candidate
    try:
        boxes = [judge.sandbox(SimpleNamespace(root=tmp_path / name / "copy")) for name in ("a", "b")]
        assert boxes[0] is not boxes[1] and len(asked) == 1           # two sandboxes, one resolution
    finally:
        judge.close()


def test_doctor_says_which_sandbox_is_in_force_and_why(monkeypatch, capsys):
    monkeypatch.setattr(docker_box, "engine_status", lambda image: (False, "no Docker engine answers (test)"))
    text, healthy = report(load_config(cli={"model": {"name": "builtin"}}, env={}, resolve=False))
    assert "in force: local (auto: no Docker engine answers (test); trusted code (the offline translator" in text and healthy
    text, healthy = report(load_config(cli={"model": {"name": "gpt-4o"}}, env={}, resolve=False))
    assert "[!!] in force: none" in text and not healthy
    assert cli.main(["doctor", "--model", "builtin"]) == 0
    assert "local:" in capsys.readouterr().out
    assert sandboxes.SANDBOXES == ("auto", "docker", "local")


def test_a_workdir_that_is_a_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "file"
    path.write_text("x")
    assert cli.main(["--workdir", str(path), "mapping"]) == 2
    assert capsys.readouterr().err.strip() == f"repotrans: error: --workdir: {path} is a file, not a folder"


def test_a_failed_first_index_leaves_no_index_behind(tmp_path):
    assert cli.main(["--workdir", str(tmp_path / "wd"), "index", "--source", str(tmp_path / "none"),
                     "--target", str(tmp_path / "none")]) == 2
    assert list((tmp_path / "wd").glob("index.sqlite*")) == []


def test_doctor_says_what_the_policy_enforces_per_toolchain(monkeypatch):
    """mono: the Cecil checker and the runner's tagged report; dotnet: il_check (no mono) and dotnet
    test's exit status, with the TRX risk named; without il_check's readers every candidate is rejected."""
    from repotrans.execution.capability import dotnet_check

    monkeypatch.setattr(docker_box, "engine_status", lambda image: (False, "no Docker engine answers (test)"))
    mono, _ = report(load_config(cli={"model": {"name": "builtin"}}, env={}, resolve=False))
    assert "nonce-tagged report" in mono and "under dotnet" not in mono
    assert f"at most {sandboxes.PIDS_LIMIT} per run" in mono
    config = load_config(cli={"model": {"name": "builtin"}, "execution": {"toolchain": "dotnet"}}, env={}, resolve=False)
    dotnet, _ = report(config)
    assert "[ok] enforced after dotnet build, before any test runs (il_check" in dotnet
    assert "dotnet test's exit status" in dotnet and "residual risk: under dotnet, vstest.console writes the TRX" in dotnet
    monkeypatch.setattr(dotnet_check, "python_checker_status", lambda: (False, "dnfile is not installed"))
    dotnet, healthy = report(config)
    assert "[!!] il_check cannot run (dnfile is not installed): every candidate is rejected" in dotnet and not healthy
