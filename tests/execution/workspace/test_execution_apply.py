"""apply_candidate: replacement by tree-sitter byte range, usings, helpers, line map."""
from __future__ import annotations


import pytest

from repotrans.errors import InputError
from repotrans.execution.workspace.apply import apply_candidate, plan_patch
from repotrans.index.store import Index
from tests.support.indexes import csharp_index

SHAPE = """\
using System;

namespace Acme.Geo
{
    public class Circle
    {
        private readonly double radius;

        public Circle(double radius)
        {
            this.radius = radius;
        }

        public double Area()
        {
            return Math.PI * radius * radius;
        }

        public double Diameter => 2 * radius;

        public double Scale(double factor) => radius * factor;

        private static double Square(double x)
        {
            return x * x;
        }
    }

    public abstract class Shape
    {
        public abstract double Area();
    }
}
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Index:
    return csharp_index(tmp_path_factory.mktemp("apply"), {"Circle.cs": SHAPE})


def method(index: Index, query: str):
    found = index.find_methods("target", query)
    assert len(found) == 1, [m.id for m in found]
    return found[0]


def test_body_replaces_only_the_body(index):
    m = method(index, "Circle.Area")
    new, line_map = apply_candidate(SHAPE, m, "{\n    return 3.0;\n}")
    assert "public double Area()\n        {\n    return 3.0;\n}\n" in new
    assert new.count("return Math.PI") == 0
    line = new.splitlines().index("    return 3.0;") + 1
    assert line_map.to_candidate(line) == 2
    assert line_map.to_candidate(line - 2) is None      # the kept header line


def test_whole_method_with_usings_and_helpers(index):
    m = method(index, "Circle.Area")
    code = ("using System.Linq;\nusing System;\n\npublic double Area()\n{\n    return Twice(radius);\n}\n\n"
            "// doubles\nprivate double Twice(double x)\n{\n    return x + x;\n}\n")
    patch = plan_patch(SHAPE, m, code)
    lines = patch.new_text.splitlines()
    assert lines[:3] == ["using System;", "using System.Linq;", ""]      # System is not repeated
    assert patch.line_map.to_candidate(2) == 1
    assert patch.mode == "member" and patch.surface_changed is False
    ret = lines.index("    return Twice(radius);") + 1
    helper = lines.index("private double Twice(double x)") + 1
    assert patch.line_map.to_candidate(ret) == 6
    assert patch.line_map.to_candidate(helper) == 10
    assert lines[helper - 2] == "// doubles"                            # its comment travels with it
    assert patch.new_text.count("public double Area()") == 1
    head = lines.index("        public double Area()") + 1
    assert patch.line_map.to_candidate(head) == 4


def test_header_change_and_public_helper_change_the_surface(index):
    m = method(index, "Circle.Area")
    assert plan_patch(SHAPE, m, "public virtual double Area() { return 1; }").surface_changed
    assert plan_patch(SHAPE, m, "public double Area() { return One(); }\n"
                                "public double One() { return 1; }").surface_changed
    assert not plan_patch(SHAPE, m, "public  double  Area() { return 1; }").surface_changed


def test_helper_identical_to_an_existing_member_is_not_duplicated(index):
    m = method(index, "Circle.Area")
    code = ("public double Area() { return Square(radius); }\n"
            "private static double Square(double x)\n        {\n            return x * x;\n        }\n")
    new, _ = apply_candidate(SHAPE, m, code)
    assert new.count("private static double Square") == 1


def test_expression_bodies(index):
    scale = method(index, "Circle.Scale")
    new, _ = apply_candidate(SHAPE, scale, "=> factor * radius")
    assert "public double Scale(double factor) => factor * radius;\n" in new
    new, _ = apply_candidate(SHAPE, scale, "{ return factor; }")
    assert "public double Scale(double factor) { return factor; }\n" in new   # the old ';' is gone
    prop = method(index, "Circle.Diameter")
    new, _ = apply_candidate(SHAPE, prop, "public double Diameter { get { return radius + radius; } }")
    assert "public double Diameter { get { return radius + radius; } }\n" in new


def test_bare_statements_become_a_block(index):
    m = method(index, "Circle.Area")
    new, line_map = apply_candidate(SHAPE, m, "var r = radius;\nreturn r * r;")
    assert "public double Area()\n        {\nvar r = radius;\nreturn r * r;\n}" in new
    assert line_map.to_candidate(new.splitlines().index("return r * r;") + 1) == 2


def test_constructor_and_overload_choice(index):
    ctor = method(index, "Circle.<init>")
    new, _ = apply_candidate(SHAPE, ctor, "public Circle(double radius) { this.radius = radius * 1; }")
    assert "this.radius = radius * 1;" in new and "this.radius = radius;\n" not in new


def test_garbage_is_spliced_for_the_compiler_to_judge(index):
    m = method(index, "Circle.Area")
    new, line_map = apply_candidate(SHAPE, m, "public double Area() { return radius +; }")
    assert "return radius +; }" in new
    new, _ = apply_candidate(SHAPE, m, "%%% not C# at all")
    assert "{\n%%% not C# at all\n}" in new


def test_body_for_abstract_method_is_an_input_error(index):
    m = method(index, "Shape.Area")
    with pytest.raises(InputError, match="no body"):
        apply_candidate(SHAPE, m, "{ return 1; }")
    new, _ = apply_candidate(SHAPE, m, "public abstract double Area();\npublic double Half() { return Area() / 2; }")
    assert "public double Half()" in new


def test_empty_candidate_is_an_input_error(index):
    with pytest.raises(InputError, match="empty"):
        apply_candidate(SHAPE, method(index, "Circle.Area"), "  \n")


def test_stale_byte_range_is_an_input_error(index):
    m = method(index, "Circle.Area")
    with pytest.raises(InputError, match="stale"):
        apply_candidate("class X {}", m, "{ return 1; }")


COUNTER = """\
namespace Acme
{
    public class Counter
    {
        private int count;
        private readonly System.Collections.Generic.List<int> seen = new System.Collections.Generic.List<int>();

        public int Step(int a, int b)
        {
            throw new System.NotImplementedException();
        }

        public Counter(int start)
        {
            count = start;
        }

        public int Count
        {
            get { throw new System.NotImplementedException(); }
            set { count = value; }
        }
    }
}
"""
BODIES = {   # body-only candidates that once were read as whole members (CS1519 / CS9010)
    "Counter.Step": ["while (a > 0) { a--; b++; }\nreturn b;",
                     "var s = a + b;\nseen.Add(s);\nreturn s;",
                     "int sum = a + b;\nreturn sum;",
                     "lock (seen) { seen.Add(a); }\nreturn a;",
                     "for (int i = 0; i < a; i++) { b++; }\nreturn b;"],
    "Counter.Counter": ["if (start < 0) { start = 0; }\ncount = start;", "var s = start;\ncount = s;"],
    "Counter.Count": ["return count;", "{ return count; }", "var c = count;\nreturn c;",
                      "get { return count; }\nset { count = value; }"],
}


@pytest.fixture(scope="module")
def counter(tmp_path_factory) -> Index:
    return csharp_index(tmp_path_factory.mktemp("apply-bodies"), {"Counter.cs": COUNTER})


@pytest.mark.parametrize("query,code", [(q, c) for q, codes in BODIES.items() for c in codes])
def test_a_body_only_candidate_is_read_as_a_body_and_compiles(counter, query, code, tmp_path):
    import subprocess

    patch = plan_patch(COUNTER, method(counter, query), code)
    assert patch.mode == "body"
    source = tmp_path / "Counter.cs"
    source.write_text(patch.new_text)
    built = subprocess.run(["mcs", "-target:library", f"-out:{tmp_path / 'c.dll'}", str(source)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + patch.new_text
    if query == "Counter.Count":
        assert "set { count = value; }" in patch.new_text       # the setter stays


@pytest.mark.parametrize("code", ["public int Count\n{\n    get\n    {\n        return count;\n    }\n}",
                                  "public int Count { get { return count; } }"])
def test_a_getter_only_property_declaration_keeps_the_members_setter(counter, code, tmp_path):
    import subprocess

    patch = plan_patch(COUNTER, method(counter, "Counter.Count"), code)
    assert patch.mode == "member"
    assert "return count;" in patch.new_text and patch.new_text.count("set { count = value; }") == 1
    assert "NotImplementedException();\n        }\n\n        public Counter" in patch.new_text  # Step untouched
    source = tmp_path / "Counter.cs"
    source.write_text(patch.new_text)
    built = subprocess.run(["mcs", "-target:library", f"-out:{tmp_path / 'c.dll'}", str(source)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + patch.new_text
    both = plan_patch(COUNTER, method(counter, "Counter.Count"),
                      "public int Count\n{\n    get { return count; }\n    set { count = value + 1; }\n}")
    assert "value + 1" in both.new_text and "set { count = value; }" not in both.new_text
