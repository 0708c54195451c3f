"""dotnet toolchain: command lines, MSBuild and TRX parsing on recorded samples, and the build/test
flow driven through a scripted sandbox (the .NET SDK cannot be installed on this machine)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.capability.checks import MemberRef
from repotrans.verdicts.results import Diagnostic
from repotrans.execution.sandboxes import RunOutcome
from repotrans.execution.toolchains import DEFAULT_EXCLUDED, Limits, PatchedFile, TargetBuildError
from repotrans.execution.toolchains.dotnet import (DotnetToolchain, build_argvs, dotnet_test_argv, parse_msbuild,
                                                   parse_trx, vstest_filter)
from repotrans.execution.toolchains.msbuild import load_projects
from repotrans.execution.workspace.scratch import prepare_workspace
from tests.execution.capability.test_il_check import compile_calc

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "dotnet"
CALC = FIX / "projects" / "calc"
MEMBER = MemberRef("Acme.Calc.Calculator", ("Add",), 2, ("Int32", "Int32"))


def test_msbuild_diagnostics_are_deduplicated_and_mapped():
    text = (FIX / "msbuild" / "build_errors.txt").read_text()
    cand = PatchedFile(path="src/Acme.Calc/Calculator.cs", text="", line_map=LineMap({14: 3, 9: 1}),
                     surface_changed=False, run_dir=Path("/ws/runs/5d1c"))
    diags = parse_msbuild(text, Path("/ws/runs/5d1c/tree"), cand)
    assert [(d.code, d.file, d.line, d.column, d.candidate_line, d.severity) for d in diags] == [
        ("CS1525", "src/Acme.Calc/Calculator.cs", 14, 29, 3, "error"),
        ("CS0414", "src/Acme.Calc/Calculator.cs", 9, 34, 1, "warning"),
        ("CS1061", "tests/Acme.Calc.Tests/CalculatorTests.cs", 13, 29, None, "error"),
        ("CS2001", "", 0, 0, None, "error"),
    ]
    assert diags[2].message.startswith("'Calculator' does not contain a definition for 'Add'")
    assert not diags[2].message.endswith("]")


def test_trx_nunit_adapter():
    report = parse_trx((FIX / "trx" / "nunit3_adapter.trx").read_text())
    assert (report.total, report.passed) == (3, 1)
    assert [(f.name, f.expected, f.actual) for f in report.failures] == [
        ("Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers", "5", "-1"),
        ("Acme.Calc.Tests.FibonacciTests.FibonacciKnownValues(10,55)", None, None)]
    assert report.failures[0].stack == ["Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers() at CalculatorTests.cs:13"]
    [exc] = report.exceptions
    assert (exc.type, exc.message) == ("System.NotImplementedException",
                                       "The method or operation is not implemented.")
    assert exc.frames == ["Acme.Calc.Calculator.Fibonacci(Int32 n) at Calculator.cs:31",
                          "Acme.Calc.Tests.FibonacciTests.FibonacciKnownValues(Int32 n, Int64 expected) "
                          "at FibonacciTests.cs:13"]


def test_trx_xunit_and_mstest_styles():
    report = parse_trx((FIX / "trx" / "xunit_mstest.trx").read_text())
    assert (report.total, report.passed) == (4, 1)
    assert [(f.name, f.expected, f.actual) for f in report.failures] == [
        ("Acme.Geo.Tests.CircleTests.AreaOfUnitCircle", "3.1415926535897931", "6.2831853071795862"),
        ("Acme.Geo.Tests.LengthUnitTests.ParsesUnits", "Meter", "Foot"),
        ("Acme.Geo.Tests.LengthUnitTests.RejectsUnknownUnit", None, None)]
    assert report.failures[0].stack == ["Acme.Geo.Tests.CircleTests.AreaOfUnitCircle() at CircleTests.cs:21"]
    assert [(e.type, e.message) for e in report.exceptions] == [
        ("System.Collections.Generic.KeyNotFoundException",
         "The given key 'furlong' was not present in the dictionary.")]


def test_command_lines(tmp_path):
    projects = {p.name: p for p in load_projects(CALC)}
    test = projects["Acme.Calc.Tests"]
    assert build_argvs(CALC) == [["dotnet", "build", str(test.path), "--no-restore", "-nologo", "-v:q",
                                  "-clp:NoSummary", "-p:GenerateFullPaths=true",
                                  "-p:TreatWarningsAsErrors=false"]]
    trx = tmp_path / "results" / "Acme.Calc.Tests.trx"
    fib, add = "Acme.Calc.Tests.FibonacciTests", "Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers"
    assert dotnet_test_argv(test, [fib, add], trx) == [
        "dotnet", "test", str(test.path), "--no-build", "--no-restore", "-nologo",
        "--logger", "trx;LogFileName=Acme.Calc.Tests.trx", "--results-directory", str(tmp_path / "results"),
        "--filter", f"{vstest_filter(add)}|{vstest_filter(fib)}", "--", "RunConfiguration.TreatNoTestsAsError=true"]
    assert "--filter" not in dotnet_test_argv(test, None, trx)
    # excluded categories: never run, named or not (VSTest's TestCategory is NUnit's [Category] too)
    assert dotnet_test_argv(test, [add], trx, ("Integration", "Slow"))[-3] == \
        f"({vstest_filter(add)})&TestCategory!=Integration&TestCategory!=Slow"
    assert dotnet_test_argv(test, None, trx, ("Stress",))[-3] == "TestCategory!=Stress"
    (tmp_path / "one.sln").write_text("")
    (tmp_path / "p.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk"/>')
    assert build_argvs(tmp_path)[0][2] == str(tmp_path / "one.sln")


def test_vstest_filter_matches_a_fixture_or_a_test_method_and_nothing_it_prefixes():
    # fixture: its tests are "Ns.Fixture.Test"; test method: "Ns.Fixture.Test" (plain, xUnit theory)
    # or "Ns.Fixture.Test(1,2)" (NUnit test case, as the recorded TRX names FibonacciKnownValues(10,55))
    assert vstest_filter("Ns.Fixture.Test") == (
        r"FullyQualifiedName~Ns.Fixture.Test.|FullyQualifiedName=Ns.Fixture.Test|FullyQualifiedName~Ns.Fixture.Test\(")
    # VSTest's own escape set (FilterHelper.Escape): \ ( ) & | = ! ~
    assert vstest_filter("Ns.F(1).T") == (
        r"FullyQualifiedName~Ns.F\(1\).T.|FullyQualifiedName=Ns.F\(1\).T|FullyQualifiedName~Ns.F\(1\).T\(")


def test_vstest_filter_picks_the_right_recorded_tests():
    """Evaluate the filter's clauses (~ contains, = equals, after unescaping) on the fully qualified
    names of the tests the recorded NUnit-adapter TRX holds."""
    trx = (FIX / "trx" / "nunit3_adapter.trx").read_text()
    names = [f"{c}.{n}" for c, n in re.findall(r'className="([^"]+)" name="([^"]+)"', trx)]

    def matches(filter_text: str) -> list[str]:
        parts = re.split(r"(?<!\\)\|", filter_text)
        clauses = [re.match(r"FullyQualifiedName([~=])(.*)", c).groups() for c in parts]
        clauses = [(op, re.sub(r"\\(.)", r"\1", value)) for op, value in clauses]
        return [n for n in names if any(v in n if op == "~" else v == n for op, v in clauses)]

    assert matches(vstest_filter("Acme.Calc.Tests.FibonacciTests.FibonacciKnownValues")) == [
        "Acme.Calc.Tests.FibonacciTests.FibonacciKnownValues(10,55)"]
    assert matches(vstest_filter("Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers")) == [
        "Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers"]
    assert matches(vstest_filter("Acme.Calc.Tests.CalculatorTests.Add")) == []
    assert matches(vstest_filter("Acme.Calc.Tests.CalculatorTests")) == [
        "Acme.Calc.Tests.CalculatorTests.AddSumsTwoNumbers", "Acme.Calc.Tests.CalculatorTests.DivideTruncates"]


def test_language_version_from_langversion_or_framework(tmp_path):
    assert DotnetToolchain().language_version(CALC) == "6"
    (tmp_path / "a.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
                                       '<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>')
    assert DotnetToolchain().language_version(tmp_path) == "12"
    (tmp_path / "a.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>'
                                       '<TargetFramework>netstandard2.0</TargetFramework></PropertyGroup></Project>')
    assert DotnetToolchain().language_version(tmp_path) == "7.3"


@pytest.fixture(scope="module", autouse=True)
def assemblies(tmp_path_factory):
    """Real assemblies for what `dotnet build` would leave: calc compiled by mcs, as it is and with a
    candidate reaching System.Activator (the capability policy reads them with il_check)."""
    tmp = tmp_path_factory.mktemp("dotnet-asm")
    ScriptedSandbox.assembly = compile_calc(tmp, "clean", None)
    ScriptedSandbox.attack = compile_calc(tmp, "attack", "{\n    var o = System.Activator.CreateInstance("
                                          "typeof(System.Text.StringBuilder));\n    return a + b;\n}")


class ScriptedSandbox:
    """Plays recorded dotnet output; `dotnet build` leaves a real calc assembly in the SDK's output
    folder of the tree it builds, `dotnet test` drops the recorded TRX where --logger asked."""
    name = "scripted"
    assembly: Path
    attack: Path

    def __init__(self, build_output: str, build_exit: int = 0, trx: Path | None = None, test_exit: int = 1):
        self.calls: list[list[str]] = []
        self.writable: list[list[Path]] = []
        self.scratch: list[list[Path]] = []
        self.boxes = 0                       # fresh sandboxes handed out (the baseline's)
        self.build_output, self.build_exit, self.trx, self.test_exit = build_output, build_exit, trx, test_exit
        self.build_attack = False

    def run(self, argv, *, cwd, timeout, memory_mb, env=None, writable=(), stdin=None, until=None, scratch=()):
        self.calls.append(list(argv))
        self.writable.append(list(writable))
        self.scratch.append(list(scratch))
        assert env["NUGET_PACKAGES"].endswith(".nuget/packages")
        if argv[1] == "test":
            results = Path(argv[argv.index("--results-directory") + 1])
            results.mkdir(parents=True, exist_ok=True)
            shutil.copy(self.trx, results / argv[argv.index("--logger") + 1].split("=")[1])
            return RunOutcome(argv, self.test_exit, "Failed!  - Failed: 2, Passed: 1", 1.0)
        if argv[1] == "build":
            out = Path(writable[0]) / "src" / "Acme.Calc" / "bin" / "Debug" / "net8.0"
            out.mkdir(parents=True, exist_ok=True)
            shutil.copy(self.attack if "/runs/" in argv[2] and self.build_attack else self.assembly,
                        out / "Acme.Calc.dll")
        if argv[1] == "build" and "/runs/" in argv[2]:
            return RunOutcome(argv, self.build_exit, self.build_output, 2.0)
        return RunOutcome(argv, 0, "", 1.0)

    def close(self):
        pass

    def fresh(self):
        self.boxes += 1
        return self


def _candidate(ws, tmp_path, text="// patched\n", run="r1"):
    run_dir = ws.root / "runs" / run
    run_dir.mkdir(parents=True)
    return PatchedFile(path="src/Acme.Calc/Calculator.cs", text=text, line_map=LineMap({1: 1}),
                       surface_changed=False, run_dir=run_dir, member=MEMBER)


def test_the_capability_policy_reads_the_built_assembly_before_any_test(tmp_path):
    """No Mono.Cecil on the dotnet path: il_check reads what dotnet build left in the tree, against
    the baseline's assembly; a candidate reaching System.Activator is rejected and dotnet test never
    runs; an assembly that is not there is a rejection too, never an unchecked pass."""
    ws = prepare_workspace(CALC, tmp_path / "wd", "dotnet")
    box = ScriptedSandbox("", trx=_passing_trx(tmp_path), test_exit=0)
    tc = DotnetToolchain()
    tc.baseline(ws, box, Limits(timeout=30, memory_mb=1024))
    box.build_attack = True
    verdict = tc.run(ws, _candidate(ws, tmp_path), None, box, Limits(timeout=30, memory_mb=1024))
    assert verdict.status == "rejected" and verdict.reason.startswith("uses System.Activator"), verdict.reason
    assert [c[1] for c in box.calls].count("test") == 0 and "policy" in verdict.timings
    box.build_attack = False
    assert tc.run(ws, _candidate(ws, tmp_path, run="r2"), None, box, Limits(timeout=30, memory_mb=1024)).status == "passed"

    class NoOutput(ScriptedSandbox):
        def run(self, argv, **kw):
            outcome = super().run(argv, **kw)
            if argv[1] == "build" and "/runs/" in argv[2]:
                shutil.rmtree(Path(kw["writable"][0]) / "src" / "Acme.Calc" / "bin")
            return outcome

    lost = tc.run(ws, _candidate(ws, tmp_path, run="r3"), None, NoOutput("", trx=_passing_trx(tmp_path), test_exit=0),
                  Limits(timeout=30, memory_mb=1024))
    assert lost.status == "rejected" and "left no Acme.Calc.dll" in lost.reason


def test_flow_reports_test_failures(tmp_path):
    ws = prepare_workspace(CALC, tmp_path / "wd", "dotnet")
    box = ScriptedSandbox("", trx=FIX / "trx" / "nunit3_adapter.trx")
    tc = DotnetToolchain()
    tc.baseline(ws, box, Limits(timeout=30, memory_mb=1024))
    assert [c[:2] for c in box.calls] == [["dotnet", "restore"], ["dotnet", "build"]]
    cand = _candidate(ws, tmp_path)
    verdict = tc.run(ws, cand, ["Acme.Calc.Tests:Acme.Calc.Tests.CalculatorTests"], box,
                     Limits(timeout=30, memory_mb=1024))
    assert verdict.status == "runtime_error" and verdict.tests_run == 3 and verdict.tests_failed == 2
    assert (cand.run_dir / "tree" / cand.path).read_text() == "// patched\n"
    assert (ws.src / cand.path).read_text() != "// patched\n"           # the scratch copy is untouched
    assert box.calls[-1][box.calls[-1].index("--filter") + 1] == \
        f"({vstest_filter('Acme.Calc.Tests.CalculatorTests')})&" + "&".join(f"TestCategory!={c}" for c in DEFAULT_EXCLUDED)


def test_the_verdict_is_dotnet_tests_exit_status_and_the_tests_run_as_the_test_uid(tmp_path):
    """vstest.console writes the TRX with the test host's uid, so the host could rewrite it: a report
    of passes with a failing exit (a crashed or aborted host) and a report of failures with exit 0
    are runtime errors; exit 1 with no test in the report is no_tests (TreatNoTestsAsError). The
    test command writes nothing but its run's results and home (`scratch`: the test uid's, never
    `writable`, which would run it as the build uid), and the baseline is built in a fresh sandbox."""
    ws = prepare_workspace(CALC, tmp_path / "wd", "dotnet")
    box = ScriptedSandbox("", trx=_passing_trx(tmp_path))
    tc = DotnetToolchain()
    tc.baseline(ws, box, Limits(timeout=30, memory_mb=1024))
    assert box.boxes == 1
    cand = _candidate(ws, tmp_path)
    verdict = tc.run(ws, cand, None, box, Limits(timeout=30, memory_mb=1024))
    assert verdict.status == "runtime_error" and "exited 1" in verdict.reason
    assert box.writable[-1] == [] and box.scratch[-1] == [cand.run_dir / "results", cand.run_dir / "home"]
    assert box.calls[-1][-2:] == ["--", "RunConfiguration.TreatNoTestsAsError=true"]
    box.test_exit = 0
    assert tc.run(ws, _candidate(ws, tmp_path, run="r2"), None, box, Limits(timeout=30, memory_mb=1024)).status == "passed"
    box.trx = FIX / "trx" / "nunit3_adapter.trx"                # failures in the report, exit 0
    rewritten = tc.run(ws, _candidate(ws, tmp_path, run="r3"), None, box, Limits(timeout=30, memory_mb=1024))
    assert rewritten.status == "runtime_error" and "disagrees" in rewritten.reason
    box.trx, box.test_exit = _passing_trx(tmp_path, results=""), 1
    assert tc.run(ws, _candidate(ws, tmp_path, run="r4"), None, box, Limits(timeout=30, memory_mb=1024)).status == "no_tests"
    box.test_exit = 0                                            # an empty report cannot pass
    assert tc.run(ws, _candidate(ws, tmp_path, run="r5"), None, box, Limits(timeout=30, memory_mb=1024)).status == "runtime_error"


def test_a_run_killed_at_the_process_limit_is_a_runtime_error(tmp_path):
    ws = prepare_workspace(CALC, tmp_path / "wd", "dotnet")

    class Bomb(ScriptedSandbox):
        def run(self, argv, **kw):
            outcome = super().run(argv, **kw)
            outcome.pids_limited = argv[1] == "test"
            return outcome

    box = Bomb("", trx=_passing_trx(tmp_path), test_exit=0)
    tc = DotnetToolchain()
    tc.baseline(ws, box, Limits(timeout=30, memory_mb=1024))
    verdict = tc.run(ws, _candidate(ws, tmp_path), None, box, Limits(timeout=30, memory_mb=1024))
    assert verdict.status == "runtime_error" and verdict.reason.startswith("process limit reached")


def _passing_trx(tmp_path: Path, results: str = '<UnitTestResult testId="1" testName="A" outcome="Passed"/>') -> Path:
    ns = "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"
    path = tmp_path / f"pass{len(results)}.trx"
    path.write_text(f'<TestRun xmlns="{ns}"><Results>{results}</Results></TestRun>')
    return path


def test_flow_maps_compile_errors_into_the_candidate(tmp_path):
    ws = prepare_workspace(CALC, tmp_path / "wd", "dotnet")
    cand = _candidate(ws, tmp_path)
    tree = cand.run_dir / "tree"
    output = f"{tree}/src/Acme.Calc/Calculator.cs(1,5): error CS1002: ; expected [{tree}/src/Acme.Calc/Acme.Calc.csproj]"
    box = ScriptedSandbox(output, build_exit=1)
    verdict = DotnetToolchain().run(ws, cand, None, box, Limits(timeout=30, memory_mb=1024))
    assert verdict.status == "compile_error"
    assert verdict.diagnostics == [Diagnostic("CS1002", "; expected", "src/Acme.Calc/Calculator.cs", 1, 5, 1)]


def test_baseline_failure_is_a_target_build_error(tmp_path):
    ws = prepare_workspace(CALC, tmp_path / "wd", "dotnet")

    class Failing(ScriptedSandbox):
        def run(self, argv, **kw):
            return RunOutcome(argv, 1, f"{ws.src}/src/Acme.Calc/Calculator.cs(3,1): error CS0246: The type "
                                       f"or namespace name 'Foo' could not be found [x.csproj]", 1.0)
    with pytest.raises(TargetBuildError, match="does not build before patching: src/Acme.Calc/Calculator.cs:3"):
        DotnetToolchain().baseline(ws, Failing(""), Limits(timeout=30, memory_mb=1024))


def test_an_explicit_test_in_a_named_fixture_never_runs_and_the_run_names_it(tmp_path):
    """A selection naming CalculatorTests would run its [Explicit] test under dotnet (the NUnit adapter takes the
    name match for an explicit selection): the filter leaves it out by name and the verdict records why."""
    calc = tmp_path / "calc"
    shutil.copytree(CALC, calc)
    tests = calc / "tests" / "Acme.Calc.Tests" / "CalculatorTests.cs"
    tests.write_text(tests.read_text().replace(
        "        [Test]\n        public void DivideTruncates()",
        "        [Test, Explicit(\"a database\")]\n        public void Heavy() { }\n\n"
        "        [Test]\n        public void DivideTruncates()", 1))
    ws = prepare_workspace(calc, tmp_path / "wd", "dotnet")
    box = ScriptedSandbox("", trx=FIX / "trx" / "nunit3_adapter.trx")
    tc = DotnetToolchain()
    tc.baseline(ws, box, Limits(timeout=30, memory_mb=1024))
    verdict = tc.run(ws, _candidate(ws, tmp_path), ["Acme.Calc.Tests:Acme.Calc.Tests.CalculatorTests"], box,
                     Limits(timeout=30, memory_mb=1024))
    expr = box.calls[-1][box.calls[-1].index("--filter") + 1]
    assert expr.endswith("&FullyQualifiedName!=Acme.Calc.Tests.CalculatorTests.Heavy"
                         "&FullyQualifiedName!~Acme.Calc.Tests.CalculatorTests.Heavy\\("), expr
    assert verdict.excluded == {"Acme.Calc.Tests:Acme.Calc.Tests.CalculatorTests.Heavy": "[Explicit]"}
