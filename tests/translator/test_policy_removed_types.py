"""A Java helper class the port removed (issue 34): jsoup guards its arguments through `Validate`; NSoup has
no Validate and writes each guard where the call was (`if (child == null) { throw new
ArgumentNullException("child"); }`). The builtin wrote `Validate.NotNull(child);` (CS0103, 28 of NSoup's
310 validated tasks). Shapes after jsoup's Validate and Element, not their code."""
from __future__ import annotations

import pytest

from repotrans.translator.java2cs import translate_method
from repotrans.translator.removed_types import inline_removed_calls, removed_type_helpers
from repotrans.translator.resolver import ContextResolver
from tests.support.indexes import mapped_pair
from tests.support.policy_harness import compile_cs, needs_toolchains, run

JAVA = {
    "org/web/helper/Check.java": """package org.web.helper;
public final class Check {
    private Check() {}
    public static void notNull(Object obj) {
        if (obj == null)
            throw new IllegalArgumentException("Object must not be null");
    }
    public static void isTrue(boolean val, String msg) {
        if (!val)
            throw new IllegalArgumentException(msg);
    }
    public static void notEmpty(String string, String msg) {
        if (string == null || string.length() == 0)
            throw new IllegalArgumentException(msg);
    }
    public static String orEmpty(String s) {
        String t = s == null ? "" : s;
        return t;
    }
}
""",
    "org/web/nodes/Box.java": """package org.web.nodes;
import org.web.helper.Check;
public class Box {
    private String name;
    private int size;
    public Box appendName(String more) {
        Check.notNull(more);
        Check.notEmpty(more, "must not be empty");
        name = name + more;
        return this;
    }
    public Box resize(int size) {
        Check.isTrue(size >= 0 && size < 100, "size out of range");
        this.size = size;
        return this;
    }
    public String label(String s) {
        return Check.orEmpty(s) + name;
    }
    public int indexIn(java.util.List<Box> boxes) {
        Integer index = boxes.indexOf(this);
        Check.notNull(index);
        Check.notNull(boxes);
        return index + 1;
    }
}
""",
}
CS = {
    "Web/Nodes/Box.cs": """using System;
namespace Web.Nodes
{
    public class Box
    {
        private string name = "";
        private int size;
        public Box AppendName(string more)
        {
            if (more == null) { throw new ArgumentNullException("more"); }
            name = name + more;
            return this;
        }
        public Box Resize(int size)
        {
            this.size = size;
            return this;
        }
        public string Label(string s) { return (s ?? "") + name; }
        public int IndexIn(System.Collections.Generic.List<Box> boxes)
        {
            if (boxes == null) { throw new ArgumentNullException("boxes"); }
            int index = boxes.IndexOf(this);
            return index + 1;
        }
        public int Size { get { return size; } }
        public string Name { get { return name; } }
    }
}
""",
}
PROGRAM = """
public static class Program
{
    public static void Main()
    {
        var box = new Web.Nodes.Box();
        try { box.AppendName(null); } catch (System.ArgumentNullException e) { System.Console.WriteLine("null " + e.ParamName); }
        try { box.AppendName(""); } catch (System.ArgumentException e) { System.Console.WriteLine(e.Message); }
        try { box.Resize(200); } catch (System.ArgumentException e) { System.Console.WriteLine(e.Message); }
        System.Console.WriteLine(box.AppendName("ab").Resize(7).Size + box.Name);
        System.Console.WriteLine(box.IndexIn(new System.Collections.Generic.List<Web.Nodes.Box> { box }));
    }
}
"""


def _candidates(tmp_path) -> dict[str, str]:
    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    out = {}
    for name in ("appendName", "resize", "label", "indexIn"):
        java = next(m for m in index.methods("source:org.web.nodes.Box") if m.name == name)
        target = mapping.target_method(java.id)
        helpers = removed_type_helpers(index, mapping, java)
        assert {h.name for h in helpers} == {"notNull", "isTrue", "notEmpty", "orEmpty"}
        resolver = ContextResolver("Box", {})
        code = translate_method(java, resolver, index.method(target.target_id))
        out[name] = inline_removed_calls(code, helpers, resolver, translate_method)
    return out


def test_a_removed_class_helper_call_becomes_its_guard(tmp_path):
    code = _candidates(tmp_path)
    assert 'if (more == null)\n    {\n        throw new ArgumentNullException("more");\n    }' in code["appendName"]
    assert 'if (more == null || more.Length == 0)\n    {\n        throw new ArgumentException("must not be empty");' \
        in code["appendName"]
    assert 'if (!(size >= 0 && size < 100))\n    {\n        throw new ArgumentException("size out of range");' \
        in code["resize"]
    assert "Check." not in code["appendName"] + code["resize"]
    assert "Check.OrEmpty(s)" in code["label"]        # returns a value and declares a local: left as it was


def test_a_null_guard_on_a_value_typed_local_is_dropped(tmp_path):
    """jsoup's `Integer index = indexInList(..); Validate.notNull(index);`: C# declares `int index`, where a
    null test is always false (CS0472 on NSoup's Element.NextElementSibling); the port drops the guard."""
    code = _candidates(tmp_path)["indexIn"]
    assert "int index" in code, code
    assert "index == null" not in code, code
    assert 'if (boxes == null)' in code and 'ArgumentNullException("boxes")' in code, code


def test_a_null_guard_on_an_enum_parameter_is_dropped(tmp_path):
    """jsoup's `method(Method method) { Validate.notNull(method, ..); ..}`: NSoup's Method is a C# enum, a value
    type (`method == null`: CS0472 on ConnectionBase.Method(Method)); a class-typed parameter keeps its guard."""
    from repotrans.translator.tool_outputs import target_type

    mapping, index = mapped_pair(tmp_path, JAVA, CS)
    helpers = removed_type_helpers(index, mapping, next(m for m in index.methods("source:org.web.nodes.Box")
                                                        if m.name == "appendName"))
    java = "public Box shape(Shape shape) { Check.notNull(shape); this.shape = shape; return this; }"
    for kind, guarded in (("enum", False), ("class", True)):
        shape = target_type({"class": "Web.Nodes.Shape", "kind": kind, "fields": ["Round", "Square"], "members": []})
        resolver = ContextResolver("Box", {"Shape": shape})
        code = inline_removed_calls(translate_method(java, resolver, "public Box Shape(Shape shape)"), helpers,
                                    resolver, translate_method)
        assert ("shape == null" in code) is guarded and "this.shape = shape;" in code and "Check." not in code, code


def test_a_type_the_port_keeps_is_not_inlined(tmp_path):
    cs = dict(CS)
    cs["Web/Helper/Check.cs"] = ("namespace Web.Helper { public static class Check { public static void NotNull(object o) { } "
                                 "public static void IsTrue(bool v, string m) { } public static void NotEmpty(string s, string m) { } "
                                 "public static string OrEmpty(string s) { return s ?? \"\"; } } }")
    mapping, index = mapped_pair(tmp_path, JAVA, cs)
    java = next(m for m in index.methods("source:org.web.nodes.Box") if m.name == "appendName")
    assert removed_type_helpers(index, mapping, java) == []


def test_a_kept_types_helper_with_no_counterpart_is_inlined(tmp_path):
    """The port keeps Check with NotNull only: isTrue and notEmpty have no counterpart, so their calls
    become their guards (never `Check.IsTrue(...)`, a member the port lacks); notNull stays a call."""
    cs = dict(CS)
    cs["Web/Helper/Check.cs"] = "namespace Web.Helper { public static class Check { public static void NotNull(object o) { } } }"
    mapping, index = mapped_pair(tmp_path, JAVA, cs)
    java = next(m for m in index.methods("source:org.web.nodes.Box") if m.name == "appendName")
    helpers = removed_type_helpers(index, mapping, java)
    assert {h.name for h in helpers} == {"isTrue", "notEmpty", "orEmpty"}
    resolver = ContextResolver("Box", {})
    code = inline_removed_calls(translate_method(java, resolver, index.method(mapping.target_method(java.id).target_id)),
                                helpers, resolver, translate_method)
    assert "Check.NotNull(more);" in code and "Check.NotEmpty" not in code, code
    assert 'if (more == null || more.Length == 0)' in code, code


@needs_toolchains
@pytest.mark.slow
def test_the_inlined_guards_compile_and_throw_as_the_port_does(tmp_path):
    code = _candidates(tmp_path)
    members = "\n".join(code[n] for n in ("appendName", "resize", "indexIn"))
    shell = CS["Web/Nodes/Box.cs"]
    shell = shell[:shell.index("        public int IndexIn")] + shell[shell.index("        public int Size"):]
    start = shell.index("        public Box AppendName")
    end = shell.index("        public string Label")
    source = shell[:start] + members + "\n" + shell[end:] + PROGRAM
    work = tmp_path / "cs"
    work.mkdir()
    proc = compile_cs(source, work, "Box")
    assert proc.returncode == 0, proc.stdout + proc.stderr + source
    ran = run(["mono", "Box.exe"], work)
    assert ran.stdout.split("\n")[:5] == ["null more", "must not be empty", "size out of range", "7ab", "1"]
