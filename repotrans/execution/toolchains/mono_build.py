"""Mono builds: the mcs command of one project, its diagnostics, the copy-local staging of its
references, and repotrans's own tools (test runner, IL capability checker) compiled once per workspace."""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.capability import checks
from repotrans.verdicts.results import Diagnostic
from repotrans.execution.sandboxes import Sandbox
from repotrans.execution.toolchains import Limits, PatchedFile
from repotrans.execution.toolchains import mstest_compat, nunit3_compat
from repotrans.execution.toolchains.mstest_compat import is_mstest_assembly
from repotrans.execution.toolchains.compiler_output import parse_diagnostics
from repotrans.execution.toolchains.frameworks import framework_references, reference_profile
from repotrans.execution.toolchains.msbuild import Project
from repotrans.execution.toolchains.nunit import RUNNER_SOURCE
from repotrans.execution.toolchains.packages import mono_assembly
from repotrans.execution.toolchains.projects import BuildPlan, Quarantine
from repotrans.execution.workspace.scratch import Workspace

NUNIT_DIR = Path("/usr/lib/cli/nunit.framework-2.6.3")
NUNIT_DLL = NUNIT_DIR / "nunit.framework.dll"
NUNIT_CORE = ("/usr/lib/cli/nunit.core-2.6.3/nunit.core.dll",
              "/usr/lib/cli/nunit.core.interfaces-2.6.3/nunit.core.interfaces.dll")
TOOLS = Path(".runner")
RUNNER_EXE = TOOLS / "repotrans-nunit.exe"
# the runner's other parts: its record of call chains, the facts a passing test rests on
RUNNER_PARTS = tuple(Path(__file__).with_name(n) for n in ("nunit_chain.cs", "nunit_declared.cs"))
CHECKER_EXE = TOOLS / "repotrans-cecil-checker.exe"
MCS_DEFAULT_LANG = "6"
MCS_MAX_LANG = 7.2
DIAG_RE = re.compile(r"^(?P<file>[^\s(][^(]*?)\((?P<line>\d+),(?P<col>\d+)\):\s+(?P<sev>error|warning)\s+"
                     r"(?P<code>CS\d+):\s+(?P<msg>.*)$")
BARE_DIAG_RE = re.compile(r"^(?P<sev>error|warning)\s+(?P<code>CS\d+):\s+(?P<msg>.*)$")


def compile_argv(ws: Workspace, project: Project, projects: list[Project], out: Path,
              swap: dict[Path, Path] | None) -> list[str]:
    # a test project that is an executable (its own Main, or two) is loaded by the runner as a library
    target = "exe" if project.output_type.lower() in ("exe", "winexe") and not project.is_test else "library"
    argv = ["mcs", f"-target:{target}", f"-out:{rel(out / project.dll_name, ws)}", "-debug",
            "-nowarn:1591", f"-sdk:{reference_profile(project.target_framework)[0]}"]
    startup = project.properties.get("StartupObject", "").strip()
    if target == "exe" and startup:               # several Main()s: the one the project names
        argv.append(f"-main:{startup}")
    lang = _mcs_langversion(project.lang_version)
    if lang:
        argv.append(f"-langversion:{lang}")
    if project.defines:
        argv.append("-define:" + ";".join(project.defines))
    if project.unsafe:
        argv.append("-unsafe")
    if project.sign and project.key_file is not None:
        argv.append(f"-keyfile:{rel(project.key_file, ws)}")
    for file, name in project.resources:
        argv.append(f"-resource:{rel(file, ws)},{name}")
    argv += [f"-r:{ref}" for ref in framework_references(project.target_framework, project.sdk)]
    if project.is_test:
        argv.append(f"-r:{NUNIT_DLL}")
        if (project.nunit_major or 2) >= 3:           # NUnit 3 tests on NUnit 2.6: the compat layer
            argv += [f"-r:{nunit3_compat.ALIAS}={NUNIT_DLL}", f"-nowarn:{nunit3_compat.NOWARN}",
                     rel(_compat_source(ws, nunit3_compat.SOURCE), ws)]
        elif project.test_framework == "mstest":      # MSTest on NUnit 2.6: its layer, not its assembly
            argv.append(rel(_compat_source(ws, mstest_compat.SOURCE), ws))
    for name, hint in project.references:
        if name.lower().startswith("nunit.framework") or name.lower() == "mscorlib" or is_mstest_assembly(name):
            continue
        # dlls through their copies beside the output (stage_dependencies): a sandbox sees the workspace only
        argv.append(f"-r:{rel(out / hint.name, ws)}" if hint else f"-r:{_framework_dll(name)}")
    # SDK-style projects see what their references reference (projects and their packages)
    deps = closure(project, projects) if project.sdk else \
        [p for p in projects if p.path in set(project.project_refs)]
    extra = list(project.extra_references)
    for dep in deps if project.sdk else []:
        extra += [r for r in dep.extra_references if r not in extra]
    argv += [f"-r:{rel(out / Path(ref).name, ws)}" if "/" in ref else f"-r:{ref}.dll" for ref in extra]
    argv += [f"-r:{rel(out / dep.dll_name, ws)}" for dep in sorted(deps, key=lambda d: d.path)]
    swap = swap or {}
    argv += [rel(swap.get(src, src), ws) for src in project.sources]
    return argv



def build_tools(ws: Workspace, sandbox: Sandbox, limits: Limits) -> None:
    """repotrans's NUnit runner (nunit_runner.cs and its RUNNER_PARTS) and IL capability checker (cecil_checker.cs), compiled
    into the baseline once per workspace state."""
    folder = ws.base / TOOLS
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(checks.RULES, folder / checks.RULES.name)     # the checker reads its rules beside it
    for part in checks.SOURCES[1:]:                                 # the rest of its partial class
        shutil.copyfile(part, folder / part.name)
    for part in RUNNER_PARTS:
        shutil.copyfile(part, folder / part.name)
    for exe, source, argv in ((RUNNER_EXE, RUNNER_SOURCE, None), (CHECKER_EXE, checks.SOURCE, checks.build_argv)):
        copy = folder / source.name
        shutil.copyfile(source, copy)
        if argv is None:
            argv = lambda out, src: ["mcs", "-target:exe", f"-out:{out}", *[f"-r:{dll}" for dll in NUNIT_CORE], src,
                                     *[rel(folder / part.name, ws) for part in RUNNER_PARTS]]
        outcome = sandbox.run(argv(rel(ws.base / exe, ws), rel(copy, ws)), cwd=ws.root,
                              timeout=limits.build_timeout, memory_mb=limits.memory_mb, writable=[folder])
        if outcome.exit_code != 0:
            raise ConfigError(f"cannot build repotrans's {source.name} (is mono-devel with nunit-console 2.6 "
                              f"installed?): {outcome.output.strip()[-300:]}")
    for argv in checks.aot_argvs(rel(ws.base / CHECKER_EXE, ws)):     # best effort: saves JIT per candidate
        sandbox.run(argv, cwd=ws.root, timeout=limits.build_timeout, memory_mb=limits.memory_mb, writable=[folder])


def parse_mcs(output: str, ws: Workspace, cand: PatchedFile | None) -> list[Diagnostic]:
    """mcs lines `file(line,col): error CSxxxx: message` -> Diagnostics relative to the target root;
    lines in the patched file also get their line within the candidate. Warnings are kept only for
    the patched file (compiler_output.parse_diagnostics)."""
    return parse_diagnostics(output, DIAG_RE, BARE_DIAG_RE, _place(ws, cand))


def parse_shared_mcs(output: str, ws: Workspace, cand: PatchedFile, shared: Path,
                     own_lines: dict[int, int]) -> list[Diagnostic]:
    """A shared build's mcs output (the switch mechanisms compile many candidates at once) read as the
    candidate's own build would say it: a line of `shared`, the file holding its body among others', is
    placed at its line in the candidate's patched file when it is one of the candidate's (`own_lines`:
    shared line -> patched line); the other candidates' and the switches' lines are left out."""
    shared_name, placed, root = rel(shared, ws), _place(ws, cand), str(ws.root.resolve()) + "/"

    def place(file: str, lineno: int) -> tuple[str, int, int | None] | None:
        file = file[len(root):] if file.startswith(root) else file     # a guarded copy names it absolutely
        if file != shared_name:
            return placed(file, lineno)
        own = own_lines.get(lineno)
        return None if own is None else (cand.path, own, cand.line_map.to_candidate(own))

    return parse_diagnostics(output, DIAG_RE, BARE_DIAG_RE, place)


def _place(ws: Workspace, cand: PatchedFile | None):
    """mcs's file (relative to the workspace) -> (its path in the target, the line, the candidate's line)."""
    patched_prefix = f"{rel(cand.run_dir, ws)}/patched/" if cand else None

    root = str(ws.root.resolve()) + "/"

    def place(file: str, lineno: int) -> tuple[str, int, int | None]:
        if file.startswith(root):               # a guarded copy names its original absolutely (toolchains.guards)
            file = file[len(root):]
        if patched_prefix and file.startswith(patched_prefix):
            return file[len(patched_prefix):], lineno, cand.line_map.to_candidate(lineno)
        return (file[4:] if file.startswith("src/") else file), lineno, None

    return place



def _compat_source(ws: Workspace, source: Path) -> Path:
    """A compatibility layer's source (NUnit 3, MSTest), inside the workspace (a sandbox sees only that)."""
    path = ws.root / "compat" / source.name
    text = source.read_text(encoding="utf-8")
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


def without(project: Project, files: set[Path]) -> Project:
    return replace(project, sources=[s for s in project.sources if s not in files])


def apply_quarantine(plan: BuildPlan, record: dict, ws: Workspace) -> None:
    """What the baseline found: test files dropped, projects that did not compile left out."""
    src = ws.src.resolve()
    built = set(record.get("projects", [p.name for p in plan.chosen]))
    chosen = []
    for project in plan.chosen:
        if project.name not in built:
            continue
        drops = record.get("dropped_files", {}).get(project.name, [])
        if drops:
            project = without(project, {(src / rel).resolve() for rel, _ in drops})
            plan.quarantined += [Quarantine(f"{project.name}:{rel}", why) for rel, why in drops]
        chosen.append(project)
    plan.quarantined += [Quarantine(name, why) for name, why in record.get("quarantined", [])]
    plan.chosen = chosen


def dependents(projects: list[Project], changed: set[Path], all_of_them: bool) -> set[Path]:
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


def closure(project: Project, projects: list[Project]) -> list[Project]:
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


def stage_dependencies(project: Project, projects: list[Project], built: dict[str, Path], base: Path,
                        out: Path) -> None:
    """Copy-local: the outputs of every referenced project (rebuilt ones first) into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    own = closure(project, projects)
    siblings = [p for p in projects if p.path in set(project.runtime_siblings)]
    names = {d.assembly_name for d in own + [project]}
    loaded = {p.path: p for s in siblings for p in [s] + closure(s, projects) if p.assembly_name not in names}
    for dep in own + list(loaded.values()):              # siblings: loaded at run time, never over the own
        src_dir = built.get(dep.name, base / dep.name)
        for name in (dep.dll_name, Path(dep.dll_name).with_suffix(".pdb").name, dep.dll_name + ".mdb"):
            if (src_dir / name).exists():
                link(src_dir / name, out / name)
    for dep in closure(project, projects) + list(loaded.values()) + [project]:     # HintPath and package dlls, copied
        for dll in [h for _, h in dep.references if h is not None] + [Path(r) for r in dep.extra_references if "/" in r]:
            if dll.is_file() and not dll.name.lower().startswith("nunit.framework"):
                shutil.copyfile(dll, out / dll.name)
    if project.is_test:     # a copy: a link would let the sandbox reach the host's file
        shutil.copyfile(NUNIT_DLL, out / NUNIT_DLL.name)


def stage_copied(project: Project, projects: list[Project], out: Path) -> list[str]:
    """What the build copies beside the assembly (CopyToOutputDirectory items, App.config as
    <assembly>.config), the referenced projects' first as MSBuild copies them on; the paths placed."""
    placed: dict[str, Path] = {}
    for dep in closure(project, projects) + [project]:
        for file, dest in dep.copied:
            if dest.endswith(".config") and dest[:-len(".config")] in (dep.dll_name,) and dep is not project:
                continue                   # a reference's own App.config stays with it
            placed[dest] = file
    for dest, file in placed.items():
        target = (out / dest).resolve()
        if not target.is_relative_to(out.resolve()) or not file.is_file():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)
    return sorted(placed)


def link(src: Path, dst: Path) -> None:
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def rel(path: Path, ws: Workspace) -> str:
    """`path` relative to the workspace's root (Workspace.rel)."""
    return ws.rel(path)


def as_float(v: str) -> float | None:
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
    number = as_float(low)
    if number is None or number > MCS_MAX_LANG:
        return "Latest"
    return value.strip()
