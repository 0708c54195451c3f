"""Which projects of a target repository to build: its test projects and the projects they use.

A real solution holds much more than a library and its tests: samples, GUI tools, platform
variants, projects for other test frameworks. The plan keeps the test projects the toolchain can
run and everything they reference; each project left out, and each reference a test project has to
do without, gets a one-line reason (`repotrans doctor` prints them; the toolchains build the plan).
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.toolchains.frameworks import compatible, parse_tfm, preference
from repotrans.execution.toolchains.msbuild import Project, build_order, find_projects, load_project
from repotrans.execution.toolchains.mstest_compat import is_mstest_assembly
from repotrans.execution.toolchains.package_ids import best_project, project_ids
from repotrans.execution.toolchains.packages import mono_assembly, package_dirs, resolve_packages
from repotrans.execution.toolchains.signing import friend_public_keys, stand_in_key

MONO_TEST_FRAMEWORKS = ("nunit", "mstest")       # MSTest through mstest_compat's layer


@dataclass(frozen=True)
class BuildSettings:
    """What the user can tell the build (--framework, --packages DIR, --project-path DIR): a value
    the CLI builds (execution.settings.ExecutionConfig.build_settings) and the toolchain is made with."""
    framework: str | None = None
    packages: tuple[Path, ...] = ()
    project_paths: tuple[Path, ...] = ()

    def key(self) -> str:
        return repr((self.framework, [str(p) for p in self.packages], [str(p) for p in self.project_paths]))


def in_workspace(settings: BuildSettings, root: Path) -> BuildSettings:
    """The settings with every --project-path folder copied under the workspace root (once), so a
    sandbox that sees only the workspace compiles them (package and HintPath dlls are copied beside
    each build's output instead)."""
    copies = []
    for i, folder in enumerate(settings.project_paths):
        copy = root / "project-path" / f"{i}-{folder.name}"
        stamp = copy / ".repotrans-source"
        if not (stamp.is_file() and stamp.read_text() == str(folder)):
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("bin", "obj", ".git", ".vs"), symlinks=True)
            stamp.write_text(str(folder))
        copies.append(copy)
    return replace(settings, project_paths=tuple(copies))


@dataclass
class Quarantine:
    what: str            # project name, "project:file" or "project -> reference"
    reason: str


@dataclass
class BuildPlan:
    found: list[Project]                  # every project that could be evaluated
    chosen: list[Project]                 # build order: test projects last
    quarantined: list[Quarantine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def tests(self) -> list[Project]:
        return [p for p in self.chosen if p.is_test]


def plan_build(root: Path, toolchain: str, settings: BuildSettings | None = None) -> BuildPlan:
    """Evaluate every project under root and choose what to build (ConfigError when nothing can)."""
    settings = settings or BuildSettings()
    root = root.resolve()
    found: dict[Path, Project] = {}
    quarantined: list[Quarantine] = []
    paths = find_projects(root)
    if not paths:
        raise ConfigError(f"no .csproj file under {root}")
    for extra in settings.project_paths:
        paths += [(p, extra) for p in find_projects(extra)] if extra.is_dir() else []
    for entry in paths:
        path, base = entry if isinstance(entry, tuple) else (entry, root)
        try:
            found[path.resolve()] = load_project(path.resolve(), base, toolchain, settings.framework)
        except ConfigError as exc:
            quarantined.append(Quarantine(path.stem, f"cannot evaluate: {exc}"))
    by_id, id_notes = project_ids(found, [root, *[p for p in settings.project_paths if p.is_dir()]])
    dirs = package_dirs(list(settings.packages))
    planner = _Planner(found, by_id, dirs, toolchain, root, quarantined)
    planner.notes += id_notes
    own = {path for path in found if path.is_relative_to(root)}       # --project-path trees lend code, not tests
    for path in sorted(set(found) - own):
        if found[path].is_test:
            quarantined.append(Quarantine(found[path].name, "a test project under --project-path: it tests that "
                                                            "dependency, not the port"))
    tests = _one_variant_each([p for p in found.values() if p.is_test and p.path in own], toolchain,
                              settings.framework, planner)
    roots = tests or [p for p in found.values() if p.path in own or not p.is_test]
    for project in sorted(roots, key=lambda p: p.path):
        planner.usable(project)
    chosen = {path: planner.ready[path] for path in planner.ready}
    if tests:
        keep = set()
        for t in tests:
            if t.path in chosen:
                keep |= _closure(t.path, chosen)
                for sibling in _runtime_siblings(t.path, chosen, found, planner):
                    keep |= _closure(sibling, planner.ready)
        chosen = {p: planner.ready[p] for p in keep}
    unused = [p for p in found.values() if p.path not in chosen and p.path not in planner.failed
              and (p.path in own or not p.is_test)]
    for p in sorted(unused, key=lambda p: p.path):
        quarantined.append(Quarantine(p.name, p.framework_note if not p.target_framework
                                      else harness_reason(p) or "not needed by any test project"))
    if not chosen:
        why = "; ".join(f"{q.what}: {q.reason}" for q in quarantined if q.reason != "not needed by any test project")
        raise ConfigError(f"nothing under {root} can be built with {toolchain}: {why or 'no buildable project'}")
    return BuildPlan(found=list(found.values()), chosen=build_order(chosen), quarantined=quarantined,
                     notes=planner.notes)


def _runtime_siblings(test: Path, chosen: dict[Path, Project], found: dict[Path, Project], planner) -> list[Path]:
    """Projects the solution builds into the same output folder as the test project or what it
    references, without a reference to them: the tests may load them at run time (a platform
    assembly found beside its caller). Each is built when it can be and copied beside the tests."""
    own = _closure(test, chosen)
    folders = {chosen[p].output_dir for p in own if chosen[p].output_dir is not None}
    siblings = []
    names = {chosen[p].assembly_name.lower() for p in own}          # a variant of one of these is no sibling
    for path, project in sorted(found.items()):
        if path in own or project.is_test or project.output_dir not in folders or \
                project.assembly_name.lower() in names or not compatible(chosen[test].target_framework,
                                                                         project.target_framework or "?"):
            continue
        if planner.usable(project) is not None:
            continue
        theirs = {planner.ready[q].assembly_name.lower(): q for q in _closure(path, planner.ready) if q != path}
        if any(name in names and q not in own for name, q in theirs.items()):
            continue                     # it uses another variant of an assembly the tests already load
        names.add(project.assembly_name.lower())
        siblings.append(path)
        planner.notes.append(f"{chosen[test].name}: {project.name} is built into the same folder "
                             f"({project.output_dir}): built and copied beside the tests")
    if siblings:
        planner.ready[test] = replace(planner.ready[test], runtime_siblings=siblings)
        chosen[test] = planner.ready[test]
    return siblings


def _closure(start: Path, projects: dict[Path, Project]) -> set[Path]:
    seen, stack = set(), [start]
    while stack:
        path = stack.pop()
        if path in seen or path not in projects:
            continue
        seen.add(path)
        stack.extend(projects[path].project_refs)
    return seen


class _Planner:
    """Decides, once per project, whether it can be built; a test project drops what it cannot have."""

    def __init__(self, found, by_id, dirs, toolchain, root, quarantined):
        self.found, self.by_id, self.dirs, self.toolchain, self.root = found, by_id, dirs, toolchain, root
        self.quarantined, self.notes = quarantined, []
        self.ready: dict[Path, Project] = {}
        self.failed: dict[Path, str] = {}
        self.active: set[Path] = set()

    def usable(self, project: Project) -> str | None:
        """None when the project can be built (it is then in self.ready), else why not."""
        if project.path in self.ready:
            return None
        if project.path in self.failed:
            return self.failed[project.path]
        if project.path in self.active:
            return f"project reference cycle through {project.name}"
        self.active.add(project.path)
        try:
            reason = self._check(project)
        finally:
            self.active.discard(project.path)
        if reason:
            self.failed[project.path] = reason
            self.quarantined.append(Quarantine(project.name, reason))
        return reason

    def _check(self, project: Project) -> str | None:
        if not project.target_framework:
            return project.framework_note
        if project.is_test and self.toolchain == "mono" and project.test_framework not in MONO_TEST_FRAMEWORKS:
            kind = project.test_framework or "an unknown test framework"
            return f"{kind} tests need the dotnet toolchain (mono runs NUnit and MSTest only)"
        drops: list[Quarantine] = []
        refs = []

        def project_for(key: str) -> Path | None:
            paths = [p for p in self.by_id.get(key.lower(), []) if p != project.path]
            return best_project(paths, self.found, project.target_framework) if paths else None

        res = resolve_packages(project.package_refs, project.target_framework, self.dirs, project_for,
                               self.toolchain, tuple(project.build_only_packages))
        unresolved = [name for name, _ in project.package_refs
                      if any(line.startswith(f"PackageReference {name} ") for line in res.missing)]
        for line in res.missing:          # built without it: the compiler tells whether it was needed
            drops.append(Quarantine(f"{project.name} -> package", f"{line}; building without it"))
        hinted = []
        for name, hint in project.references:
            if (hint is None or not hint.is_file()) and project_for(name) is not None and \
                    not mono_assembly(name):            # the dll another project of the tree builds
                hinted.append(project_for(name))
                self.notes.append(f"{project.name}: reference {name} is built by {self.found[hinted[-1]].name}")
        for path in list(project.project_refs) + res.projects + hinted:
            dep = self.found.get(path)
            why = f"{path} does not exist or cannot be evaluated" if dep is None else self.usable(dep)
            if why is None:
                refs.append(path)
            elif project.is_test:
                drops.append(Quarantine(f"{project.name} -> {dep.name if dep else path.name}", why))
            else:
                return f"references {dep.name if dep else path.name}, which cannot be built: {why}"
        references = []
        built_here = {self.found[p].assembly_name.lower() for p in hinted}
        for name, hint in project.references:
            if name.lower() in built_here:
                continue
            if self.toolchain == "mono" and is_mstest_assembly(name):
                references.append((name, None))         # never compiled against: the MSTest layer stands in
                continue
            if hint is not None and hint.is_file():
                references.append((name, hint))
            elif name.lower() == "nunit.framework":
                references.append((name, hint))         # absent (packages not restored): its path names NUnit's version
            elif self.toolchain != "mono" or mono_assembly(name) or name.lower() == "mscorlib":
                references.append((name, None))
            elif hint is not None:          # a dll the tree lacks: built without it, the compiler tells
                unresolved.append(name)
                drops.append(Quarantine(f"{project.name} -> {name}", f"assembly {name} is not available on mono "
                                                                       f"({hint} is missing); building without it"))
            else:
                line = f"assembly {name} is not available on mono"
                if not project.is_test:
                    return line
                drops.append(Quarantine(f"{project.name} -> {name}", line))
        self.quarantined += drops
        key_file, sign = project.key_file, project.sign
        if sign and (key_file is None or not key_file.is_file()):
            stand_in = stand_in_key(self.root, self._trusted(project, refs))
            if stand_in:
                self.notes.append(f"{project.name}: key {key_file} is missing; signed with {stand_in}, "
                                  f"which InternalsVisibleTo trusts")
                key_file = stand_in
            else:
                self.notes.append(f"{project.name}: key {key_file} is missing; built unsigned")
                sign = False
        self.notes += [f"{project.name}: {n}" for n in project.notes + res.notes]
        self.ready[project.path] = replace(
            project, project_refs=list(dict.fromkeys(refs)), references=references, sign=sign, key_file=key_file,
            extra_references=[str(a) for a in res.assemblies] + res.framework_refs, unresolved=unresolved)
        return None

    def _trusted(self, project: Project, refs: list[Path]) -> set[str]:
        sources = list(project.sources)
        for path in refs:
            dep = self.ready.get(path)
            if dep:
                sources += dep.sources
        return friend_public_keys(sources)


def _one_variant_each(tests: list[Project], toolchain: str, requested: str | None, planner) -> list[Project]:
    """One test project per assembly: where several project files build the same test assembly (a
    .2008.csproj and a .2010.csproj, one per framework), the one whose framework the toolchain builds
    best (or --framework names); the others are quarantined with the choice and why."""
    groups: dict[str, list[Project]] = {}
    for t in tests:
        groups.setdefault(t.assembly_name.lower(), []).append(t)
    kept = []
    for variants in groups.values():
        if len(variants) == 1:
            kept += variants
            continue
        ranked = sorted(variants, key=lambda p: (
            not (requested and p.target_framework.lower() == requested.lower()),
            preference(parse_tfm(p.target_framework or "?"), toolchain), -len(p.sources), str(p.path)))
        best = ranked[0]
        why = ("--framework" if requested and best.target_framework.lower() == requested.lower()
               else f"the framework {toolchain} builds best of "
                    f"{', '.join(sorted({p.target_framework or '?' for p in variants}))}")
        kept.append(best)
        for other in ranked[1:]:
            reason = (f"another variant of test assembly {best.assembly_name}: {best.path.name} "
                      f"({best.target_framework or '?'}) is run, {why}")
            planner.failed[other.path] = reason
            planner.quarantined.append(Quarantine(other.name, reason))
    return kept


HARNESS = ("a hand-written test harness (an executable with its own Main(), no NUnit, xUnit or MSTest tests): "
           "not run, repotrans judges candidates by NUnit tests only; write its checks as NUnit [Test] methods "
           "in a test project to have them judge candidates")


def harness_reason(project: Project) -> str:
    """Why a test-named executable without a test framework is not run ("" for any other project)."""
    named = re.search(r"test", project.name, re.IGNORECASE) or re.search(r"test", project.assembly_name, re.IGNORECASE)
    if project.test_framework is None and project.output_type.lower() in ("exe", "winexe") and named:
        return HARNESS
    return ""
