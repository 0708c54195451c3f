"""Both judges implement the Judge protocol in full and by themselves: every protocol method with the
protocol's parameters, and no attribute forwarding (a BatchingJudge answers only what Judge names, the
rest is its runner's business)."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from repotrans.execution.judge.batching import BatchingJudge, judge_for
from repotrans.execution.judge.protocol import Judge
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig

MEMBERS = [name for name, value in vars(Judge).items() if callable(value) and
           (not name.startswith("_") or name in ("__enter__", "__exit__"))]


def test_the_protocol_names_what_callers_use():
    assert set(MEMBERS) == {"run", "run_many", "language_version", "close", "__enter__", "__exit__"}


@pytest.mark.parametrize("cls", [Runner, BatchingJudge])
def test_each_judge_has_every_member_with_the_protocols_parameters(cls):
    for name in MEMBERS:
        ours, theirs = inspect.signature(getattr(cls, name)), inspect.signature(getattr(Judge, name))
        assert list(ours.parameters) == list(theirs.parameters), f"{cls.__name__}.{name}{ours} vs Judge{theirs}"
        assert [p.default for p in ours.parameters.values()] == [p.default for p in theirs.parameters.values()]


def test_the_batching_judge_forwards_nothing(tmp_path: Path):
    assert "__getattr__" not in vars(BatchingJudge)
    runner = Runner(ExecutionConfig(sandbox="local", batch_candidates=True), tmp_path)
    judge = judge_for(runner, 2)
    assert isinstance(judge, BatchingJudge) and not hasattr(judge, "baseline") and not hasattr(judge, "toolchain")
    assert judge_for(Runner(ExecutionConfig(sandbox="local"), tmp_path), 2).__class__ is Runner
    assert inspect.signature(judge_for).return_annotation in (Judge, "Judge")
