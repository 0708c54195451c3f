"""The capability checker's jobs for ground truths: a task's member as the baseline built it, in each
non-test project compiling its file, with its Java original's allowances (as the per-task path checks a
candidate). Dataset validation and the policy benchmarks (scripts/ground_truth_pairs.py) build them here."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.toolchains.api import Project, rel
from repotrans.execution.workspace.scratch import Workspace
from repotrans.index.model import Method


@dataclass(frozen=True)
class TruthJob:
    """One ground truth's checker job: its built assembly, the member, the Java original's allowances."""
    task_id: str
    dll: Path
    member: checks.MemberRef
    allowed: frozenset[str]

    def line(self, ws: Workspace) -> str:
        """Its own assembly is the port's build whose references it may use (less its own member's)."""
        dll = rel(self.dll, ws)
        return checks.job_line(dll, None, self.member, self.allowed, dll)


def truth_jobs(index, ws: Workspace, projects: list[Project], task_id: str, method: Method,
               java: Method | None) -> list[TruthJob]:
    """The jobs of one ground truth (`method`, the C# member as the port has it): one per non-test project
    compiling its file, in `projects`' order."""
    path = (ws.src / method.path).resolve()
    allowed = allowances(index, java)
    return [TruthJob(task_id, ws.base / p.name / p.dll_name, checks.MemberRef.of(method), allowed)
            for p in projects if not p.is_test and path in p.sources]
