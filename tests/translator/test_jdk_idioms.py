"""The JDK as ports write it: each category of tests/data/policy/JdkIdioms.java (LinkedList, Deque and
Queue, URL encoding, Calendar/Date/TimeZone, String.format, Arrays/Collections helpers, character
classes, ListIterator and Iterator walks that remove, set and add, PrintWriter/PrintStream as a TextWriter, Matcher walks,
BigInteger/BigDecimal, exceptions thrown and caught as their .NET counterparts) is translated method by method,
compiled with real mcs (C# 6), run with mono, and its output compared line by line with `java`."""
from __future__ import annotations

import pytest

from repotrans.translator.resolver import ConventionResolver
from tests.support.policy_harness import java_and_translation_outputs, needs_toolchains

CATEGORIES = ["linkedList", "deque", "queue", "urlCodec", "calendars", "dates", "zones", "format", "writers", "regexWalks",
              "arraysHelpers",
              "collectionsHelpers", "characterClasses", "listIterator", "iteratorRemove", "bigNumbers", "exceptions"]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    return java_and_translation_outputs("JdkIdioms", tmp_path_factory.mktemp("jdk_idioms"))


@needs_toolchains
@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
def test_category_matches_java(outputs, category):
    expected, actual, _ = outputs
    assert expected.get(category), f"java printed nothing for {category}"
    assert actual.get(category) == expected[category]


@needs_toolchains
@pytest.mark.slow
def test_every_category_is_covered(outputs):
    expected, actual, _ = outputs
    assert sorted(expected) == sorted(CATEGORIES)


def test_the_ports_own_idiom_wins_over_the_table():
    """A port that keeps Java's LinkedList as a C# LinkedList<T> writes getFirst() as `.First.Value`: its
    learned map answers before the table's `xs[0]` (which answers with the map off)."""
    from repotrans.mapping.api_map import ApiMap, Observation
    from repotrans.translator.java2cs import translate_method
    from repotrans.translator.resolver import ContextResolver

    java = "String head(LinkedList<String> xs) { return xs.getFirst(); }"
    plain = translate_method(java, ContextResolver("Box", {}), "public string Head(LinkedList<string> xs)")
    assert "return xs[0];" in plain, plain
    resolver = ContextResolver("Box", {})
    resolver.api = ApiMap([Observation("LinkedList#getFirst/0", "{0}.First.Value", True, (), f"source:p.E.{p}()",
                                       f"target:N.E.{p}()", "q.getFirst()", "q.First.Value") for p in "ab"])
    learned = translate_method(java, resolver, "public string Head(LinkedList<string> xs)")
    assert "return xs.First.Value;" in learned, learned


def test_a_list_iterator_is_an_index_cursor_over_its_list():
    """Exact C#: the walk's position and last index are two locals; remove/set/add act on the list."""
    from repotrans.translator.java2cs import translate_method

    java = ("void strip(List<String> xs) { ListIterator<String> it = xs.listIterator(); while (it.hasNext()) {"
            " String s = it.next(); if (s.isEmpty()) it.remove(); else it.set(s.trim()); } }")
    code = translate_method(java, ConventionResolver(), "public void Strip(List<string> xs)")
    assert code == ("public void Strip(List<string> xs)\n{\n    int it = 0;\n    int it__last = -1;\n"
                    "    while ((it < xs.Count))\n    {\n        string s = xs[it__last = it++];\n"
                    "        if ((s.Length == 0))\n        {\n"
                    "            { xs.RemoveAt(it__last); if (it__last < it) { it--; } it__last = -1; }\n"
                    "        }\n        else\n        {\n            xs[it__last] = s.Trim();\n        }\n    }\n}"), code


def test_a_jdk_class_written_with_its_package_is_the_same_call():
    """HdrHistogram's `java.util.Arrays.fill(counts, 0)` was emitted as is (CS0103: `java'); a JDK class named
    with its package translates exactly as its simple name does."""
    from repotrans.translator.java2cs import translate_method

    def body(calls: str) -> str:
        return translate_method(f"void f(int[] a, long x) {{ {calls} }}").split("{", 1)[1]

    qualified = "java.util.Arrays.fill(a, 0); java.util.Arrays.sort(a); long m = java.lang.Math.max(x, 2L);"
    assert body(qualified) == body(qualified.replace("java.util.", "").replace("java.lang.", ""))
    assert "java." not in body(qualified)


def test_a_jdk_type_written_with_its_package_takes_its_methods_as_its_simple_name_does():
    """libphonenumber declares `java.util.List<NumberFormat> numberFormat_`: its `numberFormat_.size()` was emitted as
    `.Size()` (CS1061 on the port's List). A variable, parameter or field of a JDK type written with its package
    translates exactly as one of its simple name."""
    from repotrans.translator.java2cs import translate_method

    java = ("int f(java.util.List<String> xs) { java.util.Map<String, Integer> m = new java.util.HashMap<String, "
            "Integer>(); m.put(\"a\", 1); java.util.Iterator<String> it = xs.iterator(); "
            "while (it.hasNext()) { if (it.next().isEmpty()) it.remove(); } return xs.size() + m.keySet().size(); }")
    code = translate_method(java, ConventionResolver())
    plain = translate_method(java.replace("java.util.", ""), ConventionResolver())
    assert code == plain and "xs.Count" in code and "m.Keys.Count" in code, code


def test_an_iterables_iterator_is_its_enumerator():
    """libphonenumber's JUnit tests walk `phoneUtil.findNumbers(..).iterator()`, an Iterable the port returns as
    IEnumerable<T>: it was `.Iterator()` (CS1061), and the translated fixture did not build."""
    from repotrans.translator.java2cs import translate_method

    java = "boolean any(Iterable<String> xs) { Iterator<String> it = xs.iterator(); return it.hasNext(); }"
    code = translate_method(java, ConventionResolver(), "public bool Any(IEnumerable<string> xs)")
    assert "IEnumerator<string> it = xs.GetEnumerator();" in code and "return it.MoveNext();" in code, code


def test_a_null_parameter_check_throws_dotnets_argument_exception():
    """libphonenumber's PhoneNumberMatch(start, rawString, number) throws NullPointerException when an argument is
    null; .NET code (and the port's own tests) expect ArgumentNullException, an ArgumentException. A guard on a
    field keeps NullReferenceException."""
    from repotrans.translator.java2cs import translate_method

    java = ("void set(String raw, Object n) { if (raw == null || n == null) { throw new NullPointerException(); }"
            " if (null == n) throw new NullPointerException(\"n\"); if (cache == null) throw new NullPointerException(); }")
    code = translate_method(java, ConventionResolver())
    assert code.count("throw new ArgumentNullException();") == 1, code
    assert 'throw new ArgumentNullException(null, "n");' in code and "throw new NullReferenceException();" in code, code


NULL_CHECKS = """public class NullChecks {
    static int length(String text) {
        if (text == null) {
            throw new NullPointerException("text");
        }
        return text.length();
    }

    static String guarded(String text) {
        try {
            return "length " + length(text);
        } catch (NullPointerException e) {
            return "caught " + e.getMessage();
        }
    }

    public static void main(String[] args) {
        System.out.println("check: " + guarded("abc"));
        System.out.println("check: " + guarded(null));
    }
}
"""


@needs_toolchains
@pytest.mark.slow
def test_a_translated_catch_of_npe_catches_the_translated_argument_check(tmp_path):
    """libphonenumber's PhoneNumberMatchTest catches the NullPointerException its constructor throws for a null
    argument: the throw is ArgumentNullException in C# (above), so the catch takes it too (it failed the
    translated test while the port's own test, which catches ArgumentNullException, passed)."""
    from tests.support.policy_harness import java_and_shell_outputs

    shell = "using System;\n\npublic class NullChecks\n{\n//@METHODS@\n\n    public static void Main(string[] args)\n" \
            "    {\n        Console.WriteLine(\"check: \" + Guarded(\"abc\"));\n" \
            "        Console.WriteLine(\"check: \" + Guarded(null));\n    }\n}\n"
    expected, actual, code = java_and_shell_outputs(NULL_CHECKS, "NullChecks", shell, ConventionResolver(), tmp_path)
    assert expected["check"] == ["length 3", "caught text"] and actual == expected
    assert "throw new ArgumentNullException(null, \"text\");" in code, code


def test_a_catch_takes_its_java_subclasses_and_leaves_a_later_clauses_type_to_it():
    """Java's IllegalArgumentException catch takes NumberFormatException (.NET's FormatException, no
    ArgumentException); before a clause for IndexOutOfBoundsException it leaves out ArgumentOutOfRangeException,
    which .NET derives from ArgumentException (an unfiltered `catch (ArgumentException)` there was CS0160). A
    clause alone keeps .NET's subclasses (a port throws ArgumentNullException for Java's argument checks)."""
    from repotrans.translator.java2cs import translate_method

    java = ("int f(String s, List<Integer> xs) { try { return Integer.parseInt(s) + xs.get(0); }"
            " catch (IllegalArgumentException e) { return -1; } catch (IndexOutOfBoundsException e) { return -2; } }")
    code = translate_method(java, ConventionResolver())
    assert ("catch (Exception e) when ((e is ArgumentException || e is FormatException || e is OverflowException)"
            " && !(e is ArgumentOutOfRangeException))") in code, code
    assert "catch (Exception e) when (e is ArgumentOutOfRangeException || e is IndexOutOfRangeException)" in code, code
    alone = translate_method("int g(String s) { try { return Integer.parseInt(s); } catch (IllegalArgumentException e)"
                             " { return -1; } }", ConventionResolver())
    assert "when (e is ArgumentException || e is FormatException || e is OverflowException)" in alone, alone
    plain = translate_method("int h(int[] a) { try { return a[0] / a[1]; } catch (ArithmeticException e) { return 0; } }",
                             ConventionResolver())
    assert "catch (ArithmeticException e)" in plain, plain
