"""The mono judge's verdict for runs a sandbox killed: from the sandbox's own evidence, not the console."""
from __future__ import annotations

from repotrans.execution.sandboxes import PIDS_REASON, RunOutcome
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.mono_judge import judge


def _killed(**flags) -> RunOutcome:
    return RunOutcome(argv=["mono", "runner.exe"], exit_code=None, output="", seconds=3.0, **flags)


def test_a_fork_bomb_that_also_exhausted_memory_is_named_by_the_process_limit():
    limits = Limits(timeout=60.0, memory_mb=512)
    both = judge(_killed(pids_limited=True, oom_killed=True), "nonce", None, limits, locate=None)
    assert (both.status, both.reason) == ("runtime_error", PIDS_REASON)
    memory = judge(_killed(oom_killed=True), "nonce", None, limits, locate=None)
    assert (memory.status, memory.reason) == ("runtime_error", "out of memory (killed at the memory limit)")
