"""Object's own API as C# has it (issue 34, Java library APIs kept): jsoup's OutputSettings.clone() calls
`super.clone()`, which the builtin wrote `base.Clone()` (CS0117: C#'s object has no Clone; it has
MemberwiseClone), and wraps the checked exception in `new RuntimeException(e)`, written `new Exception(e)`
(CS1502: .NET's exceptions take a message with their inner exception). Compiled and run with mono."""
from __future__ import annotations

import pytest

from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from tests.support.policy_harness import compile_cs, needs_toolchains, run

JAVA = """public Settings clone() {
    Settings clone;
    try {
        clone = (Settings) super.clone();
    } catch (CloneNotSupportedException e) {
        throw new RuntimeException(e);
    }
    clone.indent = indent + 1;
    return clone;
}"""
WRAP = """static String wrap(String s) {
    try {
        return String.valueOf(Integer.parseInt(s));
    } catch (NumberFormatException e) {
        throw new IllegalStateException(e);
    }
}"""
SHELL = """using System;
using System.Globalization;
public class Settings : ICloneable
{
    public int indent = 1;
    object ICloneable.Clone() { return Clone(); }
//@CANDIDATE@
    public static void Main()
    {
        var first = new Settings();
        var second = first.Clone();
        Console.WriteLine(first.indent + " " + second.indent + " " + ReferenceEquals(first, second));
        try { Wrap("x"); } catch (InvalidOperationException e) { Console.WriteLine(e.InnerException.GetType().Name); }
    }
}
"""


def _resolver() -> ContextResolver:
    info = {"class": "Settings", "kind": "class", "fields": ["public int indent"], "members": ["public Settings Clone()"]}
    return ContextResolver.from_tool_outputs("Settings", [("get_target_class_info", {}, info)])


def test_object_clone_and_a_wrapped_cause_are_written_as_dotnet_has_them():
    code = translate_method(JAVA, _resolver(), "public Settings Clone()")
    assert "clone = (Settings)MemberwiseClone();" in code and "throw new Exception(e.Message, e);" in code


def test_a_base_that_declares_clone_keeps_base_clone():
    base = {"class": "Node", "kind": "class", "fields": [], "members": ["public virtual Node Clone()"]}
    own = {"class": "Settings", "kind": "class", "supertypes": ["Node"], "fields": [], "members": []}
    resolver = ContextResolver.from_tool_outputs("Settings", [("get_target_class_info", {}, own),
                                                              ("find_target_class_info", {"class_name": "Node"}, base)])
    assert "base.Clone()" in translate_method(JAVA, resolver, "public override Node Clone()")


@needs_toolchains
@pytest.mark.slow
def test_they_compile_and_run(tmp_path):
    code = translate_method(JAVA, _resolver(), "public Settings Clone()") + "\n" \
        + translate_method(WRAP, _resolver(), "public static string Wrap(string s)")
    proc = compile_cs(SHELL.replace("//@CANDIDATE@", code), tmp_path, "Settings")
    assert proc.returncode == 0, proc.stdout + proc.stderr + code
    ran = run(["mono", "Settings.exe"], tmp_path)
    assert ran.stdout.split("\n")[:2] == ["1 2 False", "FormatException"], ran.stdout + ran.stderr
