"""MSBuild evaluation on project shapes found in real repositories (written for these tests):
shared .props imported through $(SolutionDir), Directory.Build.props/.targets, multi-targeting
with per-framework conditions, classic csproj files with explicit Compile lists and links."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.errors import ConfigError
from repotrans.execution.toolchains.frameworks import choose_framework, compatible, implicit_defines
from repotrans.execution.toolchains.msbuild import load_project, load_projects
from repotrans.execution.toolchains.msbuild_expr import evaluate_condition, expand
from tests.support.solutions import write_tree


MULTI = """<Project Sdk="Microsoft.NET.Sdk">
  <Import Project="$(SolutionDir)Acme.Common.props" />
  <PropertyGroup>
    <TargetFrameworks>net35-client;net40-client;net45;netstandard1.0;netstandard2.0</TargetFrameworks>
    <AssemblyName>Acme.Core</AssemblyName>
  </PropertyGroup>
  <PropertyGroup Condition=" '$(TargetFramework)' == 'net45' ">
    <DefineConstants>$(DefineConstants);HAS_TASKS</DefineConstants>
  </PropertyGroup>
  <PropertyGroup Condition="'$(TargetFramework)' == 'netstandard2.0' Or '$(TargetFramework)' == 'netstandard1.0'">
    <DefineConstants>$(DefineConstants);PORTABLE</DefineConstants>
  </PropertyGroup>
  <ItemGroup Condition="'$(TargetFramework)' != 'net45'">
    <Compile Remove="Tasks/**" />
  </ItemGroup>
</Project>"""


def test_multitargeting_import_via_solution_dir_and_framework_choice(tmp_path):
    write_tree(tmp_path, {
        "Acme.sln": "",
        "Acme.Common.props": """<Project><PropertyGroup>
            <DefineConstants>$(DefineConstants);ACME_COMMON</DefineConstants><SignAssembly>true</SignAssembly>
            <AssemblyOriginatorKeyFile>$(MSBuildThisFileDirectory)build/acme.snk</AssemblyOriginatorKeyFile>
            <LangVersion>7.3</LangVersion></PropertyGroup></Project>""",
        "src/Acme.Core/Acme.Core.csproj": MULTI,
        "src/Acme.Core/Reader.cs": "", "src/Acme.Core/Tasks/Async.cs": ""})
    path = (tmp_path / "src/Acme.Core/Acme.Core.csproj").resolve()
    mono = load_project(path, tmp_path.resolve(), "mono")
    assert mono.target_framework == "net45" and mono.framework_note == "best of 5 for mono"
    assert mono.defines[:4] == ["DEBUG", "TRACE", "ACME_COMMON", "HAS_TASKS"]
    assert "NET45" in mono.defines and "NETFRAMEWORK" in mono.defines and "PORTABLE" not in mono.defines
    assert mono.key_file == (tmp_path / "build/acme.snk").resolve() and mono.lang_version == "7.3"
    assert [s.name for s in mono.sources] == ["Reader.cs", "Async.cs"]
    dotnet = load_project(path, tmp_path.resolve(), "dotnet")
    assert dotnet.target_framework == "netstandard2.0"
    assert "PORTABLE" in dotnet.defines and "NETSTANDARD2_0" in dotnet.defines and "HAS_TASKS" not in dotnet.defines
    assert [s.name for s in dotnet.sources] == ["Reader.cs"]
    forced = load_project(path, tmp_path.resolve(), "mono", framework="netstandard1.0")
    assert forced.target_framework == "netstandard1.0" and forced.framework_note == "--framework"
    unknown = load_project(path, tmp_path.resolve(), "mono", framework="net8.0")
    assert unknown.target_framework == "net45" and "net8.0 is not among" in unknown.framework_note


def test_directory_build_props_and_targets_chain(tmp_path):
    write_tree(tmp_path, {
        "Directory.Build.props": """<Project><PropertyGroup><Company>Acme</Company>
            <DefineConstants>$(DefineConstants);ROOT</DefineConstants></PropertyGroup></Project>""",
        "tests/Directory.Build.props": """<Project>
            <Import Project="$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)../'))" />
            <PropertyGroup><IsTestProject>true</IsTestProject></PropertyGroup></Project>""",
        "tests/Directory.Build.targets": """<Project><PropertyGroup Condition="'$(IsTestProject)' == 'true'">
            <DefineConstants>$(DefineConstants);UNDER_TEST</DefineConstants></PropertyGroup></Project>""",
        "tests/Acme.Tests/Acme.Tests.csproj": """<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>
            <TargetFramework>net48</TargetFramework></PropertyGroup>
            <ItemGroup><PackageReference Include="NUnit" Version="3.13.3" />
            <PackageReference Include="NUnit" Update="NUnit" Version="3.14.0" /></ItemGroup></Project>""",
        "tests/Acme.Tests/T.cs": ""})
    [p] = load_projects(tmp_path)
    assert p.defines[:4] == ["DEBUG", "TRACE", "ROOT", "UNDER_TEST"]
    assert p.is_test and p.test_framework == "nunit" and p.nunit_major == 3
    assert p.package_refs == [("NUnit", "3.14.0")] and p.properties["Company"] == "Acme"


CLASSIC = r"""<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="4.0" DefaultTargets="Build" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <Import Project="$(MSBuildExtensionsPath)\$(MSBuildToolsVersion)\Microsoft.Common.props" Condition="Exists('$(MSBuildExtensionsPath)\$(MSBuildToolsVersion)\Microsoft.Common.props')" />
  <PropertyGroup>
    <Configuration Condition=" '$(Configuration)' == '' ">Debug</Configuration>
    <Platform Condition=" '$(Platform)' == '' ">AnyCPU</Platform>
    <OutputType>Library</OutputType>
    <RootNamespace>Acme.Legacy</RootNamespace>
    <AssemblyName>acme.legacy</AssemblyName>
    <TargetFrameworkVersion>v4.0</TargetFrameworkVersion>
  </PropertyGroup>
  <PropertyGroup Condition=" '$(Configuration)|$(Platform)' == 'Debug|AnyCPU' ">
    <DefineConstants>TRACE;DEBUG;NET40</DefineConstants>
  </PropertyGroup>
  <PropertyGroup Condition=" '$(Configuration)|$(Platform)' == 'Release|AnyCPU' ">
    <DefineConstants>TRACE</DefineConstants>
  </PropertyGroup>
  <ItemGroup>
    <Reference Include="System" />
    <Reference Include="log4net, Version=1.2.10.0, Culture=neutral">
      <HintPath>..\..\lib\log4net.dll</HintPath>
    </Reference>
  </ItemGroup>
  <ItemGroup>
    <Compile Include="Codec.cs" />
    <Compile Include="..\Shared\Checksum.cs"><Link>Shared\Checksum.cs</Link></Compile>
    <Compile Include="Properties\AssemblyInfo.cs" />
    <EmbeddedResource Include="Data\table.bin" />
  </ItemGroup>
  <Import Project="$(MSBuildToolsPath)\Microsoft.CSharp.targets" />
  <Import Project="..\build\missing.targets" Condition="Exists('..\build\missing.targets')" />
</Project>"""


def test_classic_project_explicit_items_no_globbing(tmp_path):
    write_tree(tmp_path, {"src/Legacy/Legacy.csproj": CLASSIC, "src/Legacy/Codec.cs": "", "src/Legacy/Stray.cs": "",
                      "src/Legacy/Properties/AssemblyInfo.cs": "", "src/Shared/Checksum.cs": "",
                      "src/Legacy/Data/table.bin": "x", "Directory.Build.props":
                      "<Project><PropertyGroup><Extra>yes</Extra></PropertyGroup></Project>"})
    [p] = load_projects(tmp_path)
    root = tmp_path.resolve()
    assert not p.sdk and p.target_framework == "net40" and p.assembly_name == "acme.legacy"
    assert p.defines == ["TRACE", "DEBUG", "NET40"]                      # classic: no implicit symbols
    assert [s.relative_to(root).as_posix() for s in p.sources] == [
        "src/Legacy/Codec.cs", "src/Legacy/Properties/AssemblyInfo.cs", "src/Shared/Checksum.cs"]
    assert p.references == [("System", None), ("log4net", root / "lib/log4net.dll")]
    assert p.resources == [(root / "src/Legacy/Data/table.bin", "Acme.Legacy.Data.table.bin")]
    assert p.properties.get("Extra") == "yes"        # Microsoft.Common.props brings Directory.Build.props


def test_classic_platform_projects_are_not_buildable(tmp_path):
    silverlight = CLASSIC.replace("<OutputType>", "<ProjectTypeGuids>{A1591282-1198-4647-A2B1-27E5FF5F6F3B};"
                                  "{fae04ec0-301f-11d3-bf4b-00c04f79efbc}</ProjectTypeGuids><OutputType>")
    write_tree(tmp_path, {"Sl/Sl.csproj": silverlight})
    [p] = load_projects(tmp_path)
    assert p.target_framework == "" and "Silverlight" in p.framework_note


def test_wildcards_exclude_and_remove(tmp_path):
    write_tree(tmp_path, {
        "lib/std/Lib.csproj": r"""<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>netstandard2.0</TargetFramework>
          <EnableDefaultCompileItems>False</EnableDefaultCompileItems></PropertyGroup>
          <ItemGroup>
            <Compile Include="..\Top.cs;..\Other.cs" Exclude="..\Other.cs" />
            <Compile Include="..\codec\**;..\util\**" Exclude="..\util\optional\**\*" />
            <Compile Remove="..\codec\Legacy.cs" />
          </ItemGroup></Project>""",
        "lib/Top.cs": "", "lib/Other.cs": "", "lib/codec/A.cs": "", "lib/codec/Legacy.cs": "", "lib/codec/notes.txt": "",
        "lib/util/B.cs": "", "lib/util/optional/C.cs": ""})
    [p] = load_projects(tmp_path)
    assert [s.relative_to(tmp_path.resolve()).as_posix() for s in p.sources] == [
        "lib/Top.cs", "lib/codec/A.cs", "lib/util/B.cs"]


def test_conditions_and_property_functions(tmp_path):
    props = {"TargetFramework": "net472", "Configuration": "Release", "V": "16.4", "Empty": ""}
    assert evaluate_condition("'$(TargetFramework)' == 'NET472'", props, tmp_path)     # case-insensitive
    assert evaluate_condition("$(TargetFramework.StartsWith('net4')) and !('$(Configuration)' == 'Debug')", props, tmp_path)
    assert evaluate_condition("'$(V)' >= '15.0' AND '$(Empty)' == ''", props, tmp_path)
    assert not evaluate_condition("Exists('nope.props') or '$(Empty)' != ''", props, tmp_path)
    assert evaluate_condition("$([MSBuild]::IsTargetFrameworkCompatible('$(TargetFramework)', 'netstandard2.0'))",
                              props, tmp_path)
    assert expand("$(TargetFramework.Replace('net', 'v'))|$([System.IO.Path]::Combine('a', 'b.props'))", props) == \
        "v472|a/b.props"
    with pytest.raises(ConfigError, match="unsupported MSBuild condition"):
        evaluate_condition("'a' === 'b'", props, tmp_path)


def test_framework_rules():
    assert choose_framework(["netstandard2.0", "net8.0", "net462"], "mono") == ("net462", "best of 3 for mono")
    assert choose_framework(["netstandard2.0", "net8.0", "net462"], "dotnet")[0] == "net8.0"
    assert choose_framework(["sl5", "wp8"], "mono")[0] is None
    assert implicit_defines("net6.0")[:3] == ["NETCOREAPP", "NET", "NET6_0"]
    assert "NET5_0_OR_GREATER" in implicit_defines("net6.0") and "NET7_0_OR_GREATER" not in implicit_defines("net6.0")
    assert compatible("net472", "netstandard2.0") and compatible("net45", "net40") and not compatible("net40", "net45")
    assert not compatible("net45", "netstandard2.0") and compatible("net8.0", "netstandard2.1")


def test_chained_property_functions(tmp_path):
    props = {"TargetFrameworkVersion": "v4.0", "Configuration": "Debug35", "X": "a/b.cs"}
    assert expand('$(TargetFrameworkVersion.Replace("v", "NET").Replace(".", ""))', props) == "NET40"
    assert expand('$(Configuration.Replace("35", ""))|$(X.Length)', props) == "Debug|6"
    assert expand("$([System.IO.Path]::GetFileName('$(X)').ToUpper())", props) == "B.CS"


def test_well_known_item_metadata_in_links(tmp_path):
    """Two resources of the same file name in different folders, linked by %(RecursiveDir): distinct
    manifest names (unexpanded, both were '...%(RecursiveDir)%(Filename)%(Extension)': CS1508)."""
    write_tree(tmp_path, {
        "P/P.csproj": '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net45</TargetFramework>'
                      '<RootNamespace>Acme</RootNamespace></PropertyGroup><ItemGroup>'
                      '<EmbeddedResource Include="..\\data\\**\\*.txt"><Link>Data\\%(RecursiveDir)%(Filename)%(Extension)</Link>'
                      '</EmbeddedResource><EmbeddedResource Include="res\\one.bin" LogicalName="%(Filename).%(Identity)" />'
                      '</ItemGroup></Project>',
        "P/A.cs": "", "P/res/one.bin": "", "data/a/x.txt": "", "data/b/c/x.txt": "", "data/top.txt": ""})
    [p] = load_projects(tmp_path)
    assert sorted(name for _, name in p.resources) == [
        "Acme.Data.a.x.txt", "Acme.Data.b.c.x.txt", "Acme.Data.top.txt", "one.res/one.bin"]


def test_items_of_an_imported_file_are_relative_to_the_project_and_unknown_functions_leave_a_note(tmp_path):
    write_tree(tmp_path, {
        "Acme.sln": "",
        "build/Common.targets": '<Project><ItemGroup><ProjectReference Include="..\\..\\src\\Lib\\Lib.csproj" />'
                                '</ItemGroup></Project>',
        "Directory.Build.props": '<Project><PropertyGroup><Year>$([System.DateTime]::UtcNow.Year.ToString())</Year>'
                                 '</PropertyGroup></Project>',
        "tests/T/T.csproj": '<Project Sdk="Microsoft.NET.Sdk"><Import Project="$(SolutionDir)build/Common.targets" />'
                            '<PropertyGroup><TargetFramework>net45</TargetFramework></PropertyGroup></Project>',
        "src/Lib/Lib.csproj": '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net45</TargetFramework>'
                              '</PropertyGroup></Project>'})
    p = load_project((tmp_path / "tests/T/T.csproj").resolve(), tmp_path.resolve())
    assert p.project_refs == [(tmp_path / "src/Lib/Lib.csproj").resolve()]
    assert p.properties["Year"] == ""
    assert [n.split(":")[0] for n in p.notes] == ["property Year left empty"]
