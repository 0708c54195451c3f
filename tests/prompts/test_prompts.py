"""Prompt templates: every step renders from fixture slots exactly as its stored snapshot."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from repotrans.errors import ConfigError
from repotrans.prompts import STEPS, render, template_names

SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots" / "prompts"
UPDATE = os.environ.get("REPOTRANS_UPDATE_SNAPSHOTS") == "1"

TOOLS = [
    {"name": "find_target_class_info", "description": "Show a C# class by name.",
     "args": [{"name": "class_name", "type": "string", "required": True, "description": "simple or qualified"}]},
    {"name": "get_source_class_info", "description": "Show the Java class of the function.", "args": []},
]
INPUT = {
    "java_class": "org.acme.geometry.shapes.Circle",
    "java_method": "public double getArea() {\n    return Math.PI * radius * radius;\n}",
    "target_class": "Acme.Geometry.Shapes.Circle",
    "target_signature": "public double GetArea()",
    "target_kind": "method",
    "accessors": [],
    "member_phrase": "the whole method (signature and body)",
    "lang_version": "6",
}
CONTEXT = [{"tool": "get_target_class_info", "args": {}, "output": {"class": "Circle", "fields": ["radius"]}}]
LAST = [{"tool": "get_target_class_info", "args": {}, "outcome": "ok, see Gathered Context 1"}]
EXAMPLE = {"source_id": "source:org.acme.Square.getArea()", "target_id": "target:Acme.Square.GetArea()",
           "java": "public double getArea() { return side * side; }",
           "csharp": "public double GetArea() { return side * side; }"}
BASE = {"tools": TOOLS, "input": INPUT, "gathered_context": CONTEXT, "last_command": LAST,
        "examples": [EXAMPLE], "max_iterations": 8,
        "port_calls": [{"java": "new IndexOutOfBoundsException(i)", "cs": "SupportClass.IndexOutOfRange(i)",
                        "count": 3, "total": 3}],
        "conventions": ["Java `IllegalArgumentException` became `ArgumentOutOfRangeException` in 2 of 2 ported "
                        "methods that throw it; do the same."]}
EXTRA = {
    "rag_filter": {"candidates": [EXAMPLE]},
    "reflect": {"code": "public double GetArea()\n{\n    return Math.PI * radius * radius;\n}", "attempt": 1,
                "result": "compile_error\n- CS0103 at candidate line 3: The name `Math' does not exist"},
    "repair": {"code": "public double GetArea()\n{\n    return Math.PI * radius * radius;\n}", "attempt": 1,
               "result": "compile_error\n- CS0103 at candidate line 3: The name `Math' does not exist",
               "reflection": "`Math` is `System.Math` in C#; the file has no `using System;`."},
}
TEST_SLOTS = {
    "style": {"nunit_major": 2, "assert_that": False, "expected_exception_attribute": True,
              "method_casing": "PascalCase", "fixture_setup": "TestFixtureSetUp",
              "fixture_teardown": "TestFixtureTearDown",
              "example": "[TestFixture]\npublic class SquareTests\n{\n    [Test]\n    public void Area() "
                         "{ Assert.AreEqual(4.0, new Square(2).Area, 1e-9); }\n}"},
    "test_input": {"java_path": "org/acme/geometry/shapes/CircleTest.java",
                   "java_text": "public class CircleTest {\n    @Test\n    public void area() {\n"
                                "        assertEquals(Math.PI, new Circle(1).getArea(), 1e-9);\n    }\n}",
                   "path": "tests/Acme.Geometry.Tests/Shapes/CircleTests.cs", "namespace": "Acme.Geometry.Shapes",
                   "fixture": "CircleTests", "under_test": "org.acme.geometry.shapes.Circle",
                   "target_class": "Acme.Geometry.Shapes.Circle", "category": "RepotransTranslated",
                   "lang_version": "6"},
}
EXTRA["translate_tests"] = {**TEST_SLOTS, "port_calls": []}
EXTRA["repair_tests"] = {**TEST_SLOTS, "port_calls": [], "attempt": 1, "code": "public class CircleTests { }",
                         "result": "- line 4: CS1061 `Circle' does not contain a definition for `getArea' "
                                   "`Assert.AreEqual(Math.PI, new Circle(1).getArea(), 1e-9);`"}
EXTRA["sync_edit"] = {"sync": {
    "java_class": "org.acme.geometry.GeometryMath", "target_class": "Acme.Geo.GeometryMath",
    "old_java": "public static double clamp(double value, double min, double max) {\n    if (value < min) {\n"
                "        return min;\n    }\n    return value;\n}",
    "new_java": "public static double clamp(double value, double min, double max) {\n    if (Double.isNaN(value)) {\n"
                "        return value;\n    }\n    if (value < min) {\n        return min;\n    }\n    return value;\n}",
    "java_diff": "--- old\n+++ new\n@@ -1,2 +1,5 @@\n public static double clamp(double value, double min, double max) {\n"
                 "+    if (Double.isNaN(value)) {\n+        return value;\n+    }\n     if (value < min) {",
    "current_cs": "public static double Clamp(double value, double min, double max)\n{\n    if (value < min)\n    {\n"
                  "        return min;\n    }\n    return value;\n}",
    "commits": ["1840bda"], "lang_version": "6"}}
ORDER = ["## Goals", "## Tools", "## Guidelines", "## Example", "## Output Format", "## Input",
         "## Gathered Context", "## Last Command"]


def test_every_step_has_a_template():
    assert template_names() == list(STEPS)


@pytest.mark.parametrize("step", STEPS)
def test_template_matches_snapshot(step):
    text = render(step, {**BASE, **EXTRA.get(step, {})})
    path = SNAPSHOTS / f"{step}.md"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("step", STEPS)
def test_static_slots_come_before_dynamic_ones(step):
    text = render(step, {**BASE, **EXTRA.get(step, {})})
    positions = [text.find(h + "\n") for h in ORDER]
    present = [p for p in positions if p >= 0]
    assert present == sorted(present)
    assert text.find("## Goals") >= 0 and text.find("## Input") > text.find("## Output Format")


def test_missing_slot_is_a_config_error():
    slots = dict(BASE)
    del slots["input"]
    with pytest.raises(ConfigError, match="generate.md.j2.*input"):
        render("generate", slots)


def test_unknown_step_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown prompt step"):
        render("summarise", BASE)


def test_repair_without_reflection_shows_raw_errors_only():
    text = render("repair", {**BASE, **EXTRA["repair"], "reflection": None})
    assert "## Reflection" not in text
    assert "CS0103 at candidate line 3" in text


def test_static_prompt_has_no_tools_and_no_more_context():
    text = render("reflect", {**BASE, **EXTRA["reflect"], "tools": [], "last_command": []})
    assert "MORE_CONTEXT" not in text
    assert "No tools in this configuration" in text


def test_language_versions_spell_out_what_they_allow_and_forbid():
    from repotrans.prompts.language import language_notes

    six = language_notes("6")
    assert "`nameof`" in six["allows"] and "`out var` declarations" in six["forbids"]
    assert "tuples `(int, string)` and deconstruction" in six["forbids"] and "local functions" in six["forbids"]
    assert "the `default` literal (without a type)" in six["forbids"]
    seven3 = language_notes("7.3")
    assert "`out var` declarations" in seven3["allows"] and "switch expressions" in seven3["forbids"]
    assert language_notes("latest")["forbids"] == [] and language_notes("12.0")["forbids"] == []


def test_system_prompt_is_byte_stable_and_names_the_version():
    from types import SimpleNamespace

    from repotrans.prompts.slots import system_prompt

    a, b = SimpleNamespace(lang_version="6"), SimpleNamespace(lang_version="6")
    text = system_prompt(a)
    assert text == system_prompt(b)
    assert "## C# language version 6" in text and "Not available, do not use: `out var` declarations" in text
    assert "fully qualifying" in text.lower() or "Fully qualifying" in text
