"""What ports nobody here tuned on taught the builtin (HdrHistogram.NET, Pinyin4j.Net): the port's own
exception type where Java's has a .NET twin it does not use, a String constant the port declares as a
`char`, a singleton's getter that the port exposes as its field, a type of Java's the port replaced, and a
comment or the candidate's own declaration that names a removed overload."""
from __future__ import annotations

from repotrans.mapping.api_map import ApiMap, Observation
from repotrans.translator.java2cs import translate_method
from repotrans.translator.resolver import ContextResolver
from repotrans.translator.tool_outputs import TargetType


def _seen(key: str, template: str, pair: str) -> Observation:
    return Observation(key, template, True, (), f"source:p.E.{pair}()", f"target:N.E.{pair}()", "", "")


def test_the_ports_exception_type_is_thrown_and_caught_whatever_the_arity():
    """HdrHistogram.NET throws ArgumentOutOfRangeException wherever HdrHistogram throws
    ArrayIndexOutOfBoundsException (seen with no argument and with a message, in two methods), and its
    tests catch that type: a masked `add` threw IndexOutOfRangeException (the table's) and failed testAdd."""
    java = ("long find(long[] xs, long v) { try { if (v < 0) throw new ArrayIndexOutOfBoundsException(\"no \" + v);"
            " return xs[(int) v]; } catch (ArrayIndexOutOfBoundsException e) { return -1; } }")
    resolver = ContextResolver("Box", {})
    resolver.api = ApiMap([_seen("new ArrayIndexOutOfBoundsException/0", "new ArgumentOutOfRangeException()", "a"),
                           _seen("new ArrayIndexOutOfBoundsException/1",
                                 'new ArgumentOutOfRangeException("buffer", {1})', "b")])
    code = translate_method(java, resolver, "public long Find(long[] xs, long v)")
    assert 'throw new ArgumentOutOfRangeException(null, "no " + v);' in code, code
    assert "catch (Exception e) when (e is IndexOutOfRangeException || e is ArgumentOutOfRangeException)" in code
    plain = translate_method(java, ContextResolver("Box", {}), "public long Find(long[] xs, long v)")
    assert "throw new IndexOutOfRangeException(" in plain and "catch (IndexOutOfRangeException e)" in plain


def test_a_string_constant_the_port_declares_as_a_char_is_read_as_a_string():
    """pinyin4j's `Field.LEFT_BRACKET = "("` is Pinyin4j.Net's `const char LEFT_BRACKET = '('`: a String
    method on it or taking it (`startsWith`, `length()`) had no such char overload (CS1502, CS1061)."""
    field = TargetType("Field", fields={"LEFT_BRACKET": "char", "COMMA": "char"})
    resolver = ContextResolver("Resource", {"Resource": TargetType("Resource"), "Field": field})
    java = ("int cut(String record) { if (record.startsWith(Field.LEFT_BRACKET)) return Field.LEFT_BRACKET.length();"
            " return record.indexOf(Field.COMMA); }")
    code = translate_method(java, resolver, "private int Cut(string record)")
    assert "record.StartsWith(Field.LEFT_BRACKET.ToString(), StringComparison.Ordinal)" in code, code
    assert "return Field.LEFT_BRACKET.ToString().Length;" in code
    assert "record.IndexOf(Field.COMMA)" in code          # indexOf(int ch): Java's char overload stays


def test_a_singletons_getter_is_the_field_the_port_exposes():
    """`GwoyeuRomatzyhResource.getInstance()` is Pinyin4j.Net's `GwoyeuRomatzyhResource.Instance` (a static
    readonly field, no method): it was `new GwoyeuRomatzyhResource()` (the shared-instance factory rule, a
    private constructor) and the property read on it went by convention."""
    resource = TargetType("GwoyeuRomatzyhResource", fields={"Instance": "GwoyeuRomatzyhResource"},
                          properties={"PinyinToGwoyeuMappingDoc": "XmlDocument"})
    resolver = ContextResolver("Translator", {"Translator": TargetType("Translator"),
                                              "GwoyeuRomatzyhResource": resource})
    java = ("static String first() { Document doc = GwoyeuRomatzyhResource.getInstance().getPinyinToGwoyeuMappingDoc();"
            " return doc.toString(); }")
    code = translate_method(java, resolver, "public static string First()")
    assert "var doc = GwoyeuRomatzyhResource.Instance.PinyinToGwoyeuMappingDoc;" in code, code
    assert "new GwoyeuRomatzyhResource" not in code


def test_a_comment_or_the_own_declaration_calls_no_removed_overload():
    from repotrans.index.model import Method, Param
    from repotrans.translator.helpers import add_helpers

    helper = Method("source:p.D.out(PrintStream, Double)", "source", "source:p.D", "method", "out",
                    [Param("s", "PrintStream"), Param("r", "Double")], "void", ["public"], [], [],
                    "public void out(PrintStream s, Double r)", "{ out(s, 5, r); }", "D.java", 1, 1, 0, 0)
    code = ("public void out(TextWriter s, int t = 5, Double r = 1.0)\n{\n"
            "    // what out() reports is the distribution\n    s.Write(t);\n}")
    port = TargetType("D", methods=["public void out(TextWriter s, int t = 5, Double r = 1.0)"])
    added = add_helpers(code, [helper], ContextResolver("D", {"D": port}), lambda m, r: "x")
    assert added == code


def test_a_logger_the_port_dropped_leaves_a_comment_and_a_matcher_walks_its_input():
    """libphonenumber logs through `LOGGER.log(Level.FINER, ..)`; libphonenumber-csharp has no logger (CS0103
    on LOGGER). Its regex walks (`Matcher m = P.matcher(s); if (m.find()) .. m.start()`) are a cursor over
    the Regex and the input; a matcher used once is the Regex over that input."""
    own = TargetType("Util", java_fields={"LOGGER": "Logger", "DIGITS": "Pattern"}, fields={"DIGITS": "Regex"})
    resolver = ContextResolver("Util", {"Util": own})
    java = ("static String cut(String number) { Matcher m = DIGITS.matcher(number); if (m.find()) {"
            " number = number.substring(m.start()); LOGGER.log(Level.FINER, \"cut \" + number); }"
            " return DIGITS.matcher(number).replaceFirst(\"\"); }")
    code = translate_method(java, resolver, "public static String Cut(String number)")
    assert "// LOGGER.log(Level.FINER, \"cut \" + number): logging the port dropped with LOGGER" in code, code
    assert "Regex m__re = DIGITS;" in code and "string m__in = number;" in code
    assert "if ((m = (m == null ? m__re.Match(m__in) : m.NextMatch())).Success)" in code
    assert "number = number.Substring(m.Index);" in code
    assert 'return DIGITS.Replace(number, "", 1);' in code


def test_a_matcher_used_once_on_the_ports_own_regex_type():
    """libphonenumber-csharp declares its patterns as `PhoneRegex` (a Regex of its own): Java's
    `VALID_ALPHA_PHONE_PATTERN.matcher(strippedNumber).matches()` was `.Matcher(..).Matches()` (CS1061)."""
    own = TargetType("Util", fields={"ALPHA": "PhoneRegex"})
    code = translate_method("boolean alpha(StringBuilder n) { return ALPHA.matcher(n).matches(); }",
                            ContextResolver("Util", {"Util": own}), "public bool IsAlpha(StringBuilder n)")
    assert 'return new System.Text.RegularExpressions.Regex("^(?:" + ALPHA + ")\\\\z", ALPHA.Options)' \
           '.IsMatch(n.ToString());' in code, code


def test_a_caught_type_is_a_throwable_whatever_its_name():
    """pinyin4j's tests catch BadHanyuPinyinOutputFormatCombination (an Exception without the suffix) and call
    e.printStackTrace(): a type a catch clause names is a Throwable, so Throwable's entries apply (CS1061
    `PrintStackTrace` made the whole translated fixture not build)."""
    java = ("void run() { try { go(); } catch (BadHanyuPinyinOutputFormatCombination e) { e.printStackTrace();"
            " String m = e.getMessage(); } }")
    resolver = ContextResolver("Box", {"Box": TargetType("Box", methods=["void Go()"])})
    code = translate_method(java, resolver, "public void Run()")
    assert "Console.Error.WriteLine(e);" in code and "string m = e.Message;" in code, code
