"""One job of the Python checker (il_check.Checker): a candidate assembly checked against its baseline
and the port's framework references, each read once per file state in a process."""
from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

from repotrans.execution.capability.il_baseline import Baseline, baseline_of
from repotrans.execution.capability.il_check import Checker
from repotrans.execution.capability.il_refs import PortRefs, port_refs
from repotrans.execution.capability.checks import MemberRef, PolicyVerdict


@lru_cache(maxsize=8)
def _baseline(path: str, mtime_ns: int, size: int) -> Baseline:
    return baseline_of(Checker(Path(path)))


@lru_cache(maxsize=8)
def _refs(path: str, mtime_ns: int, size: int) -> PortRefs:
    return port_refs(Checker(Path(path)))


def check_assembly(candidate: Path, baseline: Path | Baseline | None, member: MemberRef | None,
                   allowed: frozenset[str], refs: Path | PortRefs | None = None) -> PolicyVerdict:
    """One job, as checks.job_line describes it for cecil_checker.cs; an unreadable assembly is an error
    verdict (the candidate is rejected, never passed unchecked). `baseline`: the baseline assembly
    (its keys cached per file state, so a process pays for them once) or its keys already read;
    `refs`: the port's build whose framework references the candidate may use (default: the baseline)."""
    started = time.perf_counter()
    try:
        base = baseline
        if baseline is not None and not isinstance(baseline, Baseline):
            st = Path(baseline).stat()
            base = _baseline(str(baseline), st.st_mtime_ns, st.st_size)
        if refs is not None and not isinstance(refs, PortRefs):
            if base is not None and not isinstance(baseline, Baseline) and Path(refs) == Path(baseline):
                refs = base.refs
            else:
                st = Path(refs).stat()
                refs = _refs(str(refs), st.st_mtime_ns, st.st_size)
        verdict = Checker(Path(candidate)).check(member, allowed, base, refs)
    except Exception as exc:  # a malformed assembly: reject with the reason
        verdict = PolicyVerdict(error=f"{type(exc).__name__}: {exc}")
    verdict.seconds = time.perf_counter() - started
    return verdict
