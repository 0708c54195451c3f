"""`repotrans doctor --target DIR`: how repotrans builds a C# repository, and what the untouched
build and test run cost. One section in the doctor's shape: (title, [(ok, line), ...]) where ok is
True, False (a problem) or None (information)."""
from __future__ import annotations

import time
from pathlib import Path

from repotrans.errors import ConfigError
from repotrans.execution.apply import LineMap
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError
from repotrans.execution.toolchains.registry import make_toolchain
from repotrans.execution.toolchains.nunit3_compat import unsupported_features
from repotrans.execution.toolchains.projects import BuildSettings, plan_build
from repotrans.execution.workspace import prepare_workspace

Line = tuple[bool | None, str]
UNNEEDED = "not needed by any test project"
SHOWN_UNNEEDED = 8


def build_section(target: Path, toolchain: str = "mono", sandbox: str = "local", workdir: Path = Path(".repotrans"),
                  timeout: float = 900.0, run_tests: bool = True) -> tuple[str, list[Line]]:
    """Found, chosen and quarantined projects with the reasons, then the untouched baseline build
    and a whole-suite run through the toolchain (the figures a candidate run starts from)."""
    target = Path(target).resolve()
    lines: list[Line] = []
    settings = BuildSettings.from_env()
    try:
        plan = plan_build(target, toolchain, settings)
    except ConfigError as exc:
        return f"build of {target}", [(False, str(exc))]
    tests = plan.tests
    lines.append((None, f"found: {len(plan.found)} projects, {sum(p.is_test for p in plan.found)} of them test "
                        f"projects"))
    for p in plan.chosen:
        kind = f"tests ({p.test_framework}{' ' + str(p.nunit_major) if p.nunit_major else ''})" if p.is_test \
            else "library"
        lines.append((True, f"chosen: {p.name} [{kind}] {p.target_framework or '?'} ({p.framework_note}), "
                            f"{len(p.sources)} files"))
    unneeded = [q.what for q in plan.quarantined if q.reason == UNNEEDED]
    for q in plan.quarantined:
        if q.reason != UNNEEDED:
            lines.append((None, f"quarantined: {q.what}: {q.reason}"))
    if unneeded:
        more = f" and {len(unneeded) - SHOWN_UNNEEDED} more" if len(unneeded) > SHOWN_UNNEEDED else ""
        lines.append((None, f"not built ({UNNEEDED}): {', '.join(unneeded[:SHOWN_UNNEEDED])}{more}"))
    lines += [(None, f"note: {n}") for n in plan.notes]
    for p in tests:
        for feature in unsupported_features(p.sources) if p.nunit_major and p.nunit_major >= 3 else []:
            lines.append((None, f"NUnit 3 on mono: {p.name}: {feature}"))
    if not run_tests:
        return f"build of {target}", lines
    tc = make_toolchain(toolchain)
    ws = prepare_workspace(target, workdir, tc.name)
    from repotrans.execution.sandboxes.choice import make_sandbox

    box = make_sandbox(sandbox, ws.root.parent, tc.image)
    limits = Limits(timeout=timeout, memory_mb=2048)
    started = time.monotonic()
    try:
        tc.baseline(ws, box, limits)
    except TargetBuildError as exc:
        box.close()
        lines.append((False, f"baseline build: {exc}"))
        return f"build of {target}", lines
    built = time.monotonic() - started
    if hasattr(tc, "plan"):
        effective = tc.plan(ws)
        for q in effective.quarantined:
            if ":" in q.what:
                lines.append((None, f"quarantined test file: {q.what.split(':', 1)[1]}: {q.reason}"))
        tests = effective.tests
    lines.append((True, f"baseline build (untouched): {built:.1f} s"))
    lib = next((p for p in (tc.plan(ws).chosen if hasattr(tc, "plan") else plan.chosen) if not p.is_test
                and p.sources), None)
    if lib is None or not tests:
        box.close()
        lines.append((False, "no library compiled by a test project's references: nothing to run"))
        return f"build of {target}", lines
    rel = lib.sources[0].relative_to(ws.src.resolve()).as_posix()
    try:
        with ws.run_dir() as run_dir:
            cand = PatchedFile(path=rel, text=(ws.src / rel).read_text(encoding="utf-8"), line_map=LineMap(),
                             surface_changed=False, run_dir=run_dir)
            verdict = tc.run(ws, cand, None, box, limits)
    finally:
        box.close()
    passed = verdict.tests_run - verdict.tests_failed
    lines.append((verdict.tests_run > 0, f"untouched run: rebuild {lib.name} {verdict.timings.get('build', 0):.1f} s, "
                                         f"all tests {verdict.timings.get('test', 0):.1f} s: {verdict.tests_run} run, "
                                         f"{passed} passed, {verdict.tests_failed} failing before any change"
                                         + (f" ({verdict.reason})" if verdict.reason else "")))
    return f"build of {target}", lines


def render(title: str, lines: list[Line]) -> str:
    out = [f"{title}:"]
    out += [f"  [{'ok' if ok else '..' if ok is None else '!!'}] {line}" for ok, line in lines]
    return "\n".join(out)
