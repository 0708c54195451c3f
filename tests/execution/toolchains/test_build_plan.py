"""Which projects of a real-world-shaped solution get built, and why the others do not
(fixtures written for these tests: a library, its NUnit tests, samples, a WPF tool, an xUnit
project, a Silverlight variant, packages from a local folder and from a project in the tree)."""
from __future__ import annotations

import shutil

import pytest

from repotrans.execution.toolchains.mono import MonoToolchain
from repotrans.execution.toolchains.nunit3_compat import unsupported_features
from repotrans.execution.toolchains.projects import BuildSettings, plan_build
from repotrans.execution.workspace.scratch import prepare_workspace
from repotrans.execution.toolchains.signing import friend_public_keys, stand_in_key
from tests.support.solutions import classic, judge_unchanged, sdk, write_tree


SOLUTION = {
    "Acme.sln": "",
    "src/Acme.Core/Acme.Core.csproj": sdk('<ItemGroup><PackageReference Include="Acme.Text" Version="1.2.0" />'
                                          '<PackageReference Include="Json.Lite" Version="2.0.1" /></ItemGroup>'),
    "src/Acme.Core/Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }",
    "src/Acme.Text/Acme.Text.csproj": sdk("<PropertyGroup><PackageId>Acme.Text</PackageId></PropertyGroup>"),
    "src/Acme.Text/Words.cs": "namespace Acme.Text { public static class Words { } }",
    "tests/Acme.Tests/Acme.Tests.csproj": sdk(
        '<ItemGroup><PackageReference Include="NUnit" Version="3.14.0" /><PackageReference Include="NUnit3TestAdapter" '
        'Version="4.5.0" /><PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.8.0" /></ItemGroup>'
        '<ItemGroup><ProjectReference Include="../../src/Acme.Core/Acme.Core.csproj" />'
        '<ProjectReference Include="../../samples/Viewer/Viewer.csproj" /></ItemGroup>', "net48"),
    "tests/Acme.XTests/Acme.XTests.csproj": sdk('<ItemGroup><PackageReference Include="xunit" Version="2.6.0" />'
                                                '</ItemGroup>', "net8.0"),
    "samples/Viewer/Viewer.csproj": sdk('<ItemGroup><Reference Include="PresentationCore" /></ItemGroup>', "net48"),
    "samples/Cli/Cli.csproj": sdk("<PropertyGroup><OutputType>Exe</OutputType></PropertyGroup>", "net48"),
    "phone/Acme.Phone.csproj": '<Project><PropertyGroup><TargetFrameworkIdentifier>Silverlight</TargetFrameworkIdentifier>'
                               '<TargetFrameworkVersion>v5.0</TargetFrameworkVersion></PropertyGroup></Project>',
}


def test_plan_chooses_tests_and_what_they_use(tmp_path):
    repo, nuget = tmp_path / "repo", tmp_path / "nuget"
    write_tree(repo, SOLUTION)
    write_tree(nuget, {"json.lite/2.0.1/lib/net45/Json.Lite.dll": b"MZ", "json.lite/2.0.1/lib/netstandard2.0/Json.Lite.dll": b"MZ",
                   "json.lite/1.0.0/lib/net45/Json.Lite.dll": b"MZ"})
    plan = plan_build(repo, "mono", BuildSettings(packages=(nuget,)))
    assert [p.name for p in plan.chosen] == ["Acme.Text", "Acme.Core", "Acme.Tests"]
    core = plan.chosen[1]
    assert core.extra_references == [str(nuget / "json.lite/2.0.1/lib/netstandard2.0/Json.Lite.dll")]
    assert core.project_refs == [(repo / "src/Acme.Text/Acme.Text.csproj").resolve()]   # package -> project in tree
    reasons = {q.what: q.reason for q in plan.quarantined}
    assert reasons["Acme.XTests"] == "xunit tests need the dotnet toolchain (mono runs NUnit and MSTest only)"
    assert reasons["Viewer"] == "assembly PresentationCore is not available on mono"
    assert reasons["Acme.Tests -> Viewer"] == reasons["Viewer"]
    assert "Silverlight" in reasons["Acme.Phone"]
    assert reasons["Cli"] == "not needed by any test project"
    dotnet = plan_build(repo, "dotnet", BuildSettings(packages=(nuget,)))
    assert {p.name for p in dotnet.tests} == {"Acme.Tests", "Acme.XTests"}


def test_missing_package_names_the_package_and_the_options(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NUGET_PACKAGES", raising=False)
    write_tree(tmp_path / "repo", SOLUTION)
    plan = plan_build(tmp_path / "repo", "mono", BuildSettings())
    reasons = {q.what: q.reason for q in plan.quarantined}
    line = reasons["Acme.Core -> package"]          # built without it: only compiler errors quarantine it
    assert line.startswith("PackageReference Json.Lite 2.0.1 is not in a local NuGet folder")
    assert "--packages DIR" in line and "--project-path DIR" in line and line.endswith("building without it")
    assert next(p for p in plan.chosen if p.name == "Acme.Core").unresolved == ["Json.Lite"]
    with pytest.raises(Exception, match="nothing under .* can be built with mono"):
        shutil.rmtree(tmp_path / "repo" / "src" / "Acme.Text")
        (tmp_path / "repo" / "tests" / "Acme.Tests" / "Acme.Tests.csproj").write_text(
            sdk('<ItemGroup><PackageReference Include="xunit" Version="2.6.0" /></ItemGroup>'))
        plan_build(tmp_path / "repo", "mono", BuildSettings())


def test_package_from_project_path_outside_the_tree(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    write_tree(tmp_path / "repo", SOLUTION)
    write_tree(tmp_path / "jsonlite", {"Json.Lite.csproj": sdk(""), "J.cs": "public class J { }"})
    plan = plan_build(tmp_path / "repo", "mono", BuildSettings(project_paths=((tmp_path / "jsonlite").resolve(),)))
    assert {p.name for p in plan.chosen} == {"Acme.Text", "Json.Lite", "Acme.Core", "Acme.Tests"}
    assert (tmp_path / "jsonlite/Json.Lite.csproj").resolve() in plan.chosen[-2].project_refs


def test_project_path_lends_its_library_never_its_test_projects(tmp_path, monkeypatch):
    """A dependency's source tree given with --project-path holds its own tests too: they test the dependency,
    not the port, and are never built or run (they were: one compiler error in them dropped every project of
    the port, 'no test project builds')."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    write_tree(tmp_path / "repo", SOLUTION)
    write_tree(tmp_path / "jsonlite", {
        "src/Json.Lite.csproj": sdk(""), "src/J.cs": "public class J { }",
        "tests/Json.Lite.Tests.csproj": sdk('<ItemGroup><PackageReference Include="NUnit" Version="3.14.0" />'
                                            '<ProjectReference Include="../src/Json.Lite.csproj" /></ItemGroup>', "net48"),
        "tests/JTests.cs": "this does not compile"})
    plan = plan_build(tmp_path / "repo", "mono", BuildSettings(project_paths=((tmp_path / "jsonlite").resolve(),)))
    assert {p.name for p in plan.chosen} == {"Acme.Text", "Json.Lite", "Acme.Core", "Acme.Tests"}
    assert [p.name for p in plan.tests] == ["Acme.Tests"]
    reasons = {q.what: q.reason for q in plan.quarantined}
    assert reasons["Json.Lite.Tests"] == "a test project under --project-path: it tests that dependency, not the port"


def test_dotnet_builds_and_tests_a_multi_targeting_test_project_for_one_framework(tmp_path, monkeypatch):
    from repotrans.execution.toolchains.dotnet import build_argvs, dotnet_test_argv

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    write_tree(tmp_path, {"Acme.sln": "", "src/Lib/Lib.csproj": sdk(""),
                      "tests/T/T.csproj": '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFrameworks>net48;net8.0'
                                          '</TargetFrameworks></PropertyGroup><ItemGroup><PackageReference Include="NUnit" '
                                          'Version="3.14.0" /><ProjectReference Include="../../src/Lib/Lib.csproj" />'
                                          '</ItemGroup></Project>'})
    [argv] = build_argvs(tmp_path)
    assert argv[2] == str((tmp_path / "tests/T/T.csproj").resolve()) and argv[-2:] == ["-f", "net8.0"]
    net48 = BuildSettings(framework="net48")                 # --framework net48
    [argv] = build_argvs(tmp_path, net48)
    assert argv[-2:] == ["-f", "net48"]
    test = next(p for p in plan_build(tmp_path, "dotnet", net48).chosen if p.is_test)
    argv = dotnet_test_argv(test, None, tmp_path / "r.trx")
    assert argv[argv.index("-f"):argv.index("-f") + 2] == ["-f", "net48"]


def _snk(modulus: bytes) -> bytes:
    bits = len(modulus) * 8
    return bytes([7, 2, 0, 0, 0, 0x24, 0, 0]) + b"RSA2" + bits.to_bytes(4, "little") + b"\x01\x00\x01\x00" + \
        modulus + b"\x00" * 64


def test_stand_in_key_is_the_one_internals_visible_to_trusts(tmp_path):
    trusted, other = bytes(range(1, 129)), bytes(range(2, 130))
    write_tree(tmp_path, {"Key/dummy.snk": _snk(trusted), "Key/other.snk": _snk(other), "Key/public.snk": b"\x06\x02" + b"\0" * 40,
                      "src/AssemblyInfo.cs": '[assembly: InternalsVisibleTo("Acme.Tests, PublicKey=0024000004800000940000'
                                              '000602000000240000525341310004000001000100' + trusted.hex() + '")]'})
    keys = friend_public_keys([tmp_path / "src/AssemblyInfo.cs"])
    assert stand_in_key(tmp_path, keys) == tmp_path / "Key/dummy.snk"
    assert stand_in_key(tmp_path, {"00" * 20}) is None


NUNIT3_TESTS = r"""using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Acme.Tests
{
    [TestFixture, TestOf(typeof(Codec)), Parallelizable(ParallelScope.All)]
    public class CodecTests
    {
        static int setups;
        [OneTimeSetUp] public void Once() { setups++; }
        [OneTimeTearDown] public void Done() { }
        static IEnumerable<TestCaseData> Cases() { yield return new TestCaseData(2).Returns(4); yield return new TestCaseData(5).Returns(10); }
        static object[] Pairs = { new object[] { 1, 2 }, new object[] { 3, 6 } };
        [TestCaseSource(nameof(Cases))] public int Twice(int x) { return Codec.Twice(x); }
        [TestCaseSource(typeof(CodecTests), nameof(Pairs))] public void Pair(int x, int y) { Assert.That(Codec.Twice(x), Is.EqualTo(y)); }
        [TestCase(3, ExpectedResult = 6)] public int Case(int x) { return Codec.Twice(x); }
        [Test] public void OneTimeSetUpRanOnce() { Assert.That(setups, Is.EqualTo(1)); }
        [Test] public void Constraints()
        {
            Assert.That("twice", Does.StartWith("tw").And.EndWith("ce"));
            Assert.That(new List<int> { 2, 4 }, Does.Contain(4));
            Assert.That("abc", Does.Not.Contain("x"));
            Assert.That(Codec.Twice(0), Is.Zero);
            Assert.Multiple(() => { Assert.That(Codec.Twice(1), Is.EqualTo(2)); Assert.Positive(Codec.Twice(1)); });
        }
        [Test] public void Context()
        {
            TestContext.WriteLine("in {0}", TestContext.CurrentContext.Test.MethodName);
            Assert.That(TestContext.CurrentContext.Test.MethodName, Is.EqualTo("Context"));
            Assert.That(TestContext.CurrentContext.Test.ClassName, Is.EqualTo("Acme.Tests.CodecTests"));
        }
        [Test] public void MultipleFails() { Assert.Multiple(() => Assert.That(Codec.Twice(2), Is.EqualTo(5))); }
    }
}
"""


# the alias patterns real NUnit 3 suites use: the layer must add nothing to the global namespace
ALIAS_TESTS = r"""using NUnit.Framework;
using Assert = NUnit.Framework.Assert;
using Is = NUnit.Framework.Is;

namespace Acme.Tests
{
    using NUnitAssert = NUnit.Framework.Assert;

    [TestFixture] public class AliasTests
    {
        [Test] public void AliasedAssert() { Assert.Zero(Codec.Twice(0)); Assert.That(Codec.Twice(2), Is.EqualTo(4)); }
        [Test] public void QualifiedAssert() { NUnit.Framework.Assert.Positive(Codec.Twice(1)); NUnitAssert.AreEqual(6, Codec.Twice(3)); }
    }
}
"""


def test_nunit3_tests_run_on_mono_and_unbuildable_test_files_are_quarantined(tmp_path, monkeypatch):
    """...and the workspace's projects are evaluated once (baseline build, plan after its quarantine, the
    candidate's build), the quarantine applied to a copy of that evaluation (issue 48: NPOI evaluated three
    times, 1-6 s each)."""
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    evaluated = []
    monkeypatch.setattr("repotrans.execution.toolchains.mono.plan_build",
                        lambda *a, **k: evaluated.append(a[0]) or plan_build(*a, **k))
    repo = tmp_path / "repo"
    files = {k: v for k, v in SOLUTION.items() if not k.startswith(("samples", "phone", "tests/Acme.XTests"))}
    files["src/Acme.Core/Acme.Core.csproj"] = sdk("")
    files["tests/Acme.Tests/Acme.Tests.csproj"] = sdk(
        '<ItemGroup><PackageReference Include="NUnit" Version="3.14.0" /></ItemGroup>'
        '<ItemGroup><ProjectReference Include="../../src/Acme.Core/Acme.Core.csproj" /></ItemGroup>', "net48")
    files["tests/Acme.Tests/CodecTests.cs"] = NUNIT3_TESTS
    files["tests/Acme.Tests/AliasTests.cs"] = ALIAS_TESTS
    files["tests/Acme.Tests/ViewerTests.cs"] = "using Acme.Viewer; namespace Acme.Tests { class ViewerTests { } }"
    write_tree(repo, files)
    tc = MonoToolchain()
    judged = judge_unchanged(repo, tmp_path / "work", "src/Acme.Core/Codec.cs", toolchain=tc)
    assert [(q.what, q.reason.split(" ")[0]) for q in judged.plan.quarantined if ":" in q.what] == [
        ("Acme.Tests:tests/Acme.Tests/ViewerTests.cs", "CS0234")]
    assert len(evaluated) == 1, evaluated
    ws_tests = tc.test_projects(prepare_workspace(repo, tmp_path / "work", tc.name))["Acme.Tests"]
    assert "ViewerTests.cs" not in {p.name for p in ws_tests}            # the plan after the quarantine...
    assert "ViewerTests.cs" in {p.name for p in next(                   # ...and the evaluation it was copied from
        p for p in plan_build(evaluated[0], "mono").chosen if p.name == "Acme.Tests").own_sources}
    verdict = judged.verdict
    assert verdict.tests_run == 11, verdict.log[-2000:]
    assert [f.name.rsplit(".", 1)[-1] for f in verdict.failures] == ["MultipleFails"], verdict.failures
    assert verdict.status == "test_failure"


def test_unsupported_nunit3_features_are_named(tmp_path):
    write_tree(tmp_path, {"A.cs": "[TestFixtureSource(nameof(X))] class A { [Test, Retry(3)] public void T() { Assert.Multiple(() => {}); } }",
                      "B.cs": "[SetUpFixture] class B { [OneTimeSetUp] public void S() { } }"})
    found = unsupported_features([tmp_path / "A.cs", tmp_path / "B.cs"])
    assert found == ["[TestFixtureSource] (fixtures are not parameterised from a source) (e.g. A.cs)",
                     "Assert.Multiple reports only its first failure (e.g. A.cs)", "[Retry] (a test runs once) (e.g. A.cs)",
                     "[OneTime*] in a [SetUpFixture] (NUnit 2.6 runs only [SetUp]/[TearDown] there) (e.g. B.cs)"]


def test_package_ids_from_nuspec_hint_paths_to_built_dlls_and_build_only_metadata(tmp_path, monkeypatch):
    """A package whose id exists only in a .nuspec (shipping a dll another csproj builds); a classic
    HintPath to a dll the solution builds (absent in a clean tree), with two projects building it for
    two frameworks; a weaver and an analyzer package known as build-only by their metadata."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NUGET_PACKAGES", raising=False)
    write_tree(tmp_path / "repo", {
        "geo/Geo.Api.nuspec": '<package><metadata><id>Acme.GeoApi</id><version>$version$</version></metadata><files>'
                              '<file src="..\\bin\\**\\Acme.Geo.dll" target="lib" /></files></package>',
        "geo/Acme.Geo.csproj": sdk("<PropertyGroup><PackageId>Acme.Geo.Sources</PackageId></PropertyGroup>"),
        "geo/G.cs": "namespace Acme.Geo { public class G { } }",
        "src/Core/Core.csproj": sdk('<ItemGroup><PackageReference Include="Acme.GeoApi" Version="1.0" />'
                                    '<PackageReference Include="Weaver.Fody" Version="6.0" PrivateAssets="All" />'
                                    '<PackageReference Include="Acme.Style" Version="1.0"><IncludeAssets>runtime; build; '
                                    'analyzers</IncludeAssets></PackageReference></ItemGroup>'),
        "src/Core/C.cs": "namespace Acme { public class C { } }",
        "lib20/Lib.csproj": classic("Acme.Lib", version="v2.0"),
        "lib40/Lib.csproj": classic("Acme.Lib"),
        "tests/T.csproj": classic("Acme.Tests", (
            '<Reference Include="nunit.framework" /><Reference Include="Acme.Lib"><HintPath>..\\out\\Acme.Lib.dll'
            '</HintPath></Reference><ProjectReference Include="..\\src\\Core\\Core.csproj" />')),
    })
    plan = plan_build(tmp_path / "repo", "mono", BuildSettings())
    core = next(p for p in plan.chosen if p.name == "Core")
    assert core.project_refs == [(tmp_path / "repo/geo/Acme.Geo.csproj").resolve()] and core.unresolved == []
    tests = next(p for p in plan.chosen if p.name == "T")
    assert (tmp_path / "repo/lib40/Lib.csproj").resolve() in tests.project_refs
    assert (tmp_path / "repo/lib20/Lib.csproj").resolve() not in tests.project_refs
    assert [name for name, _ in tests.references] == ["nunit.framework"]
    assert "package Acme.GeoApi (Geo.Api.nuspec) is built by Acme.Geo" in plan.notes


def test_sdk_projects_compile_against_their_references_references(tmp_path):
    """Test project -> Core -> Geo (SDK style): the tests use Geo's types without referencing it."""
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    repo = tmp_path / "repo"
    write_tree(repo, {
        "src/Geo/Geo.csproj": sdk(""), "src/Geo/Point.cs": "namespace Acme.Geometries { public class Point { public int X = 3; } }",
        "src/Core/Core.csproj": sdk('<ItemGroup><ProjectReference Include="../Geo/Geo.csproj" /></ItemGroup>'),
        "src/Core/Shapes.cs": "namespace Acme { public static class Shapes { public static Acme.Geometries.Point Origin() "
                              "{ return new Acme.Geometries.Point(); } } }",
        "tests/T/T.csproj": sdk('<ItemGroup><PackageReference Include="NUnit" Version="2.6.4" /><ProjectReference '
                                'Include="../../src/Core/Core.csproj" /></ItemGroup>', "net48"),
        "tests/T/ShapeTests.cs": "using NUnit.Framework; using Acme.Geometries; namespace Acme.Tests { [TestFixture] "
                                 "public class ShapeTests { [Test] public void X() { Point p = Shapes.Origin(); "
                                 "Assert.AreEqual(3, p.X); } } }"})
    judged = judge_unchanged(repo, tmp_path / "work", "src/Geo/Point.cs")
    assert [q.what for q in judged.plan.quarantined] == []
    assert (judged.verdict.status, judged.verdict.tests_run) == ("passed", 1), judged.verdict.log[-2000:]


@pytest.mark.parametrize("sandbox", ["local", pytest.param("docker", marks=pytest.mark.docker)])
def test_project_path_and_packages_outside_the_tree_reach_the_sandbox(tmp_path, monkeypatch, sandbox):
    """A stand-in project given with --project-path and a package dll from --packages, both outside
    the target tree (which a sandbox does not see): copied into the workspace, compiled and loaded."""
    import subprocess

    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    if sandbox == "docker":
        from repotrans.execution.sandboxes.docker import engine_status
        if not engine_status(MonoToolchain.image)[0]:
            pytest.skip("no docker engine with the mono image")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NUGET_PACKAGES", raising=False)
    nuget = tmp_path / "nuget" / "json.lite" / "2.0.1" / "lib" / "net45"
    nuget.mkdir(parents=True)
    (tmp_path / "J.cs").write_text("namespace Json.Lite { public static class J { public static int Three() { return 3; } } }")
    subprocess.run(["mcs", "-target:library", f"-out:{nuget / 'Json.Lite.dll'}", str(tmp_path / "J.cs")], check=True,
                   capture_output=True)
    write_tree(tmp_path / "acme-text", {"Acme.Text.csproj": sdk(""),
                                    "Words.cs": "namespace Acme.Text { public static class Words { public static int Two() "
                                                "{ return 2; } } }"})
    write_tree(tmp_path / "repo", {
        "src/Core/Core.csproj": sdk('<ItemGroup><PackageReference Include="Acme.Text" Version="1.0" />'
                                    '<PackageReference Include="Json.Lite" Version="2.0.1" /></ItemGroup>'),
        "src/Core/Codec.cs": "namespace Acme { public static class Codec { public static int Five() "
                             "{ return Acme.Text.Words.Two() + Json.Lite.J.Three(); } } }",
        "tests/T/T.csproj": sdk('<ItemGroup><PackageReference Include="NUnit" Version="2.6.4" /><ProjectReference '
                                'Include="../../src/Core/Core.csproj" /></ItemGroup>', "net48"),
        "tests/T/CodecTests.cs": "using NUnit.Framework; namespace Acme.Tests { [TestFixture] public class CodecTests "
                                 "{ [Test] public void Five() { Assert.AreEqual(5, Codec.Five()); } } }"})
    tc = MonoToolchain(BuildSettings(packages=(tmp_path / "nuget",),                 # --packages
                                     project_paths=((tmp_path / "acme-text").resolve(),)))   # --project-path
    judged = judge_unchanged(tmp_path / "repo", tmp_path / "work", "src/Core/Codec.cs", toolchain=tc, sandbox=sandbox)
    assert [q.what for q in judged.plan.quarantined if "->" not in q.what] == []
    assert (judged.verdict.status, judged.verdict.tests_run) == ("passed", 1), judged.verdict.log[-2000:]


def test_runtime_loaded_siblings_are_built_and_copied_beside_the_tests(tmp_path):
    """A support library loads a platform assembly from its own folder at run time; the solution
    builds both into one bin folder, and nothing references the platform project."""
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    def classic_in_bin(name: str, refs: str = "") -> str:
        return classic(name, refs, version="v4.5", properties="<OutputPath>..\\bin\\</OutputPath>")

    write_tree(tmp_path / "repo", {
        "Support/Support.csproj": classic_in_bin("Acme.Support"),
        "Support/Files.cs": "using System; using System.IO; using System.Reflection; namespace Acme { public static class "
                            "Files { public static string Platform() { var dir = Path.GetDirectoryName(typeof(Files)."
                            "Assembly.Location); var asm = Assembly.LoadFrom(Path.Combine(dir, \"Acme.Platform.dll\")); "
                            "return (string)asm.GetType(\"Acme.Platform\").GetMethod(\"Name\").Invoke(null, null); } } }",
        "Platform/Platform.csproj": classic_in_bin("Acme.Platform"),
        "Platform/Platform.cs": "namespace Acme { public static class Platform { public static string Name() "
                                "{ return \"unix\"; } } }",
        "Tests/Tests.csproj": classic_in_bin("Acme.Tests", '<Reference Include="nunit.framework" />'
                                          '<ProjectReference Include="..\\Support\\Support.csproj" />'),
        "Tests/FilesTests.cs": "using NUnit.Framework; namespace Acme.Tests { [TestFixture] public class FilesTests "
                               "{ [Test] public void Loads() { Assert.AreEqual(\"unix\", Files.Platform()); } } }"})
    plan = plan_build(tmp_path / "repo", "mono", BuildSettings())
    assert {p.name for p in plan.chosen} == {"Support", "Platform", "Tests"}
    verdict = judge_unchanged(tmp_path / "repo", tmp_path / "work", "Support/Files.cs").verdict
    assert (verdict.status, verdict.tests_run) == ("passed", 1), verdict.log[-2000:]


def test_a_library_whose_hint_path_dll_is_missing_is_built_without_it(tmp_path):
    write_tree(tmp_path / "repo", {
        "Lib/Lib.csproj": classic("Acme", '<Reference Include="Ionic.Zip"><HintPath>..\\\\lib\\\\'
                                                             'Ionic.Zip.dll</HintPath></Reference>'),
        "Lib/A.cs": "namespace Acme { public class A { } }",
        "Tests/Tests.csproj": classic("Acme.Tests", '<Reference Include="nunit.framework" />'
                                                                      '<ProjectReference Include="..\\\\Lib\\\\Lib.csproj" />')})
    plan = plan_build(tmp_path / "repo", "mono", BuildSettings())
    lib = next(p for p in plan.chosen if p.name == "Lib")
    assert lib.unresolved == ["Ionic.Zip"] and lib.references == []
    assert {q.what: q.reason for q in plan.quarantined}["Lib -> Ionic.Zip"].endswith("is missing); building without it")


def test_a_classic_nunit3_reference_whose_package_is_not_restored_is_still_nunit3(tmp_path):
    """`<Reference Include="nunit.framework, Version=3.0..."><HintPath>..\\packages\\NUnit.3.0.1\\...` with no packages
    folder (a fresh clone, never restored): the plan kept the reference without its path, read it as NUnit 2,
    and the tests' `Does.Contain` failed to compile without the NUnit 3 layer (found on xmlunit.net's net35
    tests: every test project dropped). The path names the version; the file need not exist."""
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    repo = tmp_path / "repo"
    refs = ('<Reference Include="nunit.framework, Version=3.0.5813.39033, Culture=neutral">'
            '<HintPath>..\\packages\\NUnit.3.0.1\\lib\\net20\\nunit.framework.dll</HintPath></Reference>'
            '<ProjectReference Include="..\\Core\\Core.csproj" />')
    write_tree(repo, {
        "Core/Core.csproj": classic("Core"),
        "Core/Codec.cs": "namespace Acme { public static class Codec { public static string Name() { return \"codec\"; } } }",
        "Tests/Tests.csproj": classic("Tests", refs),
        "Tests/CodecTests.cs": "using NUnit.Framework; namespace Acme.Tests { [TestFixture] public class CodecTests {"
                               " [Test] public void Named() { Assert.That(Codec.Name(), Does.Contain(\"dec\")); } } }"})
    plan = plan_build(repo, "mono")
    assert [(p.name, p.nunit_major) for p in plan.tests] == [("Tests", 3)]
    judged = judge_unchanged(repo, tmp_path / "work", "Core/Codec.cs")
    assert judged.verdict.tests_run == 1 and judged.verdict.status == "passed", judged.verdict.log[-2000:]


def test_a_variant_project_in_a_subfolder_owns_the_test_files_of_the_folder_above(tmp_path):
    """xmlunit.net's net35 tests: tests/NetFramework/Tests.csproj compiles ..\\Diff\\*.cs and a shared
    ..\\..\\shared\\Info.cs. Its folder holds no source, so its own test files were none: doctor counted '0 as
    written' and no task of a 13-member masked port found a covering test ('no selected test ran'). Its own
    files are those of the nearest folder above holding some; the shared file stays out."""
    from repotrans.execution.toolchains.msbuild import load_projects

    refs = ('<Compile Include="..\\Diff\\CodecTests.cs" /><Compile Include="..\\..\\shared\\Info.cs" />'
            '<Reference Include="nunit.framework" />')
    write_tree(tmp_path, {
        "shared/Info.cs": "[assembly: System.Reflection.AssemblyVersion(\"1.0\")]",
        "tests/Diff/CodecTests.cs": "using NUnit.Framework; [TestFixture] public class CodecTests { [Test] public void T() { } }",
        "tests/NetFramework/Tests.csproj": classic("Tests", refs).replace('<Compile Include="*.cs" />', "")})
    project = next(p for p in load_projects(tmp_path) if p.name == "Tests")
    assert [s.relative_to(tmp_path).as_posix() for s in project.own_sources] == ["tests/Diff/CodecTests.cs"]
