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
import threading
import time
from dataclasses import replace
from pathlib import Path

from repotrans.execution.capability.checks import ALLOWABLE, MemberRef, merged_verdict
from repotrans.execution.capability.allowances import allowances
from repotrans.execution.judge.protocol import Judge
from repotrans.verdicts.results import TestResult
from repotrans.verdicts.status import BLOCKED
from repotrans.execution.judge.runner import Chosen, Planned, Runner, candidate_text
from repotrans.execution.switches.candidate_schemata import SWITCH_VAR, why_alone
from repotrans.execution.switches.shared_build import Build, Pending, compile_shared
from repotrans.execution.toolchains import Limits, PatchedFile, Verdict
from repotrans.execution.toolchains.api import parse_shared_mcs, run_tests
from repotrans.execution.workspace.scratch import Workspace
from repotrans.index.model import Method

WINDOW = 1.5          # seconds the first pending candidate waits for others (a compile costs 6-26 s)


class BatchingJudge:
    """A Runner whose `run` shares builds between concurrent candidates (see the module's docstring);
    `expected`: how many workers submit at most (the window closes early once they all have)."""

    def __init__(self, runner: Runner, *, window: float = WINDOW, expected: int = 2):
        self.runner = runner
        self.window = window
        self.expected = max(1, expected)
        self.compiles = 0                     # shared builds compiled (counted for benchmarks)
        self._compile_seconds = 2 * window    # the last shared compile's time (none yet: the window)
        self._pending: list[Pending] = []
        self._current: dict[tuple, str] = {}   # the check on members' current bodies (shared_build)
        self._leading = False
        self._cond = threading.Condition()

    def __enter__(self) -> "BatchingJudge":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def language_version(self, target_root: Path) -> str:
        """The runner's: the C# version candidates must keep to."""
        return self.runner.language_version(target_root)

    def close(self) -> None:
        """Close the runner (its sandboxes); the judge may be used again afterwards."""
        self.runner.close()

    # -- entry points -------------------------------------------------------------------------
    def run(self, index, method: Method, code: str, *, java: Method | None, scope=None, keep_run: bool = False,
            allow: frozenset[str] | None = None, scaled: bool = False) -> TestResult:
        """Runner.run's verdict; shared with concurrent candidates when sound."""
        if allow is None:
            allow = allowances(index, java)
        entry, planned = self._plan(index, method, code, scope, keep_run, allow, scaled)
        if isinstance(entry, str):
            return self._alone(index, method, code, scope, keep_run, allow, scaled, entry, java, planned)
        entry.java = java
        self._join(entry)
        return self._finish(entry)

    def run_many(self, index, items: list[tuple[Method, str, frozenset[str], Method | None]], *, scope=None,
                 scaled: bool = False, base: Path | None = None) -> list[TestResult]:
        """Verdicts of several (member, code, allowances, Java original) at once: one shared build for those that may
        share it, their test runs one after another (the combined check); with `base`, the runner's (a unit
        whose tree holds every item already: Runner.run_many)."""
        if base is not None:
            return self.runner.run_many(index, items, scope=scope, scaled=scaled, base=base)
        plans = [self._plan(index, m, code, scope, False, allow, scaled) for m, code, allow, _ in items]
        for (_, _, _, java), (entry, _) in zip(items, plans):
            if not isinstance(entry, str):
                entry.java = java
        group = [entry for entry, _ in plans if not isinstance(entry, str)]
        self._settle(group)
        results = []
        for (m, code, allow, java), (entry, planned) in zip(items, plans):
            why = entry if isinstance(entry, str) else entry.alone
            results.append(self._alone(index, m, code, scope, False, allow, scaled, why, java, planned) if why
                           else self._finish(entry))
        return results

    # -- planning and grouping ----------------------------------------------------------------
    def _plan(self, index, method, code, scope, keep_run, allow, scaled) -> tuple[Pending | str, Planned | None]:
        """A pending entry, or why the candidate is judged alone; with the workspace and patch once planned
        (the per-candidate path then does not plan them again)."""
        runner = self.runner
        if runner.toolchain.name != "mono":
            return f"toolchain {runner.toolchain.name}: candidates are switched in mono builds only", None
        if (scope or runner.config.scope) != "covering":
            return "the whole test suite is run (--scope all)", None
        if keep_run:
            return "its run folder is kept", None
        if allow:
            return ("its Java original grants " + ", ".join(sorted(set(allow) & set(ALLOWABLE)))
                    + ": reduced trust could reach another candidate's switch"), None
        started = time.monotonic()
        ws, patch = runner.patch(index, method, code)
        planned = (ws, patch, time.monotonic() - started)
        form = why_alone((ws.src / method.path).read_bytes(), method, patch)
        if isinstance(form, str):
            return form, planned
        return Pending(index, form, code, patch, frozenset(allow), scope, scaled, ws, started,
                       apply_seconds=planned[2]), planned

    def _join(self, entry: Pending) -> None:
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

    def _settle(self, group: list[Pending]) -> None:
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
                elif entry.ws.root != group[0].ws.root:
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

    def _bisect(self, ws: Workspace, group: list[Pending]) -> None:
        """Compile `group` together; on failure take out the candidates the errors point into (judged
        alone), else halves, until what is left compiles or is one candidate (judged alone)."""
        if len(group) == 1:
            group[0].alone = "the shared build failed: compiled alone"
            return
        found = compile_shared(self.runner, ws, group, self._current)
        with self._cond:
            self.compiles += found.compiles if isinstance(found, Build) else 1
        if isinstance(found, Build):
            self._compile_seconds = found.seconds
            _adopt(found, group, self._current)
            return
        failed = found
        blamed = [e for e in group if e in failed]
        if blamed and len(blamed) < len(group):
            for entry in blamed:
                entry.alone = "the shared build failed in its lines: compiled alone"
            self._bisect(ws, [e for e in group if e not in failed])
            return
        half = len(group) // 2
        self._bisect(ws, group[:half])
        self._bisect(ws, group[half:])

    # -- one candidate's verdict ----------------------------------------------------------------
    def _finish(self, entry: Pending) -> TestResult:
        if entry.alone or entry.build is None:
            return self._alone(entry.index, entry.method, entry.code, entry.scope, False, entry.allow,
                               entry.scaled, entry.alone or "no shared build", entry.java,
                               (entry.ws, entry.patch, entry.apply_seconds))
        try:
            return self._judge(entry)
        finally:
            entry.build.release()

    def _judge(self, entry: Pending) -> TestResult:
        """The per-candidate path's verdict on the shared build: its own warnings and check, then its
        covering tests in a fresh test process with only its switch on."""
        runner, build, ws, method = self.runner, entry.build, entry.ws, entry.method
        timings = {"apply": 0.0, "baseline": 0.0}
        chosen: Chosen = runner.select(entry.index, method, ws, entry.scope, entry.scaled)
        own_file = _own_file(build, method.path)
        judge = f"batched: {build.size} candidates in one compile"
        for limits in (chosen.limits, replace(chosen.limits, fail_fast=False)):
            verdict = self._test(entry, chosen, limits, own_file, dict(timings))
            result = runner.result(entry.index, method, verdict, chosen, frozenset(), entry.started, {}, judge=judge,
                                   java=entry.java, code=candidate_text(entry.patch))
            if not (result.status == BLOCKED and verdict.cut_short):   # blocked rests on every failure: run them all
                return result
        return result

    def _test(self, entry: Pending, chosen: Chosen, limits: Limits, own_file: Path, timings: dict) -> Verdict:
        """One candidate's check and covering tests on the shared build, under `limits`."""
        runner, build, ws, method = self.runner, entry.build, entry.ws, entry.method
        box = runner.sandbox(ws)
        with ws.run_dir() as run_dir:
            cand = PatchedFile(path=method.path, text=entry.patch.new_text, line_map=entry.patch.line_map,
                               surface_changed=False, run_dir=run_dir, member=MemberRef.of(method),
                               compiled={**build.shared, own_file: (method.path, entry.lines)})
            patched = run_dir / "patched" / method.path
            patched.parent.mkdir(parents=True, exist_ok=True)
            patched.write_text(cand.text, encoding="utf-8")
            warnings = []
            for p in entry.projects:
                warnings += parse_shared_mcs(build.outputs[p.name], ws, cand, own_file, entry.lines)
            checked = merged_verdict([build.answers[i] for i in entry.jobs])
            timings["policy"] = checked.seconds
            timings["build"] = build.seconds
            if not checked.ok:
                return Verdict("rejected", diagnostics=warnings, reason=checked.reason(), timings=timings,
                               log=checked.log())
            verdict = run_tests(ws, cand, runner.toolchain.plan(ws).chosen, entry.projects, build.built,
                                chosen.selected, box, limits, env={SWITCH_VAR: str(entry.switch)})
            verdict.timings = {**timings, **verdict.timings}
            verdict.diagnostics = warnings + verdict.diagnostics
            _own_paths(verdict, ws, cand)
            return verdict

    def _alone(self, index, method, code, scope, keep_run, allow, scaled, why: str,
               java: Method | None = None, planned: Planned | None = None) -> TestResult:
        if planned is None:
            result = self.runner.run(index, method, code, scope=scope, keep_run=keep_run, allow=allow, scaled=scaled,
                                     java=java)
        else:
            result = self.runner.run_planned(index, method, planned, scope=scope, keep_run=keep_run, allow=allow,
                                             scaled=scaled, java=java)
        return replace(result, judge=f"alone: {why}")


def _adopt(build: Build, group: list[Pending], known: dict[tuple, str]) -> None:
    """Each entry holds the build, unless its current body fails the check by itself or the check did
    not answer for it (then it is judged alone); a build nobody holds is removed."""
    for entry in group:
        failing = [known[key] for key in entry.current if known.get(key)]
        if failing:
            entry.alone = f"its member's current body does not pass the capability check by itself: {failing[0]}"
        elif any(build.answers[i].error for i in entry.jobs):
            entry.alone = "the shared capability check did not answer for it"
        else:
            entry.build = build
            build.users += 1
    if build.users == 0:
        build.release()


def judge_for(runner: Runner, workers: int) -> Judge:
    """`runner` itself, or (execution.batch_candidates) a BatchingJudge over it for `workers` submitters."""
    return BatchingJudge(runner, expected=workers) if runner.config.batch_candidates else runner


def _own_file(build: Build, path: str) -> Path:
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
