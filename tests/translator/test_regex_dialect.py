"""Java regex forms .NET lacks, where the literal is a regex (translator.regex_dialect): possessive quantifiers
(atomic groups), `\\Q..\\E` quoting, Java's own `\\p{javaLowerCase}` and POSIX `\\p{Alpha}` classes. Each is
compared with `java` on the same inputs; a string that is no regex keeps its text ("C++")."""
from __future__ import annotations

import pytest

from repotrans.translator.regex_dialect import java_regex
from repotrans.translator.resolver import ConventionResolver
from tests.support.policy_harness import java_and_shell_outputs, needs_toolchains

JAVA = """import java.util.regex.*;

public class Dialect {
    static String possessive(String s) {
        String aplus = "a++a";
        String digits = "^\\\\d*+\\\\.";
        return (Pattern.compile(aplus).matcher(s).find() ? "y" : "n") + (s.matches(digits + "\\\\d+") ? "y" : "n");
    }

    static String quoted(String s) {
        return s.replaceAll("\\\\Q1+1=2?\\\\E", "sum") + "|" + s.split("\\\\Q.*\\\\E").length;
    }

    static String classes(String s) {
        String lower = s.replaceAll("\\\\p{javaLowerCase}+", "l");
        String posix = s.replaceAll("[\\\\p{Alpha}&&[^a]]", "A").replaceAll("\\\\P{Digit}{2}", "_");
        return lower + "|" + posix + "|" + (s.matches("\\\\p{javaUpperCase}\\\\p{javaLetterOrDigit}*") ? "y" : "n");
    }

    static String plain() {
        return "C++ and a++";
    }

    public static void main(String[] args) {
        System.out.println("possessive: " + possessive("aaaa"));
        System.out.println("possessive: " + possessive("12.5"));
        System.out.println("quoted: " + quoted("x 1+1=2? y.*z"));
        System.out.println("classes: " + classes("Hello World42"));
        System.out.println("classes: " + classes("Q9bca"));
        System.out.println("plain: " + plain());
    }
}
"""

SHELL = """using System;
using System.Linq;
using System.Text.RegularExpressions;

public class Dialect
{
//@METHODS@

    public static void Main(string[] args)
    {
        Console.WriteLine("possessive: " + Possessive("aaaa"));
        Console.WriteLine("possessive: " + Possessive("12.5"));
        Console.WriteLine("quoted: " + Quoted("x 1+1=2? y.*z"));
        Console.WriteLine("classes: " + Classes("Hello World42"));
        Console.WriteLine("classes: " + Classes("Q9bca"));
        Console.WriteLine("plain: " + Plain());
    }
}
"""


def test_each_form_as_net_reads_it():
    assert java_regex('"a++b"') == '"(?>a+)b"'
    assert java_regex('"(ab|c)?+[a-z]{2,3}+"') == '"(?>(ab|c)?)(?>[a-z]{2,3})"'
    assert java_regex('"\\\\Qa.b*\\\\E"') == '"a\\\\.b\\\\*"'
    assert java_regex('"[\\\\p{javaLowerCase}0-9]\\\\p{Alpha}\\\\P{javaDigit}"') == '"[\\\\p{Ll}0-9][a-zA-Z]\\\\P{Nd}"'


@needs_toolchains
@pytest.mark.slow
def test_java_only_regex_forms_match_what_java_matches(tmp_path):
    expected, actual, code = java_and_shell_outputs(JAVA, "Dialect", SHELL, ConventionResolver(), tmp_path)
    assert expected["possessive"] == ["nn", "ny"]          # a++ leaves no `a` to match: the atomic group's point
    assert expected["plain"] == ["C++ and a++"]
    assert actual == expected
    assert '"C++ and a++"' in code
