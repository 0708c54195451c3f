"""One job of the Python checker (il_check.Checker): a candidate assembly checked against its baseline
and the port's framework references, each read once per file state in a process."""
from __future__ import annotations

import time
from pathlib import Path

from repotrans.execution.capability.il_baseline import Baseline, baseline_of
from repotrans.execution.capability.il_check import Checker
from repotrans.execution.capability.il_refs import PortRefs, port_refs
from repotrans.execution.capability.checks import MemberRef, PolicyVerdict


class AssemblyReads:
    """What a checker process has read of the assemblies its jobs name, per file state (path, mtime, size):
    baselines' keys and the port's framework references. The process's job loop owns one (il_check_main), so
    a process pays for each once; a file that changed is read again."""

    def __init__(self) -> None:
        self._baselines: dict[tuple[str, int, int], Baseline] = {}
        self._refs: dict[tuple[str, int, int], PortRefs] = {}

    @staticmethod
    def _state(path: Path) -> tuple[str, int, int]:
        st = Path(path).stat()
        return str(path), st.st_mtime_ns, st.st_size

    def baseline(self, path: Path) -> Baseline:
        key = self._state(path)
        if key not in self._baselines:
            self._baselines[key] = baseline_of(Checker(Path(path)))
        return self._baselines[key]

    def refs(self, path: Path) -> PortRefs:
        key = self._state(path)
        if key not in self._refs:
            self._refs[key] = port_refs(Checker(Path(path)))
        return self._refs[key]


def check_assembly(candidate: Path, baseline: Path | Baseline | None, member: MemberRef | None,
                   allowed: frozenset[str], refs: Path | PortRefs | None = None,
                   reads: AssemblyReads | None = None) -> PolicyVerdict:
    """One job, as checks.job_line describes it for cecil_checker.cs; an unreadable assembly is an error
    verdict (the candidate is rejected, never passed unchecked). `baseline`: the baseline assembly or its
    keys already read; `refs`: the port's build whose framework references the candidate may use (default:
    the baseline); `reads`: the process's (what it already read of them; none: read for this job)."""
    reads = reads or AssemblyReads()
    started = time.perf_counter()
    try:
        base = baseline
        if baseline is not None and not isinstance(baseline, Baseline):
            base = reads.baseline(Path(baseline))
        if refs is not None and not isinstance(refs, PortRefs):
            if base is not None and not isinstance(baseline, Baseline) and Path(refs) == Path(baseline):
                refs = base.refs
            else:
                refs = reads.refs(Path(refs))
        verdict = Checker(Path(candidate)).check(member, allowed, base, refs)
    except Exception as exc:  # a malformed assembly: reject with the reason
        verdict = PolicyVerdict(error=f"{type(exc).__name__}: {exc}")
    verdict.seconds = time.perf_counter() - started
    return verdict
