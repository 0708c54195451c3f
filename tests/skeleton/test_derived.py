"""A member only the port has (libphonenumber's PhoneNumberMatch.Length: Java has end(), the port's MoveNext
reads Start + Length) gets a body where it is a pure function of members Java has (skeleton.derived), and a
placeholder left says why."""
from __future__ import annotations

from repotrans.skeleton.derived import derive, why_not
from repotrans.skeleton.generate import SkeletonFile
from repotrans.skeleton.lines import PLACEHOLDER, Line
from repotrans.skeleton.port_uses import PORT_ONLY


def _match(*members: str, length_type: str = "int") -> SkeletonFile:
    """PhoneNumberMatch as the skeleton writes it, with the port's Length placeholder (typed by its uses)."""
    lines = [Line("public class PhoneNumberMatch", None, "type"), Line("{"),
             Line(f"    public {length_type} Length {{ get {{ {PLACEHOLDER} }} }}", f"PhoneNumberMatch.Length {PORT_ONLY}"),
             Line("    private readonly int start;", "PhoneNumberMatch.start")]
    for head in members:
        lines += [Line(f"    {head}", head), Line("    {", head), Line(f"        {PLACEHOLDER}", head), Line("    }", head)]
    return SkeletonFile("Lib/PhoneNumberMatch.cs", "Lib", ["p.PhoneNumberMatch"], lines + [Line("}")],
                        ["using System;", "", "namespace Lib", "{"])


def test_a_span_length_is_end_minus_start():
    f = _match("public int Start", "public int End()")
    assert derive([f]) == ["PhoneNumberMatch.Length: derived as End() - Start (members Java has)"]
    assert f.lines[2].text == "    public int Length { get { return End() - Start; } }"
    assert why_not([f]) == []


def test_without_an_end_the_placeholder_stays_and_says_why():
    f = _match("public int Start", "public static int End()", "public string RawString")
    assert derive([f]) == []
    assert PLACEHOLDER in f.lines[2].text
    assert why_not([f]) == ["PhoneNumberMatch.Length: a placeholder (no Java member gives it; as int it needs "
                            "End (missing) and Start of int type in its type)"]


def test_a_length_of_another_type_is_not_derived_from_ints():
    f = _match("public int Start", "public int End()", length_type="string")
    assert derive([f]) == []
