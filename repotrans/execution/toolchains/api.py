"""What the rest of repotrans may use of the toolchains (tests/test_layers.py holds every module
outside execution/toolchains/ to this module and the package's own __init__: Toolchain, Limits,
PatchedFile, Verdict, TargetBuildError).

- choosing a toolchain: TOOLCHAINS, toolchain_spec, make_toolchain
- the target's projects: Project, find_projects, load_project, load_projects (MSBuild evaluation),
  BuildSettings, BuildPlan, plan_build (what is built, how)
- the environment the tests need: describe_environment, what it left out (left_out_note,
  nothing_left), reference_profile, NUnit 3 aliases, MSTest features the layer lacks
- the one build primitive: compile_projects (these projects, these file swaps and extra sources,
  the capability Check chained to the last compile -> one BuildOutcome), HostCompiler for the user's
  own port; every path that compiles calls it (a candidate, the baseline, switches/, the skeleton check)
- what the switch mechanisms and the batching judge read of a build: parse_mcs, parse_shared_mcs, rel,
  dependents, run_tests, the runner's environment and test areas.
- the limits of a test run: kill_limit (from the baseline's measured seconds), capped (a count-based one);
  RUNNER_SOURCE, whose digest is part of the baseline's content key
- compile_argv: one project's mcs command, for the benchmarks in scripts/ that time mcs alone."""
from __future__ import annotations

from repotrans.execution.toolchains.environment import (BLOCKED, FAILS_BESIDE, FLIPS, NOT_RUN, before_any_change, signature,
                                                        describe as describe_environment, flips, left_out_note,
                                                        known_cause, nothing_left, read_known_failures,
                                                        untouched as untouched_cause, write_known_failures)
from repotrans.execution.toolchains.frameworks import reference_profile
from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.toolchains.mono_build import (CHECKER_EXE, compile_argv, dependents, parse_mcs, parse_shared_mcs,
                                                      rel)
from repotrans.execution.toolchains.mono_compile import BuildOutcome, Check, HostCompiler, compile_projects
from repotrans.execution.toolchains.mono_judge import load_independent, report_cut
from repotrans.execution.toolchains.mono_test import mono_env, overlay, run_tests, runner_argv, runner_env, runner_for
from repotrans.execution.toolchains.msbuild import Project, find_projects, load_project, load_projects
from repotrans.execution.toolchains.nunit import (NOT_RUN_STATES, RUNNER_SOURCE, check_runner, clean_frames, covers,
                                                  covered_by, covering_names, left_out_by, never_run_note,
                                                  parse_runner)
from repotrans.execution.toolchains.mstest_compat import unsupported_features as mstest_features
from repotrans.execution.toolchains.nunit3_compat import alias_patterns, probe_aliases, unsupported_features
from repotrans.execution.toolchains.projects import BuildPlan, BuildSettings, plan_build
from repotrans.execution.toolchain_registry import TOOLCHAINS, toolchain_spec
from repotrans.execution.toolchains import Toolchain, reported_whole
from repotrans.execution.toolchains.test_area import area_root, test_area
from repotrans.execution.toolchains.test_runs import capped, kill_limit

__all__ = [
    "TOOLCHAINS", "toolchain_spec", "make_toolchain",
    "Project", "find_projects", "load_project", "load_projects", "BuildSettings", "BuildPlan", "plan_build",
    "describe_environment", "before_any_change", "read_known_failures",
    "write_known_failures", "known_cause", "signature",
    "untouched_cause", "left_out_note", "nothing_left", "BLOCKED", "FAILS_BESIDE", "FLIPS", "NOT_RUN", "flips",
    "reference_profile", "alias_patterns", "probe_aliases",
    "unsupported_features", "mstest_features",
    "MonoToolchain", "CHECKER_EXE", "compile_argv", "dependents", "parse_mcs",
    "parse_shared_mcs", "rel",
    "compile_projects", "Check", "BuildOutcome", "HostCompiler", "load_independent", "report_cut", "mono_env", "overlay",
    "run_tests", "runner_argv", "runner_env",
    "runner_for", "NOT_RUN_STATES", "check_runner", "clean_frames", "covers", "covered_by", "covering_names",
    "left_out_by",
    "parse_runner", "area_root",
    "test_area", "capped", "kill_limit", "RUNNER_SOURCE",
]


def make_toolchain(name: str, settings: BuildSettings | None = None) -> Toolchain:
    """The registered toolchain `name` building with `settings` (none: the defaults)."""
    return toolchain_spec(name).make(settings or BuildSettings())
