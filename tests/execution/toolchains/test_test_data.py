"""Test data as MSBuild places it (fixture written for this test, compiled by mcs and run by repotrans's
NUnit runner for real): a None item updated with CopyToOutputDirectory, a linked Content file, and
App.config as <assembly>.dll.config, read through ConfigurationManager; doctor lists what it copied."""
from __future__ import annotations

import pytest

from repotrans.execution.toolchains.msbuild import load_project
from tests.support.mono_repos import judging, needs_mono, sdk_project, write_tree

ITEMS = """<ItemGroup>
  <PackageReference Include="NUnit" Version="2.6.4" />
  <ProjectReference Include="../../src/Core/Core.csproj" />
  <Reference Include="System.Configuration" />
  <None Update="Data\\input.txt"><CopyToOutputDirectory>PreserveNewest</CopyToOutputDirectory></None>
  <None Update="Data\\notes.txt"><CopyToOutputDirectory>Never</CopyToOutputDirectory></None>
  <Content Include="..\\shared\\factor.txt" Link="Linked\\factor.txt" CopyToOutputDirectory="Always" />
</ItemGroup>"""
FILES = {
    "src/Core/Core.csproj": sdk_project(),
    "src/Core/Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }",
    "tests/T/T.csproj": sdk_project(ITEMS),
    "tests/T/Data/input.txt": "21",
    "tests/T/Data/notes.txt": "not copied",
    "tests/shared/factor.txt": "3",
    "tests/T/App.config": '<?xml version="1.0" encoding="utf-8"?>\n<configuration><appSettings>'
                          '<add key="expected" value="42" /></appSettings></configuration>',
    "tests/T/DataTests.cs": """using System.IO;
using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class DataTests {
    static string Here { get { return Path.GetDirectoryName(typeof(DataTests).Assembly.Location); } }
    [Test] public void FromTheCopiedDataFile() {
      int input = int.Parse(File.ReadAllText(Path.Combine(Here, "Data", "input.txt")).Trim());
      Assert.AreEqual(42, Codec.Twice(input));
    }
    [Test] public void FromTheLinkedFile() {
      Assert.AreEqual(6, Codec.Twice(int.Parse(File.ReadAllText(Path.Combine(Here, "Linked", "factor.txt")).Trim())));
    }
    [Test] public void FromAppConfig() {
      Assert.AreEqual("42", System.Configuration.ConfigurationManager.AppSettings["expected"]);
      Assert.AreEqual(42, Codec.Twice(21));
    }
    [Test] public void NeverIsNotCopied() { Assert.IsFalse(File.Exists(Path.Combine(Here, "Data", "notes.txt"))); }
  }
}""",
}


def test_the_items_a_build_copies(tmp_path):
    write_tree(tmp_path, FILES)
    project = load_project(tmp_path / "tests/T/T.csproj", tmp_path)
    assert [(f.relative_to(tmp_path).as_posix(), dest) for f, dest in project.copied] == [
        ("tests/T/Data/input.txt", "Data/input.txt"), ("tests/shared/factor.txt", "Linked/factor.txt"),
        ("tests/T/App.config", "T.dll.config")]


@pytest.mark.slow
def test_tests_read_copied_data_linked_files_and_app_config(tmp_path):
    needs_mono()
    with judging(write_tree(tmp_path / "repo", FILES), tmp_path / "work") as judge:
        verdict = judge.run("src/Core/Codec.cs", judge.original("src/Core/Codec.cs"))
    assert (verdict.status, verdict.tests_run) == ("passed", 4), (verdict.reason, verdict.failures)


@pytest.mark.slow
def test_doctor_lists_what_it_copied(tmp_path):
    needs_mono()
    from repotrans.execution.judge.build_report import build_section
    from repotrans.execution.settings import ExecutionConfig

    write_tree(tmp_path / "repo", FILES)
    _, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "wd",
                             run_tests=False)
    assert (None, "copied beside T as its build does: Data/input.txt, Linked/factor.txt, T.dll.config") in lines
