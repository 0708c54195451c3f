"""Each repair rule on a real mcs diagnostic: a broken candidate is compiled into a target class,
the diagnostics are parsed, repair() fixes them, and the repaired class compiles and runs with mono."""
from __future__ import annotations

from pathlib import Path

import pytest

from repotrans.verdicts.results import Diagnostic, TestFailure, TestResult
from repotrans.execution.toolchains.mono_build import DIAG_RE
from repotrans.translator.repair import RepairOutcome, repair, repair_with_reason
from repotrans.translator.resolver import ContextResolver
from tests.support.policy_harness import DATA, compile_cs, needs_toolchains, run

MARKER = "//@CANDIDATE@"
SHAPE_INFO = {  # what get_target_class_info shows for Shape
    "class": "Demo.Shape", "kind": "class", "fields": ["private double _radius"],
    "members": ["public Shape(double radius)", "public double Radius { get; }", "public double Area()",
                "public int Scale(int factor)"],
}
EXPECTED_RULES = {"CS0246", "CS0103", "CS1061", "CS0266", "CS0029", "CS1501", "CS0118"}


def build(candidate: str) -> str:
    """Leading `using` lines of the candidate go to the file top, the rest replaces the marker
    (what repotrans.execution.workspace.apply does with a member candidate)."""
    lines = candidate.split("\n")
    usings = [l for l in lines if l.startswith("using ")]
    body = "\n".join(l for l in lines if not l.startswith("using "))
    shell = (DATA / "Repair.shell.cs").read_text(encoding="utf-8").replace(MARKER, body)
    return "\n".join(usings + [shell])


def compile_result(candidate: str, workdir: Path) -> tuple[TestResult, str]:
    code = build(candidate)
    proc = compile_cs(code, workdir, "Repair")
    n_usings = sum(1 for l in candidate.split("\n") if l.startswith("using "))
    marker_line = (DATA / "Repair.shell.cs").read_text().split("\n").index(MARKER) + 1 + n_usings
    diags = []
    for line in (proc.stdout + proc.stderr).splitlines():
        m = DIAG_RE.match(line.strip())
        if m and m.group("sev") == "error":
            file_line = int(m.group("line"))
            cand_line = file_line - marker_line + 1 + n_usings
            diags.append(Diagnostic(m.group("code"), m.group("msg").strip(), m.group("file"), file_line,
                                    int(m.group("col")),
                                    cand_line if 1 <= cand_line <= len(candidate.split("\n")) else None))
    status = "passed" if proc.returncode == 0 else "compile_error"
    return TestResult(status=status, diagnostics=diags), proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def repaired(tmp_path_factory):
    """Compile, repair, recompile (mcs reports one error per expression, so up to 3 rounds)."""
    workdir = tmp_path_factory.mktemp("repair")
    candidate = (DATA / "repair_candidate.cs").read_text(encoding="utf-8").rstrip("\n")
    resolver = ContextResolver.from_tool_outputs("Shape", [("get_target_class_info", {}, SHAPE_INFO)])
    before, _ = compile_result(candidate, workdir)
    code, rules, result = candidate, [], before
    for _ in range(3):
        outcome = repair_with_reason(code, result, resolver)
        if outcome.code is None:
            break
        code, rules = outcome.code, rules + outcome.rules
        result, _ = compile_result(code, workdir)
    return before, RepairOutcome(code, "", rules), workdir, result


@needs_toolchains
@pytest.mark.slow
def test_broken_candidate_has_one_diagnostic_per_rule(repaired):
    before = repaired[0]
    assert before.status == "compile_error"
    assert {d.code for d in before.diagnostics} == EXPECTED_RULES
    assert len(before.diagnostics) == 9
    assert all(d.candidate_line is not None for d in before.diagnostics)


@needs_toolchains
@pytest.mark.slow
@pytest.mark.parametrize("code", sorted(EXPECTED_RULES))
def test_each_rule_applied(repaired, code):
    outcome = repaired[1]
    assert any(rule.startswith(code + ":") for rule in outcome.rules), outcome.rules


@needs_toolchains
@pytest.mark.slow
def test_repaired_candidate_compiles_and_runs(repaired):
    _, outcome, workdir, after = repaired
    assert after.status == "passed", after.diagnostics
    ran = run(["mono", "Repair.exe"], workdir)
    assert ran.stdout.split() == ["ok", "4", "4", "14", "42", "6", "17", "6", "2"]


@needs_toolchains
@pytest.mark.slow
def test_repaired_lines_are_exact(repaired):
    fixed = repaired[1].code.split("\n")
    assert fixed[0] == "using System.Text;"
    for expected in ("        return Radius * 2;", "        return t.Length;",
                     "        return s.Area() + s.Radius;", "        int x = (int)(big * 2);",
                     "        total = (int)(total + step);", "        int y = int.Parse(t);",
                     "        return Scale(a);", "        return Radius;"):
        assert expected in fixed


def test_no_rule_gives_reason():
    resolver = ContextResolver.from_tool_outputs("Shape", [("get_target_class_info", {}, SHAPE_INFO)])
    result = TestResult(status="compile_error", diagnostics=[
        Diagnostic("CS0019", "Operator `+' cannot be applied to operands of type `bool' and `int'", "a.cs", 3, 5, 1)])
    outcome = repair_with_reason("return true + 1;", result, resolver)
    assert outcome.code is None and outcome.reason == "CS0019: no rule"
    assert repair("return true + 1;", result, resolver) is None
    failing = TestResult(status="test_failure")
    assert repair_with_reason("x", failing, resolver).reason == "test_failure: no expected-exception mismatch to act on"
    assert repair_with_reason("x", TestResult(status="timeout"), resolver).reason == (
        "status is timeout, no repair rule applies")


def test_expected_exception_type_is_thrown_instead():
    resolver = ContextResolver.from_tool_outputs("Shape", [("get_target_class_info", {}, SHAPE_INFO)])
    failure = TestFailure(name="T.Rejects", message="Expected: <System.ArgumentOutOfRangeException>\n But was: ...",
                          expected="<System.ArgumentOutOfRangeException>",
                          actual="<System.ArgumentException: day out of range (Parameter ...)>")
    code = 'if (d < 1) throw new ArgumentException("day " + f(d, 2));\nthrow new ArgumentException("x", "y");'
    outcome = repair_with_reason(code, TestResult(status="test_failure", failures=[failure]), resolver)
    assert outcome.code == ('if (d < 1) throw new ArgumentOutOfRangeException(null, "day " + f(d, 2));\n'
                            'throw new ArgumentOutOfRangeException("x", "y");')
    assert outcome.rules == ["exception: throw ArgumentOutOfRangeException instead of ArgumentException"]


def test_unknown_member_without_close_match_is_not_guessed():
    resolver = ContextResolver.from_tool_outputs("Shape", [("get_target_class_info", {}, SHAPE_INFO)])
    result = TestResult(status="compile_error", diagnostics=[Diagnostic(
        "CS1061", "Type `Shape' does not contain a definition for `Volume' and no extension method `Volume' of "
        "type `Shape' could be found.", "a.cs", 1, 1, 1)])
    outcome = repair_with_reason("return s.Volume();", result, resolver)
    assert outcome.code is None and "no member close to Volume" in outcome.reason


def test_getter_on_a_type_outside_the_context_becomes_a_property_by_convention():
    resolver = ContextResolver.from_tool_outputs("Shape", [("get_target_class_info", {}, SHAPE_INFO)])
    result = TestResult(status="compile_error", diagnostics=[Diagnostic(
        "CS1061", "Type `Ledgerly.Accounting.Account' does not contain a definition for `GetCode' and no extension "
        "method `GetCode' of type `Ledgerly.Accounting.Account' could be found.", "a.cs", 9, 20, 2)])
    code = "{\n    if (p.Account.GetCode().Equals(code)) return true;\n}"
    outcome = repair_with_reason(code, result, resolver)
    assert outcome.code == "{\n    if (p.Account.Code.Equals(code)) return true;\n}"
    assert outcome.rules == ["CS1061: GetCode() -> property Code (convention, Account not in context)"]


def test_dropping_arguments_never_makes_a_member_call_itself():
    """ZXing.Net HighLevelEncoder.encodeHighLevel(String): Java calls the 4-argument overload the port does not
    have (it has 1 and 5); cutting the call to one argument recursed forever (runtime_error)."""
    info = {"class": "Z.HighLevelEncoder", "kind": "class", "fields": [],
            "members": ["public static String encodeHighLevel(String msg)",
                        "public static String encodeHighLevel(String msg, SymbolShapeHint shape, Dimension a, "
                        "Dimension b, int d)"]}
    resolver = ContextResolver.from_tool_outputs("HighLevelEncoder", [("get_target_class_info", {}, info)])
    result = TestResult(status="compile_error", diagnostics=[Diagnostic(
        "CS1501", "No overload for method `encodeHighLevel' takes `4' arguments", "a.cs", 3, 12, 3)])
    code = ("public static String encodeHighLevel(String msg)\n{\n"
            "    return encodeHighLevel(msg, SymbolShapeHint.FORCE_NONE, null, null);\n}")
    outcome = repair_with_reason(code, result, resolver)
    assert outcome.code is None and "call itself" in outcome.reason
    other = code.replace("String encodeHighLevel(String msg)", "String encode(String msg)")
    fixed = repair_with_reason(other, result, resolver)       # from another member: the 1-argument overload
    assert fixed.code is not None and "return encodeHighLevel(msg);" in fixed.code


@needs_toolchains
def test_an_argument_cast_to_byte_becomes_the_ports_sbyte(tmp_path):
    """CSharpFastPFOR's ByteBuffer.put takes sbyte (Java's signed byte); the builtin wrote `(byte)`: mcs's
    CS1503 names both types and the casts take the parameter's type, with Java's truncation, on the line and
    in the other calls of the same method (the repair step may see only the first diagnostics); a cast that
    is no argument of that call stays."""
    shell = ("class Sink {{ public int Last; public void put(sbyte b) {{ Last = b; }} }}\n"
             "class Prog {{\n    static int Put(Sink sink, long val)\n    {{\n{body}\n        return sink.Last;\n    }}\n"
             "    static void Main() {{ System.Console.WriteLine(Put(new Sink(), 200) + \" \" + Put(new Sink(), 5)); }}\n}}\n")
    candidate = "        long w = (byte) val;\n        sink.put((byte)(val | (1 << 7)));\n        sink.put((byte) val);"
    first = 5                                       # the candidate's first line in the file
    proc = compile_cs(shell.format(body=candidate), tmp_path)
    diags = [Diagnostic(m.group("code"), m.group("msg").strip(), m.group("file"), int(m.group("line")),
                        int(m.group("col")), int(m.group("line")) - first + 1)
             for m in (DIAG_RE.match(l.strip()) for l in (proc.stdout + proc.stderr).splitlines())
             if m and m.group("sev") == "error"]
    assert {(d.code, d.candidate_line) for d in diags} == {("CS1502", 2), ("CS1503", 2), ("CS1502", 3), ("CS1503", 3)}
    resolver = ContextResolver.from_tool_outputs("Shape", [("get_target_class_info", {}, SHAPE_INFO)])
    shown = [d for d in diags if d.candidate_line == 2]            # a shortened list: the first line's only
    outcome = repair_with_reason(candidate, TestResult(status="compile_error", diagnostics=shown), resolver)
    assert outcome.code == "        long w = (byte) val;\n        sink.put((sbyte)(val | (1 << 7)));\n        sink.put((sbyte) val);"
    assert outcome.rules == ["CS1503: argument cast (byte) -> (sbyte), and in 1 more call(s) of put"]
    assert compile_cs(shell.format(body=outcome.code), tmp_path).returncode == 0
    assert run(["mono", "Prog.exe"], tmp_path).stdout.split() == ["-56", "5"]
