"""The mono judge's verdict for runs a sandbox killed: from the sandbox's own evidence, not the console."""
from __future__ import annotations

from repotrans.execution.sandboxes import PIDS_REASON, RunOutcome
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.mono_judge import judge, load_independent


def _killed(**flags) -> RunOutcome:
    return RunOutcome(argv=["mono", "runner.exe"], exit_code=None, output="", seconds=3.0, **flags)


def test_a_fork_bomb_that_also_exhausted_memory_is_named_by_the_process_limit():
    limits = Limits(timeout=60.0, memory_mb=512)
    both = judge(_killed(pids_limited=True, oom_killed=True), "nonce", None, limits, locate=None)
    assert (both.status, both.reason) == ("runtime_error", PIDS_REASON)
    memory = judge(_killed(oom_killed=True), "nonce", None, limits, locate=None)
    assert (memory.status, memory.reason) == ("runtime_error", "out of memory (killed at the memory limit)")


def test_a_timeout_names_the_limit_it_hit_and_only_a_cpu_limit_is_load_independent():
    limits = Limits(timeout=60.0, memory_mb=512)
    cpu = judge(_killed(timed_out=True, cpu_limited=True, cpu_seconds=60.2), "nonce", None, limits, locate=None)
    wall = judge(_killed(timed_out=True), "nonce", None, limits, locate=None)
    stuck = RunOutcome(argv=["mono"], exit_code=None, output="", seconds=270.0, timed_out=True, cpu_seconds=0.4,
                       backstopped=True)
    hang = judge(stuck, "nonce", None, limits, locate=None)
    assert cpu.status == wall.status == hang.status == "timeout"
    assert cpu.reason.startswith("tests exceeded the 60 s CPU limit") and load_independent(cpu.reason)
    assert wall.reason.startswith("tests exceeded the 60 s limit") and not load_independent(wall.reason)
    assert "wall-clock backstop of 270 s" in hang.reason and not load_independent(hang.reason)


def test_a_report_cut_in_its_middle_is_named_never_read_as_a_malformed_line():
    """A report with its middle cut is not judged on what is left (a line at the cut reads as malformed,
    the tests in the middle as never run): the verdict says the report was cut and by how much."""
    nonce = "n0"
    whole = "\n".join([f"@@RT {nonce} PLAN Runnable VA== ", f"@@RT {nonce} START 1", f"@@RT {nonce} TEST Success VA== AA== AA== 0.1", f"@@RT {nonce} END 1"])
    limits = Limits(timeout=60.0, memory_mb=512)
    ok = judge(RunOutcome(argv=["mono"], exit_code=0, output="", seconds=1.0, stdout=whole), nonce, None, limits,
               locate=None)
    cut = judge(RunOutcome(argv=["mono"], exit_code=0, output="", seconds=1.0, stdout=whole, stdout_cut=123),
                nonce, None, limits, locate=None)
    assert ok.status == "passed"
    assert cut.status == "runtime_error" and "123 bytes over" in cut.reason
