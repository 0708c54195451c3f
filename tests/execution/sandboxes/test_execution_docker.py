"""Faults under the docker sandbox, each from a real candidate compiled by mcs and run by
repotrans's NUnit runner inside repotrans/mono:bookworm (no network, memory/CPU/pids limits,
workspace only).

These must run in CI: a missing engine or image fails loudly instead of skipping."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.judge.runner import TargetBuildError
from repotrans.execution.sandboxes import backstop
from repotrans.execution.sandboxes.docker import LABEL, owner
from tests.execution.judge.test_execution_runner import make_index
from tests.support.runners import Runners

pytestmark = pytest.mark.docker
CALC = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet" / "projects" / "calc"
IMAGE = "repotrans/mono:bookworm"
ADD_TRUTH = "{\n    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}"


@pytest.fixture(scope="module")
def engine():
    try:
        import docker
        client = docker.from_env()
        client.ping()
    except Exception as exc:
        pytest.fail(f"docker tests need a running Docker engine (start dockerd): {exc}", pytrace=False)
    try:
        client.images.get(IMAGE)
    except Exception:
        pytest.fail(f"docker image {IMAGE} is missing: run scripts/build_mono_image.sh", pytrace=False)
    yield client
    client.close()


@pytest.fixture(scope="module")
def env(engine, tmp_path_factory):
    root = tmp_path_factory.mktemp("docker")
    index = make_index(root, CALC)
    with Runners(root / "wd", sandbox="docker", timeout=30.0) as runners:
        yield index, root / "wd", runners
    index.close()


def run(env, code: str, query: str = "Calculator.Add", **kw):
    index, _, runners = env
    [m] = index.find_methods("target", query)
    return runners.run(index, m, code, **kw)


def _ours(engine, workdir: Path | None = None) -> list:
    """Containers this test process owns (other processes' containers are none of our business),
    only those serving `workdir` when given (earlier tests of this process keep theirs warm)."""
    found = engine.containers.list(all=True, filters={"label": f"{LABEL}={owner()}"})
    if workdir is None:
        return found
    runner = str((workdir / "runner").resolve())
    return [c for c in found if any(m["Destination"] == runner for m in c.attrs["Mounts"])]


def test_ground_truth_passes_in_a_warm_container(env, engine):
    assert run(env, ADD_TRUTH).status == "passed"
    [container] = _ours(engine, env[1])
    config = container.attrs["HostConfig"]
    assert config["NetworkMode"] == "none" and config["PidsLimit"] > 0 and config["NanoCpus"] > 0
    assert config["Memory"] > 0
    assert config["CapDrop"] == ["ALL"] and config["SecurityOpt"] == ["no-new-privileges"]
    assert config["ReadonlyRootfs"] is True and "/tmp" in config["Tmpfs"]
    assert container.attrs["Config"]["User"] == "65534:65534"
    assert [m["Destination"] for m in container.attrs["Mounts"]] == [str((env[1] / "runner").resolve())]
    assert run(env, ADD_TRUTH).status == "passed"
    assert [c.id for c in _ours(engine, env[1])] == [container.id]          # reused, not recreated


def test_syntax_garbage_is_a_compile_error(env):
    result = run(env, "public int Add(int a, int b)\n{\n    return a +* b;\n}")
    assert result.status == "compile_error"
    assert {(d.file, d.candidate_line) for d in result.diagnostics if d.severity == "error"} == {
        ("src/Acme.Calc/Calculator.cs", 3)}


def test_socket_fails_without_network(env):
    # the network grant a Java original using java.net gives lets the checker pass the socket (reduced
    # trust): what stops it then is the container's missing network
    code = ("{\n    using (var client = new System.Net.Sockets.TcpClient())\n    {\n"
            "        client.Connect(System.Net.IPAddress.Parse(\"1.1.1.1\"), 80);\n    }\n"
            "    int sum = a + b;\n    history.Add(sum);\n    return sum;\n}")
    assert run(env, code).status == "rejected"                  # no grant: the allowlist stops it first
    result = run(env, code, allow=frozenset({"network"}))
    assert result.status == "runtime_error"
    assert result.exceptions[0].type == "System.Net.Sockets.SocketException", result.brief()


def test_memory_bomb_is_out_of_memory(env):
    code = ("{\n    var hog = new System.Collections.Generic.List<byte[]>();\n"
            "    while (true) { var chunk = new byte[1 << 20]; chunk[0] = 1; hog.Add(chunk); }\n}")
    result = run(env, code, memory_mb=512)
    assert result.status == "runtime_error" and result.reason == "out of memory", result.brief()


def test_infinite_loop_times_out_and_leaves_nothing(env, engine):
    result = run(env, "{\n    while (true) { }\n}", timeout=5.0)
    # the test step's limit: 5 CPU seconds (longer in wall time on a busy machine), not the build's
    assert result.status == "timeout" and "5 s CPU limit" in result.reason and result.timings["test"] < backstop(5.0)
    for container in _ours(engine, env[1]):
        assert [p for p in container.top()["Processes"] if "mono" in " ".join(p) or "cli" in p[-1]] == []
    env[2].close()
    assert _ours(engine, env[1]) == []         # other tests' runners keep their own containers warm


def test_target_that_does_not_build(engine, tmp_path):
    broken = tmp_path / "calc"
    shutil.copytree(CALC, broken)
    calc = broken / "src" / "Acme.Calc" / "Calculator.cs"
    calc.write_text(calc.read_text().replace("return a / b;", "return a / c;"))
    index = make_index(tmp_path, broken)
    [m] = index.find_methods("target", "Calculator.Add")
    with Runners(tmp_path / "wd", sandbox="docker") as runners:
        with pytest.raises(TargetBuildError, match="does not build before patching: project Acme.Calc: "
                                                   "src/Acme.Calc/Calculator.cs:24: CS0103"):
            runners.run(index, m, ADD_TRUTH)
    assert _ours(engine, tmp_path / "wd") == []
    index.close()
