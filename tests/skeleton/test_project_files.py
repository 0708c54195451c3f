"""A port of .cs files only gets minimal project files (`repotrans init --write-project`): its library at the
root, its NUnit tests in the folder that holds them, found and chosen as the toolchain finds any port's."""
from __future__ import annotations

import shutil
from pathlib import Path

from repotrans.cli.main import main

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "stranger_pair"


def test_init_writes_a_library_and_a_test_project_the_build_finds(tmp_path, capsys):
    shutil.copytree(PAIR, tmp_path / "pair")
    cs = tmp_path / "pair" / "csharp"
    for project in cs.rglob("*.csproj"):
        project.unlink()
    code = main(["init", "--source", str(tmp_path / "pair" / "java"), "--target", str(cs), "--write-project",
                 "--out", str(tmp_path / "r.toml"), "--workdir", str(tmp_path / "wd")])
    out = capsys.readouterr().out
    assert sorted(p.relative_to(cs).as_posix() for p in cs.rglob("*.csproj")) == [
        "Example.Ring.csproj", "Ring.Tests/Example.Ring.Tests.csproj"]
    assert '<Compile Remove="Ring.Tests/**" />' in (cs / "Example.Ring.csproj").read_text()
    tests = (cs / "Ring.Tests" / "Example.Ring.Tests.csproj").read_text()
    assert '<ProjectReference Include="..\\Example.Ring.csproj" />' in tests and 'Include="NUnit"' in tests
    assert "chosen: Example.Ring [library] net48 (the only one), 2 files" in out
    assert "chosen: Example.Ring.Tests [tests (nunit 2)] net48 (the only one), 1 files" in out
    assert code == 0, out
    again = main(["init", "--source", str(tmp_path / "pair" / "java"), "--target", str(cs), "--write-project",
                  "--out", str(tmp_path / "r2.toml"), "--no-doctor"])
    assert again == 2 and "already has a .csproj" in capsys.readouterr().err


def test_a_build_that_fails_without_a_diagnostic_says_the_compilers_first_errors():
    from repotrans.execution.toolchains.mono import first_errors

    output = ("Compilation started\nerror: cannot open assembly 'Missing.dll'\nUnhandled Exception: System.IO.Error\n"
              "Compilation failed: 2 error(s), 0 warnings\n")
    assert first_errors(output, 1) == ("error: cannot open assembly 'Missing.dll' | Unhandled Exception: System.IO.Error"
                                       " | Compilation failed: 2 error(s), 0 warnings (mcs exit 1)")
    assert first_errors("", 1) == "mcs exit 1"


def test_mstest_tests_get_a_project_that_references_mstest_and_runs(tmp_path, capsys):
    """A port whose tests use MSTest (`Microsoft.VisualStudio.TestTools.UnitTesting`) gets an MSTest project: with
    NUnit's package instead, every test file failed to compile and the doctor dropped both projects."""
    shutil.copytree(PAIR, tmp_path / "pair")
    cs = tmp_path / "pair" / "csharp"
    for project in cs.rglob("*.csproj"):
        project.unlink()
    tests = cs / "Ring.Tests" / "RingBufferTests.cs"
    tests.write_text(tests.read_text().replace("using NUnit.Framework;", "using Microsoft.VisualStudio.TestTools.UnitTesting;")
                     .replace("[TestFixture]", "[TestClass]").replace("[Test]", "[TestMethod]"))
    code = main(["init", "--source", str(tmp_path / "pair" / "java"), "--target", str(cs), "--write-project",
                 "--out", str(tmp_path / "r.toml"), "--workdir", str(tmp_path / "wd"), "--sandbox", "local"])
    out = capsys.readouterr().out
    project = (cs / "Ring.Tests" / "Example.Ring.Tests.csproj").read_text()
    assert 'Include="MSTest.TestFramework"' in project and "NUnit" not in project
    assert "1 test file(s) (they use MSTest)" in out
    assert "chosen: Example.Ring.Tests [tests (mstest)] net48 (the only one), 1 files" in out
    assert code == 0, out


def test_a_file_goes_to_the_project_whose_folder_holds_it_when_none_compiles_beside_it(tmp_path):
    """A classic test project whose only compiled file is Properties/AssemblyInfo.cs (its tests hidden, as
    the deleted-class benchmark does with Pinyin4j.NET's): a fixture written in the project's folder joins
    its Compile items."""
    from repotrans.skeleton.place import place_files
    project = tmp_path / "Lib.Tests"
    (project / "Properties").mkdir(parents=True)
    (project / "Properties" / "AssemblyInfo.cs").write_text("")
    (project / "Lib.Tests.csproj").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<Project ToolsVersion="14.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">\n'
        '  <PropertyGroup><OutputType>Library</OutputType><AssemblyName>Lib.Tests</AssemblyName></PropertyGroup>\n'
        '  <ItemGroup>\n    <Compile Include="Properties\\AssemblyInfo.cs" />\n  </ItemGroup>\n</Project>\n')
    placement = place_files(tmp_path, {"Lib.Tests/HelperTests.cs": "class HelperTests { }"})
    assert placement.projects == {"Lib.Tests": ["Lib.Tests/HelperTests.cs"]}
    assert '<Compile Include="HelperTests.cs" />' in (project / "Lib.Tests.csproj").read_text()
