"""Project layouts of real suites (fixtures written for this test, compiled by mcs and run by repotrans's
NUnit runner for real): two project files building one test assembly for two frameworks (one is run,
the other named), integration and database categories left out and counted, a project holding its
library and its tests (built once, its tests run, its library types are product code), a hand-written
Main() harness named as unsupported, and <StartupObject> choosing among several Main()s."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.execution.toolchains.projects import HARNESS, plan_build
from repotrans.index.model import FileInfo, Import
from repotrans.mapping import test_code
from tests.support.mono_repos import judging, needs_mono, write_tree

SDK = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>{}</PropertyGroup>{}</Project>'
NUNIT = '<PackageReference Include="NUnit" Version="2.6.4" />'
CODEC = "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }"
TESTS = """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class CodecTests {
    [Test] public void Twice() { Assert.AreEqual(4, Codec.Twice(2)); }
    [Test, Category("Integration")] public void AgainstTheService() { Assert.Fail("needs a service"); }
    [Test, Category("Database")] public void AgainstTheDatabase() { Assert.Fail("needs a database"); }
  }
}"""


def _variants(root: Path) -> None:
    ref = '<ItemGroup>' + NUNIT + '<ProjectReference Include="../../src/Core/Core.csproj" /></ItemGroup>'
    write_tree(root, {
        "src/Core/Core.csproj": SDK.format("<TargetFramework>net48</TargetFramework>", ""),
        "src/Core/Codec.cs": CODEC,
        "tests/T/Acme.Tests.2008.csproj": SDK.format("<TargetFramework>net45</TargetFramework>"
                                                     "<AssemblyName>Acme.Tests</AssemblyName>", ref),
        "tests/T/Acme.Tests.2010.csproj": SDK.format("<TargetFramework>net48</TargetFramework>"
                                                     "<AssemblyName>Acme.Tests</AssemblyName>", ref),
        "tests/T/CodecTests.cs": TESTS,
        # a hand-written harness: an executable with its own Main and no test framework
        "tests/Harness/Acme.TestHarness.csproj": SDK.format("<TargetFramework>net48</TargetFramework>"
                                                            "<OutputType>Exe</OutputType>", ""),
        "tests/Harness/Program.cs": "static class Program { static int Main() { return 0; } }",
    })


def test_one_variant_per_test_assembly_and_a_harness_is_named(tmp_path):
    _variants(tmp_path)
    plan = plan_build(tmp_path, "mono")
    assert [p.path.name for p in plan.tests] == ["Acme.Tests.2010.csproj"]
    reasons = {q.what: q.reason for q in plan.quarantined}
    assert reasons["Acme.Tests.2008"] == ("another variant of test assembly Acme.Tests: Acme.Tests.2010.csproj "
                                          "(net48) is run, the framework mono builds best of net45, net48")
    assert reasons["Acme.TestHarness"] == HARNESS
    assert plan_build(tmp_path, "mono").tests[0].path.name == "Acme.Tests.2010.csproj"


@pytest.mark.slow
def test_doctor_runs_the_chosen_variant_once_and_counts_excluded_categories(tmp_path):
    needs_mono()
    from repotrans.execution.judge.build_report import build_section, render
    from repotrans.execution.settings import ExecutionConfig

    _variants(tmp_path / "repo")
    title, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "wd")
    text = render(title, lines)
    [tests] = [line for ok, line in lines if line.startswith("tests: ")]
    assert tests == "tests: Acme.Tests.2010: 3 as written, 3 built, 1 run, 1 passed", text
    excluded = [line for ok, line in lines if "excluded by" in line or "not to run" in line]
    assert excluded == [
        "left out of every run, the suite says not to run them: 2 tests ([Explicit], [Ignore], [execution] "
        "exclude_categories)",
        'excluded by [Category("Database")]: 1: Acme.Tests.CodecTests.AgainstTheDatabase',
        'excluded by [Category("Integration")]: 1: Acme.Tests.CodecTests.AgainstTheService'], text
    assert any(ok is None and line == f"quarantined: Acme.TestHarness: {HARNESS}" for ok, line in lines), text


COMBINED = {
    "Acme/Acme.csproj": SDK.format("<TargetFramework>net48</TargetFramework>", "<ItemGroup>" + NUNIT + "</ItemGroup>"),
    "Acme/Codec.cs": CODEC,
    "Acme/Tests/CodecTests.cs": TESTS,
}


@pytest.mark.slow
def test_a_project_holding_library_and_tests_is_built_once_and_its_tests_judge_its_members(tmp_path):
    needs_mono()
    with judging(write_tree(tmp_path / "repo", COMBINED), tmp_path / "work") as judge:
        assert [p.name for p in judge.toolchain.plan(judge.workspace).chosen] == ["Acme"]
        verdicts = {body: judge.run("Acme/Codec.cs", CODEC.replace("return 2 * x;", body), ["Acme:Acme.Tests.CodecTests"])
                    for body in ("return 2 * x;", "return 3 * x;")}
    assert (verdicts["return 2 * x;"].status, verdicts["return 2 * x;"].tests_run) == ("passed", 1)
    assert verdicts["return 3 * x;"].status == "test_failure"


def test_a_combined_projects_library_files_are_product_code(tmp_path):
    write_tree(tmp_path, COMBINED)
    files = [FileInfo("target", "Acme/Codec.cs", "", ["Acme"], []),
             FileInfo("target", "Acme/Tests/CodecTests.cs", "", ["Acme.Tests"], [Import("using NUnit.Framework;", "NUnit.Framework")])]
    assert test_code.test_files("target", files, tmp_path) == {"Acme/Tests/CodecTests.cs"}


@pytest.mark.slow
def test_startup_object_picks_the_entry_point(tmp_path):
    needs_mono()
    from repotrans.execution.judge.build_report import build_section
    from repotrans.execution.settings import ExecutionConfig

    write_tree(tmp_path / "repo", {
        "App/App.csproj": SDK.format("<TargetFramework>net48</TargetFramework><OutputType>Exe</OutputType>"
                                     "<StartupObject>Acme.Program</StartupObject>", ""),
        "App/Program.cs": "namespace Acme { static class Program { static void Main() { } } "
                          "static class Tool { static void Main() { } } }",
    })
    _, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "wd")
    assert any(ok and line.startswith("built: App") for ok, line in lines), lines


@pytest.mark.slow
def test_doctor_runs_a_combined_project(tmp_path):
    needs_mono()
    from repotrans.execution.judge.build_report import build_section, render
    from repotrans.execution.settings import ExecutionConfig

    write_tree(tmp_path / "repo", COMBINED)
    title, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "wd")
    assert (True, "tests: Acme: 3 as written, 3 built, 1 run, 1 passed") in lines, render(title, lines)
    assert not any("not run" in line for _, line in lines), render(title, lines)
