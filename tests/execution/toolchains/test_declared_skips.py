"""On the dotnet path, what the suite says not to run is left out by the filter repotrans builds, even when the
selection names it: a VSTest filter naming an NUnit 3 [Explicit] test runs it (the adapter takes a name match
for an explicit selection), so the scheduler port's explicit database stress tests would run whenever a
selection named them or their fixture. The test sources are read with tree-sitter (no SDK here): NUnit 2/3
[Explicit] and [Ignore], MSTest [Ignore], excluded [Category]/[TestCategory], on a test or on its fixture."""
from __future__ import annotations

from pathlib import Path

from repotrans.execution.defaults import DEFAULT_EXCLUDED
from repotrans.execution.toolchains.declared_skips import Skip, declared_skips, filter_terms, within

NUNIT3 = """using NUnit.Framework;
namespace Acme.Tests {
  [TestFixture] public class Heavy {
    [Test, Explicit("needs a database")] public void Stress() {}
    [Test] public void Light() {}
    [Explicit] [TestCase(1)] [TestCase(2)] public void Cases(int n) {}
    [Test, Category("integration")] public void Db() {}
    [Test, Category("Fast")] public void Quick() {}
    [TestFixture, NUnit.Framework.IgnoreAttribute("broken")] public class Nested { [Test] public void T() {} }
  }
  [TestFixture, Explicit] public class Manual { [Test] public void Click() {} }
}"""
MSTEST = """using Microsoft.VisualStudio.TestTools.UnitTesting;
namespace Acme.MsTests;
[TestClass] public class Store {
  [TestMethod, Ignore] public void Skipped() {}
  [TestMethod] [TestCategory("Database")] public void Db() {}
  [TestMethod] public void Ok() {}
}"""


def _sources(tmp_path: Path) -> list[Path]:
    (tmp_path / "Heavy.cs").write_text(NUNIT3)
    (tmp_path / "Store.cs").write_text(MSTEST)
    return [tmp_path / "Heavy.cs", tmp_path / "Store.cs"]


def test_the_suites_own_attributes_say_what_never_runs(tmp_path):
    skips = declared_skips(_sources(tmp_path), DEFAULT_EXCLUDED)
    assert skips == {"Acme.Tests.Heavy.Stress": Skip("[Explicit]", False),
                     "Acme.Tests.Heavy.Cases": Skip("[Explicit]", False),
                     "Acme.Tests.Heavy.Db": Skip('[Category("integration")]', False),
                     "Acme.Tests.Heavy+Nested": Skip("[Ignore]", True),
                     "Acme.Tests.Manual": Skip("[Explicit]", True),
                     "Acme.MsTests.Store.Skipped": Skip("[Ignore]", False),
                     "Acme.MsTests.Store.Db": Skip('[TestCategory("Database")]', False)}
    # categories are the configuration's: with none excluded, only [Explicit] and [Ignore] stay out
    assert sorted(declared_skips(_sources(tmp_path))) == ["Acme.MsTests.Store.Skipped", "Acme.Tests.Heavy+Nested",
                                                          "Acme.Tests.Heavy.Cases", "Acme.Tests.Heavy.Stress",
                                                          "Acme.Tests.Manual"]


def test_a_selection_naming_an_explicit_test_or_its_fixture_still_leaves_it_out(tmp_path):
    from repotrans.execution.toolchains.dotnet import dotnet_test_argv, vstest_filter

    skips = declared_skips(_sources(tmp_path), DEFAULT_EXCLUDED)
    named = ["Acme.Tests.Heavy", "Acme.Tests.Heavy.Stress", "Acme.Tests.Manual.Click", "Acme.MsTests.Store.Ok"]
    assert within(skips, named) == {"Acme.Tests.Heavy.Stress": "[Explicit]", "Acme.Tests.Heavy.Cases": "[Explicit]",
                                    "Acme.Tests.Heavy.Db": '[Category("integration")]', "Acme.Tests.Manual": "[Explicit]"}
    argv = dotnet_test_argv(_project(tmp_path), named, tmp_path / "r" / "T.trx", ("Integration",), skips)
    expr = argv[argv.index("--filter") + 1]
    assert expr == ("(" + "|".join(vstest_filter(n) for n in sorted(named)) + ")&TestCategory!=Integration&"
                    "FullyQualifiedName!=Acme.Tests.Heavy.Cases&FullyQualifiedName!~Acme.Tests.Heavy.Cases\\(&"
                    "FullyQualifiedName!=Acme.Tests.Heavy.Db&FullyQualifiedName!~Acme.Tests.Heavy.Db\\(&"
                    "FullyQualifiedName!=Acme.Tests.Heavy.Stress&FullyQualifiedName!~Acme.Tests.Heavy.Stress\\(&"
                    "FullyQualifiedName!~Acme.Tests.Manual.")
    # the whole suite: every skip, by negative terms only (no name selects an explicit test)
    whole = dotnet_test_argv(_project(tmp_path), None, tmp_path / "r" / "T.trx", (), skips)
    assert whole[whole.index("--filter") + 1] == "&".join(filter_terms(skips))
    assert "FullyQualifiedName!~Acme.Tests.Heavy+Nested." in whole[whole.index("--filter") + 1]


def _project(tmp_path: Path):
    from repotrans.execution.toolchains.msbuild import load_projects

    (tmp_path / "T.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0'
                                       '</TargetFramework></PropertyGroup><ItemGroup><PackageReference '
                                       'Include="NUnit" Version="3.14.0" /></ItemGroup></Project>')
    return next(p for p in load_projects(tmp_path) if p.name == "T")
