"""The one build primitive (toolchains.api.compile_projects) on the sample port, with real mcs on the
host: projects in order, a file swap, an extra source, the first project that fails named."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.sandboxes import RunOutcome
from repotrans.execution.toolchains import Limits
from repotrans.execution.toolchains.api import HostCompiler, compile_projects, parse_mcs, plan_build
from repotrans.execution.workspace.scratch import Workspace

SAMPLE = Path(__file__).resolve().parents[3] / "datasets" / "sample" / "csharp"
pytestmark = pytest.mark.skipif(shutil.which("mcs") is None, reason="mcs not installed")
LIMITS = Limits(timeout=0, memory_mb=0, build_timeout=300)


def _plan(tmp_path: Path):
    target = tmp_path / "port"
    shutil.copytree(SAMPLE, target)
    projects = plan_build(target, "mono").chosen
    (tmp_path / "ws").mkdir()
    return Workspace(tmp_path / "ws", target, "t"), projects


def test_builds_every_project_in_order_with_dependencies_staged(tmp_path: Path) -> None:
    ws, projects = _plan(tmp_path)
    build = compile_projects(ws, HostCompiler(), LIMITS, projects, projects, tmp_path / "out")
    assert build.ok and build.failed is None and build.answers is None
    assert list(build.built) == [p.name for p in projects]
    tests = next(p for p in projects if p.is_test)
    library = next(p for p in projects if not p.is_test)
    staged = build.built[tests.name]
    assert (staged / tests.dll_name).is_file() and (staged / library.dll_name).is_file()


def test_a_swap_and_an_extra_source_are_compiled_and_a_failure_names_its_project(tmp_path: Path) -> None:
    ws, projects = _plan(tmp_path)
    library = next(p for p in projects if not p.is_test)
    original = next(s for s in library.sources if s.name == "GeometryMath.cs")
    broken = tmp_path / "swapped" / "GeometryMath.cs"
    broken.parent.mkdir()
    broken.write_text(original.read_text(encoding="utf-8-sig") + "\nclass Broken { int X() { return \"no\"; } }\n")
    extra = tmp_path / "Extra.cs"
    extra.write_text("namespace Acme.Extra { public static class Added { public static int One() { return 1; } } }\n")
    build = compile_projects(ws, HostCompiler(), LIMITS, projects, [library], tmp_path / "out",
                             swap={original.resolve(): broken}, extra={library.path: [extra]})
    assert not build.ok and build.failed == library and build.built == {} and not build.timed_out
    errors = [d for d in parse_mcs(build.output, ws, None) if d.severity == "error"]
    assert [d.code for d in errors] == ["CS0029"] and errors[0].file.endswith("swapped/GeometryMath.cs")
    fine = compile_projects(ws, HostCompiler(), LIMITS, projects, [library], tmp_path / "out2",
                            extra={library.path: [extra]})
    assert fine.ok and list(fine.built) == [library.name]
    assert b"Acme.Extra\0" in (fine.built[library.name] / library.dll_name).read_bytes()    # the extra's namespace


class _Silent(HostCompiler):
    """The host compiler behind a machine that fails the first `times` commands without a word (exit 1,
    nothing printed), as a compiler or sandbox that did not start does."""

    def __init__(self, times: int):
        self.times, self.calls = times, 0

    def run(self, argv, **kwargs):
        self.calls += 1
        if self.calls <= self.times:
            return RunOutcome(argv, 1, "", 0.01)
        return super().run(argv, **kwargs)


def test_a_compile_that_fails_without_a_word_is_run_once_more(tmp_path: Path) -> None:
    ws, projects = _plan(tmp_path)
    library = next(p for p in projects if not p.is_test)
    once = _Silent(1)
    build = compile_projects(ws, once, LIMITS, projects, [library], tmp_path / "out")
    assert build.ok and once.calls == 2                        # the real compile ran the second time
    always = _Silent(5)
    build = compile_projects(ws, always, LIMITS, projects, [library], tmp_path / "out2")
    assert not build.ok and build.failed == library and always.calls == 2 and build.output == ""
