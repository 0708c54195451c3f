"""The builtin policy on what real ports showed: `this.` in static members, static members reached
through instances (CS0176), members a port made private (CS0122). Real mcs diagnostics, repaired,
compiled again and run with mono."""
from __future__ import annotations

import pytest

from repotrans.verdicts.results import Diagnostic, TestResult
from repotrans.execution.toolchains.mono_build import DIAG_RE
from repotrans.translator.java2cs import translate_method
from repotrans.translator.repair import repair_with_reason
from repotrans.translator.resolver import ContextResolver
from tests.support.policy_harness import compile_cs, needs_toolchains, run

SHELL = """using System;

public class Gauge
{
    private int level;
    public Gauge(int level) { this.level = level; }
    public int Level { get { return level; } }
    public static int Twice(int x) { return 2 * x; }
}

public class Meter
{
    public static int Half(int x) { return x / 2; }

//@CANDIDATE@

    public static void Main()
    {
        Console.WriteLine(Read(new Gauge(8)));
        Console.WriteLine(Quarter(20));
    }
}
"""
CANDIDATE = """public static int Read(Gauge g)
{
    return g.Twice(g.level) + new Gauge(1).Twice(0);
}

public static int Quarter(int x)
{
    return this.Half(this.Half(x));
}"""
GAUGE_INFO = {"class": "Gauge", "kind": "class", "fields": ["private int level"],
              "members": ["public Gauge(int level)", "public int Level { get; }", "public static int Twice(int x)"]}
METER_INFO = {"class": "Meter", "kind": "class", "fields": [], "members": ["public static int Half(int x)"]}


def resolver() -> ContextResolver:
    return ContextResolver.from_tool_outputs("Meter", [("get_target_class_info", {}, METER_INFO),
                                                       ("find_target_class_info", {"class_name": "Gauge"}, GAUGE_INFO)])


def compile_candidate(candidate: str, workdir) -> TestResult:
    marker = SHELL.split("\n").index("//@CANDIDATE@") + 1
    proc = compile_cs(SHELL.replace("//@CANDIDATE@", candidate), workdir, "Meter")
    diags = []
    for line in (proc.stdout + proc.stderr).splitlines():
        m = DIAG_RE.match(line.strip())
        if m and m.group("sev") == "error":
            diags.append(Diagnostic(m.group("code"), m.group("msg").strip(), m.group("file"), int(m.group("line")),
                                    int(m.group("col")), int(m.group("line")) - marker + 1))
    return TestResult(status="passed" if proc.returncode == 0 else "compile_error", diagnostics=diags)


@needs_toolchains
@pytest.mark.slow
def test_this_in_static_static_via_instance_and_inaccessible_are_repaired(tmp_path):
    result = compile_candidate(CANDIDATE, tmp_path)
    assert {d.code for d in result.diagnostics} >= {"CS0176", "CS0026", "CS0122"}, result.diagnostics
    code, rules = CANDIDATE, []
    for _ in range(3):
        if result.status == "passed":
            break
        outcome = repair_with_reason(code, result, resolver())
        assert outcome.code is not None, outcome.reason
        code, rules = outcome.code, rules + outcome.rules
        result = compile_candidate(code, tmp_path)
    assert result.status == "passed", result.diagnostics
    assert "    return Gauge.Twice(g.Level) + Gauge.Twice(0);" in code
    assert "    return Half(Half(x));" in code
    assert {r.split(":")[0] for r in rules} == {"CS0176", "CS0026", "CS0122"}
    assert run(["mono", "Meter.exe"], tmp_path).stdout.split() == ["16", "5"]


def test_a_static_method_never_calls_through_this():
    java = "static int quarter(int x) { return helper(helper(x)); }"
    resolved = ContextResolver.from_tool_outputs("Meter", [("get_target_class_info", {}, METER_INFO)])
    code = translate_method(java, resolved, "public static int Quarter(int x)")
    assert "this." not in code and "Helper(Helper(x))" in code
    instance = translate_method("int quarter(int x) { return helper(x); }", resolved, "public int Quarter(int x)")
    assert "this.Helper(x)" in instance          # an instance member: an extension method is called on `this`


def test_rules_explain_what_they_cannot_do():
    result = TestResult(status="compile_error", diagnostics=[
        Diagnostic("CS0026", "Keyword `this' is not valid in a static property, static method, or static field "
                             "initializer", "a.cs", 1, 12, 1)])
    outcome = repair_with_reason("Register(this);", result, resolver())
    assert outcome.code is None and "`this` is used as a value" in outcome.reason
    shadowed = TestResult(status="compile_error", diagnostics=[Diagnostic(
        "CS0176", "Static member `System.Array.Copy(System.Array, int, System.Array, int, int)' cannot be accessed "
                  "with an instance reference, qualify it with a type name instead", "a.cs", 1, 9, 1)])
    fixed = repair_with_reason("    Array.Copy(bits, 0, newBits, 0, bits.Length);", shadowed, resolver())
    assert fixed.code == "    System.Array.Copy(bits, 0, newBits, 0, bits.Length);"    # a member named Array
    unknown = TestResult(status="compile_error", diagnostics=[
        Diagnostic("CS0122", "`Other.secret' is inaccessible due to its protection level", "a.cs", 1, 12, 1)])
    assert "nothing known about Other" in repair_with_reason("return o.secret;", unknown, resolver()).reason


def test_renamed_callees_are_resolved_through_the_mapping():
    from repotrans.mapping.matches import MethodMatch
    from repotrans.translator.resolver import renamed_members

    matches = [MethodMatch("source:org.x.Helper.bar(Thing, Thing)", "target:X.Helper.Combine(Thing, Thing)", 0.8, "r"),
               MethodMatch("source:org.x.Meter.compute(int)", "target:X.Meter.Evaluate(int)", 0.8, "r"),
               MethodMatch("source:org.x.Meter.getLevel()", "target:X.Meter.Height", 0.8, "r"),
               MethodMatch("source:org.x.Meter.half(int)", "target:X.Meter.Half(int)", 1.0, "name"),
               MethodMatch("source:org.x.Meter.getSize()", "target:X.Meter.Size", 1.0, "getter"),
               MethodMatch("source:org.x.Meter.<init>(int)", "target:X.Meter.<init>(int)", 1.0, "ctor")]
    renames = renamed_members(matches)
    assert renames == {"Helper.bar/2": "Combine", "Meter.compute/1": "Evaluate", "Meter.getLevel/0": "Height"}
    info = dict(METER_INFO, members=METER_INFO["members"] + ["public int Evaluate(int x)", "public int Height { get; }"])
    resolved = ContextResolver.from_tool_outputs("Meter", [("get_target_class_info", {}, info)])
    java = "int total(Helper helper, Thing a, Thing b) { return helper.bar(a, b) + compute(getLevel()); }"
    before = translate_method(java, resolved, "public int Total(Helper helper, Thing a, Thing b)")
    assert "helper.Bar(a, b)" in before and "Compute(" in before
    resolved.renames = renames
    after = translate_method(java, resolved, "public int Total(Helper helper, Thing a, Thing b)")
    assert "return helper.Combine(a, b) + Evaluate(Height);" in after


def test_get_and_set_become_the_indexer_the_port_declares():
    bits = {"class": "ZX.BitArray", "kind": "class", "fields": ["private int[] bits"],
            "members": ["public bool this[int i] { get; set; }", "public void appendBit(bool bit)"]}
    resolved = ContextResolver.from_tool_outputs("BitArray", [("get_target_class_info", {}, bits)])
    java = ("void appendBitArray(BitArray other) { for (int i = 0; i < 3; i++) { appendBit(other.get(i)); "
            "set(i, get(i + 1)); } }")
    code = translate_method(java, resolved, "public void appendBitArray(BitArray other)")
    assert "appendBit(other[i]);" in code and "this[i] = this[i + 1];" in code
    matrix = {"class": "ZX.BitMatrix", "kind": "class", "fields": [],
              "members": ["public bool this[int x, int y] { get; set; }", "public void flip(int x, int y)"]}
    resolved = ContextResolver.from_tool_outputs("BitMatrix", [("get_target_class_info", {}, matrix)])
    java = "void copy(BitMatrix m) { if (m.get(1, 2)) { set(1, 2); } else { unset(1, 2); } m.flip(0, 0); }"
    code = translate_method(java, resolved, "public void copy(BitMatrix m)")
    assert "if (m[1, 2])" in code and "this[1, 2] = true;" in code and "this[1, 2] = false;" in code
    assert "m.flip(0, 0);" in code


def test_an_array_clone_keeps_its_type():
    resolved = ContextResolver.from_tool_outputs("Meter", [("get_target_class_info", {}, METER_INFO)])
    code = translate_method("int[] copy(int[] bits) { int[][] rows = new int[2][]; return bits.clone(); }",
                            resolved, "public int[] Copy(int[] bits)")
    assert "return (int[])bits.Clone();" in code


def test_a_jdk_static_the_port_wrote_as_a_class_helper_is_called_there():
    bits = {"class": "ZX.BitArray", "kind": "class", "fields": ["private int[] bits"],
            "members": ["private static int numberOfTrailingZeros(int num)", "public int getNextSet(int from)"]}
    resolved = ContextResolver.from_tool_outputs("BitArray", [("get_target_class_info", {}, bits)])
    result = TestResult(status="compile_error", diagnostics=[Diagnostic(
        "CS0117", "`int' does not contain a definition for `NumberOfTrailingZeros'", "a.cs", 19, 40, 2)])
    code = "{\n    int result = (bitsOffset * 32) + int.NumberOfTrailingZeros(currentBits);\n}"
    outcome = repair_with_reason(code, result, resolved)
    assert outcome.code == "{\n    int result = (bitsOffset * 32) + numberOfTrailingZeros(currentBits);\n}"
