"""A key the port retyped: Java looks a table up by a String the code formatted from a number, the port
keys its dictionary by the number. mcs's CS1503 says so, and repair parses the string back in the radix it
was written in; the repaired candidate compiles and finds what Java's lookup finds."""
from __future__ import annotations

from repotrans.execution.toolchains.mono_build import DIAG_RE
from repotrans.translator.repair import repair_with_reason
from repotrans.translator.resolver import ContextResolver
from repotrans.verdicts.results import Diagnostic, TestResult
from tests.support.policy_harness import compile_cs, needs_toolchains, run

_SHELL = """using System;
using System.Collections.Generic;
class Prog {{
    static Dictionary<int, string> Table = new Dictionary<int, string> {{ {{ 0x4E00, "yi1" }}, {{ 42, "answer" }} }};
    static string Record(char ch, int n)
    {{
{body}
    }}
    static void Main() {{ Console.WriteLine(Record('\\u4E00', 0) + " " + Record('a', 42) + " " + Record('b', 7)); }}
}}
"""
_FIRST = 7          # the candidate's first line in the file


def _diagnostics(candidate: str, tmp_path) -> list[Diagnostic]:
    proc = compile_cs(_SHELL.format(body=candidate), tmp_path)
    return [Diagnostic(m.group("code"), m.group("msg").strip(), m.group("file"), int(m.group("line")),
                       int(m.group("col")), int(m.group("line")) - _FIRST + 1)
            for m in (DIAG_RE.match(line.strip()) for line in (proc.stdout + proc.stderr).splitlines())
            if m and m.group("sev") == "error"]


@needs_toolchains
def test_a_string_key_the_port_keys_by_int_is_parsed_back_in_its_radix(tmp_path):
    """pinyin4j: `getProperty(Integer.toHexString(ch).toUpperCase())`; Pinyin4j.Net: Dictionary<int, string>.
    The hex string goes back to the int with radix 16; a decimal string (`String.valueOf(n)`) with none."""
    candidate = ("        int code = ch;\n"
                 "        string hex = Convert.ToString(code, 16).ToUpperInvariant();\n"
                 "        string found = (Table.ContainsKey(hex) ? Table[hex] : null);\n"
                 "        string plain = n.ToString();\n"
                 "        if (found == null) found = (Table.ContainsKey(plain) ? Table[plain] : \"none\");\n"
                 "        return found;")
    diags = _diagnostics(candidate, tmp_path)
    assert {d.code for d in diags} == {"CS1502", "CS1503"} and {d.candidate_line for d in diags} == {3, 5}
    resolver = ContextResolver("Prog", {})
    outcome = repair_with_reason(candidate, TestResult(status="compile_error", diagnostics=diags), resolver)
    assert outcome.code is not None, outcome.reason
    lines = outcome.code.split("\n")
    assert lines[2] == ("        string found = (Table.ContainsKey(Convert.ToInt32(hex, 16)) ? "
                        "Table[Convert.ToInt32(hex, 16)] : null);")
    assert "Table.ContainsKey(Convert.ToInt32(plain)) ? Table[Convert.ToInt32(plain)]" in lines[4]
    assert compile_cs(_SHELL.format(body=outcome.code), tmp_path).returncode == 0
    assert run(["mono", "Prog.exe"], tmp_path).stdout.split() == ["yi1", "answer", "none"]


def test_no_string_local_or_two_on_the_line_is_left_alone():
    """Only a string local the candidate declared, passed whole, and only one on the line: anything else
    would be a guess at which argument the compiler meant."""
    message = "Argument `#1' cannot convert `string' expression to type `int'"
    for candidate in ("        return Table[Name()];",
                      "        string a = \"1\";\n        string b = \"2\";\n        return Pick(a, b);"):
        line = candidate.count("\n") + 1
        result = TestResult(status="compile_error", diagnostics=[Diagnostic("CS1503", message, "a.cs", 1, 1, line)])
        assert repair_with_reason(candidate, result, ContextResolver("Prog", {})).code is None
