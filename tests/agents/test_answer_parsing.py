"""Reading answers as real models write them: reasoning, fences, sloppy JSON, whole classes, MORE_CONTEXT."""
from __future__ import annotations

import pytest

from repotrans.agents import parse
from repotrans.agents.candidate import extract
from repotrans.agents.lenient_json import first_object
from repotrans.index.model import Method, Param


def json_obj(text, keys=()):
    return parse.json_answer(text, keys)[0]


def first_block(text):
    blocks = parse.code_blocks(text)
    return blocks[0] if blocks else None


def target(kind="method", name="Scale", params=(("double", "factor"),), signature="public Circle Scale(double factor)"):
    return Method(id="target:Acme.Circle.Scale(double)", side="target", type_id="target:Acme.Circle", kind=kind,
                  name=name, params=[Param(name=n, type=t) for t, n in params], return_type="Circle",
                  modifiers=["public"], annotations=[], type_params=[], signature=signature, body="{ }",
                  path="Circle.cs", start_line=1, end_line=1, start_byte=0, end_byte=1)


# -- reasoning ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, answer, reasoning", [
    ("<think>try {x}\n```csharp\nint Draft() { }\n```</think>\n\n```cs\nint A() { return 1; }\n```",
     "```cs\nint A() { return 1; }\n```", "try {x}\n```csharp\nint Draft() { }\n```"),
    ("opened by the template { } </think>{\"tool\": \"enough\"}", '{"tool": "enough"}', "opened by the template { }"),
    ("<reasoning>r</reasoning>ok", "ok", "r"),
    ("Thinking...\nthe class {}\n...done thinking.\n\nanswer", "answer", "the class {}"),
    ("<think>cut off in the middle ```csharp\nint X() {", "", "cut off in the middle ```csharp\nint X() {"),
    ("plain", "plain", ""),
])
def test_reasoning_is_set_aside(text, answer, reasoning):
    got = parse.split_reasoning(text)
    assert (got.text, got.reasoning) == (answer, reasoning)


def test_reasoning_content_field_is_kept():
    got = parse.split_reasoning("```cs\nint A();\n```", "server-side thoughts")
    assert got.reasoning == "server-side thoughts" and got.text.startswith("```cs")


# -- JSON --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    '{"tool": "find_target_class_info", "arguments": {"class_name": "Point"}}',
    "{'tool': 'find_target_class_info', 'arguments': {'class_name': 'Point',},}",
    '```json\n{"tool": "find_target_class_info", // the helper\n "arguments": {class_name: "Point"}}\n```',
    'Sure! I will look at Point next: {"tool": "find_target_class_info", "arguments": {"class_name": "Point"}} done.',
])
def test_sloppy_json_is_read(text):
    assert json_obj(text, keys=("tool",)) == {"tool": "find_target_class_info",
                                                       "arguments": {"class_name": "Point"}}


def test_broken_json_gets_a_precise_problem_not_the_inner_object():
    obj, problem = parse.json_answer('{"tool": "find_target_class_info" "arguments": {}}', keys=("tool",))
    assert obj is None
    assert "is not valid JSON: Expecting ',' delimiter at line 1 column 35" in str(problem)
    obj, problem = parse.json_answer('{"tool": "x", "arguments": {"a": 1}', keys=("tool",))
    assert obj is None and "is not closed" in str(problem)
    assert str(parse.json_answer("no braces here")[1]) == "no JSON object found"


def test_an_object_with_the_expected_key_wins():
    obj, _ = first_object('the code { } then {"retrieve": false}', keys=("retrieve",))
    assert obj == {"retrieve": False}


@pytest.mark.parametrize("obj, call", [
    ({"tool": "a", "arguments": {"x": 1}}, ("a", {"x": 1})),
    ({"name": "a", "parameters": {"x": 1}}, ("a", {"x": 1})),
    ({"function": {"name": "a", "arguments": '{"x": 1}'}}, ("a", {"x": 1})),
    ({"tool": "a"}, ("a", {})),
])
def test_tool_call_spellings(obj, call):
    assert parse.tool_call(obj) == call


# -- fences ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "```csharp\nint A;\n```", "```cs\nint A;\n```", "```C#\nint A;\n```", "~~~c#\nint A;\n~~~",
    "````csharp title=x\nint A;\n````", "```\nint A;\n```", "text\n```csharp\nint A;",   # left open (cut off)
])
def test_fence_tags(text):
    assert first_block(text) == "int A;"


def test_other_languages_are_not_csharp():
    assert first_block("```java\nint x;\n```") is None


# -- MORE_CONTEXT ------------------------------------------------------------------------------------------
REQ = {"tool": "find_target_class_info", "arguments": {"class_name": "Point"}}


@pytest.mark.parametrize("text", [
    'Wrong name.\nMORE_CONTEXT: {"tool": "find_target_class_info", "arguments": {"class_name": "Point"}}',
    'Wrong name.\n**MORE_CONTEXT:** {"tool": "find_target_class_info", "arguments": {"class_name": "Point"}}',
    'Wrong name.\n**MORE_CONTEXT**:\n```json\n{"name": "find_target_class_info", "parameters": {"class_name": "Point"}}\n```',
    "Wrong name.\nMORE_CONTEXT:\n- {'tool': 'find_target_class_info', 'arguments': {'class_name': 'Point',}}",
])
def test_more_context_spellings(text):
    assert parse.more_context(text) == [REQ]
    assert parse.reflection_text(text) == "Wrong name."


def test_more_context_none_and_junk():
    assert parse.more_context("Fine.\nMORE_CONTEXT: none") == []
    text = 'why\nMORE_CONTEXT: {"tool": "find_target_imports", "arguments": {}}\nMORE_CONTEXT: junk\n'
    assert parse.more_context(text) == [{"tool": "find_target_imports", "arguments": {}}]
    assert parse.reflection_text(text) == "why"


# -- candidates --------------------------------------------------------------------------------------------
WHOLE_CLASS = """```cs
using System;
using System.Linq;

namespace Acme.Geo
{
    public class Circle
    {
        private readonly double radius;

        public Circle(double radius) { this.radius = radius; }

        // scales it
        public Circle Scale(double factor)
        {
            return new Circle(Times(radius, factor));
        }

        private static double Times(double a, double b)
        {
            return a * b;
        }

        public double Area() { return 0; }
    }
}
```"""


def test_whole_class_is_reduced_to_the_member_its_usings_and_new_private_helpers():
    found = extract(WHOLE_CLASS, target(), frozenset({"radius", "Circle", "Area", "Scale"}))
    assert found.code == ("using System;\nusing System.Linq;\n\n// scales it\npublic Circle Scale(double factor)\n{\n"
                          "    return new Circle(Times(radius, factor));\n}\n\nprivate static double Times(double a, "
                          "double b)\n{\n    return a * b;\n}")
    assert found.helpers == ["method Times"] and found.shape == "class"
    assert found.dropped == ["field radius: already in the class", "constructor Circle: already in the class",
                             "method Area: already in the class"]


def test_usage_snippet_before_the_implementation_is_skipped():
    text = ("Usage:\n```csharp\nvar bigger = circle.Scale(2.0);\nConsole.WriteLine(bigger);\n```\n"
            "Implementation:\n```csharp\npublic Circle Scale(double factor) => new Circle(radius * factor);\n```")
    found = extract(text, target())
    assert found.code == "public Circle Scale(double factor) => new Circle(radius * factor);"


def test_overload_is_chosen_by_parameter_types():
    text = ("```csharp\npublic Circle Scale(double fx, double fy) { return null; }\n\n"
            "public Circle Scale(double factor) { return this; }\n```")
    found = extract(text, target(), frozenset({"Scale"}))
    assert found.code == "public Circle Scale(double factor) { return this; }"
    assert found.dropped == ["method Scale: already in the class"]


def test_body_only_and_usings_are_kept():
    assert extract("```csharp\nreturn this;\n```", target()).code == "return this;"
    found = extract("```csharp\nusing System.Linq;\n\npublic Circle Scale(double factor)\n{\n    return this;\n}\n```",
                    target())
    assert found.usings == ["using System.Linq;"]
    assert found.code == "using System.Linq;\n\npublic Circle Scale(double factor)\n{\n    return this;\n}"


def test_property_and_constructor_answers():
    prop = target(kind="property", name="Center", params=(), signature="public Point Center")
    found = extract("```csharp\npublic Point Center\n{\n    get { return center; }\n}\n```", prop)
    assert found.code.startswith("public Point Center") and found.shape == "member"
    ctor = target(kind="constructor", name="Circle", params=(("double", "r"),), signature="public Circle(double r)")
    found = extract("```csharp\npublic class Circle {\n  public Circle(double r) : this(r, 0) { }\n}\n```", ctor,
                    frozenset({"Circle"}))
    assert found.code == "public Circle(double r) : this(r, 0) { }" and found.shape == "class"


def test_a_params_parameter_is_the_member_asked():
    ctor = target(kind="constructor", name="ECBlocks", params=(("int", "n"), ("ECB[]", "blocks")),
                  signature="internal ECBlocks(int n, params ECB[] blocks)")
    found = extract("```csharp\ninternal ECBlocks(int n, params ECB[] blocks)\n{\n    this.n = n;\n}\n```", ctor)
    assert found.code.startswith("internal ECBlocks(int n, params ECB[] blocks)")
    other = extract("```csharp\ninternal ECBlocks(int n)\n{\n}\n```", ctor)
    assert other.found == "ECBlocks(int)"


def test_public_new_members_are_not_added():
    text = "```csharp\npublic Circle Scale(double factor) { return Twice(); }\npublic Circle Twice() { return this; }\n```"
    found = extract(text, target())
    assert found.helpers == [] and found.dropped == ["method Twice: not private (only private helpers are added)"]


def test_no_code_is_none():
    assert extract("I cannot do that.", target()) is None


# -- repository conventions --------------------------------------------------------------------------------
def test_exception_conventions_come_from_ported_pairs():
    from repotrans.agents.conventions import conventions_for, exception_pairs

    table = exception_pairs([
        ("{ if (n < 0) throw new IllegalArgumentException(\"n\"); }", "{ if (n < 0) throw new ArgumentOutOfRangeException(\"n\"); }"),
        ("{ throw new IllegalArgumentException(\"x\"); }", "{ throw new System.ArgumentOutOfRangeException(\"x\"); }"),
        ("{ throw new IllegalArgumentException(\"y\"); }", "{ throw new ArgumentException(\"y\"); }"),
        ("{ throw new IllegalStateException(); }", "{ return; }"),           # unmatched counts: ignored
    ])
    assert conventions_for("{ throw new IllegalArgumentException(\"s\"); }", table) == [
        "Java `IllegalArgumentException` became `ArgumentOutOfRangeException` in 2 of 3 ported methods that throw "
        "it; do the same."]
    assert conventions_for("{ throw new IllegalStateException(); }", table) == []


def test_new_instance_fields_are_left_out_static_ones_kept():
    text = ("```csharp\nclass Circle {\n    private double scale;\n    private static readonly double[] Table = { 1, 2 };\n"
            "    public Circle Scale(double factor) { return this; }\n}\n```")
    found = extract(text, target(), frozenset({"Circle", "Scale"}))
    assert found.helpers == ["field Table"]
    assert found.dropped == ["field scale: an instance field is state the class does not have (only static helpers)"]


def test_unfenced_or_mislabelled_code_counts_only_when_it_declares_the_target():
    found = extract("Sure.\npublic Circle Scale(double factor)\n{\n    return this;\n}\nIt returns itself.", target())
    assert found.code == "public Circle Scale(double factor)\n{\n    return this;\n}"
    found = extract("```java\npublic Circle Scale(double factor) { return this; }\n```", target())
    assert found.code == "public Circle Scale(double factor) { return this; }"
    assert extract("```java\npublic Circle scale(double factor) { return this; }\n```", target()) is None
    assert extract("I would call Scale(2) here.", target()) is None


# -- retrieved examples ------------------------------------------------------------------------------------
def test_examples_below_the_relevance_bar_are_left_out_and_the_rest_dedented():
    from repotrans.prompts.slots import example_slot
    from repotrans.retrieval.retriever import above_bar
    from repotrans.retrieval.stores import PairHit

    def cand(name, scores):
        return PairHit(f"source:a.{name}()", f"target:A.{name}()", f"String {name}()",
                         "{\n        return x;\n    }", f"public string {name}()",
                         "{\n            return x;\n        }", scores)

    both = cand("both", {"bm25": {"rank": 1, "score": 9.0}, "dense": {"rank": 2, "score": 0.31}})
    close = cand("close", {"dense": {"rank": 1, "score": 0.72}})
    words = cand("words", {"bm25": {"rank": 2, "score": 7.0}})
    far = cand("far", {"dense": {"rank": 3, "score": 0.2}})
    kept, dropped = above_bar([both, close, words, far])
    assert [c.source_id for c in kept] == ["source:a.both()", "source:a.close()"] and dropped == 2
    slot = example_slot(close)
    assert slot["java"] == "String close() {\n    return x;\n}"
    assert slot["csharp"] == "public string close()\n{\n    return x;\n}"
