"""`repotrans doctor --target`: every project built or dropped at build with its first compiler
error ([!!], never [ok]), test counts per test project as written, built and run, and the NUnit 3
alias patterns probed (fixture solution written for this test)."""
from __future__ import annotations

import shutil

import pytest

from repotrans.execution.judge.build_report import build_section, count_tests, render
from repotrans.execution.settings import ExecutionConfig
from tests.support.solutions import write_tree


def sdk(body: str, tfm: str = "net48") -> str:
    return f'<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>{tfm}</TargetFramework>' \
           f'</PropertyGroup>{body}</Project>'


NUNIT = '<PackageReference Include="NUnit" Version="{v}" />'
SOLUTION = {
    "src/Core/Core.csproj": sdk(""),
    "src/Core/Codec.cs": "namespace Acme { public static class Codec { public static int Twice(int x) { return 2 * x; } } }",
    # a library that does not compile here (a missing package's namespace): its tests are dropped with it
    "src/Geo/Geo.csproj": sdk('<ItemGroup><PackageReference Include="Acme.Missing.Api" Version="1.0" /></ItemGroup>'),
    "src/Geo/Shape.cs": "using Acme.Missing.Api; namespace Acme.Geo { public class Shape { } }",
    "tests/Core.Tests/Core.Tests.csproj": sdk('<PropertyGroup><OutputType>Exe</OutputType></PropertyGroup><ItemGroup>'
                                              + NUNIT.format(v="3.13.0") +
                                              '<ProjectReference Include="../../src/Core/Core.csproj" /></ItemGroup>'),
    "tests/Core.Tests/CodecTests.cs": "using NUnit.Framework; using Assert = NUnit.Framework.Assert;\n"
                                      "namespace Acme.Tests { [TestFixture] public class CodecTests {\n"
                                      "  [Test] public void Twice() { Assert.AreEqual(4, Codec.Twice(2)); }\n"
                                      "  [TestCase(1, 2), TestCase(3, 6)] public void Cases(int x, int y) { Assert.Zero(Codec.Twice(x) - y); }\n"
                                      "  public static void Main() { } } }",
    "tests/Core.Tests/Program.cs": "namespace Acme.Tests { static class Program { static void Main() { } } }",
    "tests/Core.Tests/Broken.cs": "namespace Acme.Tests { public class Broken { [NUnit.Framework.Test] public void T() "
                                  "{ Nope(); } } }",
    "tests/Geo.Tests/Geo.Tests.csproj": sdk("<ItemGroup>" + NUNIT.format(v="2.6.4") +
                                            '<ProjectReference Include="../../src/Geo/Geo.csproj" /></ItemGroup>'),
    "tests/Geo.Tests/ShapeTests.cs": "using NUnit.Framework; namespace Acme.Tests { [TestFixture] public class ShapeTests "
                                     "{ [Test] public void A() { new Acme.Geo.Shape(); } [Test] public void B() { } } }",
}


def test_count_tests_as_written(tmp_path):
    write_tree(tmp_path, {"a.cs": "[Test] void A(){} [TestCase(1)][TestCase(2)] void B(int x){} [Test, Explicit] void C(){}"
                              " [TestCaseSource(nameof(S))] void D(int x){} [TestFixture] class F {}"})
    assert count_tests([tmp_path / "a.cs"]) == 5


@pytest.mark.slow
def test_doctor_never_calls_a_dropped_project_ok(tmp_path, monkeypatch):
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NUGET_PACKAGES", raising=False)
    write_tree(tmp_path / "repo", SOLUTION)
    title, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "work",
                                 timeout=120)
    text = render(title, lines)
    problems = [line for ok, line in lines if ok is False]
    assert any(line.startswith("dropped at build: Geo [library]") and "CS0234" in line and
               "built without package Acme.Missing.Api" in line for line in problems), text
    assert any(line.startswith("dropped at build: Geo.Tests [tests (nunit 2)]") for line in problems), text
    assert "tests: Geo.Tests: 2 as written, 0 built (the project was dropped at build)" in problems, text
    # an executable test project with two Mains is compiled as a library; the broken file is quarantined
    assert (True, "tests: Core.Tests: 4 as written, 3 built, 3 run, 3 passed") in lines, text
    assert any(ok is None and line.startswith("quarantined test file: Core.Tests: tests/Core.Tests/Broken.cs (1 tests)")
               for ok, line in lines), text
    assert (True, "NUnit 3 on mono: `using Assert = NUnit.Framework.Assert;` compiles") in lines, text
    assert not any(ok and "Geo" in line for ok, line in lines if line.startswith(("built", "chosen"))), text


def test_the_language_gap_is_named_with_feature_and_line(tmp_path):
    from repotrans.execution.toolchains.lang_gap import language_gap

    (tmp_path / "a.cs").write_text("class A {\n    int F() {\n        int G(int x) { return x + 1; }\n        return G(1);\n"
                                   "    }\n    int H(object o) => o switch { int i => i, _ => 0 };\n"
                                   "    void K(string s) { s ??= \"x\"; }\n}\n")
    f = tmp_path / "a.cs"
    assert language_gap("CS1525", "Unexpected symbol `('", f, 3) == "C# 7.0 local function"
    assert language_gap("CS1525", "Unexpected symbol `int'", f, 6) == "C# 8.0 switch expression"
    assert language_gap("CS1525", "Unexpected symbol `='", f, 7) == "C# 8.0 null-coalescing assignment ??="
    assert language_gap("CS0029", "Cannot implicitly convert", f, 3) == ""       # a type error is no gap
    assert language_gap("CS1644", "Feature `default literal' cannot be used because it is not part of the C# 7.0 "
                                  "language specification", None, 0) == "C# 7.0 default literal"


@pytest.mark.slow
def test_a_dropped_test_file_names_the_language_gap(tmp_path, monkeypatch):
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    files = {k: v for k, v in SOLUTION.items() if not k.startswith(("src/Geo", "tests/Geo"))}
    files["tests/Core.Tests/Broken.cs"] = ("namespace Acme.Tests { public class Local { [NUnit.Framework.Test] public void T()"
                                           " {\n int Twice(int x) { return 2 * x; }\n NUnit.Framework.Assert.AreEqual(4, "
                                           "Twice(2)); } } }")
    write_tree(tmp_path / "repo", files)
    _, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "work", timeout=120)
    [line] = [line for _, line in lines if line.startswith("quarantined test file: Core.Tests: tests/Core.Tests/Broken.cs")]
    assert line.endswith("(mcs lacks C# 7.0 local function: tests/Core.Tests/Broken.cs:2)"), line


def test_api_gaps_of_newer_dotnet_are_named():
    from repotrans.execution.toolchains.lang_gap import language_gap

    split = "The best overloaded method match for `string.Split(char[], int)' has some invalid arguments"
    assert language_gap("CS1502", split, None, 0) == \
        "API the string.Split overloads of .NET Core 2.0+ (char arguments, StringComparison)"
    assert language_gap("CS0234", "The type or namespace name `HashCode' does not exist in the namespace `System'. "
                                  "Are you missing an assembly reference?", None, 0) == \
        "API type HashCode of .NET Core / netstandard2.1"


def test_netstandard_projects_get_the_facades_and_framework_packages(tmp_path, monkeypatch):
    """A netstandard2.0 library using System.Drawing through the System.Drawing.Common package, tested
    from net48: compiled against the netstandard facade and mono's System.Drawing."""
    if shutil.which("mcs") is None:
        pytest.skip("mono is not installed")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    write_tree(tmp_path / "repo", {
        "src/Img/Img.csproj": sdk('<ItemGroup><PackageReference Include="System.Drawing.Common" Version="4.5.0" />'
                                  '</ItemGroup>', "netstandard2.0"),
        "src/Img/Area.cs": "namespace Acme { public static class Area { public static int Of(System.Drawing.Size s) "
                           "{ return s.Width * s.Height; } } }",
        "tests/T/T.csproj": sdk("<ItemGroup>" + NUNIT.format(v="2.6.4") +
                                '<ProjectReference Include="../../src/Img/Img.csproj" /></ItemGroup>'),
        "tests/T/AreaTests.cs": "using NUnit.Framework; namespace Acme.Tests { [TestFixture] public class AreaTests "
                                "{ [Test] public void Of() { Assert.AreEqual(6, Area.Of(new System.Drawing.Size(2, 3))); } } }"})
    _, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "work", timeout=120)
    assert (True, "tests: T: 1 as written, 1 built, 1 run, 1 passed") in lines, render("", lines)


def test_a_second_variant_of_a_test_assembly_that_is_run_is_no_problem(tmp_path):
    """xmlunit.net ships its tests as an SDK project and a net35 project of the same assembly: one is built and
    run, the other quarantined with why; doctor said [!!] for it and exited 1 (a stranger port, lane STRANGER)."""
    tests = sdk("<PropertyGroup><AssemblyName>Core.Tests</AssemblyName></PropertyGroup><ItemGroup>"
                + NUNIT.format(v="2.6.4") + '<ProjectReference Include="../../src/Core/Core.csproj" /></ItemGroup>')
    write_tree(tmp_path / "repo", {
        "src/Core/Core.csproj": SOLUTION["src/Core/Core.csproj"], "src/Core/Codec.cs": SOLUTION["src/Core/Codec.cs"],
        "tests/Core.Tests/Core.Tests.csproj": tests,
        "tests/Core.Tests/CodecTests.cs": "using NUnit.Framework; namespace Acme.Tests { [TestFixture] public class "
                                          "CodecTests { [Test] public void Twice() { Assert.AreEqual(4, Codec.Twice(2)); } } }",
        "tests/Core.Tests.Net35/Core.Tests.Net35.csproj": tests.replace("net48", "net35").replace(
            "</PropertyGroup><ItemGroup>", "</PropertyGroup><ItemGroup><Compile Include=\"../Core.Tests/*.cs\" />"),
    })
    title, lines = build_section(tmp_path / "repo", ExecutionConfig(sandbox="local"), workdir=tmp_path / "work",
                                 run_tests=False)
    quarantined = [(ok, line) for ok, line in lines if line.startswith("quarantined: ")]
    assert len(quarantined) == 1 and "another variant of test assembly Core.Tests" in quarantined[0][1], lines
    assert quarantined[0][0] is None, render(title, lines)
