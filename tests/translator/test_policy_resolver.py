"""The resolvers: JDK type mapping, conventions, and the resolver built from real tool output shapes."""
from __future__ import annotations

from repotrans.translator.java2cs import translate_method
from repotrans.translator.cs_types import split_type
from repotrans.translator.resolver import ContextResolver, ConventionResolver

OUTPUTS = [
    ("get_source_class_info", {}, {"class": "org.acme.Pair", "declaration": "public final class Pair<A, B>",
                                   "fields": ["private final A first", "private final B second",
                                              "private int hits = 0"],
                                   "members": ["public Pair(A first, B second)", "public A getFirst()",
                                               "public <C> Pair<A, C> withSecond(C value)"]}),
    ("get_target_class_info", {}, {"class": "Acme.Common.Pair", "declaration": "public sealed class Pair<TFirst, TSecond>",
                                   "bases": ["PairBase", "IEquatable<Pair<TFirst, TSecond>>"],
                                   "supertypes": ["Acme.Common.PairBase"],
                                   "fields": ["private readonly TFirst first", "private int _hits = 0"],
                                   "members": ["public Pair(TFirst first, TSecond second)",
                                               "public TFirst First { get; }",
                                               "public Pair<TFirst, TResult> WithSecond<TResult>(TResult value)"]}),
    ("find_target_imports", {}, {"usings": [{"using": "using System;"}, {"using": "using Sys = System.IO;"},
                                            {"using": "using System.Collections.Generic;"}]}),
    ("find_target_class_info", {"class_name": "PairBase"}, {"class": "Acme.Common.PairBase", "fields": [],
                                                            "members": ["public int Count { get; }",
                                                                        "public static int Describe(int x)"]}),
    ("find_target_class_info", {"class_name": "Missing"}, {"error": "no class Missing", "did_you_mean": []}),
]


def test_split_type():
    assert split_type("Map<String, List<Integer>>[]") == ("Map", ["String", "List<Integer>"], 1)
    assert split_type("int...") == ("int", [], 1)


def test_convention_type_names():
    r = ConventionResolver()
    assert r.type_name("Map<String, List<Integer>>") == "Dictionary<string, List<int>>"
    assert r.type_name("Map.Entry<K, V>") == "KeyValuePair<K, V>"
    assert r.type_name("BiFunction<Integer, String, Boolean>") == "Func<int, string, bool>"
    assert r.type_name("Predicate<String>") == "Func<string, bool>"
    assert r.type_name("Comparator") == "Comparison<object>"
    assert r.type_name("Iterable") == "System.Collections.IEnumerable"
    assert r.type_name("List<? extends Number>") == "List<object>"
    assert r.type_name("IllegalArgumentException") == "ArgumentException"
    assert r.method_name(None, "getName", 0) == "GetName" and r.property_name(None, "getName", 0) is None


def test_context_resolver_from_tool_outputs():
    r = ContextResolver.from_tool_outputs("Pair", OUTPUTS)
    pair = r.types["Pair"]
    assert (pair.name, pair.supertypes, pair.type_params) == ("Pair", ["PairBase"], ["TFirst", "TSecond"])
    assert pair.fields == {"first": "TFirst", "_hits": "int"}
    assert pair.properties == {"First": "TFirst"}
    assert pair.java_fields == {"first": "A", "second": "B", "hits": "int"}
    assert pair.java_methods == {"getFirst/0": "A", "withSecond/1": "Pair<A, C>"}
    assert set(r.types) == {"Pair", "PairBase"}
    assert r.usings() == frozenset({"System", "System.Collections.Generic"})
    assert r.type_params() == {"A": "TFirst", "B": "TSecond"}
    assert r.property_name(None, "getFirst", 0) == "First"
    assert r.property_name(None, "getCount", 0) == "Count"          # inherited from PairBase
    assert r.property_name(None, "withSecond", 1) is None
    assert r.method_name(None, "withSecond", 1) == "WithSecond"
    assert r.method_name(None, "describe", 1) == "Describe"          # inherited
    assert r.field_name(None, "hits") == "_hits"
    assert r.members(None) == ["first", "_hits", "First", "Pair", "WithSecond", "Count", "Describe"]


def test_translation_uses_context_names():
    r = ContextResolver.from_tool_outputs("Pair", OUTPUTS)
    java = "public Pair<B, A> swap() { hits++; return new Pair<>(second, getFirst()); }"
    assert translate_method(java, r, "public Pair<TSecond, TFirst> Swap()") == (
        "public Pair<TSecond, TFirst> Swap()\n{\n    _hits++;\n"
        "    return new Pair<TSecond, TFirst>(second, First);\n}")


def test_unknown_own_method_is_called_on_this():
    r = ContextResolver.from_tool_outputs("Pair", OUTPUTS)
    java = "public String show() { return summarize() + withSecond(1); }"
    assert translate_method(java, r, "public string Show()") == (
        "public string Show()\n{\n    return this.Summarize() + WithSecond(1);\n}")


def test_getter_of_a_field_the_target_lacks_is_an_auto_property():
    r = ContextResolver.from_tool_outputs("Pair", OUTPUTS)
    assert translate_method("public B getSecond() { return second; }", r, "public TSecond Second") == (
        "public TSecond Second\n{\n    get\n    {\n        return second;\n    }\n}")
    outputs = OUTPUTS + [("find_target_class_info", {"class_name": "Money"},
                          {"class": "Money", "fields": [], "members": ["public long Cents { get; }"]})]
    money = ContextResolver.from_tool_outputs("Money", outputs)
    assert translate_method("public long getCents() { return this.cents; }", money, "public long Cents") == (
        "public long Cents { get; }")


def test_enum_constants_take_the_target_spelling():
    outputs = [("find_target_class_info", {"class_name": "AmountStyle"},
                {"class": "Ledgerly.Reporting.AmountStyle", "kind": "enum", "enum_constants": ["Plain", "Signed"],
                 "fields": [], "members": []})]
    r = ContextResolver.from_tool_outputs("Amounts", outputs)
    java = ("static String f(AmountStyle style) { switch (style) { case PLAIN: return \"p\"; default: "
            "return style == AmountStyle.SIGNED ? \"s\" : \"?\"; } }")
    assert translate_method(java, r, "public static string F(AmountStyle style)") == (
        "public static string F(AmountStyle style)\n{\n    switch (style)\n    {\n        case AmountStyle.Plain:\n"
        "            return \"p\";\n        default:\n"
        "            return style == AmountStyle.Signed ? \"s\" : \"?\";\n    }\n}")


ENUM_OUTPUTS = [("find_target_class_info", {"class_name": "Level"},
                 {"class": "Acme.Level", "kind": "enum", "enum_constants": ["Low", "High"], "fields": [], "members": []}),
                ("find_target_class_info", {"class_name": "Mode"},
                 {"class": "Acme.Mode", "kind": "class", "fields": [],
                  "members": ["public int ordinal()", "public static Mode[] values()"]})]


def test_java_enum_api_maps_onto_a_csharp_enum_and_keeps_a_class_port_own_members():
    r = ContextResolver.from_tool_outputs("Codec", ENUM_OUTPUTS)
    java = ("static int f(Level a, Level b, Mode m) { return a.ordinal() + a.compareTo(b) + a.name().length()"
            " + Level.values().length + Level.valueOf(\"High\").ordinal() + m.ordinal() + Mode.values().length; }")
    assert translate_method(java, r, "public static int F(Level a, Level b, Mode m)") == (
        "public static int F(Level a, Level b, Mode m)\n{\n    return (int)a + ((int)a).CompareTo((int)b)"
        " + a.ToString().Length + ((Level[])Enum.GetValues(typeof(Level))).Length"
        " + (int)((Level)Enum.Parse(typeof(Level), \"High\")) + m.ordinal() + Mode.values().Length;\n}")


def test_a_shared_instance_factory_the_port_dropped_becomes_its_constructor():
    outputs = [("find_target_class_info", {"class_name": "FormatException"},
                {"class": "Acme.FormatException", "kind": "class", "fields": [],
                 "members": ["public FormatException()", "public FormatException(string message)"]}),
               ("find_target_class_info", {"class_name": "Checksum"},
                {"class": "Acme.Checksum", "kind": "class", "fields": [],
                 "members": ["public static Checksum getChecksumInstance()"]})]
    r = ContextResolver.from_tool_outputs("Codec", outputs)
    java = ("static void f(int x) { if (x < 0) throw FormatException.getFormatInstance();"
            " if (x > 9) throw Checksum.getChecksumInstance(); }")
    assert translate_method(java, r, "public static void F(int x)") == (
        "public static void F(int x)\n{\n    if (x < 0)\n    {\n        throw new FormatException();\n    }\n"
        "    if (x > 9)\n    {\n        throw Checksum.getChecksumInstance();\n    }\n}")


# NSoup's XmlTreeBuilder.Process (jsoup `switch (token.type) { case StartTag: ... }`): the subject is a field of
# another type the context knows only from the C# side (`public TokenType Type { get; }`), the enum is nested in
# Token, so from XmlTreeBuilder C# needs `case Token.TokenType.StartTag:`.
NSOUP_TOKEN = [("find_target_class_info", {"class_name": "Token"},
                {"class": "NSoup.Parse.Token", "kind": "class", "fields": ["TokenType _type"],
                 "members": ["public StartTag AsStartTag()", "public TokenType Type { get; }"],
                 "nested_types": ["class NSoup.Parse.Token.StartTag", "enum NSoup.Parse.Token.TokenType"]}),
               ("find_target_class_info", {"class_name": "TokenType"},
                {"class": "NSoup.Parse.Token.TokenType", "kind": "enum", "fields": [], "members": [],
                 "enum_constants": ["Doctype", "StartTag", "EndTag", "Comment", "Character", "EOF"]})]


def test_enum_case_labels_take_the_nested_enum_of_a_field_read_through_its_csharp_property():
    r = ContextResolver.from_tool_outputs("XmlTreeBuilder", NSOUP_TOKEN)
    java = ("protected boolean process(Token token) { switch (token.type) { case StartTag: insert(token.asStartTag());"
            " break; case Character: break; default: break; } return true; }")
    out = translate_method(java, r, "public override bool Process(Token token)")
    assert "switch (token.Type)" in out
    assert "case Token.TokenType.StartTag:" in out and "case Token.TokenType.Character:" in out
    inside = ContextResolver.from_tool_outputs("Token", NSOUP_TOKEN)     # inside Token the simple name is found
    assert "case TokenType.StartTag:" in translate_method(java.replace("token.type", "type"), inside,
                                                           "public bool Process(Token token)")


def test_enum_case_labels_of_an_unknown_subject_are_qualified_by_the_context_enum_declaring_them():
    outputs = [("find_target_class_info", {"class_name": "Level"},
                {"class": "Acme.Level", "kind": "enum", "enum_constants": ["Low", "High"], "fields": [], "members": []})]
    r = ContextResolver.from_tool_outputs("Codec", outputs)
    java = "static int f(Gauge g) { switch (g.level()) { case LOW: return 1; case HIGH: return 2; } return 0; }"
    out = translate_method(java, r, "public static int F(Gauge g)")
    assert "case Level.Low:" in out and "case Level.High:" in out
    # no enum declares them: the names are kept, never read as JDK types (`Character` is no `char` here)
    java = "static int f(Gauge g) { switch (g.kind()) { case Character: return 1; case LOW: return 2; } return 0; }"
    out = translate_method(java, r, "public static int F(Gauge g)")
    assert "case Character:" in out and "case char:" not in out
