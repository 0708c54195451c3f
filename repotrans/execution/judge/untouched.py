"""The untouched port's whole suite: every built test project run once with nothing changed (doctor's
untouched run), and what fails there, with its cause, as the tests known to fail before any change (a
dataset's record, left out of every verdict: toolchains.environment). The tests that failed, and a sample of
those that passed, run again in the reverse order: a test whose outcome flips is flaky, named as such and
left out of every verdict, passing or failing."""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Iterator

from repotrans.execution.toolchains import Limits, PatchedFile, Verdict
from repotrans.execution.toolchains.api import BLOCKED, NOT_RUN, Project, before_any_change, flips
from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.workspace.scratch import Workspace


def untouched_runs(tc, ws: Workspace, chosen: list[Project], tests: list[Project], box,
                   limits: Limits) -> Iterator[tuple[Project | None, set[str], Verdict | None]]:
    """Run every built test project once, untouched: rebuild a library each needs (the one most test
    projects depend on first) and run the tests that depend on it, until every test project ran. Yields
    (the library rebuilt, the test projects that run was for, its verdict); (None, the rest, None) when no
    library is left to rebuild."""
    left = {t.name for t in tests}
    while left:
        lib = library_for(chosen, left)
        if lib is None:
            yield None, set(left), None
            return
        verdict = untouched_run(tc, ws, lib, None, box, limits)
        meant = (dependent_tests(chosen, lib) & left) or set(left)
        yield lib, meant, verdict
        left -= meant | set(verdict.by_project)


def untouched_run(tc, ws: Workspace, lib: Project, tests: list[str] | None, box, limits: Limits) -> Verdict:
    """The tests (None: all) of the test projects depending on `lib`, with `lib` rebuilt untouched."""
    rel = (own_sources(lib) or lib.sources)[0].relative_to(ws.src.resolve()).as_posix()
    with ws.run_dir() as run_dir:
        cand = PatchedFile(path=rel, text=(ws.src / rel).read_text(encoding="utf-8", errors="replace"),
                           line_map=LineMap(), surface_changed=False, run_dir=run_dir)
        return tc.run(ws, cand, tests, box, limits)


def known_failures(runner, target: Path, timeout: float) -> dict[str, str]:
    """Tests failing on the untouched port at `target` ("Project:Ns.Fixture.Test" -> their cause: run_causes),
    from one run of every test project with `runner` (the tests the suite says not to run left out as always)
    and one more of its failing tests and a sample of its passing ones (flipping); {} when nothing builds."""
    limits = replace(runner.limits, timeout=timeout, per_project=True, known_failures=())
    ws = runner.baseline(target, limits)
    plan = runner.toolchain.plan(ws)
    tests = [p for p in plan.chosen if p.is_test]
    by_name = {p.name: p for p in tests}
    files = {p.name: _test_files(ws, p) for p in tests}
    found: dict[str, str] = {}
    box = runner.sandbox(ws)
    for lib, _, verdict in untouched_runs(runner.toolchain, ws, plan.chosen, tests, box, limits):
        if verdict is None:
            break
        ran = [name for name in verdict.by_project if name in by_name]
        for key, why in run_causes(runner.toolchain, ws, lib, verdict, ran, files, box, limits).items():
            if key not in found and not any(k.endswith(":" + key.split(":", 1)[1]) for k in found):
                found[key] = why
    return found


def run_causes(tc, ws: Workspace, lib: Project, verdict: Verdict, ran: list[str], files: dict[str, frozenset[str]],
               box, limits: Limits) -> dict[str, str]:
    """Every test one untouched run counts as failing before any change, with its cause ("Project:Ns.F.T" ->
    why: blocked by untranslated code, an environmental cause, the test's own code, the assertion or exception
    it shows, or that it did not run here), and every test whose outcome flips when run again (flipping)."""
    found = dict(verdict.left_out)
    for failure in verdict.failures:
        project = _project_of(failure.stack, ran, files)
        if not any(key.endswith(":" + failure.name) for key in found):
            found[f"{project}:{failure.name}"] = before_any_change(failure, files.get(project, frozenset()))
    blocked = {key.split(":", 1)[1] for key, why in found.items() if why.startswith(BLOCKED)}   # fail again
    for name, why in flipping(tc, ws, lib, verdict, ran, box, limits, skip=blocked).items():
        key = next((k for k in found if k.endswith(":" + name)), f"{ran[0] if len(ran) == 1 else ''}:{name}")
        found[key] = why
    return found


FLAKE_SAMPLE = 24       # passing tests of one untouched run that run again (spread over the suite's order)


def flipping(tc, ws: Workspace, lib: Project, verdict: Verdict, projects: list[str], box,
             limits: Limits, skip: set[str] = frozenset()) -> dict[str, str]:
    """The tests of one untouched run whose outcome flips when the failing ones (but those in `skip`: blocked
    by untranslated code), and a sample of the passing ones, run again in one more run, every suite in the
    reverse order: runner test name -> why (environment.flips). A test that did not run here is no outcome."""
    failed = {f.name for f in verdict.failures} | {k.split(":", 1)[1] for k, why in verdict.left_out.items()
                                                   if NOT_RUN not in why}
    failed -= skip
    passed = sorted(name for name, state in verdict.ran.items() if state == "Success" and name not in failed)
    sample = passed[::max(1, math.ceil(len(passed) / FLAKE_SAMPLE))]
    names = sorted(failed) + sample
    if not names or not projects:
        return {}
    again = untouched_run(tc, ws, lib, [f"{p}:{n}" for p in projects for n in names], box,
                          replace(limits, reverse_order=True))
    failed_again = {f.name for f in again.failures} | {k.split(":", 1)[1] for k, why in again.left_out.items()
                                                       if NOT_RUN not in why}
    found = {name: flips("failed", "passed") for name in failed if again.ran.get(name) == "Success"}
    found.update({name: flips("passed", "failed") for name in sample if name in failed_again})
    return found


def _project_of(stack: list[str], ran: list[str], files: dict[str, frozenset[str]]) -> str:
    """The test project a failure belongs to: the only one that ran, else the one whose file its stack names
    ("" when none tells: toolchains.mono_test matches such a key in any project)."""
    if len(ran) == 1:
        return ran[0]
    for frame in stack:
        for name in ran:
            if any(f" at {path}:" in frame for path in files[name]):
                return name
    return ""


def _test_files(ws: Workspace, project: Project | None) -> frozenset[str]:
    if project is None:
        return frozenset()
    src = ws.src.resolve()
    return frozenset(p.resolve().relative_to(src).as_posix() for p in project.sources if p.resolve().is_relative_to(src))


def library_for(chosen: list[Project], wanted: set[str]) -> Project | None:
    """The library with sources that most of the wanted test projects depend on (then the smallest);
    else a wanted test project with sources of its own (library and tests in one project)."""
    libs = [p for p in chosen if not p.is_test and p.sources]
    scored = [(len(dependent_tests(chosen, lib) & wanted), -len(lib.sources), lib) for lib in libs]
    scored = [s for s in scored if s[0] > 0]
    if scored:
        return max(scored, key=lambda s: (s[0], s[1]))[2]
    return next((p for p in chosen if p.name in wanted and own_sources(p)), None)


def dependent_tests(chosen: list[Project], lib: Project) -> set[str]:
    """The test projects that reference `lib`, directly or through other projects."""
    reach = {lib.path}
    grew = True
    while grew:
        grew = False
        for p in chosen:
            if p.path not in reach and reach & set(p.project_refs):
                reach.add(p.path)
                grew = True
    return {p.name for p in chosen if p.is_test and p.path in reach}


def own_sources(project: Project) -> list[Path]:
    """A project's sources inside its own folder (not linked in from elsewhere): Project.own_sources."""
    return project.own_sources
