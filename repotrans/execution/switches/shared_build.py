"""The shared build of candidates behind switches: the switched files (execution.candidate_schemata),
one compile of each project holding one with the capability check chained to the last (each
candidate's job inspects its own member only; a second job per member checks its current body on
the baseline assembly, which must pass by itself), and, when the compile fails, the candidates the
compiler's errors point into. execution.judge.batching decides who shares it and judges each candidate."""
from __future__ import annotations

import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from repotrans.execution.capability import checks
from repotrans.execution.capability.checks import MemberRef
from repotrans.execution.judge.runner import Runner
from repotrans.execution.switches.candidate_schemata import SWITCH_CLASS, SWITCH_SOURCE, Switchable, combine
from repotrans.execution.toolchains.api import CHECKER_EXE, Check, compile_projects, parse_mcs, rel
from repotrans.execution.workspace.scratch import Workspace, baseline_stamp
from repotrans.index.model import Method


@dataclass
class Build:
    """One shared build: its outputs, what each compile printed, the checker's answers, and how many
    candidates still run tests on it (the last one removes it)."""
    folder: Path
    built: dict[str, Path]
    outputs: dict[str, str]
    answers: list[checks.PolicyVerdict]
    seconds: float
    size: int
    shared: dict[Path, tuple[str, dict[int, int]]]     # shared file -> (target file, line -> its line)
    compiles: int = 1                                  # compiler runs it took (one per project)
    users: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def release(self) -> None:
        with self.lock:
            self.users -= 1
            last = self.users <= 0
        if last:
            shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(eq=False)
class Pending:
    """One candidate waiting for (or holding) a shared build."""
    index: object
    form: Switchable
    code: str
    patch: object
    allow: frozenset[str]
    scope: str | None
    scaled: bool
    ws: Workspace
    started: float
    apply_seconds: float = 0.0                        # what planning its patch took (Runner.patch)
    done: threading.Event = field(default_factory=threading.Event)
    alone: str = ""                                  # why it is judged alone, once settled so
    build: Build | None = None
    switch: int = -1
    lines: dict[int, int] = field(default_factory=dict)   # its shared file's line -> its own patched file's
    jobs: list[int] = field(default_factory=list)     # its checker answers in build.answers
    current: list[tuple] = field(default_factory=list)      # its current body's check, per project (keys)
    projects: list = field(default_factory=list)      # the projects compiling its file
    java: Method | None = None                        # its Java original, when known (judge.blocked)

    @property
    def method(self) -> Method:
        return self.form.method



def compile_shared(runner: Runner, ws: Workspace, group: list[Pending],
                   known: dict[tuple, str]) -> Build | set[Pending]:
    """Compile the group behind switches with the capability check chained to the last compile:
    the build (each entry knows its switch, line map, projects and checker answers), or the
    entries the compiler's errors point into when it failed. `known`: what the check said of members'
    current bodies (per workspace state, member, project: "" when they pass), read and filled."""
    tc, box, limits = runner.toolchain, runner.sandbox(ws), runner.limits
    started = time.monotonic()
    projects = tc.plan(ws).chosen
    folder = ws.root / "candidates" / uuid.uuid4().hex[:12]
    by_file: dict[str, list[Pending]] = {}
    for switch, entry in enumerate(group):
        entry.switch = switch
        by_file.setdefault(entry.method.path, []).append(entry)
    swap: dict[Path, Path] = {}
    shared: dict[Path, tuple[str, dict[int, int]]] = {}      # shared file -> (target file, line map)
    where: dict[str, list[Pending]] = {}               # shared file (as mcs names it) -> its entries
    for path, entries in by_file.items():
        switched = combine((ws.src / path).read_bytes(), [(e.form, e.switch) for e in entries])
        file = folder / "patched" / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(switched.text)
        swap[(ws.src / path).resolve()] = file
        shared[file] = (path, switched.original_lines)
        for e in entries:
            e.lines = switched.lines[e.switch]
            where.setdefault(rel(file, ws), []).append(e)
    switch_file = folder / "switch" / f"{SWITCH_CLASS}.cs"
    switch_file.parent.mkdir(parents=True, exist_ok=True)
    switch_file.write_text(SWITCH_SOURCE)
    order = [p for p in projects if any(s in swap for s in p.sources)]
    jobs: list[str] = []
    stamp = baseline_stamp(ws)
    asked: dict[tuple, int] = {}              # current bodies checked by this build's checker -> job
    for entry in group:
        src = (ws.src / entry.method.path).resolve()
        entry.projects = [p for p in order if src in p.sources]
        member = MemberRef.of(entry.method)
        entry.jobs, entry.current = [], []
        for p in entry.projects:
            dll, base = rel(folder / "out" / p.name / p.dll_name, ws), rel(ws.base / p.name / p.dll_name, ws)
            entry.jobs.append(len(jobs))
            jobs.append(checks.job_line(dll, None, member, frozenset(), base))   # its member only, no diff
            key = (str(ws.root), stamp, entry.method.id, p.name)
            entry.current.append(key)
            if key not in known and key not in asked:
                asked[key] = len(jobs)
                jobs.append(checks.job_line(base, None, member, frozenset(), base))
    build = compile_projects(ws, box, limits, projects, order, folder / "out", swap=swap,
                             extra={p.path: [switch_file] for p in order}, check=Check(ws.base / CHECKER_EXE, jobs),
                             scan=tc.guard_scan)
    if not build.ok:
        shutil.rmtree(folder, ignore_errors=True)
        return _blamed(build.output, ws, where)
    answers = build.answers or []
    for key, job in asked.items():
        known[key] = "" if answers[job].ok else answers[job].reason()
    return Build(folder, build.built, build.outputs, answers, time.monotonic() - started, len(group), shared,
                 compiles=len(order))


def _blamed(output: str, ws: Workspace, where: dict[str, list[Pending]]) -> set[Pending]:
    """The entries whose candidate lines hold a compile error of `output`."""
    blamed: set[Pending] = set()
    for diag in parse_mcs(output, ws, None):
        if diag.severity != "error":
            continue
        for entry in where.get(diag.file, []):
            if diag.line in _block_lines(entry):
                blamed.add(entry)
    return blamed


def _block_lines(entry: Pending) -> set[int]:
    """The shared file's lines that hold the entry's candidate block."""
    own = set()
    for body in entry.form.bodies:
        first = entry.form.patched.count(b"\n", 0, body.at) + 1
        own.update(range(first, first + body.block.count(b"\n") + 1))
    return {line for line, mine in entry.lines.items() if mine in own}
