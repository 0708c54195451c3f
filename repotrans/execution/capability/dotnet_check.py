"""The capability policy on the dotnet path: the candidate's built assemblies read by il_check (pure
Python: the .NET SDK brings no Mono.Cecil), against the same project's baseline build, in a process
of its own inside the local sandbox (il_check_process). Whatever cannot be checked (an assembly not
found, one that cannot be read, a checker that crashed or hung) is a rejection, never a pass."""
from __future__ import annotations

import time
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.capability.checks import PolicyVerdict
from repotrans.execution.capability.il_check_process import IlCheckProcess
from repotrans.execution.toolchains import PatchedFile
from repotrans.execution.toolchains.api import Project
from repotrans.execution.workspace.scratch import Workspace


# what the dotnet path leaves open, named by doctor and the README
DOTNET_RESIDUAL_RISKS = (
    "under dotnet, vstest.console writes the TRX with the test host's uid (nothing in the sandbox may switch "
    "uids): the test process can rewrite it, so only failure details can be forged, not the verdict",
    "under dotnet, il_check reads the candidate's assembly (parsing only, nothing loaded or run) in a process "
    "of its own under memory and time limits, in the local sandbox (bwrap) even when docker runs the build; "
    "where bwrap cannot run, as a plain child process with the repotrans user's file access",
    "under dotnet, type safety is checked from the candidate's metadata only (layout, method kinds, attributes): "
    "mono's IL verifier cannot read assemblies built against the SDK's reference assemblies",
)


def python_checker_status() -> tuple[bool, str]:
    """(usable, why): il_check's reader (dnfile) is installed."""
    from importlib.util import find_spec

    if find_spec("dnfile") is None:
        return False, "dnfile is not installed (pip install dnfile)"
    return True, "dnfile installed"


def built_assembly(project: Project, src_root: Path, root: Path) -> Path | None:
    """The project's assembly as `dotnet build` left it under `root` (a copy of `src_root`): the newest
    file of its name under $(OutDir)/$(OutputPath) or the project's bin/ (the SDK adds the framework
    and configuration folders)."""
    folders = [project.output_dir, project.dir / "bin"] if project.output_dir else [project.dir / "bin"]
    found = []
    for folder in folders:
        if folder is None or not folder.is_relative_to(src_root):
            continue
        moved = root / folder.relative_to(src_root)
        if moved.is_dir():
            found += [p for p in moved.rglob(project.dll_name) if p.is_file()]
    return max(found, key=lambda p: p.stat().st_mtime_ns) if found else None


def check_candidates(cands: list[PatchedFile], projects: list[Project], ws: Workspace, tree: Path,
                     checker: IlCheckProcess) -> list[PolicyVerdict]:
    """The policy over each candidate's code in every non-test project compiling its file (owners), as built
    under `tree` (a copy of ws.src holding the candidates' files), each against that project's baseline assembly
    (built in ws.src: whatever the candidates added, anywhere in the assembly, is inspected under each
    candidate's allowances), in `checker` (the workspace's: checker_for). One verdict per candidate and owner, in
    that order, the checker's time shared among them; an assembly the build did not leave is an error verdict."""
    started = time.perf_counter()
    verdicts: list[PolicyVerdict | None] = []
    jobs = []
    for cand in cands:
        for project in owners(projects, ws, cand.path):
            built, base = built_assembly(project, ws.src, tree), built_assembly(project, ws.src, ws.src)
            if built is None:
                verdicts.append(PolicyVerdict(error=f"dotnet build left no {project.dll_name} for {project.name}"))
                continue
            if base is not None:
                checker.save_keys(base)
            jobs.append(checks.job_line(str(built), str(base) if base else None, cand.member, cand.allowed))
            verdicts.append(None)
    answers = iter(checker.check(jobs) if jobs else [])
    out = [v if v is not None else next(answers) for v in verdicts]
    for v in out:
        v.seconds = (time.perf_counter() - started) / len(out)
    return out


def owners(projects: list[Project], ws: Workspace, path: str) -> list[Project]:
    """The non-test projects compiling the file `path` of `ws`'s tree: those whose assemblies a candidate in it is
    checked in."""
    src = (ws.src / path).resolve()
    return [p for p in projects if not p.is_test and src in p.sources]


def checker_for(ws: Workspace) -> IlCheckProcess:
    """A checker for the workspace's candidates (its caller keeps one per workspace, so that whether bwrap
    runs here is probed once, not per candidate)."""
    return IlCheckProcess(ws.root, ws.base / "il_keys")
