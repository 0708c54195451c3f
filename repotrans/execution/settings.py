"""Execution settings as one value: toolchain, sandbox, limits, test scope and what the user tells
the build (--framework, --packages, --project-path). Checked up front (before any model call); the
CLI builds it once (file < environment < flags) and every layer below receives it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING

from repotrans.errors import ConfigError
from repotrans.execution.defaults import DEFAULT_EXCLUDED
from repotrans.execution.sandboxes import SANDBOXES
from repotrans.execution.toolchain_registry import TOOLCHAINS, toolchain_spec

if TYPE_CHECKING:           # the command line reads this module for its help: it imports no toolchain
    from repotrans.execution.toolchains.api import BuildSettings

SCOPES = ("covering", "all")
CLOCKS = ("cpu", "wall")
MIN_MEMORY_MB = 256           # mono itself needs about 200 MB of address space
MAX_TIMEOUT = 24 * 3600.0


@dataclass(frozen=True)
class ExecutionConfig:
    toolchain: str = "mono"
    sandbox: str = "auto"                 # docker when an engine answers; local only for builtin or by name
    timeout: float = 60.0                 # seconds for a test run
    memory_mb: int = 1024
    scope: str = "covering"
    framework: str | None = None          # target framework for multi-targeting projects (--framework)
    packages: tuple[str, ...] = ()        # local NuGet folders, in lookup order (--packages, $NUGET_PACKAGES)
    project_paths: tuple[str, ...] = ()   # folders of projects standing in for PackageReferences (--project-path)
    # test categories left out of every selection, baseline and whole-suite run, even when a selection names
    # the test ([Category] on a test or its fixture in NUnit 2/3, [TestCategory] in MSTest; case aside). Tests
    # marked [Explicit] or [Ignore] (on them or their fixture) are always left out. `doctor --target` lists
    # each test left out with the attribute that leaves it out.
    exclude_categories: tuple[str, ...] = DEFAULT_EXCLUDED
    test_timeout: float = 120.0           # seconds one test may run before it fails alone (0: no limit)
    # what `timeout` counts in a test run: the CPU seconds of all its processes (the same on a busy
    # machine as on a quiet one; a wall-clock backstop for hangs, sandboxes.backstop), where the
    # sandbox counts them (local with cgroups), else wall seconds; "wall": always wall seconds
    clock: str = "cpu"
    # candidates pending at once (batch's and ablate's workers, re-judging, the combined check) share one
    # compile behind switches where sound (execution.judge.batching); off: every candidate built alone
    batch_candidates: bool = False
    # tests known to fail on the untouched port: ("Project:Ns.Fixture.Test", why) pairs (--known-failures FILE,
    # or a dataset's record): left out of verdicts when they fail, named
    known_failures: tuple[tuple[str, str], ...] = ()
    # the per-machine cache of untouched baselines (<[cache] root>/baselines; judge.baseline), and a complete
    # port whose cached baseline gives a judge on a masked copy of it each test's measured seconds (ablate on a
    # dataset): its runs are then planned and limited from them (toolchains.test_runs); nothing is run for it
    baseline_cache: str | None = None
    measured_from: str | None = None
    # test processes one candidate's covering selection may run at once (its planned runs side by side, the
    # verdict the same: toolchains.test_runs); 0: one per core the command's other jobs leave (the command
    # resolves it, cli.options.resolve_test_processes; a judge given 0 runs one)
    test_processes: int = 0

    def build_settings(self) -> "BuildSettings":
        from repotrans.execution.toolchains.api import BuildSettings

        return BuildSettings(self.framework, tuple(Path(p) for p in self.packages),
                             tuple(Path(p) for p in self.project_paths))

    def check(self) -> None:
        """ConfigError with one line for the first bad value."""
        check_execution(self.toolchain, self.sandbox, self.timeout, self.memory_mb, self.scope)
        if self.test_processes < 0:
            raise ConfigError(f"execution.test_processes (--test-processes) must be 0 (one per idle core) or more, "
                              f"not {self.test_processes}")
        if self.clock not in CLOCKS:
            raise ConfigError(f"execution.clock must be {' or '.join(CLOCKS)}, not {self.clock!r}")
        for name, folders in (("packages", self.packages), ("project-path", self.project_paths)):
            for folder in folders:
                if not Path(folder).is_dir():
                    raise ConfigError(f"--{name}: {folder} is not a folder")


def check_execution(toolchain: str, sandbox: str, timeout: float, memory_mb: int, scope: str) -> None:
    """ConfigError with one line for the first bad value."""
    if toolchain not in TOOLCHAINS:
        raise ConfigError(f"unknown toolchain {toolchain!r}; expected {' or '.join(TOOLCHAINS)}")
    if sandbox not in SANDBOXES:
        raise ConfigError(f"unknown sandbox {sandbox!r}; expected {', '.join(SANDBOXES)}")
    if scope not in SCOPES:
        raise ConfigError(f"unknown test scope {scope!r}; expected {' or '.join(SCOPES)}")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise ConfigError(f"execution.timeout (--timeout) must be more than 0 and at most {MAX_TIMEOUT:.0f} "
                          f"seconds, not {timeout:g}")
    if memory_mb < MIN_MEMORY_MB:
        raise ConfigError(f"execution.memory_mb must be at least {MIN_MEMORY_MB} (MB), not {memory_mb}")


def concrete_sandbox(sandbox: str, trusted: bool, image: str | None = None, toolchain: str = "mono") -> str:
    """`docker` or `local` for a configured sandbox: `auto` is docker when an engine answers, else local
    only for trusted code (ConfigError for a model's code without an explicit local)."""
    from repotrans.execution.sandboxes.choice import resolve_sandbox

    image = image or toolchain_spec(toolchain).image
    return resolve_sandbox(sandbox, image=image, trusted=trusted).name
