"""Mono toolchain: each SDK-style project compiled by `mcs`, the candidate's IL checked against the
capability policy, NUnit tests run by repotrans's own runner.

The baseline build (every project, in reference order) is cached per target state. A candidate
rebuilds only the project(s) compiling the patched file; dependents (the test assembly) are reused
unless the candidate changes the public surface, since they reference the library dll by name.
Jobs: mono_build (compile commands, diagnostics, staging), mono_test (test step), mono_judge (verdicts).
"""
from __future__ import annotations

import hashlib
from dataclasses import replace
import json
import shutil
import threading
import time
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.capability import checks
from repotrans.verdicts.results import Diagnostic
from repotrans.execution.sandboxes import Sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError, Verdict
from repotrans.execution.toolchains.compiler_output import lowest_language_version
from repotrans.execution.toolchains import guards
from repotrans.execution.toolchains.guards import GuardScan
from repotrans.execution.toolchains.chains import rerun_after_initializers
from repotrans.execution.toolchains.mono_build import (RUNNER_PARTS, MCS_DEFAULT_LANG, CHECKER_EXE, apply_quarantine,
                                                       build_tools, dependents, parse_mcs, rel, without)
from repotrans.execution.toolchains.mono_compile import BuildOutcome, Check, compile_projects
from repotrans.execution.toolchains.mono_test import run_tests
from repotrans.execution.toolchains.msbuild import Project
from repotrans.execution.toolchains.nunit import RUNNER_SOURCE
from repotrans.execution.toolchains.lang_gap import language_gap
from repotrans.execution.toolchains.packages import blamed_packages
from repotrans.execution.toolchains.projects import BuildPlan, BuildSettings, in_workspace, plan_build
from repotrans.execution.toolchain_registry import toolchain_spec
from repotrans.execution.workspace.scratch import MARKER, Workspace, baseline_stamp, seal_base, sealed

MAX_QUARANTINE_ROUNDS = 12          # compile, drop the test files with errors, again (each round finds more)


class MonoToolchain:
    name = "mono"
    image = toolchain_spec("mono").image       # default docker image (the registry's)

    def __init__(self, settings: BuildSettings = BuildSettings()):
        self.settings = settings
        self._plans: dict[tuple[str, float], BuildPlan] = {}
        self._evaluated: dict[str, BuildPlan] = {}   # workspace root -> its projects as evaluated (no quarantine)
        self._evaluating = threading.Lock()
        self.guard_scan = GuardScan()               # the placeholder scan of the files its builds read in place
        self.verified_failures: set[str] = set()   # workspaces whose baseline failed in a fresh sandbox here

    def language_version(self, root: Path) -> str:
        try:
            chosen = plan_build(root, self.name, self.settings).chosen
        except ConfigError:                     # nothing buildable: the compiler's default
            return MCS_DEFAULT_LANG
        return lowest_language_version((p.lang_version for p in chosen if not p.is_test), MCS_DEFAULT_LANG)

    def test_projects(self, ws: Workspace) -> dict[str, list[Path]]:
        """Each test project's own compiled files (quarantined ones left out), for test selection."""
        return {p.name: p.own_sources for p in self.plan(ws).tests}

    def plan(self, ws: Workspace) -> BuildPlan:
        """The build plan of the workspace: projects.plan_build, less the test files and projects
        the baseline build quarantined (recorded in base/.ok)."""
        stamp = baseline_stamp(ws)
        key = (str(ws.root), stamp)
        if key not in self._plans:
            evaluated = self._evaluate(ws)
            plan = replace(evaluated, chosen=list(evaluated.chosen), quarantined=list(evaluated.quarantined))
            if stamp:
                apply_quarantine(plan, json.loads((ws.base / MARKER).read_text()), ws)
            self._plans[key] = plan
        return self._plans[key]

    def _evaluate(self, ws: Workspace) -> BuildPlan:
        """projects.plan_build of the workspace's copy, once: a workspace holds one state of the target, so
        its projects evaluate the same for the baseline build, the plans after it and the reasons a file is
        not built (a thread asking while another evaluates waits for that answer). Never mutated."""
        with self._evaluating:
            found = self._evaluated.get(str(ws.root))
            if found is None:
                found = self._evaluated[str(ws.root)] = plan_build(ws.src, self.name,
                                                                   in_workspace(self.settings, ws.root))
            return found

    # -- baseline -------------------------------------------------------------------------------
    def baseline(self, ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
        """Build every chosen project once, in a fresh sandbox (no earlier candidate ran in it); test
        files that do not compile here are quarantined (one reason each), a project that does not
        compile takes its dependents with it. A failure this toolchain did not see itself (cached by
        another process or runner) is built again once before it is believed."""
        marker, failed = ws.base / ".ok", ws.base / ".failed.json"
        # a new repotrans runner rebuilds the base, as new build settings do
        settings = (self.settings.key() + " runner " + _digest(RUNNER_SOURCE) + "".join(_digest(p) for p in RUNNER_PARTS)
                    + " guards " + _digest(Path(guards.__file__))
                    + " policy " + "".join(_digest(p) for p in checks.SOURCES) + _digest(checks.RULES))
        if sealed(ws) and json.loads(marker.read_text()).get("settings") == settings:
            return
        with ws.lock():
            if sealed(ws) and json.loads(marker.read_text()).get("settings") == settings:
                return
            if failed.exists() and json.loads(failed.read_text()).get("settings") == settings \
                    and str(ws.root) in self.verified_failures:
                data = json.loads(failed.read_text())
                raise TargetBuildError(data["message"], [Diagnostic(**d) for d in data["diagnostics"]],
                                       data["log_tail"])
            shutil.rmtree(ws.base, ignore_errors=True)
            box = sandbox.fresh()
            try:
                self._build_base(ws, box, limits, settings, failed)
            finally:
                if box is not sandbox:
                    box.close()

    def _build_base(self, ws: Workspace, sandbox: Sandbox, limits: Limits, settings: str, failed: Path) -> None:
        """The baseline build proper (baseline() holds the lock and chose the sandbox)."""
        plan = self._evaluate(ws)
        record: dict = {"settings": settings, "dropped_files": {}, "quarantined": [], "timings": {}}
        broken: dict[Path, str] = {}
        first_failure = None
        for project in plan.chosen:
            dead = next((broken[r] for r in project.project_refs if r in broken), None)
            if dead:
                broken[project.path] = dead
                record["quarantined"].append([project.name, dead])
                continue
            started = time.monotonic()
            outcome, dropped = self._build_baseline(ws, project, plan.chosen, sandbox, limits)
            record["timings"][project.name] = round(time.monotonic() - started, 3)
            if dropped:
                record["dropped_files"][project.name] = dropped
            if not outcome.ok:
                diags = parse_mcs(outcome.output, ws, None)
                first = next((d for d in diags if d.severity == "error"), None)
                what = (f"{first.file}:{first.line}: {first.code} {first.message}" if first
                        else "timed out" if outcome.timed_out else first_errors(outcome.output, outcome.exit_code))
                blamed = blamed_packages([d.message for d in diags if d.severity == "error"], project.unresolved)
                if blamed:
                    what += f" (built without package {', '.join(blamed)}, found nowhere: the errors name it)"
                what += _gap_note(ws, diags)
                broken[project.path] = f"{project.name} does not compile: {what}"
                record["quarantined"].append([project.name, f"does not compile: {what}"])
                first_failure = first_failure or (project, what, diags, outcome.output[-4000:])
        if not any(p.is_test and p.path not in broken for p in plan.chosen) and first_failure:
            project, what, diags, log_tail = first_failure
            message = f"the target does not build before patching: project {project.name}: {what}"
            failed.parent.mkdir(parents=True, exist_ok=True)
            self.verified_failures.add(str(ws.root))
            failed.write_text(json.dumps({"message": message, "log_tail": log_tail, "settings": settings,
                                          "diagnostics": [d.__dict__ for d in diags]}))
            raise TargetBuildError(message, diags, log_tail)
        record["projects"] = [p.name for p in plan.chosen if p.path not in broken]
        build_tools(ws, sandbox, limits)
        seal_base(ws, record)

    def _build_baseline(self, ws: Workspace, project: Project, projects: list[Project], sandbox: Sandbox,
                        limits: Limits) -> tuple[BuildOutcome, list[list[str]]]:
        """Compile one project of the baseline; for a test project, drop the files of its own that
        do not compile here and try again. Returns the last outcome and [file, reason] per drop."""
        dropped: list[list[str]] = []
        current = project
        for _ in range(MAX_QUARANTINE_ROUNDS):
            outcome = compile_projects(ws, sandbox, limits, projects, [current], ws.base, copy_items=True,
                                       scan=self.guard_scan)
            if outcome.timed_out or outcome.ok or not project.is_test:
                return outcome, dropped
            bad = {}
            for d in parse_mcs(outcome.output, ws, None):
                path = (ws.src / d.file).resolve() if d.file else None
                if d.severity == "error" and path in current.sources and path in project.own_sources:
                    bad.setdefault(path, f"{d.code} {d.message}" + _gap_note(ws, [d]))
            if not bad:
                return outcome, dropped
            dropped += [[p.relative_to(ws.src.resolve()).as_posix(), why] for p, why in sorted(bad.items())]
            current = without(current, set(bad))
        return outcome, dropped

    def _unbuilt(self, ws: Workspace, path: Path) -> str:
        """Why the project compiling this file is not built here (dropped at build, quarantined)."""
        plan = self._evaluate(ws)                  # the plan as evaluated, before any quarantine
        owners = [p.name for p in plan.found if path in p.sources]
        marker = ws.base / ".ok"
        record = json.loads(marker.read_text()).get("quarantined", []) if marker.exists() else []
        reasons = {q.what: q.reason for q in plan.quarantined} | {name: why for name, why in record}
        for owner in owners:
            if owner in reasons:
                return f": its project {owner} is not built here: {reasons[owner]}"
        return f" (compiled by {', '.join(owners)}, not built here)" if owners else ""

    # -- one candidate --------------------------------------------------------------------------
    def run(self, ws: Workspace, cand: PatchedFile, fixtures: list[str] | None, sandbox: Sandbox,
            limits: Limits) -> Verdict:
        projects = self.plan(ws).chosen
        patched_src = (ws.src / cand.path).resolve()
        patched = cand.run_dir / "patched" / cand.path
        patched.parent.mkdir(parents=True, exist_ok=True)
        patched.write_text(cand.text, encoding="utf-8")
        changed = [p for p in projects if patched_src in p.sources]
        if not changed:
            return Verdict("compile_error", reason=f"{cand.path} is not compiled by any project"
                                                   + self._unbuilt(ws, patched_src))
        rebuild = dependents(projects, {p.path for p in changed}, all_of_them=cand.surface_changed)
        order = [p for p in projects if p.path in rebuild]
        # the capability check runs in the same sandboxed command as the last compile (checks.chained_argv)
        jobs = [checks.job_line(rel(cand.run_dir / "out" / p.name / p.dll_name, ws),
                                rel(ws.base / p.name / p.dll_name, ws), cand.member, cand.allowed) for p in changed]
        started = time.monotonic()
        build = compile_projects(ws, sandbox, limits, projects, order, cand.run_dir / "out",
                                 swap={patched_src: patched}, check=Check(ws.base / CHECKER_EXE, jobs),
                                 scan=self.guard_scan)
        if not build.ok and build.timed_out:
            return Verdict("timeout", log=build.output, reason=f"mcs exceeded {limits.build_timeout:.0f} s",
                           timings={"build": time.monotonic() - started})
        if not build.ok:
            diags = parse_mcs(build.output, ws, cand)
            diags.sort(key=lambda d: (d.candidate_line is None, d.severity != "error"))
            errors = sum(d.severity == "error" for d in diags)
            said = (f"{errors} error(s) compiling {build.failed.name}" if build.output.strip() else
                    f"the compiler printed nothing compiling {build.failed.name} (exit {build.exit_code}, twice): "
                    "the build environment failed, not a line of the candidate")
            return Verdict("compile_error", diagnostics=diags, log=build.output,
                           reason=said,
                           timings={"build": time.monotonic() - started})
        checked = checks.merged_verdict(build.answers) if build.answers is not None else None
        seconds = time.monotonic() - started - (checked.seconds if checked else 0.0)
        return self._checked_and_tested(ws, cand, build, changed, checked, seconds, fixtures, sandbox, limits)

    # -- several candidates already in one tree (a unit judged together) ----------------------------------
    def build_together(self, ws: Workspace, cands: list[PatchedFile], out: Path, sandbox: Sandbox,
                       limits: Limits) -> BuildOutcome:
        """One build of `ws`'s target with the files of `cands` replaced by their texts (each file's text holds
        every candidate in it), into `out`: the projects compiling them and all their dependents, the capability
        check chained with one job per candidate and assembly compiling its file (answers in that order). The
        baseline of every job is `ws`'s own build, the tree without any of the candidates: whatever any candidate
        added is inspected in each job, under that job's allowances."""
        projects = self.plan(ws).chosen
        swap = {}
        for cand in cands:
            patched = out / "patched" / cand.path
            patched.parent.mkdir(parents=True, exist_ok=True)
            patched.write_text(cand.text, encoding="utf-8")
            swap[(ws.src / cand.path).resolve()] = patched
        changed = {p.path for p in projects if any(src in p.sources for src in swap)}
        order = [p for p in projects if p.path in dependents(projects, changed, all_of_them=True)]
        jobs = [checks.job_line(rel(out / "out" / p.name / p.dll_name, ws), rel(ws.base / p.name / p.dll_name, ws),
                                cand.member, cand.allowed)
                for cand in cands for p in self.compiling(ws, cand.path)]
        return compile_projects(ws, sandbox, limits, projects, order, out / "out", swap=swap,
                                check=Check(ws.base / CHECKER_EXE, jobs), scan=self.guard_scan)

    def compiling(self, ws: Workspace, path: str) -> list:
        """The projects of `ws`'s plan that compile the file `path`."""
        src = (ws.src / path).resolve()
        return [p for p in self.plan(ws).chosen if src in p.sources]

    def run_built(self, ws: Workspace, cand: PatchedFile, build: BuildOutcome, answers: list[checks.PolicyVerdict],
                  fixtures: list[str] | None, sandbox: Sandbox, limits: Limits) -> Verdict:
        """`run`'s verdict for one candidate of a build_together `build` (`answers`: its jobs' answers), nothing
        compiled again: its warnings and check, then its tests on that build."""
        changed = self.compiling(ws, cand.path)
        checked = checks.merged_verdict(answers) if answers else None
        return self._checked_and_tested(ws, cand, build, changed, checked, None, fixtures, sandbox, limits)

    def _checked_and_tested(self, ws: Workspace, cand: PatchedFile, build: BuildOutcome, changed: list,
                            checked: checks.PolicyVerdict | None, seconds: float | None, fixtures: list[str] | None,
                            sandbox: Sandbox, limits: Limits) -> Verdict:
        """A candidate's verdict once `build` compiled (in `seconds`; None: the build is not its own): its warnings,
        its capability check, its tests."""
        projects = self.plan(ws).chosen
        built = build.built
        warnings = [d for p in changed if p.name in build.outputs for d in parse_mcs(build.outputs[p.name], ws, cand)]
        timings = {"policy": checked.seconds if checked else 0.0, **({} if seconds is None else {"build": seconds})}
        if checked is None or not checked.ok:
            checked = checked or checks.PolicyVerdict(error="the checker did not run")
            return Verdict("rejected", diagnostics=warnings, reason=checked.reason(), timings=timings,
                           log=checked.log())
        verdict = run_tests(ws, cand, projects, changed, built, fixtures, sandbox, limits)
        rerun_after_initializers(verdict.failures, lambda name: run_tests(
            ws, cand, projects, changed, built, [f"{p.name}:{name}" for p in projects if p.is_test], sandbox,
            replace(limits, fail_fast=False)).failures)
        verdict.timings = {**timings, **verdict.timings}
        verdict.diagnostics = warnings + verdict.diagnostics
        return verdict


def _gap_note(ws: Workspace, diags: list[Diagnostic]) -> str:
    """` (mcs lacks C# 7.0 local function: src/X.cs:12)` for the first error newer C# explains."""
    for d in diags:
        if d.severity == "error":
            gap = language_gap(d.code, d.message, (ws.src / d.file) if d.file else None, d.line)
            if gap:
                return f" (mcs lacks {gap}: {d.file}:{d.line})"
    return ""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def first_errors(output: str, exit_code: int | None, limit: int = 3) -> str:
    """The compiler's first error lines as it printed them, when none reads as a diagnostic (a crash, an
    error without a code or a place): never a bare exit code where the output says more."""
    lines = [" ".join(line.split())[:200] for line in output.splitlines() if "error" in line.lower()]
    shown = " | ".join(lines[:limit]) + (f" | ... ({len(lines) - limit} more)" if len(lines) > limit else "")
    return f"{shown} (mcs exit {exit_code})" if shown else f"mcs exit {exit_code}"
