"""The five context tools on the sample pair: exact answers, error answers, the honesty rule, size bound, CLI."""
from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from repotrans.cli import main
from repotrans.mapping.load import load_mapping
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask, has_code, resolve_task
from repotrans.tools import IMPLEMENTATIONS, ToolContext, load_schemas, run_tool
from repotrans.tools.bound import bound, size
from repotrans.tools.describe import dedent_body

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "datasets" / "sample"
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini_pair"
TASK = "Acme.Geo.Shapes.Circle.ContainsPoint(Point2D)"


@pytest.fixture(scope="module")
def sample_workdir(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("sample")
    Index.open(work).build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    return work


@pytest.fixture(scope="module")
def ctx(sample_workdir) -> ToolContext:
    return ToolContext.from_workdir(sample_workdir, function=TASK)


@pytest.fixture(scope="module")
def bare(sample_workdir) -> ToolContext:
    """No function under translation."""
    return ToolContext.from_workdir(sample_workdir)


# --- registry -------------------------------------------------------------------------------------

def test_every_schema_has_one_implementation_and_the_reverse():
    schemas = load_schemas()
    assert set(schemas) == set(IMPLEMENTATIONS) == {
        "get_source_class_info", "get_target_class_info", "find_target_imports",
        "find_target_class_info", "find_target_method_body"}
    for name, schema in schemas.items():
        assert set(schema) == {"name", "description", "parameters"} and schema["name"] == name
        params = schema["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        impl_params = list(inspect.signature(IMPLEMENTATIONS[name]).parameters)
        assert impl_params[0] == "ctx"
        assert impl_params[1:] == list(params["properties"]) == params["required"]


def test_unknown_tool_and_bad_arguments(ctx):
    assert run_tool(ctx, "find_target_clas_info", {}) == {
        "error": "unknown tool 'find_target_clas_info'",
        "did_you_mean": ["find_target_class_info", "get_target_class_info", "find_target_imports"]}
    assert run_tool(ctx, "zzz", {})["did_you_mean"] == sorted(IMPLEMENTATIONS)
    assert run_tool(ctx, "find_target_class_info", {}) == {
        "error": "find_target_class_info: missing required argument(s): class_name", "did_you_mean": []}
    assert run_tool(ctx, "find_target_class_info", {"class_name": "Circle", "x": 1}) == {
        "error": "find_target_class_info: unknown argument(s) x; expected: class_name", "did_you_mean": []}
    assert run_tool(ctx, "find_target_class_info", {"class_name": 3}) == {
        "error": "find_target_class_info: argument 'class_name' must be a string, got int", "did_you_mean": []}
    assert run_tool(ctx, "get_source_class_info", ["x"]) == {
        "error": "get_source_class_info: arguments must be a JSON object, got list", "did_you_mean": []}


def test_run_tool_never_raises():
    broken = ToolContext(index=None, mapping=None, task=None)
    out = run_tool(broken, "find_target_class_info", {"class_name": "Circle"})
    assert out == {"error": "internal error in find_target_class_info: AttributeError: "
                            "'NoneType' object has no attribute 'find_types'", "did_you_mean": []}


@pytest.mark.parametrize("name", ["get_source_class_info", "get_target_class_info", "find_target_imports"])
def test_task_tools_without_task(bare, name):
    assert run_tool(bare, name, {}) == {
        "error": "no function under translation: this tool needs a task (pass --function to `repotrans tool`)",
        "did_you_mean": []}


# --- the three task tools -------------------------------------------------------------------------

def test_get_source_class_info(ctx):
    assert run_tool(ctx, "get_source_class_info", {}) == {
        "class": "org.acme.geometry.shapes.Circle",
        "kind": "class",
        "file": "src/main/java/org/acme/geometry/shapes/Circle.java",
        "declaration": "public final class Circle",
        "bases": ["AbstractShape"],
        "supertypes": ["org.acme.geometry.shapes.AbstractShape", "org.acme.geometry.shapes.Shape"],
        "fields": ["private final Point2D center", "private final double radius"],
        "members": [
            "public Circle(Point2D center, double radius)",
            "public Circle(double radius)",
            "public Point2D getCenter()",
            "public double getRadius()",
            "public double getDiameter()",
            "@Override public double area()",
            "@Override public double perimeter()",
            "@Override public BoundingBox boundingBox()",
            "@Override protected boolean containsPoint(Point2D point)",
            "public Circle scale(double factor)",
            "public boolean intersects(Circle other)",
        ],
        "under_translation": "@Override protected boolean containsPoint(Point2D point)",
    }


def test_get_target_class_info(ctx):
    out = run_tool(ctx, "get_target_class_info", {})
    assert out == {
        "class": "Acme.Geo.Shapes.Circle",
        "kind": "class",
        "file": "src/Acme.Geo/Shapes/Circle.cs",
        "declaration": "public sealed class Circle",
        "bases": ["AbstractShape"],
        "supertypes": ["Acme.Geo.Shapes.AbstractShape", "Acme.Geo.Shapes.IShape"],
        "fields": ["private readonly Point2D center", "private readonly double radius"],
        "members": [
            'public Circle(Point2D center, double radius) : base("circle")',
            "public Circle(double radius) : this(Point2D.Origin, radius)",
            "public Point2D Center { get; }",
            "public double Radius { get; }",
            "public double Diameter { get; }",
            "public override double Area()",
            "public override double Perimeter()",
            "public override BoundingBox GetBoundingBox()",
            "protected override bool ContainsPoint(Point2D point)",
            "public Circle Scale(double factor)",
            "public bool Intersects(Circle other)",
        ],
        "under_translation": "protected override bool ContainsPoint(Point2D point)",
    }


def test_find_target_imports(ctx):
    assert run_tool(ctx, "find_target_imports", {}) == {
        "file": "src/Acme.Geo/Shapes/Circle.cs",
        "namespaces": ["Acme.Geo.Shapes"],
        "usings": [
            {"using": "using System;", "namespace": "System", "external": True},
            {"using": "using Acme.Common;", "namespace": "Acme.Common",
             "project_types": ["CollectionUtils", "Pair", "Pairs", "Preconditions", "StringUtils"]},
        ],
        "namespace_types": {
            "Acme.Geo.Shapes": ["AbstractShape", "Circle", "IShape", "Polygon", "Rectangle", "ShapeCollection",
                                "ShapeExtensions", "Square"],
            "Acme.Geo": ["BoundingBox", "GeometryException", "GeometryMath", "Point2D", "Vector2D"],
        },
    }


def test_find_target_imports_alias_static_and_parent_namespace(tmp_path):
    Index.open(tmp_path).build(MINI / "java", MINI / "csharp", progress=False)
    mini = ToolContext.from_workdir(tmp_path, function="Acme.Geo.Shapes.Circle.Area")
    assert run_tool(mini, "find_target_imports", {}) == {
        "file": "Geo/Shapes/Circle.cs",
        "namespaces": ["Acme.Geo.Shapes"],
        "usings": [
            {"using": "using System;", "namespace": "System", "external": True},
            {"using": "using System.Collections.Generic;", "namespace": "System.Collections.Generic",
             "external": True},
            {"using": "using Acme;", "namespace": "Acme", "project_types": []},
            {"using": "using Acme.Text.Util;", "namespace": "Acme.Text.Util", "project_types": ["Strings", "Tokenizer"]},
            {"using": "using static Acme.Text.Util.Strings;", "type": "Acme.Text.Util.Strings",
             "static_members": ["IsBlank", "Join", "Repeat"]},
            {"using": "using static System.Math;", "type": "System.Math", "external": True},
            {"using": "using Txt = Acme.Text.Util;", "alias": "Txt", "namespace": "Acme.Text.Util",
             "project_types": ["Strings", "Tokenizer"]},
            {"using": "using Pt = Acme.Drawing.Point;", "alias": "Pt", "type": "Acme.Drawing.Point"},
        ],
        "namespace_types": {"Acme.Geo.Shapes": ["Circle", "IShape", "Square"], "Acme.Geo": ["Point", "Vector"]},
    }


def test_hidden_constructor_initializer(sample_workdir):
    """A constructor initializer is part of the translation: not shown for the member under translation."""
    c = ToolContext.from_workdir(sample_workdir, function="org.acme.geometry.shapes.Circle.<init>(double)")
    out = run_tool(c, "get_target_class_info", {})
    assert out["under_translation"] == "public Circle(double radius)"
    assert out["members"][1] == "public Circle(double radius)"
    assert "Point2D.Origin" not in json.dumps(out)
    body = run_tool(c, "find_target_method_body", {"class_name": "Circle", "method_name": "Circle"})
    assert body["overloads"][1] == {
        "signature": "public Circle(double radius)", "lines": body["overloads"][1]["lines"], "body": None,
        "note": "this is the function under translation: its body is not shown"}
    assert body["overloads"][0]["signature"] == 'public Circle(Point2D center, double radius) : base("circle")'


# --- find_target_class_info -----------------------------------------------------------------------

def test_find_target_class_info_by_simple_and_qualified_name(bare):
    simple = run_tool(bare, "find_target_class_info", {"class_name": "ShapeCollection"})
    assert run_tool(bare, "find_target_class_info", {"class_name": "Acme.Geo.Shapes.ShapeCollection<T>"}) == simple
    assert simple == {
        "class": "Acme.Geo.Shapes.ShapeCollection",
        "kind": "class",
        "file": "src/Acme.Geo/Shapes/ShapeCollection.cs",
        "declaration": "public sealed class ShapeCollection<T>",
        "bases": ["IEnumerable<T>"],
        "fields": ["private readonly List<T> shapes = new List<T>()"],
        "members": [
            "public void Add(T shape)",
            "public void AddRange(IEnumerable<T> items)",
            "public T this[int index] { get; }",
            "public int Count { get; }",
            "public bool IsEmpty { get; }",
            "public double TotalArea()",
            "public T Largest()",
            "public ShapeCollection<T> Filter(Func<T, bool> predicate)",
            "public IList<T> SortedByArea()",
            "public IList<TResult> Map<TResult>(Func<T, TResult> mapper)",
            "public Summary Summarize()",
            "public IEnumerator<T> GetEnumerator()",
            "IEnumerator IEnumerable.GetEnumerator()",
        ],
        "nested_types": ["class Acme.Geo.Shapes.ShapeCollection.Summary"],
    }


def test_find_target_class_info_java_name_and_unknown(bare):
    out = run_tool(bare, "find_target_class_info", {"class_name": "org.acme.geometry.shapes.Shape"})
    assert out["class"] == "Acme.Geo.Shapes.IShape"
    assert out["note"] == "'org.acme.geometry.shapes.Shape' is a Java name; its C# counterpart is Acme.Geo.Shapes.IShape"
    unknown = run_tool(bare, "find_target_class_info", {"class_name": "Cirle"})
    assert unknown["error"] == "no C# type named 'Cirle'" and unknown["did_you_mean"][0] == "Acme.Geo.Shapes.Circle"
    assert run_tool(bare, "find_target_class_info", {"class_name": " "}) == {
        "error": "class_name is empty", "did_you_mean": []}


def test_find_target_class_info_ambiguous(tmp_path):
    Index.open(tmp_path).build(MINI / "java", MINI / "csharp", progress=False)
    mini = ToolContext.from_workdir(tmp_path)
    assert run_tool(mini, "find_target_class_info", {"class_name": "Point"}) == {
        "error": "class name 'Point' is ambiguous: 2 C# types match; use a qualified name",
        "did_you_mean": ["Acme.Drawing.Point", "Acme.Geo.Point"],
        "candidates": [
            {"class": "Acme.Drawing.Point", "namespace": "Acme.Drawing", "kind": "struct"},
            {"class": "Acme.Geo.Point", "namespace": "Acme.Geo", "kind": "class"},
        ],
    }
    assert run_tool(mini, "find_target_class_info", {"class_name": "Drawing.Point"})["kind"] == "struct"


# --- find_target_method_body ----------------------------------------------------------------------

def test_find_target_method_body_overloads(bare, sample_workdir):
    out = run_tool(bare, "find_target_method_body", {"class_name": "Point2D", "method_name": "Translate"})
    index = Index.open(sample_workdir, must_exist=True)
    expected = [m for m in index.methods("target:Acme.Geo.Point2D") if m.name == "Translate"]
    assert len(expected) == 2
    assert out == {
        "class": "Acme.Geo.Point2D",
        "file": "src/Acme.Geo/Point2D.cs",
        "overloads": [{"signature": " ".join(m.signature.split()), "lines": [m.start_line, m.end_line],
                       "body": dedent_body(m.body)} for m in expected],
    }


def test_dedent_body():
    assert dedent_body("{\n            if (x)\n            {\n                y();\n            }\n        }") == \
        "{\n    if (x)\n    {\n        y();\n    }\n}"
    assert dedent_body("=> 1;") == "=> 1;"


def test_find_target_method_body_inherited_and_constructor(bare):
    out = run_tool(bare, "find_target_method_body", {"class_name": "Circle", "method_name": "Contains"})
    assert out["class"] == "Acme.Geo.Shapes.Circle" and out["declared_in"] == "Acme.Geo.Shapes.AbstractShape"
    assert [o["signature"] for o in out["overloads"]] == ["public bool Contains(Point2D point)"]
    ctor = run_tool(bare, "find_target_method_body", {"class_name": "Circle", "method_name": "Circle"})
    assert [o["signature"] for o in ctor["overloads"]] == [
        'public Circle(Point2D center, double radius) : base("circle")',
        "public Circle(double radius) : this(Point2D.Origin, radius)"]


def test_find_target_method_body_accepts_a_written_out_member(bare):
    plain = run_tool(bare, "find_target_method_body", {"class_name": "Point2D", "method_name": "Translate"})
    assert run_tool(bare, "find_target_method_body",
                    {"class_name": "Point2D", "method_name": "Point2D.Translate(double, double)"}) == plain


def test_find_target_method_body_errors(bare):
    assert run_tool(bare, "find_target_method_body", {"class_name": "Circle", "method_name": "getRadius"}) == {
        "error": "Acme.Geo.Shapes.Circle has no member named 'getRadius'", "did_you_mean": ["Radius"]}
    assert run_tool(bare, "find_target_method_body", {"class_name": "Nope", "method_name": "X"}) == {
        "error": "no C# type named 'Nope'", "did_you_mean": []}


def test_find_target_method_body_hides_the_task(ctx):
    out = run_tool(ctx, "find_target_method_body", {"class_name": "Circle", "method_name": "ContainsPoint"})
    assert out["overloads"] == [{
        "signature": "protected override bool ContainsPoint(Point2D point)", "lines": [53, 56], "body": None,
        "note": "this is the function under translation: its body is not shown"}]


def test_no_tool_reveals_the_body_under_translation(sample_workdir):
    """For every translatable member of the sample: its body appears in no tool answer."""
    index = Index.open(sample_workdir, must_exist=True)
    mapping = load_mapping(index)
    checked = 0
    for match in mapping.method_matches:
        target = index.method(match.target_id)
        if not has_code(target):
            continue
        task = resolve_task(index, mapping, match.source_id)
        c = ToolContext(index, mapping, task)
        owner = index.type(target.type_id)
        twins = [m for m in index.methods(owner.id) if m.id != target.id
                 and dedent_body(m.body or "") == dedent_body(target.body)]
        answers = [run_tool(c, name, {}) for name in ("get_target_class_info", "find_target_imports")]
        answers.append(run_tool(c, "find_target_class_info", {"class_name": owner.qualified_name}))
        body = run_tool(c, "find_target_method_body", {"class_name": owner.qualified_name,
                                                      "method_name": owner.name if target.kind == "constructor"
                                                      else target.name})
        mine = [o for o in body["overloads"] if o["body"] is None]
        assert len(mine) >= 1, task
        if not twins:
            answers.append(body)
        text = json.dumps(answers, ensure_ascii=False)
        for shown in (target.body, dedent_body(target.body)):
            assert json.dumps(shown, ensure_ascii=False)[1:-1] not in text, task
        checked += 1
    assert checked > 150


def test_property_under_translation_is_shown_with_accessor_bodies_to_write(sample_workdir):
    out = run_tool(ToolContext.from_workdir(sample_workdir, function="Acme.Geo.Shapes.Circle.Center"),
                   "get_target_class_info", {})
    assert "public Point2D Center { get { ... } }" in out["members"]
    assert out["under_translation"] == ("public Point2D Center { get { ... } }  (property with accessor bodies to "
                                        "write; not an auto-property)")
    assert "public double Radius { get; }" in out["members"]


# --- size bound -----------------------------------------------------------------------------------

def test_bound_cuts_the_biggest_parts_and_says_so():
    result = {"class": "X", "members": [f"public void M{i}(int a, int b)" for i in range(400)],
              "body": "x" * 3000}
    out = bound(result, limit=6000)
    assert size(out) <= 6000
    assert out["class"] == "X" and out["members"][:3] == ["public void M0(int a, int b)",
                                                         "public void M1(int a, int b)",
                                                         "public void M2(int a, int b)"]
    assert out["truncated"].startswith("members: ") and f"of 400 shown" in out["truncated"]
    small = {"a": [1, 2], "b": "c"}
    assert bound(dict(small)) == small


def test_big_class_is_truncated(tmp_path):
    java, cs = tmp_path / "j", tmp_path / "c"
    java.mkdir()
    cs.mkdir()
    (java / "Big.java").write_text("package p;\npublic class Big {\n" + "".join(
        f"    public int method{i}(int value) {{ return value + {i}; }}\n" for i in range(300)) + "}\n")
    long_body = "".join(f"            total += value * {i};\n" for i in range(400))
    (cs / "Big.cs").write_text("namespace P\n{\n    public class Big\n    {\n" + "".join(
        f"        public int Method{i}(int value) {{ return value + {i}; }}\n" for i in range(300))
        + f"        public int Long(int value)\n        {{\n            int total = 0;\n{long_body}"
        + "            return total;\n        }\n    }\n}\n")
    work = tmp_path / "w"
    Index.open(work).build(java, cs, progress=False)
    out = run_tool(ToolContext.from_workdir(work, function="Big.Method7(int)"), "get_target_class_info", {})
    assert size(out) <= 6000
    shown = len(out["members"])
    assert 50 < shown < 301 and out["truncated"].startswith(
        f"members: {shown} of 301 shown, those the Java method uses and their neighbours first; not shown: ")
    assert {"public int Method6(int value)", "public int Method7(int value)",
            "public int Method8(int value)"} <= set(out["members"])
    body = run_tool(ToolContext.from_workdir(work), "find_target_method_body", {"class_name": "Big", "method_name": "Long"})
    assert size(body) <= 6000
    text = body["overloads"][0]["body"]
    assert text.startswith("{\n    int total = 0;\n    total += value * 0;\n") and text.endswith(" ...")
    full = dedent_body(Index.open(work, must_exist=True).find_methods("target", "Big.Long")[0].body)
    assert full.startswith(text[:-4]) and len(full) > 10000
    assert body["truncated"] == f"overloads[0].body: first {len(text) - 4} of {len(full)} characters shown"


def test_cut_keeps_what_the_java_method_uses(tmp_path):
    """A 300-member class cut to fit: the members the method calls (mapped by name, far down the list)
    and their neighbours stay; the note names what was left out."""
    java, cs = tmp_path / "j", tmp_path / "c"
    java.mkdir()
    cs.mkdir()
    calls = "return method290(value) + getLimit();"
    (java / "Big.java").write_text("package p;\npublic class Big {\n" + "".join(
        f"    public int method{i}(int value) {{ {calls if i == 7 else f'return value + {i};'} }}\n"
        for i in range(300)) + "    public int getLimit() { return 3; }\n}\n")
    (cs / "Big.cs").write_text("namespace P\n{\n    public class Big\n    {\n" + "".join(
        f"        public int Method{i}(int value) {{ return value + {i}; }}\n" for i in range(300))
        + "        public int Limit { get { return 3; } }\n    }\n}\n")
    work = tmp_path / "w"
    Index.open(work).build(java, cs, progress=False)
    out = run_tool(ToolContext.from_workdir(work, function="Big.Method7(int)"), "get_target_class_info", {})
    assert size(out) <= 6000 and len(out["members"]) < 301
    kept = set(out["members"])
    assert {"public int Method289(int value)", "public int Method290(int value)", "public int Method291(int value)",
            "public int Limit { get; }", "public int Method7(int value)"} <= kept
    assert "Method150" in out["truncated"] and "Method290" not in out["truncated"]


def test_a_cut_keeps_the_fields_the_java_method_uses_whatever_their_initializer_calls(tmp_path):
    """libphonenumber's PhoneNumberUtil: `Map<..> countryCodeToNonGeographicalMetadataMap =
    Collections.synchronizedMap(..)` was named after the call in its initializer, cut from the class info though
    the method reads it (its `.keySet()` then had no type: `KeySet()`, CS1061), and the note listed `compile`,
    `synchronizedMap` as left-out fields. A field is named by what precedes its initializer."""
    from repotrans.tools.relevance import member_name

    java, cs = tmp_path / "j", tmp_path / "c"
    java.mkdir()
    cs.mkdir()
    fields = "".join(f"    static final java.util.regex.Pattern P{i} = java.util.regex.Pattern.compile(\"a{i}\");\n"
                     for i in range(150))
    (java / "Big.java").write_text(
        "package p;\nimport java.util.*;\npublic class Big {\n" + fields
        + "    private final Map<Integer, String> byCode =\n        Collections.synchronizedMap(new HashMap<Integer, "
        "String>());\n" + fields.replace(" P", " Q")
        + "    public Set<Integer> codes() { return byCode.keySet(); }\n}\n")
    (cs / "Big.cs").write_text("using System.Collections.Generic;\nnamespace P\n{\n    public class Big\n    {\n"
                               "        private Dictionary<int, string> byCode = new Dictionary<int, string>();\n"
                               "        public ICollection<int> Codes() { return byCode.Keys; }\n    }\n}\n")
    work = tmp_path / "w"
    Index.open(work).build(java, cs, progress=False)
    out = run_tool(ToolContext.from_workdir(work, function="Big.Codes()"), "get_source_class_info", {})
    assert len(out["fields"]) < 301 and any("byCode" in f for f in out["fields"]), out["truncated"]
    listed = out["truncated"].split("not shown: ", 1)[1].split(" (+", 1)[0].split(", ")
    assert all(re.fullmatch(r"[PQ]\d+", name) for name in listed), listed
    assert member_name("int[] xs = new int[3]") == "xs" and member_name("public void F(int a = 1)") == "F"
    assert member_name("public int Count { get; } = 5") == "Count" and member_name("Func<int, int> f = x => x") == "f"


def test_a_cut_keeps_the_ports_spelling_of_a_field_the_java_method_uses(tmp_path):
    """libphonenumber's `instance` is the port's `instance_`: cut from a long class info, the builtin then wrote
    `GetInstance == null` (CS0019). A field named as the mapping's conventions compare names (underscores, an
    `m_`/`_` prefix, case) counts as used."""
    java, cs = tmp_path / "j", tmp_path / "c"
    java.mkdir()
    cs.mkdir()
    (java / "Big.java").write_text("package p;\npublic class Big {\n" + "".join(
        f"    static final int K{i} = {i};\n" for i in range(300)) + "    private static Big instance = null;\n"
        + "    public static Big get() { if (instance == null) { instance = new Big(); } return instance; }\n}\n")
    (cs / "Big.cs").write_text("namespace P\n{\n    public class Big\n    {\n" + "".join(
        f"        public const int K{i} = {i};\n" for i in range(290)) + "        private static Big instance_;\n"
        + "".join(f"        public const int K{i} = {i};\n" for i in range(290, 300))
        + "        public static Big Get() { return instance_; }\n    }\n}\n")
    work = tmp_path / "w"
    Index.open(work).build(java, cs, progress=False)
    out = run_tool(ToolContext.from_workdir(work, function="Big.Get()"), "get_target_class_info", {})
    assert len(out["fields"]) < 301 and "private static Big instance_" in out["fields"], out["truncated"]


# --- CLI ------------------------------------------------------------------------------------------

def test_cli_tool(sample_workdir, capsys):
    w = str(sample_workdir)
    assert main(["--workdir", w, "tool", "find_target_class_info", '{"class_name": "Square"}']) == 0
    assert json.loads(capsys.readouterr().out)["class"] == "Acme.Geo.Shapes.Square"
    assert main(["--workdir", w, "tool", "get_source_class_info", "--function", TASK]) == 0
    assert json.loads(capsys.readouterr().out)["under_translation"] == \
        "@Override protected boolean containsPoint(Point2D point)"
    assert main(["--workdir", w, "tool", "find_target_imports"]) == 1
    assert json.loads(capsys.readouterr().out)["error"].startswith("no function under translation")
    assert main(["--workdir", w, "tool", "find_target_class_info", "{bad"]) == 2
    assert capsys.readouterr().err.startswith("repotrans: error: tool arguments are not JSON")
    assert main(["--workdir", w, "tool", "get_source_class_info", "--function", "Circle.Contain"]) == 2
    assert capsys.readouterr().err.startswith(
        "repotrans: error: no method matches 'Circle.Contain' (did you mean: "
        "Acme.Geo.Shapes.Circle.ContainsPoint(Point2D), org.acme.geometry.shapes.Circle.containsPoint(Point2D), ")


def test_bench_tools_on_a_generated_pair(tmp_path):
    """The latency benchmark runs every tool on a generated pair, and no call answers with an error."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_tools", ROOT / "scripts" / "bench_tools.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "bench.json"
    assert bench.main(["--generate", "12", "--limit", "8", "--repeat", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["index"] == {"files": 24, "types": 24, "methods": 312}
    assert set(figures["tools"]) == set(IMPLEMENTATIONS)
    for tool, r in figures["tools"].items():
        assert r["n"] == 8 and r["errors"] == 0, tool


def test_method_body_follows_the_base_the_compiler_binds(tmp_path):
    """Two project classes named Reader: `using Acme.Plain;` binds Decoder's base to Acme.Plain.Reader, so
    its inherited Read() is found there (a lookup by simple name found two and gave up)."""
    from tests.support.indexes import csharp_index
    index = csharp_index(tmp_path, {
        "Readers.cs": ("namespace Acme.Plain { public class Reader { public int Read() { return 1; } } }\n"
                       "namespace Acme.Fancy { public class Reader { public int Read() { return 2; } } }\n"),
        "Decoder.cs": "using Acme.Plain;\nnamespace Acme.Codec { public class Decoder : Reader { } }\n",
    })
    ctx = ToolContext(index, load_mapping(index))
    out = run_tool(ctx, "find_target_method_body", {"class_name": "Acme.Codec.Decoder", "method_name": "Read"})
    assert out["declared_in"] == "Acme.Plain.Reader"
    assert [o["body"] for o in out["overloads"]] == ["{ return 1; }"]
    info = run_tool(ctx, "find_target_class_info", {"class_name": "Acme.Codec.Decoder"})
    assert info["supertypes"] == ["Acme.Plain.Reader"]
    index.close()


def test_contexts_of_a_run_share_their_lookups_and_a_new_mapping_gets_its_own(bare):
    """The tools' lookups (API map, types by namespace) belong to the view a run made (tools.context.Lookups,
    passed on by for_task and by the run context), not to a module global keyed by index."""
    from repotrans.mapping.load import load_mapping
    from repotrans.tools.context import Lookups

    task_ctx = bare.for_task(TranslationTask("target:x", "source:y"))
    assert task_ctx.lookups is bare.lookups and task_ctx.task is not None and bare.task is None
    assert task_ctx.target_types_by_namespace() is bare.target_types_by_namespace()
    fresh = ToolContext(bare.index, bare.mapping)
    assert fresh.lookups is not bare.lookups and fresh.target_types_by_namespace() == bare.target_types_by_namespace()
    other = load_mapping(bare.index)
    with pytest.raises(ValueError):
        ToolContext(bare.index, other, lookups=bare.lookups)
    assert ToolContext(bare.index, other, lookups=Lookups(other)).lookups.mapping is other
