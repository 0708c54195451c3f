"""Small C# repositories a test writes and has judged for real: mcs builds them and repotrans's NUnit
runner runs their tests in a sandbox, through the mono toolchain's baseline and candidate runs."""
from __future__ import annotations

import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from repotrans.verdicts.results import TestResult
from repotrans.execution.sandboxes.choice import make_sandbox
from repotrans.execution.toolchains import Limits, PatchedFile
from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.workspace.scratch import Workspace, prepare_workspace

LIMITS = Limits(timeout=120, memory_mb=1024)


def sdk_project(items: str = "", framework: str = "net48") -> str:
    """An SDK-style project file for `framework` holding `items`."""
    return (f'<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>{framework}</TargetFramework>'
            f'</PropertyGroup>{items}</Project>')


def nunit_tests_of_core(framework: str = "net48") -> str:
    """The test project at tests/T: NUnit 2.6 and a reference to src/Core/Core.csproj."""
    return sdk_project('<ItemGroup><PackageReference Include="NUnit" Version="2.6.4" /><ProjectReference '
                       'Include="../../src/Core/Core.csproj" /></ItemGroup>', framework)


def core_and_tests(core: dict[str, str], tests: dict[str, str]) -> dict[str, str]:
    """A port of one library (src/Core, SDK-style) and its NUnit test project (tests/T): `core` and
    `tests` map a file name inside each project to its text."""
    files = {"src/Core/Core.csproj": sdk_project(), "tests/T/T.csproj": nunit_tests_of_core()}
    files.update({f"src/Core/{name}": text for name, text in core.items()})
    files.update({f"tests/T/{name}": text for name, text in tests.items()})
    return files


def with_body(files: dict[str, str], path: str, body: str) -> dict[str, str]:
    """`files` with `body` put into the '%s' slot of the file at `path`."""
    return {rel: text % body if rel == path else text for rel, text in files.items()}


def needs_mono() -> None:
    """Skip the calling test where mono's compiler is not installed."""
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text) under `root`; return `root`."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@dataclass
class Judging:
    """A built baseline and the sandbox its candidates run in."""
    toolchain: MonoToolchain
    workspace: Workspace
    sandbox: object
    limits: Limits

    def run(self, rel: str, text: str, tests: list[str] | None = None, run_dir: Path | None = None) -> TestResult:
        """Judge the file `rel` with the content `text` on `tests` (None: the covering default), in
        `run_dir` (None: a run folder of its own, gone on return)."""
        if run_dir is None:
            with self.workspace.run_dir() as own:
                return self.run(rel, text, tests, own)
        candidate = PatchedFile(path=rel, text=text, line_map=LineMap(), surface_changed=False, run_dir=run_dir)
        return self.toolchain.run(self.workspace, candidate, tests, self.sandbox, self.limits)

    def original(self, rel: str) -> str:
        """The file `rel` as the repository has it."""
        return (self.workspace.src / rel).read_text()


@contextmanager
def judging(repo: Path, work: Path, limits: Limits = LIMITS, sandbox: str = "local",
            baseline: bool = True) -> Iterator[Judging]:
    """The repository at `repo` copied into `work`, its baseline built (unless `baseline` is False), in a
    `sandbox` closed on leaving."""
    toolchain = MonoToolchain()
    workspace = prepare_workspace(repo, work, toolchain.name)
    box = make_sandbox(sandbox, workspace.root.parent, toolchain.image)
    try:
        if baseline:
            toolchain.baseline(workspace, box, limits)
        yield Judging(toolchain, workspace, box, limits)
    finally:
        box.close()


def judged_port(root: Path, sandbox: str, core: dict[str, str], tests: dict[str, str],
                image: str = "repotrans/mono:bookworm"):
    """A module fixture's body: the port (core_and_tests) written under `root`, indexed with an empty Java side,
    and Runners for `sandbox` (docker: the engine and `image` are required); yields (index, runners), closes both."""
    from repotrans.index.store import Index
    from tests.support.runners import Runners

    needs_mono()
    if sandbox == "docker":
        try:
            import docker
            docker.from_env().images.get(image)
        except Exception as exc:
            pytest.fail(f"docker tests need the engine and {image}: {exc}", pytrace=False)
    target = write_tree(root / "port", core_and_tests(core, tests))
    (root / "java").mkdir()
    (root / "java" / "A.java").write_text("class A {}\n")
    index = Index.open(root / "wd")
    index.build(root / "java", target, progress=False)
    with Runners(root / "wd", sandbox=sandbox, timeout=60.0, memory_mb=1024) as runners:
        yield index, runners
    index.close()


SANDBOXES = [pytest.param("local", marks=pytest.mark.slow), pytest.param("docker", marks=pytest.mark.docker)]


def port_fixture(prefix: str, core: dict[str, str], tests: dict[str, str]):
    """A module-scoped fixture `env`, once per sandbox of SANDBOXES: judged_port of `core` and `tests`
    (index, runners) under a fresh folder named after `prefix` and the sandbox."""
    @pytest.fixture(scope="module", params=SANDBOXES)
    def env(request, tmp_path_factory):
        yield from judged_port(tmp_path_factory.mktemp(f"{prefix}-{request.param}"), request.param, core, tests)
    return env


def only_method(index, name: str):
    """The one target method called `name` (Type.Member) in `index`."""
    [m] = index.find_methods("target", name)
    return m
