"""A judge that compiles several pending candidates once, each behind its own switch.

On a large port one library compile costs 6-26 s and a covering-test run a few seconds, so judging
N candidates with one compile is most of a batch's judging time. `BatchingJudge` wraps a Runner with
the same `run`: calls made by concurrent workers within `window` seconds (or given together to
`run_many`) are planned into one build (execution.candidate_schemata), compiled once with the
capability check chained as the per-candidate path chains it, and then each candidate is judged in
its caller's thread exactly as alone:

- the capability check of a candidate inspects its own member (its current body too, which must
  itself pass the check with no allowance: then what the check finds is the candidate's) and the
  compiler-generated code it reaches, never another candidate's;
- its covering tests (the runner's own selection and limits) run in a fresh sandboxed test process
  of their own with only its switch on; verdicts are classified by the same code;
- when the shared compile fails, candidates whose lines hold errors, and then halves, are taken
  out until every candidate that fails is compiled alone: its verdict is the per-candidate path's.

A candidate is judged alone (the per-candidate path, `judge: "alone: <why>"`) when switching it is
not sound or buys nothing: not mono, not the covering scope, a kept run, a Java original granting
capabilities (reduced trust could reach another switch), a candidate candidate_schemata refuses, a
member already pending, a current body the check rejects, or no other candidate to share with.
"""
from __future__ import annotations

import re
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path

from repotrans.execution import policy
from repotrans.execution.candidate_schemata import SWITCH_CLASS, SWITCH_SOURCE, SWITCH_VAR, Switchable, \
    combine, why_alone
from repotrans.execution.policy import MemberRef
from repotrans.execution.results import TestResult
from repotrans.execution.runner import Chosen, Runner
from repotrans.execution.toolchains import PatchedFile, Verdict
from repotrans.execution.toolchains.mono import merged_policy
from repotrans.execution.toolchains.mono_build import POLICY_EXE, compile_argv, parse_mcs, rel, stage_dependencies
from repotrans.execution.toolchains.mono_test import run_tests
from repotrans.execution.workspace import Workspace
from repotrans.index.model import Method

WINDOW = 1.5          # seconds the first pending candidate waits for others (a compile costs 6-26 s)


@dataclass
class _Build:
    """One shared build: its outputs, what each compile printed, the checker's answers, and how many
    candidates still run tests on it (the last one removes it)."""
    folder: Path
    built: dict[str, Path]
    outputs: dict[str, str]
    answers: list[policy.PolicyVerdict]
    seconds: float
    size: int
    shared: dict[Path, tuple[str, dict[int, int]]]     # shared file -> (target file, line -> its line)
    users: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def release(self) -> None:
        with self.lock:
            self.users -= 1
            last = self.users <= 0
        if last:
            shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(eq=False)
class _Pending:
    index: object
    form: Switchable
    code: str
    patch: object
    allow: frozenset[str]
    scope: str | None
    scaled: bool
    ws: Workspace
    started: float
    done: threading.Event = field(default_factory=threading.Event)
    alone: str = ""                                  # why it is judged alone, once settled so
    build: _Build | None = None
    switch: int = -1
    lines: dict[int, int] = field(default_factory=dict)   # its shared file's line -> its own patched file's
    jobs: list[int] = field(default_factory=list)     # its checker answers in build.answers
    current_jobs: list[int] = field(default_factory=list)
    projects: list = field(default_factory=list)      # the projects compiling its file

    @property
    def method(self) -> Method:
        return self.form.method


class BatchingJudge:
    """A Runner whose `run` shares builds between concurrent candidates (see the module's docstring);
    `expected`: how many workers submit at most (the window closes early once they all have)."""

    def __init__(self, runner: Runner, *, window: float = WINDOW, expected: int = 2):
        self.runner = runner
        self.window = window
        self.expected = max(1, expected)
        self.compiles = 0                     # shared builds compiled (counted for benchmarks)
        self._compile_seconds = 2 * window    # the last shared compile's time (none yet: the window)
        self._pending: list[_Pending] = []
        self._leading = False
        self._cond = threading.Condition()

    def __getattr__(self, name: str):
        return getattr(self.runner, name)     # language_version, baseline, close, ...

    def __enter__(self) -> "BatchingJudge":
        return self

    def __exit__(self, *exc) -> None:
        self.runner.close()

    # -- entry points -------------------------------------------------------------------------
    def run(self, index, method: Method, code: str, *, scope=None, keep_run: bool = False,
            allow: frozenset[str] = frozenset(), scaled: bool = False) -> TestResult:
        """Runner.run's verdict; shared with concurrent candidates when sound."""
        entry = self._plan(index, method, code, scope, keep_run, allow, scaled)
        if isinstance(entry, str):
            return self._alone(index, method, code, scope, keep_run, allow, scaled, entry)
        self._join(entry)
        return self._finish(entry)

    def run_many(self, index, items: list[tuple[Method, str, frozenset[str]]], *, scope=None,
                 scaled: bool = False) -> list[TestResult]:
        """Verdicts of several (member, code, allowances) at once: one shared build for those that may
        share it, their test runs one after another (batch's re-judging, the combined check)."""
        planned = [self._plan(index, m, code, scope, False, allow, scaled) for m, code, allow in items]
        group = [p for p in planned if not isinstance(p, str)]
        self._settle(group)
        results = []
        for (m, code, allow), entry in zip(items, planned):
            why = entry if isinstance(entry, str) else entry.alone
            results.append(self._alone(index, m, code, scope, False, allow, scaled, why) if why
                           else self._finish(entry))
        return results

    # -- planning and grouping ----------------------------------------------------------------
    def _plan(self, index, method, code, scope, keep_run, allow, scaled) -> _Pending | str:
        runner = self.runner
        if runner.toolchain.name != "mono":
            return f"toolchain {runner.toolchain.name}: candidates are switched in mono builds only"
        if (scope or runner.config.scope) != "covering":
            return "the whole test suite is run (--scope all)"
        if keep_run:
            return "its run folder is kept"
        if allow:
            return ("its Java original grants " + ", ".join(sorted(allow))
                    + ": reduced trust could reach another candidate's switch")
        started = time.monotonic()
        ws, patch = runner.patch(index, method, code)
        form = why_alone((ws.src / method.path).read_bytes(), method, patch)
        if isinstance(form, str):
            return form
        return _Pending(index, form, code, patch, frozenset(allow), scope, scaled, ws, started)

    def _join(self, entry: _Pending) -> None:
        """Wait until `entry` is settled: the first of a group waits for others (up to `window`, and
        at most half of what a compile took so far: waiting must cost less than the compile it may
        save), then compiles the group; the others wait for it."""
        with self._cond:
            self._pending.append(entry)
            self._cond.notify_all()
            leader = not self._leading
            self._leading = True
            if leader:
                try:
                    deadline = time.monotonic() + min(self.window, self._compile_seconds / 2)
                    while len(self._pending) < self.expected and time.monotonic() < deadline:
                        self._cond.wait(max(0.0, deadline - time.monotonic()))
                finally:                  # even when interrupted: nobody is left waiting for a leader
                    group, self._pending, self._leading = self._pending, [], False
        if leader:
            self._settle(group)
        entry.done.wait()

    def _settle(self, group: list[_Pending]) -> None:
        """Give every entry of `group` a shared build or a reason to be judged alone."""
        try:
            seen: set[tuple[str, str, int]] = set()
            shared = []
            for entry in group:
                # the check finds a member by name, arity and parameter types (by name and arity when the
                # types do not match): two candidates of one name and arity could read each other's code
                m = entry.method
                key = (m.type_id, "this[]" if m.kind == "indexer" else m.name,
                       len(m.params) if m.kind in ("method", "constructor") else -1)
                if key in seen:
                    entry.alone = "a candidate for its member, or an overload of its arity, is pending"
                elif len({e.ws.root for e in group}) > 1 and entry.ws.root != group[0].ws.root:
                    entry.alone = "another workspace is being judged"
                else:
                    seen.add(key)
                    shared.append(entry)
            if len(shared) == 1:
                shared[0].alone = "no other candidate was pending"
            elif shared:
                ws = shared[0].ws
                self.runner.toolchain.baseline(ws, self.runner.sandbox(ws), self.runner.limits)
                self._bisect(ws, shared)
        except Exception as exc:          # the per-candidate path will meet (and report) the same problem
            for entry in group:
                if entry.build is None and not entry.alone:
                    entry.alone = f"the shared build failed ({type(exc).__name__}: {exc})"
        finally:
            for entry in group:
                entry.done.set()

    def _bisect(self, ws: Workspace, group: list[_Pending]) -> None:
        """Compile `group` together; on failure take out the candidates the errors point into (judged
        alone), else halves, until what is left compiles or is one candidate (judged alone)."""
        if len(group) == 1:
            group[0].alone = "the shared build failed: compiled alone"
            return
        failed = self._build(ws, group)
        if failed is None:
            return
        blamed = [e for e in group if e in failed]
        if blamed and len(blamed) < len(group):
            for entry in blamed:
                entry.alone = "the shared build failed in its lines: compiled alone"
            self._bisect(ws, [e for e in group if e not in failed])
            return
        half = len(group) // 2
        self._bisect(ws, group[:half])
        self._bisect(ws, group[half:])

    # -- the shared build -----------------------------------------------------------------------
    def _build(self, ws: Workspace, group: list[_Pending]) -> set[_Pending] | None:
        """Compile the group behind switches with the capability check chained to the last compile.
        None when it compiled (every entry then holds the build); else the entries errors point into."""
        runner = self.runner
        tc, box, limits = runner.toolchain, runner.sandbox(ws), runner.limits
        started = time.monotonic()
        projects = tc.plan(ws).chosen
        folder = ws.root / "candidates" / uuid.uuid4().hex[:12]
        by_file: dict[str, list[_Pending]] = {}
        for switch, entry in enumerate(group):
            entry.switch = switch
            by_file.setdefault(entry.method.path, []).append(entry)
        swap: dict[Path, Path] = {}
        shared: dict[Path, tuple[str, dict[int, int]]] = {}      # shared file -> (target file, line map)
        where: dict[str, list[_Pending]] = {}               # shared file (as mcs names it) -> its entries
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
        for entry in group:
            src = (ws.src / entry.method.path).resolve()
            entry.projects = [p for p in order if src in p.sources]
            member = MemberRef.of(entry.method)
            entry.jobs, entry.current_jobs = [], []
            for p in entry.projects:
                dll = rel(folder / "out" / p.name / p.dll_name, ws)
                entry.jobs.append(len(jobs))
                jobs.append(policy.job_line(dll, dll, member, frozenset()))   # only its member's own code
                entry.current_jobs.append(len(jobs))
                jobs.append(policy.job_line(rel(ws.base / p.name / p.dll_name, ws), None, member, frozenset()))
        built: dict[str, Path] = {}
        outputs: dict[str, str] = {}
        answers: list[policy.PolicyVerdict] = []
        for project in order:
            out = folder / "out" / project.name
            stage_dependencies(project, projects, built, ws.base, out)
            argv, stdin = compile_argv(ws, project, projects, out, swap) + [rel(switch_file, ws)], None
            if project is order[-1]:
                argv, stdin = policy.chained_argv(rel(ws.base / POLICY_EXE, ws), argv), policy.stdin_of(jobs)
            outcome = box.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb,
                              writable=[out], stdin=stdin)
            with self._cond:
                self.compiles += 1
            output, checker_output = policy.split_chained(outcome.output)
            if checker_output is None and (outcome.timed_out or outcome.exit_code != 0):
                shutil.rmtree(folder, ignore_errors=True)
                return _blamed(output, ws, where)
            built[project.name] = out
            outputs[project.name] = output
            if checker_output is not None:
                answers = policy.answers(policy.split_chained(outcome.stdout)[1] or "", len(jobs),
                                         "timed out" if outcome.timed_out else f"exit {outcome.exit_code}")
        build = _Build(folder, built, outputs, answers, time.monotonic() - started, len(group), shared)
        self._compile_seconds = build.seconds
        for entry in group:
            current = [answers[i] for i in entry.current_jobs]
            if any(not v.ok for v in current):
                entry.alone = ("its member's current body does not pass the capability check by itself: "
                               + next(v.reason() for v in current if not v.ok))
            elif any(answers[i].error for i in entry.jobs):
                entry.alone = "the shared capability check did not answer for it"
            else:
                entry.build = build
                build.users += 1
        if build.users == 0:
            build.release()
        return None

    # -- one candidate's verdict ----------------------------------------------------------------
    def _finish(self, entry: _Pending) -> TestResult:
        if entry.alone or entry.build is None:
            return self._alone(entry.index, entry.method, entry.code, entry.scope, False, entry.allow,
                               entry.scaled, entry.alone or "no shared build")
        try:
            return self._judge(entry)
        finally:
            entry.build.release()

    def _judge(self, entry: _Pending) -> TestResult:
        """The per-candidate path's verdict on the shared build: its own warnings and check, then its
        covering tests in a fresh test process with only its switch on."""
        runner, build, ws, method = self.runner, entry.build, entry.ws, entry.method
        box = runner.sandbox(ws)
        timings = {"apply": 0.0, "baseline": 0.0}
        chosen: Chosen = runner.select(entry.index, method, ws, entry.scope, entry.scaled)
        with ws.run_dir() as run_dir:
            cand = PatchedFile(path=method.path, text=entry.patch.new_text, line_map=entry.patch.line_map,
                               surface_changed=False, run_dir=run_dir, member=MemberRef.of(method),
                               compiled={**build.shared, _own_file(build, method.path): (method.path, entry.lines)})
            patched = run_dir / "patched" / method.path
            patched.parent.mkdir(parents=True, exist_ok=True)
            patched.write_text(cand.text, encoding="utf-8")
            warnings = []
            for p in entry.projects:
                warnings += parse_mcs(_as_own(build.outputs[p.name], ws, cand), ws, cand)
            checked = merged_policy([build.answers[i] for i in entry.jobs])
            timings["policy"] = checked.seconds
            timings["build"] = build.seconds
            if not checked.ok:
                verdict = Verdict("rejected", diagnostics=warnings, reason=checked.reason(), timings=timings,
                                  log="\n".join(f"{d.capability}: {d.api} in {d.where}" for d in checked.denials))
            else:
                verdict = run_tests(ws, cand, runner.toolchain.plan(ws).chosen, entry.projects, build.built,
                                    chosen.selected, box, chosen.limits, env={SWITCH_VAR: str(entry.switch)})
                verdict.timings = {**timings, **verdict.timings}
                verdict.diagnostics = warnings + verdict.diagnostics
                _own_paths(verdict, ws, cand)
        judge = f"batched: {build.size} candidates in one compile"
        return runner.result(entry.index, method, verdict, chosen, frozenset(), entry.started, {}, judge=judge)

    def _alone(self, index, method, code, scope, keep_run, allow, scaled, why: str) -> TestResult:
        result = self.runner.run(index, method, code, scope=scope, keep_run=keep_run, allow=allow, scaled=scaled)
        return replace(result, judge=f"alone: {why}")


def judge_for(runner: Runner, workers: int) -> Runner | BatchingJudge:
    """`runner` itself, or (execution.batch_candidates) a BatchingJudge over it for `workers` submitters."""
    return BatchingJudge(runner, expected=workers) if runner.config.batch_candidates else runner


def _own_file(build: _Build, path: str) -> Path:
    return next(file for file, (target, _) in build.shared.items() if target == path)


def _own_paths(verdict: Verdict, ws: Workspace, cand: PatchedFile) -> None:
    """Paths with lines in failure and exception messages (NUnit quotes stack traces) named as the
    per-candidate path names them: its own patched file, the target's copies of the other files."""
    def own(match: re.Match) -> str:
        target, lines = cand.compiled[shared[match.group(1)]]
        base = cand.run_dir / "patched" / target if target == cand.path else ws.src / target
        return f"{base.resolve()}:{lines.get(int(match.group(2)), 0)}"

    shared = {str(file.resolve()): file for file in cand.compiled}
    pattern = re.compile("(" + "|".join(re.escape(path) for path in shared) + r"):(\d+)")
    for item in [*verdict.failures, *verdict.exceptions]:
        item.message = pattern.sub(own, item.message)
    verdict.log = pattern.sub(own, verdict.log)


def _as_own(output: str, ws: Workspace, cand: PatchedFile) -> str:
    """The compiler's output with the shared file's lines named as in the candidate's own patched file
    (lines of other candidates and of the switches left out), as the per-candidate path reads them."""
    file = next(f for f, (target, _) in cand.compiled.items() if target == cand.path)
    lines_of = cand.compiled[file][1]
    shared, own = rel(file, ws), rel(cand.run_dir / "patched" / cand.path, ws)
    lines = []
    for text in output.splitlines():
        stripped = text.strip()
        if stripped.startswith(shared + "("):
            rest = stripped[len(shared) + 1:]
            number, _, after = rest.partition(",")
            mapped = lines_of.get(int(number)) if number.isdigit() else None
            if mapped is None:
                continue
            text = f"{own}({mapped},{after}"
        lines.append(text)
    return "\n".join(lines)


def _blamed(output: str, ws: Workspace, where: dict[str, list[_Pending]]) -> set[_Pending]:
    """The entries whose candidate lines hold a compile error of `output`."""
    blamed: set[_Pending] = set()
    for diag in parse_mcs(output, ws, None):
        if diag.severity != "error":
            continue
        for entry in where.get(diag.file, []):
            if diag.line in _block_lines(entry):
                blamed.add(entry)
    return blamed


def _block_lines(entry: _Pending) -> set[int]:
    """The shared file's lines that hold the entry's candidate block."""
    own = set()
    for _, _, block, at in entry.form.bodies:
        first = entry.form.patched.count(b"\n", 0, at) + 1
        own.update(range(first, first + block.count(b"\n") + 1))
    return {line for line, mine in entry.lines.items() if mine in own}
