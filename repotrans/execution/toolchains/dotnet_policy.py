"""The capability policy on the dotnet path: the candidate's built assemblies read by il_check (pure
Python: the .NET SDK brings no Mono.Cecil, and no process of the candidate's toolchain is needed),
against the same project's baseline build. Whatever cannot be checked (an assembly not found, one
that cannot be read) is a rejection, never a pass."""
from __future__ import annotations

import time
from pathlib import Path

from repotrans.execution.il_check import check_assembly
from repotrans.execution.policy import Denial, PolicyVerdict
from repotrans.execution.toolchains import PatchedFile
from repotrans.execution.toolchains.msbuild import Project


# what the dotnet path leaves open, named by doctor and the README
DOTNET_RESIDUAL_RISKS = (
    "under dotnet, vstest.console writes the TRX with the test host's uid (nothing in the sandbox may switch "
    "uids): the test process can rewrite it, so only failure details can be forged, not the verdict",
    "under dotnet, il_check reads the candidate's assembly in the repotrans process (parsing only, nothing "
    "loaded or run), not in the sandbox",
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


def check_candidate(cand: PatchedFile, projects: list[Project], src_root: Path, tree: Path) -> PolicyVerdict:
    """The policy over every non-test project compiling the candidate's file, each against its baseline
    assembly (built in src_root); one merged verdict with the checker's own time."""
    started = time.perf_counter()
    merged = PolicyVerdict()
    owners = [p for p in projects if not p.is_test and (src_root / cand.path).resolve() in p.sources]
    if not owners:
        merged.error = f"no project compiles {cand.path}"
    for project in owners:
        built, base = built_assembly(project, src_root, tree), built_assembly(project, src_root, src_root)
        if built is None:
            merged.error = f"dotnet build left no {project.dll_name} for {project.name}"
            break
        verdict = check_assembly(built, base, cand.member, cand.allowed)
        merged.inspected += verdict.inspected
        merged.denials += [d for d in verdict.denials if d not in merged.denials]
        merged.error = merged.error or verdict.error
    merged.seconds = time.perf_counter() - started
    return merged


def denial_log(denials: list[Denial]) -> str:
    return "\n".join(f"{d.capability}: {d.api} in {d.where}" for d in denials)
