"""The reference profile a project asks for (fixture written for this test, compiled by mcs for real): a
net472 library calling DateTimeOffset.ToUnixTimeMilliseconds (an API -sdk:4.5 lacks) builds and its
tests pass; the same code in a net45 project does not compile, as on Windows."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repotrans.execution.toolchains import TargetBuildError
from repotrans.execution.toolchains.frameworks import framework_references, reference_profile
from repotrans.execution.workspace.scratch import prepare_workspace
from tests.support.mono_repos import judging, nunit_tests_of_core, sdk_project, write_tree

CLOCK = ("namespace Acme { public static class Clock { public static long Millis(System.DateTimeOffset t) "
         "{ return t.ToUnixTimeMilliseconds(); } } }")
TESTS = """using System;
using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class ClockTests {
    [Test] public void Epoch() { Assert.AreEqual(1000L, Clock.Millis(new DateTimeOffset(1970, 1, 1, 0, 0, 1, TimeSpan.Zero))); }
  }
}"""
PROFILES = [(4, 0), (4, 5), (4, 5, 1), (4, 6), (4, 7, 2), (4, 8)]


def _repo(root: Path, tfm: str) -> Path:
    return write_tree(root, {"src/Core/Core.csproj": sdk_project(framework=tfm), "src/Core/Clock.cs": CLOCK,
                             "tests/T/T.csproj": nunit_tests_of_core(tfm), "tests/T/ClockTests.cs": TESTS})


@pytest.mark.parametrize("tfm, profile", [("net472", "4.7.2"), ("net48", "4.8"), ("net40", "4.0"), ("net35", "4.0"),
                                          ("net47", "4.6"), ("net481", "4.8"), ("netstandard2.0", "4.8"),
                                          ("net8.0", "4.8"), ("", "4.5")])
def test_the_profile_follows_the_target_framework(tfm, profile):
    chosen, why = reference_profile(tfm, PROFILES)
    assert chosen == profile and why


def test_an_older_profile_gets_only_the_assemblies_it_has():
    if not Path("/usr/lib/mono/4.0-api").is_dir():
        pytest.skip("mono's reference profiles are not installed")
    assert "System.Net.Http.dll" not in framework_references("net40", sdk=True)
    assert "System.Net.Http.dll" in framework_references("net472", sdk=True)


@pytest.mark.slow
def test_a_net472_api_builds_against_its_own_profile_and_not_against_net45(tmp_path):
    if shutil.which("mcs") is None or not Path("/usr/lib/mono/4.7.2-api").is_dir():
        pytest.skip("mono with its 4.7.2 reference profile is not installed")
    with judging(_repo(tmp_path / "new", "net472"), tmp_path / "work") as judge:
        verdict = judge.run("src/Core/Clock.cs", CLOCK)
        assert (verdict.status, verdict.tests_run) == ("passed", 1), (verdict.reason, verdict.log[-2000:])
        old = prepare_workspace(_repo(tmp_path / "old", "net45"), tmp_path / "work", judge.toolchain.name)
        with pytest.raises(TargetBuildError, match="ToUnixTimeMilliseconds"):
            judge.toolchain.baseline(old, judge.sandbox, judge.limits)
