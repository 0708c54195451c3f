"""MSTest suites on the mono toolchain (fixtures written for this test, compiled by mcs and run by
repotrans's NUnit 2.6 runner for real): a classic project referencing VS's QualityTools assembly is
built against repotrans's MSTest layer instead; its attributes, Assert's MSTest semantics and
argument order, a failing assertion reported as a failure (not an error), categories excluded as in
NUnit, and the features the layer lacks named for doctor."""
from __future__ import annotations

from pathlib import Path

from repotrans.execution.toolchains.mstest_compat import unsupported_features
from repotrans.execution.toolchains.projects import plan_build
from tests.support.mono_repos import judging, needs_mono, write_tree

CLASSIC = """<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="4.0" DefaultTargets="Build" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <PropertyGroup><OutputType>Library</OutputType><AssemblyName>{name}</AssemblyName>
    <TargetFrameworkVersion>v4.0</TargetFrameworkVersion></PropertyGroup>
  <ItemGroup>{refs}<Reference Include="System" /></ItemGroup>
  <ItemGroup><Compile Include="{source}" /></ItemGroup>{more}
  <Import Project="$(MSBuildBinPath)\\Microsoft.CSharp.targets" />
</Project>"""
MSTEST_REF = ('<Reference Include="Microsoft.VisualStudio.QualityTools.UnitTestFramework, Version=10.0.0.0, '
              'Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a, processorArchitecture=MSIL" />')
CODEC = """using System;
namespace Acme { public static class Codec {
  public static int Twice(int x) { return 2 * x; }
  public static string Name(string s) { if (s == null) throw new ArgumentNullException("s"); return s.ToUpper(); } } }"""
TESTS = """using System;
using System.Collections.Generic;
using Microsoft.VisualStudio.TestTools.UnitTesting;
namespace Acme.Tests {
  [TestClass] public class CodecTests {
    int seed;
    [TestInitialize] public void Init() { seed = 2; }
    [TestMethod] public void Twice() { Assert.AreEqual(4, Codec.Twice(seed)); }
    [TestMethod] public void TwiceWrong() { Assert.AreEqual(5, Codec.Twice(seed), "seed {0}", seed); }
    [TestMethod] public void NameUpper() { StringAssert.StartsWith(Codec.Name("abc"), "AB"); }
    [TestMethod, ExpectedException(typeof(ArgumentNullException))] public void NameNull() { Codec.Name(null); }
    [TestMethod] public void ObjectEquality() { Assert.AreNotEqual((object)4L, (object)Codec.Twice(2)); }
    [TestMethod] public void Lists() { CollectionAssert.AreEqual(new List<int> { 2, 4 }, new[] { Codec.Twice(1), Codec.Twice(seed) }); }
    [DataTestMethod, DataRow(1, 2), DataRow(3, 6)] public void Rows(int x, int twice) { Assert.AreEqual(twice, Codec.Twice(x)); }
    [TestMethod, TestCategory("Integration")] public void AgainstTheService() { Assert.Fail("needs a service"); }
    [TestMethod, Ignore] public void NotYet() { Assert.Fail("ignored"); }
  }
}"""


def _repo(root: Path) -> Path:
    return write_tree(root, {
        "Acme/Acme.csproj": CLASSIC.format(name="Acme", refs="", source="Codec.cs", more=""),
        "Acme/Codec.cs": CODEC,
        "Acme.Tests/Acme.Tests.csproj": CLASSIC.format(
            name="Acme.Tests", refs=MSTEST_REF, source="CodecTests.cs",
            more='<ItemGroup><ProjectReference Include="..\\Acme\\Acme.csproj" /></ItemGroup>'),
        "Acme.Tests/CodecTests.cs": TESTS,
    })


def test_an_mstest_project_is_planned_for_mono_without_mstest_s_assembly(tmp_path):
    repo = _repo(tmp_path / "repo")
    plan = plan_build(repo, "mono")
    assert [(p.name, p.test_framework) for p in plan.tests] == [("Acme.Tests", "mstest")]
    assert not plan.quarantined


def test_mstest_tests_run_on_mono_with_mstest_semantics(tmp_path):
    needs_mono()
    with judging(_repo(tmp_path / "repo"), tmp_path / "work") as j:
        verdict = j.run("Acme/Codec.cs", j.original("Acme/Codec.cs"))
    by_name = {f.name.rsplit(".", 1)[-1]: f for f in verdict.failures}
    # 8 run: the Integration test is excluded by default, so is [Ignore]
    assert verdict.tests_run == 8, verdict.log[-2000:]
    assert sorted(verdict.excluded.values()) == ['[Category("Integration")]', "[Ignore]"]
    assert sorted(by_name) == ["TwiceWrong"], verdict.failures
    wrong = by_name["TwiceWrong"]
    assert wrong.message.startswith("Assert.AreEqual failed. seed 2")
    assert (wrong.expected, wrong.actual) == ("<5>", "<4>")
    assert verdict.status == "test_failure"          # an assertion, not an exception
    assert "TwiceWrong" in wrong.stack[0] and not any("UnitTesting" in frame for frame in wrong.stack)


def test_a_wrong_body_fails_mstest_tests_as_assertions(tmp_path):
    needs_mono()
    with judging(_repo(tmp_path / "repo"), tmp_path / "work") as j:
        wrong = j.original("Acme/Codec.cs").replace("return 2 * x;", "return x + 2;")
        verdict = j.run("Acme/Codec.cs", wrong, ["Acme.Tests:Acme.Tests.CodecTests.Rows", "Acme.Tests:Acme.Tests.CodecTests.Lists"])
    assert sorted(f.name.rsplit(".", 1)[-1].split("(")[0] for f in verdict.failures) == ["Lists", "Rows", "Rows"], verdict
    assert verdict.status == "test_failure"


def test_mstest_features_the_layer_lacks_are_named(tmp_path):
    write_tree(tmp_path, {"A.cs": "[TestClass] class A { public TestContext TestContext { get; set; }\n"
                                  "// [AssemblyInitialize()] (VS's template, commented out: not a use)\n"
                                  "[ClassInitialize] public static void I(TestContext c) { }\n"
                                  "[TestMethod, DeploymentItem(\"x.txt\")] public void T() { var n = TestContext.TestName; } }"})
    found = unsupported_features([tmp_path / "A.cs"])
    assert [f.split(" ")[0] for f in found] == ["[ClassInitialize]", "[DeploymentItem]", "TestContext"]
