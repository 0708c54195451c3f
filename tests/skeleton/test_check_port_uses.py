"""The skeleton check reshapes members by how the port's own code uses them (libphonenumber's callers of five
deleted classes): a member's type from a conversion the port makes or from the port's subtype it calls members
of, a method the port reads as a property, a nested type the port names bare or beside a member of its name."""
from __future__ import annotations

from pathlib import Path

from repotrans.skeleton.port_uses import MemberError, as_getter_property, as_property, hoist, retype_operand, \
    retype_to_subtype, retype_to_use
from repotrans.skeleton.generate import SkeletonFile
from repotrans.skeleton.lines import PLACEHOLDER, Line


def _file(*lines: tuple[str, str]) -> SkeletonFile:
    return SkeletonFile("Lib/Gen.cs", "Lib", ["p.Gen"], [Line(t, None, k) for t, k in lines],
                        ["using System;", "using System.Collections.Generic;", "", "namespace Lib", "{"])


def _port(tmp_path: Path, text: str) -> MemberError:
    (tmp_path / "Lib").mkdir(exist_ok=True)
    (tmp_path / "Lib" / "Use.cs").write_text(text)
    return MemberError("Lib/Use.cs", text.count("\n", 0, text.index("HERE")) + 1, "", "", None)


def _method(head: str) -> list[tuple[str, str]]:
    return [(f"    {head}", "member"), ("    {", "member"), (f"        {PLACEHOLDER}", "member"), ("    }", "member")]


def test_a_members_type_follows_the_conversion_the_port_makes(tmp_path):
    f = _file(("public class Gen", "type"), ("{", "member"),
              *_method("public static Dictionary<int, IList<string>> GetMap()"), ("}", "member"))
    error = _port(tmp_path, "class Use { void M() { Take(Gen.GetMap()); } } // HERE")
    error.message = ("Argument `#1' cannot convert `System.Collections.Generic.Dictionary<int,System.Collections."
                     "Generic.IList<string>>' expression to type `System.Collections.Generic.Dictionary<int,"
                     "System.Collections.Generic.List<string>>'")
    assert retype_to_use([f], error, tmp_path)
    assert f.lines[2].text == "    public static Dictionary<int, List<string>> GetMap()"
    error.message = "Argument `#1' cannot convert `string' expression to type `int'"     # no member of that type
    assert not retype_to_use([f], error, tmp_path)


def test_a_members_type_becomes_the_ports_subtype_that_has_what_the_port_calls(tmp_path):
    (tmp_path / "Lib").mkdir()
    (tmp_path / "Lib" / "PhoneRegex.cs").write_text(
        "namespace Lib { public class PhoneRegex : System.Text.RegularExpressions.Regex {"
        " public bool MatchAll(string s) { return true; } } }")
    f = _file(("public class Gen", "type"), ("{", "member"), *_method("public Regex GetPattern(string regex)"),
              ("}", "member"))
    error = _port(tmp_path, "class Use { bool M(Gen g) { return g.GetPattern(\"x\").MatchAll(\"1\"); } } // HERE")
    error.message = ("Type `System.Text.RegularExpressions.Regex' does not contain a definition for `MatchAll' and "
                     "no extension method `MatchAll' of type `System.Text.RegularExpressions.Regex' could be found")
    assert retype_to_subtype([f], error, tmp_path)
    assert f.lines[2].text == "    public PhoneRegex GetPattern(string regex)"


def test_a_method_the_port_reads_without_calling_becomes_a_property_and_a_placeholder_takes_its_operand(tmp_path):
    f = _file(("public class Match", "type"), ("{", "member"),
              ("    public object Length { get { " + PLACEHOLDER + " } }", "member"),
              *_method("public int Start()"), ("    private readonly int start;", "member"),
              ("    private readonly string rawString;", "member"), *_method("public string RawString()"),
              *_method("public int End()"), ("}", "member"))
    f.lines[2].origin = "Match.Length (the port's, no Java counterpart)"
    error = _port(tmp_path, "class Use { int M(Match m) { return m.Start + m.Length; } } // HERE")
    assert as_property([f], error, tmp_path)
    assert f.lines[3].text == "    public int Start { get { " + PLACEHOLDER + " } }"
    assert f.lines[6].text == "    public string RawString { get { " + PLACEHOLDER + " } }"    # a field reader too
    assert f.lines[7].text == "    public int End()"                                           # no field: stays
    error.message = "Operator `+' cannot be applied to operands of type `int' and `object'"
    assert retype_operand([f], error, tmp_path)
    assert f.lines[2].text.startswith("    public int Length {")
    error.message = "Operator `+' cannot be applied to operands of type `method group' and `object'"
    assert not retype_operand([f], error, tmp_path)


def test_a_nested_type_moves_beside_its_outer_type():
    f = _file(("public class ParseError : Exception", "type"), ("{", "member"),
              ("    public enum ErrorType", "type"), ("    {", "member"), ("        TOO_SHORT, TOO_LONG", "member"),
              ("    }", "member"), ("    public ErrorType ErrorType { get { " + PLACEHOLDER + " } }", "member"),
              ("}", "member"))
    assert hoist([f], "ErrorType")
    assert [ln.text for ln in f.lines] == [
        "public class ParseError : Exception", "{", "    public ErrorType ErrorType { get { " + PLACEHOLDER + " } }",
        "}", "public enum ErrorType", "{", "    TOO_SHORT, TOO_LONG", "}"]
    assert not hoist([f], "ErrorType")         # a top-level type stays


def test_a_getter_the_port_reads_as_a_property_of_its_own_name_becomes_that_property(tmp_path):
    f = _file(("internal class Resource", "type"), ("{", "member"),
              *_method("internal static Resource GetInstance()"), *_method("internal string[] GetRecord(char ch)"),
              ("}", "member"))
    error = _port(tmp_path, "class Use { string[] M() { return Resource.Instance.GetRecord('a'); } } // HERE")
    assert as_getter_property(f, "Instance", error, tmp_path)
    assert f.lines[2].text == "    internal static Resource Instance { get { " + PLACEHOLDER + " } }"
    error = _port(tmp_path, "class Use { string[] M() { return Resource.Record('a'); } } // HERE")
    assert not as_getter_property(f, "Record", error, tmp_path)       # called, and GetRecord takes a parameter
