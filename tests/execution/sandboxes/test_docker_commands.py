"""A docker sandbox told its user runs several test commands at once (a candidate's runs side by side,
execution.test_processes) sizes its one container for all of them: each still has memory_mb and the process
limit of one run, so a run beside another is never stopped by a limit it would not meet alone."""
from __future__ import annotations

import pytest

from repotrans.execution.sandboxes import PIDS_LIMIT
from repotrans.execution.sandboxes.docker import MEMORY_HEADROOM_MB, engine_status
from repotrans.execution.sandboxes.choice import make_sandbox

pytestmark = pytest.mark.docker
IMAGE = "repotrans/mono:bookworm"


@pytest.mark.parametrize("commands", [1, 2])
def test_the_container_holds_the_commands_run_at_once_each_within_its_own_limits(tmp_path, commands):
    ok, why = engine_status(IMAGE)
    if not ok:
        pytest.fail(f"docker sandbox tests: {why}", pytrace=False)
    box = make_sandbox("docker", tmp_path, IMAGE, commands)
    try:
        out = box.run(["/bin/sh", "-c", "echo ok"], cwd=tmp_path, timeout=30.0, memory_mb=300)
        assert out.exit_code == 0, out.output
        box._container.reload()
        host = box._container.attrs["HostConfig"]
        assert host["Memory"] == (300 * commands + MEMORY_HEADROOM_MB) * 2**20
        assert host["PidsLimit"] == PIDS_LIMIT * commands
    finally:
        box.close()
