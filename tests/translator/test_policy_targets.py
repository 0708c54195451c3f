"""Behaviour driven by the target signature: headers, parameter renames, properties, constructor
initializers, type parameters and generic invariance (exact output)."""
from __future__ import annotations

import pytest

from repotrans.errors import InputError
from repotrans.index.model import Method
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ConventionResolver


def target(signature: str, kind: str = "method", return_type: str | None = None,
           type_params: list[str] | None = None) -> Method:
    return Method(id="target:X.M", side="target", type_id="target:X", kind=kind, name="M", params=[],
                  return_type=return_type, modifiers=[], annotations=[], type_params=type_params or [],
                  signature=signature, body=None, path="X.cs", start_line=1, end_line=1, start_byte=0, end_byte=0)


def test_header_and_parameter_names_come_from_the_target():
    java = "public int add(int a, int b) { return a + b; }"
    assert translate_method(java, None, "public int Add(int left, int right)") == (
        "public int Add(int left, int right)\n{\n    return left + right;\n}")


def test_getter_and_setter_become_property_accessors():
    getter = translate_method("public double getRadius() { return radius; }", None,
                              target("public double Radius", kind="property"))
    assert getter == "public double Radius\n{\n    get\n    {\n        return radius;\n    }\n}"
    setter = translate_method("public void setRadius(double r) { radius = r; }", None, "public double Radius")
    assert setter == "public double Radius\n{\n    set\n    {\n        radius = value;\n    }\n}"


def test_constructor_initializer_is_translated_not_copied():
    java = 'Circle(double r) { super("circle"); this.r = r; }'
    out = translate_method(java, None, 'public Circle(double radius) : base("shape")')
    assert out == 'public Circle(double radius) : base("circle")\n{\n    this.r = radius;\n}'


def test_method_type_parameters_are_renamed():
    java = "public static <E> E first(List<E> xs) { E x = xs.get(0); return x; }"
    out = translate_method(java, None, target("public static TItem First<TItem>(IList<TItem> xs)",
                                               return_type="TItem", type_params=["TItem"]))
    assert out == "public static TItem First<TItem>(IList<TItem> xs)\n{\n    TItem x = xs[0];\n    return x;\n}"


def test_returned_local_takes_target_generic_arguments():
    java = "static List<List<Integer>> rows() { List<List<Integer>> out = new ArrayList<>(); return out; }"
    out = translate_method(java, None, target("static IList<IList<int>> Rows()", return_type="IList<IList<int>>"))
    assert out == ("static IList<IList<int>> Rows()\n{\n    List<IList<int>> @out = new List<IList<int>>();\n"
                   "    return @out;\n}")


def test_not_a_single_method_is_an_input_error():
    with pytest.raises(InputError, match="expected exactly one Java method, found 0"):
        translate_method("int x = 1;")


def test_instance_method_to_extension_method_uses_the_this_parameter():
    java = 'default String describe() { return getName() + ": " + area() + " " + this.sides; }'
    assert translate_method(java, None, "public static string Describe(this IShape shape)") == (
        "public static string Describe(this IShape shape)\n{\n"
        '    return shape.GetName() + ": " + shape.Area() + " " + shape.sides;\n}')


def test_types_outside_the_target_usings_are_qualified_but_the_header_is_kept():
    java = "static String join(Iterable<?> parts) { StringBuilder sb = new StringBuilder(); return sb.toString(); }"
    resolver = ConventionResolver(usings={"System"})
    assert translate_method(java, resolver, "public static string Join(IEnumerable parts)") == (
        "public static string Join(IEnumerable parts)\n{\n"
        "    System.Text.StringBuilder sb = new System.Text.StringBuilder();\n    return sb.ToString();\n}")
    assert translate_method("List<Integer> xs() { return new ArrayList<>(); }", resolver).split("\n")[0] == (
        "System.Collections.Generic.List<int> Xs()")


def test_jdk_static_without_a_table_entry_is_kept_as_a_static_call():
    assert translate_method("double f(double x) { return Math.ulp(x) + Math.acos(x); }") == (
        "double F(double x)\n{\n    return Math.Ulp(x) + Math.Acos(x);\n}")


def test_enum_method_as_extension_method_and_call_as_switch_subject():
    java = ("boolean isBalanceSheet() { switch (this) { case ASSET: case LIABILITY: return true; "
            "default: return false; } }")
    assert translate_method(java, None, "public static bool IsBalanceSheet(this AccountType type)") == (
        "public static bool IsBalanceSheet(this AccountType type)\n{\n    switch (type)\n    {\n"
        "        case AccountType.ASSET:\n        case AccountType.LIABILITY:\n            return true;\n"
        "        default:\n            return false;\n    }\n}")
    java = "static int f(char c) { switch (Character.toUpperCase(c)) { case 'A': return 1; default: return 0; } }"
    assert translate_method(java).split("\n")[2] == "    switch (char.ToUpperInvariant(c))"
