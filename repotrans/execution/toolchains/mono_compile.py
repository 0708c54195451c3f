"""The one mono build primitive: compile these projects in order, with these file swaps and extra
sources, the capability check chained to the last compile, and return one outcome.

Every path that compiles the target calls it: a candidate (mono.run), the baseline (mono's
quarantine rounds), the shared build of switched candidates (switches.shared_build), the mutant
schemata (switches.schemata) and the skeleton check (skeleton.check, on the host). Each project is
compiled into `out_root/<project>`, with the outputs of what it references staged beside it (the
ones rebuilt here first, else the baseline's)."""
from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from repotrans.execution.capability import checks
from repotrans.execution.sandboxes import RunOutcome, Sandbox
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.guards import GuardScan, guarded_sources
from repotrans.execution.toolchains.mono_build import compile_argv, rel, stage_copied, stage_dependencies
from repotrans.execution.toolchains.msbuild import Project
from repotrans.execution.workspace.scratch import Workspace


@dataclass(frozen=True)
class Check:
    """The capability checker chained to the last compile, in the same sandboxed command: its exe
    and one job line per assembly and member it inspects (checks.job_line)."""
    exe: Path
    jobs: list[str]


@dataclass
class BuildOutcome:
    """What one build did: the projects built (name -> output folder), what the compiler printed for
    each, the project that did not compile (the build stops there) and how, and the checker's
    answers (one per job) when it ran."""
    built: dict[str, Path] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    failed: Project | None = None
    timed_out: bool = False
    exit_code: int | None = 0
    answers: list[checks.PolicyVerdict] | None = None

    @property
    def ok(self) -> bool:
        return self.failed is None

    @property
    def output(self) -> str:
        """What the compiler printed for the failed project, else for the last one built."""
        if self.failed is not None:
            return self.outputs.get(self.failed.name, "")
        return next(reversed(self.outputs.values()), "")


def compile_projects(ws: Workspace, sandbox: Sandbox, limits: Limits, projects: list[Project],
                     order: list[Project], out_root: Path, *, swap: dict[Path, Path] | None = None,
                     extra: dict[Path, list[Path]] | None = None, check: Check | None = None,
                     copy_items: bool = False, scan: GuardScan | None = None) -> BuildOutcome:
    """Compile `order` (projects of the plan `projects`, in reference order), each source file read
    from `swap` when it names one, with `extra[project.path]` compiled too; `check` chained to the
    last compile; `copy_items`: also place what the build copies beside the assembly (the baseline).
    A library project's placeholders are compiled guarded (toolchains.guards: the runner records the call
    chain each time one is reached; `scan`: the toolchain's memo of the files it read in place). Stops at the
    first project that does not compile (or times out)."""
    result = BuildOutcome()
    for project in order:
        out = out_root / project.name
        stage_dependencies(project, projects, result.built, ws.base, out)
        if copy_items:
            stage_copied(project, projects, out)
        files, guard = dict(swap or {}), []
        if not project.is_test:
            guarded, guard = guarded_sources(ws.root, guard_folder(ws, out_root), project.sources, files,
                                             {p: rel(p, ws) for p in [*project.sources, *files.values()]}, scan)
            files.update(guarded)
        argv = compile_argv(ws, project, projects, out, files) + [rel(f, ws) for f in
                                                                  [*(extra or {}).get(project.path, []), *guard]]
        stdin = None
        if check is not None and project is order[-1]:
            argv, stdin = checks.chained_argv(rel(check.exe, ws), argv), checks.stdin_of(check.jobs)
        outcome = sandbox.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb,
                              writable=[out], stdin=stdin)
        if silent_failure(outcome):       # once more: a source error is always explained, silence is the machine's
            outcome = sandbox.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb,
                                  writable=[out], stdin=stdin)
        output, checker_output = checks.split_chained(outcome.output)
        result.outputs[project.name] = output
        if checker_output is None and (outcome.timed_out or outcome.exit_code != 0):
            result.failed, result.timed_out, result.exit_code = project, outcome.timed_out, outcome.exit_code
            return result
        result.built[project.name] = out
        if checker_output is not None:
            result.answers = checks.answers(checks.split_chained(outcome.stdout)[1] or "", len(check.jobs),
                                            "timed out" if outcome.timed_out else f"exit {outcome.exit_code}")
    return result


def guard_folder(ws: Workspace, out_root: Path) -> Path:
    """Where a build's guarded copies go: its candidate's run folder (removed with it), else the workspace's."""
    runs = (ws.root / "runs").resolve()
    found = next((p for p in Path(out_root).resolve().parents if p.parent == runs), None)
    return (found or ws.root) / "guarded"


def silent_failure(outcome: RunOutcome) -> bool:
    """Whether a compile command failed without a word: mcs explains every error in the source it
    reads, so an exit with nothing printed (the compiler or the sandbox did not start: a busy or
    changing machine) says nothing of the code. Seen once on the sample: a correct candidate judged
    `compile_error`, '0 error(s)', in 0.35 s, and passed on the next run."""
    return not outcome.timed_out and outcome.exit_code not in (0, None) and not outcome.output.strip()


class HostCompiler:
    """Runs the compiler on the host, without a sandbox: for the user's own port only (the skeleton
    check), never for a candidate. Shaped as a Sandbox for compile_projects."""
    name = "host"

    def run(self, argv: list[str], *, cwd: Path, timeout: float, memory_mb: int,
            writable: Sequence[Path] = (), stdin: bytes | None = None, **_: object) -> RunOutcome:
        started = time.monotonic()
        try:
            proc = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=timeout, input=stdin)
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode(errors="replace")
            return RunOutcome(argv, None, out, time.monotonic() - started, timed_out=True, stdout=out)
        out, err = proc.stdout.decode(errors="replace"), proc.stderr.decode(errors="replace")
        return RunOutcome(argv, proc.returncode, out + err, time.monotonic() - started, stdout=out)
