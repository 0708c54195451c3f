"""dotnet toolchain: `dotnet build`, then `dotnet test --filter ... --logger trx`, on a per-candidate
copy of the scratch tree (sources hard-linked, bin/obj copied so MSBuild builds incrementally).

The .NET SDK is not installed on the development machine: the command lines and the parsers
(MSBuild diagnostics, TRX) are covered by tests on recorded output samples.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.verdicts.results import Diagnostic, TestFailure
from repotrans.execution.sandboxes import PIDS_REASON, Sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError, Verdict, judge_report
from repotrans.execution.toolchains.compiler_output import lowest_language_version, parse_diagnostics
from repotrans.execution.toolchains.declared_skips import Skip, declared_skips, escape, filter_terms, within
from repotrans.execution.capability.checks import PolicyVerdict, merged_verdict
from repotrans.execution.capability.dotnet_check import check_candidates, checker_for, owners
from repotrans.execution.capability.il_check_process import IlCheckProcess
from repotrans.execution.toolchains.msbuild import Project
from repotrans.execution.toolchains.projects import BuildPlan, BuildSettings, plan_build
from repotrans.execution.toolchains.nunit import TestReport, exception_info
from repotrans.execution.toolchain_registry import toolchain_spec
from repotrans.execution.workspace.scratch import Workspace

TRX_NS = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
MSBUILD_DIAG_RE = re.compile(
    r"^\s*(?P<file>[^\s(][^(]*?)\((?P<line>\d+),(?P<col>\d+)(?:,\d+,\d+)?\):\s+(?P<sev>error|warning)\s+"
    r"(?P<code>[A-Z]+\d+):\s+(?P<msg>.*?)(?:\s+\[(?P<project>[^\]]+)\])?\s*$")
MSBUILD_BARE_RE = re.compile(r"^\s*(?P<src>[^:]*?)\s*:\s+error\s+(?P<code>[A-Z]+\d+):\s+(?P<msg>.*?)"
                             r"(?:\s+\[(?P<project>[^\]]+)\])?\s*$")
EXPECTED_STYLES = (
    re.compile(r"Expected:[ \t]*([^\n]*?)\s*\n\s*But was:[ \t]*([^\n]*?)\s*(?:\n|$)"),          # NUnit
    re.compile(r"Expected:[ \t]*([^\n]*?)\s*\n\s*Actual:[ \t]*([^\n]*?)\s*(?:\n|$)"),           # xUnit
    re.compile(r"Expected:<(.*?)>\.?\s*Actual:<(.*?)>", re.S),                                  # MSTest
)
ASSERTION_TYPES = ("NUnit.Framework.AssertionException", "Xunit.Sdk.", "Microsoft.VisualStudio.TestTools")
EXCEPTION_HEAD_RE = re.compile(r"^\s*(?:Test method [\w.]+ threw exception:\s*)?"
                               r"([A-Za-z_][\w.`+]*(?:Exception|Error))\s*:\s")
FRAME_RE = re.compile(r"^\s*at (?P<frame>.*?)(?: in (?P<file>.*):line (?P<line>\d+))?\s*$")
DEFAULT_LANG = {"net9.0": "13", "net8.0": "12", "net7.0": "11", "net6.0": "10", "net5.0": "9",
                "netcoreapp3.1": "8.0", "netcoreapp3.0": "8.0", "netstandard2.1": "8.0"}
FALLBACK_LANG = "7.3"            # netstandard2.0 and .NET Framework
ENV = {"DOTNET_CLI_TELEMETRY_OPTOUT": "1", "DOTNET_NOLOGO": "1", "DOTNET_SKIP_FIRST_TIME_EXPERIENCE": "1",
       "MSBUILDDISABLENODEREUSE": "1"}
MAX_FRAMES = 5


class DotnetToolchain:
    name = "dotnet"
    image = toolchain_spec("dotnet").image       # default docker image (the registry's)

    def __init__(self, settings: BuildSettings = BuildSettings()):
        self.settings = settings
        self._checkers: dict[Path, IlCheckProcess] = {}     # workspace root -> its IL checker, made on first use

    def language_version(self, root: Path) -> str:
        try:
            chosen = plan_build(root, self.name, self.settings).chosen
        except ConfigError:                     # nothing buildable: the SDK's default
            return FALLBACK_LANG
        libs = [p for p in chosen if not p.is_test] or chosen
        return lowest_language_version((p.lang_version or DEFAULT_LANG.get(p.target_framework.lower(), FALLBACK_LANG)
                                        for p in libs), FALLBACK_LANG)

    def plan(self, ws: Workspace) -> BuildPlan:
        return plan_build(ws.src, self.name, self.settings)

    def test_projects(self, ws: Workspace) -> dict[str, list[Path]]:
        """Each test project's own compiled files."""
        return {p.name: p.own_sources for p in _tests(ws.src, self.settings)}

    def baseline(self, ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
        marker = ws.base / ".ok"
        if marker.exists():
            return
        with ws.lock():
            if marker.exists():
                return
            box = sandbox.fresh()           # no earlier candidate ran in it (a warm container's leftovers)
            try:
                self._build_base(ws, box, limits)
            finally:
                if box is not sandbox:
                    box.close()
            ws.base.mkdir(parents=True, exist_ok=True)
            marker.write_text("ok")

    def _build_base(self, ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
        """restore and build the whole target in `sandbox` (baseline() holds the lock)."""
        for argv in restore_argvs(ws.src, self.settings) + build_argvs(ws.src, self.settings):
            outcome = sandbox.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb,
                                  env=env(ws), writable=[ws.src, ws.root / ".nuget", ws.root / ".home"])
            if outcome.timed_out or outcome.exit_code != 0:
                diags = parse_msbuild(outcome.output, ws.src, None)
                first = next((d for d in diags if d.severity == "error"), None)
                what = (f"{first.file}:{first.line}: {first.code} {first.message}" if first
                        else f"`{' '.join(argv[:2])}` exit {outcome.exit_code}")
                raise TargetBuildError(f"the target does not build before patching: {what}", diags,
                                       outcome.output[-4000:])

    def run(self, ws: Workspace, cand: PatchedFile, fixtures: list[str] | None, sandbox: Sandbox,
            limits: Limits) -> Verdict:
        build = self.build_together(ws, [cand], cand.run_dir, sandbox, limits)
        timings = {"build": build.seconds}
        if build.timed_out:
            return Verdict("timeout", log=build.output, reason="dotnet build timed out", timings=timings)
        if not build.ok:
            diags = parse_msbuild(build.output, build.tree, cand)
            diags.sort(key=lambda d: (d.candidate_line is None, d.severity != "error"))
            return Verdict("compile_error", diagnostics=diags, log=build.output, timings=timings,
                           reason=f"{sum(d.severity == 'error' for d in diags)} error(s) in dotnet build")
        return self._checked_and_tested(ws, cand, build, build.answers or [], cand.run_dir, fixtures, sandbox,
                                        limits, timings)

    def build_together(self, ws: Workspace, cands: list[PatchedFile], out: Path, sandbox: Sandbox,
                       limits: Limits) -> "TreeBuild":
        """One `dotnet build` of a copy of `ws`'s tree (out/tree) with the files of `cands` replaced by their texts
        (each file's text holds every candidate in it), then the capability check: one answer per candidate and
        project compiling its file (`compiling`), in that order. The baseline of every answer is `ws`'s own build,
        the tree without any of the candidates: whatever any candidate added is inspected in each, under that
        candidate's allowances."""
        started = time.monotonic()
        tree = out / "tree"
        copy_tree(ws.src, tree)
        for cand in cands:
            patched = tree / cand.path
            patched.unlink()                # a hard link into the workspace: never written through
            patched.write_text(cand.text, encoding="utf-8")
        outputs = []
        for argv in build_argvs(tree, self.settings):
            outcome = sandbox.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb,
                                  env=env(ws), writable=[tree, ws.root / ".home"])
            outputs.append(outcome.output)
            if outcome.timed_out or outcome.exit_code != 0:
                break
        build = TreeBuild(tree, "\n".join(outputs), outcome.exit_code, outcome.timed_out,
                          time.monotonic() - started)
        if build.ok:
            if ws.root not in self._checkers:
                self._checkers[ws.root] = checker_for(ws)
            build.answers = check_candidates(cands, self.plan(ws).chosen, ws, tree, self._checkers[ws.root])
        return build

    def compiling(self, ws: Workspace, path: str) -> list[Project]:
        """The projects whose assemblies a candidate in the file `path` is checked in (its answers in a build)."""
        return owners(self.plan(ws).chosen, ws, path)

    def run_built(self, ws: Workspace, cand: PatchedFile, build: "TreeBuild", answers: list[PolicyVerdict],
                  fixtures: list[str] | None, sandbox: Sandbox, limits: Limits) -> Verdict:
        """`run`'s verdict for one candidate of a build_together `build` (`answers`: its own), nothing built again:
        its warnings and check, then its tests on that build (results in a folder of this run's own)."""
        run_dir = Path(tempfile.mkdtemp(dir=cand.run_dir, prefix="tests-"))
        return self._checked_and_tested(ws, cand, build, answers, run_dir, fixtures, sandbox, limits, {})

    def _checked_and_tested(self, ws: Workspace, cand: PatchedFile, build: "TreeBuild", answers: list[PolicyVerdict],
                            run_dir: Path, fixtures: list[str] | None, sandbox: Sandbox, limits: Limits,
                            timings: dict[str, float]) -> Verdict:
        """A candidate's verdict once `build` built: its warnings, its capability check (no answer: no project
        compiles its file, a rejection), its tests (results and home under `run_dir`)."""
        diags = parse_msbuild(build.output, build.tree, cand)
        checked = merged_verdict(answers) if answers else PolicyVerdict(error=f"no project compiles {cand.path}")
        timings = {**timings, "policy": checked.seconds}
        if not checked.ok:
            return Verdict("rejected", diagnostics=diags, reason=checked.reason(), timings=timings,
                           log=checked.log())
        total = Verdict("passed", diagnostics=diags, left_out=dict(limits.left_out_before))
        logs = [build.output]
        t = time.monotonic()
        for project in _tests(build.tree, self.settings):
            selected = None if fixtures is None else [f.split(":", 1)[1] for f in fixtures
                                                      if f.startswith(project.name + ":")]
            if selected == []:
                continue
            trx = run_dir / "results" / f"{project.name}.trx"
            home = run_dir / "home"          # this run's own: nothing carries over to the next
            # as the test uid (it owns nothing else in the workspace); vstest.console writes the TRX with
            # that uid too, so the verdict is dotnet test's exit status and the TRX only its details
            skips = declared_skips(project.sources, limits.exclude_categories)
            test = sandbox.run(dotnet_test_argv(project, selected, trx, limits.exclude_categories, skips), cwd=ws.root,
                               timeout=max(1.0, limits.timeout - (time.monotonic() - t)),
                               memory_mb=limits.memory_mb, env={**env(ws), "HOME": str(home)},
                               scratch=[trx.parent, home])
            logs.append(test.output)
            if test.timed_out:
                total.status, total.reason = "timeout", f"tests exceeded the {limits.timeout:.0f} s limit"
                break
            if test.pids_limited:
                total.status, total.reason = "runtime_error", PIDS_REASON
                break
            if not trx.exists():
                total.status = "runtime_error"
                total.reason = ("out of memory" if test.oom_killed or "OutOfMemory" in test.output
                                else f"dotnet test crashed (exit {test.exit_code})")
                break
            verdict = judge_exit(parse_trx(trx.read_text(encoding="utf-8", errors="replace")), test.exit_code)
            verdict.excluded = {f"{project.name}:{name}": why for name, why in within(skips, selected).items()}
            total.absorb(verdict)
        if total.status == "passed" and total.tests_run == 0:
            total.status, total.reason = "no_tests", "no selected test ran"
        total.log = "\n".join(logs)
        total.timings = {**timings, "test": time.monotonic() - t}
        return total


@dataclass
class TreeBuild:
    """build_together's `dotnet build`: the tree, what MSBuild printed, how it ended, the check's answers."""
    tree: Path
    output: str
    exit_code: int | None
    timed_out: bool
    seconds: float
    answers: list[PolicyVerdict] | None = None

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.exit_code == 0


def judge_exit(report: TestReport, exit_code: int | None) -> Verdict:
    """dotnet test's exit status is the verdict (0: at least one test ran, none failed, with
    TreatNoTestsAsError); the TRX, which the test host could have written, only details it and must
    agree: a report of passes with a failing exit (a crashed or aborted host) or of failures with
    exit 0 (a rewritten report) is a runtime error."""
    verdict = judge_report(report)
    if exit_code == 0 and (verdict.status != "passed" or report.total == 0):
        verdict.status, verdict.reason = "runtime_error", (
            "the TRX report disagrees with dotnet test's exit 0 (rewritten by the test process?)")
    elif exit_code != 0 and verdict.status == "passed":
        if report.total == 0:
            verdict.status, verdict.reason = "no_tests", "no selected test ran"
        else:
            verdict.status, verdict.reason = "runtime_error", (
                f"dotnet test exited {exit_code} though its report shows no failure")
    return verdict


def env(ws: Workspace) -> dict[str, str]:
    """NuGet packages live in the workspace, so a docker sandbox (no network) sees the restored ones."""
    return {**ENV, "NUGET_PACKAGES": str(ws.root / ".nuget" / "packages"), "HOME": str(ws.root / ".home")}


def restore_argvs(tree: Path, settings: BuildSettings = BuildSettings()) -> list[list[str]]:
    return [["dotnet", "restore", entry, "-nologo", "-v:q"] for entry, _ in _entries(tree, settings)]


def build_argvs(tree: Path, settings: BuildSettings = BuildSettings()) -> list[list[str]]:
    """One `dotnet build` per entry: the solution when there is one and no test project multi-targets,
    else each test project the plan chose (which builds what it references), with `-f` for one that
    multi-targets (the framework chosen for dotnet, or --framework)."""
    return [["dotnet", "build", entry, "--no-restore", "-nologo", "-v:q", "-clp:NoSummary",
             "-p:GenerateFullPaths=true", "-p:TreatWarningsAsErrors=false"] + (["-f", fw] if fw else [])
            for entry, fw in _entries(tree, settings)]


def dotnet_test_argv(project: Project, tests: list[str] | None, trx: Path,
                     exclude: tuple[str, ...] = (), skips: dict[str, Skip] | None = None) -> list[str]:
    """`dotnet test` on the given tests (None: all), each a fixture "Ns.Fixture" or a test method
    "Ns.Fixture.Method" (see vstest_filter), never a test of an `exclude`d category (NUnit's [Category],
    MSTest's [TestCategory], xUnit's Category trait) nor one of `skips` the selection reaches (declared_skips:
    [Explicit], [Ignore]), named or not: a name match would run an explicit test."""
    argv = ["dotnet", "test", str(project.path), "--no-build", "--no-restore", "-nologo",
            "--logger", f"trx;LogFileName={trx.name}", "--results-directory", str(trx.parent)]
    if _framework_flag(project):
        argv += ["-f", project.target_framework]
    named = "|".join(vstest_filter(t) for t in sorted(tests or []))
    reached = within(skips or {}, tests)
    left_out = "&".join([f"TestCategory!={escape(c)}" for c in exclude]
                        + filter_terms({name: skip for name, skip in (skips or {}).items() if name in reached}))
    if named or left_out:
        argv += ["--filter", f"({named})&{left_out}" if named and left_out else named or left_out]
    return argv + ["--", "RunConfiguration.TreatNoTestsAsError=true"]     # exit 0 only when a test ran


def vstest_filter(name: str) -> str:
    """A VSTest filter matching the fixture or test method `name` and nothing it prefixes: the
    fixture's tests (`name.`), a plain test or xUnit theory (`=name`), NUnit test cases and
    parameterised fixtures (`name(`, the parenthesis escaped as VSTest filters require)."""
    escaped = escape(name)
    return (f"FullyQualifiedName~{escaped}.|FullyQualifiedName={escaped}|"
            f"FullyQualifiedName~{escaped}\\(")


def parse_msbuild(output: str, tree: Path, cand: PatchedFile | None) -> list[Diagnostic]:
    """MSBuild lines `path(line,col): error CS1002: message [project]` -> Diagnostics (deduplicated:
    MSBuild repeats errors), paths relative to the tree, candidate lines for the patched file
    (compiler_output.parse_diagnostics)."""
    root = str(tree.resolve()) + "/"

    def place(file: str, lineno: int) -> tuple[str, int, int | None]:
        file = file.replace("\\", "/")
        file = file[len(root):] if file.startswith(root) else file
        return file, lineno, cand.line_map.to_candidate(lineno) if cand and file == cand.path else None

    return parse_diagnostics(output, MSBUILD_DIAG_RE, MSBUILD_BARE_RE, place)


def parse_trx(xml_text: str) -> TestReport:
    """A Visual Studio TRX file (dotnet test --logger trx) -> TestReport; assertion failures of NUnit,
    xUnit and MSTest are failures, anything else that was thrown is an exception."""
    root = ET.fromstring(xml_text)
    classes = {}
    for unit in root.iterfind("t:TestDefinitions/t:UnitTest", TRX_NS):
        method = unit.find("t:TestMethod", TRX_NS)
        if method is not None:
            classes[unit.get("id")] = method.get("className", "")
    report = TestReport()
    for res in root.iterfind("t:Results/t:UnitTestResult", TRX_NS):
        outcome = res.get("outcome", "")
        if outcome == "NotExecuted":
            continue
        report.total += 1
        if outcome == "Passed":
            report.passed += 1
            continue
        cls = classes.get(res.get("testId"), "")
        name = res.get("testName", "")
        full = name if not cls or name.startswith(cls + ".") else f"{cls}.{name}"
        message = (res.findtext("t:Output/t:ErrorInfo/t:Message", "", TRX_NS) or "").strip()
        frames = _frames(res.findtext("t:Output/t:ErrorInfo/t:StackTrace", "", TRX_NS) or "")
        expected = actual = None
        for style in EXPECTED_STYLES:
            m = style.search(message)
            if m:
                expected, actual = m.group(1).strip(), m.group(2).strip()
                break
        report.failures.append(TestFailure(full, message, expected, actual, frames))
        head = EXCEPTION_HEAD_RE.match(message)
        if head and not head.group(1).startswith(ASSERTION_TYPES):
            report.exceptions.append(exception_info(message[head.start(1):], frames))
    return report


def copy_tree(src: Path, dst: Path) -> None:
    """Sources hard-linked (never written by a build), bin/ and obj/ copied (MSBuild rewrites them)."""
    for dirpath, dirnames, filenames in os.walk(src):
        rel = Path(dirpath).relative_to(src)
        building = any(part in ("bin", "obj") for part in rel.parts)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        for name in filenames:
            s, d = Path(dirpath) / name, dst / rel / name
            if building:
                shutil.copy2(s, d)
            else:
                try:
                    os.link(s, d)
                except OSError:
                    shutil.copy2(s, d)


def _frames(stack: str) -> list[str]:
    frames = []
    for line in stack.splitlines():
        m = FRAME_RE.match(line)
        if not m or m.group("frame").startswith(("System.RuntimeMethodHandle", "System.Reflection.",
                                                 "NUnit.Framework.")):
            continue
        frame = m.group("frame")
        if m.group("file"):
            frame += f" at {m.group('file').replace(chr(92), '/').rsplit('/', 1)[-1]}:{m.group('line')}"
        frames.append(frame)
        if len(frames) >= MAX_FRAMES:
            break
    return frames


def _tests(tree: Path, settings: BuildSettings) -> list[Project]:
    return [p for p in plan_build(tree, "dotnet", settings).chosen if _is_test(p)]


def _framework_flag(project: Project) -> bool:
    return len(project.target_frameworks) > 1 and bool(project.target_framework)


def _entries(tree: Path, settings: BuildSettings) -> list[tuple[str, str | None]]:
    slns = sorted(tree.glob("*.sln"))
    try:
        chosen = plan_build(tree, "dotnet", settings).chosen
    except ConfigError:
        if len(slns) == 1:                # MSBuild itself may know better: let it say
            return [(str(slns[0]), None)]
        raise
    tests = [p for p in chosen if _is_test(p)]
    if len(slns) == 1 and not any(_framework_flag(p) for p in tests):
        return [(str(slns[0]), None)]
    return [(str(p.path), p.target_framework if _framework_flag(p) else None) for p in (tests or chosen)]


def _is_test(project: Project) -> bool:
    return project.is_test or project.properties.get("IsTestProject", "").lower() == "true" or any(
        name.lower() in ("xunit", "mstest.testframework", "microsoft.net.test.sdk") for name, _ in project.package_refs)
