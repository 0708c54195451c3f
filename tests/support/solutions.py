"""Small C# solutions written by a test: their files, their project files, and one real build and
test run of them unchanged (baseline, then a candidate that is the file as it is) in a sandbox."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.sandboxes.choice import make_sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, Toolchain, Verdict
from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.toolchains.projects import BuildPlan
from repotrans.execution.workspace.scratch import prepare_workspace

CLASSIC = ('<Project ToolsVersion="4.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003"><PropertyGroup>'
           '<AssemblyName>{name}</AssemblyName><TargetFrameworkVersion>{version}</TargetFrameworkVersion>{properties}'
           '</PropertyGroup><ItemGroup>{refs}<Compile Include="*.cs" /></ItemGroup></Project>')


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> text or bytes) under `root`; returns root."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return root


def sdk(body: str = "", tfm: str = "netstandard2.0") -> str:
    """An SDK-style project file for one target framework."""
    return f'<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>{tfm}</TargetFramework>' \
           f'</PropertyGroup>{body}</Project>'


def classic(name: str, refs: str = "", version: str = "v4.0", properties: str = "") -> str:
    """A classic (ToolsVersion 4.0) project file compiling every .cs file of its folder."""
    return CLASSIC.format(name=name, version=version, properties=properties, refs=refs)


@dataclass
class Judged:
    """The verdict on the unchanged file and the build plan left after the baseline."""
    verdict: Verdict
    plan: BuildPlan


def judge_unchanged(repo: Path, work: Path, rel: str, *, toolchain: Toolchain | None = None, sandbox: str = "local",
                    limits: Limits | None = None) -> Judged:
    """Build `repo` in a scratch workspace under `work`, then run the tests with `rel` as it is (the
    sandbox is closed on every path)."""
    tc = toolchain or MonoToolchain()
    limits = limits or Limits(timeout=120, memory_mb=1024)
    ws = prepare_workspace(repo, work, tc.name)
    box = make_sandbox(sandbox, ws.root.parent, tc.image)
    try:
        tc.baseline(ws, box, limits)
        plan = tc.plan(ws)
        with ws.run_dir() as run_dir:
            cand = PatchedFile(path=rel, text=(ws.src / rel).read_text(), line_map=LineMap(), surface_changed=False,
                               run_dir=run_dir)
            return Judged(tc.run(ws, cand, None, box, limits), plan)
    finally:
        box.close()
