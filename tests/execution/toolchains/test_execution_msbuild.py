"""SDK-style project evaluation for the mono toolchain."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.errors import ConfigError
from repotrans.execution.toolchains.msbuild import load_projects
from repotrans.execution.toolchains.msbuild_items import glob_regex

CALC = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet" / "projects" / "calc"


def test_fixture_projects_exact():
    lib, tests = load_projects(CALC)                       # references first
    root = CALC.resolve()
    assert (lib.name, lib.assembly_name, lib.output_type, lib.target_framework) == (
        "Acme.Calc", "Acme.Calc", "Library", "net8.0")
    assert lib.defines[:5] == ["DEBUG", "TRACE", "FAST_PATH", "NETCOREAPP", "NET"]
    assert "NET8_0" in lib.defines and "NET8_0_OR_GREATER" in lib.defines and "NET9_0_OR_GREATER" not in lib.defines
    assert (lib.sign, lib.key_file, lib.unsafe, lib.lang_version) == (True, root / "key.snk", True, "6")
    assert [s.relative_to(root).as_posix() for s in lib.sources] == [
        "src/Acme.Calc/AssemblyInfo.cs", "src/Acme.Calc/Calculator.cs", "src/Acme.Calc/Text/Greeter.cs"]
    assert lib.resources == [(root / "src/Acme.Calc/Resources/greeting.txt", "Acme.Calc.Resources.greeting.txt")]
    assert not lib.is_test and tests.is_test
    assert tests.project_refs == [lib.path]
    assert tests.package_refs == [("Microsoft.NET.Test.Sdk", "17.8.0"), ("NUnit", "3.14.0"),
                                  ("NUnit3TestAdapter", "4.5.0")]


def _project(tmp_path: Path, body: str, name: str = "P") -> Path:
    path = tmp_path / name / f"{name}.csproj"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<Project Sdk="Microsoft.NET.Sdk">{body}</Project>')
    return path


def test_conditions_globs_and_links(tmp_path):
    _project(tmp_path, """
      <PropertyGroup><AssemblyName>Custom</AssemblyName><EnableDefaultCompileItems>false</EnableDefaultCompileItems>
        <DefineConstants>$(DefineConstants);A</DefineConstants></PropertyGroup>
      <PropertyGroup Condition="'$(Configuration)' == 'Debug'"><DefineConstants>$(DefineConstants);DBG</DefineConstants></PropertyGroup>
      <PropertyGroup Condition=" '$(Configuration)|$(Platform)' == 'Release|AnyCPU' "><DefineConstants>REL</DefineConstants></PropertyGroup>
      <PropertyGroup Condition="Exists('extra.props') and '$(OutputType)' != 'Exe'"><LangVersion>7.2</LangVersion></PropertyGroup>
      <ItemGroup>
        <Compile Include="Core/**/*.cs" />
        <Compile Include="..\\Shared\\*.cs" />
        <Compile Remove="Core/Generated/**" />
        <EmbeddedResource Include="data\\*.json" LogicalName="Data.json" />
      </ItemGroup>""")
    for rel in ("P/Core/A.cs", "P/Core/Deep/B.cs", "P/Core/Generated/G.cs", "P/Other.cs", "Shared/S.cs",
                "P/obj/Debug/X.cs", "P/data/d.json", "P/extra.props"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    [p] = load_projects(tmp_path)
    assert p.assembly_name == "Custom" and p.dll_name == "Custom.dll"
    assert p.defines == ["DEBUG", "TRACE", "A", "DBG"]
    assert p.lang_version == "7.2"
    assert [s.relative_to(tmp_path.resolve()).as_posix() for s in p.sources] == [
        "P/Core/A.cs", "P/Core/Deep/B.cs", "Shared/S.cs"]
    assert [name for _, name in p.resources] == ["Data.json"]


def test_default_globbing_skips_bin_obj_and_hidden(tmp_path):
    _project(tmp_path, "")
    for rel in ("P/A.cs", "P/bin/Debug/X.cs", "P/obj/Y.cs", "P/.hidden/Z.cs", "P/Sub/B.cs"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    [p] = load_projects(tmp_path)
    assert [s.name for s in p.sources] == ["A.cs", "B.cs"]


def test_reference_cycle_and_missing_reference(tmp_path):
    _project(tmp_path, '<ItemGroup><ProjectReference Include="../B/B.csproj" /></ItemGroup>', "A")
    _project(tmp_path, '<ItemGroup><ProjectReference Include="../A/A.csproj" /></ItemGroup>', "B")
    with pytest.raises(ConfigError, match="cycle"):
        load_projects(tmp_path)
    _project(tmp_path, '<ItemGroup><ProjectReference Include="../C/C.csproj" /></ItemGroup>', "B")
    with pytest.raises(ConfigError, match="which does not exist"):
        load_projects(tmp_path)


def test_bad_inputs_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="no .csproj"):
        load_projects(tmp_path)
    _project(tmp_path, '<PropertyGroup Condition="$([MSBuild]::GetTargetPlatformIdentifier(x))"><A>1</A></PropertyGroup>')
    with pytest.raises(ConfigError, match="unsupported MSBuild property function"):
        load_projects(tmp_path)
    (tmp_path / "P" / "P.csproj").write_text("<Project>")
    with pytest.raises(ConfigError, match="cannot read"):
        load_projects(tmp_path)


def test_glob_regex():
    rx = glob_regex("**/*.cs")
    assert rx.match("A.cs") and rx.match("a/b/C.cs") and not rx.match("a/b/C.csx")
    assert glob_regex("Gen/*.cs").match("Gen/x.cs") and not glob_regex("Gen/*.cs").match("Gen/sub/x.cs")
