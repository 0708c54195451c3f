"""Mono toolchain: each SDK-style project compiled by `mcs`, NUnit tests run by repotrans's own runner.

The baseline build (every project, in reference order) is cached per target state. A candidate
rebuilds only the project(s) compiling the patched file; dependents (the test assembly) are reused
unless the candidate changes the public surface, since they reference the library dll by name.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import time
from dataclasses import replace
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.results import Diagnostic, ExceptionInfo
from repotrans.execution.sandboxes import RunOutcome, Sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError, Verdict, judge_report
from repotrans.execution.toolchains import nunit3_compat
from repotrans.execution.toolchains.msbuild import Project
from repotrans.execution.toolchains.packages import blamed_packages, mono_assembly
from repotrans.execution.toolchains.projects import BuildPlan, BuildSettings, Quarantine, plan_build
from repotrans.execution.toolchains.nunit import (RUNNER_SOURCE, check_runner, clean_frames, end_marker,
                                                  exception_info, parse_runner, runner_test_report)
from repotrans.execution.workspace import Workspace, seal_base, sealed

NUNIT_DIR = Path("/usr/lib/cli/nunit.framework-2.6.3")
NUNIT_DLL = NUNIT_DIR / "nunit.framework.dll"
NUNIT_CORE = ("/usr/lib/cli/nunit.core-2.6.3/nunit.core.dll",
              "/usr/lib/cli/nunit.core.interfaces-2.6.3/nunit.core.interfaces.dll")
RUNNER_EXE = Path(".runner") / "repotrans-nunit.exe"
FRAMEWORK_REFS = ("System.dll", "System.Core.dll", "System.Xml.dll", "System.Xml.Linq.dll", "System.Data.dll",
                  "System.Numerics.dll", "System.Runtime.Serialization.dll", "Microsoft.CSharp.dll",
                  "System.Net.Http.dll")
MCS_DEFAULT_LANG = "6"
MCS_MAX_LANG = 7.2
DIAG_RE = re.compile(r"^(?P<file>[^\s(][^(]*?)\((?P<line>\d+),(?P<col>\d+)\):\s+(?P<sev>error|warning)\s+"
                     r"(?P<code>CS\d+):\s+(?P<msg>.*)$")
BARE_DIAG_RE = re.compile(r"^(?P<sev>error|warning)\s+(?P<code>CS\d+):\s+(?P<msg>.*)$")
HEAP_SHARE = 0.6
MAX_QUARANTINE_ROUNDS = 12          # compile, drop the test files with errors, again (each round finds more)
_PLANS: dict[tuple[str, str, float], BuildPlan] = {}
STACK_OVERFLOW_RE = re.compile(r"System\.StackOverflowException:?(.*)$", re.M)
OOM_MARKERS = ("OutOfMemoryException", "Out of memory", "out of memory", "Garbage collector could not allocate")


class MonoToolchain:
    name = "mono"
    image = "repotrans/mono:bookworm"

    def language_version(self, root: Path) -> str:
        try:
            chosen = plan_build(root, self.name).chosen
        except ConfigError:                     # nothing buildable: the compiler's default
            return MCS_DEFAULT_LANG
        versions = sorted({p.lang_version for p in chosen if p.lang_version and not p.is_test})
        if not versions:
            return MCS_DEFAULT_LANG
        numeric = [v for v in versions if _as_float(v) is not None]
        return min(numeric, key=_as_float) if numeric else versions[0]

    def test_projects(self, ws: Workspace) -> dict[str, list[Path]]:
        """Each test project's own compiled files (quarantined ones left out), for test selection."""
        return {p.name: [s for s in p.sources if p.dir in s.parents] for p in self.plan(ws).tests}

    def plan(self, ws: Workspace) -> BuildPlan:
        """The build plan of the workspace: projects.plan_build, less the test files and projects
        the baseline build quarantined (recorded in base/.ok)."""
        settings = BuildSettings.from_env()
        marker = ws.base / ".ok"
        stamp = marker.stat().st_mtime if marker.exists() else 0.0
        key = (str(ws.root), settings.key(), stamp)
        if key not in _PLANS:
            plan = plan_build(ws.src, self.name, settings)
            if stamp:
                _apply_quarantine(plan, json.loads(marker.read_text()), ws)
            _PLANS[key] = plan
        return _PLANS[key]

    # -- baseline -------------------------------------------------------------------------------
    def baseline(self, ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
        """Build every chosen project once; test files that do not compile here are quarantined
        (one reason each), a project that does not compile takes its dependents with it."""
        marker, failed = ws.base / ".ok", ws.base / ".failed.json"
        # a new repotrans runner rebuilds the base, as new build settings do
        settings = BuildSettings.from_env().key() + " runner " + _digest(RUNNER_SOURCE)
        if sealed(ws) and json.loads(marker.read_text()).get("settings") == settings:
            return
        with ws.lock():
            if sealed(ws) and json.loads(marker.read_text()).get("settings") == settings:
                return
            if failed.exists() and json.loads(failed.read_text()).get("settings") == settings:
                data = json.loads(failed.read_text())
                raise TargetBuildError(data["message"], [Diagnostic(**d) for d in data["diagnostics"]],
                                       data["log_tail"])
            shutil.rmtree(ws.base, ignore_errors=True)
            plan = plan_build(ws.src, self.name, BuildSettings.from_env())
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
                if outcome.timed_out or outcome.exit_code != 0:
                    diags = parse_mcs(outcome.output, ws, None)
                    first = next((d for d in diags if d.severity == "error"), None)
                    what = (f"{first.file}:{first.line}: {first.code} {first.message}" if first
                            else "timed out" if outcome.timed_out else f"mcs exit {outcome.exit_code}")
                    blamed = blamed_packages([d.message for d in diags if d.severity == "error"], project.unresolved)
                    if blamed:
                        what += f" (built without package {', '.join(blamed)}, found nowhere: the errors name it)"
                    broken[project.path] = f"{project.name} does not compile: {what}"
                    record["quarantined"].append([project.name, f"does not compile: {what}"])
                    first_failure = first_failure or (project, what, diags, outcome.output[-4000:])
            if not any(p.is_test and p.path not in broken for p in plan.chosen) and first_failure:
                project, what, diags, log_tail = first_failure
                message = f"the target does not build before patching: project {project.name}: {what}"
                failed.parent.mkdir(parents=True, exist_ok=True)
                failed.write_text(json.dumps({"message": message, "log_tail": log_tail, "settings": settings,
                                              "diagnostics": [d.__dict__ for d in diags]}))
                raise TargetBuildError(message, diags, log_tail)
            record["projects"] = [p.name for p in plan.chosen if p.path not in broken]
            self._build_runner(ws, sandbox, limits)
            seal_base(ws, record)

    def _build_baseline(self, ws: Workspace, project: Project, projects: list[Project], sandbox: Sandbox,
                        limits: Limits) -> tuple[RunOutcome, list[list[str]]]:
        """Compile one project of the baseline; for a test project, drop the files of its own that
        do not compile here and try again. Returns the last outcome and [file, reason] per drop."""
        out = ws.base / project.name
        _stage_dependencies(project, projects, {}, ws.base, out)
        dropped: list[list[str]] = []
        current = project
        for _ in range(MAX_QUARANTINE_ROUNDS):
            outcome = sandbox.run(self.compile_argv(ws, current, projects, out, None), cwd=ws.root,
                                  timeout=limits.build_timeout, memory_mb=limits.memory_mb, writable=[out])
            if outcome.timed_out or outcome.exit_code == 0 or not project.is_test:
                return outcome, dropped
            bad = {}
            for d in parse_mcs(outcome.output, ws, None):
                path = (ws.src / d.file).resolve() if d.file else None
                if d.severity == "error" and path in current.sources and project.dir in path.parents:
                    bad.setdefault(path, f"{d.code} {d.message}")
            if not bad:
                return outcome, dropped
            dropped += [[p.relative_to(ws.src.resolve()).as_posix(), why] for p, why in sorted(bad.items())]
            current = _without(current, set(bad))
        return outcome, dropped

    def _build_runner(self, ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
        """repotrans's NUnit runner (nunit_runner.cs), compiled once per workspace state."""
        exe = ws.base / RUNNER_EXE
        exe.parent.mkdir(parents=True, exist_ok=True)
        source = exe.parent / RUNNER_SOURCE.name
        shutil.copyfile(RUNNER_SOURCE, source)
        argv = ["mcs", "-target:exe", f"-out:{_rel(exe, ws)}", *[f"-r:{dll}" for dll in NUNIT_CORE], _rel(source, ws)]
        outcome = sandbox.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb,
                              writable=[exe.parent])
        if outcome.exit_code != 0:
            raise ConfigError(f"cannot build repotrans's NUnit runner (is nunit-console 2.6 installed?): "
                              f"{outcome.output.strip()[-300:]}")

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
            return Verdict("compile_error", reason=f"{cand.path} is not compiled by any project")
        rebuild = _dependents(projects, {p.path for p in changed}, all_of_them=cand.surface_changed)
        built: dict[str, Path] = {}
        warnings: list[Diagnostic] = []
        timings: dict[str, float] = {}
        started = time.monotonic()
        for project in projects:
            if project.path not in rebuild:
                continue
            out = cand.run_dir / "out" / project.name
            _stage_dependencies(project, projects, built, ws.base, out)
            swap = {patched_src: patched} if project in changed else None
            outcome = sandbox.run(self.compile_argv(ws, project, projects, out, swap), cwd=ws.root,
                                  timeout=limits.build_timeout, memory_mb=limits.memory_mb, writable=[out])
            if outcome.timed_out:
                return Verdict("timeout", log=outcome.output, reason=f"mcs exceeded {limits.build_timeout:.0f} s",
                               timings={"build": time.monotonic() - started})
            if outcome.exit_code != 0:
                diags = parse_mcs(outcome.output, ws, cand)
                diags.sort(key=lambda d: (d.candidate_line is None, d.severity != "error"))
                errors = sum(d.severity == "error" for d in diags)
                return Verdict("compile_error", diagnostics=diags, log=outcome.output,
                               reason=f"{errors} error(s) compiling {project.name}",
                               timings={"build": time.monotonic() - started})
            built[project.name] = out
            if swap:
                warnings += parse_mcs(outcome.output, ws, cand)
        timings["build"] = time.monotonic() - started
        verdict = self._test(ws, cand, projects, changed, built, fixtures, sandbox, limits)
        verdict.timings = {**timings, **verdict.timings}
        verdict.diagnostics = warnings + verdict.diagnostics
        return verdict

    def _test(self, ws: Workspace, cand: PatchedFile, projects: list[Project], changed: list[Project],
              built: dict[str, Path], fixtures: list[str] | None, sandbox: Sandbox, limits: Limits) -> Verdict:
        affected = _dependents(projects, {p.path for p in changed}, all_of_them=True)
        tests = [p for p in projects if p.is_test and p.path in affected]
        total = Verdict("passed")
        started = time.monotonic()
        logs = []
        for project in tests:
            selected = None if fixtures is None else [f for f in fixtures if f.startswith(project.name + ":")]
            if selected == []:
                continue
            bin_dir = cand.run_dir / "bin" / project.name
            _overlay(ws.base / project.name, built, projects, project, bin_dir)
            names = None if selected is None else [f.split(":", 1)[1] for f in selected]
            nonce = secrets.token_hex(16)
            outcome = sandbox.run(runner_argv(ws, bin_dir / project.dll_name, names), cwd=ws.root,
                                  timeout=max(1.0, limits.timeout - (time.monotonic() - started)),
                                  memory_mb=limits.memory_mb, env=mono_env(limits.memory_mb),
                                  stdin=f"{nonce}\n".encode(), until=end_marker(nonce))
            logs.append(outcome.output)
            verdict = _judge(outcome, nonce, names, limits, _locator(ws, cand))
            total.by_project[project.name] = (verdict.status, verdict.tests_run, verdict.tests_failed, verdict.reason)
            total.absorb(verdict)
            if verdict.status in ("timeout", "runtime_error") and not verdict.tests_run:
                break
        total.log = "\n".join(logs)
        total.timings = {"test": time.monotonic() - started}
        if total.status == "passed" and total.tests_run == 0:
            total.status = "no_tests"
            total.reason = ("no test project depends on the changed project" if not tests
                            else "no selected test ran")
        return total

    def compile_argv(self, ws: Workspace, project: Project, projects: list[Project], out: Path,
                      swap: dict[Path, Path] | None) -> list[str]:
        # a test project that is an executable (its own Main, or two) is loaded by the runner as a library
        target = "exe" if project.output_type.lower() in ("exe", "winexe") and not project.is_test else "library"
        argv = ["mcs", f"-target:{target}", f"-out:{_rel(out / project.dll_name, ws)}", "-debug",
                "-nowarn:1591", "-sdk:4.5"]
        lang = _mcs_langversion(project.lang_version)
        if lang:
            argv.append(f"-langversion:{lang}")
        if project.defines:
            argv.append("-define:" + ";".join(project.defines))
        if project.unsafe:
            argv.append("-unsafe")
        if project.sign and project.key_file is not None:
            argv.append(f"-keyfile:{_rel(project.key_file, ws)}")
        for file, name in project.resources:
            argv.append(f"-resource:{_rel(file, ws)},{name}")
        argv += [f"-r:{ref}" for ref in FRAMEWORK_REFS]
        if project.is_test:
            argv.append(f"-r:{NUNIT_DLL}")
            if (project.nunit_major or 2) >= 3:           # NUnit 3 tests on NUnit 2.6: the compat layer
                argv += [f"-r:{nunit3_compat.ALIAS}={NUNIT_DLL}", f"-nowarn:{nunit3_compat.NOWARN}",
                         _rel(_compat_source(ws), ws)]
        for name, hint in project.references:
            if name.lower().startswith("nunit.framework") or name.lower() == "mscorlib":
                continue
            argv.append(f"-r:{_rel(hint, ws)}" if hint else f"-r:{_framework_dll(name)}")
        # SDK-style projects see what their references reference (projects and their packages)
        deps = _closure(project, projects) if project.sdk else \
            [p for p in projects if p.path in set(project.project_refs)]
        extra = list(project.extra_references)
        for dep in deps if project.sdk else []:
            extra += [r for r in dep.extra_references if r not in extra]
        argv += [f"-r:{_rel(Path(ref), ws)}" if "/" in ref else f"-r:{ref}.dll" for ref in extra]
        argv += [f"-r:{_rel(out / dep.dll_name, ws)}" for dep in sorted(deps, key=lambda d: d.path)]
        swap = swap or {}
        argv += [_rel(swap.get(src, src), ws) for src in project.sources]
        return argv


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def runner_argv(ws: Workspace, dll: Path, tests: list[str] | None) -> list[str]:
    """repotrans's NUnit runner on one test assembly (in-process, no remoting channel, results on
    stdout), only the given tests (None: all): fixtures "Ns.Fixture" or test methods
    "Ns.Fixture.Method" (a [TestCase] method's name runs all its cases). Its stdin is the nonce."""
    argv = ["mono", "--debug", _rel(ws.base / RUNNER_EXE, ws), _rel(dll, ws)]
    return argv + (["\n".join(sorted(tests))] if tests else [])   # names may hold commas


def mono_env(memory_mb: int) -> dict[str, str]:
    """Cap the GC heap below the address-space limit: a heap-exhausting candidate then gets a managed
    OutOfMemoryException while the JIT still has room, instead of a native abort. --debug gives
    file:line in stack frames (mcs -debug writes the pdb)."""
    return {"MONO_GC_PARAMS": f"max-heap-size={int(memory_mb * HEAP_SHARE)}m", "MONO_ENV_OPTIONS": "--debug"}


def parse_mcs(output: str, ws: Workspace, cand: PatchedFile | None) -> list[Diagnostic]:
    """mcs lines `file(line,col): error CSxxxx: message` -> Diagnostics relative to the target root;
    lines in the patched file also get their line within the candidate. Warnings are kept only for
    the patched file."""
    diags: list[Diagnostic] = []
    seen = set()
    patched_prefix = f"{_rel(cand.run_dir, ws)}/patched/" if cand else None
    for line in output.splitlines():
        m = DIAG_RE.match(line.strip())
        if m:
            file, lineno, col = m.group("file"), int(m.group("line")), int(m.group("col"))
            cand_line = None
            if patched_prefix and file.startswith(patched_prefix):
                file = file[len(patched_prefix):]
                cand_line = cand.line_map.to_candidate(lineno)
            elif file.startswith("src/"):
                file = file[4:]
            if m.group("sev") == "warning" and cand_line is None:
                continue
            diag = Diagnostic(code=m.group("code"), message=m.group("msg").strip(), file=file, line=lineno,
                              column=col, candidate_line=cand_line, severity=m.group("sev"))
        else:
            m = BARE_DIAG_RE.match(line.strip())
            if not m or m.group("sev") != "error":
                continue
            diag = Diagnostic(code=m.group("code"), message=m.group("msg").strip(), file="", line=0, column=0,
                              severity="error")
        key = (diag.code, diag.file, diag.line, diag.column, diag.message)
        if key not in seen:
            seen.add(key)
            diags.append(diag)
    return diags


def _locator(ws: Workspace, cand: PatchedFile):
    """Frame locations relative to the target root; lines of the patched file also in the candidate."""
    patched = str((cand.run_dir / "patched" / cand.path).resolve())
    src = str(ws.src.resolve()) + "/"

    def locate(path: str, line: int) -> str:
        if path == patched:
            cline = cand.line_map.to_candidate(line)
            return f"{cand.path}:{line}" + (f" (candidate line {cline})" if cline else "")
        return f"{path[len(src):] if path.startswith(src) else path.rsplit('/', 1)[-1]}:{line}"
    return locate


def _judge(outcome: RunOutcome, nonce: str, tests: list[str] | None, limits: Limits, locate) -> Verdict:
    """The runner's own report decides whenever it is complete (END line, exit 0 or stopped by the
    sandbox after it); a run killed at the time limit before that is a timeout; anything else that
    ends without a whole report matching the selection is a runtime error."""
    if outcome.oom_killed:
        return Verdict("runtime_error", reason="out of memory (killed at the memory limit)")
    report = parse_runner(outcome.stdout, nonce)
    if report.ended is None:
        if outcome.timed_out:        # what ran before the limit is counted
            failed = sum(1 for t in report.tests if t[0] not in ("passed", "Success"))
            return Verdict("timeout", tests_run=len(report.tests), tests_failed=failed,
                           reason=f"tests exceeded the {limits.timeout:.0f} s limit after {len(report.tests)} of "
                                  f"{len(report.planned)} planned tests")
        overflow = STACK_OVERFLOW_RE.search(outcome.output)
        if overflow:                 # mono dies on it: only the console says what happened, and where
            frames = list(dict.fromkeys(clean_frames(outcome.output[overflow.end():], locate, limit=50)))[:3]
            return Verdict("runtime_error", reason="stack overflow (unbounded recursion?)", exceptions=[
                ExceptionInfo("System.StackOverflowException", overflow.group(1).strip(), frames)])
        oom = any(marker in outcome.output for marker in OOM_MARKERS)
        crash = next((ln.strip() for ln in outcome.output.splitlines()
                      if "Exception" in ln or "Unhandled" in ln or "overflow" in ln.lower()), "")
        reason = ("out of memory" if oom else
                  f"the test process ended before the runner finished (exit {outcome.exit_code})")
        return Verdict("runtime_error", exceptions=[exception_info(crash, [])] if crash else [], reason=reason)
    tests_report = runner_test_report(report, locate)
    if outcome.exit_code not in (0, None):
        return Verdict("runtime_error", tests_run=tests_report.total,
                       reason=f"the test process exited with {outcome.exit_code} after the runner finished")
    status, reason = check_runner(report, tests)
    if status:
        return Verdict(status, failures=tests_report.failures, exceptions=tests_report.exceptions,
                       tests_run=tests_report.total, tests_failed=len(tests_report.failures), reason=reason)
    return judge_report(tests_report)


def _compat_source(ws: Workspace) -> Path:
    """The NUnit 3 compatibility layer's source, inside the workspace (a sandbox sees only that)."""
    path = ws.root / "compat" / nunit3_compat.SOURCE.name
    text = nunit3_compat.SOURCE.read_text(encoding="utf-8")
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def _framework_dll(name: str) -> str:
    """A framework reference as mono spells its file (System.XML -> System.Xml.dll)."""
    found = mono_assembly(name)
    return found.name if found else f"{name}.dll"


def _without(project: Project, files: set[Path]) -> Project:
    return replace(project, sources=[s for s in project.sources if s not in files])


def _apply_quarantine(plan: BuildPlan, record: dict, ws: Workspace) -> None:
    """What the baseline found: test files dropped, projects that did not compile left out."""
    src = ws.src.resolve()
    built = set(record.get("projects", [p.name for p in plan.chosen]))
    chosen = []
    for project in plan.chosen:
        if project.name not in built:
            continue
        drops = record.get("dropped_files", {}).get(project.name, [])
        if drops:
            project = _without(project, {(src / rel).resolve() for rel, _ in drops})
            plan.quarantined += [Quarantine(f"{project.name}:{rel}", why) for rel, why in drops]
        chosen.append(project)
    plan.quarantined += [Quarantine(name, why) for name, why in record.get("quarantined", [])]
    plan.chosen = chosen


def _dependents(projects: list[Project], changed: set[Path], all_of_them: bool) -> set[Path]:
    """The changed projects, plus (when all_of_them) every project depending on them transitively."""
    result = set(changed)
    if not all_of_them:
        return result
    grew = True
    while grew:
        grew = False
        for p in projects:
            if p.path not in result and any(r in result for r in p.project_refs):
                result.add(p.path)
                grew = True
    return result


def _closure(project: Project, projects: list[Project]) -> list[Project]:
    by_path = {p.path: p for p in projects}
    seen: dict[Path, Project] = {}
    stack = list(project.project_refs)
    while stack:
        path = stack.pop()
        if path in seen or path not in by_path:
            continue
        seen[path] = by_path[path]
        stack.extend(by_path[path].project_refs)
    return list(seen.values())


def _stage_dependencies(project: Project, projects: list[Project], built: dict[str, Path], base: Path,
                        out: Path) -> None:
    """Copy-local: the outputs of every referenced project (rebuilt ones first) into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for dep in _closure(project, projects):
        src_dir = built.get(dep.name, base / dep.name)
        for name in (dep.dll_name, Path(dep.dll_name).with_suffix(".pdb").name, dep.dll_name + ".mdb"):
            if (src_dir / name).exists():
                _link(src_dir / name, out / name)
    for dep in _closure(project, projects) + [project]:     # HintPath and package assemblies, copied
        for dll in [h for _, h in dep.references if h is not None] + [Path(r) for r in dep.extra_references if "/" in r]:
            if dll.is_file() and not dll.name.lower().startswith("nunit.framework"):
                shutil.copyfile(dll, out / dll.name)
    if project.is_test:     # a copy: a link would let the sandbox reach the host's file
        shutil.copyfile(NUNIT_DLL, out / NUNIT_DLL.name)


def _overlay(base_dir: Path, built: dict[str, Path], projects: list[Project], project: Project,
             bin_dir: Path) -> None:
    """Test folder for one run: the baseline outputs, with the rebuilt assemblies laid over them."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    for item in base_dir.iterdir():
        _link(item, bin_dir / item.name)
    for dep in _closure(project, projects) + [project]:
        if dep.name in built:
            for item in built[dep.name].iterdir():
                if item.name.startswith(dep.assembly_name + "."):
                    _link(item, bin_dir / item.name)


def _link(src: Path, dst: Path) -> None:
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _rel(path: Path, ws: Workspace) -> str:
    path = Path(path)
    try:
        return path.resolve().relative_to(ws.root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _as_float(v: str) -> float | None:
    try:
        return float(v)
    except ValueError:
        return None


def _mcs_langversion(value: str | None) -> str | None:
    if not value:
        return None
    low = value.strip().lower()
    if low in ("iso-1", "iso-2"):
        return value.upper()
    number = _as_float(low)
    if number is None or number > MCS_MAX_LANG:
        return "Latest"
    return value.strip()
