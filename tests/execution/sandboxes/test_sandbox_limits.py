"""Process limits and test scratch folders of both sandboxes, on plain shell commands (no mono): a
fork bomb is killed as soon as the pids controller refuses a fork, and a test command writes only the
scratch folders it was given, as the test uid (the dotnet toolchain's TRX folder)."""
from __future__ import annotations

import os
import time

import pytest

from repotrans.errors import ConfigError
from repotrans.execution import sandboxes
from repotrans.execution.sandboxes import BUILD_UID, PIDS_LIMIT, TEST_UID
from repotrans.execution.sandboxes.cgroups import support
from repotrans.execution.sandboxes.local import LocalSandbox, bwrap_status

IMAGE = "repotrans/mono:bookworm"
# 2,000 sleeping children, each fork's failure ignored: without the kill it would run to the time limit
BOMB = "i=0; while [ $i -lt 2000 ]; do sleep 40 2>/dev/null & i=$((i+1)); done; wait"
SANDBOXES = [pytest.param("local", marks=pytest.mark.slow), pytest.param("docker", marks=pytest.mark.docker)]


@pytest.fixture(params=SANDBOXES)
def box(request, tmp_path):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    if request.param == "local":
        ok, why = bwrap_status()
        if not ok:
            pytest.fail(f"the local sandbox is unavailable: {why}", pytrace=False)
        if support()[0] is None:
            pytest.skip(f"no cgroup: {support()[1]}")
        yield LocalSandbox(workspace)
        return
    from repotrans.execution.sandboxes.docker import DockerSandbox, engine_status
    ok, why = engine_status(IMAGE)
    if not ok:
        pytest.fail(f"docker sandbox tests: {why}", pytrace=False)
    sandbox = DockerSandbox(workspace, IMAGE)
    yield sandbox
    sandbox.close()


def test_a_fork_bomb_is_killed_at_the_process_limit(box):
    started = time.monotonic()
    outcome = box.run(["/bin/sh", "-c", BOMB], cwd=box.workspace, timeout=60.0, memory_mb=256)
    assert outcome.pids_limited and not outcome.timed_out, outcome.output[-500:]
    assert time.monotonic() - started < 20
    quiet = box.run(["/bin/sh", "-c", "sleep 0.3; echo ok"], cwd=box.workspace, timeout=30.0, memory_mb=256)
    assert quiet.exit_code == 0 and not quiet.pids_limited and PIDS_LIMIT > 100


@pytest.mark.skipif(os.geteuid() != 0, reason="uids are switched only when repotrans runs as root")
def test_a_test_command_writes_only_its_scratch_folders_as_the_test_uid(box):
    results, build = box.workspace / "run" / "results", box.workspace / "run" / "tree"
    build.mkdir(parents=True)
    os.chown(build, BUILD_UID, BUILD_UID)
    script = (f"id -u; echo r > {results}/a.trx && echo wrote-results; "
              f"echo t > {build}/x 2>/dev/null && echo wrote-tree; true")
    outcome = box.run(["/bin/sh", "-c", script], cwd=box.workspace, timeout=30.0, memory_mb=256, scratch=[results])
    lines = outcome.stdout.split()
    assert int(lines[0]) >= TEST_UID and "wrote-results" in lines and "wrote-tree" not in lines, outcome.output
    assert (results / "a.trx").stat().st_uid == int(lines[0])
    with pytest.raises(ConfigError, match="not both"):
        box.run(["true"], cwd=box.workspace, timeout=5.0, memory_mb=256, writable=[build], scratch=[results])


def test_a_cpu_limit_counts_cpu_seconds_not_the_wall_clock(box, monkeypatch):
    """An idle run outlives a 1 s CPU limit (it uses none), a busy one is killed at it; a run that
    hangs without the CPU is stopped at the wall-clock backstop; the wall limit of before still holds."""
    assert box.counts_cpu() or box.name == "local" and support()[0] is None
    if not box.counts_cpu():
        pytest.skip("the local sandbox counts no CPU time here (no cgroup v2, no v1 cpuacct)")
    idle = box.run(["/bin/sh", "-c", "sleep 2; echo ok"], cwd=box.workspace, timeout=1.0, memory_mb=256, cpu=True)
    assert (idle.exit_code, idle.stdout.strip(), idle.timed_out) == (0, "ok", False), idle.output[-300:]
    spin = box.run(["/bin/sh", "-c", "while :; do :; done"], cwd=box.workspace, timeout=1.0, memory_mb=256, cpu=True)
    assert spin.timed_out and spin.cpu_limited and not spin.backstopped, spin.output[-300:]
    assert box.name == "docker" or 1.0 <= spin.cpu_seconds < 3.0         # docker: the kernel's RLIMIT_CPU
    wall = box.run(["/bin/sh", "-c", "sleep 2; echo ok"], cwd=box.workspace, timeout=1.0, memory_mb=256)
    assert wall.timed_out and not wall.cpu_limited and not wall.backstopped
    monkeypatch.setattr(sandboxes, "BACKSTOP_FACTOR", 2.0)
    monkeypatch.setattr(sandboxes, "BACKSTOP_SLACK", 0.0)
    started = time.monotonic()
    hang = box.run(["/bin/sh", "-c", "sleep 30"], cwd=box.workspace, timeout=0.5, memory_mb=256, cpu=True)
    assert hang.timed_out and hang.backstopped and not hang.cpu_limited and time.monotonic() - started < 10


def test_stdout_is_kept_whole_past_the_logs_limit(box):
    """stdout is the test runner's report channel: a big suite's report (NPOI's: over 2 MB, the log's
    limit) arrives whole, line for line, while the log (stdout and stderr) is clipped."""
    lines = 40_000                          # 40,000 lines of 100 bytes: 4 MB, twice the log's limit
    script = f"i=0; while [ $i -lt {lines} ]; do printf '%099d\\n' $i; i=$((i+1)); done"
    outcome = box.run(["sh", "-c", script], cwd=box.workspace, timeout=120, memory_mb=256)
    got = outcome.stdout.splitlines()
    assert len(got) == lines and got[-1] == f"{lines - 1:099d}" and outcome.stdout_cut == 0
    assert len(outcome.output) < len(outcome.stdout)


def test_a_capture_past_its_limit_keeps_head_and_tail_and_counts_the_cut():
    capture = sandboxes.Capture(1000)
    for n in range(40):
        capture.add(f"{n:099d}\n".encode())
    text = capture.text()
    assert text.startswith(f"{0:099d}") and text.endswith(f"{39:099d}\n")
    assert capture.cut > 2000 and len(capture.head) + len(capture.tail) + capture.cut == 4000
