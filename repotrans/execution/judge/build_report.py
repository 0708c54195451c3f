"""`repotrans doctor --target DIR`: how repotrans builds a C# repository, and what the untouched
build and test run give. One section in the doctor's shape: (title, [(ok, line), ...]) where ok is
True, False (a problem) or None (information).

Honest by construction: a project is `[ok] built` only when the baseline compiled it; a project
dropped at build, or quarantined while a test project needs it, is `[!!]` with its first compiler
error or reason; each test project gets its test count as written in its files, as built (the
files that compile here) and as run."""
from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.judge.baseline import BaselineCache, PortBaseline, port_baseline
from repotrans.execution.judge.runner import Runner
from repotrans.execution.judge.untouched import _test_files as test_files, own_sources as _own, run_causes, untouched_runs
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError
from repotrans.execution.toolchains.api import (BLOCKED, reference_profile, Project, alias_patterns, write_known_failures,
                                                probe_aliases, unsupported_features, BuildPlan, plan_build,
                                                mstest_features)
from repotrans.execution.workspace.apply import LineMap

Line = tuple[bool | None, str]
UNNEEDED = "not needed by any test project"
SHOWN_UNNEEDED = 8
# one test as written: [Test], [TestCase(...)] (each case), [TestCaseSource], [Theory], [Fact]
TEST_ATTR_RE = re.compile(r"[\[,]\s*(?:NUnit\.Framework\.)?(Test|TestCase|TestCaseSource|Theory|Fact|TestMethod|DataRow)\s*[\]\(,]")


def count_tests(files: list[Path]) -> int:
    """Tests as written in these files (a [TestCaseSource] counts once: its cases are known at run time)."""
    total = 0
    for path in files:
        try:
            total += len(TEST_ATTR_RE.findall(path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return total


def build_section(target: Path, execution: ExecutionConfig = ExecutionConfig(sandbox="local"),
                  workdir: Path = Path(".repotrans"), timeout: float = 900.0,
                  run_tests: bool = True, cache_root: Path | None = None) -> tuple[str, list[Line]]:
    """Found, chosen and quarantined projects with the reasons, then the untouched baseline build
    (what it built and what it dropped) and a run of every test project through the toolchain, all
    with the `execution` settings (toolchain, sandbox, build settings). With `cache_root`, the untouched runs
    are the per-machine baseline's (judge.baseline): only test assemblies whose content changed run."""
    target = Path(target).resolve()
    title = f"build of {target}"
    try:
        plan = plan_build(target, execution.toolchain, execution.build_settings())
    except ConfigError as exc:
        return title, [(False, str(exc))]
    lines: list[Line] = [(None, f"found: {len(plan.found)} projects, {sum(p.is_test for p in plan.found)} of them "
                                f"test projects")]
    needed = {p.name for p in plan.chosen}
    for q in plan.quarantined:
        if q.reason == UNNEEDED:
            continue
        head = q.what.split(" -> ")[0]
        building_without = q.reason.endswith("building without it")
        problem = not building_without and not _run_as_another_variant(q.what, plan) and (
            head in needed or q.what in needed or any(p.name == q.what and p.is_test for p in plan.found))
        lines.append((False if problem else None, f"quarantined: {q.what}: {q.reason}"))
    unneeded = [q.what for q in plan.quarantined if q.reason == UNNEEDED]
    if unneeded:
        more = f" and {len(unneeded) - SHOWN_UNNEEDED} more" if len(unneeded) > SHOWN_UNNEEDED else ""
        lines.append((None, f"not built ({UNNEEDED}): {', '.join(unneeded[:SHOWN_UNNEEDED])}{more}"))
    lines += [(None, f"note: {n}") for n in plan.notes]
    if execution.toolchain == "mono":
        for p in plan.chosen:
            profile, why = reference_profile(p.target_framework)
            lines.append((None, f"reference profile: {p.name}: mcs -sdk:{profile} ({why})"))
    for p in plan.chosen:
        if p.copied:
            shown = ", ".join(dest for _, dest in p.copied[:SHOWN_UNNEEDED])
            more = f" and {len(p.copied) - SHOWN_UNNEEDED} more" if len(p.copied) > SHOWN_UNNEEDED else ""
            lines.append((None, f"copied beside {p.assembly_name} as its build does: {shown}{more}"))
    for p in plan.tests:
        for feature in unsupported_features(p.sources) if p.nunit_major and p.nunit_major >= 3 else []:
            lines.append((None, f"NUnit 3 on mono: {p.name}: {feature}"))
        if p.test_framework == "mstest" and execution.toolchain == "mono":
            lines.append((None, f"MSTest on mono: {p.name}: run by NUnit 2.6 through repotrans's MSTest layer"))
            lines += [(None, f"MSTest on mono: {p.name}: {feature}") for feature in mstest_features(p.sources)]
    patterns = list(dict.fromkeys(pattern for p in plan.tests if p.nunit_major and p.nunit_major >= 3
                                  for pattern in alias_patterns(p.sources)))
    if patterns and execution.toolchain == "mono":
        for pattern, error in probe_aliases(patterns, Path(workdir) / "nunit3-probe").items():
            lines.append((not error or False, f"NUnit 3 on mono: `{pattern}` "
                                              + (f"does not compile with the layer: {error}" if error else "compiles")))
    if not run_tests:
        lines += [(True, f"chosen: {_describe(p)}") for p in plan.chosen]
        lines += [(None, f"tests: {p.name}: {count_tests(_own(p))} as written in {len(_own(p))} files (not built: "
                         f"--no-run)") for p in plan.tests]
        return title, lines
    with Runner(execution, workdir, trusted=True) as runner:     # the untouched port's own code
        return title, lines + _baseline_and_run(target, plan, runner, timeout, cache_root)


def _baseline_and_run(target: Path, plan: BuildPlan, runner: Runner, timeout: float,
                      cache_root: Path | None = None) -> list[Line]:
    lines: list[Line] = []
    tc = runner.toolchain
    limits = replace(runner.limits, timeout=timeout, memory_mb=2048, per_project=True)
    started = time.monotonic()
    try:
        ws = runner.baseline(target, limits)
    except TargetBuildError as exc:
        lines += [(False, f"dropped at build: {_describe(p)}") for p in plan.chosen]
        lines.append((False, f"baseline build: {exc}"))
        lines += [(False, f"tests: {p.name}: {count_tests(_own(p))} as written, 0 built (no test project builds)")
                  for p in plan.tests]
        return lines
    built_seconds = time.monotonic() - started
    box = runner.sandbox(ws)
    effective = tc.plan(ws)
    built = {p.name: p for p in effective.chosen}
    dropped = {q.what: q.reason for q in effective.quarantined if ":" not in q.what}
    for p in plan.chosen:
        if p.name in built:
            lines.append((True, f"built: {_describe(built[p.name])}"))
        else:
            lines.append((False, f"dropped at build: {_describe(p)}: {dropped.get(p.name, 'not built')}"))
    for q in effective.quarantined:
        if ":" in q.what:
            project, rel = q.what.split(":", 1)
            tests = count_tests([target / rel])
            lines.append((None, f"quarantined test file: {project}: {rel} ({tests} tests): {q.reason}"))
    lines.append((True, f"baseline build (untouched): {built_seconds:.1f} s"))
    runs: dict[str, tuple[str, int, int, str]] = {}
    tests = [p for p in effective.chosen if p.is_test]
    if tests and cache_root is not None:
        lines += _from_baseline(port_baseline(runner, target, BaselineCache.under(cache_root), timeout), runs,
                                ws.root.parent / "known-failures.tsv")
    elif tests:
        lines += _run_all(tc, ws, effective.chosen, tests, box, limits, runs)
    else:
        lines.append((False, "no test project was built: nothing to run"))
    for p in plan.tests:
        written = count_tests(_own(p))
        if p.name not in built:
            lines.append((False, f"tests: {p.name}: {written} as written, 0 built (the project was dropped at build)"))
            continue
        compiled = count_tests(_own(built[p.name]))
        status, run, failed, reason = runs.get(p.name, ("not run", 0, 0, "no untouched run reached it"))
        lines.append((_run_mark(status, run, compiled),
                      f"tests: {p.name}: {written} as written, {compiled} built, {run} run, {run - failed} passed"
                      + (f" ({status}: {reason or 'no reason given'})" if status not in ("passed", "test_failure")
                         else f" ({reason})" if reason else "")))
    return lines


def _run_as_another_variant(name: str, plan: BuildPlan) -> bool:
    """Whether the test project `name` was left out for another project building the same test assembly, which is
    built and run (a port shipping a net35 and an SDK variant of its tests): expected, no problem."""
    chosen = {p.path for p in plan.chosen}
    left = [p for p in plan.found if p.name == name and p.is_test and p.path not in chosen]
    return bool(left) and all(any(c.is_test and c.assembly_name.lower() == p.assembly_name.lower()
                                  for c in plan.chosen) for p in left)


def _run_mark(status: str, run: int, compiled: int) -> bool | None:
    """[ok] only for a run that passed; tests that ran and failed before any change (the port's own
    failures), or a run stopped at the limit: information; nothing ran although tests were built: a problem."""
    if status == "passed" and run > 0:
        return True
    if run > 0:
        return None
    return None if status in ("no_tests", "not run") and compiled == 0 else False


def _run_all(tc, ws, chosen: list[Project], tests: list[Project], box, limits: Limits,
             runs: dict[str, tuple[str, int, int, str]]) -> list[Line]:
    """Run every built test project once, untouched: rebuild a library each needs (the one most test
    projects depend on first) and run the tests that depend on it, until every test project ran."""
    lines: list[Line] = []
    excluded: dict[str, str] = {}
    failing: dict[str, str] = {}
    files = {p.name: test_files(ws, p) for p in tests}
    for lib, ran, verdict in untouched_runs(tc, ws, chosen, tests, box, limits):
        if lib is None:
            why = "no source file of it or of a library it references to rebuild"
            lines.append((False, f"not run: {', '.join(sorted(ran))}: {why}"))
            runs.update({name: ("not run", 0, 0, why) for name in ran})
            break
        runs.update({k: v for k, v in verdict.by_project.items() if k in ran})
        if not set(verdict.by_project) & ran:
            runs.update({name: (verdict.status, 0, 0, verdict.reason) for name in ran})
        lines.append((_run_mark(verdict.status, verdict.tests_run, 0) if verdict.tests_run else False,
                      f"untouched run: rebuild {lib.name} {verdict.timings.get('build', 0):.1f} s, tests of "
                      f"{len(set(verdict.by_project) & ran)} project(s) {verdict.timings.get('test', 0):.1f} s: "
                      f"{verdict.tests_run} run, {verdict.tests_run - verdict.tests_failed} passed, "
                      f"{verdict.tests_failed} failing before any change"
                      + (f" ({verdict.status}: {verdict.reason})" if verdict.reason else "")))
        excluded.update(verdict.excluded)
        projects = [name for name in verdict.by_project if name in files]
        for key, why in run_causes(tc, ws, lib, verdict, projects, files, box, limits).items():
            failing.setdefault(key, why)
    return lines + failing_lines(failing, ws.root.parent / "known-failures.tsv") + excluded_lines(excluded)


def _from_baseline(base: PortBaseline, runs: dict[str, tuple[str, int, int, str]], record: Path) -> list[Line]:
    """The untouched runs as the per-machine baseline holds them (judge.baseline)."""
    excluded: dict[str, str] = {}
    for name, found in base.assemblies.items():
        runs[name] = (found.status, found.tests_run, found.tests_failed, found.reason)
        excluded.update(found.excluded)
    ran = sum(a.tests_run for a in base.assemblies.values())
    lines: list[Line] = [(None, f"untouched runs: {len(base.computed)} of {len(base.assemblies)} test assemblies run "
                                f"now, the rest unchanged since their baseline was cached ({base.seconds:.1f} s; "
                                f"{ran} tests, {sum(a.run_seconds for a in base.assemblies.values()):.1f} s when run)")]
    return lines + failing_lines(base.known_failures, record) + excluded_lines(excluded)


def failing_lines(failing: dict[str, str], record: Path | None = None) -> list[Line]:
    """Every test the untouched runs count as failing before any change, each named once with its cause
    (judge.untouched.run_causes), after a line counting them by cause; with `record`, those that cannot
    judge a candidate (all but the ones blocked by untranslated code) written there for --known-failures."""
    if not failing:
        return []
    kinds: dict[str, int] = {}
    for why in failing.values():
        kind = why.split(" (", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    counted = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    lines: list[Line] = [(None, f"failing before any change: {len(failing)} tests ({counted})")]
    lines += [(None, f"failing before any change: {key.split(':', 1)[-1]}: {why}") for key, why in sorted(failing.items())]
    known = {k: why for k, why in failing.items() if not why.startswith(BLOCKED)}
    if record is not None and known:
        write_known_failures(record, known)
        lines.append((None, f"{len(known)} of them written to {record}: batch and sync leave them out of their "
                            f"verdicts (the same baseline, cached); pass --known-failures {record} to translate or "
                            f"run-tests to leave them out there too (those blocked by untranslated code judge the "
                            f"members they wait for)"))
    return lines


SHOWN_EXCLUDED = 12


def excluded_lines(excluded: dict[str, str]) -> list[Line]:
    """The tests the suite says not to run, each listed once under the attribute that leaves it out
    ("[Explicit]", '[Category("Integration")] on Ns.Fixture'; [execution] exclude_categories)."""
    if not excluded:
        return []
    by_why: dict[str, list[str]] = {}
    for key, why in sorted(excluded.items()):
        by_why.setdefault(why or "?", []).append(key.split(":", 1)[-1])
    lines: list[Line] = [(None, f"left out of every run, the suite says not to run them: {len(excluded)} tests "
                                f"([Explicit], [Ignore], [execution] exclude_categories)")]
    for why, names in sorted(by_why.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        more = f" and {len(names) - SHOWN_EXCLUDED} more" if len(names) > SHOWN_EXCLUDED else ""
        lines.append((None, f"excluded by {why}: {len(names)}: {', '.join(names[:SHOWN_EXCLUDED])}{more}"))
    return lines


def _describe(p: Project) -> str:
    kind = f"tests ({p.test_framework}{' ' + str(p.nunit_major) if p.nunit_major else ''})" if p.is_test \
        else "library"
    return f"{p.name} [{kind}] {p.target_framework or '?'} ({p.framework_note}), {len(p.sources)} files"


def render(title: str, lines: list[Line]) -> str:
    out = [f"{title}:"]
    out += [f"  [{'ok' if ok else '..' if ok is None else '!!'}] {line}" for ok, line in lines]
    return "\n".join(out)
