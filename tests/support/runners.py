"""Runners for a test module's fixture: one per execution setting a test asks for, all closed by the
fixture that made them (a docker runner keeps a warm container until then)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from repotrans.verdicts.results import TestResult
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig


class Runners:
    """`run` judges a candidate with the fixture's settings, or with some of them changed (`timeout`,
    `memory_mb`, ...): each distinct setting gets its own Runner, kept until `close`."""

    def __init__(self, workdir: Path, **settings):
        self.workdir = Path(workdir)
        self.config = ExecutionConfig(**settings)
        self._made: dict[ExecutionConfig, Runner] = {}

    def __enter__(self) -> "Runners":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def runner(self, **changes) -> Runner:
        """The Runner for the fixture's settings with `changes`."""
        config = dataclasses.replace(self.config, **changes)
        if config not in self._made:
            self._made[config] = Runner(config, self.workdir)
        return self._made[config]

    def run(self, index, method, code: str, *, allow: frozenset[str] | None = None, keep_run: bool = False,
            java=None, **changes) -> TestResult:
        return self.runner(**changes).run(index, method, code, allow=allow, keep_run=keep_run, java=java)

    def close(self) -> None:
        for runner in self._made.values():
            runner.close()
        self._made.clear()
